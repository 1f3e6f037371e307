package builtin

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/printers"
	printersinternal "k8s.io/kubernetes/pkg/printers/internalversion"
	printerstorage "k8s.io/kubernetes/pkg/printers/storage"
)

// kubeTables are Kubernetes' own table printers, those kube-apiserver
// answers `kubectl get` with.
var kubeTables = printerstorage.TableConvertor{TableGenerator: printers.NewTableGenerator().With(printersinternal.AddHandlers)}

// kubeTable renders a built-in kind's tables with Kubernetes' printers:
// the same columns and cells as kube-apiserver's. The printers read the
// internal version; the rows keep the served objects, which is what mco's
// codecs encode when a client asks for them.
type kubeTable struct{}

var _ rest.TableConvertor = kubeTable{}

func (kubeTable) ConvertToTable(ctx context.Context, obj runtime.Object, opts runtime.Object) (*metav1.Table, error) {
	in, err := toInternal(obj)
	if err != nil {
		return nil, err
	}
	table, err := kubeTables.ConvertToTable(ctx, in, opts)
	if err != nil {
		return nil, err
	}
	served := []runtime.Object{obj}
	if meta.IsListType(obj) {
		if served, err = meta.ExtractList(obj); err != nil {
			return nil, fmt.Errorf("table of %T: %w", obj, err)
		}
	}
	if len(served) == len(table.Rows) {
		for i := range table.Rows {
			table.Rows[i].Object = runtime.RawExtension{Object: served[i]}
		}
	}
	return table, nil
}

// toInternal converts an object or list of a served version to its
// internal version in Kubernetes' scheme.
func toInternal(obj runtime.Object) (runtime.Object, error) {
	kinds, _, err := legacyscheme.Scheme.ObjectKinds(obj)
	if err != nil {
		return nil, fmt.Errorf("kind of %T: %w", obj, err)
	}
	in, err := legacyscheme.Scheme.New(kinds[0].GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return nil, fmt.Errorf("internal version of %s: %w", kinds[0], err)
	}
	if err := legacyscheme.Scheme.Convert(obj, in, nil); err != nil {
		return nil, fmt.Errorf("convert %s to the internal version: %w", kinds[0], err)
	}
	return in, nil
}
