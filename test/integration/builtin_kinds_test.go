package integration

import (
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// servedBuiltins are the built-in resources beyond the Karmada API that
// mco serves, as kubectl api-resources -o name prints them.
var servedBuiltins = []string{
	"configmaps", "events", "limitranges", "namespaces", "persistentvolumeclaims", "persistentvolumes", "pods",
	"podtemplates", "replicationcontrollers", "resourcequotas", "secrets", "serviceaccounts", "services",
	"mutatingadmissionpolicies.admissionregistration.k8s.io", "mutatingadmissionpolicybindings.admissionregistration.k8s.io",
	"mutatingwebhookconfigurations.admissionregistration.k8s.io", "validatingadmissionpolicies.admissionregistration.k8s.io",
	"validatingadmissionpolicybindings.admissionregistration.k8s.io", "validatingwebhookconfigurations.admissionregistration.k8s.io",
	"controllerrevisions.apps", "daemonsets.apps", "deployments.apps", "replicasets.apps", "statefulsets.apps",
	"selfsubjectreviews.authentication.k8s.io", "tokenreviews.authentication.k8s.io",
	"localsubjectaccessreviews.authorization.k8s.io", "selfsubjectaccessreviews.authorization.k8s.io",
	"selfsubjectrulesreviews.authorization.k8s.io", "subjectaccessreviews.authorization.k8s.io",
	"horizontalpodautoscalers.autoscaling", "cronjobs.batch", "jobs.batch", "leases.coordination.k8s.io",
	"events.events.k8s.io", "flowschemas.flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations.flowcontrol.apiserver.k8s.io",
	"ingressclasses.networking.k8s.io", "ingresses.networking.k8s.io", "networkpolicies.networking.k8s.io",
	"runtimeclasses.node.k8s.io", "poddisruptionbudgets.policy",
	"clusterrolebindings.rbac.authorization.k8s.io", "clusterroles.rbac.authorization.k8s.io",
	"rolebindings.rbac.authorization.k8s.io", "roles.rbac.authorization.k8s.io",
	"priorityclasses.scheduling.k8s.io", "csidrivers.storage.k8s.io", "storageclasses.storage.k8s.io",
	"volumeattributesclasses.storage.k8s.io", "apiservices.apiregistration.k8s.io",
	"customresourcedefinitions.apiextensions.k8s.io", "endpointslices.discovery.k8s.io",
}

// notServed are kube-apiserver's resources mco deliberately leaves out
// (the README's table says why).
var notServed = []string{
	"nodes", "endpoints", "componentstatuses", "bindings",
	"ipaddresses.networking.k8s.io", "servicecidrs.networking.k8s.io", "volumeattachments.storage.k8s.io",
	"csinodes.storage.k8s.io", "csistoragecapacities.storage.k8s.io", "certificatesigningrequests.certificates.k8s.io",
	"clustertrustbundles.certificates.k8s.io", "podcertificaterequests.certificates.k8s.io", "resourceclaims.resource.k8s.io",
	"resourceslices.resource.k8s.io", "storageversionmigrations.storagemigration.k8s.io",
}

// TestAPIResourcesListEveryBuiltinKind: discovery names every built-in
// kind mco serves, and none of those it deliberately does not.
func TestAPIResourcesListEveryBuiltinKind(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	listed := map[string]bool{}
	for _, r := range strings.Fields(s.MustKubectl(t, "", "api-resources", "-o", "name")) {
		listed[r] = true
	}
	for _, r := range servedBuiltins {
		if !listed[r] {
			t.Errorf("api-resources does not list %s", r)
		}
	}
	for _, r := range notServed {
		if listed[r] {
			t.Errorf("api-resources lists %s, which mco does not serve", r)
		}
	}
	// Every version kube-apiserver serves of these groups.
	versions := s.MustKubectl(t, "", "api-versions")
	for _, v := range []string{"autoscaling/v1", "autoscaling/v2", "events.k8s.io/v1", "policy/v1", "networking.k8s.io/v1",
		"storage.k8s.io/v1", "scheduling.k8s.io/v1", "node.k8s.io/v1", "admissionregistration.k8s.io/v1", "flowcontrol.apiserver.k8s.io/v1"} {
		if !strings.Contains(versions, v+"\n") {
			t.Errorf("api-versions does not list %s:\n%s", v, versions)
		}
	}
}

// TestEveryBuiltinKindApplies applies one object of every built-in kind,
// server-side twice then client-side, and reads them back as kubectl users
// do.
func TestEveryBuiltinKindApplies(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	manifest := testdata(t, "builtin-kinds.yaml")
	s.MustKubectl(t, "", "create", "namespace", "shop")
	s.MustKubectl(t, manifest, "apply", "--server-side", "-f", "-")
	s.MustKubectl(t, manifest, "apply", "--server-side", "-f", "-")
	s.MustKubectl(t, manifest, "apply", "-f", "-")
	got := s.MustKubectl(t, manifest, "get", "-f", "-", "-o", "name")
	if n := len(strings.Fields(got)); n != strings.Count(manifest, "\nkind: ") {
		t.Errorf("kubectl get -f lists %d objects, want %d:\n%s", n, strings.Count(manifest, "\nkind: "), got)
	}

	// Tables are kube-apiserver's (Kubernetes' printers).
	tables := s.MustKubectl(t, "", "-n", "shop", "get", "pdb,hpa,ingress,cronjob,pods")
	for _, col := range []string{"MIN AVAILABLE", "REFERENCE", "MINPODS", "HOSTS", "SCHEDULE", "LAST SCHEDULE", "RESTARTS"} {
		if !strings.Contains(tables, col) {
			t.Errorf("kubectl get shows no %s column:\n%s", col, tables)
		}
	}

	// The same HorizontalPodAutoscaler through autoscaling/v1, converted.
	v1 := s.MustKubectl(t, "", "get", "--raw", "/apis/autoscaling/v1/namespaces/shop/horizontalpodautoscalers/web")
	if !strings.Contains(v1, `"apiVersion":"autoscaling/v1"`) || !strings.Contains(v1, `"targetCPUUtilizationPercentage":70`) {
		t.Errorf("HPA through autoscaling/v1: %s", v1)
	}

	// The scale subresource of a ReplicationController.
	s.MustKubectl(t, "", "-n", "shop", "scale", "rc", "legacy", "--replicas", "3")
	if r := s.MustKubectl(t, "", "-n", "shop", "get", "rc", "legacy", "-o", "jsonpath={.spec.replicas}"); r != "3" {
		t.Errorf("rc replicas after kubectl scale: %q", r)
	}

	// Pods are selected by Kubernetes' own fields.
	if p := s.MustKubectl(t, "", "-n", "shop", "get", "pods", "--field-selector", "status.phase=Pending", "-o", "name"); p != "pod/debug\n" {
		t.Errorf("pods by status.phase: %q", p)
	}

	// Kubernetes' system PriorityClasses exist, as in kube-apiserver.
	s.MustKubectl(t, "", "get", "priorityclass", "system-cluster-critical", "system-node-critical")

	// Core Events read through events.k8s.io/v1.
	s.MustKubectl(t, `apiVersion: v1
kind: Event
metadata: {name: seen, namespace: shop}
involvedObject: {kind: Pod, name: debug, namespace: shop}
reason: Seen
message: hello
type: Normal
`, "create", "-f", "-")
	if note := s.MustKubectl(t, "", "-n", "shop", "get", "events.v1.events.k8s.io", "seen", "-o", "jsonpath={.note}"); note != "hello" {
		t.Errorf("the core Event through events.k8s.io/v1 has note %q", note)
	}

	// Bad input gets kube-apiserver's field errors.
	_, errOut, err := s.Kubectl(t, `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: bad, namespace: shop}
spec: {rules: [{http: {paths: [{path: /, pathType: Sometimes, backend: {service: {name: web, port: {number: 80}}}}]}}]}
`, "create", "-f", "-")
	if err == nil || !strings.Contains(errOut, "spec.rules[0].http.paths[0].pathType") {
		t.Errorf("an Ingress with a bad pathType: %v %s", err, errOut)
	}
}
