package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/test/e2e/framework"
)

// pluginResult is what one run of kubectl-mco printed and returned.
type pluginResult struct {
	stdout, stderr string
	code           int
}

// kubectlMCO runs the built plugin binary against mco, as `kubectl mco`
// runs it.
func kubectlMCO(t *testing.T, args ...string) pluginResult {
	t.Helper()
	bin := filepath.Join(framework.BinDir, "kubectl-mco")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s missing: run 'make build'", bin)
	}
	cmd := exec.Command(bin, append(args, "--kubeconfig", framework.Env.MCO.Kubeconfig)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := pluginResult{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("run kubectl-mco %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// mustSucceed fails the test unless the run exited 0.
func (r pluginResult) mustSucceed(t *testing.T, what string) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("%s: exit code %d\nstdout:\n%s\nstderr:\n%s", what, r.code, r.stdout, r.stderr)
	}
}

// failsWithOneLine checks a refused run: exit code 1 and one "error: "
// line on stderr starting with want.
func (r pluginResult) failsWithOneLine(t *testing.T, what, want string) {
	t.Helper()
	if r.code != 1 || !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, "\n") {
		t.Errorf("%s: exit code %d, stderr %q; want exit code 1 and one line starting with %q", what, r.code, r.stderr, want)
	}
}

