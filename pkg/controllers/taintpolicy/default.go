package taintpolicy

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
)

const (
	// DefaultPolicyName is the ClusterTaintPolicy mco creates once.
	DefaultPolicyName = "mco-default-failover"
	// RecordNamespace holds the record of the default policy's creation.
	RecordNamespace = "karmada-system"
	// RecordName is the ConfigMap that records it. While it exists the
	// default policy is never created again, so that a user who deleted
	// it keeps it deleted.
	RecordName = "mco-default-taint-policy"
)

// DefaultPolicy is mco's failover policy: a Cluster whose published Ready
// is False or Unknown (published only after --cluster-failure-threshold)
// gets the NoExecute not-ready taint, which moves workloads away; Ready
// True takes it off.
func DefaultPolicy() *policyv1alpha1.ClusterTaintPolicy {
	ready := func(values ...metav1.ConditionStatus) []policyv1alpha1.MatchCondition {
		return []policyv1alpha1.MatchCondition{{ConditionType: clusterv1alpha1.ClusterConditionReady,
			Operator: policyv1alpha1.MatchConditionOpIn, StatusValues: values}}
	}
	return &policyv1alpha1.ClusterTaintPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: DefaultPolicyName},
		Spec: policyv1alpha1.ClusterTaintPolicySpec{
			AddOnConditions:    ready(metav1.ConditionFalse, metav1.ConditionUnknown),
			RemoveOnConditions: ready(metav1.ConditionTrue),
			Taints:             []policyv1alpha1.Taint{{Key: clusterv1alpha1.TaintClusterNotReady, Effect: corev1.TaintEffectNoExecute}},
		},
	}
}

// CreateDefault creates the default policy unless it was created before,
// then records that it was. A policy of that name that already exists is
// left as it is (a user's, or ours from a start that stopped before the
// record). A server refusing the policy (--allow-no-execute-taint-policy=false)
// is logged and not recorded, so a later start tries again.
func CreateDefault(ctx context.Context, mco mcoclient.Interface, kube kubernetes.Interface) error {
	logger := klog.FromContext(ctx)
	_, err := kube.CoreV1().ConfigMaps(RecordNamespace).Get(ctx, RecordName, metav1.GetOptions{})
	if err == nil {
		return nil
	}
	if !apierrors.IsNotFound(err) {
		return fmt.Errorf("get %s/%s: %w", RecordNamespace, RecordName, err)
	}
	_, err = mco.PolicyV1alpha1().ClusterTaintPolicies().Create(ctx, DefaultPolicy(), metav1.CreateOptions{})
	switch {
	case err == nil:
		logger.Info("Default ClusterTaintPolicy created", "name", DefaultPolicyName)
	case apierrors.IsAlreadyExists(err):
	case apierrors.IsInvalid(err) || apierrors.IsForbidden(err):
		logger.Info("Default ClusterTaintPolicy refused by the server; not created", "name", DefaultPolicyName, "reason", err.Error())
		return nil
	default:
		return fmt.Errorf("create ClusterTaintPolicy %s: %w", DefaultPolicyName, err)
	}
	return record(ctx, kube)
}

// record writes the ConfigMap that says the default policy was created,
// and its namespace when missing.
func record(ctx context.Context, kube kubernetes.Interface) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: RecordNamespace}}
	if _, err := kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create namespace %s: %w", RecordNamespace, err)
	}
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: RecordName, Namespace: RecordNamespace},
		Data: map[string]string{
			"policy": DefaultPolicyName,
			"note":   "mco-controller-manager created ClusterTaintPolicy " + DefaultPolicyName + " once; while this ConfigMap exists it is not created again.",
		},
	}
	if _, err := kube.CoreV1().ConfigMaps(RecordNamespace).Create(ctx, cm, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("record the default ClusterTaintPolicy in %s/%s: %w", RecordNamespace, RecordName, err)
	}
	return nil
}

// RunCreateDefault calls CreateDefault until it succeeds or ctx ends,
// waiting from half a second up to 30s between attempts.
func RunCreateDefault(ctx context.Context, mco mcoclient.Interface, kube kubernetes.Interface) {
	delay := 500 * time.Millisecond
	for {
		err := CreateDefault(ctx, mco, kube)
		if err == nil {
			return
		}
		klog.FromContext(ctx).Error(err, "Default ClusterTaintPolicy not created yet; retrying", "after", delay)
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		delay = min(2*delay, 30*time.Second)
	}
}
