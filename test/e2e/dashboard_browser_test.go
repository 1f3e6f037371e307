package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mco-org/mco/test/e2e/framework"
)

// dashboardInBrowser (TestMember2Outage) drives kubectl mco dashboard in
// headless Chromium: the clusters page lists three Ready members; with
// artifacts/examples/ applied, the workloads page shows nginx's replicas on
// member1 and member3, and nginx's page member2's exclusion reason; member2
// stopping turns it NotReady on the open page, without a reload.
// Screenshots of the pages go to _output/dashboard-screenshots (and, with
// MCO_E2E_UPDATE_SCREENSHOTS=1, to docs/images for the README).
func dashboardInBrowser(t *testing.T) (during, after func(t *testing.T)) {
	ns := namespace(t, "e2e-dashboard-browser")
	kubectl(t, "", "-n", ns, "apply", "-f", "../../artifacts/examples/nginx-deployment.yaml",
		"-f", "../../artifacts/examples/nginx-propagationpolicy.yaml", "-f", "../../artifacts/examples/nginx-overridepolicy.yaml")
	ctx := newBrowser(t)
	url := startDashboard(t, framework.Env.MCO.Kubeconfig)

	browserDo(t, ctx, 30*time.Second, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#cluster-member1`)))
	if path := browserEval[string](t, ctx, `location.pathname`); path != "/clusters" {
		t.Errorf("the printed URL led to %s, want /clusters", path)
	}
	if ready := browserEval[int](t, ctx, `document.querySelectorAll('tr[data-cluster][data-ready="Ready"]').length`); ready != 3 {
		t.Fatalf("%d Ready members on the clusters page, want 3", ready)
	}
	screenshot(t, ctx, "clusters")

	browserDo(t, ctx, 60*time.Second, chromedp.Navigate(strings.Replace(url, "/?token=", "/workloads?namespace="+ns+"&token=", 1)),
		chromedp.Poll[chromedp.Void](`(() => { const r = document.querySelector('tr[data-workload="`+ns+`/nginx"]');
			return r && r.querySelector('[data-cluster="member1"]') && r.querySelector('[data-cluster="member3"]'); })()`,
			chromedp.WithPollingTimeout(60*time.Second)))
	row := browserEval[string](t, ctx, `document.querySelector('tr[data-workload="`+ns+`/nginx"]').innerText`)
	if !strings.Contains(row, "member1") || !strings.Contains(row, "member3") || strings.Contains(row, "member2") {
		t.Errorf("nginx's row: %q", row)
	}
	screenshot(t, ctx, "workloads")

	// nginx's own page: its part in member1 and member3, and why not
	// member2 (the scheduler's filter, as kubectl mco preview says it).
	browserDo(t, ctx, 30*time.Second, chromedp.Click(chromedp.CSS(`tr[data-workload="`+ns+`/nginx"] a`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-part="member2"]`)))
	for _, m := range []string{"member1", "member3"} {
		if placed := browserEval[string](t, ctx, `document.querySelector('tr[data-part="`+m+`"]').dataset.placed`); placed != "true" {
			t.Errorf("%s: placed %q on nginx's page", m, placed)
		}
	}
	reason := browserEval[string](t, ctx, `document.querySelector('tr[data-part="member2"] .reason').innerText`)
	if !strings.Contains(reason, "ClusterAffinity") {
		t.Errorf("member2's exclusion reason: %q", reason)
	}
	screenshot(t, ctx, "workload")

	// The policies page: nginx-propagation placed nginx, nginx-override
	// names it.
	browserDo(t, ctx, 30*time.Second, chromedp.Navigate(strings.Replace(url, "/?token=", "/policies?token=", 1)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-policy="PropagationPolicy/`+ns+`/nginx-propagation"]`)))
	for _, p := range []string{"PropagationPolicy/" + ns + "/nginx-propagation", "OverridePolicy/" + ns + "/nginx-override"} {
		if text := browserEval[string](t, ctx, `document.querySelector('tr[data-policy="`+p+`"]').innerText`); !strings.Contains(text, "nginx") {
			t.Errorf("%s on the policies page: %q", p, text)
		}
	}
	screenshot(t, ctx, "policies")

	// The open clusters page follows member2 going NotReady by itself.
	browserDo(t, ctx, 30*time.Second, chromedp.Navigate(strings.Replace(url, "/?token=", "/clusters?token=", 1)),
		chromedp.WaitVisible(chromedp.CSS(`#cluster-member2`)))
	browserEval[bool](t, ctx, `window.notReloaded = true`)
	during = func(t *testing.T) {
		paused := time.Now()
		browserDo(t, ctx, 90*time.Second, chromedp.Poll[chromedp.Void](
			`document.querySelector('#cluster-member2').dataset.ready === 'NotReady'`, chromedp.WithPollingTimeout(90*time.Second)))
		t.Logf("member2 NotReady on the open page %s after its pause", time.Since(paused).Round(time.Second))
		if !browserEval[bool](t, ctx, `window.notReloaded === true`) {
			t.Error("the page was reloaded")
		}
		if text := browserEval[string](t, ctx, `document.querySelector('#cluster-member2').innerText`); !strings.Contains(text, "NotReady") {
			t.Errorf("member2's row says %q, not NotReady in words", text)
		}
		screenshot(t, ctx, "clusters-member2-notready")
	}
	return during, nil
}

// screenshot saves a PNG of the page for the README.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(shot, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	dirs := []string{filepath.Join(repoRoot(), "_output", "dashboard-screenshots")}
	if os.Getenv("MCO_E2E_UPDATE_SCREENSHOTS") == "1" {
		dirs = append(dirs, filepath.Join(repoRoot(), "docs", "images"))
	}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err == nil {
			_ = os.WriteFile(filepath.Join(d, fmt.Sprintf("dashboard-%s.png", name)), png, 0o644)
		}
	}
}
