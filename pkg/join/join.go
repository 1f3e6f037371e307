// Package join registers a member cluster with mco in push mode: it gives
// mco an identity in the member and records the member as a Cluster with its
// credentials, as Karmada's join does. Unjoin undoes it.
package join

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
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
	CABundle []byte
	// InsecureSkipTLSVerification is recorded on the Cluster when the
	// member's serving certificate cannot be verified (no CA bundle).
	InsecureSkipTLSVerification bool
	Provider, Region            string
	Zones                       []string
	Labels                      map[string]string
	// TokenTimeout bounds the wait for the member to issue the tokens.
	TokenTimeout time.Duration
	// UseTokenRequest takes the tokens from the member's TokenRequest API
	// instead of token Secrets filled by its token controller, for members
	// that run no kube-controller-manager. Such a token expires, after
	// TokenExpiration (default a year); join again to renew it.
	UseTokenRequest bool
	TokenExpiration time.Duration
	// Progress, when set, is told each step as it starts.
	Progress func(step string)
}

func (o *Options) step(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// defaultTokenExpiration is the lifetime asked for a requested token.
const defaultTokenExpiration = 365 * 24 * time.Hour

// Clients reach mco and the member.
type Clients struct {
	MCOKube kubernetes.Interface
	MCO     mcoclient.Interface
	Member  kubernetes.Interface
}

// ImpersonatorSecretName is the secret on mco holding the token the
// cluster proxy impersonates callers with.
func ImpersonatorSecretName(cluster string) string { return cluster + "-impersonator" }

// Join creates mco's identities in the member and the Cluster with their
// credentials on mco. It is idempotent: a second run updates nothing that
// is already right. It refuses to join a member already joined under
// another name.
func Join(ctx context.Context, c Clients, o Options) (*clusterv1alpha1.Cluster, error) {
	if o.TokenTimeout == 0 {
		o.TokenTimeout = time.Minute
	}
	o.step("Reading the identity of member %s", o.Name)
	id, err := memberID(ctx, c.Member)
	if err != nil {
		return nil, err
	}
	if err := refuseSecondName(ctx, c.MCO, o.Name, id); err != nil {
		return nil, err
	}
	o.step("Creating mco's service accounts and roles in the member")
	creds, err := prepareMember(ctx, c.Member, o)
	if err != nil {
		return nil, fmt.Errorf("prepare member %s: %w", o.Name, err)
	}
	o.step("Storing the member's credentials on mco (%s/%s, %s/%s)", Namespace, o.Name, Namespace, ImpersonatorSecretName(o.Name))
	if err := ensureNamespace(ctx, c.MCOKube, Namespace); err != nil {
		return nil, fmt.Errorf("on mco: %w", err)
	}
	secrets := []*corev1.Secret{
		{ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: Namespace},
			Data: map[string][]byte{clusterv1alpha1.SecretTokenKey: creds.token, clusterv1alpha1.SecretCADataKey: o.CABundle}},
		{ObjectMeta: metav1.ObjectMeta{Name: ImpersonatorSecretName(o.Name), Namespace: Namespace},
			Data: map[string][]byte{clusterv1alpha1.SecretTokenKey: creds.impersonatorToken}},
	}
	for _, s := range secrets {
		if err := createOrUpdateSecret(ctx, c.MCOKube, s, nil); err != nil {
			return nil, fmt.Errorf("store credentials of %s on mco: %w", o.Name, err)
		}
	}
	o.step("Writing Cluster %s", o.Name)
	cluster, err := applyCluster(ctx, c.MCO, o, id)
	if err != nil {
		return nil, err
	}
	// The secrets belong to the Cluster: they go when it goes.
	owner := metav1.NewControllerRef(cluster, clusterv1alpha1.SchemeGroupVersion.WithKind("Cluster"))
	for _, s := range secrets {
		if err := createOrUpdateSecret(ctx, c.MCOKube, s, owner); err != nil {
			return nil, fmt.Errorf("store credentials of %s on mco: %w", o.Name, err)
		}
	}
	return cluster, nil
}

