package addon

// WorkBudget is how many bytes of manifests one Work of an add-on carries
// at most: well under the 1.5 MiB etcd allows an object, leaving room for
// the Work's own metadata and status.
const WorkBudget = 768 << 10

// Split groups n objects of the given sizes, in order, into consecutive
// runs of at most budget bytes each, as [start, end) index pairs; an
// object larger than budget goes alone. Nothing is reordered: the
// objects' install order holds across the Works.
func Split(sizes []int, budget int) [][2]int {
	var out [][2]int
	start, total := 0, 0
	for i, s := range sizes {
		if i > start && total+s > budget {
			out = append(out, [2]int{start, i})
			start, total = i, 0
		}
		total += s
	}
	if start < len(sizes) {
		out = append(out, [2]int{start, len(sizes)})
	}
	return out
}

// Part is one Work's share of a cluster's objects: their indexes, in
// order, and whether they stay in the member when the add-on leaves it
// (the chart's crds/ and objects marked helm.sh/resource-policy: keep, as
// helm uninstall leaves them).
type Part struct {
	Objects []int
	Keep    bool
}

// Parts splits a cluster's objects into Works of at most budget bytes:
// first those to keep, then the others, each group in its own order.
func Parts(sizes []int, keep []bool, budget int) []Part {
	var out []Part
	for _, kept := range []bool{true, false} {
		var idx, sz []int
		for i := range sizes {
			if keep[i] == kept {
				idx, sz = append(idx, i), append(sz, sizes[i])
			}
		}
		for _, r := range Split(sz, budget) {
			out = append(out, Part{Objects: append([]int(nil), idx[r[0]:r[1]]...), Keep: kept})
		}
	}
	return out
}
