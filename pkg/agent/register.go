package agent

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
)

// Identity is what the agent records of its member on the Cluster it
// registers.
type Identity struct {
	Name     string
	Provider string
	Region   string
	Zones    []string
	// Labels are set on the Cluster (others it has stay).
	Labels map[string]string
}

// claim is what register does with the Cluster of the agent's name.
type claim int

const (
	create claim = iota // there is none
	adopt               // a Pull Cluster no member has claimed: set its id
	keep                // this member's already
)

// claimError is a Cluster the agent may not serve: it stops.
type claimError struct{ msg string }

func (e *claimError) Error() string { return e.msg }

func refuseClaim(format string, args ...any) error {
	return &claimError{msg: fmt.Sprintf(format, args...)}
}

// decideClaim decides from the Cluster of the agent's name on mco (nil when
// there is none) and the member's id (its kube-system namespace's uid, as
// join records it) whether the agent may serve it.
func decideClaim(existing *clusterv1alpha1.Cluster, id string) (claim, error) {
	switch {
	case existing == nil:
		return create, nil
	case existing.DeletionTimestamp != nil:
		// Not for good: once it is gone, the agent registers it anew.
		return 0, fmt.Errorf("cluster %s is being deleted on mco; registering it again once it is gone", existing.Name)
	case existing.Spec.SyncMode != clusterv1alpha1.Pull:
		return 0, refuseClaim("cluster %s is joined in %s mode; an agent serves only Pull clusters (unjoin it first)", existing.Name, existing.Spec.SyncMode)
	case existing.Spec.ID == "":
		return adopt, nil
	case existing.Spec.ID != id:
		return 0, refuseClaim("cluster %s is registered by another member (id %s; this member is %s)", existing.Name, existing.Spec.ID, id)
	}
	return keep, nil
}

// register makes sure mco has the agent's Cluster in Pull mode, claimed by
// this member.
func register(ctx context.Context, mco mcoclient.Interface, member kubernetes.Interface, who Identity) error {
	ks, err := member.CoreV1().Namespaces().Get(ctx, metav1.NamespaceSystem, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("read the member's id (namespace kube-system): %w", err)
	}
	id := string(ks.UID)
	existing, err := mco.ClusterV1alpha1().Clusters().Get(ctx, who.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		existing, err = nil, nil
	}
	if err != nil {
		return fmt.Errorf("get cluster %s: %w", who.Name, err)
	}
	what, err := decideClaim(existing, id)
	if err != nil {
		return err
	}
	switch what {
	case create:
		c := &clusterv1alpha1.Cluster{
			ObjectMeta: metav1.ObjectMeta{Name: who.Name, Labels: who.Labels},
			Spec: clusterv1alpha1.ClusterSpec{ID: id, SyncMode: clusterv1alpha1.Pull,
				Provider: who.Provider, Region: who.Region, Zones: who.Zones},
		}
		if _, err := mco.ClusterV1alpha1().Clusters().Create(ctx, c, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create cluster %s: %w", who.Name, err)
		}
	case adopt, keep:
		c := existing.DeepCopy()
		changed := what == adopt
		c.Spec.ID = id
		for k, v := range who.Labels {
			if c.Labels[k] != v {
				if c.Labels == nil {
					c.Labels = map[string]string{}
				}
				c.Labels[k], changed = v, true
			}
		}
		if !changed {
			return nil
		}
		if _, err := mco.ClusterV1alpha1().Clusters().Update(ctx, c, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("claim cluster %s: %w", who.Name, err)
		}
	}
	return nil
}
