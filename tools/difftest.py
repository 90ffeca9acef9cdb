#!/usr/bin/env python3
"""Checks vizier-rules against python-chess, reading the records of the `difftest` example
from standard input (see crates/rules/examples/difftest.rs). Exits 1 on any disagreement."""

import sys

import chess


def can_claim_fifty(board: chess.Board) -> bool:
    """Art. 9.3 as docs/laws.md reads it: a claim with a declared move is decided before the
    move is made, so a declared move that would mate or stalemate still completes the 50 moves.
    python-chess asks for a legal reply after the declared move; otherwise the same."""
    if board.is_fifty_moves():
        return True
    return board.halfmove_clock >= 99 and any(
        not board.is_zeroing(m) for m in board.generate_legal_moves()
    )


def flags(board: chess.Board) -> str:
    out = ""
    for on, c in [
        (board.is_check(), "C"),
        (board.is_checkmate(), "M"),
        (board.is_stalemate(), "S"),
        (board.is_insufficient_material(), "I"),
        (board.has_insufficient_material(chess.WHITE), "W"),
        (board.has_insufficient_material(chess.BLACK), "B"),
        (board.is_repetition(2), "2"),
        (board.is_repetition(3), "3"),
        (board.is_fivefold_repetition(), "5"),
        (board.can_claim_threefold_repetition(), "T"),
        (can_claim_fifty(board), "F"),
        (board.is_seventyfive_moves(), "X"),
    ]:
        if on:
            out += c
    return out + " " + board.result(claim_draw=False)


def main() -> int:
    board = None
    games = positions = sans = mismatches = 0
    game_head = ""

    def report(what: str, ours: str, theirs: str) -> None:
        nonlocal mismatches
        mismatches += 1
        if mismatches <= 20:
            print(f"MISMATCH {what}\n  game: {game_head}\n  at:   {board.fen()}\n  vizier:       {ours}\n  python-chess: {theirs}")

    for line in sys.stdin:
        line = line.rstrip("\n")
        kind, rest = line[0], line[2:]
        if kind == "G":
            flag, fen = rest.split(" ", 1)
            board = chess.Board(fen, chess960=flag == "1")
            games += 1
            game_head = line
        elif kind == "P":
            fen, ucis, san_list, ours = rest.split("\t")
            positions += 1
            if fen != board.fen():
                report("FEN", fen, board.fen())
            legal = sorted(board.generate_legal_moves(), key=lambda m: board.uci(m))
            theirs_uci = " ".join(board.uci(m) for m in legal)
            if ucis != theirs_uci:
                report("legal moves", ucis, theirs_uci)
            elif san_list != "-":
                theirs_san = " ".join(board.san(m) for m in legal)
                sans += len(legal)
                if san_list != theirs_san:
                    report("SAN", san_list, theirs_san)
            theirs_flags = flags(board)
            if ours != theirs_flags:
                report("flags", ours, theirs_flags)
        elif kind == "M":
            uci, san = rest.split(" ")
            move = board.parse_uci(uci)
            theirs_san = board.san(move)
            sans += 1
            if san != theirs_san:
                report("SAN of played move", san, theirs_san)
            board.push(move)
    print(f"difftest: {games} playouts, {positions} positions, {sans} SAN strings compared, {mismatches} mismatches")
    return 1 if mismatches or games == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
