#!/usr/bin/env bash
# Measures the rollout controller's cost in a control plane holding many
# staged templates: three bare members, 1000 ConfigMaps governed by one
# RolloutPolicy, a window at rest and a window while one ConfigMap rolls
# out; prints each process's CPU, the controller's queue adds and mco's
# writes and, as its last line, one JSON object. Every process it starts is
# stopped at the end, also on failure or interrupt. Flags go to the
# program, e.g.
#
#   hack/bench-rollout.sh -configmaps 200 -active 40s
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh

hack/build.sh "${ROOT}/_output/bin" >/dev/null
hack/build-member-binaries.sh >/dev/null
go build -o "${ROOT}/_output/bin/mco-benchmcs" ./hack/benchmcs
exec "${ROOT}/_output/bin/mco-benchmcs" --bin-dir "${ROOT}/_output/bin" "$@"
