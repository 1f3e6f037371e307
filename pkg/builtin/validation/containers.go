/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package validation

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// containerContext is what checking one container needs to know about the
// rest of the pod.
type containerContext struct {
	// names collects the container names seen so far, init containers
	// included; validateContainer adds to it.
	names sets.Set[string]
	// volumes are the names a volume mount may refer to.
	volumes sets.Set[string]
	// init is true for an init container.
	init bool
}

func validateContainer(c *corev1.Container, cc containerContext, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	namePath := fldPath.Child("name")
	switch {
	case c.Name == "":
		errs = append(errs, field.Required(namePath, ""))
	case cc.names.Has(c.Name):
		errs = append(errs, field.Duplicate(namePath, c.Name))
	default:
		errs = append(errs, validateDNSLabel(c.Name, namePath)...)
	}
	cc.names.Insert(c.Name)

	switch {
	case c.Image == "":
		errs = append(errs, field.Required(fldPath.Child("image"), ""))
	case strings.TrimSpace(c.Image) != c.Image:
		errs = append(errs, field.Invalid(fldPath.Child("image"), c.Image, "must not have leading or trailing whitespace"))
	}
	errs = append(errs, validateEnum(c.ImagePullPolicy, fldPath.Child("imagePullPolicy"),
		corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever)...)
	errs = append(errs, validateEnum(c.TerminationMessagePolicy, fldPath.Child("terminationMessagePolicy"),
		corev1.TerminationMessageReadFile, corev1.TerminationMessageFallbackToLogsOnError)...)
	if c.RestartPolicy != nil {
		errs = append(errs, validateEnum(*c.RestartPolicy, fldPath.Child("restartPolicy"),
			corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyNever)...)
	}

	errs = append(errs, validateContainerPorts(c.Ports, fldPath.Child("ports"))...)
	errs = append(errs, validateEnv(c.Env, fldPath.Child("env"))...)
	errs = append(errs, validateEnvFrom(c.EnvFrom, fldPath.Child("envFrom"))...)
	errs = append(errs, validateResources(&c.Resources, fldPath.Child("resources"))...)
	errs = append(errs, validateVolumeMounts(c, cc.volumes, fldPath)...)

	// An init container runs to completion before the app starts, so it can
	// be neither probed nor hooked, unless it is a sidecar (restartPolicy
	// Always) that keeps running next to the app.
	sidecar := c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
	if cc.init && !sidecar {
		for _, f := range []struct {
			name string
			set  bool
		}{
			{"livenessProbe", c.LivenessProbe != nil},
			{"readinessProbe", c.ReadinessProbe != nil},
			{"startupProbe", c.StartupProbe != nil},
			{"lifecycle", c.Lifecycle != nil},
		} {
			if f.set {
				errs = append(errs, field.Forbidden(fldPath.Child(f.name), "may not be set for init containers without restartPolicy Always"))
			}
		}
		return errs
	}
	errs = append(errs, validateProbe(c.LivenessProbe, true, fldPath.Child("livenessProbe"))...)
	errs = append(errs, validateProbe(c.ReadinessProbe, false, fldPath.Child("readinessProbe"))...)
	errs = append(errs, validateProbe(c.StartupProbe, true, fldPath.Child("startupProbe"))...)
	if c.Lifecycle != nil {
		errs = append(errs, validateLifecycleHandler(c.Lifecycle.PostStart, fldPath.Child("lifecycle", "postStart"))...)
		errs = append(errs, validateLifecycleHandler(c.Lifecycle.PreStop, fldPath.Child("lifecycle", "preStop"))...)
	}
	return errs
}

func validateContainerPorts(ports []corev1.ContainerPort, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for i, p := range ports {
		idx := fldPath.Index(i)
		if p.Name != "" {
			if names.Has(p.Name) {
				errs = append(errs, field.Duplicate(idx.Child("name"), p.Name))
			} else {
				errs = append(errs, messages(idx.Child("name"), p.Name, utilvalidation.IsValidPortName(p.Name))...)
			}
			names.Insert(p.Name)
		}
		if p.ContainerPort == 0 {
			errs = append(errs, field.Required(idx.Child("containerPort"), ""))
		} else {
			errs = append(errs, validatePortNumber(p.ContainerPort, idx.Child("containerPort"))...)
		}
		if p.HostPort != 0 {
			errs = append(errs, validatePortNumber(p.HostPort, idx.Child("hostPort"))...)
		}
		errs = append(errs, validateProtocol(p.Protocol, idx.Child("protocol"))...)
	}
	return errs
}

func validatePortNumber(port int32, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range utilvalidation.IsValidPortNum(int(port)) {
		errs = append(errs, field.Invalid(fldPath, port, msg))
	}
	return errs
}

func validateProtocol(p corev1.Protocol, fldPath *field.Path) field.ErrorList {
	return validateEnum(p, fldPath, corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP)
}

