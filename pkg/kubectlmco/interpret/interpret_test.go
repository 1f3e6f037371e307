package interpret_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/mco-org/mco/pkg/kubectlmco/root"
)

const webapp = "../../../artifacts/examples/interpreter/webapp-customization.yaml"

// interpret runs `kubectl mco interpret args...` with stdin.
func interpret(stdin string, args ...string) (stdout, stderr string, code int) {
	var out, errOut bytes.Buffer
	streams := genericiooptions.IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}
	code = root.Run(context.Background(), append([]string{"interpret"}, args...), streams)
	return out.String(), errOut.String(), code
}

func TestExecute(t *testing.T) {
	status, err := os.ReadFile("testdata/status.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{{
		name: "retain keeps the member's endpoint",
		args: []string{"--operation", "retain", "--desired-file", "testdata/desired.yaml", "--observed-file", "testdata/observed.yaml"},
		want: `---
# [1/1] retained:
apiVersion: demo.example.com/v1
kind: WebApp
metadata:
  name: web
  namespace: shop
spec:
  configRef: web-config
  endpoint: https://web.member1.example
  image: nginx:1.27
  replicas: 4
  resources:
    cpu: 100m
    memory: 64Mi
`,
	}, {
		name: "replicas and requirements",
		args: []string{"--operation", "InterpretReplica", "--desired-file", "testdata/desired.yaml"},
		want: `---
# [1/2] replica:
4
---
# [2/2] requires:
resourceRequest:
  cpu: 100m
  memory: 64Mi
`,
	}, {
		name: "revise",
		args: []string{"--operation", "reviseReplica", "--desired-file", "testdata/desired.yaml", "--desired-replica", "2"},
		want: `---
# [1/1] revised:
apiVersion: demo.example.com/v1
kind: WebApp
metadata:
  name: web
  namespace: shop
spec:
  configRef: web-config
  image: nginx:1.27
  replicas: 2
  resources:
    cpu: 100m
    memory: 64Mi
`,
	}, {
		name: "status",
		args: []string{"--operation", "interpretstatus", "--observed-file", "testdata/observed.yaml"},
		want: "---\n# [1/1] status:\nreadyReplicas: 1\nreplicas: 2\n",
	}, {
		name: "health",
		args: []string{"--operation", "interpretHealth", "--observed-file", "testdata/observed.yaml"},
		want: "---\n# [1/1] healthy:\nfalse\n",
	}, {
		name: "dependencies",
		args: []string{"--operation", "interpretDependency", "--desired-file", "testdata/desired.yaml"},
		want: "---\n# [1/1] dependencies:\n- apiVersion: v1\n  kind: ConfigMap\n  name: web-config\n  namespace: shop\n",
	}, {
		name:  "aggregate status items from stdin",
		stdin: string(status),
		args:  []string{"--operation", "aggregateStatus", "--desired-file", "testdata/desired.yaml", "--status-file", "-"},
		want: `---
# [1/1] aggregatedStatus:
apiVersion: demo.example.com/v1
kind: WebApp
metadata:
  name: web
  namespace: shop
spec:
  configRef: web-config
  image: nginx:1.27
  replicas: 4
  resources:
    cpu: 100m
    memory: 64Mi
status:
  clusters: 2
  readyReplicas: 3
  replicas: 4
`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := interpret(tc.stdin, append([]string{"-f", webapp}, tc.args...)...)
			if code != 0 || out != tc.want {
				t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, tc.want)
			}
		})
	}
}

func TestExecuteErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"--operation", "retain"}, "error: -f is required"},
		{"no operation", []string{"-f", webapp}, "error: operation is not set"},
		{"unknown operation", []string{"-f", webapp, "--operation", "scale"},
			"error: operation scale is not supported. Use one of: Retain, InterpretReplica, InterpretComponent, ReviseReplica, InterpretStatus, AggregateStatus, InterpretHealth, InterpretDependency"},
		{"retain without observed", []string{"-f", webapp, "--operation", "retain", "--desired-file", "testdata/desired.yaml"},
			"Execute Retain error: observed, observed-file options are not set"},
		{"both objects", []string{"-f", webapp, "--operation", "interpretHealth", "--desired-file", "testdata/desired.yaml", "--observed-file", "testdata/observed.yaml"},
			"Execute InterpretHealth error: you can not specify both desired-file and observed-file options"},
		{"not customized", []string{"-f", webapp, "--operation", "interpretComponent", "--desired-file", "testdata/desired.yaml"},
			"Execute InterpretComponent error: rule is not enabled"},
		{"not a customization", []string{"-f", "testdata/desired.yaml", "--operation", "retain"},
			"not a ResourceInterpreterCustomization, got demo.example.com/v1, Kind=WebApp"},
		{"missing file", []string{"-f", webapp, "--operation", "retain", "--desired-file", "testdata/nothing.yaml", "--observed-file", "testdata/observed.yaml"},
			"fail to get desired object"},
		{"bad status item", []string{"-f", webapp, "--operation", "aggregateStatus", "--desired-file", "testdata/desired.yaml", "--status-file", "testdata/desired.yaml"},
			`unknown field "apiVersion"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := interpret("", tc.args...)
			if code != 1 || !strings.Contains(errOut, tc.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and stderr with %q", code, out, errOut, tc.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	out, errOut, code := interpret("", "-f", webapp, "--check")
	want := `-----------------------------------
SOURCE: webapp
TARGET: demo.example.com/v1 WebApp
RULERS:
    Retain:               PASS
    InterpretReplica:     PASS
    InterpretComponent:   UNSET
    ReviseReplica:        PASS
    InterpretStatus:      PASS
    AggregateStatus:      PASS
    InterpretHealth:      PASS
    InterpretDependency:  PASS
`
	if code != 0 || out != want {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
	}

	out, errOut, code = interpret("", "-f", "testdata/bad-customization.yaml", "--check")
	for _, line := range []string{
		"SOURCE: bad\n",
		"InterpretReplica:     ERROR: the Lua script does not compile: parse: replicaResource at EOF: syntax error\n",
		"InterpretHealth:      ERROR: the Lua script must define function InterpretHealth: the script does not define function InterpretHealth\n",
		"ReviseReplica:        PASS\n",
		"SOURCE: not-a-customization\nnot a ResourceInterpreterCustomization, got /v1, Kind=ConfigMap\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("--check output lacks %q:\n%s", line, out)
		}
	}
	if code != 1 || errOut != "" {
		t.Errorf("--check of a bad file: exit %d, stderr %q; want 1 and nothing", code, errOut)
	}
}
