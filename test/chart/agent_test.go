package chart

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// agentChart is the chart of mco-agent.
var agentChart = filepath.Join(root, "charts", "mco-agent")

// agentValues are the values every agent chart test starts from.
var agentValues = []string{"--set", "clusterName=edge-1", "--set", "credential.existingSecret=mco-agent"}

// TestAgentChart: the agent's chart lints, renders the flags its values
// name (each one mco-agent knows), keeps a given kubeconfig in a Secret
// that survives upgrades, and refuses values without a cluster name or
// with two credentials.
func TestAgentChart(t *testing.T) {
	if out, err := helm(t, append([]string{"lint", "--strict", agentChart, "--namespace", namespace}, agentValues...)...); err != nil {
		t.Fatalf("helm lint: %v\n%s", err, out)
	}
	out, err := helm(t, "template", "edge", agentChart, "--namespace", namespace, "--set", "clusterName=edge-1", "--set", "credential.kubeconfig=apiVersion: v1",
		"--set", "cluster.region=eu-west", "--set", "cluster.zones={eu-west-a,eu-west-b}", "--set", "cluster.labels.env=prod",
		"--set", "extraArgs={--cluster-status-update-frequency=5s}")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- --cluster-name=edge-1",
		"- --mco-kubeconfig-secret=mco-system/edge-mco-agent-credential",
		"- --leader-elect-resource-namespace=mco-system",
		"- --cluster-region=eu-west",
		"- --cluster-zones=eu-west-a,eu-west-b",
		"- --cluster-labels=env=prod",
		"- --cluster-status-update-frequency=5s",
		"helm.sh/resource-policy: keep",
		"name: cluster-admin",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendering lacks %q:\n%s", want, out)
		}
	}
	help, err := exec.Command(bin(t, "mco-agent"), "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("mco-agent --help: %v\n%s", err, help)
	}
	flags := regexp.MustCompile(`(?m)^\s+- (--[a-z-]+)=`).FindAllStringSubmatch(out, -1)
	if len(flags) < 8 {
		t.Fatalf("found %d flags in the rendering, want the 8 or more it passes", len(flags))
	}
	for _, m := range flags {
		if !strings.Contains(string(help), "  "+m[1]+" ") {
			t.Errorf("the chart passes %s, which mco-agent does not know", m[1])
		}
	}
	for what, set := range map[string][]string{
		"no cluster name":   {"--set", "credential.existingSecret=x"},
		"two credentials":   {"--set", "clusterName=edge-1", "--set", "credential.existingSecret=x", "--set", "credential.kubeconfig=y"},
		"no credential":     {"--set", "clusterName=edge-1"},
		"a bad name":        {"--set", "clusterName=Edge_1", "--set", "credential.existingSecret=x"},
		"an extra argument": {"--set", "clusterName=edge-1", "--set", "credential.existingSecret=x", "--set", "extraArgs={verbose}"},
	} {
		if _, err := helm(t, append([]string{"template", "edge", agentChart}, set...)...); err == nil {
			t.Errorf("helm template with %s succeeded, want a schema error", what)
		}
	}
}
