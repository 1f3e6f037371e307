// Package options holds mco-apiserver's flags and turns them into a running
// server: Complete fills defaults and the PKI, Validate checks, Run serves.
package options

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apiserver/pkg/registry/generic"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/apiserver"
	"github.com/mco-org/mco/pkg/apiserver/etcd"
	"github.com/mco-org/mco/pkg/apiserver/pki"
	"github.com/mco-org/mco/pkg/apiserver/satoken"
	"github.com/mco-org/mco/pkg/component"
	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/registry/serviceaccounttoken"
)

// DefaultSecurePort is the port served when --secure-port is not given.
const DefaultSecurePort = 6443

// DefaultServiceAccountIssuer is the issuer of ServiceAccount tokens when
// --service-account-issuer is not given.
const DefaultServiceAccountIssuer = "https://mco-apiserver"

// Options are mco-apiserver's flags.
type Options struct {
	// Mode is ModeStandalone or ModeAggregated.
	Mode string
	// Aggregated are the flags of ModeAggregated.
	Aggregated Aggregated
	// TLSSANs are names and addresses the generated serving certificate
	// carries besides --bind-address, localhost and 127.0.0.1.
	TLSSANs []string
	// DataDir holds the PKI, admin.kubeconfig and the embedded etcd's data.
	DataDir string
	// TokenAuthFile lists bearer tokens (Kubernetes' static token CSV).
	TokenAuthFile string
	// AuthorizationMode names the authorizer (one of apiserver.AuthorizationModes).
	AuthorizationMode string
	// ClusterProxyTimeout bounds the wait for a member's response headers
	// through the cluster proxy.
	ClusterProxyTimeout time.Duration
	// AllowNoExecuteTaintPolicy accepts ClusterTaintPolicies with NoExecute
	// taints. On by default, unlike Karmada's webhook: mco's default
	// failover policy is one.
	AllowNoExecuteTaintPolicy bool
	// AllowPrivileged accepts pod templates with privileged containers. On
	// by default: the members' own kube-apiservers decide for what they run.
	AllowPrivileged bool
	// ServiceAccount signs and verifies ServiceAccount tokens.
	ServiceAccount satoken.Options
	// ServiceAccountMaxExpiration caps a token's lifetime (0: no cap).
	ServiceAccountMaxExpiration time.Duration
	// EventTTL is how long Events are kept, as kube-apiserver's --event-ttl.
	EventTTL time.Duration
	// ClientCA, when set, is the CA client certificates are verified with,
	// shared by several replicas, instead of the one under DataDir.
	ClientCA pki.SharedCA
	// Memory is the Go runtime's soft memory limit.
	Memory component.MemoryOptions

	SecureServing *genericoptions.SecureServingOptionsWithLoopback
	Etcd          *genericoptions.EtcdOptions
	// Audit is kube-apiserver's audit: --audit-policy-file, the log and
	// webhook backends.
	Audit *genericoptions.AuditOptions

	// pki is filled by Complete; issued tells whether it holds client
	// certificates (kubeconfigs are written only then).
	pki    pki.Files
	issued bool
	// embedded is the etcd Run started when no external one is given;
	// storage on it is built in process (see storageOn).
	embedded *etcd.Embedded
}

// New returns options with mco's defaults.
func New() *Options {
	o := &Options{
		Mode:                      ModeStandalone,
		Aggregated:                newAggregated(),
		DataDir:                   "mco-data",
		AuthorizationMode:         apiserver.ModeRBAC,
		ClusterProxyTimeout:       30 * time.Second,
		EventTTL:                  time.Hour,
		AllowNoExecuteTaintPolicy: true,
		AllowPrivileged:           true,
		SecureServing:             genericoptions.NewSecureServingOptions().WithLoopback(),
		Etcd:                      genericoptions.NewEtcdOptions(storagebackend.NewDefaultConfig("/registry", nil)),
		Audit:                     genericoptions.NewAuditOptions(),
		ServiceAccount:            satoken.Options{Issuer: DefaultServiceAccountIssuer},
		Memory:                    component.DefaultMemoryOptions(),
	}
	o.SecureServing.BindPort = DefaultSecurePort
	o.SecureServing.BindAddress = net.ParseIP("127.0.0.1")
	o.Etcd.DefaultStorageMediaType = "application/json"
	return o
}

