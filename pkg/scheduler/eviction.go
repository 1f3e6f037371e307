package scheduler

import (
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// evictionRequest is a cluster of spec.clusters the binding must leave:
// it carries a NoExecute taint the binding does not tolerate (or tolerates
// no longer), or the workload has been unhealthy there too long.
type evictionRequest struct {
	cluster  string
	reason   string
	producer string
	// why is the task's message and what events and conditions show.
	why         string
	purge       policyv1alpha1.PurgeMode
	gracePeriod *int32
	preserved   map[string]string
}

// evictionRequests lists the binding's clusters that must be left, and,
// for taints tolerated for a while (tolerationSeconds), how long until the
// next one is due (0 when none is pending).
// states are, by cluster, what failover.cluster.statePreservation read
// from the workload's status there: it goes with a request to leave it.
func evictionRequests(spec *workv1alpha2.ResourceBindingSpec, states map[string]map[string]string, clusters []*clusterv1alpha1.Cluster, now time.Time) ([]evictionRequest, time.Duration) {
	if len(spec.Clusters) == 0 {
		return nil, 0
	}
	byName := make(map[string]*clusterv1alpha1.Cluster, len(clusters))
	for _, c := range clusters {
		byName[c.Name] = c
	}
	var tolerations []corev1.Toleration
	if spec.Placement != nil {
		tolerations = spec.Placement.ClusterTolerations
	}
	var out []evictionRequest
	var next time.Duration
	for _, tc := range spec.Clusters {
		c, ok := byName[tc.Name]
		if !ok {
			continue
		}
		for _, taint := range c.Spec.Taints {
			if taint.Effect != corev1.TaintEffectNoExecute {
				continue
			}
			wait, evict := untoleratedFor(tolerations, taint, now)
			if evict {
				out = append(out, evictionRequest{cluster: tc.Name, reason: workv1alpha2.EvictionReasonTaintUntolerated, producer: workv1alpha2.EvictionProducerTaintManager,
					why: fmt.Sprintf("taint %s:%s not tolerated", taintString(taint), taint.Effect), purge: clusterPurgeMode(spec),
					preserved: states[tc.Name]})
				break
			}
			if wait > 0 && (next == 0 || wait < next) {
				next = wait
			}
		}
	}
	return out, next
}

// untoleratedFor tells whether a NoExecute taint evicts now, or how long
// a toleration with tolerationSeconds still holds it off.
func untoleratedFor(tolerations []corev1.Toleration, taint corev1.Taint, now time.Time) (time.Duration, bool) {
	var limit *int64
	tolerated := false
	for i := range tolerations {
		if !tolerations[i].ToleratesTaint(klog.Background(), &taint, false) {
			continue
		}
		tolerated = true
		s := tolerations[i].TolerationSeconds
		if s == nil {
			return 0, false // tolerated for ever
		}
		if limit == nil || *s < *limit {
			limit = s
		}
	}
	if !tolerated {
		return 0, true
	}
	added := now
	if taint.TimeAdded != nil {
		added = taint.TimeAdded.Time
	}
	left := added.Add(time.Duration(*limit) * time.Second).Sub(now)
	if left <= 0 {
		return 0, true
	}
	return left, false
}

// clusterPurgeMode is how a copy left on a failed cluster goes: the
// policy's failover.cluster.purgeMode, Gracefully by default.
func clusterPurgeMode(spec *workv1alpha2.ResourceBindingSpec) policyv1alpha1.PurgeMode {
	if f := spec.Failover; f != nil && f.Cluster != nil && f.Cluster.PurgeMode != "" {
		return f.Cluster.PurgeMode
	}
	return policyv1alpha1.PurgeModeGracefully
}

// evictedSpec returns a copy of spec where the requested clusters have
// moved from spec.clusters into graceful eviction tasks, for the scheduler
// to place the replicas anew.
func evictedSpec(spec *workv1alpha2.ResourceBindingSpec, reqs []evictionRequest, now metav1.Time) *workv1alpha2.ResourceBindingSpec {
	out := spec.DeepCopy()
	leaving := map[string]evictionRequest{}
	for _, r := range reqs {
		if _, ok := leaving[r.cluster]; !ok {
			leaving[r.cluster] = r
		}
	}
	before := make([]string, 0, len(spec.Clusters))
	for _, tc := range spec.Clusters {
		before = append(before, tc.Name)
	}
	out.Clusters = out.Clusters[:0]
	for _, tc := range spec.Clusters {
		r, ok := leaving[tc.Name]
		if !ok {
			out.Clusters = append(out.Clusters, tc)
			continue
		}
		replicas := tc.Replicas
		out.GracefulEvictionTasks = append(out.GracefulEvictionTasks, workv1alpha2.GracefulEvictionTask{
			FromCluster:         tc.Name,
			PurgeMode:           r.purge,
			Replicas:            &replicas,
			Reason:              r.reason,
			Message:             fmt.Sprintf("cluster %s: %s", tc.Name, r.why),
			Producer:            r.producer,
			GracePeriodSeconds:  r.gracePeriod,
			PreservedLabelState: r.preserved,
			CreationTimestamp:   &now,
		})
		if len(r.preserved) > 0 {
			// The preserved state goes only to clusters new after this
			// failover, never to those that ran the workload already.
			out.GracefulEvictionTasks[len(out.GracefulEvictionTasks)-1].ClustersBeforeFailover = append([]string(nil), before...)
		}
	}
	return out
}

func taintString(t corev1.Taint) string {
	if t.Value == "" {
		return t.Key
	}
	return t.Key + "=" + t.Value
}

// placesReplicas tells whether a new placement can take the workload: an
// empty placement never can (nothing would run anywhere).
func placesReplicas(clusters []workv1alpha2.TargetCluster, replicas int32) bool {
	if len(clusters) == 0 {
		return false
	}
	if replicas == 0 {
		return true
	}
	var sum int32
	for _, c := range clusters {
		sum += c.Replicas
	}
	return sum > 0
}

// unhealthyFraction is the share of clusters whose Ready is not True.
func unhealthyFraction(clusters []*clusterv1alpha1.Cluster) float64 {
	if len(clusters) == 0 {
		return 0
	}
	n := 0
	for _, c := range clusters {
		if !meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady) {
			n++
		}
	}
	return float64(n) / float64(len(clusters))
}

// describeRequests renders "member2 (taint cluster.karmada.io/not-ready:NoExecute not tolerated)".
func describeRequests(reqs []evictionRequest) string {
	parts := make([]string, len(reqs))
	for i, r := range reqs {
		parts[i] = fmt.Sprintf("%s (%s)", r.cluster, r.why)
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
