package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/test/integration/framework"
)

// watchCacheInit is the metric each watch cache increments once it is
// filled; a resource read from etcd has none.
const watchCacheInit = "apiserver_watch_cache_initializations_total"

// TestWorksReadFromEmbeddedEtcd: on the embedded etcd, mco-apiserver keeps
// no watch cache of Works (they are read from etcd by direct calls) nor of
// Events, and caches the other kinds; Works are still listed and watched.
// (TestExternalEtcdAndTwoReplicas checks that they stay cached on an
// external etcd.)
func TestWorksReadFromEmbeddedEtcd(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	metrics := cachedResources(t, s)
	for _, r := range []string{`group="work.karmada.io",resource="resourcebindings"`, `group="",resource="configmaps"`} {
		if !strings.Contains(metrics, r) {
			t.Errorf("%s: no watch cache of %s", watchCacheInit, r)
		}
	}
	for _, r := range []string{`resource="works"`, `resource="events"`} {
		if strings.Contains(metrics, r) {
			t.Errorf("%s: a watch cache of %s", watchCacheInit, r)
		}
	}
	// Read from etcd, a Work is seen by a watch and listed as before.
	works := dynamic.NewForConfigOrDie(s.Config).Resource(workv1alpha1.SchemeGroupVersion.WithResource("works")).Namespace("karmada-es-member1")
	s.MustKubectl(t, "", "create", "namespace", "karmada-es-member1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w, err := works.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("watch works: %v", err)
	}
	defer w.Stop()
	s.MustKubectl(t, workManifest, "create", "-f", "-")
	select {
	case ev := <-w.ResultChan():
		if ev.Type != watch.Added {
			t.Errorf("first watch event %s, want ADDED", ev.Type)
		}
	case <-ctx.Done():
		t.Fatal("the watch saw no Work")
	}
	if out := s.MustKubectl(t, "", "get", "works", "-A", "-o", "name"); !strings.Contains(out, "work.work.karmada.io/demo") {
		t.Errorf("works listed: %q", out)
	}
}

const workManifest = `apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata:
  name: demo
  namespace: karmada-es-member1
spec:
  workload:
    manifests:
    - apiVersion: v1
      kind: ConfigMap
      metadata:
        name: demo
        namespace: default
      data:
        k: v
`

// cachedResources returns the lines of watchCacheInit in s's metrics once
// the ConfigMaps' cache is filled (caches fill in the background after
// the server is ready).
func cachedResources(t *testing.T, s *framework.APIServer) string {
	t.Helper()
	var lines string
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
		out, _, err := s.Kubectl(t, "", "get", "--raw", "/metrics")
		if err != nil {
			return false, nil
		}
		var keep []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, watchCacheInit+"{") {
				keep = append(keep, l)
			}
		}
		lines = strings.Join(keep, "\n")
		return strings.Contains(lines, `resource="configmaps"`) && strings.Contains(lines, `resource="resourcebindings"`), nil
	})
	if err != nil {
		t.Fatalf("watch caches not filled: %v\n%s", err, lines)
	}
	return lines
}
