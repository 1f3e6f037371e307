package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestAPIMachinery covers what clients rely on beyond CRUD: discovery,
// OpenAPI, pagination, selectors, finalizers.
func TestAPIMachinery(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	client := s.Client(t)
	ctx := context.Background()

	t.Run("aggregated discovery lists every group", func(t *testing.T) {
		body, err := client.Discovery().RESTClient().Get().AbsPath("/apis").
			SetHeader("Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList").DoRaw(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []string{"APIGroupDiscoveryList", "policy.karmada.io", "work.karmada.io", "cluster.karmada.io", "apps"} {
			if !strings.Contains(string(body), g) {
				t.Errorf("aggregated discovery lacks %q", g)
			}
		}
	})
	t.Run("OpenAPI v2 and v3 are served", func(t *testing.T) {
		for _, path := range []string{"/openapi/v2", "/openapi/v3/apis/policy.karmada.io/v1alpha1", "/openapi/v3/apis/apps/v1"} {
			body, err := client.Discovery().RESTClient().Get().AbsPath(path).DoRaw(ctx)
			if err != nil {
				t.Errorf("GET %s: %v", path, err)
				continue
			}
			if !strings.Contains(string(body), "x-kubernetes-group-version-kind") {
				t.Errorf("GET %s: no group-version-kind tags", path)
			}
		}
	})
	for i := 0; i < 5; i++ {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i),
			Labels: map[string]string{"tier": map[bool]string{true: "web", false: "db"}[i%2 == 0]}}}
		if _, err := client.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("lists are paginated", func(t *testing.T) {
		page, err := client.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 2 || page.Continue == "" {
			t.Fatalf("first page: %d items, continue %q", len(page.Items), page.Continue)
		}
		out := s.MustKubectl(t, "", "get", "configmaps", "--chunk-size=2", "-o", "name")
		if n := strings.Count(out, "configmap/cm-"); n != 5 {
			t.Errorf("kubectl with chunks listed %d configmaps, want 5:\n%s", n, out)
		}
	})
	t.Run("watches deliver bookmarks", func(t *testing.T) {
		wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		w, err := client.CoreV1().ConfigMaps("default").Watch(wctx, metav1.ListOptions{
			AllowWatchBookmarks: true, SendInitialEvents: ptr.To(true),
			ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		added := 0
		for ev := range w.ResultChan() {
			switch ev.Type {
			case watch.Added:
				added++
			case watch.Bookmark:
				if added != 5 {
					t.Errorf("bookmark after %d initial objects, want 5", added)
				}
				return
			}
		}
		t.Fatal("watch ended without a bookmark")
	})
	t.Run("label and field selectors filter", func(t *testing.T) {
		out := s.MustKubectl(t, "", "get", "configmaps", "-l", "tier=web", "-o", "name")
		if n := strings.Count(out, "configmap/"); n != 3 {
			t.Errorf("label selector matched %d, want 3:\n%s", n, out)
		}
		out = s.MustKubectl(t, "", "get", "configmaps", "--field-selector", "metadata.name=cm-1", "-o", "name")
		if strings.TrimSpace(out) != "configmap/cm-1" {
			t.Errorf("field selector: %q", out)
		}
	})
	t.Run("events select by involved object and show in describe", func(t *testing.T) {
		s.MustKubectl(t, testdata(t, "deployment.yaml"), "apply", "-f", "-")
		d, err := client.AppsV1().Deployments("default").Get(ctx, "nginx", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ev := &corev1.Event{
			ObjectMeta: metav1.ObjectMeta{Name: "nginx.1", Namespace: "default"},
			InvolvedObject: corev1.ObjectReference{Kind: "Deployment", Namespace: "default", Name: "nginx",
				APIVersion: "apps/v1", UID: d.UID},
			Reason: "ScheduleSucceeded", Message: "placed on member1", Type: corev1.EventTypeNormal,
			Source:         corev1.EventSource{Component: "mco-scheduler"},
			FirstTimestamp: metav1.Now(), LastTimestamp: metav1.Now(), Count: 1,
		}
		if _, err := client.CoreV1().Events("default").Create(ctx, ev, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		out := s.MustKubectl(t, "", "get", "events", "--field-selector", "involvedObject.name=nginx,involvedObject.kind=Deployment", "-o", "name")
		if !strings.Contains(out, "nginx.1") {
			t.Errorf("event not selected: %q", out)
		}
		out = s.MustKubectl(t, "", "describe", "deployment", "nginx")
		if !strings.Contains(out, "ScheduleSucceeded") {
			t.Errorf("describe shows no events:\n%s", out)
		}
		_, errOut, err := s.Kubectl(t, "", "get", "events", "--field-selector", "spec.bogus=1")
		if err == nil || !strings.Contains(errOut, "not supported") {
			t.Errorf("unsupported field selector: err=%v %s", err, errOut)
		}
	})
	t.Run("finalizers hold deletion until removed", func(t *testing.T) {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "held", Finalizers: []string{"example.com/hold"}}}
		if _, err := client.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := client.CoreV1().ConfigMaps("default").Delete(ctx, "held", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		got, err := client.CoreV1().ConfigMaps("default").Get(ctx, "held", metav1.GetOptions{})
		if err != nil || got.DeletionTimestamp == nil {
			t.Fatalf("held configmap after delete: %v %+v", err, got)
		}
		patch := []byte(`{"metadata":{"finalizers":null}}`)
		if _, err := client.CoreV1().ConfigMaps("default").Patch(ctx, "held", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			_, err := client.CoreV1().ConfigMaps("default").Get(ctx, "held", metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("configmap still there after its finalizer was removed: %v", err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}
