package root

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

func TestMessage(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, err, want string }{
		{"A one-line error is prefixed", "cluster m1 not found", "error: cluster m1 not found"},
		{"Lines of a server's message are joined", "clusterroles is forbidden: attempting to grant:\n  {rule a}\n  {rule b}\n",
			"error: clusterroles is forbidden: attempting to grant:; {rule a}; {rule b}"},
	}
	for _, tc := range cases {
		if got := Message(errors.New(tc.err)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestRunFailsWithOneLine runs the command as kubectl would and checks
// that failures are one "error:" line on stderr and exit code 1.
func TestRunFailsWithOneLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mcoKubeconfig := filepath.Join(dir, "mco")
	if err := os.WriteFile(mcoKubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: mco, cluster: {server: "http://127.0.0.1:1"}}]
users: [{name: admin, user: {token: t}}]
contexts: [{name: mco, context: {cluster: mco, user: admin}}]
current-context: mco
`), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	cases := []struct {
		name string
		args []string
		want string
	}{{
		name: "A missing member kubeconfig",
		args: []string{"join", "member3", "--cluster-kubeconfig", missing},
		want: "error: member kubeconfig " + missing + " does not exist\n",
	}, {
		name: "A context the member kubeconfig does not have",
		args: []string{"join", "member3", "--cluster-kubeconfig", mcoKubeconfig, "--cluster-context", "nope"},
		want: `error: context "nope" not found in member kubeconfig ` + mcoKubeconfig + " (it has contexts mco)\n",
	}, {
		name: "An unknown flag",
		args: []string{"join", "member3", "--regoin", "x"},
		want: "error: unknown flag: --regoin (see 'kubectl mco join --help')\n",
	}, {
		name: "An unknown verb",
		args: []string{"promote"},
		want: "error: unknown command \"promote\" for \"kubectl mco\"\n",
	}, {
		name: "get without a kind",
		args: []string{"get"},
		want: "error: get needs a kind: clusters, or a kind of the members such as deployments\n",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
			code := Run(context.Background(), append(tc.args, "--kubeconfig", mcoKubeconfig), streams)
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if errOut.String() != tc.want {
				t.Errorf("stderr:\n%q\nwant:\n%q", errOut.String(), tc.want)
			}
			if out.Len() != 0 {
				t.Errorf("stdout: %q, want nothing", out.String())
			}
		})
	}
}
