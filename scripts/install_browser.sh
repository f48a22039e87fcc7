#!/usr/bin/env bash
# Make Debian's Chromium available for the browser tests (Playwright drives it;
# it never downloads a browser of its own). Without root or apt-get this only
# says what is missing: the browser tests then skip with the same message, and
# CI (POSENC_REQUIRE_BROWSER=1) fails instead of skipping.
set -u
if [[ -x /usr/bin/chromium ]]; then
    exit 0
fi
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium for the browser tests (apt-get)..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null && exit 0
    echo "apt-get install chromium failed." >&2
else
    echo "Browser tests need /usr/bin/chromium: run 'sudo apt-get install -y chromium'." >&2
fi
exit 0
