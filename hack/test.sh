#!/usr/bin/env bash
# The project's test command (`make test`, run by CI): builds what the tests
# run (mco binaries, the real kubectl), then runs every Go test in the module.
set -o errexit -o nounset -o pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# The binaries are static (hack/build.sh); the tests build the same way, so
# both share one build cache.
# shellcheck source=hack/build-env.sh
source hack/build-env.sh

hack/build.sh "${ROOT}/_output/bin"
# The HA suite runs its load balancer from the local-up command.
go build -o "${ROOT}/_output/bin/mco-localup" ./hack/localup
hack/build-member-binaries.sh
# Helm checks the chart (lint, template, install into a member).
hack/build-tools.sh helm
# A real Prometheus scrapes mco-scheduler in the metrics test.
hack/install-prometheus.sh >/dev/null
# Headless Chromium drives the dashboard in the browser tests.
hack/install-chromium.sh >/dev/null
# The older client (Debian's kubectl 1.20) is tested when it can be fetched.
hack/install-debian-kubectl.sh >/dev/null || echo "warning: Debian kubectl 1.20 not available; its test is skipped" >&2

log=$(mktemp)
# Tests name here each check they skip for want of something beside the
# repository (Karmada's examples); go test prints skips only with -v.
skipped=$(mktemp)
export MCO_SKIPPED_LOG="${skipped}"
trap 'rm -f "${log}" "${skipped}"' EXIT
set +o errexit
# Unit tests first, two packages at a time. The suites under test/ each
# bring up a whole environment (etcd, kube-apiservers, mco's components);
# two of them at once on a 2-core machine starve each other's timing, so
# they run one after another.
go test -count=1 -timeout 30m $(go list ./... | grep -v '/test/') 2>&1 | tee "${log}" | grep -v 'no test files'
status=${PIPESTATUS[0]}
go test -count=1 -timeout 30m -p 1 ./test/... 2>&1 | tee -a "${log}" | grep -v 'no test files'
suites=${PIPESTATUS[0]}
[ "${status}" -ne 0 ] || status=${suites}
set -o errexit
if [ -s "${skipped}" ]; then
  echo "Checks skipped:"
  sort "${skipped}" | sed 's/^/  /'
fi
# A plain summary line, counted per package.
passed=$(grep -c '^ok' "${log}" || true)
failed=$(grep -c '^FAIL\s' "${log}" || true)
echo "${passed} passed, ${failed} failed"
exit "${status}"
