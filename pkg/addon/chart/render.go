// Package chart loads Helm charts and renders them for one member cluster
// with the Helm SDK, as `helm template` would for that cluster: the
// member's own Kubernetes version and API list (only those), the chart's
// CRDs first, then its objects in Helm's install order.
package chart

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"
	chartv2 "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/engine"
	releasev1 "helm.sh/helm/v4/pkg/release/v1"
	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/mco-org/mco/pkg/addon"
)

// Member is what rendering reads of the cluster rendered for.
type Member struct {
	// KubeVersion is its Kubernetes version, such as v1.34.4.
	KubeVersion string
	// APIVersions are the group-versions it serves ("apps/v1", "v1")
	// and those with each kind ("apps/v1/Deployment"), as Helm's
	// .Capabilities.APIVersions holds them.
	APIVersions []string
}

// Release names the release rendered.
type Release struct {
	Name, Namespace string
}

// Object is one rendered object.
type Object struct {
	Object *unstructured.Unstructured
	// Source is the chart file it came from ("crds/widgets.yaml",
	// "log-collector/templates/daemonset.yaml").
	Source string
	// CRD: it comes from the chart's crds/ directory, which Helm installs
	// first and never upgrades or deletes.
	CRD bool
}

// ResourcePolicyAnnotation with the value "keep" leaves an object in place
// when its release is uninstalled (Helm's rule).
const ResourcePolicyAnnotation = addon.ResourcePolicyAnnotation

// Kept tells whether the object stays in the member when the add-on
// leaves it, as helm uninstall leaves it: the chart's CRDs, and objects
// whose resource policy is keep.
func (o Object) Kept() bool {
	return o.CRD || o.Object.GetAnnotations()[ResourcePolicyAnnotation] == "keep"
}

// Render renders ch for member with values (the user's, merged: the chart's
// defaults are coalesced under them here). It returns the chart's CRDs
// first, then its objects in Helm's install order, hooks among them as
// ordinary objects (pre-install hooks before, the others after), and test
// hooks left out. Templates see .Capabilities of member alone and a
// lookup function that finds nothing.
func Render(ctx context.Context, ch *chartv2.Chart, rel Release, values map[string]any, member Member) ([]Object, error) {
	kv, err := common.ParseKubeVersion(member.KubeVersion)
	if err != nil {
		return nil, fmt.Errorf("kubernetes version %q of the member: %w", member.KubeVersion, err)
	}
	caps := &common.Capabilities{KubeVersion: *kv, APIVersions: common.VersionSet(member.APIVersions),
		HelmVersion: common.DefaultCapabilities.HelmVersion}
	opts := common.ReleaseOptions{Name: rel.Name, Namespace: rel.Namespace, Revision: 1, IsInstall: true}
	top, err := util.ToRenderValuesWithSchemaValidation(ch, values, opts, caps, false)
	if err != nil {
		return nil, err
	}
	files, err := engine.Engine{}.RenderWithContext(ctx, ch, top)
	if err != nil {
		return nil, err
	}
	for name := range files {
		if strings.HasSuffix(name, "NOTES.txt") {
			delete(files, name)
		}
	}
	hooks, manifests, err := releaseutil.SortManifests(files, caps.APIVersions, releaseutil.InstallOrder)
	if err != nil {
		return nil, err
	}
	var out []Object
	for _, crd := range ch.CRDObjects() {
		objs, err := decode(crd.Filename, string(crd.File.Data), true)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	before, after := splitHooks(hooks)
	for _, h := range before {
		objs, err := decode(h.Path, h.Manifest, false)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	for _, m := range manifests {
		objs, err := decode(m.Name, m.Content, false)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	for _, h := range after {
		objs, err := decode(h.Path, h.Manifest, false)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

// splitHooks leaves test hooks out and orders the rest by weight: those
// that run before an install (pre-install) first, the others after.
func splitHooks(hooks []*releasev1.Hook) (before, after []*releasev1.Hook) {
	for _, h := range hooks {
		switch {
		case hasEvent(h, releasev1.HookTest):
		case hasEvent(h, releasev1.HookPreInstall):
			before = append(before, h)
		default:
			after = append(after, h)
		}
	}
	byWeight := func(hs []*releasev1.Hook) {
		sort.SliceStable(hs, func(i, j int) bool { return hs[i].Weight < hs[j].Weight })
	}
	byWeight(before)
	byWeight(after)
	return before, after
}

func hasEvent(h *releasev1.Hook, e releasev1.HookEvent) bool {
	for _, x := range h.Events {
		if x == e {
			return true
		}
	}
	return false
}

// decode reads the objects of a YAML stream; empty documents are skipped.
func decode(source, content string, crd bool) ([]Object, error) {
	var out []Object
	docs := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(content)))
	for {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		if t := strings.TrimSpace(string(j)); t == "null" || t == "{}" {
			continue
		}
		// Numbers decode as Kubernetes objects hold them: integers as
		// int64, not float64.
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(j); err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		if u.GetKind() == "" || u.GetAPIVersion() == "" {
			return nil, fmt.Errorf("%s: an object without apiVersion and kind", source)
		}
		out = append(out, Object{Object: u, Source: source, CRD: crd})
	}
}
