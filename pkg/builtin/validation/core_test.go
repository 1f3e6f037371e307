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

package validation

import (
	"strings"
	"testing"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/mco-org/mco/pkg/builtin/defaults"
)

func validNamespace() *corev1.Namespace {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}
	defaults.Namespace(ns)
	return ns
}

func TestValidateNamespace(t *testing.T) {
	t.Parallel()
	runCases(t, validNamespace, ValidateNamespace, []testCase[*corev1.Namespace]{
		{name: "A defaulted namespace is valid.", mutate: noChange[*corev1.Namespace]},
		{name: "A namespace name of 63 characters is valid.", mutate: func(ns *corev1.Namespace) { ns.Name = strings.Repeat("a", 63) }},
		{name: "A namespace name of 64 characters is too long for a DNS label.", mutate: func(ns *corev1.Namespace) { ns.Name = strings.Repeat("a", 64) },
			want: []wantErr{invalid("metadata.name")}},
		{name: "A dotted namespace name is a subdomain but not a DNS label.", mutate: func(ns *corev1.Namespace) { ns.Name = "team.a" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "A namespace may not itself be in a namespace.", mutate: func(ns *corev1.Namespace) { ns.Namespace = "default" },
			want: []wantErr{forbidden("metadata.namespace")}},
		{name: "A generateName ending in a dash is valid.", mutate: func(ns *corev1.Namespace) { ns.GenerateName = "team-" }},
		{name: "A bad label value is reported at the labels.", mutate: func(ns *corev1.Namespace) { ns.Labels["owner"] = "a b" },
			want: []wantErr{invalid("metadata.labels")}},
		{name: "A domain-prefixed finalizer is valid.", mutate: func(ns *corev1.Namespace) {
			ns.Spec.Finalizers = append(ns.Spec.Finalizers, "example.com/cleanup")
		}},
		{name: "An unprefixed finalizer other than kubernetes is invalid.", mutate: func(ns *corev1.Namespace) {
			ns.Spec.Finalizers = append(ns.Spec.Finalizers, "cleanup")
		}, want: []wantErr{invalid("spec.finalizers[1]")}},
		{name: "A finalizer that is not a qualified name is invalid.", mutate: func(ns *corev1.Namespace) {
			ns.Spec.Finalizers = []corev1.FinalizerName{"example.com/bad name"}
		}, want: []wantErr{invalid("spec.finalizers[0]")}},
		{name: "An unknown phase is not supported.", mutate: func(ns *corev1.Namespace) { ns.Status.Phase = "Deleted" },
			want: []wantErr{notSupported("status.phase")}},
	})
}

func TestValidateNamespaceUpdate(t *testing.T) {
	t.Parallel()
	runUpdateCases(t, validNamespace, ValidateNamespaceUpdate, []updateCase[*corev1.Namespace]{
		{name: "Adding a label is a valid update.", mutate: func(ns, _ *corev1.Namespace) { ns.Labels["team"] = "a" }},
		{name: "Renaming a namespace is invalid.", mutate: func(ns, _ *corev1.Namespace) { ns.Name = "team-b" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "A bad finalizer is rejected on update too.", mutate: func(ns, _ *corev1.Namespace) {
			ns.Spec.Finalizers = []corev1.FinalizerName{"cleanup"}
		}, want: []wantErr{invalid("spec.finalizers[0]")}},
	})
}

func TestValidateServiceAccount(t *testing.T) {
	t.Parallel()
	valid := func() *corev1.ServiceAccount { return &corev1.ServiceAccount{ObjectMeta: objectMeta("robot")} }
	runCases(t, valid, ValidateServiceAccount, []testCase[*corev1.ServiceAccount]{
		{name: "A service account with a dotted name is valid.", mutate: func(sa *corev1.ServiceAccount) { sa.Name = "robot.ci" }},
		{name: "A service account with an underscore in its name is invalid.", mutate: func(sa *corev1.ServiceAccount) { sa.Name = "robot_ci" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "A service account outside any namespace is rejected.", mutate: func(sa *corev1.ServiceAccount) { sa.Namespace = "" },
			want: []wantErr{required("metadata.namespace")}},
	})
	runUpdateCases(t, valid, ValidateServiceAccountUpdate, []updateCase[*corev1.ServiceAccount]{
		{name: "Adding image pull secrets is a valid update.", mutate: func(sa, _ *corev1.ServiceAccount) {
			sa.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "regcred"}}
		}},
		{name: "Moving a service account to another namespace is invalid.", mutate: func(sa, _ *corev1.ServiceAccount) { sa.Namespace = "other" },
			want: []wantErr{invalid("metadata.namespace")}},
	})
}

func validEvent() *corev1.Event {
	return &corev1.Event{
		ObjectMeta:     objectMeta("web.17f0a1b2c3d4e5f6"),
		InvolvedObject: corev1.ObjectReference{Kind: "Deployment", Namespace: "default", Name: "web", APIVersion: "apps/v1"},
		Reason:         "ScalingReplicaSet", Message: "Scaled up", Type: corev1.EventTypeNormal, Count: 1,
	}
}

func TestValidateEvent(t *testing.T) {
	t.Parallel()
	runCases(t, validEvent, ValidateEvent, []testCase[*corev1.Event]{
		{name: "An event about a deployment in its namespace is valid.", mutate: noChange[*corev1.Event]},
		{name: "An event about a cluster-scoped object names no namespace and is valid.", mutate: func(e *corev1.Event) {
			e.InvolvedObject = corev1.ObjectReference{Kind: "Cluster", Name: "member-1"}
		}},
		{name: "An event about nothing is missing the kind and the name.", mutate: func(e *corev1.Event) {
			e.InvolvedObject = corev1.ObjectReference{}
		}, want: []wantErr{required("involvedObject.kind"), required("involvedObject.name")}},
		{name: "An event about an object in another namespace is invalid.", mutate: func(e *corev1.Event) {
			e.InvolvedObject.Namespace = "other"
		}, want: []wantErr{invalid("involvedObject.namespace")}},
		{name: "A negative count is invalid.", mutate: func(e *corev1.Event) { e.Count = -1 },
			want: []wantErr{invalid("count")}},
		{name: "An event without a namespace is rejected.", mutate: func(e *corev1.Event) {
			e.Namespace, e.InvolvedObject.Namespace = "", ""
		}, want: []wantErr{required("metadata.namespace")}},
	})
	runUpdateCases(t, validEvent, ValidateEventUpdate, []updateCase[*corev1.Event]{
		{name: "Counting an event again is a valid update.", mutate: func(e, _ *corev1.Event) {
			e.Count, e.LastTimestamp = 2, metav1.Now()
		}},
		{name: "Pointing an event at another object is invalid.", mutate: func(e, _ *corev1.Event) { e.InvolvedObject.Name = "api" },
			want: []wantErr{invalid("involvedObject")}},
	})
}

func validLease() *coordinationv1.Lease {
	return &coordinationv1.Lease{ObjectMeta: objectMeta("mco-controller"), Spec: coordinationv1.LeaseSpec{
		HolderIdentity: ptr.To("pod-1"), LeaseDurationSeconds: ptr.To[int32](15), LeaseTransitions: ptr.To[int32](0),
	}}
}

func TestValidateLease(t *testing.T) {
	t.Parallel()
	runCases(t, validLease, ValidateLease, []testCase[*coordinationv1.Lease]{
		{name: "A held lease is valid.", mutate: noChange[*coordinationv1.Lease]},
		{name: "An empty lease is valid.", mutate: func(l *coordinationv1.Lease) { l.Spec = coordinationv1.LeaseSpec{} }},
		{name: "A zero lease duration is invalid.", mutate: func(l *coordinationv1.Lease) { l.Spec.LeaseDurationSeconds = ptr.To[int32](0) },
			want: []wantErr{invalid("spec.leaseDurationSeconds")}},
		{name: "Negative transitions are invalid.", mutate: func(l *coordinationv1.Lease) { l.Spec.LeaseTransitions = ptr.To[int32](-1) },
			want: []wantErr{invalid("spec.leaseTransitions")}},
		{name: "A coordinated lease with a preferred holder is valid.", mutate: func(l *coordinationv1.Lease) {
			l.Spec.Strategy, l.Spec.PreferredHolder = ptr.To(coordinationv1.OldestEmulationVersion), ptr.To("pod-2")
		}},
		{name: "An unknown strategy is not supported.", mutate: func(l *coordinationv1.Lease) {
			l.Spec.Strategy = ptr.To[coordinationv1.CoordinatedLeaseStrategy]("Newest")
		}, want: []wantErr{notSupported("spec.strategy")}},
		{name: "A preferred holder without a strategy is forbidden.", mutate: func(l *coordinationv1.Lease) {
			l.Spec.PreferredHolder = ptr.To("pod-2")
		}, want: []wantErr{forbidden("spec.preferredHolder")}},
	})
	runUpdateCases(t, validLease, ValidateLeaseUpdate, []updateCase[*coordinationv1.Lease]{
		{name: "Renewing a lease is a valid update.", mutate: func(l, _ *coordinationv1.Lease) {
			l.Spec.RenewTime = &metav1.MicroTime{}
		}},
		{name: "A lease updated to a zero duration is invalid.", mutate: func(l, _ *coordinationv1.Lease) {
			l.Spec.LeaseDurationSeconds = ptr.To[int32](0)
		}, want: []wantErr{invalid("spec.leaseDurationSeconds")}},
	})
}
