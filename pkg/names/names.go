// Package names derives the names of the objects the propagation path
// writes, as Karmada names them, so that tools written for Karmada find
// them where they expect.
package names

import (
	"fmt"
	"hash/fnv"
	"strings"

	"k8s.io/apimachinery/pkg/util/rand"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// ExecutionSpace is the namespace on mco holding a cluster's Works.
func ExecutionSpace(cluster string) string { return clusterv1alpha1.ExecutionSpacePrefix + cluster }

// ClusterOf returns the cluster of an execution space, false for any other
// namespace.
func ClusterOf(namespace string) (string, bool) {
	if !strings.HasPrefix(namespace, clusterv1alpha1.ExecutionSpacePrefix) {
		return "", false
	}
	c := strings.TrimPrefix(namespace, clusterv1alpha1.ExecutionSpacePrefix)
	return c, c != ""
}

// Binding is the name of the (Cluster)ResourceBinding of a template:
// "<name>-<kind>" lowercased, with ':' (allowed in RBAC names, not in
// binding names) turned into '.'.
func Binding(kind, name string) string {
	return strings.ToLower(strings.ReplaceAll(name, ":", ".") + "-" + kind)
}

// Work is the name of the Work of a template in an execution space:
// "<name>-<hash>", the hash taken over "<namespace>-<name>-<kind>" (or
// "<name>-<kind>" for cluster-scoped templates) as Karmada computes it.
func Work(kind, name, namespace string) string {
	name = strings.ToLower(strings.ReplaceAll(name, ":", "."))
	key := name + "-" + kind
	if namespace != "" {
		key = namespace + "-" + key
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(strings.ToLower(key)))
	return fmt.Sprintf("%s-%s", name, rand.SafeEncodeString(fmt.Sprint(h.Sum32())))
}
