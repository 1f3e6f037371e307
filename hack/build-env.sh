# Sourced by the scripts that compile: every build, vet and test of mco and
# of the member binaries (hack/tools) uses the same flags — static, no cgo,
# no -trimpath (the e2e framework finds the repository from its own source
# path), Kubernetes' fieldsv1string tag — so that the build cache compiles
# each shared package once. Release images add -trimpath through GOFLAGS
# (make images).
export CGO_ENABLED=0
# fieldsv1string: apimachinery keeps each managedFields field set as an
# interned string (package unique) instead of a byte slice of its own, so
# that the watch caches' thousands of objects written alike hold their
# field sets once (README: bench-scale).
case " ${GOFLAGS:-} " in
  *" -tags=fieldsv1string "*) ;;
  *) export GOFLAGS="${GOFLAGS:+${GOFLAGS} }-tags=fieldsv1string" ;;
esac
