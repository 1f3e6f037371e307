package works

import (
	"context"
	"errors"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
	mcoinformers "github.com/mco-org/mco/pkg/generated/informers/externalversions"
)

func work(manifest string, labels, annotations map[string]string) *workv1alpha1.Work {
	return &workv1alpha1.Work{
		ObjectMeta: metav1.ObjectMeta{Namespace: "karmada-es-member1", Name: "web", ResourceVersion: "1", Labels: labels, Annotations: annotations},
		Spec: workv1alpha1.WorkSpec{Workload: workv1alpha1.WorkloadTemplate{
			Manifests: []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: []byte(manifest)}}}}},
	}
}

func TestEnsure(t *testing.T) {
	const manifest = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"shop"},"data":{"a":"1","b":"2"}}`
	// The same object, its keys in another order: what a Work read back
	// from the server, or rendered by another encoder, looks like.
	const reordered = `{"data":{"b":"2","a":"1"},"metadata":{"namespace":"shop","name":"web"},"kind":"ConfigMap","apiVersion":"v1"}`
	deleting := work(manifest, nil, nil)
	now := metav1.Now()
	deleting.DeletionTimestamp, deleting.Finalizers = &now, []string{"mco-org.github.io/execution"}
	tests := []struct {
		name        string
		have        *workv1alpha1.Work // nil: none yet
		want        *workv1alpha1.Work
		owned       []string
		noSpace     bool // creates fail: no execution space
		wantWrote   bool
		wantErr     error
		wantLabels  map[string]string
		wantNoAnnot string
	}{
		{name: "a missing Work is created", want: work(manifest, map[string]string{"app": "web"}, nil), wantWrote: true,
			wantLabels: map[string]string{"app": "web"}},
		{name: "a Work whose manifest differs only in key order is left alone", have: work(manifest, nil, nil),
			want: work(reordered, nil, nil)},
		{name: "a changed manifest is written", have: work(manifest, nil, nil),
			want: work(`{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"2"}}`, nil, nil), wantWrote: true},
		{name: "labels others set stay beside the wanted ones", have: work(manifest, map[string]string{"other": "x"}, nil),
			want: work(reordered, map[string]string{"app": "web"}, nil), wantWrote: true,
			wantLabels: map[string]string{"other": "x", "app": "web"}},
		{name: "an owned annotation the want lacks goes", have: work(manifest, nil, map[string]string{"owned": "p1", "theirs": "x"}),
			want: work(manifest, nil, nil), owned: []string{"owned"}, wantWrote: true, wantNoAnnot: "owned"},
		{name: "a Work being deleted is waited for", have: deleting, want: work(`{"kind":"ConfigMap"}`, nil, nil),
			wantErr: controller.ErrRetry},
		{name: "a cluster without an execution space is waited for, and said so", want: work(manifest, nil, nil), noSpace: true,
			wantErr: ErrNoExecutionSpace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var objects []runtime.Object
			if tt.have != nil {
				objects = append(objects, tt.have)
			}
			client := mcofake.NewSimpleClientset(objects...)
			writes := 0
			client.PrependReactor("*", "works", func(a k8stesting.Action) (bool, runtime.Object, error) {
				switch a.GetVerb() {
				case "create":
					writes++
					if tt.noSpace {
						return true, nil, apierrors.NewNotFound(corev1.Resource("namespaces"), "karmada-es-member1")
					}
				case "update":
					writes++
				}
				// The fake keeps no resource versions: number the writes
				// as a server would, so that newer copies are told apart.
				if o, ok := a.(interface{ GetObject() runtime.Object }); ok {
					if m, err := meta.Accessor(o.GetObject()); err == nil {
						m.SetResourceVersion(strconv.Itoa(100 + writes))
					}
				}
				return false, nil, nil
			})
			factory := mcoinformers.NewSharedInformerFactory(client, 0)
			inf := factory.Work().V1alpha1().Works().Informer()
			w, err := NewWriter(client, inf, 16)
			if err != nil {
				t.Fatal(err)
			}
			factory.Start(ctx.Done())
			if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
				t.Fatal("cache not synced")
			}
			wrote, err := w.Ensure(ctx, tt.want, tt.owned...)
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) || tt.wantErr == nil && err != nil {
				t.Fatalf("err %v, want %v", err, tt.wantErr)
			}
			if errors.Is(err, ErrNoExecutionSpace) && !errors.Is(err, controller.ErrRetry) {
				t.Errorf("a missing execution space must be a wait: %v", err)
			}
			if wrote != tt.wantWrote || (writes > 0) != (tt.wantWrote || tt.noSpace) {
				t.Errorf("wrote %v after %d writes, want %v", wrote, writes, tt.wantWrote)
			}
			if tt.wantErr != nil {
				return
			}
			// A second call right away sees the first write, before the
			// informer may have: nothing more is written.
			before := writes
			if _, err := w.Ensure(ctx, tt.want, tt.owned...); err != nil || writes != before {
				t.Errorf("a second Ensure wrote %d more (err %v)", writes-before, err)
			}
			live, err := client.WorkV1alpha1().Works("karmada-es-member1").Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.wantLabels {
				if live.Labels[k] != v {
					t.Errorf("labels %v, want %s=%s", live.Labels, k, v)
				}
			}
			if _, ok := live.Annotations[tt.wantNoAnnot]; tt.wantNoAnnot != "" && ok {
				t.Errorf("annotation %s stayed: %v", tt.wantNoAnnot, live.Annotations)
			}
			if !ManifestsEqual(live.Spec.Workload.Manifests, tt.want.Spec.Workload.Manifests) {
				t.Errorf("manifests %s, want %s", live.Spec.Workload.Manifests[0].Raw, tt.want.Spec.Workload.Manifests[0].Raw)
			}
		})
	}
}
