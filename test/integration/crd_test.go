package integration

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mco-org/mco/pkg/testing/cli"
	"github.com/mco-org/mco/test/integration/framework"
)

// widgetSchema is the schema of a Widget version, the size described as
// sizeDoc: the versions' schemas differ by it (identical ones would be
// shared at the spec level, where selectable fields are not allowed).
const widgetSchema = `      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations: [{rule: "self.replicas <= 10", message: "at most 10 replicas"}]
            properties:
              size: {type: string, default: small, description: "%s"}
              replicas: {type: integer, default: 1}
          status:
            type: object
            properties:
              replicas: {type: integer}
`

// widgetCRD exercises what custom resources do on kube-apiserver: two
// versions (None conversion), defaults, a CEL rule, the status and scale
// subresources, printer columns and a selectable field.
var widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, shortNames: [wd]}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    additionalPrinterColumns:
    - {name: Size, type: string, jsonPath: .spec.size}
    selectableFields:
    - {jsonPath: .spec.size}
    schema:
` + fmt.Sprintf(widgetSchema, "How big the widget is.") + `  - name: v1beta1
    served: true
    storage: false
    schema:
` + fmt.Sprintf(widgetSchema, "How big the widget is (v1beta1).")

// TestCustomResourceDefinitions: mco-apiserver serves CRDs and their
// custom resources as kube-apiserver does, and refuses CRDs in its own
// groups.
func TestCustomResourceDefinitions(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	s.MustKubectl(t, widgetCRD, "apply", "-f", "-")
	s.WaitEstablished(t, "crd/widgets.example.com")

	cli.Eventually(t, 30*time.Second, "api-resources lists widgets and CRDs", func(context.Context) (bool, string) {
		out, stderr, _ := s.Kubectl(t, "", "api-resources")
		return strings.Contains(out, "widgets") && strings.Contains(out, "customresourcedefinitions"), out + stderr
	})
	explainEventually(t, s, "widget.spec.size", "How big the widget is.")

	s.MustKubectl(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec: {replicas: 2}\n", "apply", "-f", "-")
	s.MustKubectl(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2, namespace: default}\nspec: {size: large}\n", "apply", "--server-side", "-f", "-")
	if out := s.MustKubectl(t, "", "get", "wd", "w1"); !strings.Contains(out, "SIZE") || !strings.Contains(out, "small") {
		t.Errorf("printer columns and defaults:\n%s", out)
	}
	if out := s.MustKubectl(t, "", "get", "widgets", "--field-selector", "spec.size=large", "-o", "name"); strings.TrimSpace(out) != "widget.example.com/w2" {
		t.Errorf("field selector spec.size=large: %q", out)
	}
	if out := s.MustKubectl(t, "", "get", "widgets.v1beta1.example.com", "w1", "-o", "jsonpath={.apiVersion} {.spec.replicas}"); out != "example.com/v1beta1 2" {
		t.Errorf("w1 read as v1beta1: %q", out)
	}
	s.MustKubectl(t, "", "scale", "widget", "w1", "--replicas=3")
	if out := s.MustKubectl(t, "", "get", "widget", "w1", "-o", "jsonpath={.spec.replicas}"); out != "3" {
		t.Errorf("replicas after scale: %q", out)
	}

	for _, bad := range []struct{ yaml, want string }{
		{"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w3, namespace: default}\nspec: {replicas: 11}\n", "at most 10 replicas"},
		{"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w4, namespace: default}\nspec: {colour: red}\n", `unknown field "spec.colour"`},
		{strings.ReplaceAll(widgetCRD, "example.com", "policy.karmada.io"), `group "policy.karmada.io" is served by mco-apiserver itself`},
		{strings.ReplaceAll(widgetCRD, "example.com", "rollout.mco-org.github.io"), `group "rollout.mco-org.github.io" is served by mco-apiserver itself`},
		{strings.ReplaceAll(widgetCRD, "example.com", "extras.mco-org.github.io"), "mco-org.github.io domain"},
		{strings.ReplaceAll(widgetCRD, "example.com", "autoscaling.karmada.io"), `group "autoscaling.karmada.io" is served by mco-apiserver itself`},
		{strings.ReplaceAll(widgetCRD, "example.com", "search.karmada.io"), `group "search.karmada.io" is Karmada's group of ResourceRegistry, kept for mco to serve`},
	} {
		_, stderr, err := s.Kubectl(t, bad.yaml, "apply", "-f", "-")
		if err == nil || !strings.Contains(stderr, bad.want) {
			t.Errorf("apply should fail with %q; got %v:\n%s", bad.want, err, stderr)
		}
	}

	// Karmada's other groups are open: its operator's CRD is a template
	// a user propagates to install the operator in members.
	s.MustKubectl(t, strings.NewReplacer("example.com", "operator.karmada.io", "Widget", "Karmada", "widget", "karmada", "wd]", "km]").Replace(widgetCRD),
		"apply", "--server-side", "-f", "-")

	// mco-controller-manager may read and claim the new kind's objects.
	cli.Eventually(t, 30*time.Second, "mco-controller-manager may update widgets/status", func(context.Context) (bool, string) {
		can, stderr, _ := s.Kubectl(t, "", "auth", "can-i", "update", "widgets.example.com/status", "--as=system:mco-controller-manager")
		return strings.TrimSpace(can) == "yes", can + stderr
	})
	if out, _, _ := s.Kubectl(t, "", "auth", "can-i", "delete", "widgets.example.com", "--as=system:mco-controller-manager"); strings.TrimSpace(out) != "no" {
		t.Errorf("mco-controller-manager may delete widgets: %q", out)
	}

	// A conversion webhook behind a Service is accepted (the CRD is a
	// template for members, where the Service runs); a request that needs
	// the conversion says why it cannot be done here.
	s.MustKubectl(t, strings.NewReplacer("example.com", "hooks.example.com", "wd]", "hk]").Replace(widgetCRD)+`  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {service: {namespace: default, name: converter, path: /convert}}
`, "apply", "-f", "-")
	s.WaitEstablished(t, "crd/widgets.hooks.example.com")
	waitServed(t, s, "widgets.v1.hooks.example.com")
	s.MustKubectl(t, "apiVersion: hooks.example.com/v1\nkind: Widget\nmetadata: {name: h1, namespace: default}\nspec: {replicas: 1}\n", "apply", "-f", "-")
	if _, stderr, err := s.Kubectl(t, "", "get", "widgets.v1beta1.hooks.example.com", "h1"); err == nil || !strings.Contains(stderr, "cannot reach Service default/converter") {
		t.Errorf("reading h1 as v1beta1 should fail naming the Service; got %v:\n%s", err, stderr)
	}

	// The CRD and its objects survive a restart.
	s.Restart(t)
	if out := s.MustKubectl(t, "", "get", "widgets", "-o", "name"); !strings.Contains(out, "w1") || !strings.Contains(out, "w2") {
		t.Errorf("after a restart: %q", out)
	}
}

