package differential

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// crdsDir holds the CustomResourceDefinitions that define the custom kinds:
// they are created for real on both servers before the cases run.
const crdsDir = "testdata/crds"

// customGroup is the group of the custom kinds. No webhook configuration
// or admission policy the corpus stores matches it.
const customGroup = "differential.example.com"

// CustomKinds are the kinds of the CRDs under crdsDir, one per served
// version: a version's objects are sent to that version's endpoint.
var CustomKinds = []Kind{
	{"widget", schema.GroupVersionKind{Group: customGroup, Version: "v1", Kind: "Widget"}, "widgets", true},
	{"widget.v1beta1", schema.GroupVersionKind{Group: customGroup, Version: "v1beta1", Kind: "Widget"}, "widgets", true},
	{"gadget", schema.GroupVersionKind{Group: customGroup, Version: "v1", Kind: "Gadget"}, "gadgets", false},
}
