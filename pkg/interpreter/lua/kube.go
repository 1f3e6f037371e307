package lua

import (
	"fmt"
	"sort"

	lua "github.com/yuin/gopher-lua"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mco-org/mco/pkg/workload"
)

// KubeModuleName is the module scripts load with require("kube").
const KubeModuleName = "kube"

var kubeFuncs = map[string]lua.LGFunction{
	"resourceAdd":             resourceAdd,
	"accuratePodRequirements": accuratePodRequirements,
	"getPodDependencies":      getPodDependencies,
	"getResourceQuantity":     getResourceQuantity,
}

func openKube(l *lua.LState) int {
	l.Push(l.SetFuncs(l.NewTable(), kubeFuncs))
	return 1
}

// resourceAdd sums its arguments, quantities given as strings ("100m",
// "1Gi") or numbers, and returns the sum as a quantity string.
func resourceAdd(l *lua.LState) int {
	var sum resource.Quantity
	for i := 1; i <= l.GetTop(); i++ {
		q := checkQuantity(l, i)
		sum.Add(q)
	}
	l.Push(lua.LString(sum.String()))
	return 1
}

// getResourceQuantity returns a quantity (string or number) as a number.
func getResourceQuantity(l *lua.LState) int {
	if l.GetTop() != 1 {
		l.RaiseError("getResourceQuantity takes one argument, got %d", l.GetTop())
	}
	q := checkQuantity(l, 1)
	l.Push(lua.LNumber(q.AsApproximateFloat64()))
	return 1
}

// accuratePodRequirements returns the requirements of one replica of a pod
// template (a table with spec): its summed resource requests, node claim
// and priority class, or nil when it asks for nothing.
func accuratePodRequirements(l *lua.LState) int {
	if l.GetTop() != 1 {
		l.RaiseError("accuratePodRequirements takes one argument, a pod template, got %d", l.GetTop())
	}
	pt := checkPodTemplate(l, 1)
	req := workload.PodRequirements("", &pt.Spec)
	if req == nil {
		l.Push(lua.LNil)
		return 1
	}
	// As Karmada without its ResourceQuotaEstimate gate: neither the
	// namespace nor the priority class.
	req.PriorityClassName = ""
	pushGo(l, req)
	return 1
}

// getPodDependencies returns the ConfigMaps, Secrets, ServiceAccount and
// PersistentVolumeClaims a pod template (a table with spec) refers to in
// a namespace ("default" when nil), as a list of {apiVersion, kind,
// namespace, name} in that order of kinds, or nil when there are none.
func getPodDependencies(l *lua.LState) int {
	if l.GetTop() != 2 {
		l.RaiseError("getPodDependencies takes two arguments, a pod template and a namespace, got %d", l.GetTop())
	}
	pt := checkPodTemplate(l, 1)
	namespace := "default"
	if l.Get(2) != lua.LNil {
		namespace = l.CheckString(2)
	}
	deps := workload.PodDependencies(namespace, &pt.Spec)
	if len(deps) == 0 {
		l.Push(lua.LNil)
		return 1
	}
	sort.SliceStable(deps, func(i, j int) bool { return dependencyOrder[deps[i].Kind] < dependencyOrder[deps[j].Kind] })
	out := make([]any, 0, len(deps))
	for _, d := range deps {
		out = append(out, map[string]any{"apiVersion": "v1", "kind": d.Kind, "namespace": d.Namespace, "name": d.Name})
	}
	pushGo(l, out)
	return 1
}

// dependencyOrder is the order of kinds in getPodDependencies' answer.
var dependencyOrder = map[string]int{"ConfigMap": 0, "Secret": 1, "ServiceAccount": 2, "PersistentVolumeClaim": 3}

// checkQuantity reads argument n as a quantity.
func checkQuantity(l *lua.LState, n int) resource.Quantity {
	switch v := l.Get(n).(type) {
	case lua.LString:
		q, err := resource.ParseQuantity(string(v))
		if err != nil {
			l.ArgError(n, fmt.Sprintf("quantity %q: %v", string(v), err))
		}
		return q
	case lua.LNumber:
		q, err := resource.ParseQuantity(lua.LVAsString(v))
		if err != nil {
			l.ArgError(n, fmt.Sprintf("quantity %v: %v", v, err))
		}
		return q
	case *lua.LNilType:
		return resource.Quantity{}
	}
	l.ArgError(n, "quantity expected, got "+l.Get(n).Type().String())
	return resource.Quantity{}
}

// checkPodTemplate reads argument n as a pod template.
func checkPodTemplate(l *lua.LState, n int) *corev1.PodTemplateSpec {
	raw, err := FromLua(l.CheckTable(n), false)
	if err != nil {
		l.ArgError(n, "pod template: "+err.Error())
	}
	m, ok := raw.(map[string]any)
	if !ok {
		l.ArgError(n, "pod template expected, got a list")
	}
	var pt corev1.PodTemplateSpec
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, &pt); err != nil {
		l.ArgError(n, "pod template: "+err.Error())
	}
	return &pt
}

// pushGo pushes a Go value converted through its JSON form.
func pushGo(l *lua.LState, v any) {
	lv, err := ToLua(l, v)
	if err != nil {
		l.RaiseError("convert result: %v", err)
	}
	l.Push(lv)
}
