package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batchv1 "k8s.io/api/batch/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/test/e2e/framework"
)

// splitEvenly is a placement's replicaScheduling dividing replicas
// evenly between member1 and member2 (indented for spec.placement).
const splitEvenly = `    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - {targetCluster: {clusterNames: [member1]}, weight: 1}
        - {targetCluster: {clusterNames: [member2]}, weight: 1}
`

// applicationYAML is an ordinary web application as a team ships it, with
// the policies that carry it to member1 and member2: the Deployment's
// replicas divided between them, everything else to both.
const applicationYAML = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: shop, namespace: %[1]s}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment}
  - {apiVersion: v1, kind: Service}
  - {apiVersion: v1, kind: ConfigMap}
  - {apiVersion: v1, kind: ServiceAccount}
  - {apiVersion: networking.k8s.io/v1, kind: Ingress}
  - {apiVersion: networking.k8s.io/v1, kind: NetworkPolicy}
  - {apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler}
  - {apiVersion: policy/v1, kind: PodDisruptionBudget}
  - {apiVersion: batch/v1, kind: CronJob}
  - {apiVersion: rbac.authorization.k8s.io/v1, kind: Role}
  - {apiVersion: rbac.authorization.k8s.io/v1, kind: RoleBinding}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
%[2]s---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: %[1]s-classes}
spec:
  resourceSelectors:
  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, name: %[1]s-high}
  - {apiVersion: storage.k8s.io/v1, kind: StorageClass, name: %[1]s-fast}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: %[1]s-high}
value: 1000
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: %[1]s-fast}
provisioner: example.com/fast
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: web, namespace: %[1]s}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web, namespace: %[1]s}
data: {greeting: hello}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: web, namespace: %[1]s}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: web, namespace: %[1]s}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: web}
subjects: [{kind: ServiceAccount, name: web, namespace: %[1]s}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: %[1]s}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      serviceAccountName: web
      priorityClassName: %[1]s-high
      containers: [{name: web, image: nginx:1.27, envFrom: [{configMapRef: {name: web}}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: %[1]s}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: %[1]s}
spec:
  rules:
  - host: web.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web, namespace: %[1]s}
spec: {podSelector: {matchLabels: {app: web}}, ingress: [{}]}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: %[1]s}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 10
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: %[1]s}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: %[1]s}
spec:
  schedule: "0 3 * * *"
  suspend: true
  jobTemplate: {spec: {template: {spec: {restartPolicy: OnFailure, containers: [{name: report, image: busybox:1.36}]}}}}
