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

// Package defaults fills in the fields that a kube-apiserver defaults on the
// built-in kinds mco serves as resource templates, so that what a user reads
// back from mco looks like what the same manifest looks like on a cluster.
//
// Only the versioned k8s.io/api types are handled; there is no internal
// version. Every function here is idempotent.
package defaults

import (
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// AddToScheme registers the defaulting functions of this package with scheme,
// for each kind and its list kind.
func AddToScheme(scheme *runtime.Scheme) error {
	register(scheme, Namespace)
	register(scheme, Secret)
	register(scheme, Service)
	register(scheme, PersistentVolumeClaim)
	register(scheme, Deployment)
	register(scheme, StatefulSet)
	register(scheme, DaemonSet)
	register(scheme, ReplicaSet)
	register(scheme, Job)

	register(scheme, func(l *corev1.NamespaceList) { each(l.Items, Namespace) })
	register(scheme, func(l *corev1.SecretList) { each(l.Items, Secret) })
	register(scheme, func(l *corev1.ServiceList) { each(l.Items, Service) })
	register(scheme, func(l *corev1.PersistentVolumeClaimList) { each(l.Items, PersistentVolumeClaim) })
	register(scheme, func(l *appsv1.DeploymentList) { each(l.Items, Deployment) })
	register(scheme, func(l *appsv1.StatefulSetList) { each(l.Items, StatefulSet) })
	register(scheme, func(l *appsv1.DaemonSetList) { each(l.Items, DaemonSet) })
	register(scheme, func(l *appsv1.ReplicaSetList) { each(l.Items, ReplicaSet) })
	register(scheme, func(l *batchv1.JobList) { each(l.Items, Job) })
	return nil
}

// objectPtr is satisfied by *T when *T is a runtime.Object.
type objectPtr[T any] interface {
	*T
	runtime.Object
}

// register adds fn as the defaulting function of the kind whose Go type is T.
func register[T any, P objectPtr[T]](scheme *runtime.Scheme, fn func(*T)) {
	scheme.AddTypeDefaultingFunc(P(new(T)), func(obj interface{}) { fn(obj.(*T)) })
}

// each applies fn to every element of items in place.
func each[T any](items []T, fn func(*T)) {
	for i := range items {
		fn(&items[i])
	}
}
