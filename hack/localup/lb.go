package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/mco-org/mco/pkg/testing/tcplb"
)

// backends collects repeated --backend flags.
type backends []string

func (b *backends) String() string     { return strings.Join(*b, ",") }
func (b *backends) Set(v string) error { *b = append(*b, v); return nil }

// runLB serves the load balancer of a highly available local-up until
// ctx ends.
func runLB(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("lb", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on")
	var to backends
	fs.Var(&to, "backend", "host:port of an apiserver replica (repeat for each)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	lb, err := tcplb.Start(*listen, to)
	if err != nil {
		return err
	}
	fmt.Printf("forwarding %s to %s\n", lb.Addr(), to.String())
	<-ctx.Done()
	return lb.Close()
}
