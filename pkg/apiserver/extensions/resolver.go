package extensions

import (
	"fmt"
	"net/url"
)

// unreachableServices resolves no Service: mco-apiserver runs outside the
// members, where the Services a conversion webhook or an APIService name
// live. A conversion webhook given by clientConfig.url is called directly.
type unreachableServices struct{}

func (unreachableServices) ResolveEndpoint(namespace, name string, port int32) (*url.URL, error) {
	return nil, fmt.Errorf("mco-apiserver cannot reach Service %s/%s (port %d): Services on mco are templates for the member clusters; "+
		"give a conversion webhook a clientConfig.url that mco-apiserver can reach", namespace, name, port)
}
