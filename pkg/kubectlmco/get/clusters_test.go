package get

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/printers"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
)

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func list(cpu, memory string) corev1.ResourceList {
	return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(memory)}
}

func testClusters() []clusterv1alpha1.Cluster {
	return []clusterv1alpha1.Cluster{{
		ObjectMeta: metav1.ObjectMeta{Name: "member1", CreationTimestamp: metav1.NewTime(now.Add(-50 * time.Minute))},
		Spec: clusterv1alpha1.ClusterSpec{SyncMode: clusterv1alpha1.Push, Region: "cn-north", Zones: []string{"cn-north-a"},
			Provider: "kwok", APIEndpoint: "https://127.0.0.1:6001"},
		Status: clusterv1alpha1.ClusterStatus{
			KubernetesVersion: "v1.37.2",
			Conditions:        []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue}},
			NodeSummary:       &clusterv1alpha1.NodeSummary{TotalNum: 2, ReadyNum: 2},
			ResourceSummary: &clusterv1alpha1.ResourceSummary{
				Allocatable: list("16", "64Gi"),
				Allocated:   list("9500m", "43Gi"),
				Allocating:  list("0", "512Mi"),
			},
		},
	}, {
		ObjectMeta: metav1.ObjectMeta{Name: "member2", CreationTimestamp: metav1.NewTime(now.Add(-3 * 24 * time.Hour))},
		Spec: clusterv1alpha1.ClusterSpec{SyncMode: clusterv1alpha1.Pull, Zone: "cn-north-b", Taints: []corev1.Taint{
			{Key: "cluster.karmada.io/not-ready", Effect: corev1.TaintEffectNoSchedule},
			{Key: "dedicated", Value: "gpu", Effect: corev1.TaintEffectNoExecute},
		}},
		Status: clusterv1alpha1.ClusterStatus{
			Conditions:      []metav1.Condition{{Type: "Ready", Status: metav1.ConditionFalse}},
			NodeSummary:     &clusterv1alpha1.NodeSummary{TotalNum: 1},
			ResourceSummary: &clusterv1alpha1.ResourceSummary{Allocatable: list("4", "16Gi"), Allocated: list("5", "1Gi")},
		},
	}, {
		ObjectMeta: metav1.ObjectMeta{Name: "new"},
		Spec: clusterv1alpha1.ClusterSpec{SyncMode: clusterv1alpha1.Push, Taints: []corev1.Taint{
			{Key: "a", Effect: corev1.TaintEffectNoSchedule}, {Key: "b", Effect: corev1.TaintEffectNoSchedule}, {Key: "c", Effect: corev1.TaintEffectNoSchedule},
		}},
	}}
}

func TestClusterTable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		opts options
		want string
	}{{
		name: "The columns show version, mode, readiness, place, nodes, allocatable/free capacity, the first taint and age",
		want: `NAME      VERSION   MODE   READY     REGION     ZONE         NODES   CPU      MEMORY        TAINTS                                       AGE
member1   v1.37.2   Push   True      cn-north   cn-north-a   2/2     16/6.5   64Gi/20.5Gi   <none>                                       50m
member2   -         Pull   False     -          cn-north-b   0/1     4/0      16Gi/15Gi     cluster.karmada.io/not-ready:NoSchedule +1   3d
new       -         Push   Unknown   -          -            -       -        -             a:NoSchedule +2                              <unknown>
`,
	}, {
		name: "Wide output adds the provider and the endpoint",
		opts: options{wide: true, noHeaders: true},
		want: `member1   v1.37.2   Push   True      cn-north   cn-north-a   2/2   16/6.5   64Gi/20.5Gi   <none>                                       50m         kwok   https://127.0.0.1:6001
member2   -         Pull   False     -          cn-north-b   0/1   4/0      16Gi/15Gi     cluster.karmada.io/not-ready:NoSchedule +1   3d          -      -
new       -         Push   Unknown   -          -            -     -        -             a:NoSchedule +2                              <unknown>   -      -
`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			if err := tc.opts.printTable(clusterTable(testClusters(), now), &out); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out.String(), tc.want)
			}
		})
	}
}

