#!/usr/bin/env bash
# Measures what add-ons cost the control plane: 10 add-ons of about 30
# objects each on 20 bare members, two value sets per add-on, from a chart
# repository on loopback; prints the time until every add-on is Healthy
# everywhere, the renders done against the distinct inputs, the
# controller-manager's CPU and mco's writes per (add-on, cluster) and peak
# RSS and, as its last line, one JSON object. Every process it starts is
# stopped at the end, also on failure or interrupt. Flags go to the
# program, e.g.
#
#   hack/bench-addons.sh -addons 4 -members 6
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh

hack/build.sh "${ROOT}/_output/bin" >/dev/null
hack/build-member-binaries.sh >/dev/null
go build -o "${ROOT}/_output/bin/mco-benchaddons" ./hack/benchaddons
exec "${ROOT}/_output/bin/mco-benchaddons" --bin-dir "${ROOT}/_output/bin" "$@"
