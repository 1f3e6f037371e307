package e2e

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/test/e2e/framework"
)

// dispatchedAddresses lists, sorted, the ready addresses of the slices a
// MultiClusterService dispatched for service into cluster, and the slices'
// names.
func dispatchedAddresses(ctx context.Context, t *testing.T, cluster, ns, service string) (addrs, names []string) {
	return sliceAddresses(ctx, t, cluster, ns, service, mcs.ManagedByDispatch)
}

// sliceAddresses lists, sorted, the ready addresses of the slices attached
// to service in cluster that managedBy manages, and the slices' names.
func sliceAddresses(ctx context.Context, t *testing.T, cluster, ns, service, managedBy string) (addrs, names []string) {
	list, err := memberClient(t, cluster).DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: labels.Set{
		discoveryv1.LabelServiceName: service, discoveryv1.LabelManagedBy: managedBy}.String()})
	if err != nil {
		return nil, []string{err.Error()}
	}
	for _, s := range list.Items {
		names = append(names, s.Name)
		for _, e := range s.Endpoints {
			if e.Conditions.Ready == nil || *e.Conditions.Ready {
				addrs = append(addrs, e.Addresses...)
			}
		}
	}
	sort.Strings(addrs)
	return addrs, names
}

// podIPs lists, sorted, the IPs of the ready pods of app in cluster.
func podIPs(ctx context.Context, t *testing.T, cluster, ns, app string) []string {
	pods, err := memberClient(t, cluster).CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + app})
	if err != nil {
		return []string{err.Error()}
	}
	var ips []string
	for _, p := range pods.Items {
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue && p.Status.PodIP != "" {
				ips = append(ips, p.Status.PodIP)
			}
		}
	}
	sort.Strings(ips)
	return ips
}

// lastReady is when the last of app's pods in cluster turned Ready.
func lastReady(ctx context.Context, t *testing.T, cluster, ns, app string) time.Time {
	pods, err := memberClient(t, cluster).CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + app})
	if err != nil {
		return time.Time{}
	}
	var last time.Time
	for _, p := range pods.Items {
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue && c.LastTransitionTime.After(last) {
				last = c.LastTransitionTime.Time
			}
		}
	}
	return last
}

// backendYAML is the backend Deployment and its Service, which the tests of
// services across clusters call from other clusters.
func backendYAML(ns string, replicas int) string {
	return deploymentYAML(ns, "backend", replicas, "10m") + `---
apiVersion: v1
kind: Service
metadata: {name: backend, namespace: ` + ns + `}
spec:
  selector: {app: backend}
  ports: [{name: http, port: 80, targetPort: 8080}]
`
}

// mcsBackendYAML is a backend Deployment run in provider, its Service, and
// a MultiClusterService from provider to consumer, which propagates the
// Service to both; a policy also selects the Service for provider alone
// (the MultiClusterService wins). The policies tolerate a failed cluster,
// so that an outage moves nothing.
func mcsBackendYAML(ns, provider, consumer string, replicas int) string {
	const tolerate = `
    clusterTolerations:
    - {key: cluster.karmada.io/not-ready, operator: Exists, effect: NoExecute}
    - {key: cluster.karmada.io/unreachable, operator: Exists, effect: NoExecute}`
	return backendYAML(ns, replicas) + `---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: backend-pods, namespace: ` + ns + `}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: backend}]
  placement:
    clusterAffinity: {clusterNames: [` + provider + `]}` + tolerate + `
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: backend-service, namespace: ` + ns + `}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Service, name: backend}]
  placement:
    clusterAffinity: {clusterNames: [` + provider + `]}` + tolerate + `
---
apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: backend, namespace: ` + ns + `}
spec:
  types: [CrossCluster]
  providerClusters: [{name: ` + provider + `}]
  consumerClusters: [{name: ` + consumer + `}]
`
}

