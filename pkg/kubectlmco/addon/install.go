package addon

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"helm.sh/helm/v4/pkg/strvals"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// installFlags are install's flags.
type installFlags struct {
	repo, chart, version, namespace string
	createNamespace                 bool
	valueFiles, set                 []string
	clusters                        []string
	selector                        string
}

// ManagedByAnnotation marks the ClusterPropagationPolicy install writes,
// which uninstall removes with the Addon.
const ManagedByAnnotation = "addons.mco-org.github.io/installed-by"

func newInstallCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	fl := &installFlags{}
	cmd := &cobra.Command{
		Use:   "install NAME --repo URL --chart CHART --version VERSION (--clusters a,b | --selector k=v)",
		Short: "Write an Addon and the ClusterPropagationPolicy that places it, in one step",
		Long: `install writes the Addon NAME (chart, release, values) and a ClusterPropagationPolicy
of the same name placing it on the clusters named or selected; run again, it updates
both. Values come as with helm install: each --values file in order, then each --set
(Helm's syntax), later ones winning. The release is named NAME and goes into
--namespace, created in each cluster unless --create-namespace=false.`,
		Example: `  kubectl mco addon install log-collector --repo https://charts.example.com/stable \
    --chart log-collector --version 2.1.0 --namespace logging \
    --set replicaCount=3 --set region='${cluster.region}' --selector environment=production`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, cpp, err := fl.objects(args[0])
			if err != nil {
				return err
			}
			return withMCO(cmd.Context(), f, func(_ kubernetes.Interface, mco mcoclient.Interface) error {
				if err := writeAddon(cmd.Context(), mco, a); err != nil {
					return err
				}
				if err := writePolicy(cmd.Context(), mco, cpp); err != nil {
					return err
				}
				fmt.Fprintf(streams.Out, "Addon %s written, placed by ClusterPropagationPolicy %s; follow it with: kubectl mco addon status %s\n", a.Name, cpp.Name, a.Name)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&fl.repo, "repo", "", "The chart repository: https:// (with index.yaml) or oci:// (required).")
	cmd.Flags().StringVar(&fl.chart, "chart", "", "The chart's name in the repository (required).")
	cmd.Flags().StringVar(&fl.version, "version", "", "The chart's exact version (required).")
	cmd.Flags().StringVarP(&fl.namespace, "namespace", "n", addonsv1alpha1.DefaultReleaseNamespace, "The release namespace in each cluster.")
	cmd.Flags().BoolVar(&fl.createNamespace, "create-namespace", true, "Create the release namespace in each cluster (never on mco).")
	cmd.Flags().StringArrayVarP(&fl.valueFiles, "values", "f", nil, "A YAML file of values; repeat for more, later ones winning.")
	cmd.Flags().StringArrayVar(&fl.set, "set", nil, "A value, key=value in Helm's syntax (a.b=c, list={x,y}); repeat for more.")
	cmd.Flags().StringSliceVar(&fl.clusters, "clusters", nil, "The clusters to install on, by name.")
	cmd.Flags().StringVar(&fl.selector, "selector", "", "The clusters to install on, by label (k=v,k2=v2).")
	for _, n := range []string{"repo", "chart", "version"} {
		_ = cmd.MarkFlagRequired(n)
	}
	cmd.MarkFlagsMutuallyExclusive("clusters", "selector")
	cmd.MarkFlagsOneRequired("clusters", "selector")
	return cmd
}

// objects are the Addon and the policy the flags describe.
func (fl *installFlags) objects(name string) (*addonsv1alpha1.Addon, *policyv1alpha1.ClusterPropagationPolicy, error) {
	values, err := fl.values()
	if err != nil {
		return nil, nil, err
	}
	a := &addonsv1alpha1.Addon{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: addonsv1alpha1.AddonSpec{
			Chart:   addonsv1alpha1.ChartSource{Repository: fl.repo, Name: fl.chart, Version: fl.version},
			Release: addonsv1alpha1.Release{Name: name, Namespace: fl.namespace, CreateNamespace: fl.createNamespace},
		},
	}
	if len(values) > 0 {
		raw, err := json.Marshal(values)
		if err != nil {
			return nil, nil, fmt.Errorf("encode values: %w", err)
		}
		a.Spec.Values = &apiextensionsv1.JSON{Raw: raw}
	}
	affinity := &policyv1alpha1.ClusterAffinity{ClusterNames: fl.clusters}
	if fl.selector != "" {
		sel, err := labels.ConvertSelectorToLabelsMap(fl.selector)
		if err != nil {
			return nil, nil, fmt.Errorf("--selector: %w", err)
		}
		affinity = &policyv1alpha1.ClusterAffinity{LabelSelector: &metav1.LabelSelector{MatchLabels: sel}}
	}
	cpp := &policyv1alpha1.ClusterPropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{ManagedByAnnotation: "kubectl-mco"}},
		Spec: policyv1alpha1.PropagationSpec{
			ResourceSelectors: []policyv1alpha1.ResourceSelector{{APIVersion: addonsv1alpha1.SchemeGroupVersion.String(), Kind: "Addon", Name: name}},
			Placement:         policyv1alpha1.Placement{ClusterAffinity: affinity},
		},
	}
	return a, cpp, nil
}

