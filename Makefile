# mco — multi-cluster orchestrator for Kubernetes.
# Each target is one line calling go or a hack/ script.

GO ?= go
OUTPUT := _output
BIN := $(OUTPUT)/bin
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo v0.0.0-dev)
# Every build, vet and test compiles static (no cgo) and with the same flags,
# so that one build cache serves mco's binaries, the member binaries, vet and
# the tests (hack/build-env.sh, sourced by the scripts, says the same).
export CGO_ENABLED := 0
export GOFLAGS := $(strip $(filter-out -tags=fieldsv1string,$(GOFLAGS)) -tags=fieldsv1string)

.PHONY: all build images test test-unit verify update clean

all: build

## build: compile every binary under cmd/ into _output/bin/
build:
	hack/build.sh $(BIN) $(VERSION)

## test: what CI runs — unit, API compatibility and integration tests
test:
	hack/test.sh

## images: image tarballs of the binaries under _output/images/, built without Docker (with -trimpath, apart from _output/bin)
images:
	GOFLAGS=-trimpath hack/build.sh $(OUTPUT)/release-bin $(VERSION)
	$(GO) run ./hack/images -bin-dir $(OUTPUT)/release-bin -out $(OUTPUT)/images -version $(VERSION) -revision $(shell git rev-parse HEAD 2>/dev/null)

## verify: gofmt, go vet, generated code up to date
verify:
	hack/verify.sh

## update: regenerate deepcopy, OpenAPI and typed clients
update:
	hack/update-codegen.sh

clean:
	rm -rf $(OUTPUT)

.PHONY: kubectl run

## kubectl: build the real kubectl (v1.37) into _output/bin/
kubectl:
	hack/build-tools.sh kubectl

## run: start mco-apiserver in the foreground on embedded etcd
run: build kubectl
	hack/run.sh

.PHONY: bench-mcs local-up local-up-ha local-up-aggregated local-down member-bins test-e2e test-e2e-repeat bench-crds

## local-up: mco plus three real member clusters, joined; returns when ready (PULL_MEMBERS=member3: member3 in Pull mode, served by mco-agent)
local-up:
	hack/local-up.sh up

## local-up-ha: the same with a highly available control plane (3 etcd members, 2 apiservers behind a load balancer, 2 of each component)
local-up-ha:
	hack/local-up.sh up-ha

## local-up-aggregated: the same with mco-apiserver in aggregated mode behind a host cluster's kube-apiserver (context "mco" is the host)
local-up-aggregated:
	hack/local-up.sh up-aggregated

## local-down: stop everything local-up started
local-down:
	hack/local-up.sh down

## member-bins: build etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok (cached)
member-bins:
	hack/build-member-binaries.sh

## test-e2e: end-to-end tests against real member clusters
test-e2e: build member-bins
	go test -count=1 -timeout 30m ./test/e2e/...

## test-e2e-repeat: the flake census: the e2e package N times (default 5), each on a fresh environment, then each test's failures (exit 1 on any)
N ?= 5
test-e2e-repeat:
	hack/test-e2e-repeat.sh $(N)

.PHONY: test-ha test-aggregated test-upgrade test-differential test-differential-long

## test-ha: mco on a 3-member etcd cluster with two apiservers behind a load balancer and standby components; kills parts of it (part of test)
test-ha: build member-bins kubectl
	go build -o $(BIN)/mco-localup ./hack/localup
	go test -count=1 -timeout 20m -v ./test/ha/

## test-aggregated: mco-apiserver behind a real kube-apiserver's aggregation layer, the components under the chart's host RBAC (part of test)
test-aggregated: build member-bins kubectl
	hack/build-tools.sh helm
	go test -count=1 -timeout 10m -v ./test/aggregated/


## test-upgrade: member2 upgraded in place v1.35 -> v1.36 -> mco's own version under a running mco (not part of test; builds those versions once)
test-upgrade: build member-bins kubectl
	KUBE_VERSION=v1.35.4 hack/build-tools.sh kube-apiserver kube-controller-manager kube-scheduler
	KUBE_VERSION=v1.36.3 hack/build-tools.sh kube-apiserver kube-controller-manager kube-scheduler
	go test -count=1 -timeout 20m -v ./test/upgrade/

## test-differential: mco-apiserver against a real kube-apiserver on the corpus, Karmada's examples and 100 mutations per kind (part of test)
test-differential: build member-bins
	go test -count=1 -timeout 20m ./test/differential/

## test-differential-long: the same with 2000 mutations per kind (not part of test); add ARGS=-update-drifts to list what it finds
test-differential-long: build member-bins
	MCO_DIFFERENTIAL_MUTATIONS=2000 go test -count=1 -timeout 60m ./test/differential/ $(ARGS)

.PHONY: bench bench-propagation bench-interpreter bench-scale bench-rollout bench-addons

## bench: scheduler benchmarks (whole scheduling of one binding at 100/1000/5000 clusters, division, filters)
bench:
	go test -run '^$$' -bench . -benchmem -benchtime 20x ./pkg/scheduler/...

## bench-interpreter: 100 custom-resource workloads propagated without and with a ResourceInterpreterCustomization: wall time and CPU (BENCH_ARGS: -count N); script calls: go test -bench . ./pkg/interpreter/
bench-interpreter:
	hack/bench-interpreter.sh $(BENCH_ARGS)

## bench-crds: mco-apiserver's RSS before and after 50 CRDs (BENCH_ARGS: another count); not part of test
bench-crds:
	hack/bench-crds.sh $(BENCH_ARGS)

## bench-propagation: mco and three members; 1000 Deployments' latency, throughput, writes, status writes, CPU, memory and namespace deletion against targets (not part of test). BENCH_MEMBERS=full gives the members their controllers and kwok nodes (default: bare kube-apiservers); BENCH_ARGS=-pull=member3 serves member3 by mco-agent and reports latency per member and the agent's CPU and memory
BENCH_MEMBERS ?= bare
bench-propagation:
	hack/bench-propagation.sh -members $(BENCH_MEMBERS) $(BENCH_ARGS)

## bench-addons: 10 add-ons of 30 objects on 20 bare members, two value sets each: time to Healthy everywhere, renders against distinct inputs, controller-manager CPU and writes per (add-on, cluster), peak RSS (not part of test; BENCH_ARGS: -addons N -objects N -members N)
bench-addons:
	hack/bench-addons.sh $(BENCH_ARGS)

## bench-rollout: 1000 ConfigMaps staged by one RolloutPolicy on three bare members: mco-controller-manager's CPU, queue adds and writes at rest and while one of them rolls out (not part of test; BENCH_ARGS: -configmaps N -rest D -active D)
bench-rollout:
	hack/bench-rollout.sh $(BENCH_ARGS)

## bench-mcs: a Service with 1,000 endpoints in 3 providers dispatched by a MultiClusterService to 3 consumers (bare members): writes to mco and to the consumers per endpoint change, and the time until every consumer holds it (not part of test; BENCH_ARGS: -endpoints N -providers N -consumers N -changes N)
bench-mcs:
	hack/bench-mcs.sh $(BENCH_ARGS)

## bench-scale: 10 bare members, 10,000 Deployments divided over 3 of them by a spread constraint and 1,000 ConfigMaps duplicated to all, then their namespace deleted: times, peak RSS, writes and CPU per object (not part of test; BENCH_ARGS: -deployments N -configmaps N -members N)
bench-scale:
	hack/bench-scale.sh $(BENCH_ARGS)
