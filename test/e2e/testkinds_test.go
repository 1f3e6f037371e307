package e2e

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// installTestKind applies a namespaced custom kind group/v1 kind (served
// as plural, its spec's properties given as a flow-style YAML map) and a
// ClusterPropagationPolicy carrying its CustomResourceDefinition to
// clusters, and waits until they serve it. The policy goes when the test
// ends; the CRD stays, as the members' copies do.
func installTestKind(t *testing.T, group, kind, plural, specProperties string, clusters []string) {
	t.Helper()
	crd := plural + "." + group
	kubectl(t, fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: %[1]s}
spec:
  group: %[2]s
  scope: Namespaced
  names: {plural: %[3]s, singular: %[4]s, kind: %[5]s}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: %[6]s}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: %[4]s-crd}
spec:
  resourceSelectors: [{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: %[1]s}]
  placement: {clusterAffinity: {clusterNames: [%[7]s]}}
`, crd, group, plural, strings.ToLower(kind), kind, specProperties, strings.Join(clusters, ", ")), "apply", "-f", "-")
	t.Cleanup(func() {
		_, _ = kubectlErr("", "delete", "clusterpropagationpolicy/"+strings.ToLower(kind)+"-crd", "--ignore-not-found")
	})
	crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	waitInMembers(t, clusters, []memberObject{{crds, "", crd}}, true)
}
