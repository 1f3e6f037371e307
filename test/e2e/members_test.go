package e2e

import (
	"context"
	"crypto/tls"
	"net/http"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestMemberRunsDeployments: a member reports Ready fake nodes and a
// Deployment created directly in it becomes Available.
func TestMemberRunsDeployments(t *testing.T) {
	framework.Parallel(t)
	m := framework.Env.Member("member1")
	client, err := m.Client()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes.Items) != 2 {
		t.Fatalf("member1 has %d nodes, want 2", len(nodes.Items))
	}
	for _, n := range nodes.Items {
		if n.Labels[corev1.LabelTopologyRegion] != "cn-north" || n.Status.Allocatable.Cpu().String() != "8" {
			t.Errorf("node %s: region %q, cpu %s", n.Name, n.Labels[corev1.LabelTopologyRegion], n.Status.Allocatable.Cpu())
		}
	}
	labels := map[string]string{"app": "smoke"}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "smoke", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx:1.27"}}},
			},
		},
	}
	if _, err := client.AppsV1().Deployments("default").Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	err = wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		got, err := client.AppsV1().Deployments("default").Get(ctx, "smoke", metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		return got.Status.ReadyReplicas == 3 && got.Status.AvailableReplicas == 3, nil
	})
	if err != nil {
		got, _ := client.AppsV1().Deployments("default").Get(context.Background(), "smoke", metav1.GetOptions{})
		t.Fatalf("deployment not available: %+v", got.Status)
	}
}

// TestMembersAreJoined: every member is registered on mco: a Push one with
// its endpoint and credentials, a Pull one (registered by its agent) with
// neither.
func TestMembersAreJoined(t *testing.T) {
	framework.Parallel(t)
	cfg, err := localcluster.RESTConfig(framework.Env.MCO.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	mco, err := mcoclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	list, err := mco.ClusterV1alpha1().Clusters().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 3 {
		t.Fatalf("%d clusters on mco, want 3", len(list.Items))
	}
	for _, c := range list.Items {
		push := c.Spec.SyncMode == "Push" && c.Spec.SecretRef != nil && c.Spec.APIEndpoint != ""
		pull := c.Spec.SyncMode == "Pull" && c.Spec.SecretRef == nil && c.Spec.ImpersonatorSecretRef == nil && c.Spec.APIEndpoint == ""
		if wantPull := framework.Env.Member(c.Name).Spec.Pull; c.Spec.ID == "" || (wantPull && !pull) || (!wantPull && !push) {
			t.Errorf("cluster %s (Pull member: %t): %+v", c.Name, wantPull, c.Spec)
		}
	}
	// The control plane's scheduler runs beside the apiserver.
	resp, err := http.Get(framework.Env.MCO.SchedulerURL() + "/readyz")
	if err != nil {
		t.Fatalf("mco-scheduler: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("mco-scheduler /readyz: %d", resp.StatusCode)
	}
}

// TestPauseAndResumeMember: pausing a member's kube-apiserver makes its
// /readyz time out; resuming brings it back.
func TestPauseAndResumeMember(t *testing.T) {
	framework.Serial(t, "pauses member2")
	m := framework.Env.Member("member2")
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, DisableKeepAlives: true,
	}}
	readyz := func() error {
		resp, err := client.Get(m.URL() + "/readyz")
		if err != nil {
			return err
		}
		resp.Body.Close()
		return nil
	}
	if err := readyz(); err != nil {
		t.Fatalf("member2 before pause: %v", err)
	}
	if err := m.APIServer.Pause(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = m.APIServer.Resume() }()
	if err := readyz(); err == nil {
		t.Fatal("paused member2 still answered /readyz")
	}
	if err := m.APIServer.Resume(); err != nil {
		t.Fatal(err)
	}
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return readyz() == nil, nil
	})
	if err != nil {
		t.Fatalf("member2 after resume: %v", err)
	}
}
