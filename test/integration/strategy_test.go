package integration

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/uuid"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestGenerationAndStatus: metadata.generation and the status subresource
// behave per kind as in kube-apiserver.
func TestGenerationAndStatus(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	generation := func(t *testing.T, resource, name string) string {
		t.Helper()
		return s.MustKubectl(t, "", "get", resource, name, "-o", "jsonpath={.metadata.generation}")
	}

	t.Run("a ConfigMap has no generation, before or after a change", func(t *testing.T) {
		s.MustKubectl(t, "", "create", "configmap", "settings", "--from-literal=a=b")
		s.MustKubectl(t, "", "patch", "configmap", "settings", "--type=merge", "-p", `{"data":{"a":"c"}}`)
		if g := generation(t, "configmap", "settings"); g != "" {
			t.Errorf("configmap generation = %q, want none", g)
		}
	})

	s.MustKubectl(t, testdata(t, "deployment.yaml"), "apply", "-f", "-")
	t.Run("a Deployment's generation follows its spec and annotations, not its labels", func(t *testing.T) {
		steps := []struct {
			args []string
			want string
		}{
			{[]string{"label", "deployment", "nginx", "tier=front"}, "1"},
			{[]string{"annotate", "deployment", "nginx", "team=web"}, "2"},
			{[]string{"patch", "deployment", "nginx", "--type=merge", "-p", `{"spec":{"replicas":3}}`}, "3"},
			{[]string{"label", "deployment", "nginx", "tier-"}, "3"},
		}
		for _, st := range steps {
			s.MustKubectl(t, "", st.args...)
			if g := generation(t, "deployment", "nginx"); g != st.want {
				t.Errorf("after kubectl %s: generation = %q, want %s", strings.Join(st.args, " "), g, st.want)
			}
		}
	})

	t.Run("a status write is checked on its own and cannot change the spec or labels", func(t *testing.T) {
		// spec.replicas -1 would fail validation on the main resource.
		patch := `{"metadata":{"labels":{"sneaky":"yes"}},"spec":{"replicas":-1},` +
			`"status":{"observedGeneration":3,"replicas":3,"readyReplicas":2,"availableReplicas":1}}`
		s.MustKubectl(t, "", "patch", "deployment", "nginx", "--subresource=status", "--type=merge", "-p", patch)
		got := s.MustKubectl(t, "", "get", "deployment", "nginx", "-o",
			`jsonpath={.spec.replicas} {.status.readyReplicas} {.metadata.labels.sneaky} {.metadata.generation}`)
		if got != "3 2  3" {
			t.Errorf("replicas, readyReplicas, sneaky label, generation = %q, want %q", got, "3 2  3")
		}
	})

	t.Run("a negative readyReplicas is rejected at status.readyReplicas", func(t *testing.T) {
		client := s.Client(t)
		ctx := context.Background()
		d, err := client.AppsV1().Deployments("default").Get(ctx, "nginx", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d.Status.ReadyReplicas, d.Status.AvailableReplicas = -1, 0
		_, err = client.AppsV1().Deployments("default").UpdateStatus(ctx, d, metav1.UpdateOptions{})
		var status apierrors.APIStatus
		if !apierrors.IsInvalid(err) || !errors.As(err, &status) || status.Status().Code != 422 {
			t.Fatalf("status with readyReplicas -1: %v, want 422 Invalid", err)
		}
		if !hasCause(status.Status().Details, "status.readyReplicas") {
			t.Errorf("causes %+v do not name status.readyReplicas", status.Status().Details)
		}
	})
}

func hasCause(details *metav1.StatusDetails, field string) bool {
	if details == nil {
		return false
	}
	return slices.ContainsFunc(details.Causes, func(c metav1.StatusCause) bool { return c.Field == field })
}

// TestKarmadaKindsAreStampedOnCreate: new policies, bindings and Works get
// the permanent IDs and finalizers Karmada's webhooks would give them.
func TestKarmadaKindsAreStampedOnCreate(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	client, err := mcoclient.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	s.MustKubectl(t, testdata(t, "propagationpolicy.yaml"), "apply", "-f", "-")
	s.MustKubectl(t, testdata(t, "clusterpropagationpolicy.yaml"), "apply", "-f", "-")
	pp, err := client.PolicyV1alpha1().PropagationPolicies("default").Get(ctx, "nginx-propagation", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cpp, err := client.PolicyV1alpha1().ClusterPropagationPolicies().Get(ctx, "all-namespaces", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := client.WorkV1alpha2().ResourceBindings("default").Create(ctx, newBinding("web", 2), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	work, err := client.WorkV1alpha1().Works("default").Create(ctx, newWork(t, "web"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name      string
		meta      metav1.Object
		label     string
		finalizer string
	}{
		{"PropagationPolicy", pp, policyv1alpha1.PropagationPolicyPermanentIDLabel, policyv1alpha1.PropagationPolicyControllerFinalizer},
		{"ClusterPropagationPolicy", cpp, policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel, policyv1alpha1.ClusterPropagationPolicyControllerFinalizer},
		{"ResourceBinding", rb, workv1alpha2.ResourceBindingPermanentIDLabel, ""},
		{"Work", work, workv1alpha1.WorkPermanentIDLabel, ""},
	}
	for _, tc := range cases {
		id := tc.meta.GetLabels()[tc.label]
		if !isUUID(id) {
			t.Errorf("%s: label %s = %q, want a UUID", tc.name, tc.label, id)
		}
		if tc.finalizer != "" && !slices.Contains(tc.meta.GetFinalizers(), tc.finalizer) {
			t.Errorf("%s: finalizers %v lack %s", tc.name, tc.meta.GetFinalizers(), tc.finalizer)
		}
	}

	// The ID is permanent: an update that drops nothing keeps it.
	s.MustKubectl(t, "", "label", "pp", "nginx-propagation", "team=web")
	got := s.MustKubectl(t, "", "get", "pp", "nginx-propagation", "-o",
		`jsonpath={.metadata.labels.propagationpolicy\.karmada\.io/permanent-id}`)
	if got != pp.Labels[policyv1alpha1.PropagationPolicyPermanentIDLabel] {
		t.Errorf("permanent ID changed on update: %q, was %q", got, pp.Labels[policyv1alpha1.PropagationPolicyPermanentIDLabel])
	}

	// The finalizer holds a deleted policy until its controller lets go.
	s.MustKubectl(t, "", "delete", "pp", "nginx-propagation", "--wait=false")
	if out := s.MustKubectl(t, "", "get", "pp", "nginx-propagation", "-o", "jsonpath={.metadata.deletionTimestamp}"); out == "" {
		t.Errorf("deleted policy is not held by its finalizer")
	}
}

func newWork(t *testing.T, name string) *workv1alpha1.Work {
	t.Helper()
	manifest, err := json.Marshal(map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": name, "namespace": "default"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &workv1alpha1.Work{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: workv1alpha1.WorkSpec{Workload: workv1alpha1.WorkloadTemplate{
			Manifests: []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: manifest}}},
		}},
	}
}

func isUUID(s string) bool {
	return len(s) == len(string(uuid.NewUUID())) && strings.Count(s, "-") == 4
}