// TestKwokCRDsAreServed: kwok's own CRDs (real CRDs nobody here wrote, from
// the module hack/tools builds kwok from) apply to mco and are established.
func TestKwokCRDsAreServed(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/kwok")
	cmd.Dir = filepath.Join(framework.BinDir(t), "..", "..", "hack", "tools")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("locate the kwok module: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "kustomize", "crd", "bases")
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs under %s: %v", dir, err)
	}
	s := framework.StartAPIServer(t, "")
	s.MustKubectl(t, "", "apply", "--server-side", "-f", dir)
	s.WaitEstablished(t, "crd", "--all")
	// Besides kwok's, the MCS API's two, which mco installs itself.
	if got := strings.Count(s.MustKubectl(t, "", "get", "crd", "-o", "name"), "\n"); got != len(files)+2 {
		t.Errorf("%d CRDs established, want %d", got, len(files)+2)
	}
	explainEventually(t, s, "stages.spec.selector", "FIELD: selector")
}

// waitServed waits until kubectl can map resource (discovery lists it).
func waitServed(t *testing.T, s *framework.APIServer, resource string) {
	t.Helper()
	cli.Eventually(t, 30*time.Second, resource+" served", func(context.Context) (bool, string) {
		_, stderr, err := s.Kubectl(t, "", "get", resource, "-A", "-o", "name")
		return err == nil, stderr
	})
}

// explainEventually waits until kubectl explain of field says want: OpenAPI
// follows discovery by a moment, as on kube-apiserver.
func explainEventually(t *testing.T, s *framework.APIServer, field, want string) {
	t.Helper()
	cli.Eventually(t, 30*time.Second, fmt.Sprintf("kubectl explain %s says %q", field, want), func(context.Context) (bool, string) {
		out, stderr, _ := s.Kubectl(t, "", "explain", field)
		return strings.Contains(out, want), out + stderr
	})
}
