package unjoin

import (
	"bytes"
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
	joinlib "github.com/mco-org/mco/pkg/join"
)

func TestRun(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		withMember bool
		want       string
	}{{
		name:       "With the member, both sides are cleaned",
		withMember: true,
		want: `- Deleting Cluster member3
- Removing the member's credentials from mco
- Removing mco's service accounts and roles from the member
Cluster member3 unjoined
`,
	}, {
		name: "Without the member, only mco's side is cleaned, and the output says so",
		want: `No --cluster-kubeconfig given: only mco's side is cleaned; mco's namespace karmada-cluster, service accounts and cluster roles stay in the member
- Deleting Cluster member3
- Removing the member's credentials from mco
Cluster member3 unjoined
`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			mco := mcofake.NewSimpleClientset(&clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "member3"}}) //nolint:staticcheck // NewClientset's field-managed tracker has no schema for mco's kinds.
			mcoKube := kubefake.NewClientset(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "member3", Namespace: joinlib.Namespace}})
			member := kubefake.NewClientset(
				&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: joinlib.Namespace}},
				&rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: joinlib.ImpersonatorServiceAccount}},
			)
			c := joinlib.Clients{MCOKube: mcoKube, MCO: mco}
			if tc.withMember {
				c.Member = member
			}
			var out bytes.Buffer
			if err := run(ctx, c, Options{Name: "member3", Wait: 10 * time.Second}, &out); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("output:\n%s\nwant:\n%s", out.String(), tc.want)
			}
			if _, err := mcoKube.CoreV1().Secrets(joinlib.Namespace).Get(ctx, "member3", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("the credentials on mco: %v, want NotFound", err)
			}
			_, err := member.CoreV1().Namespaces().Get(ctx, joinlib.Namespace, metav1.GetOptions{})
			if gone := apierrors.IsNotFound(err); gone != tc.withMember {
				t.Errorf("member namespace gone = %v, want %v", gone, tc.withMember)
			}
			// Unjoining again is harmless.
			if err := run(ctx, c, Options{Name: "member3", Wait: 10 * time.Second}, &bytes.Buffer{}); err != nil {
				t.Errorf("second unjoin: %v", err)
			}
		})
	}
}

func TestRunRefusesPull(t *testing.T) {
	t.Parallel()
	mco := mcofake.NewSimpleClientset(&clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "member3"}, //nolint:staticcheck // NewClientset's field-managed tracker has no schema for mco's kinds.
		Spec: clusterv1alpha1.ClusterSpec{SyncMode: clusterv1alpha1.Pull}})
	err := run(context.Background(), joinlib.Clients{MCOKube: kubefake.NewClientset(), MCO: mco}, Options{Name: "member3", Wait: time.Second}, &bytes.Buffer{})
	want := "cluster member3 is in Pull mode: its agent registered it; remove it with kubectl mco unregister member3"
	if err == nil || err.Error() != want {
		t.Fatalf("unjoin of a Pull cluster: %v, want %q", err, want)
	}
	if _, err := mco.ClusterV1alpha1().Clusters().Get(context.Background(), "member3", metav1.GetOptions{}); err != nil {
		t.Errorf("the Pull cluster after a refused unjoin: %v", err)
	}
}
