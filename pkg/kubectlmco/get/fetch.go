package get

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// tableAccept asks for a server-side table, as kubectl does, and plain JSON
// from a server that cannot make one.
const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"

// query is what to read from each member.
type query struct {
	kind      string
	namespace string // "" for all namespaces
	names     []string
	selector  string
	// table asks for the member's table; otherwise the objects.
	table bool
}

// answer is what one member returned: the table rows, or the objects.
type answer struct {
	table   *metav1.Table
	objects []unstructured.Unstructured
	// missing lists the names the member does not have.
	missing []string
	// namespaced tells whether the kind is namespaced in the member.
	namespaced bool
}

// fetch reads the query's objects from the member reached with cfg.
func fetch(ctx context.Context, cfg *rest.Config, q query) (*answer, error) {
	// One plain request first: a member that cannot answer (not Ready,
	// forbidden) fails here with the server's own message, before
	// discovery would hide it.
	probe, err := restClient(cfg, schema.GroupVersion{Version: "v1"})
	if err != nil {
		return nil, err
	}
	if err := probe.Get().AbsPath("/api").Do(ctx).Error(); err != nil {
		return nil, err
	}
	res, err := resolve(ctx, cfg, q.kind)
	if err != nil {
		return nil, err
	}
	client, err := restClient(cfg, res.gvr.GroupVersion())
	if err != nil {
		return nil, err
	}
	request := func() *rest.Request {
		r := client.Get().Resource(res.gvr.Resource)
		if res.namespaced && q.namespace != "" {
			r = r.Namespace(q.namespace)
		}
		if q.table {
			r = r.SetHeader("Accept", tableAccept)
		}
		return r
	}
	a := &answer{namespaced: res.namespaced}
	if len(q.names) == 0 {
		raw, err := request().Param("labelSelector", q.selector).Do(ctx).Raw()
		if err != nil {
			return nil, err
		}
		return a, a.add(raw, q.table)
	}
	for _, name := range q.names {
		raw, err := request().Name(name).Do(ctx).Raw()
		if apierrors.IsNotFound(err) {
			a.missing = append(a.missing, name)
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := a.add(raw, q.table); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// restClient is a raw client of one group version.
func restClient(cfg *rest.Config, gv schema.GroupVersion) (*rest.RESTClient, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.GroupVersion = &gv
	cfg.APIPath = "/apis"
	if gv.Group == "" {
		cfg.APIPath = "/api"
	}
	cfg.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	client, err := rest.RESTClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("client of %s: %w", gv, err)
	}
	return client, nil
}

// add decodes one response: a table, a list or one object.
func (a *answer) add(raw []byte, table bool) error {
	if table {
		var t metav1.Table
		if err := json.Unmarshal(raw, &t); err != nil {
			return fmt.Errorf("decode the table: %w", err)
		}
		if t.Kind != "Table" {
			return fmt.Errorf("the server answered with %q, not a Table", t.Kind)
		}
		if a.table == nil {
			a.table = &t
		} else {
			a.table.Rows = append(a.table.Rows, t.Rows...)
		}
		return nil
	}
	// The scheme decodes a list into an UnstructuredList and gives its
	// items the kind the list implies (a server omits it in typed lists).
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(raw, nil, nil)
	if err != nil {
		return fmt.Errorf("decode the answer: %w", err)
	}
	switch o := obj.(type) {
	case *unstructured.UnstructuredList:
		a.objects = append(a.objects, o.Items...)
	case *unstructured.Unstructured:
		a.objects = append(a.objects, *o)
	}
	return nil
}
