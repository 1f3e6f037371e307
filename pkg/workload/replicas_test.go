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

package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

var sameQuantity = cmp.Comparer(func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 })

func ptr[T any](v T) *T { return &v }

// list builds a ResourceList from name, quantity pairs.
func list(pairs ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(pairs); i += 2 {
		out[corev1.ResourceName(pairs[i])] = resource.MustParse(pairs[i+1])
	}
	return out
}

func container(requests ...string) corev1.Container {
	return corev1.Container{Name: "c", Image: "nginx", Resources: corev1.ResourceRequirements{Requests: list(requests...)}}
}

func podSpec(containers ...corev1.Container) corev1.PodSpec {
	return corev1.PodSpec{Containers: containers}
}

// object turns a typed workload into the unstructured form the scheduler sees.
func object(t *testing.T, apiVersion, kind string, typed any) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	u.SetNamespace("shop")
	u.SetName("web")
	return u
}

func deployment(replicas *int32, spec corev1.PodSpec) *appsv1.Deployment {
	return &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: replicas, Template: corev1.PodTemplateSpec{Spec: spec}}}
}

func job(parallelism, completions *int32) *batchv1.Job {
	return &batchv1.Job{Spec: batchv1.JobSpec{Parallelism: parallelism, Completions: completions, Template: corev1.PodTemplateSpec{Spec: podSpec(container("cpu", "1"))}}}
}

func cpuOnly(q string) *workv1alpha2.ReplicaRequirements {
	return &workv1alpha2.ReplicaRequirements{ResourceRequest: list("cpu", q), Namespace: "shop"}
}

func TestReplicas(t *testing.T) {
	t.Parallel()
	tolerations := []corev1.Toleration{{Key: "gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}
	required := &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
		{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}},
	}}}}
	constrained := podSpec(container("cpu", "100m", "memory", "128Mi"), container("cpu", "200m", "memory", "64Mi", "nvidia.com/gpu", "1"))
	constrained.NodeSelector = map[string]string{"disk": "ssd"}
	constrained.Tolerations = tolerations
	constrained.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: required}}
	constrained.PriorityClassName = "high"

	cases := []struct {
		name     string
		obj      func(t *testing.T) *unstructured.Unstructured
		replicas int32
		req      *workv1alpha2.ReplicaRequirements
		notOK    bool
		wantErr  bool
	}{
		{
			name: "A Deployment sums its containers' requests and carries its node claim, priority class and namespace.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "Deployment", deployment(ptr[int32](3), constrained))
			},
			replicas: 3,
			req: &workv1alpha2.ReplicaRequirements{
				NodeClaim:         &workv1alpha2.NodeClaim{HardNodeAffinity: required, NodeSelector: map[string]string{"disk": "ssd"}, Tolerations: tolerations},
				ResourceRequest:   list("cpu", "300m", "memory", "192Mi", "nvidia.com/gpu", "1"),
				Namespace:         "shop",
				PriorityClassName: "high",
			},
		},
		{
			name: "A Deployment without spec.replicas has one replica.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "Deployment", deployment(nil, podSpec(container("cpu", "1"))))
			},
			replicas: 1, req: cpuOnly("1"),
		},
		{
			name: "A template without requests or node constraints has no requirements.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "Deployment", deployment(ptr[int32](2), podSpec(container())))
			},
			replicas: 2,
		},
		{
			name: "A StatefulSet reads spec.replicas.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "StatefulSet", &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Replicas: ptr[int32](4), Template: corev1.PodTemplateSpec{Spec: podSpec(container("cpu", "2"))}}})
			},
			replicas: 4, req: cpuOnly("2"),
		},
		{
			name: "A ReplicaSet scaled to zero has zero replicas.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "ReplicaSet", &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Replicas: ptr[int32](0), Template: corev1.PodTemplateSpec{Spec: podSpec(container("cpu", "1"))}}})
			},
			replicas: 0, req: cpuOnly("1"),
		},
		{
			name: "A Job runs its parallelism.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "batch/v1", "Job", job(ptr[int32](4), nil))
			},
			replicas: 4, req: cpuOnly("1"),
		},
		{
			name: "A Job never runs more pods than its completions.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "batch/v1", "Job", job(ptr[int32](5), ptr[int32](3)))
			},
			replicas: 3, req: cpuOnly("1"),
		},
		{
			name: "A Job without parallelism runs one pod.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "batch/v1", "Job", job(nil, ptr[int32](10)))
			},
			replicas: 1, req: cpuOnly("1"),
		},
		{
			name: "A Job with zero parallelism runs no pods.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "batch/v1", "Job", job(ptr[int32](0), nil))
			},
			replicas: 0, req: cpuOnly("1"),
		},
		{
			name: "A Pod is one replica of itself, as Karmada counts it.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "v1", "Pod", &corev1.Pod{Spec: podSpec(container("cpu", "1"))})
			},
			replicas: 1, req: cpuOnly("1"),
		},
		{
			name: "A ConfigMap is not a replicated workload.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "v1", "ConfigMap", &corev1.ConfigMap{})
			},
			notOK: true,
		},
		{
			name: "A Deployment of another API group is not understood.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "example.com/v1", "Deployment", deployment(ptr[int32](3), podSpec()))
			},
			notOK: true,
		},
		{
			name: "A malformed spec.replicas is an error.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				u := object(t, "apps/v1", "Deployment", deployment(nil, podSpec()))
				u.Object["spec"] = map[string]any{"replicas": "three"}
				return u
			},
			notOK: true, wantErr: true,
		},
		{
			name: "A negative replica count is an error.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "Deployment", deployment(ptr[int32](-1), podSpec()))
			},
			notOK:    true,
			wantErr:  true,
			replicas: 0,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			replicas, req, ok, err := Replicas(tc.obj(t))
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if ok == tc.notOK {
				t.Fatalf("ok = %v, want %v", ok, !tc.notOK)
			}
			if replicas != tc.replicas {
				t.Errorf("replicas = %d, want %d", replicas, tc.replicas)
			}
			if diff := cmp.Diff(tc.req, req, sameQuantity); diff != "" {
				t.Errorf("requirements differ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReplicasKeepsObjectMeta(t *testing.T) {
	t.Parallel()
	d := deployment(ptr[int32](1), podSpec(container("cpu", "1")))
	d.ObjectMeta = metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}
	_, req, _, err := Replicas(object(t, "apps/v1", "Deployment", d))
	if err != nil || req == nil || req.Namespace != "shop" {
		t.Fatalf("got %+v, %v; want requirements in namespace shop", req, err)
	}
}
