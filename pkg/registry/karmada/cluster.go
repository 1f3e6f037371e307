package karmada

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/cluster/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

func clusterResources() []*resource.Spec {
	cluster := func(o runtime.Object) *clusterv1alpha1.Cluster { return o.(*clusterv1alpha1.Cluster) }
	return []*resource.Spec{{
		Resource:       schema.GroupResource{Group: clusterv1alpha1.GroupName, Resource: "clusters"},
		Singular:       "cluster",
		Kind:           "Cluster",
		Version:        clusterv1alpha1.SchemeGroupVersion.Version,
		Categories:     []string{category},
		HasStatus:      true,
		New:            func() runtime.Object { return &clusterv1alpha1.Cluster{} },
		NewList:        func() runtime.Object { return &clusterv1alpha1.ClusterList{} },
		Validate:       resource.Typed(validation.ValidateCluster),
		ValidateUpdate: resource.TypedUpdate(validation.ValidateClusterUpdate),
		Columns: []resource.Column{
			{Name: "Version", Type: "string", Description: "Kubernetes version of the member cluster.",
				Cell: func(o runtime.Object) any { return cluster(o).Status.KubernetesVersion }},
			{Name: "Mode", Type: "string", Description: "How resources reach the member: Push or Pull.",
				Cell: func(o runtime.Object) any { return string(cluster(o).Spec.SyncMode) }},
			{Name: "Ready", Type: "string", Description: "Whether the member cluster is ready.",
				Cell: func(o runtime.Object) any {
					return conditionStatus(cluster(o).Status.Conditions, clusterv1alpha1.ClusterConditionReady)
				}},
		},
	}}
}
