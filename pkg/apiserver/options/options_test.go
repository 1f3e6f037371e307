package options

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestValidateMode: aggregated mode refuses the flags of a standalone
// server's own authentication and authorization, with one error each.
func TestValidateMode(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{name: "standalone", args: nil},
		{name: "aggregated", args: []string{"--mode=aggregated", "--kubeconfig=host.kubeconfig", "--requestheader-client-ca-file=front-proxy-ca.crt"}},
		{name: "aggregated with the host's client CA", args: []string{"--mode=aggregated", "--client-ca-file=host-ca.crt"}},
		{name: "unknown mode", args: []string{"--mode=federated"}, want: []string{`--mode "federated" is not one of standalone, aggregated`}},
		{name: "aggregated issuing", args: []string{"--mode=aggregated", "--client-ca-file=ca.crt", "--client-ca-key-file=ca.key"},
			want: []string{"--client-ca-key-file has no use with --mode=aggregated"}},
		{name: "aggregated with tokens and RBAC", args: []string{"--mode=aggregated", "--token-auth-file=t.csv", "--authorization-mode=AllowAuthenticated"},
			want: []string{"--token-auth-file has no use", "--authorization-mode has no use"}},
		{name: "aggregated with a blank header", args: []string{"--mode=aggregated", "--requestheader-username-headers= "},
			want: []string{`empty value in "requestheader-username-headers"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := New()
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			o.AddFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			// What Complete would have done without touching the disk.
			o.SecureServing.ServerCert.CertKey.CertFile = "apiserver.crt"
			err := o.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate accepted %v", tc.args)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate: %v\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// TestCompleteChecksFlagsFirst: a mistyped flag is refused before anything
// is written under --data-dir; flags that hold get their PKI and pass
// Validate.
func TestCompleteChecksFlagsFirst(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{name: "unknown mode", args: []string{"--mode=federated"}, want: `--mode "federated" is not one of`},
		{name: "bad memory limit", args: []string{"--memory-limit=lots"}, want: "--memory-limit"},
		{name: "no issuer", args: []string{"--service-account-issuer="}, want: "--service-account-issuer must not be empty"},
		{name: "good", args: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dataDir := filepath.Join(t.TempDir(), "data")
			o := New()
			flags := pflag.NewFlagSet("test", pflag.ContinueOnError)
			o.AddFlags(flags)
			if err := flags.Parse(append(tc.args, "--data-dir="+dataDir)); err != nil {
				t.Fatal(err)
			}
			err := o.Complete()
			_, statErr := os.Stat(dataDir)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Complete: %v", err)
				}
				if statErr != nil {
					t.Fatalf("no data directory after Complete: %v", statErr)
				}
				if err := o.Validate(); err != nil {
					t.Fatalf("Validate after Complete: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Complete: %v, want an error containing %q", err, tc.want)
			}
			if !errors.Is(statErr, fs.ErrNotExist) {
				t.Errorf("Complete refused the flags but wrote %s (%v)", dataDir, statErr)
			}
		})
	}
}
