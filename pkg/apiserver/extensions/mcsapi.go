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

// MCSAPICRDs are the Kubernetes MCS API's own CustomResourceDefinitions
// (multicluster.x-k8s.io ServiceExport and ServiceImport, from the
// sigs.k8s.io/mcs-api module), as Karmada installs them.
func MCSAPICRDs() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, raw := range [][]byte{crd.ServiceExportCRD, crd.ServiceImportCRD} {
		c := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(raw, c); err != nil {
			return nil, fmt.Errorf("read the MCS API's CRD: %w", err)
		}
		out = append(out, c)
	}
	return out, nil
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