// AddFlags registers the flags.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Mode, "mode", o.Mode,
		"How mco-apiserver is reached. standalone: it is the control plane's only API endpoint and serves resource templates, namespaces, RBAC and ServiceAccounts itself. aggregated: it serves mco's Karmada groups (policy, work, cluster) behind a host cluster's kube-apiserver, registered there by APIService objects; the host authenticates and authorizes, and templates are the host's own. One of: "+strings.Join(Modes, ", ")+".")
	fs.StringSliceVar(&o.TLSSANs, "tls-sans", o.TLSSANs,
		"DNS names and IP addresses the generated serving certificate carries besides --bind-address, localhost and 127.0.0.1; behind an aggregator, the <service>.<namespace>.svc name its APIServices name. A certificate lacking one is issued again.")
	fs.StringVar(&o.DataDir, "data-dir", o.DataDir,
		"Directory for the PKI, admin.kubeconfig and the embedded etcd's data. Created when missing; reused on later starts.")
	fs.StringVar(&o.TokenAuthFile, "token-auth-file", o.TokenAuthFile,
		"CSV file of bearer tokens (token,user,uid,\"group1,group2\") accepted besides client certificates.")
	fs.StringVar(&o.AuthorizationMode, "authorization-mode", o.AuthorizationMode,
		"Authorizer for requests. One of: "+strings.Join(modes(), ", ")+".")
	fs.DurationVar(&o.ClusterProxyTimeout, "cluster-proxy-timeout", o.ClusterProxyTimeout,
		"How long a request through clusters/{name}/proxy waits for the member's response headers before it fails with 503. Watches stream on once the headers came.")
	fs.DurationVar(&o.EventTTL, "event-ttl", o.EventTTL,
		"How long Events (core and events.k8s.io) are kept, as kube-apiserver's flag of the same name.")
	fs.BoolVar(&o.AllowNoExecuteTaintPolicy, "allow-no-execute-taint-policy", o.AllowNoExecuteTaintPolicy,
		"Accept ClusterTaintPolicies with NoExecute taints, which move workloads off the clusters they taint. When false, such policies are refused. Karmada refuses them unless told otherwise; mco accepts them by default because its default failover policy (mco-default-failover) is one.")
	fs.BoolVar(&o.AllowPrivileged, "allow-privileged", o.AllowPrivileged,
		"Accept templates whose pods have privileged containers, as kube-apiserver's flag of the same name does. On by default (kube-apiserver's is off): each member's kube-apiserver still decides for what it runs.")
	fs.StringVar(&o.ClientCA.CertFile, "client-ca-file", o.ClientCA.CertFile,
		"CA bundle client certificates are verified with, shared by every replica, instead of the CA created under --data-dir/pki. With --mode=aggregated: the CA of client certificates presented to mco-apiserver directly; default: the host's, from its extension-apiserver-authentication ConfigMap.")
	fs.StringVar(&o.ClientCA.KeyFile, "client-ca-key-file", o.ClientCA.KeyFile,
		"Key of --client-ca-file. With it, the serving certificate (unless --tls-cert-file is given) and the admin's and components' client certificates and kubeconfigs are issued under --data-dir; without it, none are, and --tls-cert-file is required.")
	o.Memory.AddFlags(fs)
	fs.StringVar(&o.ServiceAccount.Issuer, "service-account-issuer", o.ServiceAccount.Issuer,
		"Issuer (iss) of the ServiceAccount tokens mco-apiserver signs; also their default audience.")
	fs.StringVar(&o.ServiceAccount.SigningKeyFile, "service-account-signing-key-file", o.ServiceAccount.SigningKeyFile,
		"Private key ServiceAccount tokens are signed with. Generated under --data-dir/pki when not given; give every replica the same one.")
	fs.StringSliceVar(&o.ServiceAccount.KeyFiles, "service-account-key-file", o.ServiceAccount.KeyFiles,
		"Public (or private) keys ServiceAccount tokens are verified with, repeatable; the signing key when not given.")
	fs.DurationVar(&o.ServiceAccountMaxExpiration, "service-account-max-token-expiration", o.ServiceAccountMaxExpiration,
		"Longest lifetime of a ServiceAccount token; longer requests are cut to it. 0: no limit.")
	o.SecureServing.AddFlags(fs)
	o.Etcd.AddFlags(fs)
	o.Audit.AddFlags(fs)
	o.Aggregated.addFlags(fs)
	fs.Lookup("etcd-servers").Usage = "External etcd servers (scheme://ip:port, comma-separated). Empty runs an embedded etcd under --data-dir."
}

