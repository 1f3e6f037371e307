package rollout

import (
	"fmt"
	"sort"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha2"
	"github.com/mco-org/mco/pkg/template"
)

// selectionController is a Controller over bindings of the given
// templates (a binding per template, named after it), of which cached are
// in the template cache.
func selectionController(t *testing.T, templates []*unstructured.Unstructured, cached map[string]bool) *Controller {
	t.Helper()
	rbs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	crbs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	byKey := map[template.Key]*unstructured.Unstructured{}
	for _, tmpl := range templates {
		ref := workv1alpha2.ObjectReference{APIVersion: tmpl.GetAPIVersion(), Kind: tmpl.GetKind(), Namespace: tmpl.GetNamespace(), Name: tmpl.GetName()}
		meta := metav1.ObjectMeta{Namespace: tmpl.GetNamespace(), Name: tmpl.GetName()}
		var err error
		if tmpl.GetNamespace() == "" {
			err = crbs.Add(&workv1alpha2.ClusterResourceBinding{ObjectMeta: meta, Spec: workv1alpha2.ResourceBindingSpec{Resource: ref}})
		} else {
			err = rbs.Add(&workv1alpha2.ResourceBinding{ObjectMeta: meta, Spec: workv1alpha2.ResourceBindingSpec{Resource: ref}})
		}
		if err != nil {
			t.Fatal(err)
		}
		if cached[tmpl.GetName()] {
			byKey[template.KeyOfRef(ref)] = tmpl
		}
	}
	return &Controller{
		bindings: &binding.Store{RB: worklisters.NewResourceBindingLister(rbs), CRB: worklisters.NewClusterResourceBindingLister(crbs)},
		template: func(k template.Key) (*unstructured.Unstructured, error) {
			if tmpl, ok := byKey[k]; ok {
				return tmpl, nil
			}
			return nil, fmt.Errorf("%s not cached", k)
		},
	}
}

func obj(apiVersion, kind, ns, name string, labels map[string]string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetLabels(labels)
	return u
}

func TestSelectedBindings(t *testing.T) {
	templates := []*unstructured.Unstructured{
		obj("apps/v1", "Deployment", "shop", "web", map[string]string{"tier": "front"}),
		obj("apps/v1", "Deployment", "shop", "api", map[string]string{"tier": "back"}),
		obj("apps/v1", "Deployment", "shop", "unseen", nil), // not in the template cache
		obj("v1", "ConfigMap", "shop", "settings", map[string]string{"tier": "front"}),
		obj("apps/v1", "Deployment", "bank", "ledger", map[string]string{"tier": "front"}),
		obj("rbac.authorization.k8s.io/v1", "ClusterRole", "", "reader", nil),
	}
	cached := map[string]bool{"web": true, "api": true, "settings": true, "ledger": true, "reader": true}
	r := selectionController(t, templates, cached)

	deployments := func(tier string) []policyv1alpha1.ResourceSelector {
		s := policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment"}
		if tier != "" {
			s.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"tier": tier}}
		}
		return []policyv1alpha1.ResourceSelector{s}
	}
	rp := func(ns string, sel []policyv1alpha1.ResourceSelector) *rolloutv1alpha1.RolloutPolicy {
		return &rolloutv1alpha1.RolloutPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"}, Spec: rolloutv1alpha1.RolloutPolicySpec{ResourceSelectors: sel}}
	}
	crp := func(sel []policyv1alpha1.ResourceSelector) *rolloutv1alpha1.ClusterRolloutPolicy {
		return &rolloutv1alpha1.ClusterRolloutPolicy{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: rolloutv1alpha1.RolloutPolicySpec{ResourceSelectors: sel}}
	}
	tests := []struct {
		name     string
		versions []any
		want     []string
	}{
		{"a namespaced policy selects within its namespace, by labels", []any{rp("shop", deployments("front"))},
			[]string{"shop/unseen", "shop/web"}},
		{"both versions of a changed selector count", []any{rp("shop", deployments("front")), rp("shop", deployments("back"))},
			[]string{"shop/api", "shop/unseen", "shop/web"}},
		{"a name decides alone", []any{rp("shop", []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment", Name: "api",
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "front"}}}})},
			[]string{"shop/api"}},
		{"a cluster policy selects in every namespace", []any{crp(deployments("front"))},
			[]string{"bank/ledger", "shop/unseen", "shop/web"}},
		{"a cluster policy selects cluster-scoped templates", []any{crp([]policyv1alpha1.ResourceSelector{{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole"}})},
			[]string{"/reader"}},
		{"another kind selects nothing of these", []any{crp([]policyv1alpha1.ResourceSelector{{APIVersion: "batch/v1", Kind: "Job"}})}, nil},
		{"not a policy", []any{&workv1alpha2.ResourceBinding{}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, k := range r.selectedBindings(tt.versions...) {
				got = append(got, k.Namespace+"/"+k.Name)
			}
			sort.Strings(got)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("queued %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSpecChanged(t *testing.T) {
	base := &rolloutv1alpha1.RolloutPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "p", Generation: 3}}
	statusOnly := base.DeepCopy()
	statusOnly.Status.Rollouts = 7
	statusOnly.ResourceVersion = "9"
	respecced := base.DeepCopy()
	respecced.Generation = 4
	deleting := base.DeepCopy()
	now := metav1.Now()
	deleting.DeletionTimestamp = &now
	tests := []struct {
		name string
		new  *rolloutv1alpha1.RolloutPolicy
		want bool
	}{
		{"a status write (the controller's own) changes nothing", statusOnly, false},
		{"a spec change", respecced, true},
		{"the start of a deletion", deleting, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := specChanged(base, tt.new); got != tt.want {
				t.Errorf("specChanged = %v, want %v", got, tt.want)
			}
		})
	}
}
