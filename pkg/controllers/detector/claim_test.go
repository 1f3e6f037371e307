package detector

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/placement"
)

const (
	ppIDLabel   = policyv1alpha1.PropagationPolicyPermanentIDLabel
	cppIDLabel  = policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel
	ppNSAnno    = policyv1alpha1.PropagationPolicyNamespaceAnnotation
	ppNameAnno  = policyv1alpha1.PropagationPolicyNameAnnotation
	cppNameAnno = policyv1alpha1.ClusterPropagationPolicyAnnotation
)

var claimOption = cmp.AllowUnexported(claim{})

// ppClaim and cppClaim are the claims of a PropagationPolicy in shop and of
// a ClusterPropagationPolicy.
func ppClaim(name, id string) claim  { return claim{namespace: "shop", name: name, permanentID: id} }
func cppClaim(name, id string) claim { return claim{cluster: true, name: name, permanentID: id} }

// pp is a PropagationPolicy candidate in shop; id "" leaves the permanent
// id label off so that the UID stands in.
func pp(name, id string, priority int32, selectors ...policyv1alpha1.ResourceSelector) placement.Candidate {
	p := &policyv1alpha1.PropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, UID: types.UID("uid-" + name)},
		Spec:       policyv1alpha1.PropagationSpec{Priority: &priority, ResourceSelectors: selectors},
	}
	if id != "" {
		p.Labels = map[string]string{ppIDLabel: id}
	}
	return placement.PropagationPolicyCandidate(p)
}

// cpp is a ClusterPropagationPolicy candidate.
func cpp(name, id string, priority int32, selectors ...policyv1alpha1.ResourceSelector) placement.Candidate {
	p := &policyv1alpha1.ClusterPropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name)},
		Spec:       policyv1alpha1.PropagationSpec{Priority: &priority, ResourceSelectors: selectors},
	}
	if id != "" {
		p.Labels = map[string]string{cppIDLabel: id}
	}
	return placement.ClusterPropagationPolicyCandidate(p)
}

// always turns preemption on for a candidate.
func always(c placement.Candidate) placement.Candidate {
	switch p := c.Policy.(type) {
	case *policyv1alpha1.PropagationPolicy:
		p.Spec.Preemption = policyv1alpha1.PreemptAlways
	case *policyv1alpha1.ClusterPropagationPolicy:
		p.Spec.Preemption = policyv1alpha1.PreemptAlways
	}
	return c
}

func deleting(c placement.Candidate) placement.Candidate {
	now := metav1.Now()
	switch p := c.Policy.(type) {
	case *policyv1alpha1.PropagationPolicy:
		p.DeletionTimestamp = &now
		return placement.PropagationPolicyCandidate(p)
	case *policyv1alpha1.ClusterPropagationPolicy:
		p.DeletionTimestamp = &now
		return placement.ClusterPropagationPolicyCandidate(p)
	}
	return c
}

// deployments selects every Deployment; named selects the one called name.
var deployments = policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment"}

func named(name string) policyv1alpha1.ResourceSelector {
	s := deployments
	s.Name = name
	return s
}

// web is the template the policies compete for.
func web() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("apps/v1")
	u.SetKind("Deployment")
	u.SetNamespace("shop")
	u.SetName("web")
	u.SetLabels(map[string]string{"app": "web"})
	return u
}

