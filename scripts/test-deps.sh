#!/usr/bin/env bash
# Installs what the test suite needs and is missing: python-chess and berserk (pip), Node.js with npm and
# Chromium (Debian packages), and the web client's npm packages as locked. Needs root (or sudo)
# only for the Debian packages; says in one line what to run where it cannot install.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c 'import chess' 2>/dev/null; then
  echo "test-deps: installing python-chess" >&2
  python3 -m pip install --quiet chess 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages chess || {
    echo "test-deps: could not install python-chess; run: pip install chess" >&2
    exit 1
  }
fi

# berserk, the lichess API client, drives the lichess-compatible API's test.
if ! python3 -c 'import berserk, sys; sys.exit(berserk.__version__ != "0.14.0")' 2>/dev/null; then
  echo "test-deps: installing berserk 0.14.0" >&2
  python3 -m pip install --quiet 'berserk==0.14.0' 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages 'berserk==0.14.0' || {
    echo "test-deps: could not install berserk; run: pip install berserk==0.14.0" >&2
    exit 1
  }
fi

need=()
command -v npm >/dev/null || need+=(nodejs npm)
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || need+=(chromium)
# A Chinese font, so that the 中文 screenshots show characters rather than boxes.
if command -v apt-get >/dev/null && ! fc-list :lang=zh 2>/dev/null | grep -q .; then
  need+=(fonts-wqy-microhei)
fi
if [ ${#need[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
  echo "test-deps: installing ${need[*]}" >&2
  if ! { "${sudo[@]}" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${need[@]}" >/dev/null; }; then
    echo "test-deps: could not install ${need[*]}; run: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
fi

# The web client's packages, exactly as locked (the server's build.rs would install them too).
if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules ]; then
  ( cd web && npm ci --no-audit --no-fund --loglevel=error )
fi
