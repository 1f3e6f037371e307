package chart

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"sigs.k8s.io/yaml"

	apiserverapp "github.com/mco-org/mco/pkg/apiserver/app"
	"github.com/mco-org/mco/pkg/controllermanager"
	schedulerapp "github.com/mco-org/mco/pkg/scheduler/app"
)

// flagSets are the binaries' own flags, by image name.
func flagSets() map[string]*pflag.FlagSet {
	ctx := context.Background()
	sets := map[string]*pflag.FlagSet{}
	for name, cmd := range map[string]*cobra.Command{
		"mco-apiserver":          apiserverapp.NewCommand(ctx),
		"mco-scheduler":          schedulerapp.NewCommand(ctx),
		"mco-controller-manager": controllermanager.NewCommand(ctx),
	} {
		sets[name] = cmd.Flags()
	}
	return sets
}

// binaryOf names the mco binary an image holds ("" for other images).
func binaryOf(image string) string {
	base := image[strings.LastIndex(image, "/")+1:]
	base, _, _ = strings.Cut(base, ":")
	if strings.HasPrefix(base, "mco-") {
		return base
	}
	return ""
}

// TestArgsAreFlags: every argument the chart gives an mco container, with
// every test values file, is a flag of that binary and its value parses.
func TestArgsAreFlags(t *testing.T) {
	cases := valuesCases(t)
	seen := map[string]bool{}
	for _, args := range cases {
		for _, o := range objects(t, render(t, args...)) {
			if o.GetKind() != "Deployment" {
				continue
			}
			containers := objectsAt(o.Object, "spec.template.spec.containers")
			for _, c := range containers {
				image, _ := c["image"].(string)
				binary := binaryOf(image)
				if binary == "" {
					continue
				}
				seen[binary] = true
				fs := flagSets()[binary]
				if fs == nil {
					t.Fatalf("%s: no flags known for %s", o.GetName(), binary)
				}
				for _, a := range stringsOf(c["args"]) {
					name, value, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
					f := fs.Lookup(name)
					if !strings.HasPrefix(a, "--") || !ok || f == nil {
						t.Errorf("%v: %s gets %q, which is not --flag=value of its flags", args, binary, a)
						continue
					}
					if err := fs.Set(name, value); err != nil {
						t.Errorf("%v: %s %s: %v", args, binary, a, err)
					}
				}
			}
		}
	}
	for _, b := range []string{"mco-apiserver", "mco-scheduler", "mco-controller-manager"} {
		if !seen[b] {
			t.Errorf("no container runs %s", b)
		}
	}
}

// TestDefaultsMatchBinaries: a value of values.yaml that sets a flag
// defaults to the binary's own default, so that installing with the chart
// changes nothing a user would not see in the values.
func TestDefaultsMatchBinaries(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(chart, "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var values map[string]any
	if err := yaml.Unmarshal(raw, &values); err != nil {
		t.Fatal(err)
	}
	sets := flagSets()
	cases := []struct{ path, binary, flag string }{
		{"apiserver.authorizationMode", "mco-apiserver", "authorization-mode"},
		{"apiserver.serviceAccountIssuer", "mco-apiserver", "service-account-issuer"},
		{"scheduler.workers", "mco-scheduler", "workers"},
		{"controllerManager.concurrentSyncs", "mco-controller-manager", "concurrent-syncs"},
		{"controllerManager.clusterStatusUpdateFrequency", "mco-controller-manager", "cluster-status-update-frequency"},
		{"controllerManager.createDefaultTaintPolicy", "mco-controller-manager", "create-default-taint-policy"},
		{"controllerManager.skippedPropagatingNamespaces", "mco-controller-manager", "skipped-propagating-namespaces"},
		{"etcd.external.prefix", "mco-apiserver", "etcd-prefix"},
	}
	for _, tc := range cases {
		v, ok := lookupPath(values, tc.path)
		if !ok {
			t.Errorf("values.yaml has no %s", tc.path)
			continue
		}
		f := sets[tc.binary].Lookup(tc.flag)
		if f == nil {
			t.Errorf("%s has no --%s", tc.binary, tc.flag)
			continue
		}
		got := fmt.Sprint(v)
		if list, ok := v.([]any); ok {
			parts := make([]string, len(list))
			for i, p := range list {
				parts[i] = fmt.Sprint(p)
			}
			got = "[" + strings.Join(parts, ",") + "]"
		}
		if got != f.DefValue {
			t.Errorf("values.yaml %s is %s, but %s --%s defaults to %s", tc.path, got, tc.binary, tc.flag, f.DefValue)
		}
	}
}

func lookupPath(m map[string]any, path string) (any, bool) {
	var cur any = m
	for _, k := range strings.Split(path, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = mm[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// objectsAt returns the list of objects at a dotted path.
func objectsAt(obj map[string]any, path string) []map[string]any {
	v, _ := lookupPath(obj, path)
	list, _ := v.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, item := range list {
		if m, ok := item.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func stringsOf(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, item := range list {
		s, _ := item.(string)
		out = append(out, s)
	}
	return out
}
