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

// Package plan previews a scheduling decision offline: it reads Clusters
// and either a ResourceBinding or a workload template with its
// PropagationPolicy from YAML files, runs the scheduler's own code (the
// default plugins, spread selection and replica division) and prints what
// would be written to the binding's spec.clusters. Schedule does the same
// for objects in memory (such as live Clusters) and says why each cluster
// left out was left out.
package plan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Output formats.
const (
	OutputYAML = "yaml"
	OutputJSON = "json"
)

// Decision is what plan prints: the binding's future spec.clusters.
type Decision struct {
	Clusters []workv1alpha2.TargetCluster `json:"clusters"`
}

// Run reads the objects in files, schedules the binding they describe and
// writes the decision to stdout as output ("yaml", the default when empty,
// or "json"). Notes, such as the clusterAffinities term used, go to stderr.
//
// When the binding cannot be scheduled the error is a
// *core.UnschedulableError whose message is the reason the scheduler would
// record; errors in the input name the file and document at fault.
func Run(ctx context.Context, files []string, output string, stdout, stderr io.Writer) error {
	if output == "" {
		output = OutputYAML
	}
	if output != OutputYAML && output != OutputJSON {
		return fmt.Errorf("unknown output format %q: use %s or %s", output, OutputYAML, OutputJSON)
	}
	if len(files) == 0 {
		return errors.New("no input files: give the Clusters and the binding (or workload and policy) with -f")
	}
	docs, err := ReadFiles(files)
	if err != nil {
		return err
	}
	p, err := Schedule(ctx, nil, docs, stderr)
	if err != nil {
		return err
	}
	if p.AffinityName != "" {
		_, _ = fmt.Fprintf(stderr, "scheduled with the clusterAffinities term %q\n", p.AffinityName)
	}
	return Write(stdout, output, Decision{Clusters: p.Clusters})
}

// Write prints v, a Decision or a Placement, as output ("yaml" or "json").
// An empty list of clusters prints as an empty list.
func Write(w io.Writer, output string, v any) error {
	switch d := v.(type) {
	case Decision:
		if d.Clusters == nil {
			d.Clusters = []workv1alpha2.TargetCluster{}
		}
		v = d
	case *Placement:
		c := *d
		if c.Clusters == nil {
			c.Clusters = []workv1alpha2.TargetCluster{}
		}
		v = c
	}
	var data []byte
	var err error
	if output == OutputJSON {
		data, err = json.MarshalIndent(v, "", "  ")
		data = append(data, '\n')
	} else {
		data, err = yaml.Marshal(v)
	}
	if err != nil {
		return fmt.Errorf("encode the decision: %w", err)
	}
	_, err = w.Write(data)
	return err
}
