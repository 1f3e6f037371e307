package resource

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/duration"
)

// Column is one column of the table kubectl get prints.
type Column struct {
	Name        string
	Type        string // "string", "integer", "date", ...
	Description string
	Priority    int32 // 0 = always shown; 1 = shown with -o wide
	Cell        func(obj runtime.Object) any
}

// AgeColumn prints the time since creation, like kubectl does for built-in kinds.
var AgeColumn = Column{
	Name:        "Age",
	Type:        "string",
	Description: "Time since the object was created.",
	Cell: func(obj runtime.Object) any {
		m, err := meta.Accessor(obj)
		if err != nil {
			return "<unknown>"
		}
		return HumanAge(m.GetCreationTimestamp())
	},
}

// HumanAge formats the age of a timestamp as kubectl prints it ("5m", "3d").
func HumanAge(t metav1.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(time.Since(t.Time))
}

// tableConvertor renders objects as metav1.Table rows: NAME, the spec's
// columns, then AGE.
type tableConvertor struct {
	columns []Column
}

func newTableConvertor(cols []Column) tableConvertor {
	all := []Column{{
		Name:        "Name",
		Type:        "string",
		Description: "Name must be unique within a namespace.",
		Cell: func(obj runtime.Object) any {
			m, err := meta.Accessor(obj)
			if err != nil {
				return ""
			}
			return m.GetName()
		},
	}}
	all = append(all, cols...)
	all = append(all, AgeColumn)
	return tableConvertor{columns: all}
}

func (c tableConvertor) ConvertToTable(_ context.Context, obj runtime.Object, opts runtime.Object) (*metav1.Table, error) {
	table := &metav1.Table{}
	noHeaders := false
	if o, ok := opts.(*metav1.TableOptions); ok && o != nil {
		noHeaders = o.NoHeaders
	}
	if !noHeaders {
		for _, col := range c.columns {
			format := ""
			if col.Name == "Name" {
				format = "name"
			}
			table.ColumnDefinitions = append(table.ColumnDefinitions, metav1.TableColumnDefinition{
				Name: col.Name, Type: col.Type, Format: format, Description: col.Description, Priority: col.Priority,
			})
		}
	}
	addRow := func(o runtime.Object) {
		row := metav1.TableRow{Object: runtime.RawExtension{Object: o}, Cells: make([]any, 0, len(c.columns))}
		for _, col := range c.columns {
			row.Cells = append(row.Cells, col.Cell(o))
		}
		table.Rows = append(table.Rows, row)
	}
	if meta.IsListType(obj) {
		items, err := meta.ExtractList(obj)
		if err != nil {
			return nil, fmt.Errorf("extract list items: %w", err)
		}
		for _, item := range items {
			addRow(item)
		}
		if l, err := meta.ListAccessor(obj); err == nil {
			table.ResourceVersion = l.GetResourceVersion()
			table.Continue = l.GetContinue()
			table.RemainingItemCount = l.GetRemainingItemCount()
		}
		return table, nil
	}
	addRow(obj)
	if m, err := meta.Accessor(obj); err == nil {
		table.ResourceVersion = m.GetResourceVersion()
	}
	return table, nil
}
