package execution

import (
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/names"
)

// version is what an apply left in the member: the object's generation
// (changed only by spec edits, for kinds that have one) and its
// resourceVersion (for kinds that have no generation).
type version struct {
	generation      int64
	resourceVersion string
}

func versionOf(u *unstructured.Unstructured) version {
	return version{generation: u.GetGeneration(), resourceVersion: u.GetResourceVersion()}
}

// drifted tells whether a member object changed since mco applied it:
// another generation for kinds with one, another resourceVersion for
// kinds without. Status writes by the member's controllers change
// neither generation nor, for kinds with a generation, count. Without a
// record (mco restarted) the object is re-applied once to be sure.
func drifted(recorded version, known bool, now metav1.Object) bool {
	if !known {
		return true
	}
	if now.GetGeneration() > 0 || recorded.generation > 0 {
		return now.GetGeneration() != recorded.generation
	}
	return now.GetResourceVersion() != recorded.resourceVersion
}

// driftWatch puts back what is changed or deleted in members behind mco's
// back: it records what each apply left and, on the member informers of
// the resources in use, re-queues the Work of an object that differs or
// is gone.
type driftWatch struct {
	enqueue func(cluster, work string)

	mu      sync.Mutex
	applied map[string]version
	watched map[string]map[schema.GroupVersionResource]bool
	// namespaces known to exist in members ("cluster|namespace").
	namespaces map[string]bool
}

func newDriftWatch(enqueue func(cluster, work string)) *driftWatch {
	return &driftWatch{enqueue: enqueue, applied: map[string]version{}, watched: map[string]map[schema.GroupVersionResource]bool{},
		namespaces: map[string]bool{}}
}

func objectKey(cluster string, gvr schema.GroupVersionResource, namespace, name string) string {
	return cluster + "|" + gvr.String() + "|" + namespace + "/" + name
}

// record notes what an apply left.
func (d *driftWatch) record(cluster string, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.applied[objectKey(cluster, gvr, obj.GetNamespace(), obj.GetName())] = versionOf(obj)
}

// known tells whether mco applied an object and saw it since (so it
// exists and is mco's).
func (d *driftWatch) known(cluster string, gvr schema.GroupVersionResource, namespace, name string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.applied[objectKey(cluster, gvr, namespace, name)]
	return ok
}

// forget drops the record of an object withdrawn by mco.
func (d *driftWatch) forget(cluster string, gvr schema.GroupVersionResource, namespace, name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.applied, objectKey(cluster, gvr, namespace, name))
}

// forgetCluster drops everything of a cluster whose clients were replaced.
func (d *driftWatch) forgetCluster(cluster string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.watched, cluster)
	for k := range d.namespaces {
		if strings.HasPrefix(k, cluster+"|") {
			delete(d.namespaces, k)
		}
	}
}

// namespaceKnown tells whether a namespace was seen in a member; setNamespace
// records (or, with false, forgets) it.
func (d *driftWatch) namespaceKnown(cluster, ns string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.namespaces[cluster+"|"+ns]
}

func (d *driftWatch) setNamespace(cluster, ns string, known bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if known {
		d.namespaces[cluster+"|"+ns] = true
	} else {
		delete(d.namespaces, cluster+"|"+ns)
	}
}

// watch registers, once per member and resource, the handlers on the
// member informer of mco's objects.
func (d *driftWatch) watch(c *member.Clients, gvr schema.GroupVersionResource) {
	d.mu.Lock()
	if d.watched[c.Cluster] == nil {
		d.watched[c.Cluster] = map[schema.GroupVersionResource]bool{}
	}
	if d.watched[c.Cluster][gvr] {
		d.mu.Unlock()
		return
	}
	d.watched[c.Cluster][gvr] = true
	d.mu.Unlock()
	cluster := c.Cluster
	_, _ = c.ObjectInformer(gvr).AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj any) {
			u, ok := member.MetaOf(obj)
			if !ok {
				return
			}
			d.mu.Lock()
			recorded, known := d.applied[objectKey(cluster, gvr, u.GetNamespace(), u.GetName())]
			d.mu.Unlock()
			if drifted(recorded, known, u) {
				d.requeue(cluster, u)
			}
		},
		DeleteFunc: func(obj any) {
			if u, ok := member.MetaOf(obj); ok {
				d.forget(cluster, gvr, u.GetNamespace(), u.GetName())
				d.requeue(cluster, u)
			}
		},
	})
	c.Start()
}

// requeue queues the Work a member object came from.
func (d *driftWatch) requeue(cluster string, u metav1.Object) {
	a := u.GetAnnotations()
	ns, name := a[workv1alpha1.WorkNamespaceAnnotation], a[workv1alpha1.WorkNameAnnotation]
	if c, ok := names.ClusterOf(ns); ok && c == cluster && name != "" {
		d.enqueue(cluster, name)
	}
}
