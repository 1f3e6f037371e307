#!/usr/bin/env bash
# Measures mco at the size of a real federation: ten bare members (a
# kube-apiserver each on one shared etcd), 10,000 Deployments divided over
# three of them by a spread constraint and 1,000 ConfigMaps duplicated to all
# ten, then the deletion of their namespace; prints times, peak memory,
# writes and CPU per object and, as its last line, one JSON object. Every
# process it starts is stopped at the end, also on failure or interrupt.
# Flags go to the program, e.g.
#
#   hack/bench-scale.sh -deployments 1000 -configmaps 100
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh

hack/build.sh "${ROOT}/_output/bin" >/dev/null
hack/build-member-binaries.sh >/dev/null
go build -o "${ROOT}/_output/bin/mco-benchscale" ./hack/benchscale
exec "${ROOT}/_output/bin/mco-benchscale" --bin-dir "${ROOT}/_output/bin" "$@"
