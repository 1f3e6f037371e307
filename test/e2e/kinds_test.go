package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/pkg/testing/repo"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestEveryKindPropagates: each template kind mco serves reaches the
// members, and the workloads' status comes back summed onto the template
// (a Job runs to completion through kwok).
func TestEveryKindPropagates(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-kinds")
	pod := `{metadata: {labels: {app: %[1]s}}, spec: {containers: [{name: app, image: nginx:1.27}]}}`
	tmpl := func(name string) string { return fmt.Sprintf(pod, name) }
	kubectl(t, fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: everything, namespace: %[1]s}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: StatefulSet}
  - {apiVersion: apps/v1, kind: DaemonSet}
  - {apiVersion: apps/v1, kind: ReplicaSet}
  - {apiVersion: batch/v1, kind: Job}
  - {apiVersion: v1, kind: Service}
  - {apiVersion: v1, kind: ConfigMap}
  - {apiVersion: v1, kind: Secret}
  - {apiVersion: v1, kind: ServiceAccount}
  - {apiVersion: v1, kind: PersistentVolumeClaim}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: %[1]s}
spec: {replicas: 1, serviceName: db, selector: {matchLabels: {app: db}}, template: %[2]s}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: %[1]s}
spec: {selector: {matchLabels: {app: agent}}, template: %[3]s}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: %[1]s}
spec: {replicas: 1, selector: {matchLabels: {app: rs}}, template: %[4]s}
---
apiVersion: batch/v1
kind: Job
metadata: {name: once, namespace: %[1]s}
spec: {completions: 1, parallelism: 1, template: {spec: {restartPolicy: Never, containers: [{name: app, image: busybox:1.36}]}}}
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: %[1]s}
spec: {selector: {app: db}, ports: [{port: 80}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: %[1]s}
data: {a: b}
---
apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: %[1]s}
stringData: {password: x}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: runner, namespace: %[1]s}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: %[1]s}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`, ns, tmpl("db"), tmpl("agent"), tmpl("rs")), "apply", "-f", "-")

	objects := []struct {
		gvr  schema.GroupVersionResource
		name string
	}{
		{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"}, "db"},
		{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "daemonsets"}, "agent"},
		{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}, "rs"},
		{schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}, "once"},
		{schema.GroupVersionResource{Version: "v1", Resource: "services"}, "db"},
		{schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, "settings"},
		{schema.GroupVersionResource{Version: "v1", Resource: "secrets"}, "creds"},
		{schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}, "runner"},
		{schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}, "data"},
	}
	for _, m := range []string{"member1", "member2"} {
		client := memberDynamic(t, m)
		for _, o := range objects {
			eventually(t, 60*time.Second, fmt.Sprintf("%s %s in %s", o.gvr.Resource, o.name, m), func(ctx context.Context) (bool, string) {
				_, err := client.Resource(o.gvr).Namespace(ns).Get(ctx, o.name, metav1.GetOptions{})
				return err == nil, fmt.Sprint(err)
			})
		}
	}
	// Summed status on mco: one replica in each of two members.
	statuses := []struct{ what, jsonpath, want string }{
		{"statefulset/db", "{.status.readyReplicas}", "2"},
		{"replicaset/rs", "{.status.readyReplicas}", "2"},
		{"daemonset/agent", "{.status.desiredNumberScheduled}", "3"}, // member1 has 2 nodes, member2 1
		{"job/once", "{.status.succeeded}", "2"},
		{"job/once", `{.status.conditions[?(@.type=="Complete")].status}`, "True"},
	}
	for _, s := range statuses {
		eventually(t, 120*time.Second, s.what+" status on mco", func(context.Context) (bool, string) {
			got, _ := kubectlErr("", "-n", ns, "get", s.what, "-o", "jsonpath="+s.jsonpath)
			return got == s.want, fmt.Sprintf("%s %s = %q, want %q", s.what, s.jsonpath, got, s.want)
		})
	}
	kubectl(t, "", "-n", ns, "rollout", "status", "statefulset/db", "--timeout=60s")
	// member2 may run an older Kubernetes: what it drops of mco's own
	// defaults (a StatefulSet's rollingUpdate.maxUnavailable, defaulted from
	// 1.35 on) is not the user's, and no Work says it was dropped.
	works, err := framework.MCO(t).WorkV1alpha1().Works(names.ExecutionSpace("member2")).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range works.Items {
		if c := apimeta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkDegraded); c != nil && strings.Contains(c.Message, ns+"/") {
			t.Errorf("member2's Work %s: %s", w.Name, c.Message)
		}
	}
}

// TestKarmadaSamplesPropagate: Karmada's own nginx sample (Deployment,
// PropagationPolicy, OverridePolicy), applied unchanged, runs in the
// members with Karmada's semantics.
func TestKarmadaSamplesPropagate(t *testing.T) {
	framework.Parallel(t)
	dir := repo.RequireKarmadaExamples(t)
	ns := namespace(t, "e2e-karmada-samples")
	for _, f := range []string{"samples-nginx-deployment.yaml", "samples-nginx-propagationpolicy.yaml", "samples-nginx-overridepolicy.yaml"} {
		kubectl(t, "", "-n", ns, "apply", "-f", filepath.Join(dir, f))
	}
	waitReplicas(t, ns, "nginx", map[string]int32{"member1": 1, "member2": 1, "member3": -1})
	eventually(t, 30*time.Second, "the sample's overrides", func(ctx context.Context) (bool, string) {
		m1, err1 := memberClient(t, "member1").AppsV1().Deployments(ns).Get(ctx, "nginx", metav1.GetOptions{})
		m2, err2 := memberClient(t, "member2").AppsV1().Deployments(ns).Get(ctx, "nginx", metav1.GetOptions{})
		if err1 != nil || err2 != nil {
			return false, fmt.Sprint(err1, err2)
		}
		ok := m1.Annotations["env"] == "skoala-stage" && m2.Labels["env"] == "skoala-dev" && m2.Labels["env-stat"] == "skoala-stage"
		return ok, fmt.Sprintf("member1 annotations %v, member2 labels %v", m1.Annotations, m2.Labels)
	})
}

func memberDynamic(t *testing.T, name string) dynamic.Interface {
	t.Helper()
	cfg, err := localcluster.RESTConfig(framework.Env.Member(name).Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	return dynamic.NewForConfigOrDie(cfg)
}
