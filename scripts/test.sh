#!/usr/bin/env bash
# The whole test suite: Rust unit, integration and doc tests, then the differential test
# against python-chess, the PGN round trip, UCI and CECP conformance driven by python-chess,
# the lichess Bot and Board API driven by berserk, then the web client's type check and
# browser end-to-end tests in Chromium.
# What it needs (python-chess, Node.js with npm, Chromium at /usr/bin/chromium or CHROMIUM=path,
# the web client's npm packages) is installed first by scripts/test-deps.sh where missing.
# The tests that need PostgreSQL or root are ignored by cargo unless asked for; this script
# starts PostgreSQL from Debian's package (scripts/postgres.sh, scripts/postgres-faults.sh)
# unless VIZIER_TEST_POSTGRES and VIZIER_TEST_POSTGRES_FAULTS name databases already, and runs
# them: every test runs. Where PostgreSQL cannot be started or this is not root, it says which
# tests did not run, and fails where CI is set.
# VIZIER_DIFFTEST_GAMES sets the number of random playouts (default 10000).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/test-deps.sh

missing=()
if [ -z "${VIZIER_TEST_POSTGRES:-}" ]; then
  if url=$(bash scripts/postgres.sh 2>/dev/null); then
    export VIZIER_TEST_POSTGRES=$url
  else
    missing+=("the PostgreSQL tests (scripts/postgres.sh could not start PostgreSQL)")
  fi
fi
if [ -z "${VIZIER_TEST_POSTGRES_FAULTS:-}" ]; then
  if spec=$(bash scripts/postgres-faults.sh 2>/dev/null); then
    export VIZIER_TEST_POSTGRES_FAULTS=$spec
  else
    missing+=("the PostgreSQL outage test (scripts/postgres-faults.sh could not start a cluster)")
  fi
fi
root=$([ "$(id -u)" = 0 ] && echo yes || echo no)
[ "$root" = yes ] || missing+=("the disk-full and read-only tests (they need root)")

# No file imports one that imports it back (use crate::/super:: in Rust, relative imports in
# the web client).
python3 tools/import_cycles.py

# Benches are excluded: they are harness-less timing programs (run them with cargo bench).
cargo test --workspace --lib --bins --tests --examples
cargo test --workspace --doc
# The ignored tests that need a service or root, where this machine has them.
if [ -n "${VIZIER_TEST_POSTGRES:-}" ]; then
  cargo test --workspace --lib --tests -- --ignored postgres --skip outage
fi
# (Run over the workspace, as above: a single package's build would be made afresh.)
if [ -n "${VIZIER_TEST_POSTGRES_FAULTS:-}" ]; then
  cargo test --workspace --lib --tests -- --ignored a_postgres_outage
fi
if [ "$root" = yes ]; then
  cargo test --workspace --lib --tests -- --ignored a_full_disk read_only_files
fi
if [ ${#missing[@]} -gt 0 ]; then
  printf 'did not run: %s\n' "${missing[@]}" >&2
  if [ -n "${CI:-}" ]; then
    echo "CI is set: every test must run" >&2
    exit 1
  fi
fi

# The tools below use binaries of the test profile, like those `cargo test` just built
# (optimised, with debug assertions).
cargo build --profile test -p vizier-rules --examples
games=${VIZIER_DIFFTEST_GAMES:-10000}
# Two halves with different seeds, one per core.
( target/debug/examples/difftest $((games / 2)) 40 1 | python3 tools/difftest.py ) &
first=$!
target/debug/examples/difftest $((games - games / 2)) 40 2 | python3 tools/difftest.py
wait "$first"

python3 tools/pgn_roundtrip.py target/debug/vizier 300
# The PGN files Debian's chess packages ship, read by Vizier and by python-chess.
debian_pgn=$(bash scripts/debian-pgn.sh)
if [ -n "$debian_pgn" ]; then
  mapfile -t files <<<"$debian_pgn"
  python3 tools/pgn_vs_python.py target/debug/vizier "${files[@]}"
fi
python3 tools/uci_conformance.py target/debug/vizier 2
# lichess's own client (berserk) plays through the Bot and Board API.
python3 tools/api_clients.py target/debug/vizier
python3 tools/xboard_conformance.py target/debug/vizier 2

# The web client: type check, unit tests of its pure modules, then the browser tests against
# the same build.
( cd web && npx --no-install tsc --noEmit && node unit.mjs && VIZIER_BIN=../target/debug/vizier node --test e2e/ )
