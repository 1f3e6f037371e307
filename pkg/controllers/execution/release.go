package execution

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/member"
)

// The marks that tie a member object to mco: what the execution controller
// stamps, what rendering adds, and the policy claim the template carried.
// A preserved object loses them, so that it is the member's own from then
// on (as Karmada leaves it): nothing watches it as mco's, and a later
// propagation with conflictResolution Abort does not take it over.
var (
	releasedLabels = []string{
		workv1alpha1.WorkPermanentIDLabel,
		policyv1alpha1.PropagationPolicyPermanentIDLabel,
		policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel,
	}
	releasedAnnotations = []string{
		workv1alpha1.WorkNamespaceAnnotation, workv1alpha1.WorkNameAnnotation,
		workv1alpha1.ResourceTemplateUIDAnnotation, workv1alpha1.ResourceTemplateGenerationAnnotation,
		workv1alpha1.ManagedLabels, workv1alpha1.ManagedAnnotations,
		workv1alpha1.ResourceConflictResolutionAnnotation,
		policyv1alpha1.PropagationPolicyNamespaceAnnotation, policyv1alpha1.PropagationPolicyNameAnnotation,
		policyv1alpha1.ClusterPropagationPolicyAnnotation,
	}
)

// releasePatch is the JSON merge patch that removes mco's marks from obj,
// and whether obj carries any.
func releasePatch(obj *unstructured.Unstructured) ([]byte, bool) {
	removals := func(have map[string]string, keys []string) map[string]any {
		out := map[string]any{}
		for _, k := range keys {
			if _, ok := have[k]; ok {
				out[k] = nil
			}
		}
		return out
	}
	labels, annotations := removals(obj.GetLabels(), releasedLabels), removals(obj.GetAnnotations(), releasedAnnotations)
	if len(labels) == 0 && len(annotations) == 0 {
		return nil, false
	}
	meta := map[string]any{}
	if len(labels) > 0 {
		meta["labels"] = labels
	}
	if len(annotations) > 0 {
		meta["annotations"] = annotations
	}
	patch, _ := json.Marshal(map[string]any{"metadata": meta}) // maps of strings and nils always marshal
	return patch, true
}

// releaseManifest leaves a preserved object in the member without mco's
// marks. An object that is gone, or was never mco's, is left alone.
func releaseManifest(ctx context.Context, c *member.Clients, manifest *unstructured.Unstructured) error {
	t, existing, err := managedObject(ctx, c, manifest)
	if err != nil || existing == nil {
		return err
	}
	patch, ok := releasePatch(existing)
	if !ok {
		return nil
	}
	_, err = t.client.Patch(ctx, manifest.GetName(), types.MergePatchType, patch, metav1.PatchOptions{FieldManager: FieldManager})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("release %s %s in cluster %s: %w", manifest.GetKind(), name(manifest), c.Cluster, err)
	}
	return nil
}
