package workload

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// AggregateStatus computes the status of a template on mco from what its
// member clusters report. ok is false for kinds whose status mco does not
// aggregate; the template's status is then left alone.
func AggregateStatus(template *unstructured.Unstructured, items []workv1alpha2.AggregatedStatusItem, now metav1.Time) (status map[string]any, ok bool, err error) {
	switch kindOf(template) {
	case "apps/Deployment":
		var d appsv1.Deployment
		if err := decode(template, &d); err != nil {
			return nil, false, err
		}
		members, err := deploymentStatuses(items)
		if err != nil {
			return nil, false, err
		}
		s := aggregateDeployment(&d, members, now)
		out, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&s)
		if err != nil {
			return nil, false, fmt.Errorf("encode status of Deployment %s/%s: %w", d.Namespace, d.Name, err)
		}
		return out, true, nil
	}
	return nil, false, nil
}

// memberDeployment is one cluster's reported Deployment status.
type memberDeployment struct {
	cluster string
	status  *DeploymentStatus // nil when the cluster has reported nothing yet
}

func deploymentStatuses(items []workv1alpha2.AggregatedStatusItem) ([]memberDeployment, error) {
	out := make([]memberDeployment, 0, len(items))
	for _, it := range items {
		m := memberDeployment{cluster: it.ClusterName}
		if it.Status != nil && len(it.Status.Raw) > 0 {
			var s DeploymentStatus
			if err := json.Unmarshal(it.Status.Raw, &s); err != nil {
				return nil, fmt.Errorf("decode status reported by cluster %s: %w", it.ClusterName, err)
			}
			m.status = &s
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cluster < out[j].cluster })
	return out, nil
}

// aggregateDeployment sums the members' counters. observedGeneration
// advances to the template's generation only when every member runs what
// was rendered from it and its controller has observed it. Available and
// Progressing are aggregated too, naming the clusters that hold them back.
func aggregateDeployment(d *appsv1.Deployment, members []memberDeployment, now metav1.Time) appsv1.DeploymentStatus {
	out := appsv1.DeploymentStatus{ObservedGeneration: d.Status.ObservedGeneration}
	caughtUp := true
	var notAvailable, notReported, deadline, progressing []string
	for _, m := range members {
		s := m.status
		if s == nil {
			caughtUp = false
			notReported = append(notReported, m.cluster)
			continue
		}
		out.Replicas += s.Replicas
		out.UpdatedReplicas += s.UpdatedReplicas
		out.ReadyReplicas += s.ReadyReplicas
		out.AvailableReplicas += s.AvailableReplicas
		out.UnavailableReplicas += s.UnavailableReplicas
		if s.ResourceTemplateGeneration != d.Generation || s.ObservedGeneration != s.Generation {
			caughtUp = false
		}
		if c := deploymentCondition(s.Conditions, appsv1.DeploymentAvailable); c == nil || c.Status != corev1.ConditionTrue {
			notAvailable = append(notAvailable, m.cluster)
		}
		switch c := deploymentCondition(s.Conditions, appsv1.DeploymentProgressing); {
		case c != nil && c.Reason == "ProgressDeadlineExceeded":
			deadline = append(deadline, m.cluster)
		case c == nil || c.Reason != "NewReplicaSetAvailable":
			progressing = append(progressing, m.cluster)
		}
	}
	if caughtUp && len(members) > 0 {
		out.ObservedGeneration = d.Generation
	}
	notAvailable = append(notAvailable, notReported...)
	out.Conditions = []appsv1.DeploymentCondition{
		availableCondition(d, notAvailable, now),
		progressingCondition(d, deadline, append(progressing, notReported...), now),
	}
	return out
}

func availableCondition(d *appsv1.Deployment, notAvailable []string, now metav1.Time) appsv1.DeploymentCondition {
	c := appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue,
		Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability in every member cluster."}
	if len(notAvailable) > 0 {
		c.Status, c.Reason = corev1.ConditionFalse, "MinimumReplicasUnavailable"
		c.Message = "Deployment does not have minimum availability in cluster(s) " + strings.Join(notAvailable, ", ") + "."
	}
	return keepTimes(d, c, now)
}

func progressingCondition(d *appsv1.Deployment, deadline, progressing []string, now metav1.Time) appsv1.DeploymentCondition {
	c := appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue,
		Reason: "NewReplicaSetAvailable", Message: "The rollout has completed in every member cluster."}
	switch {
	case len(deadline) > 0:
		c.Status, c.Reason = corev1.ConditionFalse, "ProgressDeadlineExceeded"
		c.Message = "The rollout exceeded its progress deadline in cluster(s) " + strings.Join(deadline, ", ") + "."
	case len(progressing) > 0:
		c.Reason = "ReplicaSetUpdated"
		c.Message = "The rollout is progressing in cluster(s) " + strings.Join(progressing, ", ") + "."
	}
	return keepTimes(d, c, now)
}

// keepTimes carries over the transition time of an unchanged status and
// the update time of an unchanged condition, as a controller would.
func keepTimes(d *appsv1.Deployment, c appsv1.DeploymentCondition, now metav1.Time) appsv1.DeploymentCondition {
	c.LastUpdateTime, c.LastTransitionTime = now, now
	old := deploymentCondition(d.Status.Conditions, c.Type)
	if old == nil {
		return c
	}
	if old.Status == c.Status {
		c.LastTransitionTime = old.LastTransitionTime
		if old.Reason == c.Reason && old.Message == c.Message {
			c.LastUpdateTime = old.LastUpdateTime
		}
	}
	return c
}

func deploymentCondition(cs []appsv1.DeploymentCondition, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}