// TestKubectlMCOPlugin: the plugin unjoins a Push member, member3 unless
// it runs in Pull mode (mco withdraws what it propagated there, both sides
// are cleaned), refuses bad joins with one line, joins it again and waits
// for it to be Ready, refuses a second name for it, lists the clusters and
// reads a Deployment from every Push member through mco's cluster proxy.
func TestKubectlMCOPlugin(t *testing.T) {
	framework.Serial(t, "unjoins member2 and joins it again")
	name := "member3"
	if framework.Env.Member(name).Spec.Pull {
		name = "member2"
	}
	ns := namespace(t, "e2e-plugin")
	ctx := context.Background()
	kube, mco := mcoClients(t)
	member := memberClient(t, name)
	m := framework.Env.Member(name)
	// Whatever fails below, member3 is joined again for the tests after.
	t.Cleanup(func() {
		if _, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{}); apierrors.IsNotFound(err) {
			rejoin(t, name)
		}
	})

	kubectl(t, deploymentYAML(ns, "web", 1, "100m")+`---
`+duplicatedPolicy(ns, "web", "member1, member2, member3"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": 1, "member3": 1})

	// Unjoin: mco's side and the member's.
	r := kubectlMCO(t, "unjoin", name, "--cluster-kubeconfig", m.Kubeconfig, "--wait", "90s")
	r.mustSucceed(t, "unjoin")
	if !strings.HasSuffix(r.stdout, "Cluster "+name+" unjoined\n") {
		t.Errorf("unjoin output:\n%s", r.stdout)
	}
	if _, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("cluster %s after unjoin: %v, want NotFound", name, err)
	}
	space := names.ExecutionSpace(name)
	eventually(t, 60*time.Second, "member3's works and execution space gone", func(ctx context.Context) (bool, string) {
		works, err := mco.WorkV1alpha1().Works(space).List(ctx, metav1.ListOptions{})
		if err != nil || len(works.Items) > 0 {
			return false, fmt.Sprintf("works: %v %v", err, works)
		}
		_, err = kube.CoreV1().Namespaces().Get(ctx, space, metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprintf("execution space: %v", err)
	})
	gone := map[string]int32{"member1": 1, "member2": 1, "member3": 1}
	gone[name] = -1
	waitReplicas(t, ns, "web", gone)
	for _, role := range []string{"karmada-controller-manager:karmada-" + name, "karmada-impersonator"} {
		if _, err := member.RbacV1().ClusterRoles().Get(ctx, role, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("cluster role %s in the member after unjoin: %v, want NotFound", role, err)
		}
		if _, err := member.RbacV1().ClusterRoleBindings().Get(ctx, role, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("cluster role binding %s in the member after unjoin: %v, want NotFound", role, err)
		}
	}
	eventually(t, 60*time.Second, "namespace karmada-cluster gone from the member", func(ctx context.Context) (bool, string) {
		_, err := member.CoreV1().Namespaces().Get(ctx, "karmada-cluster", metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprintf("namespace karmada-cluster: %v", err)
	})

	// Joins that cannot work fail with one line, and create nothing.
	missing := filepath.Join(t.TempDir(), "missing.kubeconfig")
	kubectlMCO(t, "join", name, "--cluster-kubeconfig", missing).
		failsWithOneLine(t, "join with a missing kubeconfig", "error: member kubeconfig "+missing+" does not exist")
	kubectlMCO(t, "join", name, "--cluster-kubeconfig", m.Kubeconfig, "--cluster-context", "nope").
		failsWithOneLine(t, "join with a missing context", `error: context "nope" not found in member kubeconfig `+m.Kubeconfig)
	unreachable := unreachableKubeconfig(t)
	kubectlMCO(t, "join", name, "--cluster-kubeconfig", unreachable).
		failsWithOneLine(t, "join of an unreachable member", "error: cannot reach member at https://127.0.0.1:")
	if _, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("cluster %s after failed joins: %v, want NotFound", name, err)
	}

	// Join again with the plugin; it waits for Ready.
	r = kubectlMCO(t, "join", name, "--cluster-kubeconfig", m.Kubeconfig,
		"--region", m.Spec.Region, "--zone", m.Spec.Zone, "--labels", "environment="+m.Spec.Labels["environment"], "--wait", "2m")
	r.mustSucceed(t, "join")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if !strings.HasPrefix(lines[0], "[1/6] ") {
		t.Errorf("join does not number its steps:\n%s", r.stdout)
	}
	nodes := 0
	for _, n := range m.Spec.Nodes {
		nodes += n.Count
	}
	ready := regexp.MustCompile(fmt.Sprintf(`^Cluster %s is Ready: Kubernetes %s, %d/%d nodes Ready$`, name, regexp.QuoteMeta(framework.MemberVersion(name)), nodes, nodes))
	if last := lines[len(lines)-1]; !ready.MatchString(last) {
		t.Errorf("join's last line %q does not match %s", last, ready)
	}
	c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !meta.IsStatusConditionTrue(c.Status.Conditions, "Ready") || c.Spec.Region != m.Spec.Region ||
		strings.Join(c.Spec.Zones, ",") != m.Spec.Zone || c.Labels["environment"] != m.Spec.Labels["environment"] || c.Spec.ID == "" {
		t.Errorf("cluster after join: labels %v, spec %+v, conditions %+v", c.Labels, c.Spec, c.Status.Conditions)
	}

	// The same member under a second name is refused.
	kubectlMCO(t, "join", name+"-again", "--cluster-kubeconfig", m.Kubeconfig, "--wait", "0").
		failsWithOneLine(t, "join under a second name", "error: this member is already joined as cluster "+name+" (id "+c.Spec.ID+"); unjoin it first")
	if _, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name+"-again", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("cluster %s-again: %v, want NotFound", name, err)
	}

	// get clusters: three, all Ready.
	r = kubectlMCO(t, "get", "clusters")
	r.mustSucceed(t, "get clusters")
	rows := tableRows(r.stdout)
	if len(rows) != 3 {
		t.Fatalf("get clusters printed %d rows, want 3:\n%s", len(rows), r.stdout)
	}
	for _, row := range rows {
		if len(row) < 11 || row[3] != "True" || row[1] != framework.MemberVersion(row[0]) {
			t.Errorf("get clusters row %v: want READY True and version %s", row, framework.MemberVersion(row[0]))
		}
	}

	// The Deployment, back in the member, read from every Push member
	// through the proxy (mco does not dial a Pull member).
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": 1, "member3": 1})
	push := pushMembers()
	eventually(t, 30*time.Second, "get deploy -A shows web in every Push member", func(context.Context) (bool, string) {
		r := kubectlMCO(t, "get", "deploy", "-A")
		if r.code != 0 || r.stderr != "" {
			return false, fmt.Sprintf("exit code %d, stderr %s", r.code, r.stderr)
		}
		seen := map[string]bool{}
		for _, row := range tableRows(r.stdout) {
			if len(row) > 2 && row[1] == ns && row[2] == "web" {
				seen[row[0]] = true
			}
		}
		for _, cluster := range push {
			if !seen[cluster] {
				return false, "output:\n" + r.stdout
			}
		}
		return len(seen) == len(push), "output:\n" + r.stdout
	})
	r = kubectlMCO(t, "get", "deploy", "web", "-n", ns, "-o", "yaml")
	r.mustSucceed(t, "get deploy -o yaml")
	for _, cluster := range push {
		if !strings.Contains(r.stdout, "kubectl-mco/cluster: "+cluster) {
			t.Errorf("get -o yaml does not annotate an object with cluster %s:\n%s", cluster, r.stdout)
		}
	}
}

// tableRows splits a printed table into the fields of its rows, without
// the header.
func tableRows(out string) [][]string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var rows [][]string
	for _, line := range lines[1:] {
		rows = append(rows, strings.Fields(line))
	}
	return rows
}

// unreachableKubeconfig writes a kubeconfig with the members' credentials
// and an address nothing listens on.
func unreachableKubeconfig(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := "https://" + l.Addr().String()
	_ = l.Close()
	path := filepath.Join(t.TempDir(), "unreachable.kubeconfig")
	if err := kubeconfig.Write(path, kubeconfig.Context{Name: "unreachable", Server: server, Files: framework.Env.PKI.Files}); err != nil {
		t.Fatal(err)
	}
	return path
}
