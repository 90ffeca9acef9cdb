#!/usr/bin/env bash
# Perft wall time of `vizier perft` against Stockfish's `go perft`, same positions, same machine,
# alternating runs; prints the best of N for each and the ratio. Needs /usr/games/stockfish.
# usage: tools/perft_vs_stockfish.sh [RUNS]   (builds target/release/vizier first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cargo build --release -q
kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
best() { sort -n | head -1; }
for case in "startpos|6" "$kiwipete|5"; do
    fen=${case%|*}; depth=${case#*|}
    if [ "$fen" = startpos ]; then sfpos="position startpos"; vzarg=(); else sfpos="position fen $fen"; vzarg=(--fen "$fen"); fi
    v=(); s=()
    for _ in $(seq "$runs"); do
        t0=$(date +%s.%N); out=$(target/release/vizier perft "$depth" "${vzarg[@]}" 2>/dev/null | tail -1); t1=$(date +%s.%N)
        v+=("$(echo "$t1 - $t0" | bc)")
        t0=$(date +%s.%N); sout=$(printf '%s\ngo perft %s\nquit\n' "$sfpos" "$depth" | /usr/games/stockfish | grep 'Nodes searched'); t1=$(date +%s.%N)
        s+=("$(echo "$t1 - $t0" | bc)")
        [ "$out" = "$sout" ] || { echo "counts differ: $out / $sout"; exit 1; }
    done
    bv=$(printf '%s\n' "${v[@]}" | best); bs=$(printf '%s\n' "${s[@]}" | best)
    printf '%-10s depth %s  %s  vizier %.3f s  stockfish %.3f s  ratio %.2fx\n' "${fen:0:8}" "$depth" "$out" "$bv" "$bs" "$(echo "$bs / $bv" | bc -l)"
done
