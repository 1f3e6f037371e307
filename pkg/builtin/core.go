package builtin

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mco-org/mco/pkg/registry/resource"
)

func coreResources() []*resource.Spec {
	gv := corev1.SchemeGroupVersion

	ns := newSpec(gv, "namespaces", "namespace", "Namespace", false,
		func() runtime.Object { return &corev1.Namespace{} }, func() runtime.Object { return &corev1.NamespaceList{} })
	ns.ShortNames = []string{"ns"}
	ns.HasStatus = true
	ns.Fields = func(o runtime.Object) fields.Set {
		return fields.Set{"status.phase": string(o.(*corev1.Namespace).Status.Phase)}
	}
	ns.Columns = []resource.Column{{Name: "Status", Type: "string", Description: "Phase of the namespace.",
		Cell: func(o runtime.Object) any { return string(o.(*corev1.Namespace).Status.Phase) }}}

	cm := newSpec(gv, "configmaps", "configmap", "ConfigMap", true,
		func() runtime.Object { return &corev1.ConfigMap{} }, func() runtime.Object { return &corev1.ConfigMapList{} })
	cm.ShortNames = []string{"cm"}
	cm.Columns = []resource.Column{{Name: "Data", Type: "integer", Description: "Number of data entries.",
		Cell: func(o runtime.Object) any {
			c := o.(*corev1.ConfigMap)
			return int64(len(c.Data) + len(c.BinaryData))
		}}}

	secret := newSpec(gv, "secrets", "secret", "Secret", true,
		func() runtime.Object { return &corev1.Secret{} }, func() runtime.Object { return &corev1.SecretList{} })
	secret.Fields = func(o runtime.Object) fields.Set {
		return fields.Set{"type": string(o.(*corev1.Secret).Type)}
	}
	secret.Columns = []resource.Column{
		{Name: "Type", Type: "string", Description: "Type of the secret.",
			Cell: func(o runtime.Object) any { return string(o.(*corev1.Secret).Type) }},
		{Name: "Data", Type: "integer", Description: "Number of data entries.",
			Cell: func(o runtime.Object) any { return int64(len(o.(*corev1.Secret).Data)) }},
	}

	svc := newSpec(gv, "services", "service", "Service", true,
		func() runtime.Object { return &corev1.Service{} }, func() runtime.Object { return &corev1.ServiceList{} })
	svc.ShortNames = []string{"svc"}
	svc.Categories = []string{"all"}
	svc.HasStatus = true
	svc.Columns = serviceColumns()

	sa := newSpec(gv, "serviceaccounts", "serviceaccount", "ServiceAccount", true,
		func() runtime.Object { return &corev1.ServiceAccount{} }, func() runtime.Object { return &corev1.ServiceAccountList{} })
	sa.ShortNames = []string{"sa"}

	pvc := newSpec(gv, "persistentvolumeclaims", "persistentvolumeclaim", "PersistentVolumeClaim", true,
		func() runtime.Object { return &corev1.PersistentVolumeClaim{} }, func() runtime.Object { return &corev1.PersistentVolumeClaimList{} })
	pvc.ShortNames = []string{"pvc"}
	pvc.HasStatus = true
	pvc.Columns = pvcColumns()

	ev := newSpec(gv, "events", "event", "Event", true,
		func() runtime.Object { return &corev1.Event{} }, func() runtime.Object { return &corev1.EventList{} })
	ev.ShortNames = []string{"ev"}
	ev.Fields = eventFields
	ev.Columns = eventColumns()

	return []*resource.Spec{ns, cm, secret, svc, sa, pvc, ev}
}

// eventFields are the fields `kubectl describe` selects events by.
func eventFields(o runtime.Object) fields.Set {
	e := o.(*corev1.Event)
	return fields.Set{
		"involvedObject.kind":            e.InvolvedObject.Kind,
		"involvedObject.namespace":       e.InvolvedObject.Namespace,
		"involvedObject.name":            e.InvolvedObject.Name,
		"involvedObject.uid":             string(e.InvolvedObject.UID),
		"involvedObject.apiVersion":      e.InvolvedObject.APIVersion,
		"involvedObject.resourceVersion": e.InvolvedObject.ResourceVersion,
		"involvedObject.fieldPath":       e.InvolvedObject.FieldPath,
		"reason":                         e.Reason,
		"reportingComponent":             e.ReportingController,
		"source":                         e.Source.Component,
		"type":                           e.Type,
	}
}

