package register

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/mco-org/mco/pkg/agent/access"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
)

func TestUnregister(t *testing.T) {
	t.Parallel()
	cluster := func(mode clusterv1alpha1.ClusterSyncMode) *clusterv1alpha1.Cluster {
		return &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "edge-1"}, Spec: clusterv1alpha1.ClusterSpec{SyncMode: mode}}
	}
	cases := []struct {
		name       string
		existing   *clusterv1alpha1.Cluster
		nsLabels   map[string]string
		wantErr    string
		wantNSGone bool
		wantSteps  int
	}{
		{name: "a Pull cluster goes, with its identity on mco and the agent's namespace register made", existing: cluster(clusterv1alpha1.Pull),
			nsLabels: labels(), wantNSGone: true, wantSteps: 3},
		{name: "a namespace register did not make stays", existing: cluster(clusterv1alpha1.Pull), wantSteps: 3},
		{name: "a cluster already gone still has its identity revoked", nsLabels: labels(), wantNSGone: true, wantSteps: 2},
		{name: "a Push cluster is refused", existing: cluster(clusterv1alpha1.Push), wantErr: "is in Push mode: remove it with kubectl mco unjoin edge-1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			mco := mcofake.NewSimpleClientset() //nolint:staticcheck // NewClientset's field-managed tracker has no schema for mco's kinds.
			if c.existing != nil {
				_ = mco.Tracker().Add(c.existing)
			}
			o := access.For("edge-1")
			mcoKube := kubefake.NewClientset(o.ServiceAccount, o.ClusterRole, o.ClusterBinding)
			member := kubefake.NewClientset(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: DefaultNamespace, Labels: c.nsLabels}})
			steps := 0
			err := Unregister(ctx, mcoKube, mco, member, UnregisterOptions{Name: "edge-1", Timeout: 5 * time.Second, Progress: func(string) { steps++ }})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("Unregister = %v, want an error containing %q", err, c.wantErr)
				}
				if _, err := mco.ClusterV1alpha1().Clusters().Get(ctx, "edge-1", metav1.GetOptions{}); err != nil {
					t.Errorf("the refused cluster: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := mcoKube.CoreV1().ServiceAccounts(access.Namespace).Get(ctx, o.ServiceAccount.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("the agent's ServiceAccount: %v, want NotFound", err)
			}
			_, err = member.CoreV1().Namespaces().Get(ctx, DefaultNamespace, metav1.GetOptions{})
			if gone := apierrors.IsNotFound(err); gone != c.wantNSGone {
				t.Errorf("the agent's namespace gone = %t, want %t", gone, c.wantNSGone)
			}
			if steps != c.wantSteps {
				t.Errorf("%d steps told, want %d", steps, c.wantSteps)
			}
		})
	}
}
