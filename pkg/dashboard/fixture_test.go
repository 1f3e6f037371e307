package dashboard

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// staticSource serves one snapshot.
type staticSource struct {
	snap *Snapshot
	ch   chan struct{}
}

func (s *staticSource) Snapshot() *Snapshot      { return s.snap }
func (s *staticSource) Changed() <-chan struct{} { return s.ch }

func testCluster(name, region, zone string, ready metav1.ConditionStatus, taints ...corev1.Taint) *clusterv1alpha1.Cluster {
	return &clusterv1alpha1.Cluster{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       clusterv1alpha1.ClusterSpec{SyncMode: clusterv1alpha1.Push, Region: region, Zones: []string{zone}, Taints: taints},
		Status: clusterv1alpha1.ClusterStatus{KubernetesVersion: "v1.37.2",
			APIEnablements: []clusterv1alpha1.APIEnablement{{GroupVersion: "apps/v1",
				Resources: []clusterv1alpha1.APIResource{{Name: "deployments", Kind: "Deployment"}}}},
			Conditions:  []metav1.Condition{{Type: "Ready", Status: ready, Reason: "ClusterReady", Message: "cluster is healthy and ready to accept workloads"}},
			NodeSummary: &clusterv1alpha1.NodeSummary{TotalNum: 3, ReadyNum: 3},
			ResourceSummary: &clusterv1alpha1.ResourceSummary{
				Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("8"), corev1.ResourceMemory: resource.MustParse("32Gi")},
				Allocated:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("8Gi")},
			}},
	}
}

func testBinding(ns, name string, replicas int32, clusters ...workv1alpha2.TargetCluster) *Binding {
	return &Binding{Namespace: ns, Name: name + "-deployment",
		Annotations: map[string]string{policyv1alpha1.PropagationPolicyNameAnnotation: "web"},
		Spec: &workv1alpha2.ResourceBindingSpec{Replicas: replicas, Clusters: clusters,
			Resource: workv1alpha2.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: ns, Name: name}},
		Status: &workv1alpha2.ResourceBindingStatus{Conditions: []metav1.Condition{
			{Type: "Scheduled", Status: "True"}, {Type: "FullyApplied", Status: "True"}},
			AggregatedStatus: []workv1alpha2.AggregatedStatusItem{{ClusterName: "member1", Applied: true, Health: "Healthy"}}},
	}
}

// bigSnapshot is a federation of clusters and workloads spread over them.
func bigSnapshot(clusters, workloads int) *Snapshot {
	s := &Snapshot{}
	for i := 0; i < clusters; i++ {
		s.Clusters = append(s.Clusters, testCluster(fmt.Sprintf("member%03d", i), fmt.Sprintf("region-%d", i%5), fmt.Sprintf("zone-%d", i%10), "True"))
	}
	for i := 0; i < workloads; i++ {
		a, b := s.Clusters[i%clusters].Name, s.Clusters[(i+1)%clusters].Name
		s.Bindings = append(s.Bindings, testBinding(fmt.Sprintf("team-%02d", i%40), fmt.Sprintf("app-%04d", i), 4,
			workv1alpha2.TargetCluster{Name: a, Replicas: 2}, workv1alpha2.TargetCluster{Name: b, Replicas: 2}))
	}
	return s
}
