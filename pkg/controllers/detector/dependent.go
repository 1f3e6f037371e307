package detector

import (
	"slices"

	"k8s.io/apimachinery/pkg/labels"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/placement"
)

// missingOverrides lists the policy's dependentOverrides that do not
// exist yet: OverridePolicies in a PropagationPolicy's namespace,
// ClusterOverridePolicies for a ClusterPropagationPolicy. A template the
// policy selects waits for them, so that the first copy any member gets
// already has them applied (the binding controller reads the same caches).
func (d *Detector) missingOverrides(c placement.Candidate) []string {
	p := policySpec(c)
	if p == nil {
		return nil
	}
	var missing []string
	for _, name := range p.DependentOverrides {
		var err error
		if c.Namespace == "" {
			_, err = d.cop.Get(name)
		} else {
			_, err = d.op.OverridePolicies(c.Namespace).Get(name)
		}
		if err != nil {
			missing = append(missing, name)
		}
	}
	return missing
}

// overrideAdded queues the policies that name a new override policy among
// their dependentOverrides: the templates they hold go on at once.
func (d *Detector) overrideAdded(obj any) {
	switch o := obj.(type) {
	case *policyv1alpha1.OverridePolicy:
		pps, _ := d.pp.PropagationPolicies(o.Namespace).List(labels.Everything())
		for _, p := range pps {
			if slices.Contains(p.Spec.DependentOverrides, o.Name) {
				d.policies.Enqueue(policyKey{Namespace: p.Namespace, Name: p.Name})
			}
		}
	case *policyv1alpha1.ClusterOverridePolicy:
		cpps, _ := d.cpp.List(labels.Everything())
		for _, p := range cpps {
			if slices.Contains(p.Spec.DependentOverrides, o.Name) {
				d.policies.Enqueue(policyKey{Name: p.Name})
			}
		}
	}
}