func eventColumns() []resource.Column {
	ev := func(o runtime.Object) *corev1.Event { return o.(*corev1.Event) }
	return []resource.Column{
		{Name: "Last Seen", Type: "string", Description: "Time since the event was last seen.",
			Cell: func(o runtime.Object) any {
				if t := ev(o).LastTimestamp; !t.IsZero() {
					return resource.HumanAge(t)
				}
				return resource.HumanAge(ev(o).CreationTimestamp)
			}},
		{Name: "Type", Type: "string", Description: "Normal or Warning.", Cell: func(o runtime.Object) any { return ev(o).Type }},
		{Name: "Reason", Type: "string", Description: "Short reason.", Cell: func(o runtime.Object) any { return ev(o).Reason }},
		{Name: "Object", Type: "string", Description: "The object the event is about.",
			Cell: func(o runtime.Object) any {
				return strings.ToLower(ev(o).InvolvedObject.Kind) + "/" + ev(o).InvolvedObject.Name
			}},
		{Name: "Message", Type: "string", Description: "Human-readable message.", Cell: func(o runtime.Object) any { return ev(o).Message }},
	}
}

func serviceColumns() []resource.Column {
	svc := func(o runtime.Object) *corev1.Service { return o.(*corev1.Service) }
	return []resource.Column{
		{Name: "Type", Type: "string", Description: "Type of the service.", Cell: func(o runtime.Object) any { return string(svc(o).Spec.Type) }},
		{Name: "Cluster-IP", Type: "string", Description: "Not allocated on the control plane.",
			Cell: func(o runtime.Object) any { return orNone(svc(o).Spec.ClusterIP) }},
		{Name: "External-IP", Type: "string", Description: "External IPs of the service.",
			Cell: func(o runtime.Object) any { return orNone(strings.Join(svc(o).Spec.ExternalIPs, ",")) }},
		{Name: "Port(s)", Type: "string", Description: "Ports of the service.",
			Cell: func(o runtime.Object) any {
				ports := make([]string, 0, len(svc(o).Spec.Ports))
				for _, p := range svc(o).Spec.Ports {
					s := fmt.Sprintf("%d/%s", p.Port, p.Protocol)
					if p.NodePort != 0 {
						s = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, p.Protocol)
					}
					ports = append(ports, s)
				}
				return orNone(strings.Join(ports, ","))
			}},
	}
}

func pvcColumns() []resource.Column {
	pvc := func(o runtime.Object) *corev1.PersistentVolumeClaim { return o.(*corev1.PersistentVolumeClaim) }
	return []resource.Column{
		{Name: "Status", Type: "string", Description: "Phase of the claim.", Cell: func(o runtime.Object) any { return string(pvc(o).Status.Phase) }},
		{Name: "Volume", Type: "string", Description: "Bound volume.", Cell: func(o runtime.Object) any { return pvc(o).Spec.VolumeName }},
		{Name: "Capacity", Type: "string", Description: "Requested storage.",
			Cell: func(o runtime.Object) any {
				if q, ok := pvc(o).Spec.Resources.Requests[corev1.ResourceStorage]; ok {
					return q.String()
				}
				return ""
			}},
		{Name: "Access Modes", Type: "string", Description: "Requested access modes.",
			Cell: func(o runtime.Object) any {
				modes := make([]string, 0, len(pvc(o).Spec.AccessModes))
				for _, m := range pvc(o).Spec.AccessModes {
					modes = append(modes, string(m))
				}
				sort.Strings(modes)
				return strings.Join(modes, ",")
			}},
		{Name: "StorageClass", Type: "string", Description: "Storage class of the claim.",
			Cell: func(o runtime.Object) any {
				if sc := pvc(o).Spec.StorageClassName; sc != nil {
					return *sc
				}
				return ""
			}},
	}
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
