// Package join registers a member cluster with mco in push mode: it gives
// mco an identity in the member and records the member as a Cluster with its
// credentials, as Karmada's join does.
package join

import (
	"context"
	"fmt"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
)

// Namespace holds, in the member and on mco, what join creates.
const Namespace = "karmada-cluster"

// Options describe the member being joined.
type Options struct {
	// Name of the Cluster object on mco.
	Name string
	// APIEndpoint is the member's kube-apiserver URL as mco reaches it.
	APIEndpoint string
	// CABundle is the PEM CA that signs the member's serving certificate.
	CABundle         []byte
	Provider, Region string
	Zones            []string
	Labels           map[string]string
	// TokenTimeout bounds the wait for the member to issue the token.
	TokenTimeout time.Duration
	// UseTokenRequest takes the token from the member's TokenRequest API
	// instead of a token Secret filled by its token controller, for members
	// that run no kube-controller-manager. Such a token expires, after
	// TokenExpiration (default a year); join again to renew it.
	UseTokenRequest bool
	TokenExpiration time.Duration
}

// defaultTokenExpiration is the lifetime asked for a requested token.
const defaultTokenExpiration = 365 * 24 * time.Hour

// Clients reach mco and the member.
type Clients struct {
	MCOKube kubernetes.Interface
	MCO     mcoclient.Interface
	Member  kubernetes.Interface
}

// serviceAccountName is mco's identity in the member.
func serviceAccountName(cluster string) string { return "karmada-" + cluster }

// Join creates mco's identity in the member and the Cluster with its
// credentials on mco. It is idempotent: a second run updates nothing that
// is already right.
func Join(ctx context.Context, c Clients, o Options) (*clusterv1alpha1.Cluster, error) {
	if o.TokenTimeout == 0 {
		o.TokenTimeout = time.Minute
	}
	token, id, err := prepareMember(ctx, c.Member, o)
	if err != nil {
		return nil, fmt.Errorf("prepare member %s: %w", o.Name, err)
	}
	if err := ensureNamespace(ctx, c.MCOKube, Namespace); err != nil {
		return nil, fmt.Errorf("on mco: %w", err)
	}
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: Namespace},
		Data: map[string][]byte{
			clusterv1alpha1.SecretTokenKey:  token,
			clusterv1alpha1.SecretCADataKey: o.CABundle,
		},
	}
	if err := createOrUpdateSecret(ctx, c.MCOKube, secret); err != nil {
		return nil, fmt.Errorf("store credentials of %s on mco: %w", o.Name, err)
	}
	cluster := &clusterv1alpha1.Cluster{
		ObjectMeta: metav1.ObjectMeta{Name: o.Name, Labels: o.Labels},
		Spec: clusterv1alpha1.ClusterSpec{
			ID:          id,
			SyncMode:    clusterv1alpha1.Push,
			APIEndpoint: o.APIEndpoint,
			SecretRef:   &clusterv1alpha1.LocalSecretReference{Namespace: Namespace, Name: o.Name},
			Provider:    o.Provider,
			Region:      o.Region,
			Zones:       o.Zones,
		},
	}
	existing, err := c.MCO.ClusterV1alpha1().Clusters().Get(ctx, o.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		created, err := c.MCO.ClusterV1alpha1().Clusters().Create(ctx, cluster, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("create cluster %s: %w", o.Name, err)
		}
		return created, nil
	case err != nil:
		return nil, fmt.Errorf("get cluster %s: %w", o.Name, err)
	}
	if existing.Spec.ID != "" && existing.Spec.ID != id {
		return nil, fmt.Errorf("cluster %s is already joined with another member (id %s, this member %s)", o.Name, existing.Spec.ID, id)
	}
	existing.Labels = mergeLabels(existing.Labels, o.Labels)
	existing.Spec = cluster.Spec
	updated, err := c.MCO.ClusterV1alpha1().Clusters().Update(ctx, existing, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("update cluster %s: %w", o.Name, err)
	}
	return updated, nil
}

