package v1alpha1

import (
	"net/url"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"
)

// ClusterProxyOptions are the query options of the clusters/proxy
// subresource.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ClusterProxyOptions struct {
	metav1.TypeMeta `json:",inline"`

	// Path is the path below the member's API endpoint the request goes to.
	Path string `json:"path,omitempty" protobuf:"bytes,1,opt,name=path"`
}

// addProxyOptionsConversion lets the API server decode the subresource's
// query parameters into ClusterProxyOptions.
func addProxyOptionsConversion(scheme *runtime.Scheme) error {
	return scheme.AddConversionFunc((*url.Values)(nil), (*ClusterProxyOptions)(nil), func(a, b any, _ conversion.Scope) error {
		in, out := a.(*url.Values), b.(*ClusterProxyOptions)
		if v := (*in)["path"]; len(v) > 0 {
			out.Path = v[0]
		}
		return nil
	})
}
