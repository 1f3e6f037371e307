package join

import (
	"context"
	"fmt"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
)

// ImpersonatorServiceAccount is the member-side identity the cluster proxy
// uses; it may only impersonate.
const ImpersonatorServiceAccount = "karmada-impersonator"

// serviceAccountName is mco's identity in the member.
func serviceAccountName(cluster string) string { return "karmada-" + cluster }

// controllerRoleName names the ClusterRole and ClusterRoleBinding that
// give mco's service account every verb on every resource.
func controllerRoleName(cluster string) string {
	return "karmada-controller-manager:" + serviceAccountName(cluster)
}

// credentials are the tokens join takes from the member.
type credentials struct {
	token, impersonatorToken []byte
}

// memberID is the member's identity: the UID of its kube-system namespace.
func memberID(ctx context.Context, member kubernetes.Interface) (string, error) {
	ks, err := member.CoreV1().Namespaces().Get(ctx, metav1.NamespaceSystem, metav1.GetOptions{})
	if err != nil {
		return "", fmt.Errorf("read kube-system of the member: %w", err)
	}
	return string(ks.UID), nil
}

// prepareMember creates the namespace, the service accounts, their RBAC
// and tokens in the member.
func prepareMember(ctx context.Context, member kubernetes.Interface, o Options) (credentials, error) {
	if err := ensureNamespace(ctx, member, Namespace); err != nil {
		return credentials{}, err
	}
	sa := serviceAccountName(o.Name)
	for _, name := range []string{sa, ImpersonatorServiceAccount} {
		if err := ensureServiceAccount(ctx, member, name); err != nil {
			return credentials{}, err
		}
	}
	controller := rbacv1.PolicyRule{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"*"}}
	nonResource := rbacv1.PolicyRule{NonResourceURLs: []string{"*"}, Verbs: []string{"get"}}
	if err := ensureRBAC(ctx, member, controllerRoleName(o.Name), sa, controller, nonResource); err != nil {
		return credentials{}, err
	}
	impersonate := []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"users", "groups", "serviceaccounts"}, Verbs: []string{"impersonate"}},
		// userextras/<key> and uids: RBAC has no "userextras/*" wildcard.
		{APIGroups: []string{authenticationv1.GroupName}, Resources: []string{"*"}, Verbs: []string{"impersonate"}},
	}
	if err := ensureRBAC(ctx, member, ImpersonatorServiceAccount, ImpersonatorServiceAccount, impersonate...); err != nil {
		return credentials{}, err
	}
	var c credentials
	var err error
	o.step("Waiting for the member to issue tokens")
	if c.token, err = serviceAccountToken(ctx, member, sa, o); err != nil {
		return credentials{}, err
	}
	if c.impersonatorToken, err = serviceAccountToken(ctx, member, ImpersonatorServiceAccount, o); err != nil {
		return credentials{}, err
	}
	return c, nil
}

func ensureServiceAccount(ctx context.Context, member kubernetes.Interface, name string) error {
	_, err := member.CoreV1().ServiceAccounts(Namespace).Create(ctx, &corev1.ServiceAccount{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace},
	}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create service account %s/%s: %w", Namespace, name, err)
	}
	return nil
}

// serviceAccountToken returns a token of the service account: from a token
// Secret the member's token controller fills, or from TokenRequest.
func serviceAccountToken(ctx context.Context, member kubernetes.Interface, sa string, o Options) ([]byte, error) {
	if o.UseTokenRequest {
		return requestToken(ctx, member, sa, o.TokenExpiration)
	}
	_, err := member.CoreV1().Secrets(Namespace).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: sa, Namespace: Namespace,
			Annotations: map[string]string{corev1.ServiceAccountNameKey: sa}},
		Type: corev1.SecretTypeServiceAccountToken,
	}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("create token secret %s/%s: %w", Namespace, sa, err)
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
		return nil, fmt.Errorf("member did not issue a token for %s/%s (is its token controller running?): %w", Namespace, sa, err)
	}
	return token, nil
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

// ensureRBAC grants the service account sa the rules, through a
// ClusterRole and ClusterRoleBinding named name.
func ensureRBAC(ctx context.Context, member kubernetes.Interface, name, sa string, rules ...rbacv1.PolicyRule) error {
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}
	_, err := member.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		// Brought up to date: an earlier join may have granted other rules.
		existing, getErr := member.RbacV1().ClusterRoles().Get(ctx, name, metav1.GetOptions{})
		if getErr != nil {
			return fmt.Errorf("get cluster role %s: %w", name, getErr)
		}
		err = nil
		if !apiequality.Semantic.DeepEqual(existing.Rules, rules) {
			existing.Rules = rules
			_, err = member.RbacV1().ClusterRoles().Update(ctx, existing, metav1.UpdateOptions{})
		}
	}
	if err != nil {
		return fmt.Errorf("create cluster role %s: %w", name, err)
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: Namespace}},
	}
	if _, err := member.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create cluster role binding %s: %w", name, err)
	}
	return nil
}
