#!/usr/bin/env bash
# The whole test suite: Rust unit, integration and doc tests, then the differential test
# against python-chess, the PGN round trip, UCI and CECP conformance driven by python-chess,
# then the web client's type check and browser end-to-end tests in Chromium.
# What it needs (python-chess, Node.js with npm, Chromium at /usr/bin/chromium or CHROMIUM=path,
# the web client's npm packages) is installed first by scripts/test-deps.sh where missing.
# VIZIER_TEST_POSTGRES=postgres://... also runs the PostgreSQL tests.
# VIZIER_DIFFTEST_GAMES sets the number of random playouts (default 10000).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/test-deps.sh

# Benches are excluded: they are harness-less timing programs (run them with cargo bench).
cargo test --workspace --lib --bins --tests --examples
cargo test --workspace --doc

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
python3 tools/xboard_conformance.py target/debug/vizier 2

# The web client: type check, unit tests of its pure modules, then the browser tests against
# the same build.
( cd web && npx --no-install tsc --noEmit && node unit.mjs && VIZIER_BIN=../target/debug/vizier node --test e2e/ )