func modes() []string { return apiserver.AuthorizationModes }

// etcdServersGiven tells whether --etcd-servers names an external etcd;
// otherwise Run starts the embedded one (and only then fills the list with
// its URL).
func (o *Options) etcdServersGiven() bool { return len(o.Etcd.StorageConfig.Transport.ServerList) > 0 }

// aggregated tells whether mco-apiserver runs behind a host's aggregator.
func (o *Options) aggregated() bool { return o.Mode == ModeAggregated }

// Complete checks the flags (a mistyped one leaves nothing written under
// --data-dir), makes the data directory absolute, adds the default
// watch-cache sizes (kube-apiserver's, and Works' on the embedded etcd)
// and creates the PKI that is missing. The serving certificate is used
// unless --tls-cert-file is set.
func (o *Options) Complete() error {
	if err := o.validateFlags(); err != nil {
		return err
	}
	abs, err := filepath.Abs(o.DataDir)
	if err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	o.DataDir = abs
	if o.Etcd.EnableWatchCache {
		if o.Etcd.WatchCacheSizes, err = withDefaultWatchCacheSizes(o.Etcd.WatchCacheSizes, !o.etcdServersGiven()); err != nil {
			return err
		}
	}
	var hosts []string
	if ip := o.SecureServing.BindAddress; ip != nil {
		hosts = append(hosts, ip.String())
	}
	hosts = append(hosts, o.TLSSANs...)
	shared := o.ClientCA
	if o.aggregated() {
		// Clients authenticate to the host: --client-ca-file is the CA of
		// their certificates, not one to issue from. The serving
		// certificate comes from mco's own CA, the APIServices' caBundle.
		o.Aggregated.complete(o.ClientCA.CertFile)
		shared = pki.SharedCA{}
	}
	files, issued, err := pki.Ensure(filepath.Join(o.DataDir, "pki"), hosts, shared)
	if err != nil {
		return fmt.Errorf("prepare certificates: %w", err)
	}
	o.pki, o.issued = files, issued && !o.aggregated()
	if o.ServiceAccount.SigningKeyFile == "" && !o.aggregated() {
		o.ServiceAccount.SigningKeyFile = filepath.Join(o.DataDir, "pki", "sa.key")
		if err := satoken.EnsureSigningKey(o.ServiceAccount.SigningKeyFile); err != nil {
			return err
		}
	}
	if o.SecureServing.ServerCert.CertKey.CertFile == "" && issued {
		o.SecureServing.ServerCert.CertKey.CertFile = files.ServingCert
		o.SecureServing.ServerCert.CertKey.KeyFile = files.ServingKey
	}
	return nil
}

// Validate checks the options after Complete: the flags, and what Complete
// filled in.
func (o *Options) Validate() error {
	errs := []error{o.validateFlags()}
	if o.SecureServing.ServerCert.CertKey.CertFile == "" {
		errs = append(errs, errors.New("--tls-cert-file and --tls-private-key-file are required with --client-ca-file unless --client-ca-key-file is given"))
	}
	return errors.Join(errs...)
}

