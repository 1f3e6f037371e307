package differential

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/yaml"
)

// setUpCRDs creates the CRDs under crdsDir on each server, for real, and
// waits until both serve every custom kind: each CRD Established, and a
// list of each kind's version answered.
func setUpCRDs(ctx context.Context, servers ...*server) error {
	crds, err := loadCRDs()
	if err != nil {
		return err
	}
	crdKind, _ := KindByDir("customresourcedefinition")
	for _, s := range servers {
		for _, crd := range crds {
			out, err := s.create(ctx, crdKind, crd, false)
			if err != nil {
				return err
			}
			if !out.Accepted() {
				return fmt.Errorf("create CRD %s on %s: %s %s", metadataName(crd), s.name, out, out.Message)
			}
		}
	}
	for _, s := range servers {
		for _, crd := range crds {
			if err := waitSettled(ctx, s, crdKind, metadataName(crd)); err != nil {
				return err
			}
		}
		for _, k := range CustomKinds {
			if err := waitUntil(ctx, fmt.Sprintf("%s served on %s", k.GVR(), s.name), func(ctx context.Context) error {
				_, err := s.resource(k).List(ctx, metav1.ListOptions{Limit: 1})
				return err
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// loadCRDs reads every document of the YAML files under crdsDir.
func loadCRDs() ([]map[string]any, error) {
	files, err := filepath.Glob(filepath.Join(crdsDir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		docs, err := splitDocuments(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for i, doc := range docs {
			js, err := yaml.YAMLToJSON(doc)
			if err != nil {
				return nil, fmt.Errorf("%s#%d: %w", f, i, err)
			}
			obj, err := decodeObject(js)
			if err != nil {
				return nil, fmt.Errorf("%s#%d: %w", f, i, err)
			}
			out = append(out, obj)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no CRDs under %s", crdsDir)
	}
	return out, nil
}

// waitSettled waits until a stored CRD is Established, its names accepted
// first: an update sent before would race the server's controllers (a
// CRD's scope and kind become immutable once it is established). Objects
// of other kinds are settled once stored.
func waitSettled(ctx context.Context, s *server, k Kind, name string) error {
	if k.Dir != "customresourcedefinition" {
		return nil
	}
	return waitUntil(ctx, fmt.Sprintf("CRD %s Established on %s", name, s.name), func(ctx context.Context) error {
		return established(ctx, s, k, name)
	})
}

// established returns nil once the CRD named name has its Established
// condition true.
func established(ctx context.Context, s *server, crdKind Kind, name string) error {
	crd, err := s.get(ctx, crdKind, name)
	if err != nil {
		return err
	}
	conditions, _, _ := unstructured.NestedSlice(crd, "status", "conditions")
	for _, c := range conditions {
		if m, _ := c.(map[string]any); m["type"] == "Established" && m["status"] == "True" {
			return nil
		}
	}
	return fmt.Errorf("conditions %v", conditions)
}

// waitUntil calls check until it returns nil, for at most a minute; what
// the last check said goes with a timeout.
func waitUntil(ctx context.Context, what string, check func(context.Context) error) error {
	var last error
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		last = check(ctx)
		return last == nil, nil
	})
	if err != nil {
		return fmt.Errorf("wait for %s: %w (last: %v)", what, err, last)
	}
	return nil
}