// values merges the --values files, then the --set values, as Helm does.
func (fl *installFlags) values() (map[string]any, error) {
	out := map[string]any{}
	for _, file := range fl.valueFiles {
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--values: %w", err)
		}
		var m map[string]any
		if err := yaml.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("--values %s: %w", file, err)
		}
		out = mergeMaps(out, m)
	}
	for _, s := range fl.set {
		if err := strvals.ParseInto(s, out); err != nil {
			return nil, fmt.Errorf("--set %s: %w", s, err)
		}
	}
	return out, nil
}

// mergeMaps merges over into base: maps key by key, anything else
// replaced.
func mergeMaps(base, over map[string]any) map[string]any {
	for k, v := range over {
		if sub, ok := v.(map[string]any); ok {
			if have, ok := base[k].(map[string]any); ok {
				base[k] = mergeMaps(have, sub)
				continue
			}
		}
		base[k] = v
	}
	return base
}

// writeAddon creates the Addon or updates its spec.
func writeAddon(ctx context.Context, mco mcoclient.Interface, a *addonsv1alpha1.Addon) error {
	client := mco.AddonsV1alpha1().Addons()
	_, err := client.Create(ctx, a, metav1.CreateOptions{FieldManager: "kubectl-mco"})
	if !apierrors.IsAlreadyExists(err) {
		return wrap(err, "create addon "+a.Name)
	}
	have, err := client.Get(ctx, a.Name, metav1.GetOptions{})
	if err != nil {
		return wrap(err, "get addon "+a.Name)
	}
	have.Spec = a.Spec
	_, err = client.Update(ctx, have, metav1.UpdateOptions{FieldManager: "kubectl-mco"})
	return wrap(err, "update addon "+a.Name)
}

// writePolicy creates the policy or updates its selectors and placement.
func writePolicy(ctx context.Context, mco mcoclient.Interface, p *policyv1alpha1.ClusterPropagationPolicy) error {
	client := mco.PolicyV1alpha1().ClusterPropagationPolicies()
	_, err := client.Create(ctx, p, metav1.CreateOptions{FieldManager: "kubectl-mco"})
	if !apierrors.IsAlreadyExists(err) {
		return wrap(err, "create clusterpropagationpolicy "+p.Name)
	}
	have, err := client.Get(ctx, p.Name, metav1.GetOptions{})
	if err != nil {
		return wrap(err, "get clusterpropagationpolicy "+p.Name)
	}
	if have.Annotations[ManagedByAnnotation] == "" {
		return fmt.Errorf("clusterpropagationpolicy %s exists and was not written by kubectl mco addon install; it is left as it is", p.Name)
	}
	have.Spec.ResourceSelectors, have.Spec.Placement = p.Spec.ResourceSelectors, p.Spec.Placement
	_, err = client.Update(ctx, have, metav1.UpdateOptions{FieldManager: "kubectl-mco"})
	return wrap(err, "update clusterpropagationpolicy "+p.Name)
}

func newUninstallCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "uninstall NAME",
		Short: "Delete an Addon (and the policy install wrote for it): its objects leave every cluster as helm uninstall removes them",
		Long: `uninstall deletes the Addon NAME and, when kubectl mco addon install wrote it, the
ClusterPropagationPolicy of the same name. In every cluster the add-on's objects are
deleted, except its chart's CRDs (crds/) and objects marked helm.sh/resource-policy: keep.`,
		Example: `  kubectl mco addon uninstall log-collector`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			return withMCO(cmd.Context(), f, func(_ kubernetes.Interface, mco mcoclient.Interface) error {
				if err := mco.AddonsV1alpha1().Addons().Delete(cmd.Context(), name, metav1.DeleteOptions{}); err != nil {
					return wrap(err, "delete addon "+name)
				}
				msg := "Addon " + name + " deleted"
				p, err := mco.PolicyV1alpha1().ClusterPropagationPolicies().Get(cmd.Context(), name, metav1.GetOptions{})
				if err == nil && p.Annotations[ManagedByAnnotation] != "" {
					if err := mco.PolicyV1alpha1().ClusterPropagationPolicies().Delete(cmd.Context(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
						return wrap(err, "delete clusterpropagationpolicy "+name)
					}
					msg += " with ClusterPropagationPolicy " + name
				}
				fmt.Fprintln(streams.Out, msg+"; its objects are leaving the clusters")
				return nil
			})
		},
	}
}

func wrap(err error, what string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}
