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

import "testing"

func TestPlanBadInput(t *testing.T) {
	t.Parallel()
	runCases(t, []planCase{{
		name:  "An unknown field in one of our kinds names the file, the document and the field",
		files: testdata("fleet.yaml", "bad/unknown-field.yaml"),
		wantErr: "testdata/bad/unknown-field.yaml: document 2: work.karmada.io/v1alpha2 ResourceBinding: " +
			`strict decoding error: unknown field "spec.placement.clusterAffinity.clusterName"`,
	}, {
		name:    "A document without a kind is refused",
		files:   testdata("fleet.yaml", "bad/no-kind.yaml"),
		wantErr: "testdata/bad/no-kind.yaml: document 2: apiVersion and kind are required",
	}, {
		name:    "A YAML syntax error names the file and the document",
		files:   testdata("bad/syntax.yaml"),
		wantErr: "testdata/bad/syntax.yaml: document 1: yaml: line 5: did not find expected ',' or ']'",
	}, {
		name:  "A placement the apiserver would refuse is refused",
		files: testdata("fleet.yaml", "deployment.yaml", "bad/invalid-placement.yaml"),
		wantErr: "testdata/bad/invalid-placement.yaml: document 1: " +
			"spec.placement.clusterAffinities: Forbidden: may not be set together with clusterAffinity",
	}, {
		name:  "A kind of ours that plan does not read is refused",
		files: testdata("fleet.yaml", "bad/work.yaml"),
		wantErr: "testdata/bad/work.yaml: document 1: work.karmada.io/v1alpha1 Work is not an input of plan " +
			"(give Clusters and a ResourceBinding, or Clusters, a workload and a PropagationPolicy)",
	}, {
		name:    "A cluster defined twice is refused",
		files:   testdata("fleet.yaml", "bad/duplicate-cluster.yaml", "static-weights.yaml"),
		wantErr: `testdata/bad/duplicate-cluster.yaml: document 1: cluster "member-2" is already defined in testdata/fleet.yaml: document 2`,
	}, {
		name:    "A missing file is reported",
		files:   testdata("fleet.yaml", "missing.yaml"),
		wantErr: "open testdata/missing.yaml: no such file or directory",
	}, {
		name:    "Without clusters there is nothing to choose from",
		files:   testdata("static-weights.yaml"),
		wantErr: "no Cluster objects given: plan needs the member clusters to choose from",
	}, {
		name:  "Two bindings are refused",
		files: testdata("fleet.yaml", "static-weights.yaml", "dynamic.yaml"),
		wantErr: "more than one binding given (testdata/static-weights.yaml: document 1, testdata/dynamic.yaml: document 1): " +
			"plan previews one binding at a time",
	}, {
		name:  "A binding and a policy together are refused",
		files: testdata("fleet.yaml", "static-weights.yaml", "policy.yaml"),
		wantErr: "both a binding (testdata/static-weights.yaml: document 1) and a propagation policy " +
			"(testdata/policy.yaml: document 1) given: give one or the other",
	}, {
		name:  "Two policies are refused",
		files: testdata("fleet.yaml", "deployment.yaml", "policy.yaml", "policy-for-api.yaml"),
		wantErr: "more than one propagation policy given (testdata/policy.yaml: document 1 and " +
			"testdata/policy-for-api.yaml: document 1): give one",
	}, {
		name:    "Clusters alone are not enough",
		files:   testdata("fleet.yaml"),
		wantErr: "no ResourceBinding, and no workload template with a PropagationPolicy: nothing to schedule",
	}, {
		name:  "A policy without a workload is refused",
		files: testdata("fleet.yaml", "policy.yaml"),
		wantErr: "the propagation policy (testdata/policy.yaml: document 1) needs a workload template " +
			"(for example an apps/v1 Deployment) to place",
	}, {
		name:  "A workload without a policy is refused",
		files: testdata("fleet.yaml", "deployment.yaml"),
		wantErr: "the workload template (testdata/deployment.yaml: document 1) needs a PropagationPolicy " +
			"or ClusterPropagationPolicy to place it",
	}, {
		name:  "Several workloads the policy selects are refused",
		files: testdata("fleet.yaml", "deployment.yaml", "bad/second-shop.yaml", "policy.yaml"),
		wantErr: "the propagation policy (testdata/policy.yaml: document 1) selects 2 workload templates " +
			"(apps/v1 Deployment default/shop, apps/v1 Deployment shop): give one",
	}, {
		name:    "An unknown output format is refused",
		files:   testdata("fleet.yaml", "static-weights.yaml"),
		output:  "table",
		wantErr: `unknown output format "table": use yaml or json`,
	}, {
		name:    "No files is refused",
		wantErr: "no input files: give the Clusters and the binding (or workload and policy) with -f",
	}})
}
