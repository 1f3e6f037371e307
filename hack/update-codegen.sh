#!/usr/bin/env bash
# Regenerates protobuf encodings, deepcopy functions, OpenAPI definitions and typed clients
# (clientset, listers, informers, apply configurations) for mco's API groups.
# The generators are pinned as `tool` directives in go.mod.
set -o errexit -o nounset -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"

MODULE=github.com/mco-org/mco
APIS=pkg/apis
GEN=pkg/generated
HEADER=hack/boilerplate.go.txt
# Groups with a +genclient kind; <group>/<version> below pkg/apis.
GROUP_VERSIONS=(addons/v1alpha1 apps/v1alpha1 autoscaling/v1alpha1 cluster/v1alpha1 config/v1alpha1 networking/v1alpha1 policy/v1alpha1 remedy/v1alpha1 rollout/v1alpha1 work/v1alpha1 work/v1alpha2)
# k8s.io/api packages that mco-apiserver serves, and those their types
# refer to, so it needs OpenAPI for them.
BUILTIN_API_PKGS=(
  k8s.io/api/core/v1
  k8s.io/api/apps/v1
  k8s.io/api/autoscaling/v1
  k8s.io/api/batch/v1
  k8s.io/api/coordination/v1
  k8s.io/api/rbac/v1
  k8s.io/api/authorization/v1
  k8s.io/api/authentication/v1
  k8s.io/api/scheduling/v1alpha3
  k8s.io/api/autoscaling/v2
  k8s.io/api/policy/v1
  k8s.io/api/networking/v1
  k8s.io/api/storage/v1
  k8s.io/api/scheduling/v1
  k8s.io/api/node/v1
  k8s.io/api/admissionregistration/v1
  k8s.io/api/flowcontrol/v1
  k8s.io/api/events/v1
  k8s.io/api/discovery/v1
  k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1
  k8s.io/kube-aggregator/pkg/apis/apiregistration/v1
  k8s.io/metrics/pkg/apis/metrics/v1beta1
)
APIMACHINERY_PKGS=(
  k8s.io/apimachinery/pkg/apis/meta/v1
  k8s.io/apimachinery/pkg/runtime
  k8s.io/apimachinery/pkg/version
  k8s.io/apimachinery/pkg/api/resource
  k8s.io/apimachinery/pkg/util/intstr
)

api_pkgs=()
for gv in "${GROUP_VERSIONS[@]}"; do api_pkgs+=("${MODULE}/${APIS}/${gv}"); done

echo ">> protobuf"
# go-to-protobuf writes generated.proto beside each group's types, runs
# protoc (Debian's, hack/install-protoc.sh) with gogo's plugin into
# generated.pb.go, and adds protobuf tags to the types. It finds packages and
# the .proto files they import below one source tree, laid out by import
# path: a scratch tree of links to this module and the modules it imports.
# Field numbers, once in a tag, are kept: objects are stored with them.
PROTO_DEPS=(k8s.io/api k8s.io/apimachinery k8s.io/apiextensions-apiserver github.com/gogo/protobuf)
PROTO_REFERENCED=(
  k8s.io/apimachinery/pkg/util/intstr
  k8s.io/apimachinery/pkg/api/resource
  k8s.io/apimachinery/pkg/runtime/schema
  k8s.io/apimachinery/pkg/runtime
  k8s.io/apimachinery/pkg/apis/meta/v1
  k8s.io/api/core/v1
  k8s.io/api/admissionregistration/v1
  k8s.io/api/autoscaling/v2
  k8s.io/api/networking/v1
  k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1
)
protoc_path=$(hack/install-protoc.sh)
proto_tmp=$(mktemp -d)
trap 'rm -rf "${proto_tmp}"' EXIT
mkdir -p "${proto_tmp}/bin" "${proto_tmp}/src/$(dirname "${MODULE}")"
ln -s "${ROOT}" "${proto_tmp}/src/${MODULE}"
# go list -m names a module's directory only once it is in the module cache,
# which a fresh machine's build has not needed gogo's for.
go mod download "${PROTO_DEPS[@]}"
for m in "${PROTO_DEPS[@]}"; do
  dir=$(go list -m -f '{{.Dir}}' "${m}")
  if [[ -z "${dir}" ]]; then
    echo "update-codegen: no directory for module ${m}" >&2
    exit 1
  fi
  mkdir -p "${proto_tmp}/src/$(dirname "${m}")"
  ln -s "${dir}" "${proto_tmp}/src/${m}"