// prepareMember creates the namespace, service account, RBAC and token
// secret in the member, and returns the token and the member's identity
// (the UID of its kube-system namespace).
func prepareMember(ctx context.Context, member kubernetes.Interface, o Options) ([]byte, string, error) {
	ks, err := member.CoreV1().Namespaces().Get(ctx, metav1.NamespaceSystem, metav1.GetOptions{})
	if err != nil {
		return nil, "", fmt.Errorf("read kube-system: %w", err)
	}
	if err := ensureNamespace(ctx, member, Namespace); err != nil {
		return nil, "", err
	}
	sa := serviceAccountName(o.Name)
	_, err = member.CoreV1().ServiceAccounts(Namespace).Create(ctx, &corev1.ServiceAccount{
		ObjectMeta: metav1.ObjectMeta{Name: sa, Namespace: Namespace},
	}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, "", fmt.Errorf("create service account: %w", err)
	}
	if err := ensureRBAC(ctx, member, sa); err != nil {
		return nil, "", err
	}
	if o.UseTokenRequest {
		token, err := requestToken(ctx, member, sa, o.TokenExpiration)
		if err != nil {
			return nil, "", err
		}
		return token, string(ks.UID), nil
	}
	_, err = member.CoreV1().Secrets(Namespace).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: sa, Namespace: Namespace,
			Annotations: map[string]string{corev1.ServiceAccountNameKey: sa}},
		Type: corev1.SecretTypeServiceAccountToken,
	}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, "", fmt.Errorf("create token secret: %w", err)
	}
	var token []byte
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, o.TokenTimeout, true, func(ctx context.Context) (bool, error) {
		s, err := member.CoreV1().Secrets(Namespace).Get(ctx, sa, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		token = s.Data[corev1.ServiceAccountTokenKey]
		return len(token) > 0, nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("member did not issue a token for %s/%s (is its token controller running?): %w", Namespace, sa, err)
	}
	return token, string(ks.UID), nil
}

// requestToken asks the member's TokenRequest API for a token of the
// service account.
func requestToken(ctx context.Context, member kubernetes.Interface, sa string, expiration time.Duration) ([]byte, error) {
	if expiration == 0 {
		expiration = defaultTokenExpiration
	}
	seconds := int64(expiration / time.Second)
	tr, err := member.CoreV1().ServiceAccounts(Namespace).CreateToken(ctx, sa, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &seconds},
	}, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("request a token for %s/%s: %w", Namespace, sa, err)
	}
	return []byte(tr.Status.Token), nil
}

// ensureRBAC grants mco's service account every verb on every resource.
func ensureRBAC(ctx context.Context, member kubernetes.Interface, sa string) error {
	name := "karmada-controller-manager:" + sa
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"*"}},
			{NonResourceURLs: []string{"*"}, Verbs: []string{"get"}},
		},
	}
	if _, err := member.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create cluster role: %w", err)
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: Namespace}},
	}
	if _, err := member.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create cluster role binding: %w", err)
	}
	return nil
}

func ensureNamespace(ctx context.Context, client kubernetes.Interface, name string) error {
	_, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create namespace %s: %w", name, err)
	}
	return nil
}

func createOrUpdateSecret(ctx context.Context, client kubernetes.Interface, s *corev1.Secret) error {
	_, err := client.CoreV1().Secrets(s.Namespace).Create(ctx, s, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		return err
	}
	existing, err := client.CoreV1().Secrets(s.Namespace).Get(ctx, s.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	existing.Data = s.Data
	_, err = client.CoreV1().Secrets(s.Namespace).Update(ctx, existing, metav1.UpdateOptions{})
	return err
}

func mergeLabels(a, b map[string]string) map[string]string {
	if len(b) == 0 {
		return a
	}
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
