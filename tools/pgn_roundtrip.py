#!/usr/bin/env python3
"""PGN round trip through `vizier pgn`, judged by python-chess.

Writes random games (tags, comments with [%clk], NAGs, variations, Chess960 set-ups) with
python-chess, with some broken games among them; runs `vizier pgn` on the file and checks that
exactly the broken games are reported (one line each, exit code 1), that every valid game comes
back with the same moves, tags, comments and clocks, and that exporting the export changes nothing.

usage: pgn_roundtrip.py VIZIER_BINARY GAMES [OUT_FILE]
"""

import io
import random
import subprocess
import sys
import tempfile

import chess
import chess.pgn

BROKEN = [
    '[Event "broken: illegal move"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n',
    '[Event "broken: bad FEN"]\n[SetUp "1"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*\n\n',
    '[Event "broken: unclosed variation"]\n\n1. e4 (1. d4 d5 2. c4 *\n\n',
]


def random_game(rng: random.Random, index: int) -> chess.pgn.Game:
    if rng.random() < 0.2:
        n = rng.randrange(960)
        board = chess.Board.from_chess960_pos(n)
        game = chess.pgn.Game.from_board(board)
        game.headers["Variant"] = "Chess960"
        game.headers["FEN"] = board.fen()
        game.headers["SetUp"] = "1"
    else:
        game = chess.pgn.Game()
    game.headers["Event"] = f"Round trip {index}"
    game.headers["White"] = rng.choice(["Anna", "Bella", "Cesar Weiss", "王 伟"])
    game.headers["Black"] = rng.choice(["David", "Eva Felix", "Gustav"])
    game.headers["TimeControl"] = "300+2"
    node = game
    clock = 300.0
    for _ in range(rng.randrange(0, 120)):
        board = node.board()
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        if len(moves) > 1 and rng.random() < 0.05:
            alt = node.add_variation(rng.choice([m for m in moves if m != move]))
            alt.comment = "an alternative"
            b = alt.board()
            if any(b.legal_moves):
                alt.add_variation(rng.choice(list(b.legal_moves)))
        node = node.add_main_variation(move)
        clock = max(0.0, clock - rng.random() * 10 + 2)
        if rng.random() < 0.5:
            node.set_clock(round(clock, 1))
        if rng.random() < 0.1:
            node.comment = (node.comment + " " if node.comment else "") + rng.choice(["good", "a long comment " * 8, "好棋"])
        if rng.random() < 0.05:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 14]))
    board = node.board()
    game.headers["Result"] = board.result() if board.is_game_over() else rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return game


def summary(game: chess.pgn.Game):
    nodes = []
    node = game
    while node.variations:
        node = node.variations[0]
        nodes.append((node.move.uci(), sorted(node.nags), " ".join(node.comment.split()), node.clock(), len(node.parent.variations)))
    headers = {k: v for k, v in game.headers.items()}
    return headers, nodes


def main() -> int:
    vizier, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(2026)
    games = [random_game(rng, i) for i in range(count)]
    text = io.StringIO()
    broken_at = set()
    for i, game in enumerate(games):
        if i % 97 == 50:
            text.write(BROKEN[len(broken_at) % len(BROKEN)])
            broken_at.add(i)
        print(game, file=text, end="\n\n")
    data = text.getvalue()
    if len(sys.argv) > 3:
        open(sys.argv[3], "w").write(data)
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
        f.write("\ufeff% a comment line for the reader to skip\n" + data)
        path = f.name
    run = subprocess.run([vizier, "pgn", path], capture_output=True, text=True)
    errors = [l for l in run.stderr.splitlines() if l.strip()]
    failures = []
    if run.returncode != 1:
        failures.append(f"exit code {run.returncode}, expected 1 (some games are broken)")
    if len(errors) != len(broken_at):
        failures.append(f"{len(errors)} error lines, expected {len(broken_at)}: {errors[:5]}")
    out = io.StringIO(run.stdout)
    back = []
    while (g := chess.pgn.read_game(out)) is not None:
        back.append(g)
    if len(back) != len(games):
        failures.append(f"{len(back)} games came back, expected {len(games)}")
    for i, (orig, got) in enumerate(zip(games, back)):
        if orig.errors or got.errors:
            failures.append(f"game {i}: python-chess errors {orig.errors} / {got.errors}")
        if summary(orig) != summary(got):
            failures.append(f"game {i} differs:\n{orig}\n---\n{got}")
            break
        if any(len(l) > 80 for l in str(run.stdout).splitlines()):
            failures.append("an exported line is longer than 80 columns")
            break
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
        f.write(run.stdout)
        again = subprocess.run([vizier, "pgn", f.name], capture_output=True, text=True)
    if again.returncode != 0 or again.stdout != run.stdout:
        failures.append("exporting the export changed it")
    for f in failures[:10]:
        print("FAIL", f)
    print(f"pgn round trip: {len(games)} games, {len(broken_at)} broken, {len(back)} back; "
          f"{1 if not failures else 0} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
