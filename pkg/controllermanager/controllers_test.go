package controllermanager

import (
	"slices"
	"testing"
)

func TestEnabled(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		flag    []string
		want    []string
		wantErr bool
	}{
		{"a star enables every controller", []string{"*"}, controllerNames(), false},
		{"a star with a minus leaves that controller out", []string{"*", "-execution"},
			[]string{"addon", "binding", "bindingStatus", "cluster", "clusterStatus", "cronFederatedHorizontalPodAutoscaler", "dependencies", "deploymentReplicasSyncer", "detector", "federatedHorizontalPodAutoscaler", "federatedResourceQuota", "gracefulEviction", "hpaScaleTargetMarker", "multiClusterService", "namespace", "remedy", "rollout", "taintPolicy", "workStatus", "workloadRebalancer"}, false},
		{"names alone enable only those", []string{"detector", "binding"}, []string{"binding", "detector"}, false},
		{"an unknown name is an error", []string{"*", "-nope"}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := enabled(c.flag)
			if (err != nil) != c.wantErr {
				t.Fatalf("error %v, want error %v", err, c.wantErr)
			}
			if !c.wantErr && !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
