package interpreter

import (
	"encoding/json"
	"testing"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

func TestMergeDependencies(t *testing.T) {
	cm := func(ns, name string) configv1alpha1.DependentObjectReference {
		return configv1alpha1.DependentObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: name}
	}
	secret := configv1alpha1.DependentObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "a", Name: "s"}
	tests := []struct {
		name  string
		lists [][]configv1alpha1.DependentObjectReference
		want  string // JSON
	}{
		{name: "no script returned any: an empty list, as Karmada's empty table", lists: [][]configv1alpha1.DependentObjectReference{nil, {}}, want: `[]`},
		{name: "no lists at all", want: `[]`},
		{name: "repeats go, within a list and across lists, as Karmada's set", lists: [][]configv1alpha1.DependentObjectReference{{cm("a", "x"), cm("a", "x")}, {cm("a", "x")}},
			want: `[{"apiVersion":"v1","kind":"ConfigMap","namespace":"a","name":"x"}]`},
		{name: "ordered by apiVersion, kind, namespace and name, as Karmada orders them", lists: [][]configv1alpha1.DependentObjectReference{{secret, cm("b", "x")}, {cm("a", "y"), cm("a", "x")}},
			want: `[{"apiVersion":"v1","kind":"ConfigMap","namespace":"a","name":"x"},{"apiVersion":"v1","kind":"ConfigMap","namespace":"a","name":"y"},` +
				`{"apiVersion":"v1","kind":"ConfigMap","namespace":"b","name":"x"},{"apiVersion":"v1","kind":"Secret","namespace":"a","name":"s"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(mergeDependencies(tt.lists...))
			if err != nil || string(got) != tt.want {
				t.Errorf("got %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}
