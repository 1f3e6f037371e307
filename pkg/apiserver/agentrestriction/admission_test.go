package agentrestriction

import (
	"context"
	"strings"
	"testing"

	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/mcs"
)

const agent3 = "system:serviceaccount:karmada-cluster:mco-agent-member3"

func cluster(name string, mode clusterv1alpha1.ClusterSyncMode, id string) *clusterv1alpha1.Cluster {
	return &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: clusterv1alpha1.ClusterSpec{SyncMode: mode, ID: id}}
}

func collectedWork(t *testing.T) *workv1alpha1.Work {
	w, err := mcs.CollectedWork("member3", &discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "backend-x",
		Labels: map[string]string{discoveryv1.LabelServiceName: "backend"}}}, []string{mcs.ByMCS})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// applied is w dispatched: no longer a report.
func applied(w *workv1alpha1.Work) *workv1alpha1.Work {
	w.Spec.SuspendDispatching = nil
	return w
}

func TestValidate(t *testing.T) {
	t.Parallel()
	clusterGVR := clusterv1alpha1.SchemeGroupVersion.WithResource("clusters")
	leaseGVR := schema.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}
	configMapGVR := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	workGVR := schema.GroupVersionResource{Group: "work.karmada.io", Version: "v1alpha1", Resource: "works"}
	withSecret := cluster("member3", clusterv1alpha1.Pull, "")
	withSecret.Spec.SecretRef = &clusterv1alpha1.LocalSecretReference{Namespace: "karmada-cluster", Name: "member3"}
	claimed := cluster("member3", clusterv1alpha1.Pull, "uid-3")
	pushed := cluster("member3", clusterv1alpha1.Push, "uid-3")
	cases := []struct {
		name        string
		user        string
		gvr         schema.GroupVersionResource
		namespace   string
		objName     string
		subresource string
		op          admission.Operation
		obj, old    runtime.Object
		wantErr     string
	}{
		{name: "an agent registers its own cluster in Pull mode", user: agent3, gvr: clusterGVR, objName: "member3", op: admission.Create,
			obj: cluster("member3", clusterv1alpha1.Pull, "uid-3")},
		{name: "an agent may not create another cluster", user: agent3, gvr: clusterGVR, objName: "member1", op: admission.Create,
			obj: cluster("member1", clusterv1alpha1.Pull, "uid-3"), wantErr: "may not create cluster member1"},
		{name: "an agent may not register its cluster in Push mode", user: agent3, gvr: clusterGVR, objName: "member3", op: admission.Create,
			obj: cluster("member3", clusterv1alpha1.Push, "uid-3"), wantErr: "Pull mode only"},
		{name: "an agent may not hand mco member credentials", user: agent3, gvr: clusterGVR, objName: "member3", op: admission.Create,
			obj: withSecret, wantErr: "may not give mco credentials"},
		{name: "an agent records the member's id on an unclaimed cluster", user: agent3, gvr: clusterGVR, objName: "member3", op: admission.Update,
			obj: cluster("member3", clusterv1alpha1.Pull, "uid-3"), old: cluster("member3", clusterv1alpha1.Pull, "")},
		{name: "an agent may not change a recorded id", user: agent3, gvr: clusterGVR, objName: "member3", op: admission.Update,
			obj: cluster("member3", clusterv1alpha1.Pull, "uid-3"), old: cluster("member3", clusterv1alpha1.Pull, "uid-9"), wantErr: "may not change its Cluster's spec"},
		{name: "an agent may not turn its cluster to Push", user: agent3, gvr: clusterGVR, objName: "member3", op: admission.Update,
			obj: pushed, old: claimed, wantErr: "may not change its Cluster's spec"},
		{name: "an agent writes its own cluster's status", user: agent3, gvr: clusterGVR, objName: "member3", subresource: "status", op: admission.Update,
			obj: pushed, old: claimed},
		{name: "an agent may not write another cluster's status", user: agent3, gvr: clusterGVR, objName: "member2", subresource: "status", op: admission.Update,
			obj: cluster("member2", clusterv1alpha1.Push, ""), old: cluster("member2", clusterv1alpha1.Push, ""), wantErr: "may not change cluster member2"},
		{name: "an agent may not delete its cluster", user: agent3, gvr: clusterGVR, objName: "member3", op: admission.Delete, wantErr: "may not delete its Cluster"},
		{name: "an agent creates its own lease", user: agent3, gvr: leaseGVR, namespace: "karmada-cluster", objName: "member3", op: admission.Create},
		{name: "an agent may not create another cluster's lease", user: agent3, gvr: leaseGVR, namespace: "karmada-cluster", objName: "member1", op: admission.Create,
			wantErr: "may not create lease karmada-cluster/member1"},
		{name: "an agent may not create a lease elsewhere", user: agent3, gvr: leaseGVR, namespace: "kube-system", objName: "member3", op: admission.Create,
			wantErr: "may not create lease kube-system/member3"},
		{name: "an agent reports its member's metrics", user: agent3, gvr: configMapGVR, namespace: "karmada-cluster", objName: "member3-metrics", op: admission.Create},
		{name: "an agent may not write another ConfigMap", user: agent3, gvr: configMapGVR, namespace: "karmada-cluster", objName: "member1-metrics", op: admission.Update,
			wantErr: "may not change configmap karmada-cluster/member1-metrics; its own is karmada-cluster/member3-metrics"},
		{name: "an agent may not write ConfigMaps elsewhere", user: agent3, gvr: configMapGVR, namespace: "kube-system", objName: "member3-metrics", op: admission.Create,
			wantErr: "may not create configmap kube-system/member3-metrics"},
		{name: "an agent updates its own works", user: agent3, gvr: workGVR, namespace: "karmada-es-member3", objName: "web", op: admission.Update},
		{name: "an agent may not touch another cluster's works", user: agent3, gvr: workGVR, namespace: "karmada-es-member1", objName: "web", op: admission.Update,
			wantErr: "may not change works in namespace karmada-es-member1"},
		{name: "an agent reports a slice of its member", user: agent3, gvr: workGVR, namespace: "karmada-es-member3", objName: "backend-x", op: admission.Create,
			obj: collectedWork(t)},
		{name: "an agent deletes a slice it reported", user: agent3, gvr: workGVR, namespace: "karmada-es-member3", objName: "backend-x", op: admission.Delete,
			old: collectedWork(t)},
		{name: "an agent may not create a Work to apply", user: agent3, gvr: workGVR, namespace: "karmada-es-member3", objName: "web", op: admission.Create,
			obj: applied(collectedWork(t)), wantErr: "may create only the Works that report its member's EndpointSlices"},
		{name: "an agent may not delete a Work mco gave it", user: agent3, gvr: workGVR, namespace: "karmada-es-member3", objName: "web", op: admission.Delete,
			old: applied(collectedWork(t)), wantErr: "may delete only the Works that report"},
		{name: "an agent may not turn a reported slice into a Work to apply", user: agent3, gvr: workGVR, namespace: "karmada-es-member3", objName: "backend-x", op: admission.Update,
			obj: applied(collectedWork(t)), old: collectedWork(t), wantErr: "may not turn"},
		{name: "other users are not this rule's", user: "system:serviceaccount:karmada-cluster:mco-bootstrap", gvr: clusterGVR, objName: "member1", op: admission.Delete},
		{name: "a service account elsewhere with the prefix is no agent", user: "system:serviceaccount:default:mco-agent-member3", gvr: clusterGVR, objName: "member1", op: admission.Delete},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := admission.NewAttributesRecord(c.obj, c.old, schema.GroupVersionKind{}, c.namespace, c.objName, c.gvr, c.subresource, c.op, nil, false,
				&user.DefaultInfo{Name: c.user})
			err := New().Validate(context.Background(), a, nil)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("Validate = %v, want an error containing %q", err, c.wantErr)
			}
		})
	}
}
