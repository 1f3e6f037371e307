#!/usr/bin/env bash
# Measures what a ResourceInterpreterCustomization costs on the propagation
# path: mco plus three bare member clusters, 100 WebApps (the example kind
# of artifacts/examples/interpreter) propagated without and then with its
# customization; prints wall time and mco's CPU per WebApp for each. Every
# process it starts is stopped at the end. Flags go to the program, e.g.
#
#   hack/bench-interpreter.sh -count 300
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh

hack/build.sh "${ROOT}/_output/bin" >/dev/null
hack/build-member-binaries.sh >/dev/null
go build -o "${ROOT}/_output/bin/mco-benchinterpreter" ./hack/benchinterpreter
exec "${ROOT}/_output/bin/mco-benchinterpreter" --bin-dir "${ROOT}/_output/bin" "$@"
