#!/usr/bin/env bash
# Brings up mco (mco-apiserver on embedded etcd) and three real member
# clusters joined to it, then returns. Also: pause|resume|stop|start MEMBER
# to simulate an outage of a member's kube-apiserver, down, status.
#
#   hack/local-up.sh [up]            build what is needed and start everything
#   hack/local-up.sh up-ha           the same with a highly available control plane
#   hack/local-up.sh up-aggregated   the same with mco-apiserver behind a host cluster's kube-apiserver
#   hack/local-up.sh down            stop every process started, by pid
#   hack/local-up.sh pause member2   SIGSTOP member2's kube-apiserver (resume: SIGCONT)
#
# PULL_MEMBERS=member3 (comma-separated) registers those members in Pull
# mode: a local mco-agent serves each, and mco never dials it.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh
DIR=${MCO_LOCAL_UP_DIR:-${ROOT}/_output/local-up}
PULL_MEMBERS=${PULL_MEMBERS:-}
verb=${1:-up}

localup() {
  go build -o "${ROOT}/_output/bin/mco-localup" ./hack/localup
  "${ROOT}/_output/bin/mco-localup" --dir "${DIR}" --bin-dir "${ROOT}/_output/bin" "$@"
}

case "${verb}" in
  up)
    hack/build.sh "${ROOT}/_output/bin"
    hack/build-member-binaries.sh
    localup --pull "${PULL_MEMBERS}" up
    ;;
  up-ha)
    hack/build.sh "${ROOT}/_output/bin"
    hack/build-member-binaries.sh
    localup --ha up
    ;;
  up-aggregated)
    hack/build.sh "${ROOT}/_output/bin"
    hack/build-member-binaries.sh
    localup --aggregated up
    ;;
  down|status|pause|resume|stop|start)
    shift || true
    localup "${verb}" "$@"
    ;;
  *)
    echo "usage: $0 [up|up-ha|up-aggregated|down|status|pause M|resume M|stop M|start M]" >&2
    exit 2
    ;;
esac
