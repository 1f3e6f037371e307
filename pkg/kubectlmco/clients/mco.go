// Package clients gives the plugin's commands their connections: mco's from
// kubectl's own flags (--kubeconfig, --context, -n, ...), a member's from its
// kubeconfig file, a member's through mco's cluster proxy, and errors that
// say which server failed and how.
package clients

import (
	"fmt"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/kubeconfig"
)

// Client rates: the plugin makes few requests, and client-side throttling
// would only print "Waited for ..." lines.
const (
	qps   = 50
	burst = 100
)

// Factory turns kubectl's connection flags into clients of mco.
type Factory struct {
	Flags *genericclioptions.ConfigFlags
}

// NewFactory returns a factory with kubectl's default flags; add them to a
// command with f.Flags.AddFlags.
func NewFactory() *Factory {
	return &Factory{Flags: genericclioptions.NewConfigFlags(true)}
}

// RESTConfig is mco's rest.Config as the flags select it.
func (f *Factory) RESTConfig() (*rest.Config, error) {
	cfg, err := f.Flags.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("mco's kubeconfig: %w", err)
	}
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = qps, burst
	return cfg, nil
}

// Namespace is the namespace of -n, or else of the kubeconfig's context.
func (f *Factory) Namespace() (string, error) {
	ns, _, err := f.Flags.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return "", fmt.Errorf("mco's kubeconfig: %w", err)
	}
	return ns, nil
}

// MCO returns clients of mco's built-in and own API groups.
func MCO(cfg *rest.Config) (kubernetes.Interface, mcoclient.Interface, error) {
	kube, err := kubernetes.NewForConfig(kubeconfig.Protobuf(cfg))
	if err != nil {
		return nil, nil, fmt.Errorf("client of mco: %w", err)
	}
	mco, err := mcoclient.NewForConfig(kubeconfig.Protobuf(cfg))
	if err != nil {
		return nil, nil, fmt.Errorf("client of mco: %w", err)
	}
	return kube, mco, nil
}
