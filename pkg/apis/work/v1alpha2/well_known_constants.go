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

package v1alpha2

// Values written to GracefulEvictionTask.Reason.
const (
	// EvictionReasonTaintUntolerated: the cluster carries a taint the binding does not tolerate.
	EvictionReasonTaintUntolerated = "TaintUntolerated"
	// EvictionReasonApplicationFailure: the application stayed unhealthy past its failover toleration.
	EvictionReasonApplicationFailure = "ApplicationFailure"
)

// Values written to GracefulEvictionTask.Producer.
const (
	// EvictionProducerTaintManager marks tasks created by the taint manager.
	EvictionProducerTaintManager = "TaintManager"
)

// Labels the API server puts on every new binding, carrying a stable ID
// that survives backup and restore unlike the UID.
const (
	// ResourceBindingPermanentIDLabel carries a ResourceBinding's permanent ID.
	ResourceBindingPermanentIDLabel = "resourcebinding.karmada.io/permanent-id"
	// ClusterResourceBindingPermanentIDLabel carries a ClusterResourceBinding's
	// permanent ID.
	ClusterResourceBindingPermanentIDLabel = "clusterresourcebinding.karmada.io/permanent-id"
)

// BindingManagedByLabel on a binding names the kind that keeps it when no
// propagation policy does (MultiClusterService).
const BindingManagedByLabel = "binding.karmada.io/managed-by"
