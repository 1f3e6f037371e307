package get

import (
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// ClusterAnnotation names, on objects printed with -o yaml or json, the
// member cluster each was read from.
const ClusterAnnotation = "kubectl-mco/cluster"

// memberTable is one member's answer.
type memberTable struct {
	cluster string
	table   *metav1.Table
}

// mergeTables puts the rows of every member's table into one, with a
// CLUSTER column first and, withNamespace, a NAMESPACE column next. The
// members' columns are matched by name; a column only some members have
// is empty for the others.
func mergeTables(tables []memberTable, withNamespace bool) *metav1.Table {
	out := &metav1.Table{ColumnDefinitions: []metav1.TableColumnDefinition{{Name: "Cluster", Type: "string"}}}
	if withNamespace {
		out.ColumnDefinitions = append(out.ColumnDefinitions, metav1.TableColumnDefinition{Name: "Namespace", Type: "string"})
	}
	fixed := len(out.ColumnDefinitions)
	index := map[string]int{}
	for _, mt := range tables {
		for _, col := range mt.table.ColumnDefinitions {
			if _, ok := index[col.Name]; !ok {
				index[col.Name] = len(out.ColumnDefinitions)
				out.ColumnDefinitions = append(out.ColumnDefinitions, col)
			}
		}
	}
	for _, mt := range tables {
		for _, row := range mt.table.Rows {
			cells := make([]any, len(out.ColumnDefinitions))
			cells[0] = mt.cluster
			if withNamespace {
				cells[1] = rowNamespace(row)
			}
			for i, cell := range row.Cells {
				if i < len(mt.table.ColumnDefinitions) {
					cells[index[mt.table.ColumnDefinitions[i].Name]] = cell
				}
			}
			for i := fixed; i < len(cells); i++ {
				if cells[i] == nil {
					cells[i] = ""
				}
			}
			out.Rows = append(out.Rows, metav1.TableRow{Cells: cells, Object: row.Object})
		}
	}
	return out
}

// rowNamespace reads the namespace from the metadata a server sends with
// each row.
func rowNamespace(row metav1.TableRow) string {
	if len(row.Object.Raw) == 0 {
		return ""
	}
	var m metav1.PartialObjectMetadata
	if err := json.Unmarshal(row.Object.Raw, &m); err != nil {
		return ""
	}
	return m.Namespace
}

// memberObjects is one member's objects.
type memberObjects struct {
	cluster string
	objects []unstructured.Unstructured
}

// annotated returns every member's objects in order, each annotated with
// ClusterAnnotation.
func annotated(members []memberObjects) []runtime.Object {
	var out []runtime.Object
	for _, m := range members {
		for i := range m.objects {
			obj := m.objects[i].DeepCopy()
			annotations := obj.GetAnnotations()
			if annotations == nil {
				annotations = map[string]string{}
			}
			annotations[ClusterAnnotation] = m.cluster
			obj.SetAnnotations(annotations)
			out = append(out, obj)
		}
	}
	return out
}
