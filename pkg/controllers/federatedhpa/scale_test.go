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

package federatedhpa

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
	"github.com/mco-org/mco/pkg/template"
	"github.com/mco-org/mco/pkg/workload"
)

func TestScaleRefusesWhatAMemberHPAOwns(t *testing.T) {
	t.Parallel()
	deployments := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	deployment := func(name string, labels map[string]string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("apps/v1")
		u.SetKind("Deployment")
		u.SetNamespace("shop")
		u.SetName(name)
		u.SetLabels(labels)
		return u
	}
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{deployments: "DeploymentList"},
		deployment("web", nil), deployment("api", map[string]string{workload.RetainReplicasLabel: "true"}))
	templates := template.New(client, 0, template.Resource{GVR: deployments, GVK: deployments.GroupVersion().WithKind("Deployment"), Namespaced: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	templates.Start(ctx)
	if !templates.WaitForCacheSync(ctx) {
		t.Fatal("template caches did not sync")
	}
	g := guardedScale{templates: templates, namespace: "shop"}
	if err := g.ownedByMemberHPA(deployments.GroupResource(), "web"); err != nil {
		t.Errorf("web: %v, want it scaled", err)
	}
	if err := g.ownedByMemberHPA(deployments.GroupResource(), "api"); err == nil || !strings.Contains(err.Error(), workload.RetainReplicasLabel) {
		t.Errorf("api: %v, want a refusal naming %s", err, workload.RetainReplicasLabel)
	}
	if err := g.ownedByMemberHPA(deployments.GroupResource(), "missing"); err != nil {
		t.Errorf("missing: %v, want the scale client's own answer", err)
	}
}

func TestInClusters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ selector, want string }{
		{"app=web", "app=web,resource.karmada.io/query-from-cluster in (member1,member3)"},
		{"", ""},
	} {
		got := inClusters(tc.selector, []string{"member3", "member1"})
		if got != tc.want {
			t.Errorf("inClusters(%q) = %q, want %q", tc.selector, got, tc.want)
		}
		if got == "" {
			continue
		}
		sel, err := labels.Parse(got)
		if err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		in, rest := registrymetrics.SplitByCluster(sel)
		if !registrymetrics.ClusterMatches(in, "member3") || registrymetrics.ClusterMatches(in, "member2") || rest.String() != "app=web" {
			t.Errorf("%q: clusters %s, rest %s", got, in, rest)
		}
	}
	if got := inClusters("app=web", nil); got != "app=web" {
		t.Errorf("no clusters known: %q", got)
	}
}