func TestClaimOf(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		labels      map[string]string
		annotations map[string]string
		want        claim
	}{
		{name: "An object without claim keys is unclaimed.", labels: map[string]string{"app": "web"}},
		{
			name:        "A PropagationPolicy claim is read from its label and annotations.",
			labels:      map[string]string{ppIDLabel: "id-1", "app": "web"},
			annotations: map[string]string{ppNSAnno: "shop", ppNameAnno: "pp"},
			want:        ppClaim("pp", "id-1"),
		},
		{
			name:        "A ClusterPropagationPolicy claim is read from its label and annotation.",
			labels:      map[string]string{cppIDLabel: "id-2"},
			annotations: map[string]string{cppNameAnno: "cpp"},
			want:        cppClaim("cpp", "id-2"),
		},
		{
			name:        "A PropagationPolicy name annotation without the label is a claim without permanent id.",
			annotations: map[string]string{ppNSAnno: "shop", ppNameAnno: "pp"},
			want:        ppClaim("pp", ""),
		},
		{
			name:   "A ClusterPropagationPolicy label without the annotation is a claim without name.",
			labels: map[string]string{cppIDLabel: "id-2"},
			want:   cppClaim("", "id-2"),
		},
		{
			name:        "When both kinds of keys are present, the PropagationPolicy claim is read.",
			labels:      map[string]string{ppIDLabel: "id-1", cppIDLabel: "id-2"},
			annotations: map[string]string{ppNSAnno: "shop", ppNameAnno: "pp", cppNameAnno: "cpp"},
			want:        ppClaim("pp", "id-1"),
		},
		{
			name:        "Empty claim values are no claim.",
			labels:      map[string]string{ppIDLabel: "", cppIDLabel: ""},
			annotations: map[string]string{ppNameAnno: "", cppNameAnno: ""},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, claimOf(tc.labels, tc.annotations), claimOption); diff != "" {
				t.Errorf("claim differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClaimFor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		candidate placement.Candidate
		want      claim
	}{
		{name: "A PropagationPolicy claims with its permanent id.", candidate: pp("pp", "id-1", 0), want: ppClaim("pp", "id-1")},
		{name: "A PropagationPolicy without permanent id claims with its UID.", candidate: pp("pp", "", 0), want: ppClaim("pp", "uid-pp")},
		{name: "A ClusterPropagationPolicy claims with its permanent id.", candidate: cpp("cpp", "id-2", 0), want: cppClaim("cpp", "id-2")},
		{name: "A ClusterPropagationPolicy without permanent id claims with its UID.", candidate: cpp("cpp", "", 0), want: cppClaim("cpp", "uid-cpp")},
		{name: "A candidate holding no policy claims nothing.", candidate: placement.Candidate{Name: "x"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, claimFor(tc.candidate), claimOption); diff != "" {
				t.Errorf("claim differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSetClaim(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                        string
		labels, annotations         map[string]string
		claim                       claim
		wantLabels, wantAnnotations map[string]string
		wantChanged                 bool
	}{
		{
			name:            "A PropagationPolicy claim is written beside the object's own labels and annotations.",
			labels:          map[string]string{"app": "web"},
			annotations:     map[string]string{"team": "a"},
			claim:           ppClaim("pp", "id-1"),
			wantLabels:      map[string]string{"app": "web", ppIDLabel: "id-1"},
			wantAnnotations: map[string]string{"team": "a", ppNSAnno: "shop", ppNameAnno: "pp"},
			wantChanged:     true,
		},
		{
			name:            "A ClusterPropagationPolicy claim is written to an object without labels or annotations.",
			claim:           cppClaim("cpp", "id-2"),
			wantLabels:      map[string]string{cppIDLabel: "id-2"},
			wantAnnotations: map[string]string{cppNameAnno: "cpp"},
			wantChanged:     true,
		},
		{
			name:            "Writing the claim the object already carries changes nothing.",
			labels:          map[string]string{"app": "web", ppIDLabel: "id-1"},
			annotations:     map[string]string{ppNSAnno: "shop", ppNameAnno: "pp"},
			claim:           ppClaim("pp", "id-1"),
			wantLabels:      map[string]string{"app": "web", ppIDLabel: "id-1"},
			wantAnnotations: map[string]string{ppNSAnno: "shop", ppNameAnno: "pp"},
		},
		{
			name:            "A ClusterPropagationPolicy claim replaces a PropagationPolicy claim entirely.",
			labels:          map[string]string{"app": "web", ppIDLabel: "id-1"},
			annotations:     map[string]string{ppNSAnno: "shop", ppNameAnno: "pp", "team": "a"},
			claim:           cppClaim("cpp", "id-2"),
			wantLabels:      map[string]string{"app": "web", cppIDLabel: "id-2"},
			wantAnnotations: map[string]string{"team": "a", cppNameAnno: "cpp"},
			wantChanged:     true,
		},
		{
			name:            "A PropagationPolicy claim replaces a ClusterPropagationPolicy claim entirely.",
			labels:          map[string]string{cppIDLabel: "id-2"},
			annotations:     map[string]string{cppNameAnno: "cpp"},
			claim:           ppClaim("pp", "id-1"),
			wantLabels:      map[string]string{ppIDLabel: "id-1"},
			wantAnnotations: map[string]string{ppNSAnno: "shop", ppNameAnno: "pp"},
			wantChanged:     true,
		},
		{
			name:            "A policy recreated under the same name replaces the permanent id.",
			labels:          map[string]string{ppIDLabel: "old"},
			annotations:     map[string]string{ppNSAnno: "shop", ppNameAnno: "pp"},
			claim:           ppClaim("pp", "new"),
			wantLabels:      map[string]string{ppIDLabel: "new"},
			wantAnnotations: map[string]string{ppNSAnno: "shop", ppNameAnno: "pp"},
			wantChanged:     true,
		},
		{
			name:            "An empty claim removes the claim and keeps the object's own keys.",
			labels:          map[string]string{"app": "web", ppIDLabel: "id-1"},
			annotations:     map[string]string{"team": "a", ppNSAnno: "shop", ppNameAnno: "pp"},
			wantLabels:      map[string]string{"app": "web"},
			wantAnnotations: map[string]string{"team": "a"},
			wantChanged:     true,
		},
		{
			name:        "Removing the only keys leaves no labels or annotations at all.",
			labels:      map[string]string{cppIDLabel: "id-2"},
			annotations: map[string]string{cppNameAnno: "cpp"},
			wantChanged: true,
		},
		{
			name:            "Removing the claim of an unclaimed object changes nothing.",
			labels:          map[string]string{"app": "web"},
			wantLabels:      map[string]string{"app": "web"},
			wantAnnotations: nil,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := &metav1.ObjectMeta{Labels: tc.labels, Annotations: tc.annotations}
			labelsBefore, annotationsBefore := copyMap(tc.labels), copyMap(tc.annotations)
			if got := setClaim(m, tc.claim); got != tc.wantChanged {
				t.Errorf("setClaim = %v, want %v", got, tc.wantChanged)
			}
			if diff := cmp.Diff(tc.wantLabels, m.Labels); diff != "" {
				t.Errorf("labels differ (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantAnnotations, m.Annotations); diff != "" {
				t.Errorf("annotations differ (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(labelsBefore, copyMap(tc.labels)); diff != "" {
				t.Errorf("the caller's label map was changed (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(annotationsBefore, copyMap(tc.annotations)); diff != "" {
				t.Errorf("the caller's annotation map was changed (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(tc.claim, claimOf(m.Labels, m.Annotations), claimOption); diff != "" {
				t.Errorf("claim read back differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSetClaimOnTemplate(t *testing.T) {
	t.Parallel()
	u := web()
	if !setClaim(u, cppClaim("cpp", "id-2")) {
		t.Fatal("setClaim on an unclaimed template reported no change")
	}
	want := map[string]string{"app": "web", cppIDLabel: "id-2"}
	if diff := cmp.Diff(want, u.GetLabels()); diff != "" {
		t.Errorf("labels differ (-want +got):\n%s", diff)
	}
	if got := u.GetAnnotations()[cppNameAnno]; got != "cpp" {
		t.Errorf("annotation %s = %q, want cpp", cppNameAnno, got)
	}
}

func TestChoosePolicy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		current       claim
		candidates    []placement.Candidate
		want          claim
		wantOK        bool
		wantPreempted bool
	}{
		{
			name:       "Without a claimant, the best candidate is chosen.",
			candidates: []placement.Candidate{pp("low", "id-low", 1, deployments), pp("high", "id-high", 5, deployments)},
			want:       ppClaim("high", "id-high"), wantOK: true,
		},
		{
			name:       "Nothing is chosen when no candidate selects the template.",
			candidates: []placement.Candidate{pp("api", "id-api", 0, named("api")), cpp("all-api", "id-c", 0, named("api"))},
		},
		{
			name:       "The claimant is kept while it exists and selects the template, even when a higher-priority policy appears.",
			current:    ppClaim("low", "id-low"),
			candidates: []placement.Candidate{pp("high", "id-high", 9, named("web")), pp("low", "id-low", 1, deployments)},
			want:       ppClaim("low", "id-low"), wantOK: true,
		},
		{
			name:       "A ClusterPropagationPolicy claimant is kept when a PropagationPolicy appears.",
			current:    cppClaim("cluster", "id-c"),
			candidates: []placement.Candidate{pp("ns", "id-ns", 0, deployments), cpp("cluster", "id-c", 0, deployments)},
			want:       cppClaim("cluster", "id-c"), wantOK: true,
		},
		{
			name:       "A claimant without permanent id label is recognised by its UID.",
			current:    ppClaim("low", "uid-low"),
			candidates: []placement.Candidate{pp("high", "id-high", 9, deployments), pp("low", "", 1, deployments)},
			want:       ppClaim("low", "uid-low"), wantOK: true,
		},
		{
			name:       "A policy recreated under the claimant's name with another permanent id is not the claimant.",
			current:    ppClaim("low", "id-old"),
			candidates: []placement.Candidate{pp("low", "id-new", 1, deployments), pp("high", "id-high", 5, deployments)},
			want:       ppClaim("high", "id-high"), wantOK: true,
		},
		{
			name:       "A recreated policy may still win the template as the best candidate, under its new permanent id.",
			current:    ppClaim("only", "id-old"),
			candidates: []placement.Candidate{pp("only", "id-new", 1, deployments)},
			want:       ppClaim("only", "id-new"), wantOK: true,
		},
		{
			name:       "A ClusterPropagationPolicy named like the PropagationPolicy claimant is not the claimant.",
			current:    ppClaim("same", "id-1"),
			candidates: []placement.Candidate{cpp("same", "id-1", 9, deployments), pp("other", "id-2", 0, deployments)},
			want:       ppClaim("other", "id-2"), wantOK: true,
		},
		{
			name:       "A PropagationPolicy of the claimant's name in another namespace is not the claimant.",
			current:    claim{namespace: "elsewhere", name: "low", permanentID: "id-low"},
			candidates: []placement.Candidate{pp("low", "id-low", 1, deployments), pp("high", "id-high", 5, deployments)},
			want:       ppClaim("high", "id-high"), wantOK: true,
		},
		{
			name:       "A claimant being deleted is not chosen again.",
			current:    ppClaim("low", "id-low"),
			candidates: []placement.Candidate{deleting(pp("low", "id-low", 9, deployments)), pp("other", "id-o", 0, deployments)},
			want:       ppClaim("other", "id-o"), wantOK: true,
		},
		{
			name:       "A claimant being deleted with no other candidate leaves the template unclaimed.",
			current:    cppClaim("cluster", "id-c"),
			candidates: []placement.Candidate{deleting(cpp("cluster", "id-c", 0, deployments))},
		},
		{
			name:       "A deleting policy is never chosen, whatever its priority.",
			candidates: []placement.Candidate{deleting(pp("high", "id-high", 9, deployments)), pp("low", "id-low", 0, deployments)},
			want:       ppClaim("low", "id-low"), wantOK: true,
		},
		{
			name:       "A higher-priority PropagationPolicy with preemption Always that names the template takes it.",
			current:    ppClaim("low", "id-low"),
			candidates: []placement.Candidate{always(pp("high", "id-high", 9, named("web"))), pp("low", "id-low", 1, deployments)},
			want:       ppClaim("high", "id-high"), wantOK: true, wantPreempted: true,
		},
		{
			name:       "Preemption needs a selector that names the template.",
			current:    ppClaim("low", "id-low"),
			candidates: []placement.Candidate{always(pp("high", "id-high", 9, deployments)), pp("low", "id-low", 1, deployments)},
			want:       ppClaim("low", "id-low"), wantOK: true,
		},
		{
			name:       "Preemption needs a higher priority between PropagationPolicies.",
			current:    ppClaim("low", "id-low"),
			candidates: []placement.Candidate{always(pp("same", "id-same", 1, named("web"))), pp("low", "id-low", 1, deployments)},
			want:       ppClaim("low", "id-low"), wantOK: true,
		},
		{
			name:       "A PropagationPolicy takes a template from a ClusterPropagationPolicy whatever the priorities.",
			current:    cppClaim("cluster", "id-c"),
			candidates: []placement.Candidate{always(pp("ns", "id-ns", 0, named("web"))), cpp("cluster", "id-c", 9, deployments)},
			want:       ppClaim("ns", "id-ns"), wantOK: true, wantPreempted: true,
		},
		{
			name:       "A ClusterPropagationPolicy never takes a template from a PropagationPolicy.",
			current:    ppClaim("ns", "id-ns"),
			candidates: []placement.Candidate{always(cpp("cluster", "id-c", 9, named("web"))), pp("ns", "id-ns", 0, deployments)},
			want:       ppClaim("ns", "id-ns"), wantOK: true,
		},
		{
			name:       "Without preemption Always a named higher-priority policy waits.",
			current:    ppClaim("low", "id-low"),
			candidates: []placement.Candidate{pp("high", "id-high", 9, named("web")), pp("low", "id-low", 1, deployments)},
			want:       ppClaim("low", "id-low"), wantOK: true,
		},
		{
			name:       "A claimant that no longer selects the template gives way to the best candidate.",
			current:    ppClaim("narrow", "id-n"),
			candidates: []placement.Candidate{pp("narrow", "id-n", 9, named("api")), cpp("wide", "id-w", 0, deployments)},
			want:       cppClaim("wide", "id-w"), wantOK: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, ok, preempted := choosePolicy(web(), tc.current, tc.candidates)
			if preempted != tc.wantPreempted {
				t.Errorf("preempted = %v, want %v", preempted, tc.wantPreempted)
			}
			if ok != tc.wantOK {
				t.Fatalf("choosePolicy ok = %v, want %v", ok, tc.wantOK)
			}
			if !ok {
				return
			}
			if diff := cmp.Diff(tc.want, claimFor(got), claimOption); diff != "" {
				t.Errorf("chosen claim differs (-want +got):\n%s", diff)
			}
		})
	}
}
