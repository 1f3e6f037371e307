package chart

import (
	"crypto/x509"
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mco-org/mco/pkg/apiserver"
)

// TestAggregatedMode: with mode aggregated the chart registers one
// APIService per version mco-apiserver serves, pointing at its Service and
// trusting the CA its serving certificate (which names the Service as the
// aggregator dials it) chains to; the components reach the host with
// ServiceAccount tokens, and nothing of standalone mode's own
// authentication is rendered.
func TestAggregatedMode(t *testing.T) {
	objs := objects(t, render(t, "--set", "mode=aggregated"))
	roots, caPEM := generatedCA(t, objs)
	tlsData, err := objectData(objs, "Secret", release+"-apiserver-tls")
	if err != nil {
		t.Fatal(err)
	}
	serviceName := release + "-apiserver." + namespace + ".svc"
	if _, err := parseCert(t, tlsData["tls.crt"]).Verify(x509.VerifyOptions{Roots: roots, DNSName: serviceName}); err != nil {
		t.Errorf("the serving certificate does not verify as %s: %v", serviceName, err)
	}

	var want, got []string
	for _, r := range apiserver.OwnResources() {
		if name := r.Version + "." + r.Resource.Group; !slices.Contains(want, name) {
			want = append(want, name)
		}
	}
	for _, o := range objs {
		if o.GetKind() != "APIService" {
			continue
		}
		got = append(got, o.GetName())
		name, _, _ := unstructured.NestedString(o.Object, "spec", "service", "name")
		ns, _, _ := unstructured.NestedString(o.Object, "spec", "service", "namespace")
		if name != release+"-apiserver" || ns != namespace {
			t.Errorf("APIService %s points at Service %s/%s", o.GetName(), ns, name)
		}
		bundle, _, _ := unstructured.NestedString(o.Object, "spec", "caBundle")
		pemCA, err := base64.StdEncoding.DecodeString(bundle)
		if err != nil || string(pemCA) != caPEM {
			t.Errorf("APIService %s: caBundle is not the CA (%v)", o.GetName(), err)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("APIServices %v, want one per served version %v", got, want)
	}

	for _, gone := range []string{"-admin-kubeconfig", "-admin-token", "-service-account", "-scheduler-client", "-controller-manager-client"} {
		if _, err := objectData(objs, "Secret", release+gone); err == nil {
			t.Errorf("Secret %s%s rendered in aggregated mode", release, gone)
		}
	}
	for _, o := range objs {
		if o.GetKind() != "Deployment" {
			continue
		}
		automount, _, _ := unstructured.NestedBool(o.Object, "spec", "template", "spec", "automountServiceAccountToken")
		if !automount {
			t.Errorf("Deployment %s does not mount its ServiceAccount token", o.GetName())
		}
		for _, c := range objectsAt(o.Object, "spec.template.spec.containers") {
			args, _, _ := unstructured.NestedStringSlice(c, "args")
			for _, a := range args {
				for _, standalone := range []string{"--kubeconfig=", "--token-auth-file=", "--client-ca-file=", "--authorization-mode="} {
					if strings.HasPrefix(a, standalone) {
						t.Errorf("Deployment %s: %s in aggregated mode", o.GetName(), a)
					}
				}
			}
		}
	}
}