func TestUnits(t *testing.T) {
	t.Parallel()
	cores := []struct {
		milli int64
		want  string
	}{{8000, "8"}, {6500, "6.5"}, {6550, "6.5"}, {250, "250m"}, {0, "0"}, {1250, "1.2"}}
	for _, tc := range cores {
		if got := coresOf(tc.milli); got != tc.want {
			t.Errorf("coresOf(%dm) = %q, want %q", tc.milli, got, tc.want)
		}
	}
	sizes := []struct {
		bytes int64
		want  string
	}{{32 << 30, "32Gi"}, {20<<30 + 512<<20, "20.5Gi"}, {512 << 20, "512Mi"}, {1000, "1000"}, {3 << 40, "3Ti"}, {0, "0"}}
	for _, tc := range sizes {
		if got := bytesOf(tc.bytes); got != tc.want {
			t.Errorf("bytesOf(%d) = %q, want %q", tc.bytes, got, tc.want)
		}
	}
}

func TestRunClustersPrintsObjects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		printer printers.ResourcePrinter
		names   []string
		want    string
	}{{
		name:    "-o name prints every Cluster as kind/name",
		printer: &printers.NamePrinter{},
		want:    "cluster.cluster.karmada.io/m1\ncluster.cluster.karmada.io/m2\n",
	}, {
		name:    "-o yaml of one named Cluster prints the object alone",
		printer: &printers.YAMLPrinter{},
		names:   []string{"m2"},
		want: `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: m2
spec:
  syncMode: ""
status:
  conditions:
  - lastTransitionTime: null
    message: ""
    reason: ""
    status: "False"
    type: Ready
`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mco := mcofake.NewSimpleClientset(cluster("m2", false), cluster("m1", true)) //nolint:staticcheck // NewClientset's field-managed tracker has no schema for mco's kinds.
			o := options{objectPrinter: tc.printer}
			var out, errOut bytes.Buffer
			if err := o.runClusters(context.Background(), mco, tc.names, &out, &errOut); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out.String(), tc.want)
			}
		})
	}
}

func TestNoReadyCluster(t *testing.T) {
	t.Parallel()
	mco := mcofake.NewSimpleClientset(cluster("m1", false)) //nolint:staticcheck // NewClientset's field-managed tracker has no schema for mco's kinds.
	o := options{namespace: "default"}
	err := o.runMembers(context.Background(), nil, mco, "pods", nil, &bytes.Buffer{}, &bytes.Buffer{})
	if want := "no Push Cluster on mco is Ready (kubectl mco get clusters)"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}

func TestTargetClustersLeavesPullOut(t *testing.T) {
	t.Parallel()
	pull := cluster("m3", true)
	pull.Spec.SyncMode = clusterv1alpha1.Pull
	cases := []struct {
		name     string
		named    []string
		want     []string
		wantWarn string
	}{
		{"every Ready Push cluster is read, a Pull one is not", nil, []string{"m1"}, ""},
		{"a Pull cluster asked for by name is left out with a warning", []string{"m1", "m3"}, []string{"m1"},
			"warning: cluster m3 is in Pull mode: mco does not dial it, so its objects cannot be read through mco\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			mco := mcofake.NewSimpleClientset(cluster("m1", true), pull.DeepCopy()) //nolint:staticcheck // NewClientset's field-managed tracker has no schema for mco's kinds.
			o := options{clusters: c.named}
			var errOut bytes.Buffer
			got, err := o.targetClusters(context.Background(), mco, &errOut)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") || errOut.String() != c.wantWarn {
				t.Errorf("targetClusters = %v, warnings %q; want %v, %q", got, errOut.String(), c.want, c.wantWarn)
			}
		})
	}
}
