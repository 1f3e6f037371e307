package framework

// InertMutatingAdmissionPolicy is a MutatingAdmissionPolicy
// (admissionregistration.k8s.io/v1: served from Kubernetes 1.36) that no
// binding uses and that matches nothing that exists: a template of a kind
// older members lack, harmless where it lands.
func InertMutatingAdmissionPolicy(name string) string {
	return `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: ` + name + `}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: ["e2e.mco-org.github.io"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["nothings"]}]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: 'Object{metadata: Object.metadata{labels: {"e2e": "never"}}}'}
  failurePolicy: Ignore
  reinvocationPolicy: Never
`
}
