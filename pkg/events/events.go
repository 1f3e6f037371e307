// Package events records what mco's controllers decide as Kubernetes
// Events on mco-apiserver, on the objects users look at (templates and
// bindings), with Karmada's reasons so that `kubectl describe` reads alike.
package events

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/record"

	mcoscheme "github.com/mco-org/mco/pkg/generated/clientset/versioned/scheme"
)

// Reasons (Karmada's names).
const (
	ApplyPolicySucceed      = "ApplyPolicySucceed"
	ApplyPolicyFailed       = "ApplyPolicyFailed"
	PreemptPolicySucceed    = "PreemptPolicySucceed"
	ScheduleBindingSucceed  = "ScheduleBindingSucceed"
	ScheduleBindingFailed   = "ScheduleBindingFailed"
	SyncWorkSucceed         = "SyncSucceed"
	SyncWorkFailed          = "SyncFailed"
	ApplyOverrideFailed     = "ApplyOverridePolicyFailed"
	WorkDispatching         = "WorkDispatching"
	ResourceNotPropagatable = "ResourceNotPropagatable"

	EvictWorkloadFromClusterSucceed = "EvictWorkloadFromClusterSucceed"
	EvictWorkloadFromClusterFailed  = "EvictWorkloadFromClusterFailed"

	// Services across clusters.
	SyncServiceSucceed        = "SyncServiceSucceed"
	SyncServiceFailed         = "SyncServiceFailed"
	SyncDerivedServiceSucceed = "SyncDerivedServiceSucceed"
	SyncDerivedServiceFailed  = "SyncDerivedServiceFailed"
)

// ApplyPolicySkipped (mco's own) tells that a policy selects a template
// another object propagates (a MultiClusterService's Service): the policy
// is not applied to it.
const ApplyPolicySkipped = "ApplyPolicySkipped"

// NewRecorder returns a recorder writing Events to mco-apiserver as
// component, stopped when ctx ends.
func NewRecorder(ctx context.Context, kube kubernetes.Interface, component string) record.EventRecorder {
	s := runtime.NewScheme()
	_ = scheme.AddToScheme(s)
	_ = mcoscheme.AddToScheme(s)
	b := record.NewBroadcaster(record.WithContext(ctx))
	b.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: kube.CoreV1().Events("")})
	go func() {
		<-ctx.Done()
		b.Shutdown()
	}()
	return b.NewRecorder(s, corev1.EventSource{Component: component})
}

// Ref points an Event at an object known only by reference (a template
// named in a binding or a manifest).
func Ref(apiVersion, kind, namespace, name string, uid types.UID) *corev1.ObjectReference {
	return &corev1.ObjectReference{APIVersion: apiVersion, Kind: kind, Namespace: namespace, Name: name, UID: uid}
}
