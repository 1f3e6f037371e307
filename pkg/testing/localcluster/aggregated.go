package localcluster

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/pkg/apiserver/pki"
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
