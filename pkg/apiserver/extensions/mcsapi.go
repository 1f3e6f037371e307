package extensions

import (
	"context"
	"fmt"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
	"sigs.k8s.io/mcs-api/config/crd"
	"sigs.k8s.io/yaml"
)

// mcsAPIVersion is the one version of the MCS API mco installs: the one
// Karmada installs and its users write. The module's CRDs also serve
// v1beta1 (the same schema, stored); served beside it, v1beta1 would be
// the version templates are followed at, and policies selecting
// multicluster.x-k8s.io/v1alpha1, as Karmada's do, would select nothing.
const mcsAPIVersion = "v1alpha1"

// MCSAPICRDs are the Kubernetes MCS API's own CustomResourceDefinitions
// (multicluster.x-k8s.io ServiceExport and ServiceImport, from the
// sigs.k8s.io/mcs-api module) at v1alpha1 alone, as Karmada installs
// them.
func MCSAPICRDs() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, raw := range [][]byte{crd.ServiceExportCRD, crd.ServiceImportCRD} {
		c := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(raw, c); err != nil {
			return nil, fmt.Errorf("read the MCS API's CRD: %w", err)
		}
		var keep []apiextensionsv1.CustomResourceDefinitionVersion
		for _, v := range c.Spec.Versions {
			if v.Name == mcsAPIVersion {
				v.Served, v.Storage = true, true
				keep = append(keep, v)
			}
		}
		if len(keep) != 1 {
			return nil, fmt.Errorf("the MCS API's CRD %s has no version %s", c.Name, mcsAPIVersion)
		}
		c.Spec.Versions = keep
		boundPorts(c)
		out = append(out, c)
	}
	return out, nil
}

// boundPorts gives a ServiceImport's spec.ports[].port the range of a
// port (1-65535), which the MCS API's schema leaves open, so that an
// import no Service could derive from is refused with a field error.
func boundPorts(c *apiextensionsv1.CustomResourceDefinition) {
	for _, v := range c.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		spec, ok := v.Schema.OpenAPIV3Schema.Properties["spec"]
		if !ok {
			continue
		}
		ports, ok := spec.Properties["ports"]
		if !ok || ports.Items == nil || ports.Items.Schema == nil {
			continue
		}
		port, ok := ports.Items.Schema.Properties["port"]
		if !ok {
			continue
		}
		low, high := 1.0, 65535.0
		port.Minimum, port.Maximum = &low, &high
		ports.Items.Schema.Properties["port"] = port
		spec.Properties["ports"] = ports
		v.Schema.OpenAPIV3Schema.Properties["spec"] = spec
	}
}

// EnsureMCSAPI creates the MCS API's CRDs that are missing, retrying while
// the server comes up (at most a minute). A CRD already there is left as
// it is: a user may have installed another revision on purpose.
func EnsureMCSAPI(ctx context.Context, client apiextensionsclient.Interface) error {
	crds, err := MCSAPICRDs()
	if err != nil {
		return err
	}
	for _, c := range crds {
		err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			_, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, c, metav1.CreateOptions{})
			switch {
			case err == nil:
				klog.FromContext(ctx).Info("Installed the MCS API's CRD", "crd", c.Name)
				return true, nil
			case apierrors.IsAlreadyExists(err):
				return true, nil
			}
			klog.FromContext(ctx).V(2).Info("Waiting to install the MCS API's CRD", "crd", c.Name, "err", err)
			return false, nil
		})
		if err != nil {
			return fmt.Errorf("install CRD %s: %w", c.Name, err)
		}
	}
	return nil
}
