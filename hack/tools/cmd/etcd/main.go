// Command etcd is the etcd server, built from go.etcd.io/etcd/server at the
// version pinned in this module, shared by the member clusters of tests and
// local-up.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
