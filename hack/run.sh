#!/usr/bin/env bash
# Runs mco-apiserver in the foreground on an embedded etcd under
# _output/run, and prints how to point kubectl at it.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${MCO_DATA_DIR:-${ROOT}/_output/run}
PORT=${MCO_PORT:-6443}
mkdir -p "${DATA}"
cat <<MSG
mco-apiserver: data in ${DATA}, serving on https://127.0.0.1:${PORT}
In another terminal:
  export KUBECONFIG=${DATA}/admin.kubeconfig
  ${ROOT}/_output/bin/kubectl get namespaces
  ${ROOT}/_output/bin/kubectl apply -f ${ROOT}/artifacts/examples/
Stop with Ctrl-C; the data stays for the next run.
MSG
exec "${ROOT}/_output/bin/mco-apiserver" --data-dir "${DATA}" --secure-port "${PORT}" "$@"
