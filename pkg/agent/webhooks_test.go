package agent

import (
	"context"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

func TestMayListWebhooks(t *testing.T) {
	t.Parallel()
	for _, allowed := range []bool{true, false} {
		kube := fake.NewClientset()
		kube.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
			review := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview).DeepCopy()
			review.Status.Allowed = allowed
			return true, review, nil
		})
		if got := mayListWebhooks(context.Background(), kube); got != allowed {
			t.Errorf("mayListWebhooks = %v when the review says %v", got, allowed)
		}
	}
}
