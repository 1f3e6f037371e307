package chart

import (
	"strings"
	"testing"
)

// TestLint runs helm lint --strict with the defaults and every test values
// file.
func TestLint(t *testing.T) {
	cases := valuesCases(t)
	for _, args := range cases {
		out, err := helm(t, append([]string{"lint", "--strict", chart, "--namespace", namespace}, args...)...)
		if err != nil {
			t.Errorf("helm lint %v: %v\n%s", args, err, out)
		}
	}
}

// TestSchemaRefuses: values the schema types wrongly or does not know are
// refused at install, naming the value.
func TestSchemaRefuses(t *testing.T) {
	cases := []struct {
		name string
		set  []string
		want string
	}{
		{"unknown top-level key", []string{"apiserverr.replicas=2"}, "apiserverr"},
		{"unknown nested key", []string{"apiserver.replica=2"}, "replica"},
		{"etcd replicas not 1 or 3", []string{"etcd.internal.replicas=2"}, "replicas"},
		{"etcd mode", []string{"etcd.mode=embedded"}, "mode"},
		{"external etcd without servers", []string{"etcd.mode=external"}, "servers"},
		{"external etcd server without scheme", []string{"etcd.mode=external", "etcd.external.servers={etcd:2379}"}, "servers"},
		{"pki mode", []string{"pki.mode=vault"}, "mode"},
		{"mode", []string{"mode=federated"}, "mode"},
		{"certManager without issuer", []string{"pki.mode=certManager", "pki.caBundle=-----BEGIN CERTIFICATE-----x"}, "name"},
		{"certManager without CA bundle", []string{"pki.mode=certManager", "pki.certManager.issuerRef.name=ca"}, "caBundle"},
		{"existing without secrets", []string{"pki.mode=existing", "pki.caBundle=-----BEGIN CERTIFICATE-----x"}, "apiserver"},
		{"authorization mode", []string{"apiserver.authorizationMode=AlwaysAllow"}, "authorizationMode"},
		{"replicas a string", []string{"apiserver.replicas=two"}, "replicas"},
		{"duration", []string{"controllerManager.clusterStatusUpdateFrequency=10 seconds"}, "clusterStatusUpdateFrequency"},
		{"extra arg not a flag", []string{"scheduler.extraArgs={workers=3}"}, "extraArgs"},
		{"service type", []string{"apiserver.service.type=ExternalName"}, "type"},
		{"admin server not https", []string{"adminKubeconfig.server=http://mco:6443"}, "server"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"template", release, chart, "--namespace", namespace}
			for _, s := range tc.set {
				args = append(args, "--set", s)
			}
			_, err := helm(t, args...)
			if err == nil {
				t.Fatalf("helm template --set %v succeeded, want a schema error", tc.set)
			}
			if !strings.Contains(err.Error(), "values don't meet the specifications of the schema") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error does not name %q as a schema violation:\n%v", tc.want, err)
			}
		})
	}
}
