/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package app

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"
)

// planData is the plan library's test data.
func planData(name string) string {
	return filepath.Join("..", "plan", "testdata", name)
}

func TestPlanCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		args    []string
		stdout  string
		wantErr string
	}{{
		name: "Files given with -f and --filename are read together",
		args: []string{"-f", planData("fleet.yaml"), "--filename", planData("aggregated.yaml")},
		stdout: `clusters:
- name: member-1
  replicas: 8
`,
	}, {
		name:   "-o json prints JSON",
		args:   []string{"-f", planData("fleet.yaml") + "," + planData("aggregated.yaml"), "-o", "json"},
		stdout: "{\n  \"clusters\": [\n    {\n      \"name\": \"member-1\",\n      \"replicas\": 8\n    }\n  ]\n}\n",
	}, {
		name: "An unschedulable binding fails with the reason",
		args: []string{"-f", planData("fleet.yaml"), "-f", planData("unschedulable.yaml")},
		wantErr: "0/3 clusters are available: 1 cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }, " +
			"2 cluster(s) did not match the placement cluster affinity.",
	}, {
		name:    "Positional arguments are refused",
		args:    []string{planData("fleet.yaml")},
		wantErr: `unknown command "` + planData("fleet.yaml") + `" for "plan"`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := NewPlanCommand()
			var stdout, stderr bytes.Buffer
			cmd.SetOut(&stdout)
			cmd.SetErr(&stderr)
			cmd.SetArgs(tc.args)
			cmd.SilenceErrors = true
			err := cmd.Execute()
			if gotErr := errString(err); gotErr != tc.wantErr {
				t.Errorf("error = %q, want %q", gotErr, tc.wantErr)
			}
			if stdout.String() != tc.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout.String(), tc.stdout)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// The root command's persistent hook is where component-base's cli sets up
// logging; plan skips it so that its failure prints as a plain error.
func TestPlanSkipsTheRootCommandHook(t *testing.T) {
	t.Parallel()
	hooked := false
	root := &cobra.Command{Use: "mco-scheduler", PersistentPreRun: func(*cobra.Command, []string) { hooked = true }}
	root.AddCommand(NewPlanCommand())
	root.SetOut(&bytes.Buffer{})
	root.SetArgs([]string{"plan", "-f", planData("fleet.yaml"), "-f", planData("aggregated.yaml")})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if hooked {
		t.Error("the root command's PersistentPreRun ran for plan")
	}
}
