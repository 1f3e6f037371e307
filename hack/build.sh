#!/usr/bin/env bash
# Builds every binary under cmd/ into the given directory, statically linked
# (CGO_ENABLED=0, hack/build-env.sh) so that the images can run them on an
# empty base.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-${ROOT}/_output/bin}
VERSION=${2:-v0.0.0-dev}
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh
mkdir -p "${OUT}"

mains=$(go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' ./cmd/... 2>/dev/null || true)
if [ -z "${mains}" ]; then
  echo "no binaries under cmd/ yet"
  exit 0
fi
ldflags="-X github.com/mco-org/mco/pkg/version.gitVersion=${VERSION}"
# shellcheck disable=SC2086
go build -ldflags "${ldflags}" -o "${OUT}/" ${mains}
echo "built into ${OUT}: $(ls "${OUT}" | tr '\n' ' ')"
