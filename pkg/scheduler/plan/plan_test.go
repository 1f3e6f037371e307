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

package plan_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/mco-org/mco/pkg/scheduler/core"
	"github.com/mco-org/mco/pkg/scheduler/plan"
)

// planCase runs plan on files under testdata and compares its output
// exactly. wantErr is the exact error message; unschedulable says the error
// must be a *core.UnschedulableError.
type planCase struct {
	name          string
	files         []string
	output        string
	wantStdout    string
	wantStderr    string
	wantErr       string
	unschedulable bool
}

func testdata(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join("testdata", n)
	}
	return out
}

func runCases(t *testing.T, cases []planCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			err := plan.Run(context.Background(), tc.files, tc.output, &stdout, &stderr)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("got no error and output %q, want error %q", stdout.String(), tc.wantErr)
			case tc.wantErr != "" && err.Error() != tc.wantErr:
				t.Errorf("error:\n got %q\nwant %q", err.Error(), tc.wantErr)
			}
			var unsched *core.UnschedulableError
			if errors.As(err, &unsched) != tc.unschedulable {
				t.Errorf("error %v: UnschedulableError = %v, want %v", err, !tc.unschedulable, tc.unschedulable)
			}
			if stdout.String() != tc.wantStdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout.String(), tc.wantStdout)
			}
			if stderr.String() != tc.wantStderr {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), tc.wantStderr)
			}
		})
	}
}

func TestPlanScenarios(t *testing.T) {
	t.Parallel()
	runCases(t, []planCase{{
		name:  "Static weights take the largest matching weight and skip the tainted cluster",
		files: testdata("fleet.yaml", "static-weights.yaml"),
		wantStdout: `clusters:
- name: member-1
  replicas: 4
- name: member-2
  replicas: 2
`,
	}, {
		name:  "Dynamic weight divides by the room the resource summaries leave",
		files: testdata("fleet.yaml", "dynamic.yaml"),
		wantStdout: `clusters:
- name: member-1
  replicas: 3
- name: member-2
  replicas: 6
`,
	}, {
		name:   "JSON output wraps the same list",
		files:  testdata("fleet.yaml", "dynamic.yaml"),
		output: "json",
		wantStdout: `{
  "clusters": [
    {
      "name": "member-1",
      "replicas": 3
    },
    {
      "name": "member-2",
      "replicas": 6
    }
  ]
}
`,
	}, {
		name:  "Aggregated scale-up stays on the cluster in spec.clusters",
		files: testdata("fleet.yaml", "aggregated.yaml"),
		wantStdout: `clusters:
- name: member-1
  replicas: 8
`,
	}, {
		name:          "An unschedulable binding gives the scheduler's reason",
		files:         testdata("fleet.yaml", "unschedulable.yaml"),
		wantErr:       "0/3 clusters are available: 1 cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }, 2 cluster(s) did not match the placement cluster affinity.",
		unschedulable: true,
	}, {
		name:  "A clusterAffinities term without a fit gives way to the next",
		files: testdata("fleet.yaml", "affinities.yaml"),
		wantStdout: `clusters:
- name: member-1
  replicas: 3
- name: member-2
  replicas: 3
`,
		wantStderr: "scheduled with the clusterAffinities term \"eu\"\n",
	}, {
		// Divided defaults to Weighted with equal weights; the odd FNV-32a
		// hash of the Deployment's uid gives the odd replica to the larger name.
		name:  "A workload and its policy are scheduled like the binding the detector would make",
		files: testdata("fleet.yaml", "deployment.yaml", "policy.yaml"),
		wantStdout: `clusters:
- name: member-1
  replicas: 2
- name: member-2
  replicas: 3
`,
	}, {
		name:  "A kind without replicas goes to every feasible cluster, with no replica count",
		files: testdata("fleet.yaml", "configmap.yaml"),
		wantStdout: `clusters:
- name: member-1
- name: member-2
`,
	}, {
		name:  "A policy that does not select the only workload is applied with a warning",
		files: testdata("fleet.yaml", "deployment.yaml", "policy-for-api.yaml"),
		wantStdout: `clusters:
- name: member-1
  replicas: 5
- name: member-2
  replicas: 5
`,
		wantStderr: "warning: the propagation policy (testdata/policy-for-api.yaml: document 1) does not select " +
			"apps/v1 Deployment default/shop (testdata/deployment.yaml: document 1); placing it anyway\n",
	}})
}
