#!/usr/bin/env bash
# Unpacks Debian's protobuf-compiler (protoc) and the two libraries it links
# into a cache outside the repository, without installing them system-wide:
# hack/update-codegen.sh runs protoc for go-to-protobuf. Prints a wrapper's
# path that runs protoc with its libraries.
set -o errexit -o nounset -o pipefail

PACKAGES=(protobuf-compiler libprotoc32 libprotobuf32)
CACHE=${MCO_CACHE_DIR:-${HOME}/.cache/mco}/protoc
WRAPPER=${CACHE}/bin/protoc
if [ ! -x "${WRAPPER}" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "${tmp}"' EXIT
  (cd "${tmp}" && apt-get download "${PACKAGES[@]}" >/dev/null 2>&1) || {
    apt-get update >/dev/null 2>&1
    (cd "${tmp}" && apt-get download "${PACKAGES[@]}" >/dev/null)
  }
  root=${CACHE}/root
  rm -rf "${CACHE}" && mkdir -p "${root}" "${CACHE}/bin"
  for deb in "${tmp}"/*.deb; do dpkg-deb -x "${deb}" "${root}"; done
  cat > "${WRAPPER}.tmp" <<EOF
#!/bin/sh
LD_LIBRARY_PATH="${root}/usr/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\${LD_LIBRARY_PATH}}" exec "${root}/usr/bin/protoc" "\$@"
EOF
  chmod +x "${WRAPPER}.tmp"
  mv "${WRAPPER}.tmp" "${WRAPPER}"
fi
echo "${WRAPPER}"
