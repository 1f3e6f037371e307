#!/usr/bin/env bash
# Measures what CustomResourceDefinitions cost mco-apiserver: starts it on
# embedded etcd (loopback, a free port), records its RSS when ready, applies
# N CRDs (default 50; each with a schema, status and scale subresources and
# two versions), waits until every one is established and listed by
# discovery, and records the RSS again. Prints both figures and the time
# the CRDs took. The server it starts is stopped at the end, by PID.
#
#   hack/bench-crds.sh [N]
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=hack/build-env.sh
source "${ROOT}/hack/build-env.sh"
N=${1:-50}
BIN="${ROOT}/_output/bin"
go build -o "${BIN}/" "${ROOT}/cmd/mco-apiserver"
[[ -x "${BIN}/kubectl" ]] || "${ROOT}/hack/build-tools.sh" kubectl >/dev/null

DIR=$(mktemp -d)
PORT=$((20000 + RANDOM % 20000))
while (exec 3<>"/dev/tcp/127.0.0.1/${PORT}") 2>/dev/null; do PORT=$((20000 + RANDOM % 20000)); done
"${BIN}/mco-apiserver" --data-dir="${DIR}" --bind-address=127.0.0.1 --secure-port="${PORT}" >"${DIR}/apiserver.log" 2>&1 &
PID=$!
trap 'kill ${PID} 2>/dev/null; wait ${PID} 2>/dev/null; rm -rf "${DIR}"' EXIT
export KUBECONFIG="${DIR}/admin.kubeconfig"
kubectl() { "${BIN}/kubectl" "$@"; }
for _ in $(seq 120); do
  [[ -f "${KUBECONFIG}" ]] && kubectl get --raw /readyz >/dev/null 2>&1 && break
  sleep 0.5
done
rss() { awk '/^VmRSS/ {printf "%.1f", $2/1024}' "/proc/${PID}/status"; }
sleep 5
before=$(rss)

crds() {
  for i in $(seq -w 1 "${N}"); do
    cat <<YAML
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things${i}.bench.example.com}
spec:
  group: bench.example.com
  names: {kind: Thing${i}, plural: things${i}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}, scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, default: 1}
              image: {type: string, maxLength: 253}
              ports: {type: array, items: {type: object, properties: {name: {type: string}, port: {type: integer}}}}
          status: {type: object, properties: {replicas: {type: integer}, phase: {type: string}}}
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
YAML
  done
}
start=$(date +%s%N)
crds | kubectl apply -f - >/dev/null
kubectl wait --for=condition=Established crd --all --timeout=120s >/dev/null
until [[ $(kubectl api-resources --api-group=bench.example.com --no-headers 2>/dev/null | wc -l) -eq ${N} ]]; do sleep 0.2; done
took=$(awk -v a="${start}" -v b="$(date +%s%N)" 'BEGIN {printf "%.1f", (b - a) / 1e9}')
sleep 10
after=$(rss)
printf 'mco-apiserver RSS: %s MiB ready, %s MiB with %d CRDs (%d established and discovered in %ss)\n' "${before}" "${after}" "${N}" "${N}" "${took}"