// validateNamedPort checks a port given as a number (1-65535) or as the name
// of a container port.
func validateNamedPort(port intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	if port.Type == intstr.String {
		return messages(fldPath, port.StrVal, utilvalidation.IsValidPortName(port.StrVal))
	}
	return validatePortNumber(port.IntVal, fldPath)
}

func validateEnv(env []corev1.EnvVar, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range env {
		idx := fldPath.Index(i)
		if ev.Name == "" {
			errs = append(errs, field.Required(idx.Child("name"), ""))
		} else {
			errs = append(errs, messages(idx.Child("name"), ev.Name, utilvalidation.IsRelaxedEnvVarName(ev.Name))...)
		}
		if ev.ValueFrom == nil {
			continue
		}
		fromPath := idx.Child("valueFrom")
		if ev.Value != "" {
			errs = append(errs, field.Invalid(fromPath, "", "may not be set when `value` is not empty"))
			continue
		}
		errs = append(errs, validateOneOf(ev.ValueFrom, fromPath, "source")...)
		from := ev.ValueFrom
		if from.FieldRef != nil && from.FieldRef.FieldPath == "" {
			errs = append(errs, field.Required(fromPath.Child("fieldRef", "fieldPath"), ""))
		}
		if from.ResourceFieldRef != nil && from.ResourceFieldRef.Resource == "" {
			errs = append(errs, field.Required(fromPath.Child("resourceFieldRef", "resource"), ""))
		}
		if from.ConfigMapKeyRef != nil {
			errs = append(errs, validateKeyRef(from.ConfigMapKeyRef.Key, fromPath.Child("configMapKeyRef", "key"))...)
		}
		if from.SecretKeyRef != nil {
			errs = append(errs, validateKeyRef(from.SecretKeyRef.Key, fromPath.Child("secretKeyRef", "key"))...)
		}
	}
	return errs
}

func validateKeyRef(key string, fldPath *field.Path) field.ErrorList {
	if key == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return messages(fldPath, key, utilvalidation.IsConfigMapKey(key))
}

func validateEnvFrom(sources []corev1.EnvFromSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range sources {
		s := &sources[i]
		idx := fldPath.Index(i)
		if s.Prefix != "" {
			errs = append(errs, messages(idx.Child("prefix"), s.Prefix, utilvalidation.IsRelaxedEnvVarName(s.Prefix))...)
		}
		errs = append(errs, validateOneOf(s, idx, "source")...)
	}
	return errs
}

// validateVolumeMounts checks that every mount and device names a volume of
// the pod and that no two mounts share a path.
func validateVolumeMounts(c *corev1.Container, volumes sets.Set[string], fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	paths := sets.New[string]()
	for i, m := range c.VolumeMounts {
		idx := fldPath.Child("volumeMounts").Index(i)
		if m.Name == "" {
			errs = append(errs, field.Required(idx.Child("name"), ""))
		} else if !volumes.Has(m.Name) {
			errs = append(errs, field.NotFound(idx.Child("name"), m.Name))
		}
		switch {
		case m.MountPath == "":
			errs = append(errs, field.Required(idx.Child("mountPath"), ""))
		case paths.Has(m.MountPath):
			errs = append(errs, field.Invalid(idx.Child("mountPath"), m.MountPath, "must be unique"))
		}
		paths.Insert(m.MountPath)
		if strings.HasPrefix(m.SubPath, "/") || hasDotDot(m.SubPath) {
			errs = append(errs, field.Invalid(idx.Child("subPath"), m.SubPath, "must be a relative path without '..'"))
		}
	}
	for i, d := range c.VolumeDevices {
		idx := fldPath.Child("volumeDevices").Index(i)
		if d.Name == "" {
			errs = append(errs, field.Required(idx.Child("name"), ""))
		} else if !volumes.Has(d.Name) {
			errs = append(errs, field.NotFound(idx.Child("name"), d.Name))
		}
		if d.DevicePath == "" {
			errs = append(errs, field.Required(idx.Child("devicePath"), ""))
		}
	}
	return errs
}

// hasDotDot reports whether p has a ".." element.
func hasDotDot(p string) bool {
	for _, elem := range strings.Split(p, "/") {
		if elem == ".." {
			return true
		}
	}
	return false
}

// validateResources checks that quantities are not negative and that no
// request exceeds its limit.
func validateResources(r *corev1.ResourceRequirements, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, list := range []struct {
		name      string
		resources corev1.ResourceList
	}{{"limits", r.Limits}, {"requests", r.Requests}} {
		for name, q := range list.resources {
			p := fldPath.Child(list.name).Key(string(name))
			errs = append(errs, validateQualifiedName(string(name), p)...)
			if q.Sign() < 0 {
				errs = append(errs, field.Invalid(p, q.String(), "must be greater than or equal to 0"))
			}
		}
	}
	for name, req := range r.Requests {
		if limit, ok := r.Limits[name]; ok && req.Cmp(limit) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("requests").Key(string(name)), req.String(),
				fmt.Sprintf("must be less than or equal to %s limit of %s", name, limit.String())))
		}
	}
	return errs
}
