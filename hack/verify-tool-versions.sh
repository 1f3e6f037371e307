#!/usr/bin/env bash
# Fails when a module that both mco (go.mod) and the member binaries
# (hack/tools/go.mod) build from is at different versions in the two: the
# build cache then compiles it, and everything above it, twice, which a
# cold `make local-up` pays for in minutes. To fix, raise the lower one:
#   (cd hack/tools && go get MODULE@VERSION)   or   go get MODULE@VERSION
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The modules a go.mod requires (since Go 1.17 every module that provides a
# package to its builds), at the versions its builds use (replacements
# applied).
list() {
  (cd "$1" &&
    join <(go mod edit -print | awk '/^require \($/ { r = 1; next } r && /^\)/ { r = 0 } r { print $1 } /^require [^(]/ { print $2 }' | sort -u) \
      <(go list -m -f '{{.Path}} {{with .Replace}}{{.Version}}{{else}}{{.Version}}{{end}}' all | sort))
}
mco=$(list "${ROOT}")
tools=$(list "${ROOT}/hack/tools")
differ=$(join <(sort <<<"${mco}") <(sort <<<"${tools}") | awk '$2 != $3 { printf "  %s: mco %s, hack/tools %s\n", $1, $2, $3 }')
if [ -n "${differ}" ]; then
  echo "modules at different versions in go.mod and hack/tools/go.mod:"
  echo "${differ}"
  exit 1
fi
