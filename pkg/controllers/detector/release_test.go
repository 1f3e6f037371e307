package detector

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha2"
)

// TestReleaseRetriesTheBinding: releasing a template whose binding write
// is refused for a stale cache (the template itself already released, so
// a deleted policy would not find it again) writes the binding again from
// the server's copy, unless another policy has claimed it meanwhile;
// conflicts that do not end are returned.
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
		wantErr   bool
		wantClaim string // the permanent ID left on the binding
	}{
		{name: "written at once", server: claimed("2")},
		{name: "cache behind the server", server: claimed("2"), conflicts: 1},
		{name: "claimed by another policy meanwhile", server: reclaimed, conflicts: 1, wantClaim: "p2"},
		{name: "conflicts that do not end", server: claimed("2"), conflicts: 100, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := fake.NewSimpleClientset(tc.server)
			refused := 0
			client.PrependReactor("update", "resourcebindings", func(clienttesting.Action) (bool, runtime.Object, error) {
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
			d := &Detector{bindings: &binding.Store{Client: client, RB: worklisters.NewResourceBindingLister(cached)}}
			tmpl := &unstructured.Unstructured{}
			tmpl.SetAPIVersion("apps/v1")
			tmpl.SetKind("Deployment")
			tmpl.SetNamespace("shop")
			tmpl.SetName("web") // released already: no template write

			err := d.release(context.Background(), tmpl)
			if tc.wantErr {
				if !apierrors.IsConflict(err) {
					t.Fatalf("release: %v, want the conflict", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("release: %v", err)
			}
			got, err := client.WorkV1alpha2().ResourceBindings("shop").Get(context.Background(), "web-deployment", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c := claimOf(got.Labels, got.Annotations); c.permanentID != tc.wantClaim || got.Labels["keep"] != "me" {
				t.Errorf("binding after release: labels %v annotations %v", got.Labels, got.Annotations)
			}
		})
	}
}
