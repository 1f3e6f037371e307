#!/usr/bin/env bash
# Builds the binaries of a member cluster (see hack/build-tools.sh).
set -o errexit -o nounset -o pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/build-tools.sh" etcd kube-apiserver kube-controller-manager kube-scheduler kwok kubectl metrics-server
