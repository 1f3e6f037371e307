package workstatus

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/workload"
)

// ManifestStatus describes one member object (nil: not there).
func ManifestStatus(obj *unstructured.Unstructured, id workv1alpha1.ResourceIdentifier) (workv1alpha1.ManifestStatus, error) {
	st := workv1alpha1.ManifestStatus{Identifier: id, Health: workv1alpha1.ResourceUnknown}
	if obj == nil {
		return st, nil
	}
	raw, err := workload.ReflectStatus(obj)
	if err != nil {
		return st, err
	}
	st.Status = raw
	st.Health = workv1alpha1.ResourceHealth(workload.Health(obj))
	return st, nil
}

// AvailableCondition is True when every manifest is healthy in the member.
func AvailableCondition(statuses []workv1alpha1.ManifestStatus, generation int64) metav1.Condition {
	var notHealthy []string
	for _, s := range statuses {
		if s.Health != workv1alpha1.ResourceHealth(workv1alpha2.ResourceHealthy) {
			notHealthy = append(notHealthy, fmt.Sprintf("%s %s is %s", s.Identifier.Kind, s.Identifier.Name, s.Health))
		}
	}
	c := metav1.Condition{Type: workv1alpha1.WorkAvailable, Status: metav1.ConditionTrue, Reason: "ResourcesAvailable",
		Message: "Every manifest is healthy in the member cluster.", ObservedGeneration: generation}
	if len(notHealthy) > 0 {
		c.Status, c.Reason, c.Message = metav1.ConditionFalse, "ResourcesNotAvailable", strings.Join(notHealthy, "; ")
	}
	return c
}
