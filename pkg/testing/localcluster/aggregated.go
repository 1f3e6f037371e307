package localcluster

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/apiserver"
	"github.com/mco-org/mco/pkg/apiserver/pki"
)

// frontProxyClient is the identity a host's aggregator presents to the
// apiservers it proxies to; they trust the names it sends in its request
// headers.
var frontProxyClient = pki.Client{Name: "front-proxy-client", User: "front-proxy-client"}

// frontProxyDir holds the front proxy's PKI, which the members and the
// host share; Start creates it before they start, at the same time.
func frontProxyDir(env *Env) string { return filepath.Join(env.Dir, "front-proxy") }

// aggregatorArgs creates a front-proxy PKI under dir and returns the
// kube-apiserver flags of an aggregation layer that uses it. Requests are
// routed to an APIService's Service, not its endpoints
// (--enable-aggregator-routing=false), so that an ExternalName Service can
// name a loopback address.
func aggregatorArgs(dir string) ([]string, error) {
	files, _, err := pki.Ensure(dir, nil, pki.SharedCA{})
	if err != nil {
		return nil, fmt.Errorf("front-proxy PKI: %w", err)
	}
	if err := pki.IssueClient(files, frontProxyClient); err != nil {
		return nil, err
	}
	cert, key := files.ClientPair(frontProxyClient)
	return []string{
		"--requestheader-client-ca-file=" + files.CACert,
		"--requestheader-allowed-names=" + frontProxyClient.User,
		"--requestheader-username-headers=X-Remote-User",
		"--requestheader-group-headers=X-Remote-Group",
		"--requestheader-extra-headers-prefix=X-Remote-Extra-",
		"--proxy-client-cert-file=" + cert,
		"--proxy-client-key-file=" + key,
		"--enable-aggregator-routing=false",
	}, nil
}

// registration is how a host reaches an aggregated mco-apiserver.
type registration struct {
	// namespace and service name the Service the APIServices point at;
	// the serving certificate must carry service.namespace.svc.
	namespace, service string
	// address is what the ExternalName Service resolves to, port the
	// port mco-apiserver listens on there.
	address string
	port    int
	// caFile is the CA of mco-apiserver's serving certificate.
	caFile string
	// groupVersions are the APIs mco-apiserver serves.
	groupVersions []schema.GroupVersion
}

// serviceName is the name the aggregator verifies the serving certificate
// against.
func (r registration) serviceName() string { return r.service + "." + r.namespace + ".svc" }

// Resources of the registration's objects.
var (
	servicesResource    = corev1.SchemeGroupVersion.WithResource("services")
	apiServicesResource = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
)

// objects are the ExternalName Service (in an existing namespace) and one
// APIService per group version.
func (r registration) objects() ([]*unstructured.Unstructured, error) {
	ca, err := os.ReadFile(r.caFile)
	if err != nil {
		return nil, fmt.Errorf("CA bundle: %w", err)
	}
	out := []*unstructured.Unstructured{{Object: map[string]any{
		"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": r.service, "namespace": r.namespace},
		"spec": map[string]any{"type": "ExternalName", "externalName": r.address,
			"ports": []any{map[string]any{"name": "https", "port": int64(r.port), "protocol": "TCP"}}},
	}}}
	for _, gv := range r.groupVersions {
		out = append(out, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
			"metadata": map[string]any{"name": gv.Version + "." + gv.Group},
			"spec": map[string]any{"group": gv.Group, "version": gv.Version,
				"service":  map[string]any{"namespace": r.namespace, "name": r.service, "port": int64(r.port)},
				"caBundle": base64.StdEncoding.EncodeToString(ca), "groupPriorityMinimum": int64(2000), "versionPriority": int64(10)},
		}})
	}
	return out, nil
}

// Identities gives mco's components the host kubeconfigs they run with,
// keyed "apiserver", "scheduler" and "controller-manager"; a component
// left out runs as the host's admin. It is called once the host serves.
type Identities func(ctx context.Context, env *Env) (map[string]string, error)

// hostName names the host cluster among the environment's clusters.
const hostName = "host"

// startHost runs the host cluster: a bare kube-apiserver with the
// aggregation layer on, plus extraArgs.
func startHost(ctx context.Context, env *Env, extraArgs []string) (*Member, error) {
	args, err := aggregatorArgs(frontProxyDir(env))
	if err != nil {
		return nil, err
	}
	return startMember(ctx, env, MemberSpec{Name: hostName, APIServerArgs: append(args, extraArgs...)}, true)
}

