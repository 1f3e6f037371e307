package detector

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/placement"
	"github.com/mco-org/mco/pkg/workload"
)

var sameQuantity = cmp.Comparer(func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 })

// webTemplate is a Deployment template of 3 replicas asking 250m CPU each.
func webTemplate() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata": map[string]any{
			"namespace": "shop", "name": "web", "uid": "tmpl-uid", "resourceVersion": "42",
		},
		"spec": map[string]any{
			"replicas": int64(3),
			"template": map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "c", "image": "nginx", "resources": map[string]any{"requests": map[string]any{"cpu": "250m"}}},
			}}},
		},
	}}
}

// fullSpec is a propagation spec that sets every field the detector copies.
func fullSpec() *policyv1alpha1.PropagationSpec {
	return &policyv1alpha1.PropagationSpec{
		ResourceSelectors: []policyv1alpha1.ResourceSelector{deployments},
		Placement: policyv1alpha1.Placement{
			ClusterAffinity:   &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m1", "m2"}},
			ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{ReplicaSchedulingType: policyv1alpha1.ReplicaSchedulingTypeDivided},
		},
		PropagateDeps: true,
		SchedulerName: "other-scheduler",
		Failover: &policyv1alpha1.FailoverBehavior{Application: &policyv1alpha1.ApplicationFailoverBehavior{
			DecisionConditions: policyv1alpha1.DecisionConditions{TolerationSeconds: ptr.To[int32](60)},
		}},
		ConflictResolution:          policyv1alpha1.ConflictOverwrite,
		Suspension:                  &policyv1alpha1.Suspension{Dispatching: ptr.To(true)},
		PreserveResourcesOnDeletion: ptr.To(true),
	}
}

