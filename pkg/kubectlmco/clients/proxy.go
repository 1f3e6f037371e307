package clients

import (
	"strings"

	"k8s.io/client-go/rest"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// ProxyConfig returns a copy of mco's rest.Config that reaches the member
// cluster through mco's cluster proxy: every path below
// /apis/cluster.karmada.io/v1alpha1/clusters/<cluster>/proxy goes to the
// member, as the caller.
func ProxyConfig(mco *rest.Config, cluster string) *rest.Config {
	cfg := rest.CopyConfig(mco)
	cfg.Host = ProxyURL(mco.Host, cluster)
	return cfg
}

// ProxyURL is the base URL of a member's API through mco at host.
func ProxyURL(host, cluster string) string {
	return strings.TrimSuffix(host, "/") + "/apis/" + clusterv1alpha1.SchemeGroupVersion.String() +
		"/" + clusterv1alpha1.ResourcePluralCluster + "/" + cluster + "/proxy"
}
