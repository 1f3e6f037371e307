package aggregated

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/testing/cli"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// hostKubectl runs the real kubectl against the host, as its admin when
// kubeconfig is empty.
func hostKubectl(kubeconfig, stdin string, args ...string) (string, error) {
	return hostCLI(kubeconfig).Run(stdin, args...)
}

// hostCLI is kubectl against the host with kubeconfig (the host's admin
// when empty).
func hostCLI(kubeconfig string) cli.Kubectl {
	if kubeconfig == "" {
		kubeconfig = agg.host.Kubeconfig
	}
	return cli.Kubectl{Bin: filepath.Join(agg.binDir, "kubectl"), Kubeconfig: kubeconfig, Args: []string{"--request-timeout=20s"}}
}

func mustHostKubectl(t *testing.T, kubeconfig, stdin string, args ...string) string {
	t.Helper()
	out, err := hostKubectl(kubeconfig, stdin, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// TestServedThroughHost: kubectl pointed at the host lists mco's clusters
// and policies, which only mco-apiserver stores, and the host's discovery
// names mco's groups.
func TestServedThroughHost(t *testing.T) {
	out := mustHostKubectl(t, "", "", "get", "clusters.cluster.karmada.io")
	if !strings.Contains(out, "member1") || !strings.Contains(out, "True") {
		t.Errorf("kubectl get clusters.cluster.karmada.io through the host:\n%s", out)
	}
	mustHostKubectl(t, "", examplePolicy("listed"), "apply", "-f", "-")
	out = mustHostKubectl(t, "", "", "get", "propagationpolicies", "-A")
	if !strings.Contains(out, "listed") {
		t.Errorf("kubectl get propagationpolicies -A through the host:\n%s", out)
	}
	// Server-side apply through the host, and the host's namespaces are
	// the ones mco's objects may live in.
	mustHostKubectl(t, "", examplePolicy("listed"), "apply", "--server-side", "--field-manager=platform", "--force-conflicts", "-f", "-")
	managers := mustHostKubectl(t, "", "", "get", "propagationpolicy", "listed", "-o", "jsonpath={.metadata.managedFields[*].manager}")
	if !strings.Contains(managers, "platform") {
		t.Errorf("managers of a policy applied server-side through the host: %q", managers)
	}
	out, err := hostKubectl("", strings.Replace(examplePolicy("elsewhere"), "namespace: default", "namespace: not-in-host", 1), "apply", "-f", "-")
	if err == nil || !strings.Contains(out, `namespaces "not-in-host" not found`) {
		t.Errorf("a policy in a namespace the host lacks: err %v\n%s", err, out)
	}
	out = mustHostKubectl(t, "", "", "api-resources", "--api-group=work.karmada.io", "-o", "name")
	for _, r := range []string{"resourcebindings.work.karmada.io", "works.work.karmada.io"} {
		if !strings.Contains(out, r) {
			t.Errorf("host discovery lacks %s:\n%s", r, out)
		}
	}
	out = mustHostKubectl(t, "", "", "explain", "propagationpolicies.spec.placement.clusterAffinity")
	if !strings.Contains(out, "clusterNames") {
		t.Errorf("kubectl explain through the host:\n%s", out)
	}
	// The cluster proxy, through the host: mco-apiserver reads the member's
	// credentials from the host and forwards as the caller.
	out = mustHostKubectl(t, "", "", "get", "--raw", "/apis/cluster.karmada.io/v1alpha1/clusters/member1/proxy/api/v1/namespaces/kube-system")
	if !strings.Contains(out, `"name":"kube-system"`) {
		t.Errorf("a member's namespace through the host's cluster proxy:\n%s", out)
	}
	// A bad object gets mco's field errors back through the host.
	out, err = hostKubectl("", strings.Replace(examplePolicy("bad"), "Deployment", "", 1), "apply", "-f", "-")
	if err == nil || !strings.Contains(out, "spec.resourceSelectors[0].kind") {
		t.Errorf("a policy without a kind: err %v\n%s", err, out)
	}
}

// TestHostRBACApplies: a host user without roles is refused mco's objects,
// by the host and by mco-apiserver itself (which asks the host with a
// SubjectAccessReview); a ClusterRole bound on the host lets them in, for
// what it names only. Unknown tokens are refused by the host's TokenReview.
func TestHostRBACApplies(t *testing.T) {
	direct := func(token string) int {
		t.Helper()
		return directStatus(t, token, "/apis/policy.karmada.io/v1alpha1/propagationpolicies")
	}
	out, err := hostKubectl(agg.alice, "", "get", "propagationpolicies", "-A")
	if err == nil || !strings.Contains(out, "Forbidden") {
		t.Errorf("alice without roles, through the host: err %v\n%s", err, out)
	}
	if got := direct(aliceToken); got != http.StatusForbidden {
		t.Errorf("alice without roles, directly: status %d, want 403", got)
	}
	if got := direct("not-a-token"); got != http.StatusUnauthorized {
		t.Errorf("an unknown token, directly: status %d, want 401", got)
	}
	if got := direct(""); got != http.StatusForbidden {
		t.Errorf("no credentials (anonymous), directly: status %d, want 403", got)
	}

	mustHostKubectl(t, "", `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: policy-reader}
rules:
- apiGroups: [policy.karmada.io]
  resources: [propagationpolicies]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: alice-policy-reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: policy-reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
`, "apply", "-f", "-")
	// mco-apiserver caches the host's denials for 10 s.
	cli.Eventually(t, 30*time.Second, "alice lists policies through the host", func(context.Context) (bool, string) {
		out, err := hostKubectl(agg.alice, "", "get", "propagationpolicies", "-A")
		return err == nil, out
	})
	cli.Eventually(t, 30*time.Second, "alice lists policies directly", func(context.Context) (bool, string) {
		got := direct(aliceToken)
		return got == http.StatusOK, fmt.Sprintf("status %d", got)
	})
	out, err = hostKubectl(agg.alice, "", "get", "clusters.cluster.karmada.io")
	if err == nil || !strings.Contains(out, "Forbidden") {
		t.Errorf("alice reading clusters with a policy role only: err %v\n%s", err, out)
	}
}

// directStatus is the status of a GET straight to mco-apiserver with a
// bearer token (none when empty).
func directStatus(t *testing.T, token, path string) int {
	t.Helper()
	client, err := rest.HTTPClientFor(&rest.Config{TLSClientConfig: rest.TLSClientConfig{CAFile: agg.caFile}})
	if err != nil {
		t.Fatal(err)
	}
	client.Timeout = 20 * time.Second
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("https://127.0.0.1:%d%s", agg.env.MCO.Port, path), nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestHostDeploymentPropagates: a Deployment of the host's own, selected
// by a PropagationPolicy applied through the host, reaches member1; the
// binding and Work are mco's, read through the host, and mco's decisions
// are Events on the host's Deployment.
func TestHostDeploymentPropagates(t *testing.T) {
	const name = "web"
	mustHostKubectl(t, "", deployment(name)+"---\n"+examplePolicy(name), "apply", "-f", "-")
	member, err := agg.env.Member("member1").Client()
	if err != nil {
		t.Fatal(err)
	}
	cli.Eventually(t, 60*time.Second, "the host's Deployment in member1", func(ctx context.Context) (bool, string) {
		_, err := member.AppsV1().Deployments("default").Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, "not there yet"
		}
		return err == nil, fmt.Sprint(err)
	})
	out := mustHostKubectl(t, "", "", "get", "resourcebindings", "-n", "default", name+"-deployment",
		"-o", "jsonpath={.spec.clusters[*].name}")
	if out != "member1" {
		t.Errorf("binding's clusters: %q, want member1", out)
	}
	mustHostKubectl(t, "", "", "get", "works", "-n", "karmada-es-member1", "-o", "name")
	cli.Eventually(t, 30*time.Second, "mco's events on the host's Deployment", func(context.Context) (bool, string) {
		out, err := hostKubectl("", "", "describe", "deployment", name)
		return err == nil && strings.Contains(out, "ApplyPolicySucceed") && strings.Contains(out, "SyncSucceed"), out
	})
}

func deployment(name string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %[1]s, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec: {containers: [{name: c, image: nginx}]}
`, name)
}

func examplePolicy(name string) string {
	return fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: %[1]s, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: %[1]s}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`, name)
}

// TestHostCustomResourcePropagates: in aggregated mode the host serves
// CRDs; a CRD created on the host while every component runs makes its
// kind a template, and the CRD and an instance reach member1.
func TestHostCustomResourcePropagates(t *testing.T) {
	const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.host.example.com}
spec:
  group: host.example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: gadgets-crd}
spec:
  resourceSelectors: [{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: gadgets.host.example.com}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: gadgets, namespace: default}
spec:
  resourceSelectors: [{apiVersion: host.example.com/v1, kind: Gadget}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`
	mustHostKubectl(t, "", crd, "apply", "-f", "-")
	hostCLI("").WaitEstablished(t, "crd/gadgets.host.example.com")
	cli.Eventually(t, 30*time.Second, "the Gadget applied on the host", func(context.Context) (bool, string) {
		out, err := hostKubectl("", "apiVersion: host.example.com/v1\nkind: Gadget\nmetadata: {name: g1, namespace: default}\nspec: {size: 3}\n", "apply", "-f", "-")
		return err == nil, out
	})
	cfg, err := localcluster.RESTConfig(agg.env.Member("member1").Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	member := dynamic.NewForConfigOrDie(cfg)
	gadgets := schema.GroupVersionResource{Group: "host.example.com", Version: "v1", Resource: "gadgets"}
	cli.Eventually(t, 90*time.Second, "the host's Gadget in member1", func(ctx context.Context) (bool, string) {
		_, err := member.Resource(gadgets).Namespace("default").Get(ctx, "g1", metav1.GetOptions{})
		return err == nil, fmt.Sprint(err)
	})
}