// validateFlags checks what the flags say, before anything is completed.
func (o *Options) validateFlags() error {
	var errs []error
	errs = append(errs, o.SecureServing.Validate()...)
	errs = append(errs, o.Audit.Validate()...)
	if o.SecureServing.BindPort == 0 {
		errs = append(errs, errors.New("--secure-port must not be 0"))
	}
	if o.etcdServersGiven() {
		errs = append(errs, o.Etcd.Validate()...)
	}
	if o.ClientCA.KeyFile != "" && o.ClientCA.CertFile == "" {
		errs = append(errs, errors.New("--client-ca-key-file needs --client-ca-file"))
	}
	if o.ServiceAccount.Issuer == "" {
		errs = append(errs, errors.New("--service-account-issuer must not be empty"))
	}
	if o.ServiceAccountMaxExpiration < 0 || (o.ServiceAccountMaxExpiration > 0 && o.ServiceAccountMaxExpiration < serviceaccounttoken.MinExpiration) {
		errs = append(errs, fmt.Errorf("--service-account-max-token-expiration must be 0 or at least %s", serviceaccounttoken.MinExpiration))
	}
	if o.ClusterProxyTimeout <= 0 {
		errs = append(errs, errors.New("--cluster-proxy-timeout must be positive"))
	}
	if err := o.Memory.Validate(); err != nil {
		errs = append(errs, err)
	}
	switch o.Mode {
	case ModeStandalone:
	case ModeAggregated:
		errs = append(errs, o.validateAggregated()...)
	default:
		errs = append(errs, fmt.Errorf("--mode %q is not one of %s", o.Mode, strings.Join(Modes, ", ")))
	}
	if !slices.Contains(apiserver.AuthorizationModes, o.AuthorizationMode) {
		errs = append(errs, fmt.Errorf("--authorization-mode %q is not one of %s", o.AuthorizationMode, strings.Join(modes(), ", ")))
	}
	return errors.Join(errs...)
}

// Run starts the embedded etcd when no external one is configured, then
// serves until ctx ends.
func (o *Options) Run(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	if err := o.Memory.Apply(); err != nil {
		return err
	}
	if !o.etcdServersGiven() {
		e, err := etcd.Start(ctx, o.DataDir)
		if err != nil {
			return err
		}
		defer e.Stop()
		o.embedded = e
		logger.Info("Embedded etcd is serving", "url", e.ClientURL(), "dir", filepath.Join(o.DataDir, "etcd"))
		o.Etcd.StorageConfig.Transport.ServerList = []string{e.ClientURL()}
		go func() {
			if err, ok := <-e.Err(); ok && err != nil {
				logger.Error(err, "Embedded etcd failed")
			}
		}()
	}
	cfg, err := o.Config(ctx)
	if err != nil {
		return err
	}
	server, err := cfg.Complete().New()
	if err != nil {
		return err
	}
	if err := o.writeKubeconfigs(logger); err != nil {
		return err
	}
	return server.Run(ctx)
}

// storageOn has the storage a RESTOptionsGetter configures built with
// direct calls into the embedded etcd, when there is one.
func (o *Options) storageOn(g generic.RESTOptionsGetter) generic.RESTOptionsGetter {
	if o.embedded == nil {
		return g
	}
	return o.embedded.InProcess().Getter(g)
}

// writeKubeconfigs writes DIR/<identity>.kubeconfig for the admin and each
// component, when their certificates could be issued.
func (o *Options) writeKubeconfigs(logger klog.Logger) error {
	if o.aggregated() {
		logger.Info("No kubeconfigs written: in aggregated mode clients reach mco through the host's kube-apiserver")
		return nil
	}
	if !o.issued {
		logger.Info("No kubeconfigs written: --client-ca-file was given without --client-ca-key-file")
		return nil
	}
	for _, c := range pki.Clients {
		path := filepath.Join(o.DataDir, c.Name+".kubeconfig")
		if err := kubeconfig.Write(path, kubeconfig.Context{Name: "mco", Server: o.serverURL(), Files: o.pki, Client: c}); err != nil {
			return err
		}
		logger.Info("Kubeconfig written", "identity", c.User, "path", path)
	}
	return nil
}

// serverURL is where local clients reach the server.
func (o *Options) serverURL() string {
	host := "127.0.0.1"
	if ip := o.SecureServing.BindAddress; ip != nil && !ip.IsUnspecified() {
		host = ip.String()
	}
	port := o.SecureServing.BindPort
	if o.SecureServing.Listener != nil {
		port = o.SecureServing.Listener.Addr().(*net.TCPAddr).Port
	}
	return "https://" + net.JoinHostPort(host, fmt.Sprint(port))
}
