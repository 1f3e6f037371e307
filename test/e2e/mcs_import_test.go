package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/test/e2e/framework"
)

// mcsAPIToMembers propagates the MCS API's CRDs, which mco installs on
// itself, to the members, as Karmada's users do.
const mcsAPIToMembers = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: e2e-mcs-api}
spec:
  resourceSelectors:
  - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: serviceexports.multicluster.x-k8s.io}
  - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: serviceimports.multicluster.x-k8s.io}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`

// exportImportYAML is a backend run in provider, exported there, and
// imported into consumer: Karmada's manifests for the export/import path.
func exportImportYAML(ns, provider, consumer string, replicas int) string {
	return backendYAML(ns, replicas) + `---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata: {name: backend, namespace: ` + ns + `}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: backend-provider, namespace: ` + ns + `}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment, name: backend}
  - {apiVersion: v1, kind: Service, name: backend}
  - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceExport, name: backend}
  placement:
    clusterAffinity: {clusterNames: [` + provider + `]}
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: backend, namespace: ` + ns + `}
spec:
  type: ClusterSetIP
  ports: [{name: http, port: 80, protocol: TCP}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: backend-consumer, namespace: ` + ns + `}
spec:
  resourceSelectors:
  - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, name: backend}
  placement:
    clusterAffinity: {clusterNames: [` + consumer + `]}
`
}

// importedAddresses lists, sorted, the ready addresses of the slices
// attached to derived-backend in cluster, and the slices' names.
func importedAddresses(ctx context.Context, t *testing.T, cluster, ns string) (addrs, names []string) {
	return sliceAddresses(ctx, t, cluster, ns, mcs.DerivedPrefix+"backend", mcs.ManagedByImport)
}

// waitImported waits until consumer's derived-backend holds exactly the
// ready endpoints of provider's replicas backend pods.
func waitImported(t *testing.T, ns, provider, consumer string, replicas int) {
	t.Helper()
	eventually(t, 2*time.Minute, fmt.Sprintf("%s imports %s's %d endpoints", consumer, provider, replicas), func(ctx context.Context) (bool, string) {
		want := podIPs(ctx, t, provider, ns, "backend")
		got, names := importedAddresses(ctx, t, consumer, ns)
		ok := len(want) == replicas && strings.Join(got, ",") == strings.Join(want, ",")
		for _, n := range names {
			ok = ok && strings.HasPrefix(n, "imported-"+provider+"-backend-")
		}
		return ok, fmt.Sprintf("%s's ready pods %v, %s's imported slices %v with %v", provider, want, consumer, names, got)
	})
}

// TestServiceExportImport: Karmada's default path. The backend runs and is
// exported in member2 and imported into member1: mco collects member2's
// slices as imported-member2-<slice>, member1 gets derived-backend (no
// selector) with them, they follow the pods as they scale, and deleting
// the ServiceExport alone withdraws them.
func TestServiceExportImport(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-mcs-import")
	kubectl(t, mcsAPIToMembers, "apply", "-f", "-")
	kubectl(t, exportImportYAML(ns, "member2", "member1", 2), "apply", "-f", "-")
	if deps := kubectl(t, "", "get", "pp", "backend-consumer", "-n", ns, "-o", "jsonpath={.spec.propagateDeps}"); deps != "true" {
		t.Errorf("a policy selecting a ServiceImport has propagateDeps %q", deps)
	}
	waitImported(t, ns, "member2", "member1", 2)

	// The derived Service and the imported slices travel in separate Works:
	// the slices may land first.
	eventually(t, time.Minute, "member1's derived Service", func(ctx context.Context) (bool, string) {
		svc, err := memberClient(t, "member1").CoreV1().Services(ns).Get(ctx, "derived-backend", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return svc.Spec.Selector == nil && len(svc.Spec.Ports) == 1 && svc.Spec.Ports[0].Port == 80, fmt.Sprintf("selector %v, ports %+v", svc.Spec.Selector, svc.Spec.Ports)
	})
	if out := kubectl(t, "", "get", "endpointslices", "-n", ns, "-l", "kubernetes.io/service-name=derived-backend", "-o", "name"); !strings.Contains(out, "imported-member2-backend-") {
		t.Errorf("mco does not show the imported slices: %q", out)
	}
	eventually(t, time.Minute, "the ServiceImport's event and status", func(ctx context.Context) (bool, string) {
		ev, _ := kubectlErr("", "get", "events", "-n", ns, "--field-selector", "reason=SyncDerivedServiceSucceed,involvedObject.kind=ServiceImport", "-o", "jsonpath={.items[*].message}")
		st, _ := kubectlErr("", "get", "serviceimports.multicluster.x-k8s.io", "backend", "-n", ns, "-o", "jsonpath={.status.clusters}")
		return strings.Contains(ev, "Sync derived service for serviceImport(backend) succeed.") && st == `[{"cluster":"member2"}]`, ev + " " + st
	})

	kubectl(t, "", "-n", ns, "scale", "deploy/backend", "--replicas=5")
	waitImported(t, ns, "member2", "member1", 5)
	if last := lastReady(context.Background(), t, "member2", ns, "backend"); !last.IsZero() {
		t.Logf("the last pod Ready in member2 at %s; its address in member1's imported slice %s later", last.Format(time.TimeOnly), time.Since(last).Round(100*time.Millisecond))
	}

	kubectl(t, "", "-n", ns, "delete", "serviceexports.multicluster.x-k8s.io", "backend")
	eventually(t, time.Minute, "the export withdrawn", func(ctx context.Context) (bool, string) {
		_, names := importedAddresses(ctx, t, "member1", ns)
		out, _ := kubectlErr("", "get", "endpointslices", "-n", ns, "-o", "name")
		return len(names) == 0 && !strings.Contains(out, "imported-"), fmt.Sprintf("member1 %v, mco %q", names, out)
	})
}
