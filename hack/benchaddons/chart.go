package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// groupLabel splits the members in two: an add-on's values take the
// member's group, so each add-on has two distinct value sets.
const groupLabel = "bench.mco-org.github.io/group"

var groups = []string{"a", "b"}

// writeChart writes the benchmark's chart into dir: objects objects of
// kinds a bare member applies and counts healthy at once (ConfigMaps,
// Secrets, ServiceAccounts, Roles, RoleBindings), each carrying the
// group value.
func writeChart(dir string, objects int) error {
	if err := os.MkdirAll(filepath.Join(dir, "templates"), 0o755); err != nil {
		return err
	}
	files := map[string]string{
		"Chart.yaml":  "apiVersion: v2\nname: bench\nversion: 1.0.0\n",
		"values.yaml": "group: none\n",
	}
	var b strings.Builder
	kinds := []string{"ConfigMap", "Secret", "ServiceAccount", "Role", "RoleBinding"}
	for i := 0; i < objects; i++ {
		name := fmt.Sprintf("{{ .Release.Name }}-%d", i)
		fmt.Fprintln(&b, "---")
		switch kinds[i%len(kinds)] {
		case "ConfigMap":
			fmt.Fprintf(&b, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\ndata: {group: {{ .Values.group | quote }}}\n", name)
		case "Secret":
			fmt.Fprintf(&b, "apiVersion: v1\nkind: Secret\nmetadata: {name: %s}\nstringData: {group: {{ .Values.group | quote }}}\n", name)
		case "ServiceAccount":
			fmt.Fprintf(&b, "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: %s, labels: {group: {{ .Values.group | quote }}}}\n", name)
		case "Role":
			fmt.Fprintf(&b, "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: %s, labels: {group: {{ .Values.group | quote }}}}\n"+
				"rules: [{apiGroups: [\"\"], resources: [configmaps], verbs: [get]}]\n", name)
		case "RoleBinding":
			fmt.Fprintf(&b, "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: %s, labels: {group: {{ .Values.group | quote }}}}\n"+
				"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: %s}\n"+
				"subjects: [{kind: ServiceAccount, name: %s, namespace: {{ .Release.Namespace }}}]\n", name, name, name)
		}
	}
	files["templates/objects.yaml"] = b.String()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
