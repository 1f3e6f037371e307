package interpreter

import (
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/runtime/schema"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter/lua"
)

// script is one customization's compiled script for one operation.
type script struct {
	// customization is the name of the ResourceInterpreterCustomization.
	customization string
	rule          configv1alpha1.ScriptRule
	compiled      *lua.Script
}

// rules are the scripts of one kind: one per operation, and any number of
// dependency scripts, which are merged.
type rules struct {
	single       map[configv1alpha1.InterpreterOperation]*script
	dependencies []*script
}

// Set is what the customizations teach, by kind. The zero Set teaches
// nothing.
type Set struct {
	byKind map[schema.GroupVersionKind]*rules
}

// NewSet merges customizations as Karmada does: in name order, the first
// customization with a script for an operation of a kind gives it; the
// dependency scripts of all are kept, in name order. A script that does
// not compile is left out and reported (validation refuses those, so only
// objects stored before would have one).
func NewSet(customizations []*configv1alpha1.ResourceInterpreterCustomization) (*Set, []error) {
	s, _, errs := newSet(customizations, nil)
	return s, errs
}

// compiledScripts are compiled scripts by customization, field and source.
type compiledScripts map[string]*lua.Script

// newSet is NewSet reusing the scripts prev compiled already; it returns
// the compiled scripts the set uses, for the next call.
func newSet(customizations []*configv1alpha1.ResourceInterpreterCustomization, prev compiledScripts) (*Set, compiledScripts, []error) {
	used := compiledScripts{}
	sorted := append([]*configv1alpha1.ResourceInterpreterCustomization(nil), customizations...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	s := &Set{byKind: map[schema.GroupVersionKind]*rules{}}
	var errs []error
	for _, c := range sorted {
		gvk := schema.FromAPIVersionAndKind(c.Spec.Target.APIVersion, c.Spec.Target.Kind)
		for _, r := range c.Spec.Customizations.Rules() {
			if !r.Set || r.Script == "" {
				continue
			}
			k := s.byKind[gvk]
			if k == nil {
				k = &rules{single: map[configv1alpha1.InterpreterOperation]*script{}}
				s.byKind[gvk] = k
			}
			if r.Operation != configv1alpha1.InterpreterOperationInterpretDependency && k.single[r.Operation] != nil {
				continue
			}
			key := c.Name + "/" + r.Field + "\x00" + r.Script
			compiled, ok := prev[key]
			if !ok {
				var err error
				if compiled, err = lua.Compile(c.Name+"/"+r.Field, r.Script); err != nil {
					errs = append(errs, fmt.Errorf("ResourceInterpreterCustomization %s: %s: %w", c.Name, r.Field, err))
					continue
				}
			}
			used[key] = compiled
			sc := &script{customization: c.Name, rule: r, compiled: compiled}
			if r.Operation == configv1alpha1.InterpreterOperationInterpretDependency {
				k.dependencies = append(k.dependencies, sc)
			} else {
				k.single[r.Operation] = sc
			}
		}
	}
	return s, used, errs
}

// script returns the script for an operation of a kind, nil when none.
func (s *Set) script(gvk schema.GroupVersionKind, op configv1alpha1.InterpreterOperation) *script {
	if s == nil {
		return nil
	}
	if k := s.byKind[gvk]; k != nil {
		return k.single[op]
	}
	return nil
}

// dependencyScripts returns the dependency scripts of a kind.
func (s *Set) dependencyScripts(gvk schema.GroupVersionKind) []*script {
	if s == nil {
		return nil
	}
	if k := s.byKind[gvk]; k != nil {
		return k.dependencies
	}
	return nil
}

// Defines tells whether a customization gives an operation of a kind.
func (s *Set) Defines(gvk schema.GroupVersionKind, op configv1alpha1.InterpreterOperation) bool {
	if op == configv1alpha1.InterpreterOperationInterpretDependency {
		return len(s.dependencyScripts(gvk)) > 0
	}
	return s.script(gvk, op) != nil
}

// Kinds lists the kinds the set customizes.
func (s *Set) Kinds() []schema.GroupVersionKind {
	if s == nil {
		return nil
	}
	out := make([]schema.GroupVersionKind, 0, len(s.byKind))
	for gvk := range s.byKind {
		out = append(out, gvk)
	}
	return out
}

// fingerprint identifies what a kind's scripts are, to tell which kinds a
// change of customizations touches.
func (s *Set) fingerprint(gvk schema.GroupVersionKind) string {
	if s == nil || s.byKind[gvk] == nil {
		return ""
	}
	k := s.byKind[gvk]
	ops := make([]string, 0, len(k.single))
	for op, sc := range k.single {
		ops = append(ops, string(op)+"="+sc.customization+"\x00"+sc.rule.Script)
	}
	sort.Strings(ops)
	for _, sc := range k.dependencies {
		ops = append(ops, "dep="+sc.customization+"\x00"+sc.rule.Script)
	}
	return fmt.Sprint(ops)
}
