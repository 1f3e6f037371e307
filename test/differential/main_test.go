package differential

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/pkg/testing/repo"
)

var (
	updateDrifts = flag.Bool("update-drifts", false, "rewrite testdata/known-drifts.txt from this run's differences")
	driftReport  = flag.Bool("drift-report", false, "print the differences grouped by kind and cause")
	show         = flag.String("show", "", "print both servers' answers to the cases whose name matches this regular expression")
)

// mcoBinDirEnv names another directory holding the mco-apiserver to test
// (another build); etcd and kube-apiserver still come from _output/bin.
const mcoBinDirEnv = "MCO_DIFFERENTIAL_MCO_BIN_DIR"

// servers are the two apiservers, started once by the first test that
// needs them (so that the pure unit tests run without them) and stopped
// by TestMain.
var servers struct {
	once      sync.Once
	err       error
	dir       string
	env       *localcluster.Env
	mcoServer *localcluster.Component
	kube, mco *server
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if servers.env != nil {
		servers.env.Down()
	}
	if servers.mcoServer != nil {
		servers.mcoServer.Stop(20 * time.Second)
	}
	if code != 0 && servers.dir != "" {
		fmt.Fprintf(os.Stderr, "differential: servers' logs kept in %s\n", filepath.Join(servers.dir, "logs"))
	} else if servers.dir != "" {
		_ = os.RemoveAll(servers.dir)
	}
	os.Exit(code)
}

// startServers returns kube-apiserver (a bare member: etcd and the
// apiserver only) and mco-apiserver (on embedded etcd), each with the test
// namespace and the custom kinds' CRDs.
func startServers(t *testing.T) (kube, mco *server) {
	t.Helper()
	servers.once.Do(func() { servers.err = bringUp(repo.Root(t)) })
	if servers.err != nil {
		t.Fatalf("start servers: %v", servers.err)
	}
	return servers.kube, servers.mco
}

func bringUp(root string) error {
	binDir := filepath.Join(root, "_output", "bin")
	mcoBinDir := binDir
	if d := os.Getenv(mcoBinDirEnv); d != "" {
		mcoBinDir = d
	}
	for _, b := range []string{filepath.Join(binDir, "etcd"), filepath.Join(binDir, "kube-apiserver"), filepath.Join(mcoBinDir, "mco-apiserver")} {
		if _, err := os.Stat(b); err != nil {
			return fmt.Errorf("%s missing: run 'make build' and 'hack/build-member-binaries.sh' (make test does both)", b)
		}
	}
	dir, err := os.MkdirTemp("", "mco-differential-")
	if err != nil {
		return err
	}
	servers.dir = dir
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var kubeErr, mcoErr error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		servers.env, kubeErr = localcluster.Up(ctx, localcluster.Options{
			Dir: dir, BinDir: binDir, BareMembers: true,
			Members: []localcluster.MemberSpec{{Name: "kube"}},
		})
	}()
	mcoData := filepath.Join(dir, "mco")
	go func() {
		defer wg.Done()
		servers.mcoServer, mcoErr = localcluster.StartAPIServer(ctx, mcoBinDir, mcoData, filepath.Join(dir, "logs", "mco"))
	}()
	wg.Wait()
	if err := errors.Join(kubeErr, mcoErr); err != nil {
		return err
	}
	kubeCfg, err := localcluster.RESTConfig(servers.env.Members[0].Kubeconfig)
	if err != nil {
		return err
	}
	mcoCfg, err := localcluster.RESTConfig(localcluster.APIServerKubeconfig(mcoData))
	if err != nil {
		return err
	}
	mcoCfg.Host = localcluster.APIServerURL(servers.mcoServer.Port)
	if servers.kube, err = newServer("kube", kubeCfg); err != nil {
		return err
	}
	if servers.mco, err = newServer("mco", mcoCfg); err != nil {
		return err
	}
	// The namespace's default ServiceAccount is what a member's
	// controller-manager would create (a bare member runs none): a Pod's
	// ServiceAccount admission looks it up.
	ns := map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": testNamespace}}
	sa := map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default", "namespace": testNamespace}}
	nsKind, _ := KindByDir("namespace")
	saKind, _ := KindByDir("serviceaccount")
	for _, s := range []*server{servers.kube, servers.mco} {
		for _, o := range []struct {
			kind Kind
			obj  map[string]any
		}{{nsKind, ns}, {saKind, sa}} {
			out, err := s.create(ctx, o.kind, o.obj, false)
			if err != nil {
				return err
			}
			if !out.Accepted() {
				return fmt.Errorf("create %s %s on %s: %s %s", o.kind.GVK.Kind, metadataName(o.obj), s.name, out, out.Message)
			}
		}
	}
	// The custom kinds' CRDs, served by both before any case runs.
	return setUpCRDs(ctx, servers.kube, servers.mco)
}