func TestDesiredSpec(t *testing.T) {
	t.Parallel()
	ref := workv1alpha2.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", UID: "tmpl-uid", ResourceVersion: "42"}
	cases := []struct {
		name    string
		obj     func() *unstructured.Unstructured
		policy  *policyv1alpha1.PropagationSpec
		want    workv1alpha2.ResourceBindingSpec
		wantErr bool
	}{
		{
			name:   "Every policy field the detector owns is copied, with the Deployment's replicas and requirements.",
			obj:    webTemplate,
			policy: fullSpec(),
			want: workv1alpha2.ResourceBindingSpec{
				Resource: ref,
				Replicas: 3,
				ReplicaRequirements: &workv1alpha2.ReplicaRequirements{Namespace: "shop",
					ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}},
				Placement:                   &fullSpec().Placement,
				PropagateDeps:               true,
				SchedulerName:               "other-scheduler",
				Failover:                    fullSpec().Failover,
				ConflictResolution:          policyv1alpha1.ConflictOverwrite,
				Suspension:                  &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{Dispatching: ptr.To(true)}},
				PreserveResourcesOnDeletion: ptr.To(true),
			},
		},
		{
			name:   "A policy without suspension leaves the binding unsuspended.",
			obj:    webTemplate,
			policy: &policyv1alpha1.PropagationSpec{ResourceSelectors: []policyv1alpha1.ResourceSelector{deployments}},
			want: workv1alpha2.ResourceBindingSpec{
				Resource: ref,
				Replicas: 3,
				ReplicaRequirements: &workv1alpha2.ReplicaRequirements{Namespace: "shop",
					ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}},
				Placement: &policyv1alpha1.Placement{},
			},
		},
		{
			name: "A kind without replicas gets no replicas and no requirements.",
			obj: func() *unstructured.Unstructured {
				return &unstructured.Unstructured{Object: map[string]any{
					"apiVersion": "v1", "kind": "ConfigMap",
					"metadata": map[string]any{"namespace": "shop", "name": "cfg", "uid": "cm-uid", "resourceVersion": "7"},
					"data":     map[string]any{"k": "v"},
				}}
			},
			policy: &policyv1alpha1.PropagationSpec{SchedulerName: "default-scheduler"},
			want: workv1alpha2.ResourceBindingSpec{
				Resource:      workv1alpha2.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "cfg", UID: "cm-uid", ResourceVersion: "7"},
				Placement:     &policyv1alpha1.Placement{},
				SchedulerName: "default-scheduler",
			},
		},
		{
			name: "A Deployment whose replicas cannot be read is an error.",
			obj: func() *unstructured.Unstructured {
				u := webTemplate()
				u.Object["spec"] = map[string]any{"replicas": "three"}
				return u
			},
			policy:  fullSpec(),
			wantErr: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			obj := tc.obj()
			w, err := workload.Interpret(obj)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			got := desiredSpec(obj, w, tc.policy)
			if diff := cmp.Diff(tc.want, got, sameQuantity); diff != "" {
				t.Errorf("spec differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDesiredSpecDoesNotShareThePolicy(t *testing.T) {
	t.Parallel()
	p := fullSpec()
	obj := webTemplate()
	w, err := workload.Interpret(obj)
	if err != nil {
		t.Fatal(err)
	}
	got := desiredSpec(obj, w, p)
	p.Placement.ClusterAffinity.ClusterNames[0] = "changed"
	p.Failover.Application.DecisionConditions.TolerationSeconds = ptr.To[int32](1)
	*p.Suspension.Dispatching = false
	want := fullSpec()
	if diff := cmp.Diff(&want.Placement, got.Placement); diff != "" {
		t.Errorf("placement follows later changes of the policy (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.Failover, got.Failover); diff != "" {
		t.Errorf("failover follows later changes of the policy (-want +got):\n%s", diff)
	}
	if !*got.Suspension.Dispatching {
		t.Error("suspension follows later changes of the policy")
	}
}

func TestPolicySpec(t *testing.T) {
	t.Parallel()
	ppCandidate, cppCandidate := pp("pp", "id-1", 0, deployments), cpp("cpp", "id-2", 0, deployments)
	cases := []struct {
		name      string
		candidate placement.Candidate
		want      *policyv1alpha1.PropagationSpec
	}{
		{name: "A PropagationPolicy's spec is its own.", candidate: ppCandidate, want: &ppCandidate.Policy.(*policyv1alpha1.PropagationPolicy).Spec},
		{name: "A ClusterPropagationPolicy's spec is its own.", candidate: cppCandidate, want: &cppCandidate.Policy.(*policyv1alpha1.ClusterPropagationPolicy).Spec},
		{name: "A candidate without policy has no spec.", candidate: placement.Candidate{Name: "x"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := policySpec(tc.candidate); got != tc.want {
				t.Errorf("policySpec = %p, want %p", got, tc.want)
			}
		})
	}
}

func TestMergeSpec(t *testing.T) {
	t.Parallel()
	desired := func() workv1alpha2.ResourceBindingSpec {
		obj := webTemplate()
		w, err := workload.Interpret(obj)
		if err != nil {
			t.Fatal(err)
		}
		return desiredSpec(obj, w, &policyv1alpha1.PropagationSpec{
			Placement: policyv1alpha1.Placement{ClusterAffinity: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m1"}}},
		})
	}
	scheduled := []workv1alpha2.TargetCluster{{Name: "m1", Replicas: 3}}
	with := func(edit func(*workv1alpha2.ResourceBindingSpec)) workv1alpha2.ResourceBindingSpec {
		s := desired()
		edit(&s)
		return s
	}
	cases := []struct {
		name        string
		have        workv1alpha2.ResourceBindingSpec
		want        workv1alpha2.ResourceBindingSpec
		result      workv1alpha2.ResourceBindingSpec
		wantChanged bool
	}{
		{
			name:   "A binding that already holds the desired spec does not change.",
			have:   desired(),
			want:   desired(),
			result: desired(),
		},
		{
			name: "Target clusters, eviction tasks, requiredBy and the reschedule trigger set by others are kept.",
			have: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Clusters = scheduled
				s.GracefulEvictionTasks = []workv1alpha2.GracefulEvictionTask{{FromCluster: "m2"}}
				s.RequiredBy = []workv1alpha2.BindingSnapshot{{Namespace: "shop", Name: "other"}}
				s.RescheduleTriggeredAt = &metav1.Time{}
			}),
			want: desired(),
			result: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Clusters = scheduled
				s.GracefulEvictionTasks = []workv1alpha2.GracefulEvictionTask{{FromCluster: "m2"}}
				s.RequiredBy = []workv1alpha2.BindingSnapshot{{Namespace: "shop", Name: "other"}}
				s.RescheduleTriggeredAt = &metav1.Time{}
			}),
		},
		{
			name:        "A new replica count is copied and reported, and the scheduled clusters stay.",
			have:        with(func(s *workv1alpha2.ResourceBindingSpec) { s.Replicas = 2; s.Clusters = scheduled }),
			want:        desired(),
			result:      with(func(s *workv1alpha2.ResourceBindingSpec) { s.Clusters = scheduled }),
			wantChanged: true,
		},
		{
			name:        "A new placement is copied and reported.",
			have:        with(func(s *workv1alpha2.ResourceBindingSpec) { s.Placement = &policyv1alpha1.Placement{} }),
			want:        desired(),
			result:      desired(),
			wantChanged: true,
		},
		{
			name:        "A new template resource version is copied and reported.",
			have:        with(func(s *workv1alpha2.ResourceBindingSpec) { s.Resource.ResourceVersion = "41" }),
			want:        desired(),
			result:      desired(),
			wantChanged: true,
		},
		{
			name: "Every other field the detector owns is copied and reported.",
			have: desired(),
			want: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.PropagateDeps = true
				s.SchedulerName = "other"
				s.Failover = &policyv1alpha1.FailoverBehavior{}
				s.ConflictResolution = policyv1alpha1.ConflictOverwrite
				s.PreserveResourcesOnDeletion = ptr.To(true)
			}),
			result: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.PropagateDeps = true
				s.SchedulerName = "other"
				s.Failover = &policyv1alpha1.FailoverBehavior{}
				s.ConflictResolution = policyv1alpha1.ConflictOverwrite
				s.PreserveResourcesOnDeletion = ptr.To(true)
			}),
			wantChanged: true,
		},
		{
			name: "Requests written differently but equal in amount are no change.",
			have: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.ReplicaRequirements.ResourceRequest = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("0.25")}
			}),
			want: desired(),
			result: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.ReplicaRequirements.ResourceRequest = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("0.25")}
			}),
		},
		{
			name: "Dispatching suspension from the policy keeps suspension.scheduling set by others.",
			have: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Scheduling: ptr.To(true)}
			}),
			want: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{Dispatching: ptr.To(true)}}
			}),
			result: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{Dispatching: ptr.To(true)}, Scheduling: ptr.To(true)}
			}),
			wantChanged: true,
		},
		{
			name: "Lifting the policy's suspension keeps suspension.scheduling set by others.",
			have: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{Dispatching: ptr.To(true)}, Scheduling: ptr.To(true)}
			}),
			want: desired(),
			result: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Scheduling: ptr.To(true)}
			}),
			wantChanged: true,
		},
		{
			name: "Lifting the policy's suspension removes it when nobody suspended scheduling.",
			have: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{Dispatching: ptr.To(true)}}
			}),
			want:        desired(),
			result:      desired(),
			wantChanged: true,
		},
		{
			name: "A policy without suspension leaves scheduling suspended by others untouched and reports no change.",
			have: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Scheduling: ptr.To(false)}
			}),
			want: desired(),
			result: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Scheduling: ptr.To(false)}
			}),
		},
		{
			name: "The same suspension on both sides is no change.",
			have: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{
					DispatchingOnClusters: &policyv1alpha1.SuspendClusters{ClusterNames: []string{"m1"}}}, Scheduling: ptr.To(true)}
			}),
			want: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{
					DispatchingOnClusters: &policyv1alpha1.SuspendClusters{ClusterNames: []string{"m1"}}}}
			}),
			result: with(func(s *workv1alpha2.ResourceBindingSpec) {
				s.Suspension = &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{
					DispatchingOnClusters: &policyv1alpha1.SuspendClusters{ClusterNames: []string{"m1"}}}, Scheduling: ptr.To(true)}
			}),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			have := tc.have
			if got := binding.MergePolicyFields(&have, tc.want); got != tc.wantChanged {
				t.Errorf("mergeSpec = %v, want %v", got, tc.wantChanged)
			}
			if diff := cmp.Diff(tc.result, have, sameQuantity); diff != "" {
				t.Errorf("merged spec differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMergeSpecDoesNotShareTheDesiredSuspension(t *testing.T) {
	t.Parallel()
	want := workv1alpha2.ResourceBindingSpec{Suspension: &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{Dispatching: ptr.To(true)}}}
	have := workv1alpha2.ResourceBindingSpec{Suspension: &workv1alpha2.Suspension{Scheduling: ptr.To(true)}}
	binding.MergePolicyFields(&have, want)
	if want.Suspension.Scheduling != nil {
		t.Errorf("merging wrote scheduling %v into the desired spec", *want.Suspension.Scheduling)
	}
}

