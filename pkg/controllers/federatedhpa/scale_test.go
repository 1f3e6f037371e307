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
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

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
