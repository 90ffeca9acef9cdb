#!/usr/bin/env python3
"""Reads PGN files with `vizier pgn` and with python-chess and compares, game by game, which
games each keeps and what it keeps of them: the main line, every variation, the comments
and NAGs, the tags. Differences are listed with the game's number; the exit status is 1 if
one is not among the known ones (KNOWN below, each with its reason).

usage: pgn_vs_python.py VIZIER_BINARY FILE.pgn..."""

import io
import logging
import re
import subprocess
import sys

import chess
import chess.pgn

# Differences that come from a deliberate choice, by kind (see docs/testing.md).
KNOWN = {
    # python-chess accepts a null move by a side in check; Vizier refuses the game (the king
    # could then be taken).
    "null move in check",
    # A byte that is not UTF-8 is read by Vizier as ISO 8859-1, the PGN standard's own
    # character set; python-chess, given the text as UTF-8, sees U+FFFD.
    "latin-1",
}


def python_games(path: str) -> list:
    """Each game as python-chess reads it: (errors, summary). Games are found first by their
    offsets, so that a game python-chess fails on does not shift the ones after it."""
    games = []
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        offsets = []
        while True:
            offset = f.tell()
            if not chess.pgn.skip_game(f):
                break
            offsets.append(offset)
        for offset in offsets:
            f.seek(offset)
            try:
                game = chess.pgn.read_game(f)
                games.append((game.errors, summary(game)))
            except Exception as e:  # python-chess's own failure, reported as such
                games.append(([f"python-chess raised {type(e).__name__}: {e}"], None))
    return games


def summary(game) -> dict:
    """What a reader kept of a game: every line's moves with their NAGs and comments."""
    def line(node) -> list:
        out = []
        for child in node.variations:
            # The export format rewraps comments: only their words count.
            comment = " ".join(child.comment.split())
            out.append((child.move.uci(), sorted(child.nags), comment, line(child)))
        return out

    tags = {k: v for k, v in game.headers.items()}
    return {
        "fen": game.board().fen(),
        "tree": line(game),
        "end": game.end().board().fen(),
        "tags": tags,
    }


def vizier_games(binary: str, path: str):
    """The games `vizier pgn` keeps (read back by python-chess) and the numbers it rejects."""
    run = subprocess.run([binary, "pgn", path], capture_output=True)
    rejected = {}
    for line in run.stderr.decode("utf-8", "replace").splitlines():
        m = re.search(r": game (\d+), line \d+, column \d+: (.*)$", line)
        if m:
            rejected[int(m.group(1))] = m.group(2)
    kept = []
    text = io.StringIO(run.stdout.decode("utf-8"))
    while True:
        game = chess.pgn.read_game(text)
        if game is None:
            break
        if game.errors:
            raise AssertionError(f"python-chess cannot read Vizier's export: {game.errors}")
        got = summary(game)
        # python-chess does not decode the PGN standard's escapes in tag values.
        got["tags"] = {k: re.sub(r'\\(["\\])', r"\1", v) for k, v in got["tags"].items()}
        kept.append(got)
    return kept, rejected


def explain(reason: str) -> str:
    if "while in check" in reason and "null move" in reason:
        return "null move in check"
    return reason


def compare(binary: str, path: str) -> tuple:
    theirs = python_games(path)
    ours, rejected = vizier_games(binary, path)
    problems, known, both_rejected = [], [], []
    kept = iter(ours)
    for number, (errors, want) in enumerate(theirs, 1):
        if number in rejected:
            if errors:
                both_rejected.append(f"game {number}: Vizier: {rejected[number]}; "
                                     f"python-chess: {errors[0]}")
                continue
            why = explain(rejected[number])
            (known if why in KNOWN else problems).append(
                f"game {number}: rejected by Vizier ({rejected[number]}); python-chess kept it")
            continue
        got = next(kept, None)
        if got is None:
            problems.append(f"game {number}: missing from Vizier's output")
            continue
        if errors:
            problems.append(f"game {number}: python-chess failed ({errors[0]}), Vizier kept it")
            continue
        for key in ("fen", "tree", "end"):
            if got[key] != want[key]:
                problems.append(f"game {number}: {key} differs")
        for k, v in want["tags"].items():
            mine = got["tags"].get(k)
            if mine == v:
                continue
            text = f"game {number}: tag {k} {v!r} is {mine!r} in Vizier"
            latin1 = "\ufffd" in v and re.fullmatch(re.escape(v).replace("\ufffd", "."), mine or "")
            (known if latin1 else problems).append(text + (" (latin-1)" if latin1 else ""))
    if next(kept, None) is not None:
        problems.append("Vizier wrote more games than python-chess read")
    return len(theirs), problems, known, both_rejected


def main() -> int:
    binary, paths = sys.argv[1], sys.argv[2:]
    # python-chess logs each error it recovers from; they are counted here instead.
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    total, failed, explained, rejected = 0, 0, 0, 0
    for path in paths:
        games, problems, known, both_rejected = compare(binary, path)
        total += games
        for p in both_rejected:
            print(f"{path}: both reject: {p}")
        for p in known:
            print(f"{path}: known: {p}")
        for p in problems:
            print(f"{path}: {p}")
        failed += len(problems)
        explained += len(known)
        rejected += len(both_rejected)
    print(f"{total} games in {len(paths)} files: {rejected} rejected by both, {explained} known "
          f"differences, {failed} unexplained")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
