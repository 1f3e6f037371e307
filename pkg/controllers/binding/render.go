package binding

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// metadataNotToTravel is set by mco-apiserver for the template and means
// nothing in a member cluster.
var metadataNotToTravel = []string{
	"uid", "resourceVersion", "generation", "managedFields", "ownerReferences", "finalizers",
	"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink", "generateName",
}

// reviser returns a member's copy of a template with its share of the
// replicas (interpreter.Interpreter.ReviseReplicas).
type reviser func(obj *unstructured.Unstructured, replicas int32) (*unstructured.Unstructured, error)

// render returns the manifest of a template for one target cluster: the
// template without what must not travel, with the cluster's replica share
// and the marks that tie the member object back to its template. Overrides
// are applied afterwards.
func render(tmpl *unstructured.Unstructured, spec *workv1alpha2.ResourceBindingSpec, target workv1alpha2.TargetCluster, revise reviser) (*unstructured.Unstructured, error) {
	obj := tmpl.DeepCopy()
	prune(obj)
	if spec.Replicas > 0 {
		var err error
		if obj, err = revise(obj, target.Replicas); err != nil {
			return nil, err
		}
	}
	annotations := obj.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[workv1alpha1.ManagedLabels] = sortedKeys(obj.GetLabels())
	annotations[workv1alpha1.ManagedAnnotations] = sortedKeys(obj.GetAnnotations())
	annotations[workv1alpha1.ResourceTemplateUIDAnnotation] = string(tmpl.GetUID())
	annotations[workv1alpha1.ResourceTemplateGenerationAnnotation] = strconv.FormatInt(tmpl.GetGeneration(), 10)
	annotations[workv1alpha1.ResourceConflictResolutionAnnotation] = conflictResolution(spec.ConflictResolution)
	obj.SetAnnotations(annotations)
	return obj, nil
}

// prune removes what kube-apiserver allocates or owns: status, server-set
// metadata, a Service's allocated cluster IPs (a headless Service keeps
// its None), a Job's generated selector and labels,
// and a Job's ttlSecondsAfterFinished (a member's TTL controller would
// delete the finished Job and mco would create it again, forever).
func prune(obj *unstructured.Unstructured) {
	delete(obj.Object, "status")
	if meta, ok := obj.Object["metadata"].(map[string]any); ok {
		for _, f := range metadataNotToTravel {
			delete(meta, f)
		}
	}
	// kubectl apply's record of the template is not the member object's.
	unstructured.RemoveNestedField(obj.Object, "metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration")
	switch obj.GetAPIVersion() + "/" + obj.GetKind() {
	case "v1/Service":
		// A headless Service's "None" is the user's choice and travels.
		if ip, _, _ := unstructured.NestedString(obj.Object, "spec", "clusterIP"); ip != corev1.ClusterIPNone {
			unstructured.RemoveNestedField(obj.Object, "spec", "clusterIP")
			unstructured.RemoveNestedField(obj.Object, "spec", "clusterIPs")
		}
	case "batch/v1/Job":
		unstructured.RemoveNestedField(obj.Object, "spec", "ttlSecondsAfterFinished")
		if manual, _, _ := unstructured.NestedBool(obj.Object, "spec", "manualSelector"); !manual {
			unstructured.RemoveNestedField(obj.Object, "spec", "selector")
			for _, l := range []string{"controller-uid", "job-name", "batch.kubernetes.io/controller-uid", "batch.kubernetes.io/job-name"} {
				unstructured.RemoveNestedField(obj.Object, "spec", "template", "metadata", "labels", l)
			}
		}
	}
}

func conflictResolution(c policyv1alpha1.ConflictResolution) string {
	if c == policyv1alpha1.ConflictOverwrite {
		return workv1alpha1.ResourceConflictResolutionOverwrite
	}
	return workv1alpha1.ResourceConflictResolutionAbort
}

func sortedKeys(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// suspended tells whether dispatching to a cluster is suspended.
func suspended(spec *workv1alpha2.ResourceBindingSpec, cluster string) bool {
	s := spec.Suspension
	if s == nil {
		return false
	}
	if s.Dispatching != nil && *s.Dispatching {
		return true
	}
	if s.DispatchingOnClusters != nil {
		for _, c := range s.DispatchingOnClusters.ClusterNames {
			if c == cluster {
				return true
			}
		}
	}
	return false
}

// describe names a template for messages.
func describe(obj *unstructured.Unstructured) string {
	if ns := obj.GetNamespace(); ns != "" {
		return fmt.Sprintf("%s %s/%s", obj.GetKind(), ns, obj.GetName())
	}
	return fmt.Sprintf("%s %s", obj.GetKind(), obj.GetName())
}
