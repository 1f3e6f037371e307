package mcs

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// Clusters resolves where a MultiClusterService's endpoints come from and
// go to, among the joined clusters: providerClusters (with the deprecated
// serviceProvisionClusters), consumerClusters (with the deprecated
// serviceConsumptionClusters and range.clusterNames); an empty side means
// every joined cluster, as in Karmada. Named clusters that have not joined
// are left out and returned as unknown, sorted, for the status to say.
func Clusters(spec *networkingv1alpha1.MultiClusterServiceSpec, joined []string) (providers, consumers, unknown []string) {
	all := sets.New(joined...)
	providerNames, consumerNames := named(spec)
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

// named are the clusters each side names, the deprecated fields included.
func named(spec *networkingv1alpha1.MultiClusterServiceSpec) (providers, consumers sets.Set[string]) {
	providers = sets.New(spec.ServiceProvisionClusters...)
	for _, c := range spec.ProviderClusters {
		providers.Insert(c.Name)
	}
	consumers = sets.New(spec.ServiceConsumptionClusters...).Insert(spec.Range.ClusterNames...)
	for _, c := range spec.ConsumerClusters {
		consumers.Insert(c.Name)
	}
	return providers, consumers
}

// ServicePlacement is where a MultiClusterService propagates its Service:
// providers ∪ consumers by name, or every cluster when either side is
// empty (it then means every joined cluster). Clusters named before they
// join get the Service when they join. A failed cluster keeps it (its
// endpoints are withdrawn instead): the Service is there when it recovers.
func ServicePlacement(spec *networkingv1alpha1.MultiClusterServiceSpec) *policyv1alpha1.Placement {
	p := &policyv1alpha1.Placement{ClusterTolerations: []corev1.Toleration{
		{Key: clusterv1alpha1.TaintClusterNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
		{Key: clusterv1alpha1.TaintClusterUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	}}
	providers, consumers := named(spec)
	if providers.Len() > 0 && consumers.Len() > 0 {
		p.ClusterAffinity = &policyv1alpha1.ClusterAffinity{ClusterNames: sets.List(providers.Union(consumers))}
	}
	return p
}
