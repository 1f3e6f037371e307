package register

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/mco-org/mco/pkg/agent"
	"github.com/mco-org/mco/pkg/agent/access"
	"github.com/mco-org/mco/pkg/kubeconfig"
)

// AgentName names the agent's Deployment, ServiceAccount, credential
// Secret and cluster role binding in the member.
const AgentName = "mco-agent"

// DefaultNamespace holds the agent in the member.
const DefaultNamespace = "mco-system"

// managedLabel marks what register creates in the member.
const managedLabel = "agent.mco-org.github.io/managed-by"

// Options describe the member being registered.
type Options struct {
	Cluster   string
	Namespace string
	// CredentialTTL is the lifetime of the agent's own credential.
	CredentialTTL time.Duration
	// Image of the agent's Deployment; none is created when empty (the
	// agent then runs elsewhere, with --mco-kubeconfig-secret).
	Image string
	// AgentArgs are more flags of the agent (region, zones, labels).
	AgentArgs []string
	Progress  func(step string)
}

func (o *Options) step(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// Register exchanges the bootstrap credential (bootstrap reaches mco with
// it) for the agent's own and installs the agent in the member: its
// namespace, credential Secret, ServiceAccount bound to cluster-admin (it
// applies whatever the Works carry) and, given an image, its Deployment.
func Register(ctx context.Context, bootstrap *rest.Config, member kubernetes.Interface, o Options) error {
	if o.Namespace == "" {
		o.Namespace = DefaultNamespace
	}
	if o.CredentialTTL == 0 {
		o.CredentialTTL = DefaultCredentialTTL
	}
	o.step("Exchanging the bootstrap credential for the agent's own (valid %s)", o.CredentialTTL)
	kube, err := kubernetes.NewForConfig(bootstrap)
	if err != nil {
		return fmt.Errorf("client of mco: %w", err)
	}
	token, _, err := access.Token(ctx, kube, o.Cluster, o.CredentialTTL)
	if err != nil {
		if apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) {
			return fmt.Errorf("the bootstrap credential is not cluster %s's, or has expired (kubectl mco token create %s makes a new one): %w", o.Cluster, o.Cluster, err)
		}
		return err
	}
	ca, err := caOf(bootstrap)
	if err != nil {
		return err
	}
	raw, err := kubeconfig.Token("mco", bootstrap.Host, ca, token)
	if err != nil {
		return err
	}
	o.step("Installing the agent in the member (namespace %s)", o.Namespace)
	return installAgent(ctx, member, o, raw)
}

func labels() map[string]string { return map[string]string{managedLabel: "kubectl-mco"} }

// installAgent creates or updates the agent's objects in the member.
func installAgent(ctx context.Context, member kubernetes.Interface, o Options, raw []byte) error {
	ns := o.Namespace
	meta := metav1.ObjectMeta{Name: AgentName, Namespace: ns, Labels: labels()}
	if _, err := member.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: labels()}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create namespace %s in the member: %w", ns, err)
	}
	secret := &corev1.Secret{ObjectMeta: meta, Data: map[string][]byte{agent.KubeconfigKey: raw}}
	if _, err := member.CoreV1().Secrets(ns).Create(ctx, secret, metav1.CreateOptions{}); apierrors.IsAlreadyExists(err) {
		_, err = member.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{})
		if err != nil {
			return fmt.Errorf("update secret %s/%s in the member: %w", ns, AgentName, err)
		}
	} else if err != nil {
		return fmt.Errorf("create secret %s/%s in the member: %w", ns, AgentName, err)
	}
	if _, err := member.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: meta}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create service account %s/%s in the member: %w", ns, AgentName, err)
	}
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: AgentName, Labels: labels()},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: AgentName, Namespace: ns}}}
	if _, err := member.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create cluster role binding %s in the member: %w", AgentName, err)
	}
	if o.Image == "" {
		return nil
	}
	d := agentDeployment(o)
	if _, err := member.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); apierrors.IsAlreadyExists(err) {
		_, err = member.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
		if err != nil {
			return fmt.Errorf("update deployment %s/%s in the member: %w", ns, AgentName, err)
		}
	} else if err != nil {
		return fmt.Errorf("create deployment %s/%s in the member: %w", ns, AgentName, err)
	}
	return nil
}

// AgentArgs are the agent's flags in the member, reading its credential
// from the Secret register writes.
func AgentArgs(o Options) []string {
	ns := o.Namespace
	if ns == "" {
		ns = DefaultNamespace
	}
	return append([]string{
		"--cluster-name=" + o.Cluster,
		"--mco-kubeconfig-secret=" + ns + "/" + AgentName,
		"--leader-elect-resource-namespace=" + ns,
	}, o.AgentArgs...)
}

func agentDeployment(o Options) *appsv1.Deployment {
	sel := map[string]string{"app": AgentName}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: AgentName, Namespace: o.Namespace, Labels: labels()},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(int32(1)),
			Selector: &metav1.LabelSelector{MatchLabels: sel},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: sel},
				Spec: corev1.PodSpec{
					ServiceAccountName: AgentName,
					Containers: []corev1.Container{{
						Name: "agent", Image: o.Image,
						Args:  append(AgentArgs(o), "--bind-address=0.0.0.0:10359"),
						Ports: []corev1.ContainerPort{{Name: "metrics", ContainerPort: 10359}},
						LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
							Path: "/healthz", Port: intstr.FromString("metrics")}}},
						SecurityContext: &corev1.SecurityContext{
							RunAsNonRoot: ptr.To(true), AllowPrivilegeEscalation: ptr.To(false), ReadOnlyRootFilesystem: ptr.To(true),
							Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
						},
					}},
				},
			},
		},
	}
}
