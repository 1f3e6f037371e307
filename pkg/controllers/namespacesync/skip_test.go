package namespacesync

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

func ns(name string, labels map[string]string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
}

func TestPropagates(t *testing.T) {
	t.Parallel()
	skipped, err := CompileSkipped([]string{"team-.*", "sandbox|scratch"})
	if err != nil {
		t.Fatal(err)
	}
	terminating := ns("shop", nil)
	terminating.DeletionTimestamp = &metav1.Time{}
	skipLabel := func(v string) map[string]string {
		return map[string]string{policyv1alpha1.NamespaceSkipAutoPropagationLabel: v}
	}
	cases := []struct {
		name string
		ns   *corev1.Namespace
		want bool
	}{
		{"an ordinary namespace propagates", ns("shop", nil), true},
		{"a namespace that is gone does not propagate", nil, false},
		{"a terminating namespace does not propagate", terminating, false},
		{"default is reserved", ns("default", nil), false},
		{"kube-system is reserved", ns("kube-system", nil), false},
		{"any kube- prefixed namespace is reserved", ns("kube-anything", nil), false},
		{"karmada-system is reserved", ns("karmada-system", nil), false},
		{"karmada-cluster is reserved", ns("karmada-cluster", nil), false},
		{"execution spaces are reserved", ns("karmada-es-member1", nil), false},
		{"other karmada- names are not reserved", ns("karmada-demo", nil), true},
		{"a name matching a skipped expression does not propagate", ns("team-a", nil), false},
		{"an alternation in an expression matches whole names only", ns("sandbox", nil), false},
		{"expressions are anchored at the start", ns("my-team-a", nil), true},
		{"expressions are anchored at the end", ns("sandbox-2", nil), true},
		{"the skip-auto-propagation label set to true stops propagation", ns("shop", skipLabel("true")), false},
		{"the skip-auto-propagation label is read case-insensitively", ns("shop", skipLabel("True")), false},
		{"the skip-auto-propagation label set to false does not stop propagation", ns("shop", skipLabel("false")), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := Propagates(c.ns, skipped); got != c.want {
				t.Errorf("Propagates = %v, want %v", got, c.want)
			}
		})
	}
}

func TestCompileSkipped(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		exprs   []string
		wantErr string
	}{
		{"no expressions compile to none", nil, ""},
		{"valid expressions compile", []string{"team-.*", "ci-[0-9]+"}, ""},
		{"an invalid expression is an error naming the flag and the expression", []string{"ok", "team-("},
			`--skipped-propagating-namespaces: "team-(" is not a valid regular expression`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := CompileSkipped(c.exprs)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.exprs) {
				t.Errorf("got %d expressions, want %d", len(got), len(c.exprs))
			}
		})
	}
}
