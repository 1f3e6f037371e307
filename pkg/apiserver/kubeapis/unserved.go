/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package kubeapis

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"
)

// withoutUnserved hands Kubernetes' storage providers, for the resources
// mco does not serve (NotServed), options whose storage is nothing. Some
// providers build a resource's storage before they ask whether it is
// enabled (storage.k8s.io's VolumeAttachments); a storage never installed
// is never destroyed, and its watch cache kept a watch on etcd open past
// the server's end, which held every shutdown of mco-apiserver until
// etcd's close gave up on it.
type withoutUnserved struct {
	generic.RESTOptionsGetter
	unserved map[schema.GroupResource]bool
}

func newWithoutUnserved(getter generic.RESTOptionsGetter) withoutUnserved {
	unserved := map[schema.GroupResource]bool{}
	for _, r := range NotServed {
		unserved[r.GroupResource()] = true
	}
	return withoutUnserved{RESTOptionsGetter: getter, unserved: unserved}
}

func (g withoutUnserved) GetRESTOptions(resource schema.GroupResource, example runtime.Object) (generic.RESTOptions, error) {
	opts, err := g.RESTOptionsGetter.GetRESTOptions(resource, example)
	if err != nil || !g.unserved[resource] {
		return opts, err
	}
	opts.Decorator = NoStorage
	opts.CountMetricPollPeriod = 0
	return opts, nil
}

// NoStorage is a storage decorator that builds nothing: for a Kubernetes
// storage whose hooks are used but which stores nothing here.
func NoStorage(*storagebackend.ConfigForResource, string, func(runtime.Object) (string, error),
	func() runtime.Object, func() runtime.Object, storage.AttrFunc, storage.IndexerFuncs, *cache.Indexers,
) (storage.Interface, factory.DestroyFunc, error) {
	return nil, func() {}, nil
}
