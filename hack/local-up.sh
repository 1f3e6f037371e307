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
# MEMBER_VERSIONS=member2=v1.34.4 (comma-separated) runs those members on
# another Kubernetes version, built once from its own modules
# (hack/tools/kube/<minor>/go.mod); the others stay on mco's own.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# shellcheck source=hack/build-env.sh
source hack/build-env.sh
DIR=${MCO_LOCAL_UP_DIR:-${ROOT}/_output/local-up}
PULL_MEMBERS=${PULL_MEMBERS:-}
MEMBER_VERSIONS=${MEMBER_VERSIONS:-}
verb=${1:-up}

# member_versions builds the binaries of each other Kubernetes version that
# MEMBER_VERSIONS names (e.g. member2=v1.34.4), once, from its own modules.
member_versions() {
  local pair
  for pair in ${MEMBER_VERSIONS//,/ }; do
    KUBE_VERSION=${pair#*=} hack/build-tools.sh kube-apiserver kube-controller-manager kube-scheduler
  done
}

localup() {
  go build -o "${ROOT}/_output/bin/mco-localup" ./hack/localup
  "${ROOT}/_output/bin/mco-localup" --dir "${DIR}" --bin-dir "${ROOT}/_output/bin" "$@"
}

case "${verb}" in
  up)
    hack/build.sh "${ROOT}/_output/bin"
    hack/build-member-binaries.sh
    member_versions
    localup --pull "${PULL_MEMBERS}" --versions "${MEMBER_VERSIONS}" up
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
