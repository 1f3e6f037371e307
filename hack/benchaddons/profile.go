package main

import (
	"bytes"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// addonCPU is the CPU time of a profile's samples spent in the code of
// add-ons, and of all its samples: rendering, deciding and writing their Works (the binding
// controller's passes over Addons) and their status (the add-on
// controller). The rest is what any Works cost: applying the objects in
// the members, their status, the informers' decoding.
func addonCPU(raw []byte) (ours, all time.Duration, err error) {
	p, err := profile.Parse(bytes.NewReader(raw))
	if err != nil {
		return 0, 0, err
	}
	for _, s := range p.Sample {
		v := time.Duration(s.Value[len(s.Value)-1]) // cpu, in nanoseconds
		all += v
		if inAddonCode(s) {
			ours += v
		}
	}
	return ours, all, nil
}

// addonCode are the functions whose samples count as add-on work.
var addonCode = []string{
	"github.com/mco-org/mco/pkg/controllers/addon.",
	"github.com/mco-org/mco/pkg/addon.",
	"github.com/mco-org/mco/pkg/addon/chart.",
	"github.com/mco-org/mco/pkg/controllers/binding.(*Controller).sync",
}

func inAddonCode(s *profile.Sample) bool {
	for _, loc := range s.Location {
		for _, line := range loc.Line {
			if line.Function == nil {
				continue
			}
			for _, prefix := range addonCode {
				if strings.HasPrefix(line.Function.Name, prefix) {
					return true
				}
			}
		}
	}
	return false
}
