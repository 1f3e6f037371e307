package names

import "testing"

func TestNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, got, want string
	}{
		{"a binding is the lowercased name and kind", Binding("Deployment", "nginx"), "nginx-deployment"},
		{"colons in RBAC names become dots", Binding("ClusterRole", "system:foo"), "system.foo-clusterrole"},
		{"the execution space prefixes the cluster", ExecutionSpace("member1"), "karmada-es-member1"},
		{"a work name is Karmada's for the same template", Work("Deployment", "nginx", "default"), "nginx-687f7fb96f"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
	if Work("Deployment", "nginx", "default") == Work("Deployment", "nginx", "other") {
		t.Error("works of templates in different namespaces share a name")
	}
	if c, ok := ClusterOf("karmada-es-m1"); !ok || c != "m1" {
		t.Errorf("ClusterOf: %q %v", c, ok)
	}
	if _, ok := ClusterOf("default"); ok {
		t.Error("default is not an execution space")
	}
}
