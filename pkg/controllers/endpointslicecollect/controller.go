// Package endpointslicecollect runs in mco-agent: it reports its Pull
// member's own EndpointSlices of the Services mco carries across clusters
// (those a ServiceExport applied in the member exports, those a
// MultiClusterService names the member a provider of) as collected Works
// in the member's execution space, never dispatched, which mco turns into
// its own copies. The agent may write no other Works (agentrestriction).
package endpointslicecollect

import (
	"context"
	"encoding/json"
	"fmt"

	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha1"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/works"
)

// exportIndex indexes the agent's Works that apply a ServiceExport by the
// Service it exports ("<namespace>/<name>").
const exportIndex = "mcs.mco-org.github.io/exported-service"

// key is one Service in the member.
type key struct{ Namespace, Name string }

// Controller reports one Pull member's slices.
type Controller struct {
	cluster string
	mco     mcoclient.Interface
	works   worklisters.WorkLister
	index   cache.Indexer
	writer  *works.Writer
	clients *member.Clients
	loop    *controller.Controller[key]
}

// New returns the controller of the agent of cluster.
func New(cluster string) shared.InitFunc {
	return func(_ context.Context, c *shared.Context) (shared.Runner, error) {
		workInf := c.MCOInformers.Work().V1alpha1().Works()
		if err := workInf.Informer().AddIndexers(cache.Indexers{exportIndex: exportedService}); err != nil {
			return nil, fmt.Errorf("endpointslice collect controller: %w", err)
		}
		clients, err := c.Members.Get(cluster)
		if err != nil {
			return nil, fmt.Errorf("endpointslice collect controller: %w", err)
		}
		writer, err := works.NewWriter(c.MCO, workInf.Informer(), 256)
		if err != nil {
			return nil, fmt.Errorf("endpointslice collect controller: %w", err)
		}
		m := &Controller{cluster: cluster, mco: c.MCO, works: workInf.Lister(), index: workInf.Informer().GetIndexer(),
			writer: writer, clients: clients}
		m.loop = controller.New("endpointslice-collect", m.sync)
		slices := clients.Typed.Discovery().V1().EndpointSlices().Informer()
		m.loop.WaitFor(workInf.Informer().HasSynced, slices.HasSynced)
		if _, err := workInf.Informer().AddEventHandler(m.handler(workServices)); err != nil {
			return nil, fmt.Errorf("endpointslice collect controller: %w", err)
		}
		if _, err := slices.AddEventHandler(m.handler(func(obj any) []key {
			s, ok := obj.(*discoveryv1.EndpointSlice)
			if !ok || !mcs.Own(s) {
				return nil
			}
			return []key{{s.Namespace, mcs.ServiceOf(s)}}
		})); err != nil {
			return nil, fmt.Errorf("endpointslice collect controller: %w", err)
		}
		return func(ctx context.Context) error {
			clients.Start()
			return m.loop.Run(ctx, 1)
		}, nil
	}
}

// handler enqueues the Services an object concerns, on every event.
func (m *Controller) handler(of func(any) []key) cache.ResourceEventHandler {
	enqueue := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		for _, k := range of(obj) {
			m.loop.Enqueue(k)
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: enqueue, UpdateFunc: func(_, n any) { enqueue(n) }, DeleteFunc: enqueue}
}

// workServices are the Services a Work concerns here: the one a
// ServiceExport it applies exports, a MultiClusterService it carries
// names, or whose slice it reports.
func workServices(obj any) []key {
	w, ok := obj.(*workv1alpha1.Work)
	if !ok {
		return nil
	}
	var out []key
	if n := w.Labels[mcs.ProviderNameLabel]; n != "" {
		out = append(out, key{w.Labels[mcs.ProviderNamespaceLabel], n})
	}
	if n := w.Labels[mcs.CollectedNameLabel]; n != "" {
		out = append(out, key{w.Labels[mcs.CollectedNamespaceLabel], n})
	}
	exported, _ := exportedService(w)
	for _, e := range exported {
		if ns, name, err := cache.SplitMetaNamespaceKey(e); err == nil {
			out = append(out, key{ns, name})
		}
	}
	return out
}

// exportedService indexes a Work that applies a ServiceExport by the
// Service it exports.
func exportedService(obj any) ([]string, error) {
	w, ok := obj.(*workv1alpha1.Work)
	if !ok || mcs.NotForMember(w) {
		return nil, nil
	}
	var out []string
	for _, m := range w.Spec.Workload.Manifests {
		var head struct {
			metav1.TypeMeta
			Metadata struct{ Namespace, Name string } `json:"metadata"`
		}
		if json.Unmarshal(m.Raw, &head) != nil {
			continue
		}
		if head.GetObjectKind().GroupVersionKind().GroupKind() == mcs.ServiceExportGK {
			out = append(out, head.Metadata.Namespace+"/"+head.Metadata.Name)
		}
	}
	return out, nil
}
