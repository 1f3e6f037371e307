package execution

import (
	"errors"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

func TestRuleFor(t *testing.T) {
	t.Parallel()
	active := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}}
	deleting := active.DeepCopy()
	deleting.DeletionTimestamp = &metav1.Time{}
	terminating := active.DeepCopy()
	terminating.Status.Phase = corev1.NamespaceTerminating
	cases := []struct {
		name string
		ns   *corev1.Namespace
		want namespaceRule
	}{
		{"an active namespace is created in a member that lacks it", active, applyCreating},
		{"a namespace mco does not have is never created", nil, applyExisting},
		{"a namespace being deleted on mco takes nothing more", deleting, refuse},
		{"a namespace in phase Terminating takes nothing more", terminating, refuse},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := ruleFor(c.ns); got != c.want {
				t.Errorf("ruleFor = %v, want %v", got, c.want)
			}
		})
	}
}

func TestRuleFromWork(t *testing.T) {
	t.Parallel()
	present := &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Name: "namespace-shop", Namespace: "karmada-es-member3"}}
	deleting := present.DeepCopy()
	deleting.DeletionTimestamp = &metav1.Time{}
	cases := []struct {
		name string
		work *workv1alpha1.Work
		want namespaceRule
	}{
		{"an agent creates a namespace whose Work is there", present, applyCreating},
		{"an agent creates a namespace whose Work is not there yet", nil, applyCreating},
		{"an agent puts nothing more into a namespace whose Work is being deleted", deleting, refuse},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := ruleFromWork(c.work); got != c.want {
				t.Errorf("ruleFromWork = %v, want %v", got, c.want)
			}
		})
	}
}

func TestMemberRefusal(t *testing.T) {
	t.Parallel()
	terminating := apierrors.NewForbidden(schema.GroupResource{Resource: "deployments"}, "web", errors.New("unable to create new content in namespace shop because it is being terminated"))
	terminating.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: corev1.NamespaceTerminatingCause, Field: "metadata.namespace"}}
	nsMissing := apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, "shop")
	cases := []struct {
		name      string
		err       error
		wantRetry bool
		wantSame  bool
	}{
		{"a namespace terminating in the member waits", fmt.Errorf("apply: %w", terminating), true, false},
		{"a namespace missing from the member waits", nsMissing, true, false},
		{"another namespace missing is an error", apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, "other"), false, true},
		{"a missing object is an error", apierrors.NewNotFound(schema.GroupResource{Group: "apps", Resource: "deployments"}, "shop"), false, true},
		{"a plain forbidden is an error", apierrors.NewForbidden(schema.GroupResource{Resource: "deployments"}, "web", errors.New("no")), false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := memberRefusal(c.err, "shop", "member1")
			var u *errNamespaceUnavailable
			if errors.As(got, &u) != !c.wantSame {
				t.Fatalf("memberRefusal(%v) = %v; unavailable = %t, want %t", c.err, got, u != nil, !c.wantSame)
			}
			if u != nil && u.retry != c.wantRetry {
				t.Errorf("retry = %t, want %t", u.retry, c.wantRetry)
			}
			if c.wantSame && got != c.err {
				t.Errorf("memberRefusal changed %v into %v", c.err, got)
			}
		})
	}
}
