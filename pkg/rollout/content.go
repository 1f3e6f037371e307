// Package rollout holds the pure decisions of staged rollouts: what a
// revision of a template is, how a Work reports a cluster's health at its
// revision, and which revision each cluster gets as the waves advance.
package rollout

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// bookkeepingDomains are the label and annotation domains that record
// mco's, Karmada's and the server's own bookkeeping, never a revision's
// content.
var bookkeepingDomains = []string{"karmada.io", "mco-org.github.io"}

// bookkeepingKeys are single keys that are not content: kubectl's record
// of the last apply.
var bookkeepingKeys = map[string]bool{
	"kubectl.kubernetes.io/last-applied-configuration": true,
}

// bookkeeping tells whether a label or annotation key is bookkeeping.
func bookkeeping(key string) bool {
	if bookkeepingKeys[key] {
		return true
	}
	prefix, _, found := strings.Cut(key, "/")
	if !found {
		return false
	}
	for _, d := range bookkeepingDomains {
		if prefix == d || strings.HasSuffix(prefix, "."+d) {
			return true
		}
	}
	return false
}

// Content is a revision's content: every top-level field of the template
// but apiVersion, kind, metadata and status, without spec.replicas, and
// the labels and annotations that are not bookkeeping.
func Content(tmpl *unstructured.Unstructured) map[string]any {
	out := map[string]any{}
	for k, v := range tmpl.Object {
		switch k {
		case "apiVersion", "kind", "metadata", "status":
			continue
		}
		out[k] = runtimeCopy(v)
	}
	unstructured.RemoveNestedField(out, "spec", "replicas")
	meta := map[string]any{}
	if l := content(tmpl.GetLabels()); len(l) > 0 {
		meta["labels"] = l
	}
	if a := content(tmpl.GetAnnotations()); len(a) > 0 {
		meta["annotations"] = a
	}
	if len(meta) > 0 {
		out["metadata"] = meta
	}
	return out
}

// content keeps the entries of m that are not bookkeeping.
func content(m map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if !bookkeeping(k) {
			out[k] = v
		}
	}
	return out
}

// runtimeCopy deep-copies an unstructured value.
func runtimeCopy(v any) any {
	return runtime.DeepCopyJSONValue(v)
}

// Hash names a content: the first 10 hex digits of the SHA-256 of its JSON
// (encoding/json orders map keys, so equal contents hash alike). The change
// cause travels with the content but does not make a revision of its own.
func Hash(content map[string]any) (string, error) {
	c := runtimeCopy(content).(map[string]any)
	unstructured.RemoveNestedField(c, "metadata", "annotations", rolloutv1alpha1.ChangeCauseAnnotation)
	if a, _, _ := unstructured.NestedMap(c, "metadata", "annotations"); len(a) == 0 {
		unstructured.RemoveNestedField(c, "metadata", "annotations")
	}
	if m, _, _ := unstructured.NestedMap(c, "metadata"); len(m) == 0 {
		delete(c, "metadata")
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("encode revision content: %w", err)
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])[:10], nil
}

// WithContent returns the template as it was at a revision: tmpl's
// apiVersion, kind, bookkeeping metadata, status and spec.replicas, with
// everything else from content.
func WithContent(tmpl *unstructured.Unstructured, content map[string]any) *unstructured.Unstructured {
	out := &unstructured.Unstructured{Object: map[string]any{}}
	for _, k := range []string{"apiVersion", "kind", "metadata", "status"} {
		if v, ok := tmpl.Object[k]; ok {
			out.Object[k] = runtimeCopy(v)
		}
	}
	for k, v := range content {
		if k != "metadata" {
			out.Object[k] = runtimeCopy(v)
		}
	}
	if replicas, ok, _ := unstructured.NestedFieldNoCopy(tmpl.Object, "spec", "replicas"); ok {
		if _, hasSpec := out.Object["spec"].(map[string]any); hasSpec {
			_ = unstructured.SetNestedField(out.Object, runtimeCopy(replicas), "spec", "replicas")
		}
	}
	labels, _, _ := unstructured.NestedStringMap(content, "metadata", "labels")
	annotations, _, _ := unstructured.NestedStringMap(content, "metadata", "annotations")
	out.SetLabels(merged(tmpl.GetLabels(), labels))
	out.SetAnnotations(merged(tmpl.GetAnnotations(), annotations))
	return out
}

// merged is live's bookkeeping entries with revision's content entries.
func merged(live, revision map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range live {
		if bookkeeping(k) {
			out[k] = v
		}
	}
	for k, v := range revision {
		out[k] = v
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ChangeCause is the change cause a content carries.
func ChangeCause(content map[string]any) string {
	s, _, _ := unstructured.NestedString(content, "metadata", "annotations", rolloutv1alpha1.ChangeCauseAnnotation)
	return s
}