// applyCluster creates the Cluster or brings an existing one of the same
// member up to date.
func applyCluster(ctx context.Context, mco mcoclient.Interface, o Options, id string) (*clusterv1alpha1.Cluster, error) {
	cluster := &clusterv1alpha1.Cluster{
		ObjectMeta: metav1.ObjectMeta{Name: o.Name, Labels: o.Labels},
		Spec: clusterv1alpha1.ClusterSpec{
			ID:                          id,
			SyncMode:                    clusterv1alpha1.Push,
			APIEndpoint:                 o.APIEndpoint,
			SecretRef:                   &clusterv1alpha1.LocalSecretReference{Namespace: Namespace, Name: o.Name},
			ImpersonatorSecretRef:       &clusterv1alpha1.LocalSecretReference{Namespace: Namespace, Name: ImpersonatorSecretName(o.Name)},
			InsecureSkipTLSVerification: o.InsecureSkipTLSVerification,
			Provider:                    o.Provider,
			Region:                      o.Region,
			Zones:                       o.Zones,
		},
	}
	existing, err := mco.ClusterV1alpha1().Clusters().Get(ctx, o.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		created, err := mco.ClusterV1alpha1().Clusters().Create(ctx, cluster, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("create cluster %s: %w", o.Name, err)
		}
		return created, nil
	case err != nil:
		return nil, fmt.Errorf("get cluster %s: %w", o.Name, err)
	}
	if existing.DeletionTimestamp != nil {
		return nil, fmt.Errorf("cluster %s is being deleted; wait until it is gone and join again", o.Name)
	}
	if existing.Spec.ID != "" && existing.Spec.ID != id {
		return nil, fmt.Errorf("cluster %s is already joined with another member (id %s, this member %s)", o.Name, existing.Spec.ID, id)
	}
	existing.Labels = mergeLabels(existing.Labels, o.Labels)
	// What join does not set (taints, resource models) stays as it is.
	spec := cluster.Spec
	spec.Taints, spec.ResourceModels = existing.Spec.Taints, existing.Spec.ResourceModels
	existing.Spec = spec
	updated, err := mco.ClusterV1alpha1().Clusters().Update(ctx, existing, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("update cluster %s: %w", o.Name, err)
	}
	return updated, nil
}

// refuseSecondName fails when the member (by id) is joined under another
// name already.
func refuseSecondName(ctx context.Context, mco mcoclient.Interface, name, id string) error {
	list, err := mco.ClusterV1alpha1().Clusters().List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("list clusters on mco: %w", err)
	}
	for _, cl := range list.Items {
		if cl.Name != name && cl.Spec.ID == id {
			return fmt.Errorf("this member is already joined as cluster %s (id %s); unjoin it first", cl.Name, id)
		}
	}
	return nil
}

// ensureNamespace creates the namespace; one still terminating from an
// earlier unjoin is waited for (at most a minute) and created again.
func ensureNamespace(ctx context.Context, client kubernetes.Interface, name string) error {
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
		if !apierrors.IsAlreadyExists(err) {
			return err == nil, err
		}
		ns, err := client.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil // gone since: create it next time
		}
		return err == nil && ns.DeletionTimestamp == nil, err
	})
	if err != nil {
		return fmt.Errorf("create namespace %s: %w", name, err)
	}
	return nil
}

// createOrUpdateSecret writes s, with owner (when set) as its controller.
func createOrUpdateSecret(ctx context.Context, client kubernetes.Interface, s *corev1.Secret, owner *metav1.OwnerReference) error {
	s = s.DeepCopy()
	if owner != nil {
		s.OwnerReferences = []metav1.OwnerReference{*owner}
	}
	_, err := client.CoreV1().Secrets(s.Namespace).Create(ctx, s, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		return err
	}
	existing, err := client.CoreV1().Secrets(s.Namespace).Get(ctx, s.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	existing.Data = s.Data
	if owner != nil {
		existing.OwnerReferences = s.OwnerReferences
	}
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
