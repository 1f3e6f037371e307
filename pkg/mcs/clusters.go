package mcs

import (
	"slices"

	"k8s.io/apimachinery/pkg/util/sets"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
)

// Clusters resolves where a MultiClusterService's endpoints come from and
// go to, among the joined clusters: providerClusters (with the deprecated
// serviceProvisionClusters), consumerClusters (with the deprecated
// serviceConsumptionClusters and range.clusterNames); an empty side means
// every joined cluster, as in Karmada. Named clusters that have not joined
// are left out and returned as unknown, sorted, for the status to say.
func Clusters(spec *networkingv1alpha1.MultiClusterServiceSpec, joined []string) (providers, consumers, unknown []string) {
	all := sets.New(joined...)
	providerNames := sets.New(spec.ServiceProvisionClusters...)
	for _, c := range spec.ProviderClusters {
		providerNames.Insert(c.Name)
	}
	consumerNames := sets.New(spec.ServiceConsumptionClusters...).Insert(spec.Range.ClusterNames...)
	for _, c := range spec.ConsumerClusters {
		consumerNames.Insert(c.Name)
	}
	resolve := func(named sets.Set[string]) []string {
		if named.Len() == 0 {
			return sets.List(all)
		}
		return sets.List(named.Intersection(all))
	}
	missing := providerNames.Union(consumerNames).Difference(all)
	return resolve(providerNames), resolve(consumerNames), sets.List(missing)
}

// CrossCluster tells whether a MultiClusterService asks for endpoints
// across clusters (the only type mco acts on; LoadBalancer is reported as
// not implemented).
func CrossCluster(spec *networkingv1alpha1.MultiClusterServiceSpec) bool {
	return slices.Contains(spec.Types, networkingv1alpha1.ExposureTypeCrossCluster)
}
