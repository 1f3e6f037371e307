package integration

import (
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestClusterTaintPolicyValidation applies a valid ClusterTaintPolicy with
// kubectl and sees it listed with its taints; invalid ones are refused with
// the field that is wrong, and nothing of them is stored.
func TestClusterTaintPolicyValidation(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	valid := testdata(t, "clustertaintpolicy.yaml")
	s.MustKubectl(t, valid, "apply", "-f", "-")
	out := s.MustKubectl(t, "", "get", "clustertaintpolicies")
	if !strings.Contains(out, "TAINTS") || !strings.Contains(out, "example.com/gpu-broken:NoExecute,example.com/gpu-broken=true:NoSchedule") {
		t.Errorf("kubectl get clustertaintpolicies:\n%s", out)
	}

	bad := func(old, new string) string {
		t.Helper()
		if !strings.Contains(valid, old) {
			t.Fatalf("testdata lacks %q", old)
		}
		return strings.Replace(strings.Replace(valid, "name: gpu-broken", "name: bad", 1), old, new, 1)
	}
	cases := []struct {
		name    string
		input   string
		wantErr []string
	}{
		{
			name:    "a policy without taints",
			input:   bad("  taints:\n  - key: example.com/gpu-broken\n    effect: NoExecute\n  - key: example.com/gpu-broken\n    value: \"true\"\n    effect: NoSchedule\n", ""),
			wantErr: []string{"spec.taints: Required value"},
		},
		{
			name:    "a taint with PreferNoSchedule",
			input:   bad("effect: NoExecute", "effect: PreferNoSchedule"),
			wantErr: []string{"spec.taints[0].effect: Unsupported value: \"PreferNoSchedule\""},
		},
		{
			name:    "a taint key that is not a qualified name",
			input:   bad("  - key: example.com/gpu-broken\n    effect: NoExecute", "  - key: gpu broken\n    effect: NoExecute"),
			wantErr: []string{"spec.taints[0].key: Invalid value"},
		},
		{
			name:    "two taints with the same key and effect",
			input:   bad("effect: NoSchedule", "effect: NoExecute"),
			wantErr: []string{"spec.taints[1]: Duplicate value"},
		},
		{
			name:    "an operator other than In and NotIn",
			input:   bad("operator: In", "operator: Exists"),
			wantErr: []string{"spec.addOnConditions[0].operator: Unsupported value: \"Exists\""},
		},
		{
			name:    "a status value other than True, False and Unknown",
			input:   bad("    - Unknown\n", "    - Maybe\n"),
			wantErr: []string{"spec.addOnConditions[0].statusValues[1]: Unsupported value: \"Maybe\""},
		},
		{
			name:    "a condition without type and status values",
			input:   bad("  - conditionType: GPUHealthy\n    operator: In\n    statusValues:\n    - \"True\"\n", "  - operator: In\n"),
			wantErr: []string{"spec.removeOnConditions[0].conditionType: Required value", "spec.removeOnConditions[0].statusValues: Required value"},
		},
		{
			name:    "target clusters with an unknown field selector key",
			input:   bad("    clusterNames:\n    - member1\n", "    fieldSelector:\n      matchExpressions:\n      - {key: city, operator: In, values: [paris]}\n"),
			wantErr: []string{"spec.targetClusters.fieldSelector.matchExpressions[0].key: Unsupported value: \"city\""},
		},
	}
	for _, c := range cases {
		_, errOut, err := s.Kubectl(t, c.input, "apply", "-f", "-")
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		for _, want := range c.wantErr {
			if !strings.Contains(errOut, want) {
				t.Errorf("%s: error lacks %q:\n%s", c.name, want, errOut)
			}
		}
	}
	out = s.MustKubectl(t, "", "get", "clustertaintpolicies", "-o", "name")
	if strings.TrimSpace(out) != "clustertaintpolicy.policy.karmada.io/gpu-broken" {
		t.Errorf("stored policies:\n%s", out)
	}
}

// TestNoExecuteTaintPolicyRefusedWhenDisallowed: with
// --allow-no-execute-taint-policy=false the server refuses a NoExecute
// taint and says why; NoSchedule taints are still accepted.
func TestNoExecuteTaintPolicyRefusedWhenDisallowed(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "", "--allow-no-execute-taint-policy=false")
	valid := testdata(t, "clustertaintpolicy.yaml")
	_, errOut, err := s.Kubectl(t, valid, "apply", "-f", "-")
	if err == nil {
		t.Fatal("a NoExecute taint was accepted")
	}
	want := "spec.taints[0].effect: Forbidden: the server refuses NoExecute taints in ClusterTaintPolicy (--allow-no-execute-taint-policy=false)"
	if !strings.Contains(errOut, want) {
		t.Errorf("error lacks %q:\n%s", want, errOut)
	}
	noSchedule := strings.Replace(strings.Replace(valid, "    effect: NoExecute\n", "", 1), "  - key: example.com/gpu-broken\n  - key", "  - key", 1)
	if strings.Contains(noSchedule, "NoExecute") {
		t.Fatalf("test input still has NoExecute:\n%s", noSchedule)
	}
	s.MustKubectl(t, noSchedule, "apply", "-f", "-")
}
