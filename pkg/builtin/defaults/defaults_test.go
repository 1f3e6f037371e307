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

package defaults

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

func TestNamespaceDefaults(t *testing.T) {
	t.Parallel()
	deleted := metav1.Now()
	cases := []struct {
		name     string
		in, want *corev1.Namespace
	}{
		{name: "A new namespace is labelled with its name, finalized by kubernetes and Active.",
			in: &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}},
			want: &corev1.Namespace{
				ObjectMeta: metav1.ObjectMeta{Name: "team-a", Labels: map[string]string{"kubernetes.io/metadata.name": "team-a"}},
				Spec:       corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"kubernetes"}},
				Status:     corev1.NamespaceStatus{Phase: corev1.NamespaceActive},
			}},
		{name: "A terminating namespace with its own finalizer and a wrong name label keeps the finalizer and phase but gets the label fixed.",
			in: &corev1.Namespace{
				ObjectMeta: metav1.ObjectMeta{Name: "team-a", Labels: map[string]string{"kubernetes.io/metadata.name": "other", "x": "y"}},
				Spec:       corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"example.com/cleanup"}},
				Status:     corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating},
			},
			want: &corev1.Namespace{
				ObjectMeta: metav1.ObjectMeta{Name: "team-a", Labels: map[string]string{"kubernetes.io/metadata.name": "team-a", "x": "y"}},
				Spec:       corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"example.com/cleanup"}},
				Status:     corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating},
			}},
		{name: "A namespace being deleted whose finalizers were emptied does not get the kubernetes finalizer back.",
			in: &corev1.Namespace{
				ObjectMeta: metav1.ObjectMeta{Name: "team-a", DeletionTimestamp: &deleted},
				Status:     corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating},
			},
			want: &corev1.Namespace{
				ObjectMeta: metav1.ObjectMeta{Name: "team-a", DeletionTimestamp: &deleted, Labels: map[string]string{"kubernetes.io/metadata.name": "team-a"}},
				Status:     corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating},
			}},
		{name: "A namespace that has only a generateName gets no name label yet.",
			in: &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "team-"}},
			want: &corev1.Namespace{
				ObjectMeta: metav1.ObjectMeta{GenerateName: "team-"},
				Spec:       corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"kubernetes"}},
				Status:     corev1.NamespaceStatus{Phase: corev1.NamespaceActive},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertDefaulted(t, tc.in, tc.want, Namespace)
		})
	}
}

func TestSecretDefaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		in, want *corev1.Secret
	}{
		{name: "A secret without a type is Opaque.",
			in:   &corev1.Secret{ObjectMeta: objectMeta("s"), Data: map[string][]byte{"a": []byte("1")}},
			want: &corev1.Secret{ObjectMeta: objectMeta("s"), Type: corev1.SecretTypeOpaque, Data: map[string][]byte{"a": []byte("1")}}},
		{name: "A typed secret keeps its type.",
			in:   &corev1.Secret{ObjectMeta: objectMeta("s"), Type: corev1.SecretTypeTLS},
			want: &corev1.Secret{ObjectMeta: objectMeta("s"), Type: corev1.SecretTypeTLS}},
		{name: "stringData is folded into data, winning over the same key, and then cleared.",
			in: &corev1.Secret{ObjectMeta: objectMeta("s"),
				Data:       map[string][]byte{"a": []byte("old"), "b": []byte("2")},
				StringData: map[string]string{"a": "new", "c": "3"}},
			want: &corev1.Secret{ObjectMeta: objectMeta("s"), Type: corev1.SecretTypeOpaque,
				Data: map[string][]byte{"a": []byte("new"), "b": []byte("2"), "c": []byte("3")}}},
		{name: "stringData alone becomes data.",
			in: &corev1.Secret{ObjectMeta: objectMeta("s"), StringData: map[string]string{"k": "v"}},
			want: &corev1.Secret{ObjectMeta: objectMeta("s"), Type: corev1.SecretTypeOpaque,
				Data: map[string][]byte{"k": []byte("v")}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertDefaulted(t, tc.in, tc.want, Secret)
		})
	}
}

