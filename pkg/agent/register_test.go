package agent

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

func TestDecideClaim(t *testing.T) {
	t.Parallel()
	cluster := func(mode clusterv1alpha1.ClusterSyncMode, id string) *clusterv1alpha1.Cluster {
		return &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "member3"},
			Spec: clusterv1alpha1.ClusterSpec{SyncMode: mode, ID: id}}
	}
	deleting := cluster(clusterv1alpha1.Pull, "uid-3")
	deleting.DeletionTimestamp = &metav1.Time{}
	cases := []struct {
		name     string
		existing *clusterv1alpha1.Cluster
		want     claim
		wantErr  string
	}{
		{"a missing Cluster is created", nil, create, ""},
		{"an unclaimed Pull Cluster is adopted", cluster(clusterv1alpha1.Pull, ""), adopt, ""},
		{"this member's Pull Cluster is kept", cluster(clusterv1alpha1.Pull, "uid-3"), keep, ""},
		{"another member's Pull Cluster is refused", cluster(clusterv1alpha1.Pull, "uid-9"), 0, "registered by another member (id uid-9"},
		{"a Push Cluster is refused", cluster(clusterv1alpha1.Push, "uid-3"), 0, "joined in Push mode"},
		{"a Cluster being deleted is refused", deleting, 0, "being deleted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := decideClaim(c.existing, "uid-3")
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("decideClaim error = %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("decideClaim = %v, %v; want %v", got, err, c.want)
			}
		})
	}
}
