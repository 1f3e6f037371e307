package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/e2e/framework"
)

// startDashboard runs kubectl mco dashboard on a free port with the
// kubeconfig and returns the URL it printed (with the session token).
func startDashboard(t *testing.T, kubeconfigPath string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, filepath.Join(framework.BinDir, "kubectl-mco"),
		append([]string{"dashboard", "--port", "0", "--kubeconfig", kubeconfigPath}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/\?token=\S+`).FindString(sc.Text()); m != "" {
				urls <- m
			}
		}
	}()
	select {
	case u := <-urls:
		return u
	case <-time.After(90 * time.Second):
		t.Fatal("kubectl mco dashboard printed no URL within 90s")
	}
	return ""
}

// browse is a client with the dashboard's session cookie, as a browser
// that opened the printed URL has it.
func browse(t *testing.T, url string) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("opening %s: %d", url, resp.StatusCode)
	}
	return c, url[:strings.Index(url, "/?token=")]
}

func get(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestDashboard: kubectl mco dashboard, as the admin, lists the three
// Ready members and the workloads with their placement; it refuses a
// request without the session and one with a foreign Host; a user bound
// to view in one namespace sees only that namespace's workloads, and its
// rollout without the pause button the admin gets.
func TestDashboard(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-dashboard")
	other := namespace(t, "e2e-dashboard-other")
	kubectl(t, deploymentYAML(ns, "web", 4, "10m")+"---\n"+weightedPolicy(ns, "web", "member1", "member3", 1, 1, "")+"---\n"+
		deploymentYAML(other, "secret-app", 1, "10m")+"---\n"+weightedPolicy(other, "secret-app", "member1", "member3", 1, 1, ""), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 2, "member3": 2})
	kubectl(t, `apiVersion: rollout.mco-org.github.io/v1alpha1
kind: RolloutPolicy
metadata: {name: web, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  waves:
  - {name: canary, clusterNames: [member1]}
  - {name: prod, rest: true}
`, "apply", "-f", "-")

	url := startDashboard(t, framework.Env.MCO.Kubeconfig)
	c, base := browse(t, url)
	eventually(t, 30*time.Second, "the clusters page lists three Ready members", func(context.Context) (bool, string) {
		code, body := get(t, c, base+"/clusters")
		return code == 200 && strings.Contains(body, "3 of 3 clusters Ready."), fmt.Sprintf("%d %.300s", code, body)
	})
	_, body := get(t, c, base+"/workloads?namespace="+ns)
	if !strings.Contains(body, "Deployment "+ns+"/web") || !strings.Contains(body, "member1 2, member3 2") {
		t.Errorf("the workloads page does not show web's placement:\n%s", body)
	}

	_, body = get(t, c, base+"/workloads?labels=app%3Dsecret-app")
	if !strings.Contains(body, "Deployment "+other+"/secret-app") || strings.Contains(body, ns+"/web") {
		t.Errorf("filtered by the templates' labels:\n%s", body)
	}
	eventually(t, 30*time.Second, "the admin may pause web's rollout", func(context.Context) (bool, string) {
		_, body := get(t, c, base+"/rollouts")
		return strings.Contains(body, `action="/rollouts/`+ns+`/web-deployment/pause"`), body
	})

	// No session, or a foreign Host (DNS rebinding): refused.
	if code, _ := get(t, http.DefaultClient, base+"/clusters"); code != http.StatusUnauthorized {
		t.Errorf("without the session: %d, want 401", code)
	}
	req, _ := http.NewRequest("GET", base+"/clusters", nil)
	req.Host = "rebind.example:80"
	if resp, err := c.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: %v %v, want 403", err, resp)
	}

	// A viewer of one namespace sees that namespace only.
	viewer := viewerKubeconfig(t, ns)
	viewerURL := startDashboard(t, viewer, "-n", ns)
	vc, vbase := browse(t, viewerURL)
	_, body = get(t, vc, vbase+"/workloads")
	if !strings.Contains(body, "Deployment "+ns+"/web") || strings.Contains(body, "secret-app") {
		t.Errorf("the viewer's workloads page:\n%s", body)
	}
	if !strings.Contains(body, "may not list") {
		t.Errorf("the viewer's page does not say what is left out:\n%s", body)
	}
	_, body = get(t, vc, vbase+"/rollouts")
	if !strings.Contains(body, "Deployment "+ns+"/web") || strings.Contains(body, "/pause") || strings.Contains(body, "/resume") {
		t.Errorf("the viewer's rollouts page (a rollout, no button):\n%s", body)
	}

	// In the browser: the admin pauses and resumes web's rollout with the
	// buttons, as kubectl mco rollout pause|resume would; the viewer sees
	// only their namespace's workload, and no button.
	ctx := newBrowser(t)
	pause := `section[data-rollout="` + ns + `/web-deployment"] form[action$="/pause"] button`
	browserDo(t, ctx, 30*time.Second, chromedp.Navigate(strings.Replace(url, "/?token=", "/rollouts?token=", 1)),
		chromedp.WaitVisible(chromedp.CSS(pause)))
	screenshot(t, ctx, "rollouts")
	_, mco := mcoClients(t)
	// Wait for the page the form's answer leads to (its text), not for any
	// p.done: the last answer's is still on the page while a form posts,
	// and the page navigates meanwhile, so each look may fail.
	doneSays := func(word string) {
		t.Helper()
		err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
			c, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			ok, err := chromedp.Run(c, chromedp.Evaluate[bool](`(() => { const d = document.querySelector('p.done');
				return !!d && d.innerText.includes('`+word+`'); })()`))
			return err == nil && ok, nil // a look during navigation fails; look again
		})
		if err != nil {
			t.Fatalf("the rollouts page never said %q: %v", word, err)
		}
	}
	browserDo(t, ctx, 30*time.Second, chromedp.Click(chromedp.CSS(pause)))
	doneSays("paused")
	if ro, err := mco.RolloutV1alpha1().Rollouts(ns).Get(context.Background(), "web-deployment", metav1.GetOptions{}); err != nil || !ro.Spec.Paused {
		t.Fatalf("after Pause: %v, paused=%v", err, ro != nil && ro.Spec.Paused)
	}
	resume := `section[data-rollout="` + ns + `/web-deployment"] form[action$="/resume"] button`
	browserDo(t, ctx, 30*time.Second, chromedp.WaitVisible(chromedp.CSS(resume)), chromedp.Click(chromedp.CSS(resume)))
	doneSays("resumed")
	if ro, err := mco.RolloutV1alpha1().Rollouts(ns).Get(context.Background(), "web-deployment", metav1.GetOptions{}); err != nil ||
		ro.Spec.Paused || ro.Spec.Release == nil {
		t.Errorf("after Resume: %v, spec %+v", err, ro.Spec)
	}

	browserDo(t, ctx, 30*time.Second, chromedp.Navigate(viewerURL), chromedp.Navigate(vbase+"/workloads"),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-workload]`)))
	if rows := browserEval[[]string](t, ctx, `[...document.querySelectorAll('tr[data-workload]')].map(r => r.dataset.workload)`); len(rows) != 1 || rows[0] != ns+"/web" {
		t.Errorf("the viewer's workloads in the browser: %v", rows)
	}
	browserDo(t, ctx, 30*time.Second, chromedp.Navigate(vbase+"/rollouts"), chromedp.WaitVisible(chromedp.CSS(`section[data-rollout]`)))
	if n := browserEval[int](t, ctx, `document.querySelectorAll('section[data-rollout] button').length`); n != 0 {
		t.Errorf("the viewer has %d rollout buttons", n)
	}
}

// viewerKubeconfig writes a kubeconfig of a ServiceAccount bound to the
// view ClusterRole in one namespace.
func viewerKubeconfig(t *testing.T, ns string) string {
	t.Helper()
	kubectl(t, `apiVersion: v1
kind: ServiceAccount
metadata: {name: viewer, namespace: `+ns+`}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: viewer, namespace: `+ns+`}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: ServiceAccount, name: viewer, namespace: `+ns+`}]
`, "apply", "-f", "-")
	token := strings.TrimSpace(kubectl(t, "", "create", "token", "viewer", "-n", ns))
	cfg, err := localcluster.RESTConfig(framework.Env.MCO.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	ca := cfg.CAData
	if len(ca) == 0 && cfg.CAFile != "" {
		if ca, err = os.ReadFile(cfg.CAFile); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "viewer.kubeconfig")
	if err := kubeconfig.WriteToken(path, "viewer", cfg.Host, ca, token); err != nil {
		t.Fatal(err)
	}
	return path
}