func TestServiceDefaults(t *testing.T) {
	t.Parallel()
	cluster := ptr.To(corev1.ServiceInternalTrafficPolicyCluster)
	cases := []struct {
		name     string
		in, want corev1.ServiceSpec
	}{
		{name: "A bare service is a ClusterIP service without affinity whose port targets itself over TCP, and no IP is allocated.",
			in: corev1.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []corev1.ServicePort{{Port: 80}}},
			want: corev1.ServiceSpec{
				Selector: map[string]string{"app": "web"},
				Ports:    []corev1.ServicePort{{Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(80)}},
				Type:     corev1.ServiceTypeClusterIP, SessionAffinity: corev1.ServiceAffinityNone, InternalTrafficPolicy: cluster,
			}},
		{name: "A named target port and an explicit UDP protocol are kept.",
			in: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 53, Protocol: corev1.ProtocolUDP, TargetPort: intstr.FromString("dns")}}},
			want: corev1.ServiceSpec{
				Ports: []corev1.ServicePort{{Port: 53, Protocol: corev1.ProtocolUDP, TargetPort: intstr.FromString("dns")}},
				Type:  corev1.ServiceTypeClusterIP, SessionAffinity: corev1.ServiceAffinityNone, InternalTrafficPolicy: cluster,
			}},
		{name: "A LoadBalancer service gets the Cluster external policy and node ports allocated by the member.",
			in: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, Ports: []corev1.ServicePort{{Port: 443, TargetPort: intstr.FromInt32(8443)}}},
			want: corev1.ServiceSpec{
				Type:            corev1.ServiceTypeLoadBalancer,
				Ports:           []corev1.ServicePort{{Port: 443, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8443)}},
				SessionAffinity: corev1.ServiceAffinityNone, InternalTrafficPolicy: cluster,
				ExternalTrafficPolicy:         corev1.ServiceExternalTrafficPolicyCluster,
				AllocateLoadBalancerNodePorts: ptr.To(true),
			}},
		{name: "A ClusterIP service with external IPs gets the Cluster external policy.",
			in: corev1.ServiceSpec{ExternalIPs: []string{"192.0.2.1"}},
			want: corev1.ServiceSpec{
				ExternalIPs: []string{"192.0.2.1"}, Type: corev1.ServiceTypeClusterIP, SessionAffinity: corev1.ServiceAffinityNone,
				InternalTrafficPolicy: cluster, ExternalTrafficPolicy: corev1.ServiceExternalTrafficPolicyCluster,
			}},
		{name: "An ExternalName service gets no traffic policies.",
			in: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "db.example.com"},
			want: corev1.ServiceSpec{
				Type: corev1.ServiceTypeExternalName, ExternalName: "db.example.com", SessionAffinity: corev1.ServiceAffinityNone,
			}},
		{name: "ClientIP affinity gets a three hour timeout.",
			in: corev1.ServiceSpec{SessionAffinity: corev1.ServiceAffinityClientIP, ClusterIP: "None"},
			want: corev1.ServiceSpec{
				SessionAffinity: corev1.ServiceAffinityClientIP, ClusterIP: "None", Type: corev1.ServiceTypeClusterIP,
				InternalTrafficPolicy: cluster,
				SessionAffinityConfig: &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr.To[int32](10800)}},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := &corev1.Service{ObjectMeta: objectMeta("svc"), Spec: tc.in}
			want := &corev1.Service{ObjectMeta: objectMeta("svc"), Spec: tc.want}
			assertDefaulted(t, in, want, Service)
		})
	}
}

