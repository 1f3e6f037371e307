#!/usr/bin/env bash
# gofmt, go vet and generated-code freshness.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh

echo ">> gofmt"
unformatted=$(gofmt -l $(git ls-files -co --exclude-standard '*.go' | grep -v '^_output/') 2>/dev/null || true)
if [ -n "${unformatted}" ]; then
  echo "gofmt would change:"; echo "${unformatted}"; exit 1
fi

echo ">> go vet"
go vet ./...

echo ">> tool versions"
hack/verify-tool-versions.sh

echo ">> codegen"
hack/verify-codegen.sh
echo "verify: ok"
