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

func registry(value string) policyv1alpha1.Overriders {
	return policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{
		{Component: policyv1alpha1.Registry, Operator: policyv1alpha1.OverriderOpReplace, Value: value},
	}}
}

func TestImageOverrider(t *testing.T) {
	t.Parallel()
	runOverriderCases(t, []overriderCase{
		{
			name: "Without a predicate, every container and init container of a Deployment changes.",
			in: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  template:
    spec:
      initContainers: [{name: init, image: busybox}]
      containers: [{name: web, image: docker.io/nginx:1}, {name: sidecar, image: "envoyproxy/envoy@sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c"}]`,
			overrider: registry("eu.registry.io"),
			want: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  template:
    spec:
      initContainers: [{name: init, image: eu.registry.io/busybox}]
      containers: [{name: web, image: eu.registry.io/nginx:1}, {name: sidecar, image: "eu.registry.io/envoyproxy/envoy@sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c"}]`,
		},
		{
			name:      "A Pod's containers are under spec.",
			in:        `{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: default}, spec: {containers: [{name: c, image: nginx}]}}`,
			overrider: registry("eu.registry.io"),
			want:      `{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: default}, spec: {containers: [{name: c, image: eu.registry.io/nginx}]}}`,
		},
		{
			name:      "A CronJob's containers are under the job template.",
			in:        `{apiVersion: batch/v1, kind: CronJob, metadata: {name: c}, spec: {jobTemplate: {spec: {template: {spec: {containers: [{name: c, image: nginx}]}}}}}}`,
			overrider: registry("eu.registry.io"),
			want:      `{apiVersion: batch/v1, kind: CronJob, metadata: {name: c}, spec: {jobTemplate: {spec: {template: {spec: {containers: [{name: c, image: eu.registry.io/nginx}]}}}}}}`,
		},
		{
			name:      "A Job, StatefulSet, DaemonSet or ReplicaSet keeps its containers in spec.template.spec.",
			in:        `{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {containers: [{name: c, image: nginx}]}}}}`,
			overrider: registry("eu.registry.io"),
			want:      `{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {containers: [{name: c, image: eu.registry.io/nginx}]}}}}`,
		},
		{
			name:      "Without a predicate, other kinds are left alone.",
			in:        `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {image: nginx}}`,
			overrider: registry("eu.registry.io"),
			want:      `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {image: nginx}}`,
		},
		{
			name: "A predicate path changes only the image it points at, in any kind.",
			in:   `{apiVersion: example.io/v1, kind: App, metadata: {name: a}, spec: {images: {main: "nginx:1", other: "nginx:1"}}}`,
			overrider: policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{{
				Predicate: &policyv1alpha1.ImagePredicate{Path: "/spec/images/main"},
				Component: policyv1alpha1.Tag, Operator: policyv1alpha1.OverriderOpReplace, Value: "2",
			}}},
			want: `{apiVersion: example.io/v1, kind: App, metadata: {name: a}, spec: {images: {main: "nginx:2", other: "nginx:1"}}}`,
		},
		{
			name: "Image overriders apply in order, each seeing the last one's result.",
			in:   `{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: "docker.io/nginx:1"}]}}`,
			overrider: policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{
				{Component: policyv1alpha1.Registry, Operator: policyv1alpha1.OverriderOpRemove},
				{Component: policyv1alpha1.Repository, Operator: policyv1alpha1.OverriderOpAdd, Value: "-debug"},
				{Component: policyv1alpha1.Tag, Operator: policyv1alpha1.OverriderOpAdd, Value: "-alpine"},
			}},
			want: `{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: "nginx-debug:1-alpine"}]}}`,
		},
		{
			name: "A predicate path that does not exist is an error.",
			in:   `{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: nginx}]}}`,
			overrider: policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{{
				Predicate: &policyv1alpha1.ImagePredicate{Path: "/spec/containers/1/image"},
				Component: policyv1alpha1.Tag, Operator: policyv1alpha1.OverriderOpReplace, Value: "2",
			}}},
			wantErr: `clusteroverridepolicy test rule 0: imageOverrider[0]: /spec/containers/1: no index "1" in a list of 1`,
		},
		{
			name: "A predicate path at something other than a string is an error.",
			in:   `{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: nginx}]}}`,
			overrider: policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{{
				Predicate: &policyv1alpha1.ImagePredicate{Path: "/spec/containers/0"},
				Component: policyv1alpha1.Tag, Operator: policyv1alpha1.OverriderOpReplace, Value: "2",
			}}},
			wantErr: `clusteroverridepolicy test rule 0: imageOverrider[0]: /spec/containers/0: an object, not an image string`,
		},
		{
			name:      "A container image that does not parse is an error naming the container.",
			in:        `{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: nginx}, {name: d, image: "Bad:1"}]}}`,
			overrider: registry("eu.registry.io"),
			wantErr:   `clusteroverridepolicy test rule 0: imageOverrider[0]: /spec/containers/1/image: parse image "Bad:1": repository "Bad" must be lowercase`,
		},
	})
}
