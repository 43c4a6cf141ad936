#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI stage: the HTML reports of run and compare rendered in headless Chromium (Debian's chromium), for
# real: a missing browser fails here instead of skipping. Needs the build of scripts/run-tests.sh.
#   scripts/ci-browser.sh [BUILD_DIR] [--update-docs]   (--update-docs: refresh docs/report-*.png)
set -euo pipefail
echo "== HTML reports in a browser"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build/test"
screenshots=()
for argument in "$@"; do
  case "$argument" in
  --update-docs) screenshots=(--screenshots "$root/docs") ;;
  *) build="$argument" ;;
  esac
done
if ! command -v chromium > /dev/null; then
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium > /dev/null
fi
NPU_REQUIRE_BROWSER=1 python3 "$root/tests/browser/html_in_browser.py" "$build" "$build/html_browser_tests" \
  "${screenshots[@]}"
