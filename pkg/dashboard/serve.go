package dashboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Serve serves the pages on 127.0.0.1:port (0: a free port) until ctx
// ends. It prints the URL, with the session token, to out; ready, when not
// nil, gets the URL once the server listens.
func Serve(ctx context.Context, src Source, opts Options, port int, out io.Writer, ready func(url string)) error {
	token, err := newToken()
	if err != nil {
		return err
	}
	pages, err := NewHandler(src, opts)
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("listen on 127.0.0.1:%d: %w", port, err)
	}
	addr := l.Addr().String()
	srv := &http.Server{Handler: newGuard(token, addr, pages), ReadHeaderTimeout: 10 * time.Second}
	url := "http://" + addr + "/?" + tokenParam + "=" + token
	fmt.Fprintf(out, "Dashboard at %s\n(the link holds your session; it acts with your credentials, so keep it to yourself. Ctrl-C stops it.)\n", url)
	if ready != nil {
		ready(url)
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve the dashboard: %w", err)
	}
	return nil
}
