#!/usr/bin/env bash
# Builds the tools that tests and scripts run (today: kubectl) from the Go
# modules pinned in hack/tools/go.mod, once per version, into a cache outside
# the repository, and links them into _output/bin/.
#
#   hack/build-tools.sh [tool ...]      (default: every tool)
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KUBE_VERSION=${KUBE_VERSION:-v1.37.2}
CACHE=${MCO_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME}/.cache}/mco}/tools/${KUBE_VERSION}
BIN=${ROOT}/_output/bin
mkdir -p "${CACHE}" "${BIN}"

major=${KUBE_VERSION#v}; major=${major%%.*}
minor=${KUBE_VERSION#v*.}; minor=${minor%%.*}
ldflags="-s -w"
for pkg in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
  ldflags+=" -X ${pkg}.gitVersion=${KUBE_VERSION} -X ${pkg}.gitMajor=${major} -X ${pkg}.gitMinor=${minor}"
  ldflags+=" -X ${pkg}.gitTreeState=clean -X ${pkg}.buildDate=1970-01-01T00:00:00Z"
done

build() {
  local name=$1 pkg=$2
  if [ ! -x "${CACHE}/${name}" ]; then
    echo ">> building ${name} ${KUBE_VERSION} into ${CACHE}"
    (cd "${ROOT}/hack/tools" && go build -trimpath -ldflags "${ldflags}" -o "${CACHE}/${name}.tmp" "${pkg}")
    mv "${CACHE}/${name}.tmp" "${CACHE}/${name}"
  fi
  ln -sf "${CACHE}/${name}" "${BIN}/${name}"
}

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(kubectl)
for t in "${tools[@]}"; do
  case "$t" in
    kubectl) build kubectl ./cmd/kubectl ;;
    *) echo "unknown tool: $t" >&2; exit 1 ;;
  esac
done
