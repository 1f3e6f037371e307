#!/usr/bin/env bash
# Measures mco's propagation path: mco plus three bare member clusters (a
# kube-apiserver each), 1000 Deployments divided over them; prints latency,
# throughput, writes per Deployment and memory against their targets, and as
# its last line one JSON object. Every process it starts is stopped at the
# end, also on failure or interrupt. Flags go to the program, e.g.
#
#   hack/bench-propagation.sh -deployments 100 -steady-count 50
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh

hack/build.sh "${ROOT}/_output/bin" >/dev/null
hack/build-member-binaries.sh >/dev/null
go build -o "${ROOT}/_output/bin/mco-benchpropagation" ./hack/benchpropagation
exec "${ROOT}/_output/bin/mco-benchpropagation" --bin-dir "${ROOT}/_output/bin" "$@"
