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
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"
)

// fixedGetter answers every resource with a storage that says it was built.
type fixedGetter struct{}

func (fixedGetter) GetRESTOptions(schema.GroupResource, runtime.Object) (generic.RESTOptions, error) {
	return generic.RESTOptions{CountMetricPollPeriod: time.Minute, Decorator: func(*storagebackend.ConfigForResource, string, func(runtime.Object) (string, error),
		func() runtime.Object, func() runtime.Object, storage.AttrFunc, storage.IndexerFuncs, *cache.Indexers,
	) (storage.Interface, factory.DestroyFunc, error) {
		return storage.Interface(nil), nil, nil
	}}, nil
}

func TestUnservedResourcesGetNoStorage(t *testing.T) {
	t.Parallel()
	g := newWithoutUnserved(fixedGetter{})
	built := func(gr schema.GroupResource) bool {
		opts, err := g.GetRESTOptions(gr, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, destroy, _ := opts.Decorator(nil, "", nil, nil, nil, nil, nil, nil)
		// The fixed getter's decorator gives no destroy function;
		// NoStorage gives a no-op one and no count polling.
		if destroy != nil && opts.CountMetricPollPeriod != 0 {
			t.Errorf("%s: storage with nothing to destroy yet polling its count", gr)
		}
		return destroy == nil
	}
	for _, r := range NotServed {
		if built(r.GroupResource()) {
			t.Errorf("%s is not served, yet its storage is built", r.GroupResource())
		}
	}
	for _, gr := range []schema.GroupResource{{Group: "storage.k8s.io", Resource: "storageclasses"}, {Group: "rbac.authorization.k8s.io", Resource: "roles"}} {
		if !built(gr) {
			t.Errorf("%s is served, yet its storage is not built", gr)
		}
	}
}
