//go:build tools

// metrics-server, which each member of local-up and the e2e suite runs as
// its metrics.k8s.io API, is built from this module by hack/build-tools.sh;
// it has its own go.mod so that its requirements do not move the versions
// the member binaries in ../ are built with.
package tools

import _ "sigs.k8s.io/metrics-server/cmd/metrics-server"
