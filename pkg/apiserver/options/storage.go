package options

import (
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	genericapiserver "k8s.io/apiserver/pkg/server"
	serverstorage "k8s.io/apiserver/pkg/server/storage"

	"github.com/mco-org/mco/pkg/registry/resource"
)

// apisPackage is where mco's own kinds (Karmada's groups and mco's) live.
const apisPackage = "github.com/mco-org/mco/pkg/apis/"

// applyStorage configures etcd storage and audit.
//
// Every kind with a protobuf encoding is stored as protobuf, as
// kube-apiserver stores its own: smaller and faster to decode. That is
// every kind of k8s.io/api and every kind of mco's own groups. An object
// an earlier mco stored as JSON still reads (the storage decoder
// recognizes both) and is stored as protobuf on its next write.
// Keys of mco's own kinds carry their group, as CRDs' do in
// kube-apiserver (/registry/<group>/<resource>/...), so that no plural can
// collide with a built-in one.
func (o *Options) applyStorage(gc *genericapiserver.Config, scheme *runtime.Scheme, codecs serializer.CodecFactory, resources []*resource.Spec) error {
	encoding := serverstorage.NewDefaultResourceEncodingConfig(scheme)
	enabled := serverstorage.NewResourceConfig()
	for _, r := range resources {
		encoding.SetResourceEncoding(r.Resource, r.GroupVersion(), r.InternalGroupVersion())
		enabled.EnableVersions(r.GroupVersion())
	}
	factory := serverstorage.NewDefaultStorageFactory(o.Etcd.StorageConfig, o.Etcd.DefaultStorageMediaType,
		codecs, encoding, enabled, nil)
	for _, r := range resources {
		obj := r.New()
		if _, ok := obj.(protoMarshaler); ok {
			factory.SetSerializer(r.Resource, runtime.ContentTypeProtobuf, nil)
		}
		if ownKind(obj) {
			factory.SetResourceEtcdPrefix(r.Resource, r.Resource.Group+"/"+r.Resource.Resource)
		}
	}
	if err := o.Audit.ApplyTo(gc); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	if err := o.Etcd.ApplyWithStorageFactoryTo(factory, gc); err != nil {
		return fmt.Errorf("etcd storage: %w", err)
	}
	gc.RESTOptionsGetter = o.storageOn(gc.RESTOptionsGetter)
	return nil
}

// protoMarshaler is implemented by types generated with protobuf encodings.
type protoMarshaler interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// ownKind tells whether obj is one of mco's own kinds.
func ownKind(obj runtime.Object) bool {
	return strings.HasPrefix(reflect.TypeOf(obj).Elem().PkgPath(), apisPackage)
}
