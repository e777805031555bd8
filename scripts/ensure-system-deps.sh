#!/bin/sh
# The Debian packages the tests need: chromium (browser tests; Playwright cannot download
# its own browser here) and pgn-extract (every exported PGN is checked with it).
# PostgreSQL and Redis are started by the tests themselves when they are down.
set -eu
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium fonts-dejavu-core"
command -v pgn-extract >/dev/null 2>&1 || [ -x /usr/games/pgn-extract ] || missing="$missing pgn-extract"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian packages for the tests:$missing"
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
    exit 0
fi
echo "The tests need these Debian packages:$missing" \
     "(sudo apt-get install$missing), then run make test again." >&2
exit 1
