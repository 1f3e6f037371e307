package agent

import (
	"context"
	"fmt"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

// mayListWebhooks tells whether the agent's identity may list and watch
// ResourceInterpreterWebhookConfigurations. An agent registered by an
// older `kubectl mco register` may not; it then runs without interpreter
// webhooks (a cache it may not fill would hold every controller back)
// and says how to give it the right.
func mayListWebhooks(ctx context.Context, kube kubernetes.Interface) bool {
	for _, verb := range []string{"list", "watch"} {
		review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: verb, Group: configv1alpha1.GroupName,
				Resource: configv1alpha1.ResourcePluralResourceInterpreterWebhookConfiguration},
		}}
		got, err := kube.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
		if err != nil || !got.Status.Allowed {
			reason := fmt.Sprint(err)
			if err == nil {
				reason = "not allowed"
			}
			klog.FromContext(ctx).Info("Running without interpreter webhooks: the agent may not "+verb+
				" ResourceInterpreterWebhookConfigurations; run `kubectl mco register` for this cluster again to update its rights",
				"reason", reason)
			return false
		}
	}
	return true
}
