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

package v1alpha1

// Condition types set on Cluster status.
const (
	// ClusterConditionReady: the member is healthy and can take workloads.
	ClusterConditionReady = "Ready"
	// ClusterConditionCompleteAPIEnablements: status.apiEnablements lists every API the member serves.
	ClusterConditionCompleteAPIEnablements = "CompleteAPIEnablements"
)

// Taint keys the control plane puts on clusters.
const (
	// TaintClusterUnscheduler marks a cluster that should not receive new workloads.
	TaintClusterUnscheduler = "cluster.karmada.io/unschedulable"
	// TaintClusterNotReady marks a cluster whose Ready condition is False.
	TaintClusterNotReady = "cluster.karmada.io/not-ready"
	// TaintClusterUnreachable marks a cluster whose Ready condition is Unknown.
	TaintClusterUnreachable = "cluster.karmada.io/unreachable"
)

// Keys inside the secrets named by spec.secretRef and spec.impersonatorSecretRef.
const (
	// SecretTokenKey holds the bearer token.
	SecretTokenKey = "token"
	// SecretCADataKey holds the CA bundle for the member's API server.
	SecretCADataKey = "caBundle"
)

// ExecutionSpacePrefix starts the name of each cluster's execution namespace, which holds the
// Works for that cluster: "karmada-es-<cluster name>".
const ExecutionSpacePrefix = "karmada-es-"

// CacheSourceAnnotationKey is set on cached objects to name the member cluster they came from.
const CacheSourceAnnotationKey = "resource.karmada.io/cached-from-cluster"
