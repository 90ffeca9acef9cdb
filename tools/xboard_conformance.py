#!/usr/bin/env python3
"""Drives `vizier xboard` with python-chess's chess.engine (its CECP driver): full games,
standard and Chess960, one side pondering, every move checked legal by python-chess; analysis
with `analyze`; node and depth limits; and `vizier uci` answering a host that starts with
`xboard`.

usage: xboard_conformance.py VIZIER_BINARY [GAMES]"""

import sys

import chess
import chess.engine


def play(binary: str, chess960: bool, seed: int) -> str:
    board = chess.Board.from_chess960_pos(seed % 960) if chess960 else chess.Board()
    board.chess960 = chess960
    # The second engine is started as `vizier uci`: it must notice the host speaks CECP.
    with chess.engine.SimpleEngine.popen_xboard([binary, "xboard"]) as a, \
            chess.engine.SimpleEngine.popen_xboard([binary, "uci"]) as b:
        for e in (a, b):
            e.configure({"memory": 8})
        engines = [a, b]
        clocks = [3.0, 3.0]
        while not board.is_game_over(claim_draw=True) and board.fullmove_number < 80:
            side = 0 if board.turn == chess.WHITE else 1
            limit = chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1],
                                       white_inc=0.03, black_inc=0.03)
            result = engines[side].play(board, limit, ponder=(side == 0), info=chess.engine.INFO_ALL)
            if result.move is None or result.move not in board.legal_moves:
                raise AssertionError(f"illegal or missing move {result.move} in {board.fen()}")
            board.push(result.move)
    return board.result(claim_draw=True)


def analysis(binary: str) -> None:
    board = chess.Board()
    board.push_san("e4")
    with chess.engine.SimpleEngine.popen_xboard([binary, "xboard"]) as e:
        info = e.analyse(board, chess.engine.Limit(depth=8))
        assert info.get("depth", 0) >= 8, info
        assert info["pv"] and info["pv"][0] in board.legal_moves, info
        assert "score" in info, info
        # A mate is reported as one.
        mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        info = e.analyse(mate, chess.engine.Limit(depth=4))
        assert info["score"].white() == chess.engine.Mate(1), info
        assert info["pv"][0] == chess.Move.from_uci("d1d8"), info
        # Streamed analysis ends when asked to.
        with e.analysis(chess.Board(), chess.engine.Limit(time=0.5)) as a:
            lines = [i for i in a if "pv" in i]
        assert lines, "no analysis lines"
        # Node and depth limits in play.
        r = e.play(board, chess.engine.Limit(nodes=3000), info=chess.engine.INFO_ALL)
        assert r.move in board.legal_moves and r.info.get("nodes", 0) <= 3300, r
        r = e.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
        assert r.move in board.legal_moves and r.info.get("depth") == 3, r
        r = e.play(board, chess.engine.Limit(time=0.2))
        assert r.move in board.legal_moves, r


def main() -> int:
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    results = [play(binary, i % 2 == 1, 200 + i) for i in range(games)]
    analysis(binary)
    print(f"xboard conformance: {games} games ({', '.join(results)}), analysis and limits ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
