#!/usr/bin/env bash
# Self-play games for the Texel tuner (`vizier tune`): the engine against itself from the
# balanced openings, at a range of fixed node counts. The two sides differ only in hash size,
# which at these node counts often leaves the colour-swapped game of an opening pair identical
# (about a third of the games in the last run): the tuner reads each game once. Games of
# engine matches (`vizier match … --pgn`) are good samples too: pass them to the tuner as well.
#
#   scripts/selfplay.sh OUT_DIR [NODES…]      (default node counts: 4000 to 16000)
#   vizier tune OUT_DIR/*.pgn --out crates/engine/src/eval/weights.rs
set -euo pipefail
out=${1:?usage: scripts/selfplay.sh OUT_DIR [NODES...]}
shift
nodes=("$@")
[ ${#nodes[@]} -gt 0 ] || nodes=(4000 5000 6000 7000 8000 9000 10000 11000 12000 13000 14000 15000 16000)
root=$(cd "$(dirname "$0")/.." && pwd)
vizier=${VIZIER:-$root/target/release/vizier}
openings=${OPENINGS:-$root/../shared/data/openings.epd}
mkdir -p "$out"
cat > "$out/engines.json" <<JSON
{"hash1": {"protocol": "uci", "command": ["$vizier", "uci"], "options": {"Hash": 1}},
 "hash2": {"protocol": "uci", "command": ["$vizier", "uci"], "options": {"Hash": 2}}}
JSON
for n in "${nodes[@]}"; do
  "$vizier" match hash1 hash2 --engines "$out/engines.json" --games 602 --tc "nodes=$n" \
    --openings "$openings" --concurrency "$(nproc)" --pgn "$out/nodes$n.pgn" | tail -3
done
