package dashboard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func TestClustersPage(t *testing.T) {
	t.Parallel()
	s := &Snapshot{
		Clusters: []*clusterv1alpha1.Cluster{
			testCluster("member2", "cn-north", "cn-north-b", "False", corev1.Taint{Key: "cluster.karmada.io/not-ready", Effect: "NoSchedule"}),
			testCluster("member1", "cn-north", "cn-north-a", "True"),
			testCluster("member3", "cn-south", "cn-south-a", "Unknown"),
		},
		Bindings: []*Binding{
			testBinding("default", "web", 4, workv1alpha2.TargetCluster{Name: "member1", Replicas: 3}, workv1alpha2.TargetCluster{Name: "member3", Replicas: 1}),
			testBinding("default", "api", 2, workv1alpha2.TargetCluster{Name: "member1", Replicas: 2}),
		},
	}
	p := clustersPage(s)
	type row struct {
		Name, State, Taints string
		Workloads           int
		Replicas            int32
		CPU                 string
	}
	var got []row
	for _, r := range p.Rows {
		got = append(got, row{r.Name, r.Ready.State, strings.Join(r.Taints, ","), r.Workloads, r.Replicas, r.CPU.String()})
	}
	want := []row{
		{"member1", "Ready", "", 2, 5, "2 of 8 allocated (25%)"},
		{"member2", "NotReady", "cluster.karmada.io/not-ready:NoSchedule", 0, 0, "2 of 8 allocated (25%)"},
		{"member3", "Unknown", "", 1, 1, "2 of 8 allocated (25%)"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if p.Ready != 1 || len(p.Regions) != 2 || p.Regions[0].Region != "cn-north" || len(p.Regions[0].Zones) != 2 ||
		p.Regions[1].Zones[0].Clusters[0].Name != "member3" {
		t.Errorf("regions %+v", p.Regions)
	}
	if sym := p.Rows[1].Ready.Symbol(); sym != "✗" {
		t.Errorf("NotReady symbol %q", sym)
	}
}

func TestWorkloadsPage(t *testing.T) {
	t.Parallel()
	s := bigSnapshot(10, 120)
	tests := []struct {
		name             string
		filter           Filter
		wantTotal, pages int
		wantFirst        string
	}{
		{name: "all, first page", filter: Filter{Page: 1}, wantTotal: 120, pages: 3, wantFirst: "app-0000"},
		{name: "third page", filter: Filter{Page: 3}, wantTotal: 120, pages: 3, wantFirst: "app-0073"},
		{name: "past the last page", filter: Filter{Page: 9}, wantTotal: 120, pages: 3, wantFirst: "app-0073"},
		{name: "namespace", filter: Filter{Namespace: "team-01", Page: 1}, wantTotal: 3, pages: 1, wantFirst: "app-0001"},
		{name: "cluster", filter: Filter{Cluster: "member003", Page: 1}, wantTotal: 24, pages: 1, wantFirst: "app-0002"},
		{name: "name", filter: Filter{Query: "APP-011", Page: 1}, wantTotal: 10, pages: 1, wantFirst: "app-0110"},
		{name: "kind", filter: Filter{Kind: "StatefulSet", Page: 1}, wantTotal: 0, pages: 1},
	}
	for _, tt := range tests {
		p := workloadsPage(s, tt.filter)
		first := ""
		if len(p.Rows) > 0 {
			first = p.Rows[0].Name
		}
		if p.Total != tt.wantTotal || p.Pages != tt.pages || first != tt.wantFirst {
			t.Errorf("%s: total %d pages %d first %q; want %d %d %q", tt.name, p.Total, p.Pages, first, tt.wantTotal, tt.pages, tt.wantFirst)
		}
	}
}

func TestWorkloadRow(t *testing.T) {
	t.Parallel()
	b := testBinding("prod", "web", 4, workv1alpha2.TargetCluster{Name: "member1", Replicas: 3}, workv1alpha2.TargetCluster{Name: "member3", Replicas: 1})
	b.Spec.GracefulEvictionTasks = []workv1alpha2.GracefulEvictionTask{{FromCluster: "member2"}}
	b.Status.Conditions[1] = metav1.Condition{Type: "FullyApplied", Status: "False", Reason: "ApplyFailed", Message: "member3: conflict"}
	r := workloadRow(b)
	if r.Policy != "PropagationPolicy web" || r.Link() != "/workloads/prod/web-deployment" || r.Status.State != "NotApplied" ||
		len(r.Evicting) != 1 || r.Placement[0].Percent != 75 || r.Placement[0].Width() != 75 || r.Placement[1].Width() != 25 {
		t.Errorf("row %+v", r)
	}
}

// TestPagesRender renders each page, whole and as the live script asks
// for it, and checks what a user reads and that values are escaped.
func TestPagesRender(t *testing.T) {
	t.Parallel()
	s := bigSnapshot(3, 5)
	s.Clusters[1].Status.Conditions[0].Status = "False"
	s.Clusters[1].Status.Conditions[0].Message = "<script>alert(1)</script>"
	s.Hidden = []string{"clusterresourcebindings"}
	h, err := NewHandler(&staticSource{snap: s, ch: make(chan struct{})}, Options{User: "alice", Server: "https://127.0.0.1:5443"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		target  string
		partial bool
		want    []string
		notWant []string
	}{
		{target: "/clusters", want: []string{"<title>Clusters · mco</title>", `aria-current="page">Clusters`, "2 of 3 clusters Ready.",
			`data-cluster="member001" data-ready="NotReady"`, "&lt;script&gt;alert(1)&lt;/script&gt;", "Region region-0",
			"may not list clusterresourcebindings", "As alice on https://127.0.0.1:5443"}, notWant: []string{"<script>alert(1)"}},
		{target: "/clusters", partial: true, want: []string{"<h1>Clusters</h1>"}, notWant: []string{"<html", "<nav"}},
		{target: "/workloads?namespace=team-01", want: []string{"1 workloads.", "Deployment team-01/app-0001", "member001 2, member002 2",
			`<option selected>team-01</option>`}},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", tt.target, nil)
		if tt.partial {
			r.Header.Set("X-MCO-Partial", "1")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		body := w.Body.String()
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", tt.target, w.Code, body)
		}
		for _, s := range tt.want {
			if !strings.Contains(body, s) {
				t.Errorf("%s: no %q in\n%s", tt.target, s, body)
			}
		}
		for _, s := range tt.notWant {
			if strings.Contains(body, s) {
				t.Errorf("%s: %q in the page", tt.target, s)
			}
		}
	}
}

// TestWorkloadDetail: a workload's page shows its part in each cluster
// and, for a cluster left out, the scheduler's reason.
func TestWorkloadDetail(t *testing.T) {
	t.Parallel()
	s := &Snapshot{Clusters: []*clusterv1alpha1.Cluster{
		testCluster("member1", "cn-north", "a", "True"), testCluster("member2", "cn-north", "b", "True"), testCluster("member3", "cn-south", "c", "True"),
	}}
	b := testBinding("default", "web", 2, workv1alpha2.TargetCluster{Name: "member1", Replicas: 1}, workv1alpha2.TargetCluster{Name: "member3", Replicas: 1})
	b.Spec.Placement = &policyv1alpha1.Placement{ClusterAffinity: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member1", "member3"}}}
	b.Object = &workv1alpha2.ResourceBinding{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: b.Name}, Spec: *b.Spec, Status: *b.Status}
	s.Bindings = []*Binding{b}
	h, err := NewHandler(&staticSource{snap: s, ch: make(chan struct{})}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/workloads/default/web-deployment", nil))
	body := w.Body.String()
	for _, want := range []string{`data-part="member1" data-placed="true"`, `data-part="member2" data-placed="false"`,
		"ClusterAffinity", "<h1>Deployment default/web</h1>"} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in\n%s", want, body)
		}
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/workloads/default/nope-deployment", nil))
	if w.Code != http.StatusNotFound {
		t.Errorf("missing workload: %d", w.Code)
	}
}

func TestPoliciesPage(t *testing.T) {
	t.Parallel()
	web := testBinding("default", "web", 2)
	api := testBinding("default", "api", 2)
	api.Annotations = map[string]string{policyv1alpha1.ClusterPropagationPolicyAnnotation: "everything"}
	other := testBinding("prod", "web", 2)
	s := &Snapshot{Bindings: []*Binding{web, api, other},
		PropagationPolicies: []*policyv1alpha1.PropagationPolicy{{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
			Spec: policyv1alpha1.PropagationSpec{ResourceSelectors: []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}}}}},
		ClusterPropagationPolicies: []*policyv1alpha1.ClusterPropagationPolicy{{ObjectMeta: metav1.ObjectMeta{Name: "everything"}}},
		OverridePolicies: []*policyv1alpha1.OverridePolicy{{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "all"}},
			{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "labelled"}, Spec: policyv1alpha1.OverrideSpec{
				ResourceSelectors: []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment",
					LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}}}},
		ClusterOverridePolicies: []*policyv1alpha1.ClusterOverridePolicy{{ObjectMeta: metav1.ObjectMeta{Name: "prod-web"}, Spec: policyv1alpha1.OverrideSpec{
			ResourceSelectors: []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "prod", Name: "web"}}}}},
	}
	p := policiesPage(s)
	got := map[string]string{}
	for _, r := range append(p.Propagation, p.Override...) {
		var names []string
		for _, w := range r.Templates {
			names = append(names, w.Namespace+"/"+w.Name)
		}
		got[r.Kind+" "+r.Name] = strings.Join(r.Selectors, "; ") + " => " + strings.Join(names, ",")
	}
	want := map[string]string{
		"PropagationPolicy web":               "Deployment web => default/web",
		"ClusterPropagationPolicy everything": "every resource => default/api",
		"OverridePolicy all":                  "every resource => default/web,default/api",
		"OverridePolicy labelled":             "every Deployment labelled app=web => ",
		"ClusterOverridePolicy prod-web":      "Deployment prod/web => prod/web",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("policies (-want +got):\n%s", diff)
	}
}

