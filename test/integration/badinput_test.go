package integration

import (
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestBadInputIsRejected sends invalid objects and malformed requests: each
// fails with a 4xx naming the problem, and nothing is stored.
func TestBadInputIsRejected(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	deploy := testdata(t, "deployment.yaml")
	pp := testdata(t, "propagationpolicy.yaml")
	cases := []struct {
		name    string
		input   string
		args    []string
		wantErr []string
	}{
		{
			name:    "a deployment whose selector does not match its template",
			input:   strings.Replace(deploy, "      app: nginx\n  template", "      app: other\n  template", 1),
			wantErr: []string{"spec.template.metadata.labels"},
		},
		{
			name:    "a deployment with negative replicas",
			input:   strings.Replace(deploy, "replicas: 2", "replicas: -1", 1),
			wantErr: []string{"spec.replicas"},
		},
		{
			name:    "a policy without resource selectors",
			input:   strings.Replace(pp, "  resourceSelectors:\n  - apiVersion: apps/v1\n    kind: Deployment\n    name: nginx\n", "", 1),
			wantErr: []string{"spec.resourceSelectors"},
		},
		{
			name:    "a policy with an unknown replica scheduling type",
			input:   strings.Replace(pp, "replicaSchedulingType: Divided", "replicaSchedulingType: Sometimes", 1),
			wantErr: []string{"spec.placement.replicaScheduling.replicaSchedulingType", "Unsupported value"},
		},
		{
			name:    "an unknown field under strict validation",
			input:   strings.Replace(pp, "  placement:\n", "  plaecment: {}\n  placement:\n", 1),
			args:    []string{"--validate=strict"},
			wantErr: []string{"unknown field", "plaecment"},
		},
		{
			name:    "malformed YAML",
			input:   "apiVersion: v1\nkind: ConfigMap\nmetadata: [unclosed\n",
			wantErr: []string{"error"},
		},
		{
			name:    "a kind the server does not serve",
			input:   "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n",
			args:    []string{"--validate=false"},
			wantErr: []string{`no matches for kind "Node"`},
		},
		{
			name:    "a cluster without a sync mode",
			input:   "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: broken\nspec: {}\n",
			wantErr: []string{"spec.syncMode"},
		},
	}
	for _, c := range cases {
		args := append([]string{"apply", "-f", "-"}, c.args...)
		_, errOut, err := s.Kubectl(t, c.input, args...)
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
	out := s.MustKubectl(t, "", "get", "deployments,pp,clusters", "-A", "-o", "name")
	if strings.TrimSpace(out) != "" {
		t.Errorf("rejected objects were stored: %s", out)
	}
}

// TestOversizedObjectIsRejected sends a ConfigMap over the size limit.
func TestOversizedObjectIsRejected(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	big := strings.Repeat("x", 3<<20)
	in := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  blob: " + big + "\n"
	_, errOut, err := s.Kubectl(t, in, "create", "-f", "-")
	if err == nil {
		t.Fatal("a 3 MiB ConfigMap was accepted")
	}
	if !strings.Contains(errOut, "too large") && !strings.Contains(errOut, "must have at most") && !strings.Contains(errOut, "Too long") {
		t.Errorf("oversized object error: %s", errOut[:min(len(errOut), 500)])
	}
}
