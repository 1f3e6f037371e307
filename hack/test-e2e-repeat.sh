#!/usr/bin/env bash
# The flake census: runs the e2e package N times, each on a fresh
# environment, and prints each test's failures over the runs.
#
#   hack/test-e2e-repeat.sh N [go test flags...]
set -o errexit -o nounset -o pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh
n=${1:-5}
shift || true
[[ "${n}" =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 N [go test flags...]" >&2; exit 2; }

hack/test-deps.sh
report="${ROOT}/_output/bin/mco-testreport"
results="${ROOT}/_output/test-results/e2e-repeat"
rm -rf "${results}" && mkdir -p "${results}"
# The test binary is built once; each run is its own process with its
# own environment.
go test -c -o "${results}/e2e.test" ./test/e2e/
runs=()
for i in $(seq 1 "${n}"); do
  echo ">> e2e run ${i} of ${n}"
  start=$(date +%s)
  set +o errexit
  (cd test/e2e && go tool test2json -t -p github.com/mco-org/mco/test/e2e "${results}/e2e.test" -test.v=test2json -test.count=1 -test.timeout=30m "$@") \
    > "${results}/run-${i}.json" 2>&1
  rc=$?
  set -o errexit
  echo ">> run ${i}: exit ${rc} in $(( $(date +%s) - start ))s"
  "${report}" -summary -slowest 5 "${results}/run-${i}.json" | tail -n 7
  runs+=("${results}/run-${i}.json")
done
echo ">> flake census over ${n} runs (JSON in ${results})"
"${report}" -census "${runs[@]}"
