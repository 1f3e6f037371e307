package slimwire

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/rest"

	kubescheme "k8s.io/client-go/kubernetes/scheme"

	mcoscheme "github.com/mco-org/mco/pkg/generated/clientset/versioned/scheme"
)

// components knows the kinds mco's components read in protobuf:
// Kubernetes' built-in kinds, mco's own and PartialObjectMetadata.
var components = func() ShapeOf {
	s := runtime.NewScheme()
	utilruntime.Must(kubescheme.AddToScheme(s))
	utilruntime.Must(mcoscheme.AddToScheme(s))
	utilruntime.Must(metav1.AddMetaToScheme(s)) // the metadata client's lists

	return SchemeShapes(s)
}()

// ForComponents is Config for the clients of mco's components (scheduler,
// controller-manager, agent) to mco-apiserver and to the members: none of
// them reads managedFields.
func ForComponents(cfg *rest.Config) *rest.Config { return Config(cfg, components) }
