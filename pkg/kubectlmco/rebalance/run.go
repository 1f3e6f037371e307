package rebalance

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
	"github.com/mco-org/mco/pkg/names"
)

// poll is how often the command looks at the rebalancer and bindings.
const poll = 500 * time.Millisecond

func run(ctx context.Context, f *clients.Factory, mco mcoclient.Interface, fl *flags, args []string, out io.Writer) error {
	if fl.wait && fl.ttl >= 0 && fl.ttl < time.Second {
		return fmt.Errorf("--ttl %s deletes the WorkloadRebalancer as it finishes, before its result can be read: give a TTL of 1s or more, or --wait=false", fl.ttl)
	}
	refs, err := resolve(f, args)
	if err != nil {
		return err
	}
	r := newRebalancer(fl, refs)
	created, err := mco.AppsV1alpha1().WorkloadRebalancers().Create(ctx, r, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create a WorkloadRebalancer: %w", err)
	}
	fmt.Fprintf(out, "workloadrebalancer.apps.karmada.io/%s created\n", created.Name)
	if !fl.wait {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, fl.timeout)
	defer cancel()
	done, err := waitFinished(ctx, mco, created.Name)
	if err != nil {
		return err
	}
	failed := 0
	for _, o := range done.Status.ObservedWorkloads {
		if o.Result != appsv1alpha1.RebalanceSuccessful {
			failed++
			fmt.Fprintln(out, failureLine(o))
			continue
		}
		b, err := waitScheduled(ctx, mco, o.Workload)
		if err != nil {
			return err
		}
		fmt.Fprintln(out, successLine(o.Workload, b))
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d workloads could not be rebalanced", failed, len(done.Status.ObservedWorkloads))
	}
	return nil
}

// resolve turns KIND/NAME arguments into references, by mco's discovery;
// namespaced kinds take -n (or the context's namespace).
func resolve(f *clients.Factory, args []string) ([]appsv1alpha1.ObjectReference, error) {
	mapper, err := f.Flags.ToRESTMapper()
	if err != nil {
		return nil, fmt.Errorf("mco's discovery: %w", err)
	}
	ns, err := f.Namespace()
	if err != nil {
		return nil, err
	}
	var refs []appsv1alpha1.ObjectReference
	for _, arg := range args {
		kind, name, ok := strings.Cut(arg, "/")
		if !ok || kind == "" || name == "" {
			return nil, fmt.Errorf("name each workload as KIND/NAME, such as deployment/web, not %q", arg)
		}
		gvk, err := mapper.KindFor(schema.ParseGroupResource(kind).WithVersion(""))
		if err != nil {
			return nil, fmt.Errorf("mco serves no kind %q: %w", kind, err)
		}
		mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			return nil, fmt.Errorf("kind %s: %w", gvk.Kind, err)
		}
		ref := appsv1alpha1.ObjectReference{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Name: name}
		if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
			ref.Namespace = ns
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// newRebalancer is the WorkloadRebalancer to create; a negative TTL keeps
// it.
func newRebalancer(fl *flags, refs []appsv1alpha1.ObjectReference) *appsv1alpha1.WorkloadRebalancer {
	r := &appsv1alpha1.WorkloadRebalancer{Spec: appsv1alpha1.WorkloadRebalancerSpec{Workloads: refs}}
	if fl.name != "" {
		r.Name = fl.name
	} else {
		r.GenerateName = "rebalance-"
	}
	if fl.ttl >= 0 {
		ttl := int32(fl.ttl.Round(time.Second) / time.Second)
		r.Spec.TTLSecondsAfterFinished = &ttl
	}
	return r
}

// waitFinished waits until every workload of the rebalancer has a result.
func waitFinished(ctx context.Context, mco mcoclient.Interface, name string) (*appsv1alpha1.WorkloadRebalancer, error) {
	var last *appsv1alpha1.WorkloadRebalancer
	err := wait.PollUntilContextCancel(ctx, poll, true, func(ctx context.Context) (bool, error) {
		r, err := mco.AppsV1alpha1().WorkloadRebalancers().Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) && last != nil {
			return false, fmt.Errorf("workloadrebalancer %s was deleted before it was seen finished", name)
		}
		if err != nil {
			return false, fmt.Errorf("get workloadrebalancer %s: %w", name, err)
		}
		last = r
		return r.Status.ObservedGeneration == r.Generation && r.Status.FinishTime != nil, nil
	})
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("workloadrebalancer %s has no result yet; is mco-controller-manager running? (%w)", name, ctx.Err())
	}
	return last, err
}

