#!/usr/bin/env bash
# The project's test command (`make test`, run by CI): builds what the tests
# run (hack/test-deps.sh), then runs every Go test in the module.
set -o errexit -o nounset -o pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh
hack/test-deps.sh

# Every go test writes JSON (kept in _output/test-results/ for a second
# look); mco-testreport prints from it what go test prints, a line per
# suite test as it ends, and at the end each package's time and the ten
# slowest tests.
report="${ROOT}/_output/bin/mco-testreport"
results="${ROOT}/_output/test-results"
rm -rf "${results}" && mkdir -p "${results}"
# Tests name here each check they skip for want of something beside the
# repository (Karmada's examples); go test prints skips only with -v.
skipped=$(mktemp)
export MCO_SKIPPED_LOG="${skipped}"
trap 'rm -f "${skipped}"' EXIT
set +o errexit
# Unit tests first, two packages at a time. The suites under test/ each
# bring up a whole environment (etcd, kube-apiservers, mco's components);
# two of them at once on a 2-core machine starve each other's timing, so
# they run one after another. Within the e2e suite, tests that touch only
# their own objects run three at a time (test/e2e/framework). The upgrade
# suite needs two more Kubernetes versions built and is make test-upgrade.
go test -json -count=1 -timeout 30m $(go list ./... | grep -v '/test/') 2>&1 | tee "${results}/unit.json" | "${report}"
status=${PIPESTATUS[0]}
go test -json -count=1 -timeout 30m -p 1 $(go list ./test/... | grep -v '/test/upgrade$') 2>&1 | tee "${results}/suites.json" | "${report}" -tests
suites=${PIPESTATUS[0]}
[ "${status}" -ne 0 ] || status=${suites}
set -o errexit
if [ -s "${skipped}" ]; then
  echo "Checks skipped:"
  sort "${skipped}" | sed 's/^/  /'
fi
"${report}" -summary "${results}/unit.json" "${results}/suites.json"
exit "${status}"