// waitDispatched waits until consumer holds exactly the ready endpoints of
// provider's replicas backend pods, in slices dispatched from provider.
func waitDispatched(t *testing.T, ns, provider, consumer string, replicas int) {
	t.Helper()
	what := fmt.Sprintf("%s holds %s's %d endpoints", consumer, provider, replicas)
	eventually(t, 2*time.Minute, what, func(ctx context.Context) (bool, string) {
		want := podIPs(ctx, t, provider, ns, "backend")
		got, names := dispatchedAddresses(ctx, t, consumer, ns, "backend")
		ok := len(want) == replicas && strings.Join(got, ",") == strings.Join(want, ",")
		for _, n := range names {
			ok = ok && strings.HasPrefix(n, provider+"-backend-")
		}
		cond, _ := kubectlErr("", "get", "mcs", "backend", "-n", ns, "-o", `jsonpath={.status.conditions}`)
		return ok, fmt.Sprintf("%s's ready pods %v, %s's dispatched slices %v with %v; conditions %s", provider, want, consumer, names, got, cond)
	})
}

// TestMultiClusterServiceCrossCluster: the backend runs in member2; a
// MultiClusterService makes member1 (a consumer) hold member2's endpoints
// on its own backend Service, following the pods as they scale, and takes
// them back when it goes. member2 never gets its own endpoints back.
func TestMultiClusterServiceCrossCluster(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-mcs")
	kubectl(t, mcsBackendYAML(ns, "member2", "member1", 2), "apply", "-f", "-")
	waitDispatched(t, ns, "member2", "member1", 2)
	if back, names := dispatchedAddresses(context.Background(), t, "member2", ns, "backend"); len(names) != 0 {
		t.Errorf("member2 got its own endpoints back: %v %v", names, back)
	}
	if out := kubectl(t, "", "get", "endpointslices", "-n", ns); !strings.Contains(out, "member2-backend-") {
		t.Errorf("mco does not show the collected slices:\n%s", out)
	}
	for _, c := range []string{"EndpointSliceDispatched", "ServiceApplied"} {
		eventually(t, time.Minute, c, func(ctx context.Context) (bool, string) {
			out, _ := kubectlErr("", "get", "mcs", "backend", "-n", ns, "-o", `jsonpath={.status.conditions[?(@.type=="`+c+`")]}`)
			return strings.Contains(out, `"status":"True"`) && strings.Contains(out, c+"Succeed"), out
		})
	}
	mcsOwnsTheService(t, ns)

	kubectl(t, "", "-n", ns, "scale", "deploy/backend", "--replicas=5")
	waitDispatched(t, ns, "member2", "member1", 5)
	// How long from the last pod turning Ready in member2 to its address
	// in member1 (Ready times are kept to the second; polled every 250 ms).
	if last := lastReady(context.Background(), t, "member2", ns, "backend"); !last.IsZero() {
		t.Logf("the last pod Ready in member2 at %s; its address in member1's slice %s later", last.Format(time.TimeOnly), time.Since(last).Round(100*time.Millisecond))
	}

	kubectl(t, "", "-n", ns, "delete", "mcs", "backend")
	eventually(t, time.Minute, "the endpoints withdrawn and the Service back with its policy", func(ctx context.Context) (bool, string) {
		_, names := dispatchedAddresses(ctx, t, "member1", ns, "backend")
		out, _ := kubectlErr("", "get", "endpointslices", "-n", ns, "-o", "name")
		claim, _ := kubectlErr("", "get", "service", "backend", "-n", ns, "-o", `jsonpath={.metadata.annotations.propagationpolicy\.karmada\.io/name}`)
		return len(names) == 0 && !strings.Contains(out, "member2-backend-") && claim == "backend-service",
			fmt.Sprintf("member1 %v, mco %q, the Service's policy %q", names, out, claim)
	})
}