// waitScheduled waits until the scheduler has made the fresh decision the
// workload's binding asks for.
func waitScheduled(ctx context.Context, mco mcoclient.Interface, w appsv1alpha1.ObjectReference) (*workv1alpha2.ResourceBinding, error) {
	var out *workv1alpha2.ResourceBinding
	err := wait.PollUntilContextCancel(ctx, poll, true, func(ctx context.Context) (bool, error) {
		b, err := getBinding(ctx, mco, w)
		if err != nil {
			return false, err
		}
		out = b
		return rescheduled(&b.ObjectMeta, &b.Spec, &b.Status), nil
	})
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("%s: the scheduler has not placed it afresh yet; is mco-scheduler running? (%w)", describe(w), ctx.Err())
	}
	return out, err
}

// getBinding reads a workload's binding; a ClusterResourceBinding is
// returned in a ResourceBinding's shape.
func getBinding(ctx context.Context, mco mcoclient.Interface, w appsv1alpha1.ObjectReference) (*workv1alpha2.ResourceBinding, error) {
	name := names.Binding(w.Kind, w.Name)
	if w.Namespace == "" {
		crb, err := mco.WorkV1alpha2().ClusterResourceBindings().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, fmt.Errorf("get the binding of %s: %w", describe(w), err)
		}
		return &workv1alpha2.ResourceBinding{ObjectMeta: crb.ObjectMeta, Spec: crb.Spec, Status: crb.Status}, nil
	}
	rb, err := mco.WorkV1alpha2().ResourceBindings(w.Namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("get the binding of %s: %w", describe(w), err)
	}
	return rb, nil
}

// rescheduled tells whether the scheduler has answered the binding's
// reschedule request and its current spec.
func rescheduled(m *metav1.ObjectMeta, spec *workv1alpha2.ResourceBindingSpec, st *workv1alpha2.ResourceBindingStatus) bool {
	if st.SchedulerObservedGeneration < m.Generation || st.LastScheduledTime == nil {
		return false
	}
	return spec.RescheduleTriggeredAt == nil || !st.LastScheduledTime.Before(spec.RescheduleTriggeredAt)
}

// describe names a workload as kubectl does: kind/name, and its namespace.
func describe(w appsv1alpha1.ObjectReference) string {
	s := strings.ToLower(w.Kind) + "/" + w.Name
	if w.Namespace != "" {
		s += " (namespace " + w.Namespace + ")"
	}
	return s
}

// successLine prints a workload's new placement: "deployment/web
// (namespace prod) rebalanced: member1 2, member2 2".
func successLine(w appsv1alpha1.ObjectReference, b *workv1alpha2.ResourceBinding) string {
	parts := make([]string, 0, len(b.Spec.Clusters))
	for _, c := range b.Spec.Clusters {
		if b.Spec.Replicas > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c.Name, c.Replicas))
		} else {
			parts = append(parts, c.Name)
		}
	}
	placed := strings.Join(parts, ", ")
	if placed == "" {
		placed = "no cluster (see kubectl describe of the template)"
	}
	return fmt.Sprintf("%s rebalanced: %s", describe(w), placed)
}

// failureLine says why a workload could not be rebalanced.
func failureLine(o appsv1alpha1.ObservedWorkload) string {
	why := string(o.Reason)
	if o.Reason == appsv1alpha1.RebalanceObjectNotFound {
		why += ": it does not exist, or no policy propagates it"
	}
	if why == "" {
		why = "no result"
	}
	return fmt.Sprintf("%s failed: %s", describe(o.Workload), why)
}
