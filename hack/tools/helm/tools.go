//go:build tools

// Helm, which the chart's checks run, is built from this module by
// hack/build-tools.sh; it has its own go.mod so that Helm's requirements do
// not move the versions the member binaries in ../ are built with.
package tools

import _ "helm.sh/helm/v4/cmd/helm"
