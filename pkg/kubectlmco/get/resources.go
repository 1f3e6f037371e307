package get

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// capacity is a cluster's allocatable and free CPU (millicores) and memory
// (bytes); known is false without a resource summary.
type capacity struct {
	known                   bool
	cpuAlloc, cpuFree       int64
	memoryAlloc, memoryFree int64
}

// freeResources reads the summary: free is allocatable minus allocated
// minus allocating, never below zero.
func freeResources(s *clusterv1alpha1.ResourceSummary) capacity {
	if s == nil || s.Allocatable == nil {
		return capacity{}
	}
	used := func(name corev1.ResourceName, value func(corev1.ResourceList, corev1.ResourceName) int64) (int64, int64) {
		alloc := value(s.Allocatable, name)
		return alloc, max(alloc-value(s.Allocated, name)-value(s.Allocating, name), 0)
	}
	c := capacity{known: true}
	c.cpuAlloc, c.cpuFree = used(corev1.ResourceCPU, milli)
	c.memoryAlloc, c.memoryFree = used(corev1.ResourceMemory, whole)
	return c
}

func milli(l corev1.ResourceList, name corev1.ResourceName) int64 {
	if q, ok := l[name]; ok {
		return q.MilliValue()
	}
	return 0
}

func whole(l corev1.ResourceList, name corev1.ResourceName) int64 {
	if q, ok := l[name]; ok {
		return q.Value()
	}
	return 0
}

// cpu is "allocatable/free" in cores, such as "8/6.5".
func (c capacity) cpu() string {
	if !c.known {
		return "-"
	}
	return coresOf(c.cpuAlloc) + "/" + coresOf(c.cpuFree)
}

// memory is "allocatable/free" in binary units, such as "32Gi/20.5Gi".
func (c capacity) memory() string {
	if !c.known {
		return "-"
	}
	return bytesOf(c.memoryAlloc) + "/" + bytesOf(c.memoryFree)
}

// coresOf prints millicores as cores with one decimal at most ("6.5"), or
// as millicores under one core ("250m").
func coresOf(m int64) string {
	if m%1000 == 0 {
		return strconv.FormatInt(m/1000, 10)
	}
	if m < 1000 {
		return strconv.FormatInt(m, 10) + "m"
	}
	return oneDecimal(float64(m) / 1000)
}

// bytesOf prints a size in the largest binary unit it reaches, with one
// decimal at most ("20.5Gi").
func bytesOf(b int64) string {
	units := []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	unit, size := "", float64(b)
	for _, u := range units {
		if size < 1024 {
			break
		}
		size /= 1024
		unit = u
	}
	return oneDecimal(size) + unit
}

func oneDecimal(f float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(f, 'f', 1, 64), ".0")
}
