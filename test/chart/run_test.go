package chart

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/mco-org/mco/pkg/controllers/taintpolicy"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/testing/cli"
)

// TestRenderedConfigurationRuns runs what the chart renders with its
// defaults, as a kubelet would, on this machine: the etcd StatefulSet's
// command with the real etcd, and mco-apiserver, mco-scheduler and
// mco-controller-manager with their rendered arguments, each with the
// files of its volumes (the generated PKI, keys, kubeconfigs) under a
// directory of its own. Only in-cluster names, 0.0.0.0 and ports are
// rewritten to loopback. Then the admin kubeconfig from the chart's Secret
// reaches mco as system:masters, both components hold their leases as
// their own identities, the default ClusterTaintPolicy exists, tokens are
// signed and Secrets are encrypted in etcd.
func TestRenderedConfigurationRuns(t *testing.T) {
	objs := objects(t, render(t))
	ports := map[string]int{}
	for _, p := range []string{"etcd-client", "etcd-peer", "etcd-metrics", "apiserver", "scheduler", "controller-manager"} {
		ports[p] = freePort(t)
	}
	local := func(p string) string { return "127.0.0.1:" + strconv.Itoa(ports[p]) }
	etcdHost := fmt.Sprintf("%s-etcd-0.%s-etcd.%s.svc", release, release, namespace)
	addresses := strings.NewReplacer(
		fmt.Sprintf("https://%s-apiserver.%s.svc:443", release, namespace), "https://"+local("apiserver"),
		etcdHost+":2379", local("etcd-client"), etcdHost+":2380", local("etcd-peer"),
		"0.0.0.0:2379", local("etcd-client"), "0.0.0.0:2380", local("etcd-peer"), "0.0.0.0:2381", local("etcd-metrics"),
		"0.0.0.0:10351", local("scheduler"), "0.0.0.0:10357", local("controller-manager"),
		"--secure-port=6443", "--secure-port="+strconv.Itoa(ports["apiserver"]),
	)
	dir := t.TempDir()
	rewriteFor := func(root string) rewrite {
		paths := strings.NewReplacer("/etc/mco/", root+"/etc/mco/", "/var/lib/", root+"/var/lib/", "0.0.0.0", "127.0.0.1")
		return func(s string) string { return paths.Replace(addresses.Replace(s)) }
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	start := func(kind, name string) {
		root := filepath.Join(dir, name)
		p, err := layOut(objs, find(t, objs, kind, name), root, rewriteFor(root))
		if err != nil {
			t.Fatal(err)
		}
		run(t, p)
	}
	start("StatefulSet", release+"-etcd")
	start("Deployment", release+"-apiserver")

	admin, err := objectData(objs, "Secret", release+"-admin-kubeconfig")
	if err != nil {
		t.Fatal(err)
	}
	adminPath := filepath.Join(dir, "admin.kubeconfig")
	if err := os.WriteFile(adminPath, []byte(addresses.Replace(admin["kubeconfig"])), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", adminPath)
	if err != nil {
		t.Fatal(err)
	}
	kube := kubernetes.NewForConfigOrDie(cfg)
	var review *authenticationv1.SelfSubjectReview
	err = wait.PollUntilContextCancel(ctx, 500*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		review, err = kube.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("mco-apiserver never answered the admin kubeconfig: %v", err)
	}
	if u := review.Status.UserInfo; u.Username != "mco-admin" || !contains(u.Groups, "system:masters") {
		t.Errorf("admin kubeconfig authenticates as %s %v, want mco-admin in system:masters", u.Username, u.Groups)
	}

	start("Deployment", release+"-scheduler")
	start("Deployment", release+"-controller-manager")
	for _, lease := range []string{"mco-scheduler", "mco-controller-manager"} {
		err := wait.PollUntilContextCancel(ctx, 500*time.Millisecond, true, func(ctx context.Context) (bool, error) {
			l, err := kube.CoordinationV1().Leases("kube-system").Get(ctx, lease, metav1.GetOptions{})
			return err == nil && l.Spec.HolderIdentity != nil && *l.Spec.HolderIdentity != "", nil
		})
		if err != nil {
			t.Errorf("lease %s never held: %v", lease, err)
		}
	}
	mco := mcoclient.NewForConfigOrDie(cfg)
	err = wait.PollUntilContextCancel(ctx, 500*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		_, err := mco.PolicyV1alpha1().ClusterTaintPolicies().Get(ctx, taintpolicy.DefaultPolicyName, metav1.GetOptions{})
		return err == nil, nil
	})
	if err != nil {
		t.Errorf("the controller-manager did not create %s: %v", taintpolicy.DefaultPolicyName, err)
	}

	// The real kubectl reads the admin kubeconfig too.
	out, err := exec.CommandContext(ctx, bin(t, "kubectl"), "--kubeconfig", adminPath, "--cache-dir", cli.CacheDir(adminPath), "get", "clusters,propagationpolicies", "-A").CombinedOutput()
	if err != nil {
		t.Errorf("kubectl get clusters: %v\n%s", err, out)
	}

	// Tokens are signed with the chart's key; Secrets are encrypted in etcd.
	if _, err := kube.CoreV1().ServiceAccounts("default").Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "robot"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := kube.CoreV1().ServiceAccounts("default").CreateToken(ctx, "robot", &authenticationv1.TokenRequest{}, metav1.CreateOptions{}); err != nil {
		t.Errorf("token request: %v", err)
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "plain"}, StringData: map[string]string{"password": "chart-test-secret-value"}}
	if _, err := kube.CoreV1().Secrets("default").Create(ctx, secret, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	etcd, err := clientv3.New(clientv3.Config{Endpoints: []string{"http://" + local("etcd-client")}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer etcd.Close()
	resp, err := etcd.Get(ctx, "/registry/secrets/default/plain")
	if err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("read the Secret from etcd: %v (%d keys)", err, len(resp.Kvs))
	}
	if v := string(resp.Kvs[0].Value); !strings.HasPrefix(v, "k8s:enc:aescbc:v1:key1:") || strings.Contains(v, "chart-test-secret-value") {
		t.Errorf("the Secret is not encrypted at rest: %.40q", v)
	}
}

// run starts a laid-out pod's process, stopped (by its PID) when the test
// ends; its output is in root/log, shown when the test fails.
func run(t *testing.T, p *pod) {
	t.Helper()
	logPath := filepath.Join(p.root, "log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(bin(t, p.args[0]), p.args[1:]...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", p.name, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			out, _ := os.ReadFile(logPath)
			if len(out) > 4000 {
				out = out[len(out)-4000:]
			}
			t.Logf("%s (%s):\n%s", p.name, strings.Join(p.args, " "), out)
		}
	})
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
