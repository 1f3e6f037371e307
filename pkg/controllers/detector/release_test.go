package detector

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha2"
	"github.com/mco-org/mco/pkg/template"
)

// TestReleaseRetriesTheBinding: releasing a template writes its binding
// first; a write refused for a stale cache is made again from the server's
// copy, unless another policy has claimed the binding meanwhile. A binding
// write that fails for good returns the error with the template still
// claimed, so the deleted policy finds it again and retries.
func TestReleaseRetriesTheBinding(t *testing.T) {
	claimed := func(rv string) *workv1alpha2.ResourceBinding {
		return &workv1alpha2.ResourceBinding{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-deployment", ResourceVersion: rv,
			Labels:      map[string]string{policyv1alpha1.PropagationPolicyPermanentIDLabel: "p1", "keep": "me"},
			Annotations: map[string]string{policyv1alpha1.PropagationPolicyNamespaceAnnotation: "shop", policyv1alpha1.PropagationPolicyNameAnnotation: "web"}}}
	}
	reclaimed := claimed("2")
	reclaimed.Labels[policyv1alpha1.PropagationPolicyPermanentIDLabel] = "p2"
	reclaimed.Annotations[policyv1alpha1.PropagationPolicyNameAnnotation] = "web-2"
	for _, tc := range []struct {
		name      string
		server    *workv1alpha2.ResourceBinding
		conflicts int
		failing   bool // the binding write fails with a server error
		wantErr   bool
		wantClaim string // the permanent ID left on the binding
		wantKept  bool   // the template keeps its claim
	}{
		{name: "written at once", server: claimed("2")},
		{name: "cache behind the server", server: claimed("2"), conflicts: 1},
		{name: "claimed by another policy meanwhile", server: reclaimed, conflicts: 1, wantClaim: "p2"},
		{name: "conflicts that do not end", server: claimed("2"), conflicts: 100, wantErr: true, wantClaim: "p1", wantKept: true},
		{name: "binding write fails", server: claimed("2"), failing: true, wantErr: true, wantClaim: "p1", wantKept: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := fake.NewSimpleClientset(tc.server)
			refused := 0
			client.PrependReactor("update", "resourcebindings", func(clienttesting.Action) (bool, runtime.Object, error) {
				if tc.failing {
					return true, nil, apierrors.NewServiceUnavailable("etcd is away")
				}
				if refused < tc.conflicts {
					refused++
					return true, nil, apierrors.NewConflict(workv1alpha2.Resource("resourcebindings"), "web-deployment", nil)
				}
				return false, nil, nil
			})
			cached := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
			if err := cached.Add(claimed("1")); err != nil {
				t.Fatal(err)
			}
			tmpl := claimedTemplate()
			dyn := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(), tmpl.DeepCopy())
			d := &Detector{
				bindings:  &binding.Store{Client: client, RB: worklisters.NewResourceBindingLister(cached)},
				dynamic:   dyn,
				templates: template.New(dyn, 0, deploymentKind),
			}

			err := d.release(context.Background(), tmpl)
			if tc.wantErr != (err != nil) {
				t.Fatalf("release: %v, want an error: %v", err, tc.wantErr)
			}
			got, err := client.WorkV1alpha2().ResourceBindings("shop").Get(context.Background(), "web-deployment", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c := claimOf(got.Labels, got.Annotations); c.permanentID != tc.wantClaim || got.Labels["keep"] != "me" {
				t.Errorf("binding after release: labels %v annotations %v", got.Labels, got.Annotations)
			}
			gotT, err := dyn.Resource(deploymentKind.GVR).Namespace("shop").Get(context.Background(), "web", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if kept := !claimOf(gotT.GetLabels(), gotT.GetAnnotations()).empty(); kept != tc.wantKept {
				t.Errorf("template after release: labels %v annotations %v, want its claim kept: %v", gotT.GetLabels(), gotT.GetAnnotations(), tc.wantKept)
			}
		})
	}
}

var deploymentKind = template.Resource{
	GVR:        schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
	GVK:        schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"},
	Namespaced: true,
}

// claimedTemplate is web claimed by PropagationPolicy shop/web
// (permanent ID p1).
func claimedTemplate() *unstructured.Unstructured {
	tmpl := web()
	tmpl.SetLabels(map[string]string{policyv1alpha1.PropagationPolicyPermanentIDLabel: "p1"})
	tmpl.SetAnnotations(map[string]string{policyv1alpha1.PropagationPolicyNamespaceAnnotation: "shop", policyv1alpha1.PropagationPolicyNameAnnotation: "web"})
	return tmpl
}
