#!/usr/bin/env bash
# Unpacks Debian's kubernetes-client (kubectl 1.20) into _output/debian-kubectl
# without installing it system-wide: the older client mco keeps working with.
# Prints the path of the kubectl binary.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST=${ROOT}/_output/debian-kubectl
BIN=${DEST}/usr/bin/kubectl
if [ ! -x "${BIN}" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "${tmp}"' EXIT
  (cd "${tmp}" && apt-get download kubernetes-client >/dev/null 2>&1) || {
    apt-get update >/dev/null 2>&1
    (cd "${tmp}" && apt-get download kubernetes-client >/dev/null)
  }
  mkdir -p "${DEST}"
  dpkg-deb -x "${tmp}"/kubernetes-client_*.deb "${DEST}"
fi
echo "${BIN}"
