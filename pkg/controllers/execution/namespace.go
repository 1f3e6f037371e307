package execution

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// ReasonNamespaceUnavailable is the Applied condition's reason when the
// manifest's namespace is terminating on mco or in the member, or missing
// from the member when mco may not create it.
const ReasonNamespaceUnavailable = "NamespaceUnavailable"

// namespaceRule is what the execution controller may do in the namespace of
// a namespaced manifest, decided from that namespace on mco.
type namespaceRule int

const (
	// applyCreating: the namespace is active on mco; a member that lacks it
	// gets it (the namespace's own Work takes it over).
	applyCreating namespaceRule = iota
	// applyExisting: mco has no such namespace (a Work written by hand may
	// name one); the manifest goes only where the member has it.
	applyExisting
	// refuse: the namespace is terminating on mco; its content is being
	// withdrawn, so nothing more is applied into it and no member namespace
	// is created for it.
	refuse
)

// ruleFor decides the rule from the namespace on mco (nil when it is not
// there).
func ruleFor(ns *corev1.Namespace) namespaceRule {
	switch {
	case ns == nil:
		return applyExisting
	case ns.DeletionTimestamp != nil || ns.Status.Phase == corev1.NamespaceTerminating:
		return refuse
	}
	return applyCreating
}

// ruleFromWork decides the rule in mco-agent, which does not read mco's
// namespaces, from the Work carrying the namespace to its cluster (nil when
// there is none): a namespace whose Work is being deleted is leaving mco;
// any other is taken as active, and the member gets it when it lacks it.
func ruleFromWork(w *workv1alpha1.Work) namespaceRule {
	if w != nil && w.DeletionTimestamp != nil {
		return refuse
	}
	return applyCreating
}

// errNamespaceUnavailable is a manifest that cannot go into its namespace
// now. It is not an error of the Work: it is recorded on the Work and tried
// again after a pause (retry) or not at all.
type errNamespaceUnavailable struct {
	msg   string
	retry bool
}

func (e *errNamespaceUnavailable) Error() string { return e.msg }

// memberRefusal turns a member's refusal of an apply for its namespace (the
// namespace terminating there, or missing where mco may not create it) into
// an *errNamespaceUnavailable; other errors are returned as they are.
func memberRefusal(err error, ns, cluster string) error {
	switch {
	case err == nil:
		return nil
	case apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause):
		return &errNamespaceUnavailable{msg: fmt.Sprintf("namespace %s is terminating in cluster %s", ns, cluster), retry: true}
	case isNamespaceNotFound(err, ns):
		return &errNamespaceUnavailable{msg: fmt.Sprintf("namespace %s does not exist in cluster %s", ns, cluster), retry: true}
	}
	return err
}

// isNamespaceNotFound tells whether err is a member's "namespaces NS not
// found".
func isNamespaceNotFound(err error, ns string) bool {
	var status apierrors.APIStatus
	if !apierrors.IsNotFound(err) || !errors.As(err, &status) {
		return false
	}
	d := status.Status().Details
	return d != nil && d.Kind == "namespaces" && d.Name == ns
}
