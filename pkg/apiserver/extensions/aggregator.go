package extensions

import (
	"fmt"

	apiextensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	genericapiserver "k8s.io/apiserver/pkg/server"
	aggregatorapiserver "k8s.io/kube-aggregator/pkg/apiserver"
	controlplaneapiserver "k8s.io/kubernetes/pkg/controlplane/apiserver"
)

// NewExtensions builds the apiextensions server, last in the chain.
func (c *Configs) NewExtensions() (*apiextensionsapiserver.CustomResourceDefinitions, error) {
	s, err := c.Extensions.Complete().New(genericapiserver.NewEmptyDelegate())
	if err != nil {
		return nil, fmt.Errorf("create apiextensions server: %w", err)
	}
	return s, nil
}

// NewAggregator builds the aggregator in front of mco's server: every group
// version served behind it gets a local APIService (kept by the
// autoregistration controller), each CRD's group versions too, so that
// /apis, /api and OpenAPI v2 and v3 list them all.
func (c *Configs) NewAggregator(mco genericapiserver.DelegationTarget, ext *apiextensionsapiserver.CustomResourceDefinitions) (*aggregatorapiserver.APIAggregator, error) {
	crds := ext.Informers.Apiextensions().V1().CustomResourceDefinitions()
	s, err := controlplaneapiserver.CreateAggregatorServer(c.Aggregator.Complete(), mco, crds, true, Priorities(mco.ListedPaths()))
	if err != nil {
		return nil, fmt.Errorf("create aggregator: %w", err)
	}
	return s, nil
}
