package localcluster

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/apiserver/pki"
	"github.com/mco-org/mco/pkg/registry/karmada"
)

// FrontProxyClient is the identity a host's aggregator presents to the
// apiservers it proxies to; they trust the names it sends in its request
// headers.
var FrontProxyClient = pki.Client{Name: "front-proxy-client", User: "front-proxy-client"}

// AggregatorArgs creates a front-proxy PKI under dir and returns the
// kube-apiserver flags of an aggregation layer that uses it. Requests are
// routed to an APIService's Service, not its endpoints
// (--enable-aggregator-routing=false), so that an ExternalName Service can
// name a loopback address.
func AggregatorArgs(dir string) ([]string, error) {
	files, _, err := pki.Ensure(dir, nil, pki.SharedCA{})
	if err != nil {
		return nil, fmt.Errorf("front-proxy PKI: %w", err)
	}
	if err := pki.IssueClient(files, FrontProxyClient); err != nil {
		return nil, err
	}
	cert, key := files.ClientPair(FrontProxyClient)
	return []string{
		"--requestheader-client-ca-file=" + files.CACert,
		"--requestheader-allowed-names=" + FrontProxyClient.User,
		"--requestheader-username-headers=X-Remote-User",
		"--requestheader-group-headers=X-Remote-Group",
		"--requestheader-extra-headers-prefix=X-Remote-Extra-",
		"--proxy-client-cert-file=" + cert,
		"--proxy-client-key-file=" + key,
		"--enable-aggregator-routing=false",
	}, nil
}

// Registration is how a host reaches an aggregated mco-apiserver.
type Registration struct {
	// Namespace and Service name the Service the APIServices point at;
	// the serving certificate must carry Service.Namespace.svc.
	Namespace, Service string
	// Address is what the ExternalName Service resolves to, Port the
	// port mco-apiserver listens on there.
	Address string
	Port    int
	// CAFile is the CA of mco-apiserver's serving certificate.
	CAFile string
	// GroupVersions are the APIs mco-apiserver serves.
	GroupVersions []schema.GroupVersion
}

// ServiceName is the name the aggregator verifies the serving certificate
// against.
func (r Registration) ServiceName() string { return r.Service + "." + r.Namespace + ".svc" }

// Manifest is the ExternalName Service (in an existing namespace) and one
// APIService per group version, as YAML for kubectl apply on the host.
func (r Registration) Manifest() (string, error) {
	ca, err := os.ReadFile(r.CAFile)
	if err != nil {
		return "", fmt.Errorf("CA bundle: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: v1
kind: Service
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  type: ExternalName
  externalName: %[3]s
  ports: [{name: https, port: %[4]d, protocol: TCP}]
`, r.Namespace, r.Service, r.Address, r.Port)
	for _, gv := range r.GroupVersions {
		fmt.Fprintf(&b, `---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: %[1]s.%[2]s}
spec:
  group: %[2]s
  version: %[1]s
  service: {namespace: %[3]s, name: %[4]s, port: %[5]d}
  caBundle: %[6]s
  groupPriorityMinimum: 2000
  versionPriority: 10
`, gv.Version, gv.Group, r.Namespace, r.Service, r.Port, base64.StdEncoding.EncodeToString(ca))
	}
	return b.String(), nil
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
	args, err := AggregatorArgs(filepath.Join(env.Dir, "front-proxy"))
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
	reg := Registration{Namespace: AggregatedNamespace, Service: "mco-apiserver", Address: "127.0.0.1",
		CAFile: pki.FilesIn(filepath.Join(c.DataDir, "pki")).CACert, GroupVersions: AggregatedGroupVersions()}
	cfg, err := RESTConfig(host.Kubeconfig)
	if err != nil {
		return c, err
	}
	if err := ensureNamespace(ctx, cfg, reg.Namespace); err != nil {
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
	api, err := StartAggregatedAPIServer(ctx, env.BinDir, c.DataDir, logDir, as("apiserver"), "--tls-sans="+reg.ServiceName())
	if api != nil {
		c.Port, c.APIServer = api.Port, api.Process
	}
	if err != nil {
		return c, err
	}
	reg.Port = api.Port
	if err := reg.apply(ctx, cfg); err != nil {
		return c, err
	}
	sched, err := StartScheduler(ctx, env.BinDir, as("scheduler"), logDir, clientQPS, clientBurst)
	if sched != nil {
		c.SchedulerPort, c.Scheduler = sched.Port, sched.Process
	}
	if err != nil {
		return c, err
	}
	cm, err := StartControllerManager(ctx, env.BinDir, as("controller-manager"), logDir, controllerManagerArgs()...)
	if cm != nil {
		c.ControllerManagerPort, c.ControllerManager = cm.Port, cm.Process
	}
	return c, err
}

// AggregatedGroupVersions are the API versions mco-apiserver serves in
// aggregated mode: the Karmada groups'.
func AggregatedGroupVersions() []schema.GroupVersion {
	var out []schema.GroupVersion
	for _, r := range karmada.Resources() {
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

// apply creates (or replaces) the registration's objects in the host and
// waits until every APIService is Available.
func (r Registration) apply(ctx context.Context, cfg *rest.Config) error {
	manifest, err := r.Manifest()
	if err != nil {
		return err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	gvrs := map[string]schema.GroupVersionResource{
		"Service":    corev1.SchemeGroupVersion.WithResource("services"),
		"APIService": {Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"},
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(manifest), 4096)
	var apiServices []string
	for {
		obj := &unstructured.Unstructured{}
		if err := dec.Decode(&obj.Object); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("registration manifest: %w", err)
		}
		client := dyn.Resource(gvrs[obj.GetKind()]).Namespace(obj.GetNamespace())
		_, err := client.Create(ctx, obj, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			_, err = client.Apply(ctx, obj.GetName(), obj, metav1.ApplyOptions{FieldManager: "mco-localup", Force: true})
		}
		if err != nil {
			return fmt.Errorf("%s %s in the host: %w", obj.GetKind(), obj.GetName(), err)
		}
		if obj.GetKind() == "APIService" {
			apiServices = append(apiServices, obj.GetName())
		}
	}
	for _, name := range apiServices {
		if err := waitAvailable(ctx, dyn.Resource(gvrs["APIService"]), name); err != nil {
			return err
		}
	}
	return nil
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
