package addon

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// inputs are what computing an add-on for a cluster reads from mco.
type inputs struct {
	addon   *addonsv1alpha1.Addon
	cluster *clusterv1alpha1.Cluster
	sources liveSources
}

// run reads the Addon and the cluster from mco and hands them to show.
func run(ctx context.Context, f *clients.Factory, name string, fl *flags, show func(*inputs) error) error {
	return withMCO(ctx, f, func(kube kubernetes.Interface, mco mcoclient.Interface) error {
		a, err := mco.AddonsV1alpha1().Addons().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("addon %s: %w", name, err)
		}
		c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, fl.cluster, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("cluster %s: %w", fl.cluster, err)
		}
		return show(&inputs{addon: a, cluster: c, sources: liveSources{ctx: ctx, kube: kube}})
	})
}

// withMCO runs fn with clients of mco, explaining a connection failure.
func withMCO(ctx context.Context, f *clients.Factory, fn func(kubernetes.Interface, mcoclient.Interface) error) error {
	cfg, err := f.RESTConfig()
	if err != nil {
		return err
	}
	cfg, watch := clients.Watched(cfg, "mco")
	err = func() error {
		kube, mco, err := clients.MCO(cfg)
		if err != nil {
			return err
		}
		return fn(kube, mco)
	}()
	return watch.Explain(ctx, err, "")
}

// liveSources reads valuesFrom's objects from mco with the user's rights.
type liveSources struct {
	ctx  context.Context
	kube kubernetes.Interface
}

func (s liveSources) ConfigMap(ns, name string) (*corev1.ConfigMap, error) {
	return s.kube.CoreV1().ConfigMaps(ns).Get(s.ctx, name, metav1.GetOptions{})
}

func (s liveSources) Secret(ns, name string) (*corev1.Secret, error) {
	return s.kube.CoreV1().Secrets(ns).Get(s.ctx, name, metav1.GetOptions{})
}
