package preview

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
)

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, uid: 0b6f1c9e-2d3a-4f5b-8c7d-9e0f1a2b3c4d}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`

func policy(env string) string {
	return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {labelSelector: {matchLabels: {env: ` + env + `}}}
    replicaScheduling: {replicaSchedulingType: Divided}
`
}

const clusterDoc = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: extra}
spec: {syncMode: Push}
`

// liveCluster is a Cluster as mco serves it, serving Deployments.
func liveCluster(name, env string, taints ...corev1.Taint) runtime.Object {
	return &clusterv1alpha1.Cluster{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"env": env}},
		Spec:       clusterv1alpha1.ClusterSpec{SyncMode: clusterv1alpha1.Push, Taints: taints},
		Status: clusterv1alpha1.ClusterStatus{APIEnablements: []clusterv1alpha1.APIEnablement{
			{GroupVersion: "apps/v1", Resources: []clusterv1alpha1.APIResource{{Name: "deployments", Kind: "Deployment"}}},
		}},
	}
}

func TestRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	deploy, prod, none, extra := write("deploy.yaml", deployment), write("prod.yaml", policy("prod")), write("none.yaml", policy("none")), write("cluster.yaml", clusterDoc)
	fleet := []runtime.Object{
		liveCluster("west", "prod"), liveCluster("lab", "dev"), liveCluster("east", "prod"),
		liveCluster("down", "prod", corev1.Taint{Key: "cluster.karmada.io/not-ready", Effect: corev1.TaintEffectNoSchedule}),
	}
	cases := []struct {
		name     string
		clusters []runtime.Object
		files    []string
		output   string
		want     string
		wantErr  string
	}{{
		name:  "The table gives each cluster its replicas, or the reason and plugin that left it out",
		files: []string{deploy, prod},
		want: `CLUSTER   REPLICAS   REASON
down      -          cluster(s) had untolerated taint {cluster.karmada.io/not-ready: } (TaintToleration)
east      2          
lab       -          cluster(s) did not match the placement cluster affinity (ClusterAffinity)
west      2          
`,
	}, {
		name:   "YAML prints the placement with its exclusions",
		files:  []string{deploy, prod},
		output: "yaml",
		want: `clusters:
- name: east
  replicas: 2
- name: west
  replicas: 2
excluded:
- cluster: down
  plugin: TaintToleration
  reason: 'cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }'
- cluster: lab
  plugin: ClusterAffinity
  reason: cluster(s) did not match the placement cluster affinity
replicas: 4
`,
	}, {
		name:  "A workload that fits nowhere prints every reason and fails with the scheduler's",
		files: []string{deploy, none},
		want: `CLUSTER   REPLICAS   REASON
down      -          cluster(s) had untolerated taint {cluster.karmada.io/not-ready: } (TaintToleration)
east      -          cluster(s) did not match the placement cluster affinity (ClusterAffinity)
lab       -          cluster(s) did not match the placement cluster affinity (ClusterAffinity)
west      -          cluster(s) did not match the placement cluster affinity (ClusterAffinity)
`,
		wantErr: "0/4 clusters are available: 1 cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }, 3 cluster(s) did not match the placement cluster affinity.",
	}, {
		name:    "Cluster objects in the files are refused",
		files:   []string{extra, deploy, prod},
		wantErr: extra + ": document 1: preview places against the Clusters on mco; leave Cluster objects out (mco-scheduler plan previews against Clusters from files)",
	}, {
		name:     "mco without Clusters is an error",
		clusters: []runtime.Object{},
		files:    []string{deploy, prod},
		wantErr:  "mco has no Clusters to place on: join one with kubectl mco join",
	}, {
		name:    "An unknown output format is refused",
		files:   []string{deploy, prod},
		output:  "wide",
		wantErr: `unknown output format "wide": use yaml or json, or no -o for a table`,
	}, {
		name:    "No files is refused",
		wantErr: "no input files: give the workload and its PropagationPolicy (or a ResourceBinding) with -f",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clusters := fleet
			if tc.clusters != nil {
				clusters = tc.clusters
			}
			mco := mcofake.NewSimpleClientset(clusters...) //nolint:staticcheck // NewClientset's field-managed tracker has no schema for mco's kinds.
			var out, errOut bytes.Buffer
			err := Run(context.Background(), mco, tc.files, tc.output, &out, &errOut)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr) {
				t.Fatalf("error:\n%v\nwant:\n%s", err, tc.wantErr)
			}
			if out.String() != tc.want {
				t.Errorf("stdout:\n%s\nwant:\n%s", out.String(), tc.want)
			}
		})
	}
}
