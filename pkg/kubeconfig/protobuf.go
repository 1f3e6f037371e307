package kubeconfig

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

// Protobuf returns a copy of cfg for typed clientsets (mco's and
// Kubernetes'): requests go as Kubernetes' protobuf and answers come back
// as protobuf, or as JSON for what has no protobuf encoding. Dynamic
// clients set JSON for themselves whatever cfg says.
func Protobuf(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.ContentType = runtime.ContentTypeProtobuf
	c.AcceptContentTypes = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
	return c
}
