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
