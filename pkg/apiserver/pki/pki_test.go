package pki

import (
	"bytes"
	"net"
	"os"
	"slices"
	"testing"

	"k8s.io/client-go/util/cert"
)

// TestServingCertificateFollowsHosts: a serving certificate is kept while
// it names every requested host and issued again when one is added.
func TestServingCertificateFollowsHosts(t *testing.T) {
	dir := t.TempDir()
	steps := []struct {
		hosts    []string
		reissued bool
		wantDNS  []string
		wantIP   string
	}{
		{hosts: []string{"10.0.0.7"}, reissued: true, wantDNS: []string{"localhost"}, wantIP: "10.0.0.7"},
		{hosts: []string{"10.0.0.7"}, reissued: false, wantDNS: []string{"localhost"}, wantIP: "10.0.0.7"},
		{hosts: []string{"10.0.0.7", "mco-apiserver.mco-system.svc"}, reissued: true,
			wantDNS: []string{"localhost", "mco-apiserver.mco-system.svc"}, wantIP: "10.0.0.7"},
		{hosts: []string{"mco-apiserver.mco-system.svc"}, reissued: false,
			wantDNS: []string{"localhost", "mco-apiserver.mco-system.svc"}, wantIP: "127.0.0.1"},
	}
	var before []byte
	for i, s := range steps {
		f, issued, err := Ensure(dir, s.hosts, SharedCA{})
		if err != nil || !issued {
			t.Fatalf("step %d: Ensure = %v, %v", i, issued, err)
		}
		now, err := os.ReadFile(f.ServingCert)
		if err != nil {
			t.Fatal(err)
		}
		if got := !bytes.Equal(before, now); got != s.reissued {
			t.Errorf("step %d: issued again = %v, want %v", i, got, s.reissued)
		}
		before = now
		certs, err := cert.ParseCertsPEM(now)
		if err != nil {
			t.Fatal(err)
		}
		c := certs[0]
		for _, name := range s.wantDNS {
			if !slices.Contains(c.DNSNames, name) {
				t.Errorf("step %d: DNS names %v lack %s", i, c.DNSNames, name)
			}
		}
		if !slices.ContainsFunc(c.IPAddresses, net.ParseIP(s.wantIP).Equal) {
			t.Errorf("step %d: IP addresses %v lack %s", i, c.IPAddresses, s.wantIP)
		}
	}
}
