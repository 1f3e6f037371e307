package workload

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// RetainReplicasLabel marks a template whose replicas the members own: mco
// sets it on an HorizontalPodAutoscaler's scale target while the
// autoscaler is propagated, and the members' copies keep the replicas
// their autoscalers chose.
const RetainReplicasLabel = "resourcetemplate.karmada.io/retain-replicas"

// Retains tells whether applying desired over a member's object keeps some
// of the member's fields (see Retain): the member's object must then be
// read before every apply.
func Retains(desired *unstructured.Unstructured) bool {
	switch kindOf(desired) {
	case "/Pod", "/PersistentVolume":
		return true
	case "apps/Deployment":
		return desired.GetLabels()[RetainReplicasLabel] == "true"
	}
	return false
}

// Retain copies into desired, before it is applied over observed (the
// member's object), the fields the member owns, as Karmada's retention
// does: a Pod's nodeName, serviceAccountName, volumes and containers'
// volumeMounts, which the member's scheduler and admission set and a Pod
// may not change; a PersistentVolume's claimRef, which the member's binder
// sets; a Deployment's replicas when it carries RetainReplicasLabel. Other kinds are left alone.
func Retain(desired, observed *unstructured.Unstructured) error {
	var err error
	switch kindOf(desired) {
	case "/Pod":
		err = retainPod(desired.Object, observed.Object)
	case "/PersistentVolume":
		err = keep(desired.Object, observed.Object, "spec", "claimRef")
	case "apps/Deployment":
		if Retains(desired) {
			err = keep(desired.Object, observed.Object, "spec", "replicas")
		}
	}
	if err != nil {
		return fmt.Errorf("retain the member's fields of %s %s/%s: %w", desired.GetKind(), desired.GetNamespace(), desired.GetName(), err)
	}
	return nil
}

func retainPod(desired, observed map[string]any) error {
	for _, f := range []string{"nodeName", "serviceAccountName", "volumes"} {
		if err := keep(desired, observed, "spec", f); err != nil {
			return err
		}
	}
	for _, list := range []string{"initContainers", "containers"} {
		if err := retainMounts(desired, observed, list); err != nil {
			return err
		}
	}
	return nil
}

// keep sets the field at path in desired to observed's value, when
// observed has one.
func keep(desired, observed map[string]any, path ...string) error {
	v, found, err := unstructured.NestedFieldNoCopy(observed, path...)
	if err != nil || !found {
		return err
	}
	return unstructured.SetNestedField(desired, runtime.DeepCopyJSONValue(v), path...)
}

// retainMounts gives each container of desired the volumeMounts of the
// observed container of the same name.
func retainMounts(desired, observed map[string]any, list string) error {
	want, _, err := unstructured.NestedSlice(desired, "spec", list)
	if err != nil || len(want) == 0 {
		return err
	}
	have, _, err := unstructured.NestedSlice(observed, "spec", list)
	if err != nil {
		return err
	}
	mounts := map[string]any{}
	for _, c := range have {
		if m, ok := c.(map[string]any); ok {
			if name, ok := m["name"].(string); ok {
				mounts[name] = m["volumeMounts"]
			}
		}
	}
	for _, c := range want {
		m, ok := c.(map[string]any)
		if !ok {
			continue
		}
		name, _ := m["name"].(string)
		if v, ok := mounts[name]; ok && v != nil {
			m["volumeMounts"] = v
		}
	}
	return unstructured.SetNestedSlice(desired, want, "spec", list)
}
