package multiclusterservice

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/pkg/events"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/template"
)

// syncDerived keeps the Service a ClusterSetIP ServiceImport derives on
// mco (propagated with the import, whose policies get propagateDeps), and
// the import's status.clusters; the Service goes with the import (a
// derived-<name> Service no import derived stays).
func (m *Controller) syncDerived(ctx context.Context, k key, exporters []string) error {
	imp, kind, err := m.mcsTemplate(mcs.ServiceImportGK, k)
	if err != nil && !apierrors.IsNotFound(err) {
		return nil // the MCS API is not served: nothing is imported
	}
	if err != nil {
		if svc, gone := m.templates.Get(template.Key{GVK: serviceGVK, Namespace: k.Namespace, Name: mcs.DerivedPrefix + k.Name}); gone == nil && mcs.DerivedBy(svc, k.Name) {
			err := m.kube.CoreV1().Services(k.Namespace).Delete(ctx, mcs.DerivedPrefix+k.Name, metav1.DeleteOptions{})
			if err != nil && !apierrors.IsNotFound(err) {
				return fmt.Errorf("delete Service %s/%s%s: %w", k.Namespace, mcs.DerivedPrefix, k.Name, err)
			}
		}
		return nil
	}
	want, ok, err := mcs.DerivedService(imp)
	if err == nil && ok {
		var wrote bool
		if wrote, err = m.ensureDerived(ctx, want); err == nil && wrote {
			m.recorder.Eventf(imp, corev1.EventTypeNormal, events.SyncDerivedServiceSucceed, "Sync derived service for serviceImport(%s) succeed.", k.Name)
		}
	}
	if err != nil {
		m.recorder.Event(imp, corev1.EventTypeWarning, events.SyncDerivedServiceFailed, err.Error())
		return err
	}
	return m.writeImportStatus(ctx, kind.GVR, imp, exporters)
}

// ensureDerived creates the derived Service or brings its type, ports and
// selector to want (its cluster IP stays); wrote tells whether it wrote.
func (m *Controller) ensureDerived(ctx context.Context, want *corev1.Service) (wrote bool, err error) {
	client := m.kube.CoreV1().Services(want.Namespace)
	cached, err := m.templates.Get(template.Key{GVK: serviceGVK, Namespace: want.Namespace, Name: want.Name})
	if apierrors.IsNotFound(err) {
		if _, err := client.Create(ctx, want, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return false, fmt.Errorf("create Service %s/%s: %w", want.Namespace, want.Name, err)
		}
		return true, nil
	}
	if err != nil {
		return false, err
	}
	var have corev1.Service
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(cached.Object, &have); err != nil {
		return false, fmt.Errorf("decode Service %s/%s: %w", want.Namespace, want.Name, err)
	}
	owned := slices.ContainsFunc(have.OwnerReferences, func(o metav1.OwnerReference) bool { return o.UID == want.OwnerReferences[0].UID })
	if owned && have.Spec.Type == want.Spec.Type && have.Spec.Selector == nil && samePorts(have.Spec.Ports, want.Spec.Ports) {
		return false, nil
	}
	if !owned {
		have.OwnerReferences = append(have.OwnerReferences, want.OwnerReferences...)
	}
	have.Spec.Type, have.Spec.Selector, have.Spec.Ports = want.Spec.Type, nil, want.Spec.Ports
	if _, err := client.Update(ctx, &have, metav1.UpdateOptions{}); err != nil {
		return false, fmt.Errorf("update Service %s/%s: %w", want.Namespace, want.Name, err)
	}
	return true, nil
}

// samePorts compares what the import sets of each port (the server fills
// in targetPort).
func samePorts(have, want []corev1.ServicePort) bool {
	if len(have) != len(want) {
		return false
	}
	for i := range have {
		h, w := have[i], want[i]
		if h.Name != w.Name || h.Protocol != w.Protocol || h.Port != w.Port || !equality.Semantic.DeepEqual(h.AppProtocol, w.AppProtocol) {
			return false
		}
	}
	return true
}

// writeImportStatus lists the exporting clusters in status.clusters.
func (m *Controller) writeImportStatus(ctx context.Context, gvr schema.GroupVersionResource, cached *unstructured.Unstructured, exporters []string) error {
	want := mcs.ImportClusters(exporters)
	have, _, _ := unstructured.NestedSlice(cached.Object, "status", "clusters")
	if equality.Semantic.DeepEqual(have, want) || (len(have) == 0 && len(want) == 0) {
		return nil
	}
	imp := cached.DeepCopy()
	if err := unstructured.SetNestedSlice(imp.Object, want, "status", "clusters"); err != nil {
		return err
	}
	_, err := m.dynamic.Resource(gvr).Namespace(imp.GetNamespace()).UpdateStatus(ctx, imp, metav1.UpdateOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("update the status of ServiceImport %s/%s: %w", imp.GetNamespace(), imp.GetName(), err)
	}
	return nil
}