// controlSource is a source whose user may steer rollouts in "team" only
// and records what was asked.
type controlSource struct {
	staticSource
	asked []string
}

func (c *controlSource) MayControl(_ context.Context, ns string) bool { return ns == "team" }
func (c *controlSource) Control(_ context.Context, ns, name, action string) (string, error) {
	c.asked = append(c.asked, action+" "+ns+"/"+name)
	if name == "broken" {
		return "", errors.New("the policy has no wave")
	}
	return action + "d", nil
}

func TestRolloutsPage(t *testing.T) {
	t.Parallel()
	ro := func(ns, name string, paused bool) *rolloutv1alpha1.Rollout {
		r := &rolloutv1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: rolloutv1alpha1.RolloutSpec{Paused: paused, Resource: rolloutv1alpha1.ResourceReference{Kind: "Deployment", Namespace: ns, Name: "web"}}}
		r.Status.CurrentRevision, r.Status.StableRevision, r.Status.Wave = 3, 2, "canary"
		r.Status.Clusters = []rolloutv1alpha1.ClusterRevision{{Name: "member1", Wave: "canary", Revision: 3, Health: "Healthy"}}
		return r
	}
	src := &controlSource{staticSource: staticSource{snap: &Snapshot{Rollouts: []*rolloutv1alpha1.Rollout{
		ro("team", "web-deployment", false), ro("other", "web-deployment", true)}}, ch: make(chan struct{})}}
	h, err := NewHandler(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/rollouts", nil))
	body := w.Body.String()
	for _, want := range []string{`action="/rollouts/team/web-deployment/pause"`, "Deployment team/web", "(stable 2)"} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in\n%s", want, body)
		}
	}
	if strings.Contains(body, `action="/rollouts/other/`) {
		t.Error("a button for a rollout the user may not steer")
	}
	for target, want := range map[string]string{
		"/rollouts/team/web-deployment/pause": "/rollouts?done=team%2Fweb-deployment+paused",
		"/rollouts/team/broken/resume":        "/rollouts?failed=resume+of+team%2Fbroken+failed%3A+the+policy+has+no+wave",
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", target, nil))
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
			t.Errorf("POST %s: %d %q, want %q", target, w.Code, w.Header().Get("Location"), want)
		}
	}
	sort.Strings(src.asked)
	if diff := cmp.Diff([]string{"pause team/web-deployment", "resume team/broken"}, src.asked); diff != "" {
		t.Errorf("asked (-want +got):\n%s", diff)
	}
}

// matcherSource finds templates labelled app=one: app-0001 only.
type matcherSource struct{ staticSource }

func (m *matcherSource) MatchTemplates(_ context.Context, sel labels.Selector, namespace string, kinds []schema.GroupVersionKind) (map[string]bool, error) {
	out := map[string]bool{}
	if sel.Matches(labels.Set{"app": "one"}) && len(kinds) == 1 && namespace == "" {
		out[TemplateKey("apps/v1", "Deployment", "team-01", "app-0001")] = true
	}
	return out, nil
}

func TestWorkloadsByLabels(t *testing.T) {
	t.Parallel()
	h, err := NewHandler(&matcherSource{staticSource{snap: bigSnapshot(3, 10), ch: make(chan struct{})}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for target, want := range map[string]string{
		"/workloads?labels=app%3Done": "1 workloads.",
		"/workloads?labels=app%3Dtwo": "0 workloads.",
		"/workloads?labels=%3D%3D":    "label selector: ",
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("%s: no %q in\n%s", target, want, w.Body.String())
		}
	}
}
