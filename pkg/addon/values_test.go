package addon

import (
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

func TestMerge(t *testing.T) {
	tests := []struct {
		name   string
		layers []Layer
		want   map[string]any
		setBy  map[string]string
	}{
		{name: "no layers are no values", want: map[string]any{}, setBy: map[string]string{}},
		{name: "maps merge at any depth, a later layer winning",
			layers: []Layer{
				{Source: "spec.values", Values: map[string]any{"image": map[string]any{"repo": "a", "tag": "1"}, "replicas": 1.0}},
				{Source: "spec.overrides[0]", Values: map[string]any{"image": map[string]any{"tag": "2"}}},
			},
			want:  map[string]any{"image": map[string]any{"repo": "a", "tag": "2"}, "replicas": 1.0},
			setBy: map[string]string{"image": "spec.overrides[0]", "replicas": "spec.values"}},
		{name: "lists are replaced, not merged",
			layers: []Layer{
				{Source: "a", Values: map[string]any{"zones": []any{"a", "b"}}},
				{Source: "b", Values: map[string]any{"zones": []any{"c"}}},
			},
			want: map[string]any{"zones": []any{"c"}}, setBy: map[string]string{"zones": "b"}},
		{name: "a map replaces a scalar and the other way round",
			layers: []Layer{
				{Source: "a", Values: map[string]any{"x": "flat", "y": map[string]any{"deep": true}}},
				{Source: "b", Values: map[string]any{"x": map[string]any{"now": "deep"}, "y": "flat"}},
			},
			want: map[string]any{"x": map[string]any{"now": "deep"}, "y": "flat"}, setBy: map[string]string{"x": "b", "y": "b"}},
		{name: "a null is kept, so that the chart's default goes",
			layers: []Layer{
				{Source: "a", Values: map[string]any{"resources": map[string]any{"limits": map[string]any{"cpu": "1"}}}},
				{Source: "b", Values: map[string]any{"resources": map[string]any{"limits": nil}}},
			},
			want: map[string]any{"resources": map[string]any{"limits": nil}}, setBy: map[string]string{"resources": "b"}},
		{name: "every matching layer applies, in order",
			layers: []Layer{
				{Source: "spec.values", Values: map[string]any{"a": 1.0, "b": 1.0, "c": 1.0}},
				{Source: "spec.overrides[0]", Values: map[string]any{"b": 2.0, "c": 2.0}},
				{Source: "spec.overrides[1]", Values: map[string]any{"c": 3.0}},
			},
			want:  map[string]any{"a": 1.0, "b": 2.0, "c": 3.0},
			setBy: map[string]string{"a": "spec.values", "b": "spec.overrides[0]", "c": "spec.overrides[1]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Merge(tt.layers...)
			if len(got.FromSecret) != len(got.SetBy) {
				t.Errorf("FromSecret %v does not cover SetBy %v", got.FromSecret, got.SetBy)
			}
			if !reflect.DeepEqual(got.Values, tt.want) || !reflect.DeepEqual(got.SetBy, tt.setBy) {
				t.Errorf("Merge = %v set by %v, want %v set by %v", got.Values, got.SetBy, tt.want, tt.setBy)
			}
		})
	}
}

func TestMergeKnowsWhatASecretSet(t *testing.T) {
	got := Merge(Layer{Source: "a", Values: map[string]any{"token": "x", "tag": "1"}},
		Layer{Source: "b", Secret: true, Values: map[string]any{"token": "y"}},
		Layer{Source: "c", Values: map[string]any{"tag": "2"}})
	if !got.FromSecret["token"] || got.FromSecret["tag"] {
		t.Errorf("FromSecret %v: token last set by a Secret, tag not", got.FromSecret)
	}
}

func TestMergeLeavesLayersAlone(t *testing.T) {
	base := map[string]any{"image": map[string]any{"tag": "1"}}
	Merge(Layer{Values: base}, Layer{Values: map[string]any{"image": map[string]any{"tag": "2"}}})
	got := Merge(Layer{Values: base})
	got.Values["image"].(map[string]any)["tag"] = "changed"
	if base["image"].(map[string]any)["tag"] != "1" {
		t.Errorf("a layer was changed: %v", base)
	}
}

func cluster(name string, labels map[string]string) *clusterv1alpha1.Cluster {
	return &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: clusterv1alpha1.ClusterSpec{Region: "eu-west", Provider: "onprem"}}
}

func TestOverrides(t *testing.T) {
	js := func(s string) *apiextensionsv1.JSON { return &apiextensionsv1.JSON{Raw: []byte(s)} }
	spec := &addonsv1alpha1.AddonSpec{Overrides: []addonsv1alpha1.ValuesOverride{
		{ClusterSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"size": "large"}}, Values: js(`{"replicas":5}`)},
		{ClusterNames: []string{"member1", "member3"}, Values: js(`{"zone":"a"}`)},
		{ClusterNames: []string{"member1"}, ClusterSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"size": "small"}},
			Values: js(`{"tiny":true}`)},
	}}
	tests := []struct {
		cluster *clusterv1alpha1.Cluster
		want    []string
	}{
		{cluster("member1", map[string]string{"size": "large"}), []string{"spec.overrides[0]", "spec.overrides[1]"}},
		{cluster("member1", map[string]string{"size": "small"}), []string{"spec.overrides[1]", "spec.overrides[2]"}},
		{cluster("member2", map[string]string{"size": "large"}), []string{"spec.overrides[0]"}},
		{cluster("member2", map[string]string{"size": "small"}), nil},
		{cluster("member3", nil), []string{"spec.overrides[1]"}},
	}
	for _, tt := range tests {
		layers, err := Overrides(spec, tt.cluster)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range layers {
			got = append(got, l.Source)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %v: overrides %v, want %v", tt.cluster.Name, tt.cluster.Labels, got, tt.want)
		}
	}
}

func TestExpand(t *testing.T) {
	values := map[string]any{
		"region": "${cluster.region}",
		"nested": map[string]any{"name": "logs-${cluster.name}", "zone": "${cluster.labels['zone']}"},
		"list":   []any{"${cluster.provider}", 3.0},
	}
	err := Expand(values, cluster("member1", nil))
	if err == nil || !strings.Contains(err.Error(), `nested.zone: ${cluster.labels['zone']}: cluster member1 has no label "zone"`) {
		t.Fatalf("a missing label must be reported by its path, got %v", err)
	}
	values["nested"].(map[string]any)["zone"] = "${cluster.labels['zone']}"
	if err := Expand(values, cluster("member1", map[string]string{"zone": "z1"})); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"region": "eu-west",
		"nested": map[string]any{"name": "logs-member1", "zone": "z1"},
		"list":   []any{"onprem", 3.0},
	}
	if !reflect.DeepEqual(values, want) {
		t.Errorf("expanded %v, want %v", values, want)
	}
}
