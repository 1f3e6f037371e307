#!/usr/bin/env bash
# The project's test command (`make test`, run by CI): every Go test in the
# module. Tests that need binaries (kubectl, member clusters) get them from
# hack/ scripts called here.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"

go test -count=1 -timeout 30m ./... 2>&1 | tee "${TMPDIR:-/tmp}/mco-test.log" | grep -v 'no test files' || true
# The summary line is read by CI: count packages that passed and failed.
passed=$(grep -c '^ok' "${TMPDIR:-/tmp}/mco-test.log" || true)
failed=$(grep -c '^FAIL\s' "${TMPDIR:-/tmp}/mco-test.log" || true)
echo "${passed} passed, ${failed} failed"
[ "${failed}" -eq 0 ] && ! grep -q '^FAIL' "${TMPDIR:-/tmp}/mco-test.log"
