package differential

import (
	"reflect"
	"strings"
	"testing"
)

func obj(spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "s"}, "spec": spec}
}

func crd(group string) map[string]any {
	return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "things." + group}, "spec": map[string]any{"group": group}}
}

// TestCompareOutcomes: how two answers to the same request differ, in
// the generic form known-drifts.txt lists.
func TestCompareOutcomes(t *testing.T) {
	t.Parallel()
	accepted := func(o map[string]any) Outcome { return Outcome{Code: 201, Object: o} }
	invalid := func(causes ...Cause) Outcome { return Outcome{Code: 422, Reason: "Invalid", Causes: causes} }
	cases := []struct {
		name      string
		kind      string
		input     map[string]any
		kube, mco Outcome
		want      []string // groups
	}{
		{name: "same object", kind: "ConfigMap", input: obj(nil),
			kube: accepted(obj(map[string]any{"a": int64(1)})), mco: accepted(obj(map[string]any{"a": int64(1)}))},
		{name: "defaulted only by kube", kind: "ConfigMap", input: obj(nil),
			kube: accepted(obj(map[string]any{"a": int64(1)})), mco: accepted(obj(map[string]any{})),
			want: []string{"defaulting: spec.a only on kube"}},
		{name: "accepted by one", kind: "ConfigMap", input: obj(nil),
			kube: accepted(obj(nil)), mco: invalid(Cause{"spec.x", "FieldValueRequired"}),
			want: []string{"outcome: accepted by kube, rejected by mco (422 Invalid)"}},
		{name: "causes differ", kind: "ConfigMap", input: obj(nil),
			kube: invalid(Cause{"spec.ports[0].port", "FieldValueInvalid"}), mco: invalid(Cause{"spec.ports", "FieldValueRequired"}),
			want: []string{"validation: cause only on kube: spec.ports[*].port FieldValueInvalid", "validation: cause only on mco: spec.ports FieldValueRequired"}},
		{name: "same causes at other indices", kind: "StatefulSet", input: obj(nil),
			kube: invalid(Cause{"spec.volumes[1].name", "FieldValueRequired"}), mco: invalid(Cause{"spec.volumes[0].name", "FieldValueRequired"})},
		{name: "warnings differ", kind: "ConfigMap", input: obj(nil),
			kube: Outcome{Code: 201, Object: obj(nil), Warnings: []string{"spec.a: deprecated"}}, mco: accepted(obj(nil)),
			want: []string{"warnings: only on kube: spec.a: deprecated"}},
		{name: "cluster IP allocated only by kube is deliberate", kind: "Service", input: obj(map[string]any{}),
			kube: accepted(obj(map[string]any{"clusterIP": "10.0.0.1", "clusterIPs": []any{"10.0.0.1"}})), mco: accepted(obj(map[string]any{}))},
		{name: "cluster IP asked as empty is deliberate", kind: "Service", input: obj(map[string]any{"clusterIP": ""}),
			kube: accepted(obj(map[string]any{"clusterIP": "10.0.0.1"})), mco: accepted(obj(map[string]any{}))},
		{name: "cluster IP set by the request is compared", kind: "Service", input: obj(map[string]any{"clusterIP": "10.0.0.9"}),
			kube: accepted(obj(map[string]any{"clusterIP": "10.0.0.9"})), mco: accepted(obj(map[string]any{})),
			want: []string{"defaulting: spec.clusterIP only on kube"}},
		{name: "IPv6 refused by a single-stack member is deliberate", kind: "Service",
			input: obj(map[string]any{"ipFamilies": []any{"IPv6"}}),
			kube:  invalid(Cause{"spec.ipFamilies[0]", "FieldValueInvalid"}), mco: accepted(obj(nil))},
		{name: "a Pod refused by a member's Priority admission before validation is deliberate", kind: "Pod", input: obj(nil),
			kube: Outcome{Code: 403, Reason: "Forbidden", Message: `pods "p" is forbidden: no PriorityClass with name x was found`},
			mco:  invalid(Cause{"spec.containers", "FieldValueRequired"})},
		{name: "a Pod forbidden for another reason is not", kind: "Pod", input: obj(nil),
			kube: Outcome{Code: 403, Reason: "Forbidden", Message: `pods "p" is forbidden: exceeded quota`}, mco: accepted(obj(nil)),
			want: []string{"outcome: rejected by kube (403 Forbidden), accepted by mco"}},
		{name: "IPv6 refused for another reason is not", kind: "Service",
			input: obj(map[string]any{"ipFamilies": []any{"IPv6"}}),
			kube:  invalid(Cause{"spec.ports", "FieldValueRequired"}), mco: accepted(obj(nil)),
			want: []string{"outcome: rejected by kube (422 Invalid), accepted by mco"}},
		{name: "a CRD in a Karmada group, refused by mco on spec.group, is deliberate", kind: "CustomResourceDefinition",
			input: crd("policy.karmada.io"), kube: accepted(crd("policy.karmada.io")), mco: invalid(Cause{"spec.group", "FieldValueForbidden"})},
		{name: "a CRD in a Kubernetes group mco serves, refused on spec.group, is deliberate", kind: "CustomResourceDefinition",
			input: crd("networking.k8s.io"), kube: accepted(crd("networking.k8s.io")), mco: invalid(Cause{"spec.group", "FieldValueForbidden"})},
		{name: "a CRD in a Karmada group kept for a kind to come, refused on spec.group, is deliberate", kind: "CustomResourceDefinition",
			input: crd("search.karmada.io"), kube: accepted(crd("search.karmada.io")), mco: invalid(Cause{"spec.group", "FieldValueForbidden"})},
		{name: "a CRD of Karmada's operator refused by mco is not", kind: "CustomResourceDefinition",
			input: crd("operator.karmada.io"), kube: accepted(crd("operator.karmada.io")), mco: invalid(Cause{"spec.group", "FieldValueForbidden"}),
			want: []string{"outcome: accepted by kube, rejected by mco (422 Invalid)"}},
		{name: "a CRD in a look-alike group refused by mco is not", kind: "CustomResourceDefinition",
			input: crd("notkarmada.io"), kube: accepted(crd("notkarmada.io")), mco: invalid(Cause{"spec.group", "FieldValueForbidden"}),
			want: []string{"outcome: accepted by kube, rejected by mco (422 Invalid)"}},
		{name: "a CRD in mco's group refused for another cause is not", kind: "CustomResourceDefinition",
			input: crd("work.karmada.io"), kube: accepted(crd("work.karmada.io")), mco: invalid(Cause{"spec.names.plural", "FieldValueInvalid"}),
			want: []string{"outcome: accepted by kube, rejected by mco (422 Invalid)"}},
		{name: "a request both servers reset agrees", kind: "CustomResourceDefinition", input: crd("example.com"),
			kube: Outcome{Reason: resetReason}, mco: Outcome{Reason: resetReason}},
		{name: "a request only one server resets differs", kind: "CustomResourceDefinition", input: crd("example.com"),
			kube: Outcome{Reason: resetReason}, mco: invalid(Cause{"spec.versions", "FieldValueInvalid"}),
			want: []string{"status: kube 0 RequestReset, mco 422 Invalid", "validation: cause only on mco: spec.versions FieldValueInvalid"}},
		{name: "a CRD kube resets for selectable fields without a structural schema, refused by mco, is deliberate", kind: "CustomResourceDefinition",
			input: crd("example.com"), kube: Outcome{Reason: resetReason}, mco: invalid(Cause{"spec.versions[0].selectableFields", "FieldValueInvalid"})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range compareOutcomes(Ignored(), tc.kind, tc.input, false, tc.kube, tc.mco) {
				got = append(got, d.Group)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("differences\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestNormalizePVCFinalizer: only the protection finalizer is removed.
func TestNormalizePVCFinalizer(t *testing.T) {
	t.Parallel()
	out := map[string]any{"metadata": map[string]any{"finalizers": []any{"kubernetes.io/pvc-protection", "example.com/keep"}}}
	got := normalize(Ignored(), "PersistentVolumeClaim", map[string]any{}, out)
	want := []any{"example.com/keep"}
	if f := got["metadata"].(map[string]any)["finalizers"]; !reflect.DeepEqual(f, want) {
		t.Errorf("finalizers %v, want %v", f, want)
	}
	only := map[string]any{"metadata": map[string]any{"finalizers": []any{"kubernetes.io/pvc-protection"}}}
	if _, ok := normalize(Ignored(), "PersistentVolumeClaim", nil, only)["metadata"].(map[string]any)["finalizers"]; ok {
		t.Error("an emptied finalizer list is kept")
	}
}

// TestNormalizeManagedFieldsOrder: two entries whose order only their
// times decided (a create and an update of another API version, a second
// apart or not) compare equal in either order.
func TestNormalizeManagedFieldsOrder(t *testing.T) {
	t.Parallel()
	entry := func(version, time string) any {
		return map[string]any{"manager": "kubectl", "operation": "Update", "apiVersion": version, "time": time}
	}
	sameSecond := map[string]any{"metadata": map[string]any{"managedFields": []any{
		entry("example.com/v1", "2026-01-01T00:00:00Z"), entry("example.com/v1beta1", "2026-01-01T00:00:00Z"),
	}}}
	secondApart := map[string]any{"metadata": map[string]any{"managedFields": []any{
		entry("example.com/v1beta1", "2026-01-01T00:00:00Z"), entry("example.com/v1", "2026-01-01T00:00:01Z"),
	}}}
	a := normalize(Ignored(), "Widget", nil, sameSecond)
	b := normalize(Ignored(), "Widget", nil, secondApart)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("normalized differently:\n  %v\n  %v", a, b)
	}
}

// TestNormalizePodAdmission: only what a member's admission adds to a Pod
// is removed, the token volume by its name's prefix.
func TestNormalizePodAdmission(t *testing.T) {
	t.Parallel()
	out := map[string]any{"spec": map[string]any{
		"volumes": []any{map[string]any{"name": "kube-api-access-x7k2p"}, map[string]any{"name": "data"}},
		"containers": []any{
			map[string]any{"name": "a", "volumeMounts": []any{map[string]any{"name": "kube-api-access-x7k2p"}}},
			map[string]any{"name": "b", "volumeMounts": []any{map[string]any{"name": "data"}, map[string]any{"name": "kube-api-access-x7k2p"}}},
		},
		"tolerations": []any{defaultToleration("node.kubernetes.io/not-ready"), map[string]any{"key": "dedicated", "operator": "Exists"}},
	}}
	got := normalize(Ignored(), "Pod", map[string]any{}, out)
	want := map[string]any{"spec": map[string]any{
		"volumes": []any{map[string]any{"name": "data"}},
		"containers": []any{
			map[string]any{"name": "a"},
			map[string]any{"name": "b", "volumeMounts": []any{map[string]any{"name": "data"}}},
		},
		"tolerations": []any{map[string]any{"key": "dedicated", "operator": "Exists"}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("normalized\n  %v\nwant\n  %v", got, want)
	}
}

// TestJudge sorts a run's cases against the known drifts.
func TestJudge(t *testing.T) {
	t.Parallel()
	known := Drifts{"a": "x", "b": "y", "c": "z", "gone": "w"}
	v := Judge(map[string]string{"a": "x", "b": "", "c": "other", "d": "new", "e": ""}, known)
	want := Verdict{Run: 5, Identical: 2, Known: []string{"a", "c"}, New: []string{"d"}, Fixed: []string{"b"}, Changed: []string{"c"}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("verdict %+v, want %+v", v, want)
	}
	updated := Updated(known, map[string]string{"a": "x", "b": "", "d": "new"})
	wantUpdated := Drifts{"a": "x", "c": "z", "gone": "w", "d": "new"}
	if !reflect.DeepEqual(updated, wantUpdated) {
		t.Errorf("updated %v, want %v (cases that did not run keep their line)", updated, wantUpdated)
	}
}

// TestMutationsAreStable: mutation i of a kind is the same whatever the
// number asked, so a longer run extends the default one.
func TestMutationsAreStable(t *testing.T) {
	t.Parallel()
	k, _ := KindByDir("configmap")
	seeds := []Case{
		{Name: "configmap/a", Kind: k, Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a"}, "data": map[string]any{"k": "v"}}},
		{Name: "configmap/b", Kind: k, Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "b"}, "immutable": true}},
	}
	short, long := Mutations(k, seeds, 10), Mutations(k, seeds, 30)
	if len(short) != 10 || len(long) != 30 {
		t.Fatalf("got %d and %d mutations, want 10 and 30", len(short), len(long))
	}
	for i := range short {
		if !reflect.DeepEqual(short[i], long[i]) {
			t.Errorf("mutation %d differs between runs: %s / %s", i, short[i].Source, long[i].Source)
		}
		if owned := short[i].Object["apiVersion"] != "v1" || short[i].Object["kind"] != "ConfigMap"; owned {
			t.Errorf("mutation %d changed apiVersion or kind: %s", i, short[i].Source)
		}
	}
	if seeds[0].Object["data"].(map[string]any)["k"] != "v" {
		t.Error("a seed was changed in place")
	}
}
