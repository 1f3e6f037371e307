package detector

import (
	"strings"
	"sync"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/placement"
	"github.com/mco-org/mco/pkg/template"
)

// activations are the templates that changed since the detector last
// applied a policy to them: a template created (or listed when the
// detector starts), changed by a user, or whose binding went. A Lazy
// policy reaches only those (Karmada's activationPreference: Lazy): its
// own edits wait for each template's next change.
type activations struct {
	mu   sync.Mutex
	keys map[template.Key]bool
}

func newActivations() *activations { return &activations{keys: map[template.Key]bool{}} }

func (a *activations) mark(k template.Key) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.keys[k] = true
}

// take tells whether k is activated and clears it.
func (a *activations) take(k template.Key) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	had := a.keys[k]
	delete(a.keys, k)
	return had
}

// lazy tells whether the chosen policy waits for its templates' changes.
func lazy(c placement.Candidate) bool {
	p := policySpec(c)
	return p != nil && p.ActivationPreference == policyv1alpha1.LazyActivation
}

// userChanged tells whether a template update is one of its user's: not
// only its status, resourceVersion, generation, managedFields, or the
// labels and annotations of Karmada's and mco's own keys (claims,
// rollout marks), which mco itself writes.
func userChanged(oldObj, newObj any) bool {
	a, ok1 := oldObj.(*unstructured.Unstructured)
	b, ok2 := newObj.(*unstructured.Unstructured)
	if !ok1 || !ok2 {
		return true
	}
	return !apiequality.Semantic.DeepEqual(intentOf(a, true), intentOf(b, true))
}

// usersKeys leaves out of labels or annotations the keys of Karmada's and
// mco's domains, but the one a user sets to keep a namespace home.
func usersKeys(v any) map[string]any {
	in, _ := v.(map[string]any)
	out := make(map[string]any, len(in))
	for k, val := range in {
		own := strings.Contains(k, ".karmada.io") || strings.Contains(k, "mco-org.github.io")
		if !own || k == policyv1alpha1.NamespaceSkipAutoPropagationLabel {
			out[k] = val
		}
	}
	return out
}
