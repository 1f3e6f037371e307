package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestRBAC: mco-apiserver authorizes with RBAC by default, through the
// real kubectl: a user bound to view in one namespace reads but does not
// write there, reads no Secrets and nothing elsewhere; view and edit take in
// mco's own kinds through aggregation; a namespace admin cannot bind
// cluster-admin (escalation) but can bind edit; kubectl auth can-i and
// whoami answer.
func TestRBAC(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens.csv")
	csv := "alice-token,alice,1001,\"developers\"\nbob-token,bob,1002\ncarol-token,carol,1003\n"
	if err := os.WriteFile(tokens, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	s := framework.StartAPIServer(t, dir, "--token-auth-file", tokens)
	s.MustKubectl(t, `apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-b}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: team-a}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: team-b}
---
apiVersion: v1
kind: Secret
metadata: {name: password, namespace: team-a}
stringData: {password: hunter2}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-view, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: bob-admin, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: bob}]
`, "apply", "-f", "-")

	as := func(token string, args ...string) (string, string, error) {
		return s.Kubectl(t, "", append([]string{"--kubeconfig", "/dev/null", "--insecure-skip-tls-verify", "--token", token}, args...)...)
	}
	cases := []struct {
		name    string
		token   string
		args    []string
		allowed bool
		output  string // in stdout when allowed, in stderr when not
	}{
		{"A viewer reads ConfigMaps in its namespace.", "alice-token", []string{"-n", "team-a", "get", "configmap", "settings"}, true, "settings"},
		{"A viewer does not create there.", "alice-token", []string{"-n", "team-a", "create", "configmap", "more"}, false, "forbidden"},
		{"A viewer does not read Secrets.", "alice-token", []string{"-n", "team-a", "get", "secret", "password"}, false, "forbidden"},
		{"A viewer sees nothing in another namespace.", "alice-token", []string{"-n", "team-b", "get", "configmaps"}, false, "forbidden"},
		{"view takes in mco's PropagationPolicies.", "alice-token", []string{"-n", "team-a", "get", "propagationpolicies"}, true, ""},
		{"A user without bindings reads nothing.", "carol-token", []string{"-n", "team-a", "get", "configmaps"}, false, "forbidden"},
		{"A namespace admin cannot bind cluster-admin there.", "bob-token",
			[]string{"-n", "team-a", "create", "rolebinding", "escalate", "--clusterrole", "cluster-admin", "--user", "carol"}, false, "forbidden"},
		{"A namespace admin can bind edit there.", "bob-token",
			[]string{"-n", "team-a", "create", "rolebinding", "carol-edit", "--clusterrole", "edit", "--user", "carol"}, true, "carol-edit"},
		{"Then the editor may create ConfigMaps.", "carol-token", []string{"-n", "team-a", "create", "configmap", "from-carol"}, true, "from-carol"},
		{"edit takes in writing OverridePolicies.", "carol-token", []string{"-n", "team-a", "auth", "can-i", "create", "overridepolicies.policy.karmada.io"}, true, "yes"},
		{"can-i answers no for what is not granted.", "alice-token", []string{"-n", "team-a", "auth", "can-i", "delete", "deployments"}, false, "no"},
		{"can-i --list lists what is granted.", "alice-token", []string{"-n", "team-a", "auth", "can-i", "--list"}, true, "configmaps"},
		{"whoami names the user and groups.", "alice-token", []string{"auth", "whoami"}, true, "developers"},
	}
	for _, tc := range cases {
		out, errOut, err := as(tc.token, tc.args...)
		if (err == nil) != tc.allowed {
			t.Errorf("%s kubectl %s: err=%v\nstdout: %s\nstderr: %s", tc.name, strings.Join(tc.args, " "), err, out, errOut)
			continue
		}
		got := out
		if !tc.allowed && !strings.Contains(strings.Join(tc.args, " "), "can-i") {
			got = errOut
		}
		if !strings.Contains(got, tc.output) {
			t.Errorf("%s kubectl %s: output %q lacks %q (stderr %q)", tc.name, strings.Join(tc.args, " "), got, tc.output, errOut)
		}
	}
}

// TestComponentIdentities: mco-apiserver writes a kubeconfig per component,
// and each identity holds only what its component needs: the scheduler
// cannot read Secrets or create Deployments, the controller-manager
// claims templates but does not create them.
func TestComponentIdentities(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	cases := []struct {
		name       string
		kubeconfig string
		args       []string
		want       string
	}{
		{"The scheduler is who its kubeconfig says.", localcluster.SchedulerKubeconfig(s.DataDir),
			[]string{"auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"}, "system:mco-scheduler"},
		{"The scheduler cannot read Secrets.", localcluster.SchedulerKubeconfig(s.DataDir),
			[]string{"auth", "can-i", "get", "secrets", "-A"}, "no"},
		{"The scheduler cannot create Deployments.", localcluster.SchedulerKubeconfig(s.DataDir),
			[]string{"auth", "can-i", "create", "deployments", "-n", "default"}, "no"},
		{"The scheduler writes binding status.", localcluster.SchedulerKubeconfig(s.DataDir),
			[]string{"auth", "can-i", "update", "resourcebindings.work.karmada.io", "--subresource", "status", "-A"}, "yes"},
		{"The controller-manager claims Deployments.", localcluster.ControllerManagerKubeconfig(s.DataDir),
			[]string{"auth", "can-i", "update", "deployments", "-A"}, "yes"},
		{"The controller-manager does not create Deployments.", localcluster.ControllerManagerKubeconfig(s.DataDir),
			[]string{"auth", "can-i", "create", "deployments", "-n", "default"}, "no"},
		{"The controller-manager writes Works.", localcluster.ControllerManagerKubeconfig(s.DataDir),
			[]string{"auth", "can-i", "create", "works.work.karmada.io", "-n", "karmada-es-member1"}, "yes"},
	}
	for _, tc := range cases {
		out, errOut, _ := s.Kubectl(t, "", append([]string{"--kubeconfig", tc.kubeconfig}, tc.args...)...)
		if strings.TrimSpace(out) != tc.want {
			t.Errorf("%s kubectl %s: %q (stderr %q), want %q", tc.name, strings.Join(tc.args, " "), out, errOut, tc.want)
		}
	}
	// Not just can-i: the real request is refused.
	_, errOut, err := s.Kubectl(t, "", "--kubeconfig", localcluster.SchedulerKubeconfig(s.DataDir), "get", "secrets", "-n", "kube-system")
	if err == nil || !strings.Contains(errOut, "forbidden") {
		t.Errorf("the scheduler listed Secrets: err=%v stderr=%s", err, errOut)
	}
}
