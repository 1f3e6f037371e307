// Package e2e holds end-to-end user stories run against mco and real
// member clusters (kube-apiserver, kube-controller-manager, kube-scheduler
// and kwok fake nodes), one file per story.
package e2e

import (
	"os"
	"testing"

	"github.com/mco-org/mco/test/e2e/framework"
)

func TestMain(m *testing.M) {
	os.Exit(framework.Run(m))
}
