package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/test/e2e/framework"
)

// memberNamespaces reports, per member, the namespace's labels and
// annotations rendered for comparison, or "absent".
func memberNamespaces(ctx context.Context, t *testing.T, name string) map[string]string {
	out := map[string]string{}
	for _, m := range members {
		ns, err := memberClient(t, m).CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			out[m] = "absent"
		case err != nil:
			out[m] = err.Error()
		default:
			_, managed := ns.Labels[workv1alpha1.WorkPermanentIDLabel]
			_, lastApplied := ns.Annotations["kubectl.kubernetes.io/last-applied-configuration"]
			out[m] = fmt.Sprintf("team=%s owner=%s managed=%v lastApplied=%v",
				ns.Labels["team"], ns.Annotations["owner"], managed, lastApplied)
		}
	}
	return out
}

// waitMemberNamespaces waits until every member reports want for the namespace.
func waitMemberNamespaces(t *testing.T, name, want string) {
	t.Helper()
	eventually(t, 90*time.Second, fmt.Sprintf("namespace %s in every member: %s", name, want), func(ctx context.Context) (bool, string) {
		got := memberNamespaces(ctx, t, name)
		for _, m := range members {
			if got[m] != want {
				return false, fmt.Sprintf("members have %v", got)
			}
		}
		return true, ""
	})
}

// TestNamespacePropagation: a namespace created on mco appears in every
// member with its labels and annotations, follows their changes and goes
// when it is deleted on mco or labelled skip-auto-propagation; reserved
// namespaces and namespaces labelled skip-auto-propagation stay on mco.
func TestNamespacePropagation(t *testing.T) {
	framework.Parallel(t)
	const follow, unfollow, skipped, reserved = "e2e-ns-follow", "e2e-ns-unfollow", "e2e-ns-skipped", "kube-e2e-ns"
	defer func() {
		_, _ = kubectlErr("", "delete", "namespace", follow, unfollow, skipped, reserved, "--ignore-not-found", "--wait=false")
	}()
	kubectl(t, `apiVersion: v1
kind: Namespace
metadata: {name: `+follow+`, labels: {team: blue}, annotations: {owner: e2e}}
---
apiVersion: v1
kind: Namespace
metadata: {name: `+unfollow+`, labels: {team: red}}
---
apiVersion: v1
kind: Namespace
metadata: {name: `+skipped+`, labels: {namespace.karmada.io/skip-auto-propagation: "true"}}
---
apiVersion: v1
kind: Namespace
metadata: {name: `+reserved+`}
`, "apply", "-f", "-")

	waitMemberNamespaces(t, follow, "team=blue owner=e2e managed=true lastApplied=false")
	waitMemberNamespaces(t, unfollow, "team=red owner= managed=true lastApplied=false")

	// By now the controller has seen the other two; they must have no Works
	// and be absent from the members, and reserved namespaces get no Works.
	_, mco := mcoClients(t)
	ctx := context.Background()
	for _, m := range members {
		for _, ns := range []string{skipped, reserved, "default", "kube-system", "karmada-cluster", names.ExecutionSpace(m)} {
			_, err := mco.WorkV1alpha1().Works(names.ExecutionSpace(m)).Get(ctx, names.Work("Namespace", ns, ""), metav1.GetOptions{})
			if !apierrors.IsNotFound(err) {
				t.Errorf("namespace %s has a Work for %s (err %v); it must not be propagated", ns, m, err)
			}
		}
		def, err := memberClient(t, m).CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, managed := def.Labels[workv1alpha1.WorkPermanentIDLabel]; managed {
			t.Errorf("%s: default namespace was taken over by mco: labels %v", m, def.Labels)
		}
	}
	for _, ns := range []string{skipped, reserved} {
		for m, got := range memberNamespaces(ctx, t, ns) {
			if got != "absent" {
				t.Errorf("namespace %s reached %s: %s", ns, m, got)
			}
		}
	}

	kubectl(t, "", "label", "namespace", follow, "team=green", "--overwrite")
	waitMemberNamespaces(t, follow, "team=green owner=e2e managed=true lastApplied=false")

	kubectl(t, "", "label", "namespace", unfollow, "namespace.karmada.io/skip-auto-propagation=true")
	waitMemberNamespaces(t, unfollow, "absent")

	kubectl(t, "", "delete", "namespace", follow, "--wait=false")
	waitMemberNamespaces(t, follow, "absent")
}