// mcsOwnsTheService checks that the MultiClusterService, not the policy
// that also selects the Service, propagates it: claimed-by on the
// Service, the binding kept by the MultiClusterService with both clusters,
// the consumer holding the Service, an Event naming the policy not
// applied, and no flapping (the binding's generation stays).
func mcsOwnsTheService(t *testing.T, ns string) {
	t.Helper()
	if got := kubectl(t, "", "get", "service", "backend", "-n", ns, "-o", `jsonpath={.metadata.labels.resourcetemplate\.karmada\.io/claimed-by}`); got != "MultiClusterService" {
		t.Errorf("the Service's claimed-by label = %q", got)
	}
	rb := func() string {
		return kubectl(t, "", "get", "resourcebindings.work.karmada.io", "backend-service", "-n", ns, "-o",
			`jsonpath={.metadata.generation} {.metadata.labels.binding\.karmada\.io/managed-by} {.spec.placement.clusterAffinity.clusterNames}`)
	}
	before := rb()
	if !strings.Contains(before, `MultiClusterService ["member1","member2"]`) {
		t.Errorf("the Service's binding: %s", before)
	}
	if _, err := memberClient(t, "member1").CoreV1().Services(ns).Get(context.Background(), "backend", metav1.GetOptions{}); err != nil {
		t.Errorf("the consumer has no backend Service: %v", err)
	}
	eventually(t, time.Minute, "ApplyPolicySkipped", func(ctx context.Context) (bool, string) {
		out, _ := kubectlErr("", "get", "events", "-n", ns, "--field-selector", "reason=ApplyPolicySkipped", "-o", "jsonpath={.items[*].message}")
		return strings.Contains(out, "PropagationPolicy "+ns+"/backend-service"), out
	})
	if after := rb(); after != before {
		t.Errorf("the Service's binding changed from %q to %q: the policy and the MultiClusterService fight", before, after)
	}
}

// TestMultiClusterServicePullMember: member3, a Pull member, takes part
// both ways. As a provider, its agent reports its slices by Works in its
// own execution space, and member1 holds its endpoints; as a consumer, its
// agent applies member2's slices on its own backend Service.
func TestMultiClusterServicePullMember(t *testing.T) {
	framework.Parallel(t)
	from, to := namespace(t, "e2e-mcs-pull-from"), namespace(t, "e2e-mcs-pull-to")
	kubectl(t, mcsBackendYAML(from, "member3", "member1", 2), "apply", "-f", "-")
	kubectl(t, mcsBackendYAML(to, "member2", "member3", 2), "apply", "-f", "-")
	waitDispatched(t, from, "member3", "member1", 2)
	waitDispatched(t, to, "member2", "member3", 2)
	reported := kubectl(t, "", "get", "works.work.karmada.io", "-n", "karmada-es-member3", "-l", "endpointslice.karmada.io/name=backend,endpointslice.karmada.io/namespace="+from,
		"-o", `jsonpath={.items[*].metadata.labels.endpointslice\.karmada\.io/managed-by}`)
	if reported != "MultiClusterService" {
		t.Errorf("member3's agent reports its slices by Works managed by %q", reported)
	}
	kubectl(t, "", "-n", from, "delete", "mcs", "backend")
	eventually(t, time.Minute, "member3's reports and member1's endpoints withdrawn", func(ctx context.Context) (bool, string) {
		_, names := dispatchedAddresses(ctx, t, "member1", from, "backend")
		left, _ := kubectlErr("", "get", "works.work.karmada.io", "-n", "karmada-es-member3", "-l", "endpointslice.karmada.io/namespace="+from, "-o", "name")
		return len(names) == 0 && left == "", fmt.Sprintf("member1 %v; reports left %q", names, left)
	})
}

// mcsProviderOutage (TestMember2Outage): while member2, a provider, is
// away, member1 no longer holds its endpoints (Karmada would keep them);
// once member2 is back, they come back.
func mcsProviderOutage(t *testing.T) (during, after func(t *testing.T)) {
	ns := namespace(t, "e2e-mcs-outage")
	kubectl(t, mcsBackendYAML(ns, "member2", "member1", 2), "apply", "-f", "-")
	waitDispatched(t, ns, "member2", "member1", 2)
	during = func(t *testing.T) {
		eventually(t, 2*time.Minute, "member2's endpoints withdrawn from member1", func(ctx context.Context) (bool, string) {
			_, names := dispatchedAddresses(ctx, t, "member1", ns, "backend")
			cond, _ := kubectlErr("", "get", "mcs", "backend", "-n", ns, "-o", `jsonpath={.status.conditions}`)
			return len(names) == 0 && strings.Contains(cond, "provider member2 is not ready"), fmt.Sprintf("member1 %v; conditions %s", names, cond)
		})
	}
	after = func(t *testing.T) { waitDispatched(t, ns, "member2", "member1", 2) }
	return during, after
}
