#!/usr/bin/env python3
"""Games per second for python-chess reading a PGN file (every SAN validated).
usage: pgn_speed_python.py FILE [MAX_GAMES]"""
import sys
import time

import chess.pgn

path = sys.argv[1]
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 10**9
games = plies = 0
start = time.perf_counter()
with open(path, encoding="utf-8") as f:
    while games < limit and (game := chess.pgn.read_game(f)) is not None:
        games += 1
        plies += sum(1 for _ in game.mainline_moves())
secs = time.perf_counter() - start
print(f"python-chess {chess.__version__}: {games} games, {plies} main-line plies in {secs:.2f} s: {games / secs:.0f} games/s")
