#!/usr/bin/env bash
# Make Debian's Chromium available for the browser tests (Playwright drives it;
# it never downloads a browser of its own), and bubblewrap (bwrap), the sandbox
# `posenc grade` runs each learner's kernel in. Without root or apt-get this only
# says what is missing: the browser tests then skip with the same message, and
# CI (POSENC_REQUIRE_BROWSER=1) fails instead of skipping; `posenc grade` says
# there is no sandbox and its boxed tests skip (POSENC_REQUIRE_SANDBOX=1 fails).
set -u
missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v bwrap >/dev/null || missing+=(bubblewrap)
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "Installing Debian's ${missing[*]} for the tests (apt-get)..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null && exit 0
    echo "apt-get install ${missing[*]} failed." >&2
else
    echo "The browser tests need /usr/bin/chromium and grading needs bwrap: run" \
        "'sudo apt-get install -y ${missing[*]}'." >&2
fi
exit 0
