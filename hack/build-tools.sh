#!/usr/bin/env bash
# Builds the programs that tests and scripts run — kubectl and the member
# cluster binaries (etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, kwok) — from the Go modules pinned in hack/tools/go.mod —
# helm (hack/tools/helm/go.mod, apart so that Helm's requirements do not
# move the member binaries') and metrics-server (hack/tools/metrics-server,
# apart for the same reason: each member runs one), once per version, into a cache outside the
# repository, and links them into _output/bin/. A no-op when the cache
# already has them.
#
#   hack/build-tools.sh [tool ...]      (default: every tool)
#
# KUBE_VERSION=v1.34.4 hack/build-tools.sh kube-apiserver kube-controller-manager kube-scheduler
# builds a member of another Kubernetes version (MEMBER_VERSIONS of make
# local-up) from that version's own modules, hack/tools/kube/v<major>.<minor>/go.mod,
# which must pin exactly that k8s.io/kubernetes version, into its own cache
# folder, linked into _output/bin/kube-<version>/. Only those three tools
# have other versions: etcd, kwok and kubectl are shared.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OWN_KUBE_VERSION=v1.37.2
KUBE_VERSION=${KUBE_VERSION:-${OWN_KUBE_VERSION}}
CACHE_ROOT=${MCO_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME}/.cache}/mco}/bin
CACHE=${CACHE_ROOT}/${KUBE_VERSION}
BIN=${ROOT}/_output/bin
MODULE=${ROOT}/hack/tools
# shellcheck source=hack/build-env.sh
source "${ROOT}/hack/build-env.sh"
if [ "${KUBE_VERSION}" != "${OWN_KUBE_VERSION}" ]; then
  MODULE=${ROOT}/hack/tools/kube/${KUBE_VERSION%.*}
  BIN=${ROOT}/_output/bin/kube-${KUBE_VERSION}
  [ -f "${MODULE}/go.mod" ] || { echo "no module for Kubernetes ${KUBE_VERSION}: add ${MODULE#"${ROOT}"/}/go.mod pinning k8s.io/kubernetes ${KUBE_VERSION}" >&2; exit 1; }
  pinned=$(cd "${MODULE}" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
  [ "${pinned}" = "${KUBE_VERSION}" ] || { echo "${MODULE#"${ROOT}"/}/go.mod pins k8s.io/kubernetes ${pinned}, not ${KUBE_VERSION}" >&2; exit 1; }
  for t in "$@"; do
    case "$t" in
      kube-apiserver|kube-controller-manager|kube-scheduler) ;;
      *) echo "only kube-apiserver, kube-controller-manager and kube-scheduler have other versions, not $t" >&2; exit 1 ;;
    esac
  done
  [ $# -gt 0 ] || set -- kube-apiserver kube-controller-manager kube-scheduler
fi
mkdir -p "${CACHE}" "${BIN}"

declare -A PKGS=(
  [kubectl]=./cmd/kubectl
  [etcd]=./cmd/etcd
  [kube-apiserver]=k8s.io/kubernetes/cmd/kube-apiserver
  [kube-controller-manager]=k8s.io/kubernetes/cmd/kube-controller-manager
  [kube-scheduler]=k8s.io/kubernetes/cmd/kube-scheduler
  [kwok]=sigs.k8s.io/kwok/cmd/kwok
  [helm]=helm.sh/helm/v4/cmd/helm
  [metrics-server]=sigs.k8s.io/metrics-server/cmd/metrics-server
)
ALL=(kubectl etcd kube-apiserver kube-controller-manager kube-scheduler kwok helm metrics-server)

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=("${ALL[@]}")

# helm lives in its own module and cache directory, keyed by its version.
HELM_VERSION=$(cd "${ROOT}/hack/tools/helm" && go list -m -f '{{.Version}}' helm.sh/helm/v4)
HELM_CACHE=${CACHE_ROOT}/helm-${HELM_VERSION}
if [[ " ${tools[*]} " == *" helm "* ]]; then
  if [ ! -x "${HELM_CACHE}/helm" ]; then
    echo ">> building helm ${HELM_VERSION} into ${HELM_CACHE}"
    mkdir -p "${HELM_CACHE}"
    (cd "${ROOT}/hack/tools/helm" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=${HELM_VERSION}" \
      -o "${HELM_CACHE}/helm.tmp" helm.sh/helm/v4/cmd/helm)
    mv "${HELM_CACHE}/helm.tmp" "${HELM_CACHE}/helm"
  fi
  ln -sf "${HELM_CACHE}/helm" "${BIN}/helm"
fi

# metrics-server, likewise in its own module and cache directory.
MS_VERSION=$(cd "${ROOT}/hack/tools/metrics-server" && go list -m -f '{{.Version}}' sigs.k8s.io/metrics-server)
MS_CACHE=${CACHE_ROOT}/metrics-server-${MS_VERSION}
if [[ " ${tools[*]} " == *" metrics-server "* ]]; then
  if [ ! -x "${MS_CACHE}/metrics-server" ]; then
    echo ">> building metrics-server ${MS_VERSION} into ${MS_CACHE}"
    mkdir -p "${MS_CACHE}"
    (cd "${ROOT}/hack/tools/metrics-server" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" \
      -o "${MS_CACHE}/metrics-server.tmp" sigs.k8s.io/metrics-server/cmd/metrics-server)
    mv "${MS_CACHE}/metrics-server.tmp" "${MS_CACHE}/metrics-server"
  fi
  ln -sf "${MS_CACHE}/metrics-server" "${BIN}/metrics-server"
fi

missing=()
for t in "${tools[@]}"; do
  [ -n "${PKGS[$t]:-}" ] || { echo "unknown tool: $t (known: ${ALL[*]})" >&2; exit 1; }
  [ "$t" != helm ] && [ "$t" != metrics-server ] || continue
  [ -x "${CACHE}/${t}" ] || missing+=("$t")
done

if [ ${#missing[@]} -gt 0 ]; then
  major=${KUBE_VERSION#v}; major=${major%%.*}
  minor=${KUBE_VERSION#v*.}; minor=${minor%%.*}
  ldflags="-s -w"
  for pkg in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
    ldflags+=" -X ${pkg}.gitVersion=${KUBE_VERSION} -X ${pkg}.gitMajor=${major} -X ${pkg}.gitMinor=${minor}"
    ldflags+=" -X ${pkg}.gitTreeState=clean -X ${pkg}.buildDate=1970-01-01T00:00:00Z"
  done
  pkgs=()
  for t in "${missing[@]}"; do pkgs+=("${PKGS[$t]}"); done
  echo ">> building ${missing[*]} (${KUBE_VERSION}) into ${CACHE}; the first build takes several minutes"
  tmp=$(mktemp -d "${CACHE}/.build.XXXXXX")
  trap 'rm -rf "${tmp}"' EXIT
  # One go build for all, so that shared packages compile once; the same
  # flags and, for the modules both use, the same versions as mco's own
  # build (hack/verify-tool-versions.sh), so that the build cache serves both.
  (cd "${MODULE}" && go build -ldflags "${ldflags}" -o "${tmp}/" "${pkgs[@]}")
  for t in "${missing[@]}"; do mv "${tmp}/${t}" "${CACHE}/${t}"; done
fi

for t in "${tools[@]}"; do [ "$t" = helm ] || [ "$t" = metrics-server ] || ln -sf "${CACHE}/${t}" "${BIN}/${t}"; done

# kwok needs stage definitions (node initialisation and lease heartbeat, pod
# ready/complete/delete); the kwok module ships them. Gather them once per
# version of this recipe (bump STAGES_VERSION when it changes). mco's change:
# pods labelled mco-org.github.io/never-ready never turn Ready, so a test can
# make a workload unhealthy in one member (an OverridePolicy adds the label).
# With them go the module's emulation of the kubelet's resource metrics
# (/metrics/nodes/<node>/metrics/resource, which metrics-server scrapes) and
# its usage rule: every pod uses 1m of CPU and 1Mi of memory unless its
# annotations kwok.x-k8s.io/usage-cpu and kwok.x-k8s.io/usage-memory say
# otherwise, so a test sets a member's load by annotating its pods. And the
# node stages always write the node's addresses in full (InternalIP from
# kwok's --node-ip, Hostname its name): as shipped they write the list only
# when an entry is missing, and a node that went NotReady under load and was
# initialised again came back without addresses, which metrics-server needs.
STAGES_VERSION=4
if [[ " ${tools[*]} " == *" kwok "* ]]; then
  stages="${CACHE}/kwok-stages.v${STAGES_VERSION}.yaml"
  if [ ! -f "${stages}" ]; then
    kwokdir=$(cd "${ROOT}/hack/tools" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)
    for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
             pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml \
             ../metrics/resource/metrics-resource.yaml ../metrics/usage/usage-from-annotation.yaml; do
      echo "---"
      if [ "${f}" = pod/fast/pod-ready.yaml ]; then
        awk '{ print } /^    matchExpressions:$/ && !done { print "    - key: '"'"'.metadata.labels.\"mco-org.github.io/never-ready\"'"'"'"; print "      operator: '"'"'DoesNotExist'"'"'"; done = 1 }' \
          "${kwokdir}/kustomize/stage/${f}"
      elif [[ "${f}" == node/* ]]; then
        # From the first line about addresses to the kubelet endpoint: the
        # whole list, every time.
        awk '!skip && !done && (/^      \{\{ \$hasInternalIP := false \}\}$/ || /^      addresses:$/) {
               skip = 1; done = 1
               print "      addresses:"
               print "      - address: {{ NodeIP | Quote }}"
               print "        type: InternalIP"
               print "      - address: {{ .metadata.name | Quote }}"
               print "        type: Hostname"
               print ""
               next }
             skip && /^      \{\{ with NodePort \}\}$/ { skip = 0 }
             !skip { print }' "${kwokdir}/kustomize/stage/${f}"
      else
        cat "${kwokdir}/kustomize/stage/${f}"
      fi
    done > "${stages}.tmp"
    mv "${stages}.tmp" "${stages}"
  fi
  ln -sf "${stages}" "${BIN}/kwok-stages.yaml"
fi
