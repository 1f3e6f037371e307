package tcplb

import (
	"bufio"
	"fmt"
	"net"
	"testing"
)

// echoServer answers each line with its name and the line.
func echoServer(t *testing.T, name string) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				line, err := r.ReadString('\n')
				if err == nil {
					fmt.Fprintf(c, "%s:%s", name, line)
				}
			}()
		}
	}()
	return l
}

func ask(t *testing.T, addr string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, "hi\n")
	line, _ := bufio.NewReader(c).ReadString('\n')
	return line
}

// TestRoundRobinAndFailover: connections alternate between backends, and
// skip a backend that is gone.
func TestRoundRobinAndFailover(t *testing.T) {
	a, b := echoServer(t, "a"), echoServer(t, "b")
	defer b.Close()
	lb, err := Start("127.0.0.1:0", []string{a.Addr().String(), b.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	defer lb.Close()
	seen := map[string]int{}
	for i := 0; i < 4; i++ {
		seen[ask(t, lb.Addr())]++
	}
	if seen["a:hi\n"] != 2 || seen["b:hi\n"] != 2 {
		t.Errorf("answers %v, want two from each backend", seen)
	}
	a.Close()
	for i := 0; i < 4; i++ {
		if got := ask(t, lb.Addr()); got != "b:hi\n" {
			t.Errorf("with a gone, answer %q, want b's", got)
		}
	}
}

// TestNoBackends is refused.
func TestNoBackends(t *testing.T) {
	if _, err := Start("127.0.0.1:0", nil); err == nil {
		t.Error("started without backends")
	}
}
