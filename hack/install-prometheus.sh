#!/usr/bin/env bash
# Installs Debian's prometheus package (2.42) when missing, for the tests
# that have a real Prometheus scrape mco's components. Prints its path.
set -o errexit -o nounset -o pipefail

if ! command -v prometheus >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends prometheus >/dev/null 2>&1 || {
    apt-get update >/dev/null
    apt-get install -y --no-install-recommends prometheus >/dev/null
  }
  # The package starts a system service on its default port; the tests run
  # their own instance, so stop that one if it was started.
  if command -v systemctl >/dev/null 2>&1; then systemctl stop prometheus >/dev/null 2>&1 || true; fi
fi
command -v prometheus