func TestOwnerReference(t *testing.T) {
	t.Parallel()
	want := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "tmpl-uid",
		Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}
	if diff := cmp.Diff(want, binding.OwnerReference(webTemplate())); diff != "" {
		t.Errorf("owner reference differs (-want +got):\n%s", diff)
	}
}

func TestSetOwner(t *testing.T) {
	t.Parallel()
	ref := binding.OwnerReference(webTemplate())
	stale := ref
	stale.Controller, stale.BlockOwnerDeletion = nil, nil
	other := metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "cfg", UID: types.UID("cfg-uid")}
	cases := []struct {
		name        string
		refs        []metav1.OwnerReference
		want        []metav1.OwnerReference
		wantChanged bool
	}{
		{name: "A binding without owners gets the template as controller.", want: []metav1.OwnerReference{ref}, wantChanged: true},
		{name: "A binding already owned by the template does not change.", refs: []metav1.OwnerReference{other, ref}, want: []metav1.OwnerReference{other, ref}},
		{
			name: "A reference to the template that is not the controller is replaced in place.",
			refs: []metav1.OwnerReference{stale, other}, want: []metav1.OwnerReference{ref, other}, wantChanged: true,
		},
		{
			name: "Other owners are kept and the template is added after them.",
			refs: []metav1.OwnerReference{other}, want: []metav1.OwnerReference{other, ref}, wantChanged: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := &metav1.ObjectMeta{OwnerReferences: append([]metav1.OwnerReference(nil), tc.refs...)}
			if got := binding.SetOwner(m, ref); got != tc.wantChanged {
				t.Errorf("setOwner = %v, want %v", got, tc.wantChanged)
			}
			if diff := cmp.Diff(tc.want, m.OwnerReferences); diff != "" {
				t.Errorf("owner references differ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBindingKey(t *testing.T) {
	t.Parallel()
	namespace := &unstructured.Unstructured{}
	namespace.SetAPIVersion("v1")
	namespace.SetKind("Namespace")
	namespace.SetName("shop")
	cases := []struct {
		name string
		obj  *unstructured.Unstructured
		want binding.Key
	}{
		{name: "A namespaced template gets a ResourceBinding beside it.", obj: webTemplate(), want: binding.Key{Namespace: "shop", Name: "web-deployment"}},
		{name: "A cluster-scoped template gets a ClusterResourceBinding.", obj: namespace, want: binding.Key{Name: "shop-namespace"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := bindingKey(tc.obj); got != tc.want {
				t.Errorf("bindingKey = %+v, want %+v", got, tc.want)
			}
		})
	}
}
