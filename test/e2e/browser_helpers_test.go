package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mco-org/mco/test/e2e/framework"
)

// repoRoot is the repository, two levels above _output/bin.
func repoRoot() string { return filepath.Dir(filepath.Dir(framework.BinDir)) }

// newBrowser starts headless Chromium (installed by hack/install-chromium.sh,
// which it runs) and returns a tab's context. Chromium runs as root here,
// so without its sandbox; background networking is off, as this machine's
// network is closed. On failure, a screenshot of the tab is saved under
// _output/e2e-screenshots.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	out, err := exec.Command(filepath.Join(repoRoot(), "hack", "install-chromium.sh")).Output()
	if err != nil {
		t.Fatalf("hack/install-chromium.sh: %v", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(strings.TrimSpace(string(out))),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1400, 900),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(alloc)
	if err := chromedp.Do(ctx); err != nil {
		cancelTab()
		cancelAlloc()
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			saveScreenshot(t, ctx, filepath.Join(repoRoot(), "_output", "e2e-screenshots", t.Name()+".png"))
		}
		cancelTab()
		cancelAlloc()
	})
	return ctx
}

// saveScreenshot writes a full-page PNG of the tab.
func saveScreenshot(t *testing.T, ctx context.Context, path string) {
	shot, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(shot, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil && os.WriteFile(path, png, 0o644) == nil {
		t.Logf("screenshot of the page: %s", path)
	}
}

// browserDo runs browser steps with a timeout.
func browserDo(t *testing.T, ctx context.Context, timeout time.Duration, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := chromedp.Do(c, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// browserEval evaluates a JavaScript expression in the page.
func browserEval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("browser: evaluate %s: %v", expr, err)
	}
	return v
}
