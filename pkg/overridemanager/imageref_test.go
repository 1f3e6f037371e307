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
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

const digest = "sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c"

func TestParseImage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		image   string
		want    imageRef
		wantErr string
	}{
		{name: "A bare name has only a repository.", image: "nginx", want: imageRef{repository: "nginx"}},
		{name: "A tag follows the colon.", image: "nginx:1.25", want: imageRef{repository: "nginx", tag: "1.25"}},
		{name: "A first part without dot or colon is part of the repository.", image: "library/nginx:1", want: imageRef{repository: "library/nginx", tag: "1"}},
		{name: "A first part with a dot is the registry.", image: "registry.k8s.io/pause:3.9", want: imageRef{registry: "registry.k8s.io", repository: "pause", tag: "3.9"}},
		{
			name: "A registry with a port is not mistaken for a tag.", image: "fictional.registry.example:10443/karmada/controller",
			want: imageRef{registry: "fictional.registry.example:10443", repository: "karmada/controller"},
		},
		{name: "localhost is a registry.", image: "localhost/app:dev", want: imageRef{registry: "localhost", repository: "app", tag: "dev"}},
		{name: "localhost with a port is a registry.", image: "localhost:5000/app", want: imageRef{registry: "localhost:5000", repository: "app"}},
		{name: "A digest follows the at sign.", image: "nginx@" + digest, want: imageRef{repository: "nginx", digest: digest}},
		{name: "A tag and a digest are both kept.", image: "docker.io/nginx:1@" + digest, want: imageRef{registry: "docker.io", repository: "nginx", tag: "1", digest: digest}},
		{name: "An empty image is refused.", image: "", wantErr: "no repository"},
		{name: "An upper-case repository is refused.", image: "Nginx:1", wantErr: `repository "Nginx" must be lowercase`},
		{name: "A malformed tag is refused.", image: "nginx:-1", wantErr: `invalid tag "-1"`},
		{name: "A malformed digest is refused.", image: "nginx@sha256:xyz", wantErr: `invalid digest "sha256:xyz"`},
		{name: "A repository ending in a slash is refused.", image: "docker.io/:1", wantErr: `invalid repository ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseImage(tt.image)
			if errText(err) != tt.wantErr {
				t.Fatalf("parseImage(%q) error = %v, want %q", tt.image, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("parseImage(%q) = %+v, want %+v", tt.image, got, tt.want)
			}
			if err == nil && got.String() != tt.image {
				t.Errorf("String() = %q, want the input back", got.String())
			}
		})
	}
}

func TestOverrideImage(t *testing.T) {
	t.Parallel()
	const (
		add     = policyv1alpha1.OverriderOpAdd
		remove  = policyv1alpha1.OverriderOpRemove
		replace = policyv1alpha1.OverriderOpReplace
	)
	tests := []struct {
		name      string
		image     string
		component policyv1alpha1.ImageComponent
		operator  policyv1alpha1.OverriderOperator
		value     string
		want      string
		wantErr   string
	}{
		{name: "Registry add appends to the registry.", image: "docker.io/nginx:1", component: policyv1alpha1.Registry, operator: add, value: "-mirror", want: "docker.io-mirror/nginx:1"},
		{name: "Registry add on an image without registry sets one.", image: "nginx:1", component: policyv1alpha1.Registry, operator: add, value: "registry.cn.io", want: "registry.cn.io/nginx:1"},
		{name: "Registry replace swaps the registry.", image: "docker.io/library/nginx:1", component: policyv1alpha1.Registry, operator: replace, value: "eu.registry.io", want: "eu.registry.io/library/nginx:1"},
		{name: "Registry replace on an image without registry adds one.", image: "library/nginx", component: policyv1alpha1.Registry, operator: replace, value: "eu.registry.io", want: "eu.registry.io/library/nginx"},
		{name: "Registry remove drops the registry.", image: "docker.io/nginx@" + digest, component: policyv1alpha1.Registry, operator: remove, want: "nginx@" + digest},
		{name: "Repository add appends to the repository.", image: "docker.io/nginx:1", component: policyv1alpha1.Repository, operator: add, value: "-debug", want: "docker.io/nginx-debug:1"},
		{name: "Repository replace swaps the repository.", image: "docker.io/nginx:1", component: policyv1alpha1.Repository, operator: replace, value: "team/web", want: "docker.io/team/web:1"},
		{
			name: "Repository remove leaves no valid image and is an error.", image: "docker.io/nginx:1", component: policyv1alpha1.Repository, operator: remove,
			wantErr: `Repository remove "" on "docker.io/nginx:1" gives "docker.io/:1": invalid repository ""`,
		},
		{name: "Tag add appends to the tag.", image: "nginx:1.25", component: policyv1alpha1.Tag, operator: add, value: "-alpine", want: "nginx:1.25-alpine"},
		{name: "Tag add on an untagged image sets the tag.", image: "nginx", component: policyv1alpha1.Tag, operator: add, value: "latest", want: "nginx:latest"},
		{name: "Tag replace swaps the tag.", image: "registry.k8s.io/pause:3.9", component: policyv1alpha1.Tag, operator: replace, value: "3.10", want: "registry.k8s.io/pause:3.10"},
		{name: "Tag replace with a tag drops a digest.", image: "nginx@" + digest, component: policyv1alpha1.Tag, operator: replace, value: "1.25", want: "nginx:1.25"},
		{name: "Tag replace with a digest drops the tag.", image: "nginx:1.25", component: policyv1alpha1.Tag, operator: replace, value: digest, want: "nginx@" + digest},
		{name: "Tag remove drops the tag first.", image: "nginx:1@" + digest, component: policyv1alpha1.Tag, operator: remove, want: "nginx@" + digest},
		{name: "Tag remove drops the digest when there is no tag.", image: "nginx@" + digest, component: policyv1alpha1.Tag, operator: remove, want: "nginx"},
		{
			name: "Tag add that gives neither a tag nor a digest is an error.", image: "nginx@" + digest, component: policyv1alpha1.Tag, operator: add, value: "x",
			wantErr: `tag add "x" gives "` + digest + `x", neither a tag nor a digest`,
		},
		{name: "An image that does not parse is an error.", image: "Nginx", component: policyv1alpha1.Tag, operator: add, value: "x", wantErr: `parse image "Nginx": repository "Nginx" must be lowercase`},
		{name: "An unknown component is an error.", image: "nginx", component: "Host", operator: add, value: "x", wantErr: `unsupported component "Host"`},
		{name: "An unknown operator is an error.", image: "nginx", component: policyv1alpha1.Registry, operator: "move", value: "x", wantErr: `unsupported operator "move"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := overrideImage(tt.image, &policyv1alpha1.ImageOverrider{Component: tt.component, Operator: tt.operator, Value: tt.value})
			if errText(err) != tt.wantErr {
				t.Fatalf("overrideImage error = %v, want %q", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("overrideImage = %q, want %q", got, tt.want)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// FuzzParseImage checks that whatever parses prints back to the same text
// and parses again to the same parts.
func FuzzParseImage(f *testing.F) {
	for _, s := range []string{"nginx", "docker.io/library/nginx:1.25", "localhost:5000/a/b@" + digest, "a:b:c", "[::1]:5000/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, image string) {
		r, err := parseImage(image)
		if err != nil {
			return
		}
		if r.String() != image {
			t.Fatalf("parseImage(%q).String() = %q", image, r.String())
		}
		again, err := parseImage(r.String())
		if err != nil || again != r {
			t.Fatalf("reparse of %q = %+v, %v; want %+v", image, again, err, r)
		}
	})
}