`

// TestOrdinaryApplication: an ordinary application applied with kubectl
// reaches both members whole; the statuses users read come back summed;
// an autoscaler's scaling in a member is kept there and reflected in the
// template.
func TestOrdinaryApplication(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-app")
	kubectl(t, fmt.Sprintf(applicationYAML, ns, splitEvenly), "apply", "-f", "-")

	gvr := func(group, version, resource string) schema.GroupVersionResource {
		return schema.GroupVersionResource{Group: group, Version: version, Resource: resource}
	}
	waitInMembers(t, []string{"member1", "member2"}, []memberObject{
		{gvr("apps", "v1", "deployments"), ns, "web"},
		{gvr("", "v1", "services"), ns, "web"},
		{gvr("", "v1", "configmaps"), ns, "web"},
		{gvr("", "v1", "serviceaccounts"), ns, "web"},
		{gvr("networking.k8s.io", "v1", "ingresses"), ns, "web"},
		{gvr("networking.k8s.io", "v1", "networkpolicies"), ns, "web"},
		{gvr("autoscaling", "v2", "horizontalpodautoscalers"), ns, "web"},
		{gvr("policy", "v1", "poddisruptionbudgets"), ns, "web"},
		{gvr("batch", "v1", "cronjobs"), ns, "report"},
		{gvr("rbac.authorization.k8s.io", "v1", "roles"), ns, "web"},
		{gvr("rbac.authorization.k8s.io", "v1", "rolebindings"), ns, "web"},
		{gvr("scheduling.k8s.io", "v1", "priorityclasses"), "", ns + "-high"},
		{gvr("storage.k8s.io", "v1", "storageclasses"), "", ns + "-fast"},
	}, true)
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": 1, "member3": -1})

	// kwok members run no ingress controller and the CronJob is
	// suspended: their statuses are written in the members here.
	for i, m := range []string{"member1", "member2"} {
		client := memberClient(t, m)
		eventually(t, 30*time.Second, "ingress status in "+m, func(ctx context.Context) (bool, string) {
			in, err := client.NetworkingV1().Ingresses(ns).Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			in.Status.LoadBalancer.Ingress = []networkingv1.IngressLoadBalancerIngress{{IP: fmt.Sprintf("10.0.0.%d", i+1)}}
			_, err = client.NetworkingV1().Ingresses(ns).UpdateStatus(ctx, in, metav1.UpdateOptions{})
			return err == nil, fmt.Sprint(err)
		})
		eventually(t, 30*time.Second, "cronjob status in "+m, func(ctx context.Context) (bool, string) {
			cj, err := client.BatchV1().CronJobs(ns).Get(ctx, "report", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			at := metav1.NewTime(time.Date(2026, 1, 1, 3, i, 0, 0, time.UTC))
			cj.Status = batchv1.CronJobStatus{LastScheduleTime: &at, LastSuccessfulTime: &at}
			_, err = client.BatchV1().CronJobs(ns).UpdateStatus(ctx, cj, metav1.UpdateOptions{})
			return err == nil, fmt.Sprint(err)
		})
	}

	statuses := []struct{ what, jsonpath, want string }{
		{"ingress/web", "{.status.loadBalancer.ingress[*].ip}", "10.0.0.1 10.0.0.2"},
		{"cronjob/report", "{.status.lastScheduleTime}", "2026-01-01T03:01:00Z"},
		{"pdb/web", "{.status.expectedPods}", "2"},
		{"pdb/web", "{.status.currentHealthy}", "2"},
		{"deployment/web", "{.status.readyReplicas}", "2"},
	}
	for _, s := range statuses {
		eventually(t, 120*time.Second, s.what+" status on mco", func(context.Context) (bool, string) {
			got, _ := kubectlErr("", "-n", ns, "get", s.what, "-o", "jsonpath="+s.jsonpath)
			return got == s.want, fmt.Sprintf("%s %s = %q, want %q", s.what, s.jsonpath, got, s.want)
		})
	}
	table := kubectl(t, "", "-n", ns, "get", "pdb,hpa,ingress,cronjob")
	for _, want := range []string{"10.0.0.1,10.0.0.2", "Deployment/web"} {
		if !strings.Contains(table, want) {
			t.Errorf("kubectl get pdb,hpa,ingress,cronjob on mco does not show %q:\n%s", want, table)
		}
	}

	// The propagated autoscaler owns the Deployment's replicas: its target
	// is marked, a scale in member1 (by hand: kwok members have no
	// metrics) is kept there, and the template follows the members' sum.
	eventually(t, 60*time.Second, "the retain-replicas label on the template", func(context.Context) (bool, string) {
		got, _ := kubectlErr("", "-n", ns, "get", "deployment/web", "-o", `jsonpath={.metadata.labels.resourcetemplate\.karmada\.io/retain-replicas}`)
		return got == "true", fmt.Sprintf("label = %q", got)
	})
	eventually(t, 60*time.Second, "the label on member1's copy", func(context.Context) (bool, string) {
		l := memberDeployment(t, "member1", ns, "web").Labels["resourcetemplate.karmada.io/retain-replicas"]
		return l == "true", fmt.Sprintf("label = %q", l)
	})
	scale := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns}, Spec: autoscalingv1.ScaleSpec{Replicas: 3}}
	if _, err := memberClient(t, "member1").AppsV1().Deployments(ns).UpdateScale(context.Background(), "web", scale, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 120*time.Second, "the template's replicas following the members' sum", func(context.Context) (bool, string) {
		got, _ := kubectlErr("", "-n", ns, "get", "deployment/web", "-o", "jsonpath={.spec.replicas}")
		return got == "4", fmt.Sprintf("spec.replicas = %q, want 4", got)
	})
	waitReplicas(t, ns, "web", map[string]int32{"member1": 3, "member2": 1})
	if got := kubectl(t, "", "-n", ns, "get", "hpa/web", "-o", "jsonpath={.status.currentReplicas}"); got == "" {
		t.Logf("hpa/web has no currentReplicas on mco yet")
	}
}

// TestPodPropagates: a bare Pod runs in a member; applying it again after
// the member's scheduler and admission filled in its node, service account
// and token volume (fields a Pod may not change) succeeds, so a change of
// the template reaches the member; its phase comes back onto the template.
func TestPodPropagates(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-pod")
	kubectl(t, fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: pod, namespace: %[1]s}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Pod, name: debug}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
---
apiVersion: v1
kind: Pod
metadata: {name: debug, namespace: %[1]s}
spec: {containers: [{name: debug, image: busybox:1.36}]}
`, ns), "apply", "-f", "-")
	client := memberClient(t, "member1")
	eventually(t, 90*time.Second, "the Pod running in member1", func(ctx context.Context) (bool, string) {
		p, err := client.CoreV1().Pods(ns).Get(ctx, "debug", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return p.Spec.NodeName != "" && p.Status.Phase == "Running", fmt.Sprintf("node %q, phase %s", p.Spec.NodeName, p.Status.Phase)
	})
	eventually(t, 60*time.Second, "the Pod's phase on mco", func(context.Context) (bool, string) {
		got, _ := kubectlErr("", "-n", ns, "get", "pod/debug", "-o", "jsonpath={.status.phase}")
		return got == "Running", fmt.Sprintf("phase %q", got)
	})
	kubectl(t, "", "-n", ns, "label", "pod/debug", "tier=debug")
	eventually(t, 60*time.Second, "the template's new label in member1", func(ctx context.Context) (bool, string) {
		p, err := client.CoreV1().Pods(ns).Get(ctx, "debug", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return p.Labels["tier"] == "debug", fmt.Sprintf("labels %v", p.Labels)
	})
	if w := kubectl(t, "", "-n", ns, "get", "rb", "debug-pod", "-o", `jsonpath={.status.aggregatedStatus[0].applied}`); w != "true" {
		t.Errorf("the Pod's Work is not applied: %q", w)
	}
}
