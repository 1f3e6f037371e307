package get

import (
	"fmt"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/printers"
)

// printTable prints a table as kubectl does; -o wide shows the columns of
// priority above zero.
func (o *options) printTable(t *metav1.Table, out io.Writer) error {
	p := printers.NewTablePrinter(printers.PrintOptions{Wide: o.wide, NoHeaders: o.noHeaders})
	if err := p.PrintObj(t, out); err != nil {
		return fmt.Errorf("print the table: %w", err)
	}
	return nil
}

// printObjects prints one object alone when single, or else a v1 List of
// the objects, as kubectl does.
func printObjects(p printers.ResourcePrinter, objs []runtime.Object, single bool, out io.Writer) error {
	if single && len(objs) == 1 {
		return p.PrintObj(objs[0], out)
	}
	list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}}}
	for _, obj := range objs {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			return fmt.Errorf("convert %T: %w", obj, err)
		}
		list.Items = append(list.Items, unstructured.Unstructured{Object: u})
	}
	return p.PrintObj(list, out)
}
