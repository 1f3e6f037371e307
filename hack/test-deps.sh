#!/usr/bin/env bash
# Builds and installs what the tests run, once for every package that
# needs it: mco's binaries, the local-up command (the HA suite's load
# balancer), the member binaries and the real kubectl, helm, Prometheus,
# Chromium, Debian's kubectl 1.20, and mco-testreport (hack/testreport).
# hack/test.sh and hack/test-e2e-repeat.sh call it.
set -o errexit -o nounset -o pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${ROOT}"
# The binaries are static (hack/build.sh); the tests build the same way, so
# both share one build cache.
# shellcheck source=hack/build-env.sh
source hack/build-env.sh

hack/build.sh "${ROOT}/_output/bin"
# The HA suite runs its load balancer from the local-up command.
go build -o "${ROOT}/_output/bin/mco-localup" ./hack/localup
go build -o "${ROOT}/_output/bin/mco-testreport" ./hack/testreport
hack/build-member-binaries.sh
# Members of other Kubernetes versions in the e2e suite (its default:
# test/e2e/framework MemberVersions; MCO_E2E_MEMBER_VERSIONS overrides).
versions=${MCO_E2E_MEMBER_VERSIONS-$(sed -n 's/^const MemberVersions = "\(.*\)"$/\1/p' test/e2e/framework/framework.go)}
for pair in ${versions//,/ }; do
  KUBE_VERSION=${pair#*=} hack/build-tools.sh kube-apiserver kube-controller-manager kube-scheduler
done
# Helm checks the chart (lint, template, install into a member).
hack/build-tools.sh helm
# A real Prometheus scrapes mco-scheduler in the metrics test.
hack/install-prometheus.sh >/dev/null
# Headless Chromium drives the dashboard in the browser tests.
hack/install-chromium.sh >/dev/null
# The older client (Debian's kubectl 1.20) is tested when it can be fetched.
hack/install-debian-kubectl.sh >/dev/null || echo "warning: Debian kubectl 1.20 not available; its test is skipped" >&2
