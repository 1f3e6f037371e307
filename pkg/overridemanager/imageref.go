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

package overridemanager

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// The image reference grammar of the OCI distribution spec:
// [registry/]repository[:tag][@digest].
var (
	pathComponent = regexp.MustCompile(`^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$`)
	registryHost  = regexp.MustCompile(`^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])` +
		`(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?$`)
	tagPattern    = regexp.MustCompile(`^[\w][\w.-]{0,127}$`)
	digestPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$`)
)

// maxNameLength is the longest [registry/]repository allowed.
const maxNameLength = 255

// imageRef is a parsed container image reference.
type imageRef struct {
	registry   string // e.g. "registry.k8s.io" or "localhost:5000"; empty for Docker Hub
	repository string // e.g. "library/nginx"
	tag        string
	digest     string // e.g. "sha256:…"
}

// parseImage splits an image reference as Karmada does: the part before
// the first "/" is the registry when it contains "." or ":" or is
// "localhost"; the tag follows the last ":" after the last "/"; the digest
// follows "@". Unlike Karmada, an image with both a tag and a digest keeps
// both.
func parseImage(image string) (imageRef, error) {
	var r imageRef
	name := image
	if i := strings.IndexByte(name, '@'); i >= 0 {
		name, r.digest = name[:i], name[i+1:]
		if !digestPattern.MatchString(r.digest) {
			return imageRef{}, fmt.Errorf("invalid digest %q", r.digest)
		}
	}
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		name, r.tag = name[:i], name[i+1:]
		if !tagPattern.MatchString(r.tag) {
			return imageRef{}, fmt.Errorf("invalid tag %q", r.tag)
		}
	}
	if name == "" {
		return imageRef{}, errors.New("no repository")
	}
	if len(name) > maxNameLength {
		return imageRef{}, fmt.Errorf("name longer than %d characters", maxNameLength)
	}
	r.repository = name
	if i := strings.IndexByte(name, '/'); i >= 0 {
		if first := name[:i]; strings.ContainsAny(first, ".:") || first == "localhost" {
			r.registry, r.repository = first, name[i+1:]
			if !registryHost.MatchString(r.registry) {
				return imageRef{}, fmt.Errorf("invalid registry %q", r.registry)
			}
		}
	}
	for _, c := range strings.Split(r.repository, "/") {
		if !pathComponent.MatchString(c) {
			if pathComponent.MatchString(strings.ToLower(c)) {
				return imageRef{}, fmt.Errorf("repository %q must be lowercase", r.repository)
			}
			return imageRef{}, fmt.Errorf("invalid repository %q", r.repository)
		}
	}
	return r, nil
}

// String joins the parts back into a reference.
func (r imageRef) String() string {
	s := r.repository
	if r.registry != "" {
		s = r.registry + "/" + s
	}
	if r.tag != "" {
		s += ":" + r.tag
	}
	if r.digest != "" {
		s += "@" + r.digest
	}
	return s
}

// overrideImage changes one component of the image, as Karmada does:
// add appends the value to the component (Registry add "-mirror" turns
// "docker.io" into "docker.io-mirror"; on an image without registry it sets
// one), replace sets it, remove clears it. Tag acts on the tag or, when
// there is none, the digest; a tag-shaped value becomes the tag and drops
// the digest, a digest-shaped one becomes the digest and drops the tag.
// Unlike Karmada, a result that is not a valid image is an error rather
// than written.
func overrideImage(image string, o *policyv1alpha1.ImageOverrider) (string, error) {
	r, err := parseImage(image)
	if err != nil {
		return "", fmt.Errorf("parse image %q: %w", image, err)
	}
	var part *string
	switch o.Component {
	case policyv1alpha1.Registry:
		part = &r.registry
	case policyv1alpha1.Repository:
		part = &r.repository
	case policyv1alpha1.Tag:
		if err := r.overrideTagOrDigest(o.Operator, o.Value); err != nil {
			return "", err
		}
	default:
		return "", fmt.Errorf("unsupported component %q", o.Component)
	}
	if part != nil {
		switch o.Operator {
		case policyv1alpha1.OverriderOpAdd:
			*part += o.Value
		case policyv1alpha1.OverriderOpReplace:
			*part = o.Value
		case policyv1alpha1.OverriderOpRemove:
			*part = ""
		default:
			return "", fmt.Errorf("unsupported operator %q", o.Operator)
		}
	}
	out := r.String()
	if _, err := parseImage(out); err != nil {
		return "", fmt.Errorf("%s %s %q on %q gives %q: %w", o.Component, o.Operator, o.Value, image, out, err)
	}
	return out, nil
}

func (r *imageRef) overrideTagOrDigest(op policyv1alpha1.OverriderOperator, value string) error {
	current := r.tag
	if current == "" {
		current = r.digest
	}
	result := value
	switch op {
	case policyv1alpha1.OverriderOpAdd:
		result = current + value
	case policyv1alpha1.OverriderOpReplace:
	case policyv1alpha1.OverriderOpRemove:
		if r.tag != "" {
			r.tag = ""
		} else {
			r.digest = ""
		}
		return nil
	default:
		return fmt.Errorf("unsupported operator %q", op)
	}
	switch {
	case tagPattern.MatchString(result):
		r.tag, r.digest = result, ""
	case digestPattern.MatchString(result):
		r.tag, r.digest = "", result
	default:
		return fmt.Errorf("tag %s %q gives %q, neither a tag nor a digest", op, value, result)
	}
	return nil
}
