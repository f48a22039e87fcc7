#!/usr/bin/env bash
# Make Debian's Chromium available for the browser tests (Playwright drives it;
# it never downloads a browser of its own), and bubblewrap (bwrap), the sandbox
# `posenc grade` runs each learner's kernel in. apt-get installs what is missing,
# as root or through `sudo -n` (a user whose sudo asks no password, as GitHub's
# runner user); otherwise this only says what is missing: the browser tests then
# skip with the same message, and CI (POSENC_REQUIRE_BROWSER=1) fails instead of
# skipping; `posenc grade` says there is no sandbox and its boxed tests skip
# (POSENC_REQUIRE_SANDBOX=1 fails).
set -u
missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v bwrap >/dev/null || missing+=(bubblewrap)
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi
if [[ $(uname -s) == Darwin ]]; then
    # Homebrew's Chromium (brew install --cask chromium) lands in /Applications,
    # not /usr/bin/chromium, and bubblewrap is Linux's: nothing to install here
    echo "On macOS the browser tests (Chromium at /usr/bin/chromium) and the grader's" \
        "sandbox (bubblewrap) are Linux-only and skip; CI runs them." >&2
    exit 0
fi
if [[ $(id -u) -eq 0 ]]; then
    as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    echo "The browser tests need /usr/bin/chromium and grading needs bwrap: run" \
        "'sudo apt-get install -y ${missing[*]}'." >&2
    exit 0
fi
if command -v apt-get >/dev/null; then
    echo "Installing Debian's ${missing[*]} for the tests (apt-get)..."
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq "${missing[@]}" >/dev/null && exit 0
    echo "apt-get install ${missing[*]} failed." >&2
else
    echo "The browser tests need /usr/bin/chromium and grading needs bwrap:" \
        "install ${missing[*]} with your package manager." >&2
fi
exit 0