done
ln -s "${protoc_path}" "${proto_tmp}/bin/protoc"
go build -o "${proto_tmp}/bin/" k8s.io/code-generator/cmd/go-to-protobuf \
  k8s.io/code-generator/cmd/go-to-protobuf/protoc-gen-gogo golang.org/x/tools/cmd/goimports
referenced=$(printf -- '-%s,' "${PROTO_REFERENCED[@]}")
PATH="${proto_tmp}/bin:${PATH}" "${proto_tmp}/bin/go-to-protobuf" --go-header-file "${HEADER}" \
  --output-dir "${proto_tmp}/src" \
  --proto-import "${proto_tmp}/src/github.com/gogo/protobuf/protobuf" \
  --apimachinery-packages "${referenced%,}" \
  --packages "$(IFS=,; echo "${api_pkgs[*]}")"

echo ">> deepcopy"
for gv in "${GROUP_VERSIONS[@]}"; do rm -f "${APIS}/${gv}/zz_generated.deepcopy.go"; done
go tool deepcopy-gen --go-header-file "${HEADER}" \
  --output-file zz_generated.deepcopy.go "${api_pkgs[@]}"

echo ">> openapi"
readonly_args=()
for p in "${BUILTIN_API_PKGS[@]}" "${APIMACHINERY_PKGS[@]}"; do readonly_args+=(--readonly-pkg "$p"); done
rm -rf "${GEN}/openapi"
mkdir -p "${GEN}/openapi"
report=$(mktemp)
trap 'rm -f "${report}"; rm -rf "${proto_tmp}"' EXIT
go tool openapi-gen --go-header-file "${HEADER}" \
  --output-dir "${GEN}/openapi" --output-pkg "${MODULE}/${GEN}/openapi" \
  --output-file zz_generated.openapi.go \
  --output-model-name-file zz_generated.model_name.go \
  --report-filename "${report}" \
  "${readonly_args[@]}" \
  "${APIMACHINERY_PKGS[@]}" "${BUILTIN_API_PKGS[@]}" "${api_pkgs[@]}"

echo ">> applyconfigurations"
rm -rf "${GEN}/applyconfiguration" "${GEN}/clientset" "${GEN}/listers" "${GEN}/informers"
# Added to the generator's defaults (meta/v1): corev1.ResourceQuotaStatus,
# which ClusterQuotaStatus embeds inline.
go tool applyconfiguration-gen --go-header-file "${HEADER}" \
  --output-dir "${GEN}/applyconfiguration" --output-pkg "${MODULE}/${GEN}/applyconfiguration" \
  --external-applyconfigurations k8s.io/api/core/v1.ResourceQuotaStatus:k8s.io/client-go/applyconfigurations/core/v1 \
  "${api_pkgs[@]}"

echo ">> clientset"
inputs=()
for gv in "${GROUP_VERSIONS[@]}"; do inputs+=(--input "${gv}"); done
go tool client-gen --go-header-file "${HEADER}" \
  --output-dir "${GEN}/clientset" --output-pkg "${MODULE}/${GEN}/clientset" \
  --clientset-name versioned \
  --apply-configuration-package "${MODULE}/${GEN}/applyconfiguration" \
  --input-base "${MODULE}/${APIS}" "${inputs[@]}"

echo ">> listers"
go tool lister-gen --go-header-file "${HEADER}" \
  --output-dir "${GEN}/listers" --output-pkg "${MODULE}/${GEN}/listers" \
  "${api_pkgs[@]}"

echo ">> informers"
go tool informer-gen --go-header-file "${HEADER}" \
  --output-dir "${GEN}/informers" --output-pkg "${MODULE}/${GEN}/informers" \
  --versioned-clientset-package "${MODULE}/${GEN}/clientset/versioned" \
  --listers-package "${MODULE}/${GEN}/listers" \
  "${api_pkgs[@]}"

echo ">> done"
