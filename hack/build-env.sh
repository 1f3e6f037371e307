# Sourced by the scripts that compile: every build, vet and test of mco and
# of the member binaries (hack/tools) uses the same flags — static, no cgo,
# no -trimpath (the e2e framework finds the repository from its own source
# path) — so that the build cache compiles each shared package once. Release
# images add -trimpath through GOFLAGS (make images).
export CGO_ENABLED=0
