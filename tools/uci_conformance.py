#!/usr/bin/env python3
"""Drives `vizier uci` with python-chess's chess.engine: full games (standard and Chess960)
with every move checked legal by python-chess, analysis with MultiPV, and `stop` latency.

usage: uci_conformance.py VIZIER_BINARY [GAMES]"""

import statistics
import subprocess
import sys
import time

import chess
import chess.engine


def play(binary: str, chess960: bool, seed: int, levels=(None, None)) -> str:
    board = chess.Board.from_chess960_pos(seed % 960) if chess960 else chess.Board()
    board.chess960 = chess960
    with chess.engine.SimpleEngine.popen_uci([binary, "uci"]) as a, chess.engine.SimpleEngine.popen_uci([binary, "uci"]) as b:
        for e, level in zip((a, b), levels):
            e.configure({"Hash": 8} | ({"Level": level} if level else {}))
        engines = [a, b]
        while not board.is_game_over(claim_draw=True) and board.fullmove_number < 100:
            engine = engines[0 if board.turn == chess.WHITE else 1]
            result = engine.play(board, chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.02, black_inc=0.02))
            if result.move is None or result.move not in board.legal_moves:
                raise AssertionError(f"illegal or missing move {result.move} in {board.fen()}")
            board.push(result.move)
    return board.result(claim_draw=True)


def stop_latency(binary: str, runs: int = 10, level: int = 0) -> list:
    p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write("uci\n" + (f"setoption name Level value {level}\n" if level else "") + "isready\n")
    while p.stdout.readline().strip() != "readyok":
        pass
    lat = []
    for i in range(runs):
        p.stdin.write("position startpos moves e2e4\ngo infinite\n")
        time.sleep(0.2)
        p.stdin.write("isready\n")  # answered while searching
        t0 = time.perf_counter()
        p.stdin.write("stop\n")
        while True:
            line = p.stdout.readline()
            if line.startswith("bestmove"):
                lat.append((time.perf_counter() - t0) * 1000)
                break
    p.stdin.write("quit\n")
    p.wait(timeout=5)
    return lat


def main() -> int:
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    results = [play(binary, i % 2 == 1, 100 + i) for i in range(games)]
    # Weakened levels, UCI_Elo included, play legal moves too.
    results.append(play(binary, False, 7, levels=(2, 6)))
    with chess.engine.SimpleEngine.popen_uci([binary, "uci"]) as e:
        opts = e.options
        assert "Level" in opts and "UCI_Elo" in opts and "UCI_LimitStrength" in opts, list(opts)
        e.configure({"UCI_LimitStrength": True, "UCI_Elo": opts["UCI_Elo"].min})
        move = e.play(chess.Board(), chess.engine.Limit(time=0.2)).move
        assert move in chess.Board().legal_moves, move
    with chess.engine.SimpleEngine.popen_uci([binary, "uci"]) as e:
        infos = e.analyse(chess.Board(), chess.engine.Limit(depth=6), multipv=3)
        assert len(infos) == 3 and len({i["pv"][0] for i in infos}) == 3, infos
        mate = e.analyse(chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), chess.engine.Limit(depth=4))
        assert mate["score"].white() == chess.engine.Mate(1), mate
    lat = stop_latency(binary) + stop_latency(binary, runs=5, level=5)
    worst = max(lat)
    print(f"uci: {games} games played, every move legal (results {', '.join(results)}; * = stopped at move 100); MultiPV and mate scores ok; "
          f"stop latency median {statistics.median(lat):.1f} ms, worst {worst:.1f} ms")
    ok = worst < 50
    print(f"{1 if ok else 0} passed, {0 if ok else 1} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
