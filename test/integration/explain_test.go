package integration

import (
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestExplainEveryResource runs kubectl explain on every resource the
// server lists: each kind's OpenAPI schema is found by group-version-kind.
func TestExplainEveryResource(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	out := s.MustKubectl(t, "", "api-resources", "-o", "name")
	resources := strings.Fields(out)
	if len(resources) < 20 {
		t.Fatalf("api-resources lists %d resources:\n%s", len(resources), out)
	}
	// kubectl reads a name whose plural is also a core resource's as that
	// resource and a field path, on any server; those take --api-version.
	ambiguous := map[string][]string{"events.events.k8s.io": {"events", "--api-version", "events.k8s.io/v1"},
		"pods.metrics.k8s.io": {"pods", "--api-version", "metrics.k8s.io/v1beta1"}}
	for _, r := range resources {
		args := []string{r}
		if a, ok := ambiguous[r]; ok {
			args = a
		}
		got, errOut, err := s.Kubectl(t, "", append([]string{"explain"}, args...)...)
		if err != nil || !strings.Contains(got, "FIELDS:") {
			t.Errorf("explain %s: %v %s", r, err, errOut)
		}
	}
}

// TestServerSideApplyEveryKarmadaKind applies one object of each Karmada
// kind with server-side apply, twice.
func TestServerSideApplyEveryKarmadaKind(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	objects := []string{
		testdata(t, "propagationpolicy.yaml"),
		testdata(t, "clusterpropagationpolicy.yaml"),
		testdata(t, "overridepolicy.yaml"),
		strings.Replace(strings.Replace(testdata(t, "overridepolicy.yaml"), "kind: OverridePolicy", "kind: ClusterOverridePolicy", 1), "nginx-override", "all-override", 1),
		testdata(t, "cluster.yaml"),
		testdata(t, "clustertaintpolicy.yaml"),
		`apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata:
  name: nginx-deployment
spec:
  resource: {apiVersion: apps/v1, kind: Deployment, namespace: default, name: nginx}
  replicas: 2
  clusters: [{name: member1, replicas: 2}]
`,
		`apiVersion: work.karmada.io/v1alpha2
kind: ClusterResourceBinding
metadata:
  name: ns-binding
spec:
  resource: {apiVersion: v1, kind: Namespace, name: team-a}
`,
		`apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata:
  name: team
  namespace: default
spec:
  overall: {cpu: "10", memory: 20Gi}
  staticAssignments:
  - {clusterName: member1, hard: {cpu: "4"}}
`,
		`apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata:
  name: after-outage
spec:
  ttlSecondsAfterFinished: 60
  workloads:
  - {apiVersion: apps/v1, kind: Deployment, namespace: default, name: nginx}
`,
		`apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata:
  name: nginx-work
spec:
  workload:
    manifests:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: settings, namespace: default}, data: {a: b}}
`,
	}
	for _, obj := range objects {
		for i := 0; i < 2; i++ {
			out, errOut, err := s.Kubectl(t, obj, "apply", "--server-side", "--field-manager=ssa-test", "-f", "-")
			if err != nil {
				t.Errorf("server-side apply %d of\n%s\n%v %s %s", i+1, obj, err, out, errOut)
			}
		}
	}
	out := s.MustKubectl(t, "", "get", "rb,crb,works,cop,clustertaintpolicies,workloadrebalancers,federatedresourcequotas", "-A", "-o", "name")
	for _, want := range []string{"resourcebinding.work.karmada.io/nginx-deployment", "clusterresourcebinding.work.karmada.io/ns-binding",
		"workloadrebalancer.apps.karmada.io/after-outage", "federatedresourcequota.policy.karmada.io/team",
		"work.work.karmada.io/nginx-work", "clusteroverridepolicy.policy.karmada.io/all-override",
		"clustertaintpolicy.policy.karmada.io/gpu-broken"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in:\n%s", want, out)
		}
	}
}
