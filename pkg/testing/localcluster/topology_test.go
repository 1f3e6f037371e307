package localcluster

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestWithVersions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, versions string
		want           map[string]string
		err            string
	}{
		{name: "none", want: map[string]string{}},
		{name: "one member", versions: "member2=v1.34.4", want: map[string]string{"member2": "v1.34.4"}},
		{name: "two, spaced", versions: "member2=v1.34.4, member3=v1.36.3", want: map[string]string{"member2": "v1.34.4", "member3": "v1.36.3"}},
		{name: "no such member", versions: "member9=v1.34.4", err: `no member "member9"`},
		{name: "no version", versions: "member2", err: "want name=vX.Y.Z"},
		{name: "not a version", versions: "member2=1.34", err: "want name=vX.Y.Z"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			members, err := WithVersions(DefaultMembers(), tc.versions)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("WithVersions(%q) = %v, want an error containing %q", tc.versions, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range members {
				if m.Version != tc.want[m.Name] {
					t.Errorf("%s: version %q, want %q", m.Name, m.Version, tc.want[m.Name])
				}
			}
		})
	}
}

func TestMemberBinary(t *testing.T) {
	t.Parallel()
	if got := memberBinary("/b", "", "kube-apiserver"); got != filepath.Join("/b", "kube-apiserver") {
		t.Errorf("own version: %s", got)
	}
	if got := memberBinary("/b", "v1.34.4", "kube-apiserver"); got != filepath.Join("/b", "kube-v1.34.4", "kube-apiserver") {
		t.Errorf("another version: %s", got)
	}
}
