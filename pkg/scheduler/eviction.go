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

// evictionRequest is a cluster of spec.clusters carrying a NoExecute taint
// the binding does not tolerate (or tolerates no longer).
type evictionRequest struct {
	cluster string
	taint   corev1.Taint
}

// evictionRequests lists the binding's clusters that must be left, and,
// for taints tolerated for a while (tolerationSeconds), how long until the
// next one is due (0 when none is pending).
func evictionRequests(spec *workv1alpha2.ResourceBindingSpec, clusters []*clusterv1alpha1.Cluster, now time.Time) ([]evictionRequest, time.Duration) {
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
				out = append(out, evictionRequest{cluster: tc.Name, taint: taint})
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

// evictedSpec returns a copy of spec where the requested clusters have
// moved from spec.clusters into graceful eviction tasks, for the scheduler
// to place the replicas anew.
func evictedSpec(spec *workv1alpha2.ResourceBindingSpec, reqs []evictionRequest, now metav1.Time) *workv1alpha2.ResourceBindingSpec {
	out := spec.DeepCopy()
	leaving := map[string]bool{}
	for _, r := range reqs {
		leaving[r.cluster] = true
	}
	purge := policyv1alpha1.PurgeModeGracefully
	if f := spec.Failover; f != nil && f.Cluster != nil && f.Cluster.PurgeMode != "" {
		purge = f.Cluster.PurgeMode
	}
	out.Clusters = out.Clusters[:0]
	for _, tc := range spec.Clusters {
		if !leaving[tc.Name] {
			out.Clusters = append(out.Clusters, tc)
			continue
		}
		replicas, taint := tc.Replicas, requestFor(reqs, tc.Name)
		out.GracefulEvictionTasks = append(out.GracefulEvictionTasks, workv1alpha2.GracefulEvictionTask{
			FromCluster:       tc.Name,
			PurgeMode:         purge,
			Replicas:          &replicas,
			Reason:            workv1alpha2.EvictionReasonTaintUntolerated,
			Message:           fmt.Sprintf("cluster %s has taint %s:%s the placement does not tolerate", tc.Name, taintString(taint), taint.Effect),
			Producer:          workv1alpha2.EvictionProducerTaintManager,
			CreationTimestamp: &now,
		})
	}
	return out
}

func requestFor(reqs []evictionRequest, cluster string) corev1.Taint {
	for _, r := range reqs {
		if r.cluster == cluster {
			return r.taint
		}
	}
	return corev1.Taint{}
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

// describeRequests renders "member2 (cluster.karmada.io/not-ready:NoExecute)".
func describeRequests(reqs []evictionRequest) string {
	parts := make([]string, len(reqs))
	for i, r := range reqs {
		parts[i] = fmt.Sprintf("%s (%s:%s)", r.cluster, taintString(r.taint), r.taint.Effect)
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