// startAggregatedControlPlane runs mco-apiserver in aggregated mode behind
// the host, registers it there (an ExternalName Service resolving to
// 127.0.0.1 and one APIService per served version), waits until the host
// reports every APIService Available, then starts the scheduler and
// controller-manager against the host. The control plane's kubeconfig is
// the host's admin's: everything goes through the host.
func startAggregatedControlPlane(ctx context.Context, env *Env, identities Identities) (*ControlPlane, error) {
	host := env.Host
	c := &ControlPlane{DataDir: filepath.Join(env.Dir, "mco"), Kubeconfig: host.Kubeconfig}
	reg := registration{namespace: AggregatedNamespace, service: "mco-apiserver", address: "127.0.0.1",
		caFile: pki.FilesIn(filepath.Join(c.DataDir, "pki")).CACert, groupVersions: aggregatedGroupVersions()}
	cfg, err := RESTConfig(host.Kubeconfig)
	if err != nil {
		return c, err
	}
	if err := ensureNamespace(ctx, cfg, reg.namespace); err != nil {
		return c, err
	}
	kubeconfigs := map[string]string{}
	if identities != nil {
		if kubeconfigs, err = identities(ctx, env); err != nil {
			return c, fmt.Errorf("identities of mco's components: %w", err)
		}
	}
	as := func(component string) string {
		if k := kubeconfigs[component]; k != "" {
			return k
		}
		return host.Kubeconfig
	}
	logDir := filepath.Join(env.Dir, "logs", "mco")
	api, err := StartAggregatedAPIServer(ctx, env.BinDir, c.DataDir, logDir, as("apiserver"), "--tls-sans="+reg.serviceName())
	if api != nil {
		c.Port, c.APIServer = api.Port, api.Process
	}
	if err != nil {
		return c, err
	}
	reg.port = api.Port
	if err := reg.apply(ctx, cfg); err != nil {
		return c, err
	}
	return c, c.startComponents(ctx, env, logDir, as("scheduler"), as("controller-manager"))
}

// aggregatedGroupVersions are the API versions mco-apiserver serves in
// aggregated mode: the Karmada groups and mco's own.
func aggregatedGroupVersions() []schema.GroupVersion {
	var out []schema.GroupVersion
	for _, r := range apiserver.OwnResources() {
		if gv := r.GroupVersion(); !slices.Contains(out, gv) {
			out = append(out, gv)
		}
	}
	return out
}

// AggregatedNamespace holds, in the host, the Service the APIServices name.
const AggregatedNamespace = "mco-system"

// ensureNamespace creates a namespace of the host unless it exists.
func ensureNamespace(ctx context.Context, cfg *rest.Config, name string) error {
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	_, err = client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("namespace %s in the host: %w", name, err)
	}
	return nil
}

// apply writes the registration's objects to the host and waits until
// every APIService is Available.
func (r registration) apply(ctx context.Context, cfg *rest.Config) error {
	objs, err := r.objects()
	if err != nil {
		return err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	for _, obj := range objs {
		resource := apiServicesResource
		if obj.GetKind() == "Service" {
			resource = servicesResource
		}
		if err := createOrReplace(ctx, dyn.Resource(resource).Namespace(obj.GetNamespace()), obj); err != nil {
			return fmt.Errorf("%s %s in the host: %w", obj.GetKind(), obj.GetName(), err)
		}
	}
	for _, obj := range objs[1:] {
		if err := waitAvailable(ctx, dyn.Resource(apiServicesResource), obj.GetName()); err != nil {
			return err
		}
	}
	return nil
}

// createOrReplace creates obj, or replaces the object of its name: a host
// kept from an earlier run (local-up reuses its data) holds the old port.
func createOrReplace(ctx context.Context, client dynamic.ResourceInterface, obj *unstructured.Unstructured) error {
	existing, err := client.Get(ctx, obj.GetName(), metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		_, err = client.Create(ctx, obj, metav1.CreateOptions{})
	case err == nil:
		obj.SetResourceVersion(existing.GetResourceVersion())
		_, err = client.Update(ctx, obj, metav1.UpdateOptions{})
	}
	return err
}

// waitAvailable waits until the host reports an APIService Available.
func waitAvailable(ctx context.Context, client dynamic.ResourceInterface, name string) error {
	last := "not read yet"
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, readyTimeout, true, func(ctx context.Context) (bool, error) {
		obj, err := client.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			last = err.Error()
			return false, nil
		}
		conditions, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
		for _, c := range conditions {
			m, _ := c.(map[string]any)
			if m["type"] == "Available" {
				last = fmt.Sprintf("%v: %v", m["reason"], m["message"])
				return m["status"] == "True", nil
			}
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("APIService %s not Available: %s", name, last)
	}
	return nil
}
