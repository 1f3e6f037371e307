package karmada

// Options are server settings that change how the Karmada kinds are
// validated.
type Options struct {
	// AllowNoExecuteTaintPolicy accepts ClusterTaintPolicies with NoExecute
	// taints (mco-apiserver's --allow-no-execute-taint-policy).
	AllowNoExecuteTaintPolicy bool
}

// Option changes one setting.
type Option func(*Options)

// defaultOptions are the settings when no Option changes them.
func defaultOptions() Options {
	return Options{AllowNoExecuteTaintPolicy: true}
}

// WithAllowNoExecuteTaintPolicy sets whether ClusterTaintPolicies may hold
// NoExecute taints.
func WithAllowNoExecuteTaintPolicy(allow bool) Option {
	return func(o *Options) { o.AllowNoExecuteTaintPolicy = allow }
}
