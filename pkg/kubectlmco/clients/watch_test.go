package clients

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// closedURL is an address nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	_ = l.Close()
	return url
}

// forbidden answers every request with a 403 Status as kube-apiserver does.
func forbidden(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,`+
		`"message":"namespaces \"kube-system\" is forbidden: User \"bob\" cannot get resource \"namespaces\" in API group \"\" in the namespace \"kube-system\""}`)
}

func TestWatchExplain(t *testing.T) {
	t.Parallel()
	deny := httptest.NewServer(http.HandlerFunc(forbidden))
	t.Cleanup(deny.Close)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	t.Cleanup(slow.Close)
	refused := closedURL(t)

	cases := []struct {
		name, url string
		timeout   time.Duration
		want      string
	}{{
		name: "A refused connection names the server and the cause", url: refused,
		want: "cannot reach member at " + refused + ": dial tcp " + strings.TrimPrefix(refused, "http://") + ": connect: connection refused",
	}, {
		name: "A server that does not answer in time gives the timeout", url: slow.URL, timeout: 200 * time.Millisecond,
		want: "cannot reach member at " + slow.URL + ": no answer within 200ms",
	}, {
		name: "A 403 says which permission the member denied", url: deny.URL,
		want: "member at " + deny.URL + ` denied a permission: namespaces "kube-system" is forbidden: User "bob" cannot get resource "namespaces" in API group "" in the namespace "kube-system" (a hint)`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg, w := Watched(&rest.Config{Host: tc.url, Timeout: tc.timeout}, "member")
			client := kubernetes.NewForConfigOrDie(cfg)
			ctx := context.Background()
			_, err := client.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
			got := w.Explain(ctx, fmt.Errorf("read kube-system of the member: %w", err), "a hint")
			if got == nil || got.Error() != tc.want {
				t.Fatalf("got %v\nwant %s", got, tc.want)
			}
			if !errors.Is(got, err) {
				t.Errorf("the explained error does not wrap the original")
			}
			if again := w.Explain(ctx, got, "another hint"); again != got {
				t.Errorf("explaining twice changed the error to %v", again)
			}
		})
	}
}

func TestWatchLeavesOtherErrorsAlone(t *testing.T) {
	t.Parallel()
	deny := httptest.NewServer(http.HandlerFunc(forbidden))
	t.Cleanup(deny.Close)
	// The member was fine; mco denied: the member's watch must not claim it.
	_, member := Watched(&rest.Config{Host: "http://unused"}, "member")
	mcoCfg, _ := Watched(&rest.Config{Host: deny.URL}, "mco")
	ctx := context.Background()
	_, err := kubernetes.NewForConfigOrDie(mcoCfg).CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
	if got := member.Explain(ctx, err, ""); got != err {
		t.Errorf("the member's watch rewrote mco's error: %v", got)
	}
	plain := errors.New("cluster m1 is being deleted")
	if got := member.Explain(ctx, plain, ""); got != plain {
		t.Errorf("a plain error was rewritten: %v", got)
	}
}