func TestPersistentVolumeClaimDefaults(t *testing.T) {
	t.Parallel()
	spec := corev1.PersistentVolumeClaimSpec{
		AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
		Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
	}
	t.Run("A claim without a volume mode asks for a filesystem and is Pending.", func(t *testing.T) {
		t.Parallel()
		in := &corev1.PersistentVolumeClaim{ObjectMeta: objectMeta("data"), Spec: *spec.DeepCopy()}
		want := in.DeepCopy()
		want.Spec.VolumeMode = ptr.To(corev1.PersistentVolumeFilesystem)
		want.Status.Phase = corev1.ClaimPending
		assertDefaulted(t, in, want, PersistentVolumeClaim)
	})
	t.Run("A bound block claim keeps its mode and phase.", func(t *testing.T) {
		t.Parallel()
		in := &corev1.PersistentVolumeClaim{ObjectMeta: objectMeta("data"), Spec: *spec.DeepCopy()}
		in.Spec.VolumeMode = ptr.To(corev1.PersistentVolumeBlock)
		in.Status.Phase = corev1.ClaimBound
		assertDefaulted(t, in, in.DeepCopy(), PersistentVolumeClaim)
	})
}

func TestAddToSchemeDefaultsEveryKindAndList(t *testing.T) {
	t.Parallel()
	scheme := runtime.NewScheme()
	if err := AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		obj      runtime.Object
		defaults func(runtime.Object)
	}{
		{"Namespace", &corev1.Namespace{}, func(o runtime.Object) { Namespace(o.(*corev1.Namespace)) }},
		{"Secret", &corev1.Secret{}, func(o runtime.Object) { Secret(o.(*corev1.Secret)) }},
		{"Service", &corev1.Service{}, func(o runtime.Object) { Service(o.(*corev1.Service)) }},
		{"PersistentVolumeClaim", &corev1.PersistentVolumeClaim{}, func(o runtime.Object) { PersistentVolumeClaim(o.(*corev1.PersistentVolumeClaim)) }},
		{"Deployment", &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: bareTemplate()}}, func(o runtime.Object) { Deployment(o.(*appsv1.Deployment)) }},
		{"StatefulSet", &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Template: bareTemplate()}}, func(o runtime.Object) { StatefulSet(o.(*appsv1.StatefulSet)) }},
		{"DaemonSet", &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: bareTemplate()}}, func(o runtime.Object) { DaemonSet(o.(*appsv1.DaemonSet)) }},
		{"ReplicaSet", &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Template: bareTemplate()}}, func(o runtime.Object) { ReplicaSet(o.(*appsv1.ReplicaSet)) }},
		{"Job", &batchv1.Job{Spec: batchv1.JobSpec{Template: bareTemplate()}}, func(o runtime.Object) { Job(o.(*batchv1.Job)) }},
		{"DeploymentList", &appsv1.DeploymentList{Items: []appsv1.Deployment{{}, {}}}, func(o runtime.Object) {
			for i := range o.(*appsv1.DeploymentList).Items {
				Deployment(&o.(*appsv1.DeploymentList).Items[i])
			}
		}},
		{"JobList", &batchv1.JobList{Items: []batchv1.Job{{}}}, func(o runtime.Object) { Job(&o.(*batchv1.JobList).Items[0]) }},
		{"NamespaceList", &corev1.NamespaceList{Items: []corev1.Namespace{{}}}, func(o runtime.Object) { Namespace(&o.(*corev1.NamespaceList).Items[0]) }},
	}
	for _, tc := range cases {
		t.Run("The scheme defaults a "+tc.name+" like the function of this package.", func(t *testing.T) {
			t.Parallel()
			got, want := tc.obj.DeepCopyObject(), tc.obj.DeepCopyObject()
			scheme.Default(got)
			tc.defaults(want)
			if apiequality.Semantic.DeepEqual(got, tc.obj) {
				t.Fatal("the scheme did not default the object")
			}
			if !apiequality.Semantic.DeepEqual(got, want) {
				t.Fatalf("(-scheme +function):\n%s", diff.Diff(got, want))
			}
		})
	}
}
