package get

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/rest"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
)

// deployment is a Deployment a fake member serves.
type deployment struct{ namespace, name, ready string }

// fakeMember answers discovery for apps/v1 deployments and serves its
// deployments as a server-side table or as objects. A non-zero fail
// answers every request with that status.
type fakeMember struct {
	deployments []deployment
	// upToDate adds a column only this member has.
	upToDate bool
	fail     int
}

// fakeProxy is mco's cluster proxy in front of fake members; it records
// which clusters were asked.
type fakeProxy struct {
	members map[string]fakeMember
	mu      sync.Mutex
	asked   map[string]bool
}

func (p *fakeProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	const prefix = "/apis/cluster.karmada.io/v1alpha1/clusters/"
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	name, path, ok2 := strings.Cut(rest, "/proxy")
	m, known := p.members[name]
	if !ok || !ok2 || !known {
		http.NotFound(w, r)
		return
	}
	p.mu.Lock()
	p.asked[name] = true
	p.mu.Unlock()
	if m.fail != 0 {
		writeJSON(w, m.fail, metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: "Failure",
			Code: int32(m.fail), Reason: metav1.StatusReasonServiceUnavailable, Message: "cluster " + name + " is not ready"})
		return
	}
	switch path {
	case "/api":
		writeJSON(w, 200, metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"}})
	case "/apis":
		gv := metav1.GroupVersionForDiscovery{GroupVersion: "apps/v1", Version: "v1"}
		writeJSON(w, 200, metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"},
			Groups: []metav1.APIGroup{{Name: "apps", Versions: []metav1.GroupVersionForDiscovery{gv}, PreferredVersion: gv}}})
	case "/api/v1":
		writeJSON(w, 200, metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: "v1",
			APIResources: []metav1.APIResource{{Name: "namespaces", SingularName: "namespace", Kind: "Namespace", Verbs: []string{"get", "list"}}}})
	case "/apis/apps/v1":
		writeJSON(w, 200, metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: "apps/v1",
			APIResources: []metav1.APIResource{{Name: "deployments", SingularName: "deployment", Namespaced: true, Kind: "Deployment",
				Verbs: []string{"get", "list"}, ShortNames: []string{"deploy"}}}})
	default:
		m.serveDeployments(w, r, path)
	}
}

// serveDeployments answers /apis/apps/v1[/namespaces/NS]/deployments[/NAME].
func (m fakeMember) serveDeployments(w http.ResponseWriter, r *http.Request, path string) {
	rest, ok := strings.CutPrefix(path, "/apis/apps/v1/")
	if !ok {
		http.NotFound(w, r)
		return
	}
	ns := ""
	if after, ok := strings.CutPrefix(rest, "namespaces/"); ok {
		ns, rest, _ = strings.Cut(after, "/")
	}
	_, name, _ := strings.Cut(rest, "/")
	var ds []deployment
	for _, d := range m.deployments {
		if (ns == "" || d.namespace == ns) && (name == "" || d.name == name) {
			ds = append(ds, d)
		}
	}
	if name != "" && len(ds) == 0 {
		writeJSON(w, 404, metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: "Failure",
			Code: 404, Reason: metav1.StatusReasonNotFound, Message: `deployments.apps "` + name + `" not found`})
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "as=Table") {
		t := metav1.Table{TypeMeta: metav1.TypeMeta{Kind: "Table", APIVersion: "meta.k8s.io/v1"},
			ColumnDefinitions: []metav1.TableColumnDefinition{{Name: "Name", Type: "string"}, {Name: "Ready", Type: "string"}}}
		if m.upToDate {
			t.ColumnDefinitions = append(t.ColumnDefinitions, metav1.TableColumnDefinition{Name: "Up-to-date", Type: "integer"})
		}
		t.ColumnDefinitions = append(t.ColumnDefinitions, metav1.TableColumnDefinition{Name: "Images", Type: "string", Priority: 1})
		for _, d := range ds {
			cells := []any{d.name, d.ready}
			if m.upToDate {
				cells = append(cells, 1)
			}
			cells = append(cells, "nginx")
			meta, _ := json.Marshal(metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: d.name, Namespace: d.namespace}})
			t.Rows = append(t.Rows, metav1.TableRow{Cells: cells, Object: runtime.RawExtension{Raw: meta}})
		}
		writeJSON(w, 200, t)
		return
	}
	objects := make([]map[string]any, len(ds))
	for i, d := range ds {
		objects[i] = map[string]any{"metadata": map[string]any{"name": d.name, "namespace": d.namespace}}
	}
	if name != "" {
		objects[0]["apiVersion"], objects[0]["kind"] = "apps/v1", "Deployment"
		writeJSON(w, 200, objects[0])
		return
	}
	writeJSON(w, 200, map[string]any{"apiVersion": "apps/v1", "kind": "DeploymentList", "metadata": map[string]any{}, "items": objects})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func cluster(name string, ready bool) *clusterv1alpha1.Cluster {
	status := metav1.ConditionFalse
	if ready {
		status = metav1.ConditionTrue
	}
	return &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: clusterv1alpha1.ClusterStatus{Conditions: []metav1.Condition{{Type: "Ready", Status: status}}}}
}

