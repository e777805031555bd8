#!/bin/sh
# Make sure Debian's Chromium is at /usr/bin/chromium for the browser tests.
# Playwright cannot download its own browser here, so the tests use the system one.
set -eu
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian chromium for the browser tests..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
    exit 0
fi
echo "The browser tests need /usr/bin/chromium: install Debian's 'chromium' package" \
     "(sudo apt-get install chromium) and run make test again." >&2
exit 1
