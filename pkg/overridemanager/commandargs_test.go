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

package overridemanager_test

import (
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

const podWithArgs = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      initContainers: [{name: init, image: busybox, args: [--once]}]
      containers:
      - {name: web, image: nginx, command: [nginx], args: [-g, daemon off;, --debug]}
      - {name: sidecar, image: envoy}`

func TestCommandAndArgsOverriders(t *testing.T) {
	t.Parallel()
	cmdArgs := func(containerName string, op policyv1alpha1.OverriderOperator, values ...string) []policyv1alpha1.CommandArgsOverrider {
		return []policyv1alpha1.CommandArgsOverrider{{ContainerName: containerName, Operator: op, Value: values}}
	}
	runOverriderCases(t, []overriderCase{
		{
			name:      "Args add appends to the named container's args.",
			in:        podWithArgs,
			overrider: policyv1alpha1.Overriders{ArgsOverrider: cmdArgs("web", policyv1alpha1.OverriderOpAdd, "--port", "8080")},
			want: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      initContainers: [{name: init, image: busybox, args: [--once]}]
      containers:
      - {name: web, image: nginx, command: [nginx], args: [-g, daemon off;, --debug, --port, "8080"]}
      - {name: sidecar, image: envoy}`,
		},
		{
			name:      "Args remove drops every matching item and keeps the order of the rest.",
			in:        podWithArgs,
			overrider: policyv1alpha1.Overriders{ArgsOverrider: cmdArgs("web", policyv1alpha1.OverriderOpRemove, "--debug", "-g", "--absent")},
			want: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      initContainers: [{name: init, image: busybox, args: [--once]}]
      containers:
      - {name: web, image: nginx, command: [nginx], args: [daemon off;]}
      - {name: sidecar, image: envoy}`,
		},
		{
			name:      "Command add creates the command of a container that has none.",
			in:        podWithArgs,
			overrider: policyv1alpha1.Overriders{CommandOverrider: cmdArgs("sidecar", policyv1alpha1.OverriderOpAdd, "envoy", "-c", "/etc/envoy.yaml")},
			want: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      initContainers: [{name: init, image: busybox, args: [--once]}]
      containers:
      - {name: web, image: nginx, command: [nginx], args: [-g, daemon off;, --debug]}
      - {name: sidecar, image: envoy, command: [envoy, -c, /etc/envoy.yaml]}`,
		},
		{
			name:      "Command remove on a container without command changes nothing.",
			in:        podWithArgs,
			overrider: policyv1alpha1.Overriders{CommandOverrider: cmdArgs("sidecar", policyv1alpha1.OverriderOpRemove, "envoy")},
			want:      podWithArgs,
		},
		{
			name:      "An init container is matched by name too.",
			in:        podWithArgs,
			overrider: policyv1alpha1.Overriders{ArgsOverrider: cmdArgs("init", policyv1alpha1.OverriderOpRemove, "--once")},
			want: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      initContainers: [{name: init, image: busybox, args: []}]
      containers:
      - {name: web, image: nginx, command: [nginx], args: [-g, daemon off;, --debug]}
      - {name: sidecar, image: envoy}`,
		},
		{
			name:      "No container of that name changes nothing.",
			in:        podWithArgs,
			overrider: policyv1alpha1.Overriders{ArgsOverrider: cmdArgs("missing", policyv1alpha1.OverriderOpAdd, "--x")},
			want:      podWithArgs,
		},
		{
			name:      "Replace is not an operator of command and args.",
			in:        podWithArgs,
			overrider: policyv1alpha1.Overriders{CommandOverrider: cmdArgs("web", policyv1alpha1.OverriderOpReplace, "x")},
			wantErr:   `clusteroverridepolicy test rule 0: commandOverrider[0]: unsupported operator "replace"`,
		},
		{
			name:      "Args that are not a list of strings are an error.",
			in:        `{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: nginx, args: [1]}]}}`,
			overrider: policyv1alpha1.Overriders{ArgsOverrider: cmdArgs("c", policyv1alpha1.OverriderOpAdd, "--x")},
			wantErr:   `clusteroverridepolicy test rule 0: argsOverrider[0]: /spec/containers/0/args: item 0 is a number, not a string`,
		},
	})
}