func TestGetAcrossMembers(t *testing.T) {
	t.Parallel()
	members := map[string]fakeMember{
		"m1": {deployments: []deployment{{"default", "web", "2/2"}, {"shop", "cart", "1/1"}}},
		"m2": {deployments: []deployment{{"default", "web", "1/3"}}, upToDate: true},
		"m3": {fail: http.StatusServiceUnavailable},
		// Not Ready: only asked when named.
		"m4": {deployments: []deployment{{"default", "web", "0/1"}}},
	}
	cases := []struct {
		name       string
		opts       options
		names      []string
		want       string
		wantErrOut string
		wantErr    string
		wantAsked  []string
	}{{
		name: "All namespaces of every Ready member, a failing member warned about, columns merged by name",
		opts: options{allNamespaces: true, namespace: "default"},
		want: `CLUSTER   NAMESPACE   NAME   READY   UP-TO-DATE
m1        default     web    2/2     
m1        shop        cart   1/1     
m2        default     web    1/3     1
`,
		wantErrOut: "warning: cluster m3: cluster m3 is not ready\n",
		wantAsked:  []string{"m1", "m2", "m3"},
	}, {
		name: "One namespace, wide, of the named clusters only; an unknown name is warned about",
		opts: options{namespace: "default", clusters: []string{"m4", "m1", "nope"}, wide: true},
		want: `CLUSTER   NAME   READY   IMAGES
m1        web    2/2     nginx
m4        web    0/1     nginx
`,
		wantErrOut: "warning: cluster nope: no such Cluster on mco\n",
		wantAsked:  []string{"m1", "m4"},
	}, {
		name:       "A name is looked up in every member; those without it are skipped",
		opts:       options{namespace: "shop"},
		names:      []string{"cart"},
		want:       "CLUSTER   NAME   READY\nm1        cart   1/1\n",
		wantErrOut: "warning: cluster m3: cluster m3 is not ready\n",
		wantAsked:  []string{"m1", "m2", "m3"},
	}, {
		name:       "A name no member has is an error",
		opts:       options{namespace: "default"},
		names:      []string{"gone"},
		wantErr:    "deploy gone not found in any of the clusters (m1, m2, m3)",
		wantErrOut: "warning: cluster m3: cluster m3 is not ready\n",
		wantAsked:  []string{"m1", "m2", "m3"},
	}, {
		name:       "Nothing found prints kubectl's message on stderr",
		opts:       options{namespace: "empty"},
		wantErrOut: "warning: cluster m3: cluster m3 is not ready\nNo resources found in empty namespace.\n",
		wantAsked:  []string{"m1", "m2", "m3"},
	}, {
		name: "YAML prints one List, each object annotated with its cluster",
		opts: options{namespace: "default", clusters: []string{"m1", "m2"}, objectPrinter: &printers.YAMLPrinter{}},
		want: `apiVersion: v1
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    annotations:
      kubectl-mco/cluster: m1
    name: web
    namespace: default
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    annotations:
      kubectl-mco/cluster: m2
    name: web
    namespace: default
kind: List
metadata:
  resourceVersion: ""
`,
		wantAsked: []string{"m1", "m2"},
	}, {
		name:    "-o name is refused: it cannot name the cluster",
		opts:    options{namespace: "default", output: "name", objectPrinter: &printers.NamePrinter{}},
		wantErr: "-o name cannot say which cluster an object is in: use -o wide, yaml or json",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			proxy := &fakeProxy{members: members, asked: map[string]bool{}}
			srv := httptest.NewServer(proxy)
			defer srv.Close()
			mco := mcofake.NewSimpleClientset(cluster("m1", true), cluster("m2", true), cluster("m3", true), cluster("m4", false)) //nolint:staticcheck // NewClientset's field-managed tracker has no schema for mco's kinds.
			var out, errOut bytes.Buffer
			err := tc.opts.runMembers(context.Background(), &rest.Config{Host: srv.URL}, mco, "deploy", tc.names, &out, &errOut)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if out.String() != tc.want {
				t.Errorf("stdout:\n%s\nwant:\n%s", out.String(), tc.want)
			}
			if errOut.String() != tc.wantErrOut {
				t.Errorf("stderr:\n%s\nwant:\n%s", errOut.String(), tc.wantErrOut)
			}
			var asked []string
			for _, name := range []string{"m1", "m2", "m3", "m4"} {
				if proxy.asked[name] {
					asked = append(asked, name)
				}
			}
			if strings.Join(asked, ",") != strings.Join(tc.wantAsked, ",") {
				t.Errorf("asked %v, want %v", asked, tc.wantAsked)
			}
		})
	}
}
