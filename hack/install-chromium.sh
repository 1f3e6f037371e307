#!/usr/bin/env bash
# Installs Debian's Chromium, which the dashboard's browser tests drive
# headless (chromedp), unless it is there already. Needs root, as apt-get
# does. Prints the path of the chromium binary.
set -o errexit -o nounset -o pipefail

BIN=/usr/bin/chromium
if [ ! -x "${BIN}" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 || {
    apt-get update >/dev/null
    apt-get install -y --no-install-recommends chromium >/dev/null
  }
fi
echo "${BIN}"
