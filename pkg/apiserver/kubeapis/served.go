package kubeapis

import (
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"
)

// Served is one resource the installed groups serve, in any version.
type Served struct {
	schema.GroupResource
	// Stored: it can be read, listed, watched and updated (not a review).
	Stored bool
	// Status: it has a status subresource.
	Status bool
}

// Served lists the resources of the installed groups, sorted by group and
// name: what component roles grant on templates.
func (i *Installed) Served() []Served {
	byGR := map[schema.GroupResource]*Served{}
	for _, g := range i.Groups {
		for _, storages := range g.VersionedResourcesStorageMap {
			for name, s := range storages {
				res, sub, _ := strings.Cut(name, "/")
				gr := schema.GroupResource{Group: g.PrioritizedVersions[0].Group, Resource: res}
				x := byGR[gr]
				if x == nil {
					x = &Served{GroupResource: gr}
					byGR[gr] = x
				}
				switch {
				case sub == "status":
					x.Status = true
				case sub == "":
					x.Stored = x.Stored || stored(s)
				}
			}
		}
	}
	out := make([]Served, 0, len(byGR))
	for _, x := range byGR {
		out = append(out, *x)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Group != out[b].Group {
			return out[a].Group < out[b].Group
		}
		return out[a].Resource < out[b].Resource
	})
	return out
}

func stored(s rest.Storage) bool {
	_, l := s.(rest.Lister)
	_, w := s.(rest.Watcher)
	_, u := s.(rest.Updater)
	return l && w && u
}
