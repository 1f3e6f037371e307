package dashboard

import (
	"net/http/httptest"
	"testing"
)

// BenchmarkRender renders each page, whole, for a federation of 100
// clusters and 2,000 workloads: what one page load costs on the server.
// go test -bench Render ./pkg/dashboard/ (ns/op is the render time).
func BenchmarkRender(b *testing.B) {
	src := &staticSource{snap: bigSnapshot(100, 2000), ch: make(chan struct{})}
	h, err := NewHandler(src, Options{User: "admin", Server: "https://127.0.0.1:5443"})
	if err != nil {
		b.Fatal(err)
	}
	for _, target := range []string{"/clusters", "/workloads", "/workloads?page=20", "/workloads?cluster=member042&namespace=team-02"} {
		b.Run(target, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
				if w.Code != 200 {
					b.Fatalf("%s: %d", target, w.Code)
				}
			}
		})
	}
}
