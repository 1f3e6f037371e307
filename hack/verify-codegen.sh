#!/usr/bin/env bash
# Fails when generated code is out of date: regenerates into a scratch copy of
# the tree and compares it with the working tree.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "${TMP}"' EXIT

# Copy the sources only (no build output, no git metadata).
tar -C "${ROOT}" --exclude=./_output --exclude=./.git -cf - . | tar -C "${TMP}" -xf -
"${TMP}/hack/update-codegen.sh" >/dev/null

status=0
for dir in pkg/apis pkg/generated; do
  if ! diff -ruN "${ROOT}/${dir}" "${TMP}/${dir}"; then status=1; fi
done
if [ "${status}" -ne 0 ]; then
  echo "generated code is out of date: run 'make update'" >&2
fi
exit "${status}"
