package taintpolicy

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/policy/validation"
	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
)

func recordConfigMap() *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: RecordName, Namespace: RecordNamespace}}
}

func TestCreateDefault(t *testing.T) {
	t.Parallel()
	changed := DefaultPolicy()
	changed.Spec.Taints[0].Value = "edited"
	refuse := func(c *mcofake.Clientset) {
		c.PrependReactor("create", "clustertaintpolicies", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewInvalid(policyv1alpha1.SchemeGroupVersion.WithKind("ClusterTaintPolicy").GroupKind(), DefaultPolicyName,
				field.ErrorList{field.Forbidden(field.NewPath("spec", "taints").Index(0).Child("effect"), validation.NoExecuteRefusedMessage)})
		})
	}
	cases := []struct {
		name       string
		policies   []runtime.Object
		kube       []runtime.Object
		react      func(*mcofake.Clientset)
		wantPolicy *policyv1alpha1.ClusterTaintPolicy // nil: none
		wantRecord bool
	}{
		{
			name:       "On a new control plane the policy is created and the creation recorded.",
			wantPolicy: DefaultPolicy(),
			wantRecord: true,
		},
		{
			name:       "A policy the user deleted after it was recorded is not created again.",
			kube:       []runtime.Object{recordConfigMap()},
			wantRecord: true,
		},
		{
			name:       "A policy of that name that exists without a record is left as it is, and recorded.",
			policies:   []runtime.Object{changed.DeepCopy()},
			wantPolicy: changed,
			wantRecord: true,
		},
		{
			name:  "A server that refuses NoExecute taints gets no policy and no record, so a later start tries again.",
			react: refuse,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mco := mcofake.NewSimpleClientset(tc.policies...)
			if tc.react != nil {
				tc.react(mco)
			}
			kube := kubefake.NewSimpleClientset(tc.kube...)
			ctx := context.Background()
			if err := CreateDefault(ctx, mco, kube); err != nil {
				t.Fatalf("CreateDefault: %v", err)
			}
			got, err := mco.PolicyV1alpha1().ClusterTaintPolicies().Get(ctx, DefaultPolicyName, metav1.GetOptions{})
			switch {
			case tc.wantPolicy == nil && !apierrors.IsNotFound(err):
				t.Errorf("policy: %v %v, want none", got, err)
			case tc.wantPolicy != nil && err != nil:
				t.Errorf("policy: %v", err)
			case tc.wantPolicy != nil:
				if diff := cmp.Diff(tc.wantPolicy.Spec, got.Spec); diff != "" {
					t.Errorf("policy spec (-want +got):\n%s", diff)
				}
			}
			_, err = kube.CoreV1().ConfigMaps(RecordNamespace).Get(ctx, RecordName, metav1.GetOptions{})
			if recorded := err == nil; recorded != tc.wantRecord {
				t.Errorf("recorded = %v (%v), want %v", recorded, err, tc.wantRecord)
			}
			// A second start changes nothing more.
			if err := CreateDefault(ctx, mco, kube); err != nil {
				t.Fatalf("second CreateDefault: %v", err)
			}
			list, _ := mco.PolicyV1alpha1().ClusterTaintPolicies().List(ctx, metav1.ListOptions{})
			if want := map[bool]int{true: 1, false: 0}[tc.wantPolicy != nil]; len(list.Items) != want {
				t.Errorf("%d policies after a second start, want %d", len(list.Items), want)
			}
		})
	}
}

func TestDefaultPolicyIsValid(t *testing.T) {
	t.Parallel()
	if errs := validation.ValidateClusterTaintPolicy(DefaultPolicy(), validation.TaintPolicyOptions{AllowNoExecute: true}); len(errs) > 0 {
		t.Errorf("the default policy is invalid: %v", errs.ToAggregate())
	}
}
