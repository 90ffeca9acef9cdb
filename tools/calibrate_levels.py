#!/usr/bin/env python3
"""Measures the Elo of every playing level with `vizier match`, on Stockfish's UCI_Elo scale.

Works down from the top level. Each level plays the opponent whose Elo is closest to the
level's expected Elo: Stockfish 15.1 limited to UCI_Elo 1350, 1800 or 2300 (anchors, taken at
their nominal Elo), or a level measured before it (the ladder, which reaches below Stockfish's
lowest setting). A one-sided result (under 15% or over 85%) is replayed against a better
matched opponent. The published ratings are one maximum-likelihood fit of all the matches
together (anchors fixed at their nominal Elo), with 95% intervals from the fit's Fisher
information. Prints a Markdown table for the README and the `MEASURED` array for
crates/engine/src/level.rs.

usage: calibrate_levels.py VIZIER [GAMES_PER_LEVEL] [TC] [CONCURRENCY]
       calibrate_levels.py --log FILE     (refit from the "levelN vs X: +W =D -L" lines of a run)
       (defaults: 40 games, 10+0.1, 2 at a time; openings from shared/data/openings.epd)"""

import json
import math
import os
import re
import subprocess
import sys
import tempfile

ANCHORS = {"sf1350": 1350, "sf1800": 1800, "sf2300": 2300}
LEVELS = range(10, 0, -1)
FIRST_GUESS = 2050  # the top level's expected Elo, only used to pick its first opponent
STEP_GUESS = 160  # expected drop from one level to the next


def engines(vizier: str) -> dict:
    table = {
        name: {
            "protocol": "uci",
            "command": ["/usr/games/stockfish"],
            "options": {"Threads": 1, "Hash": 16, "UCI_LimitStrength": True, "UCI_Elo": elo},
        }
        for name, elo in ANCHORS.items()
    }
    for level in LEVELS:
        table[f"level{level}"] = {
            "protocol": "uci",
            "command": [vizier, "uci"],
            "options": {"Hash": 16, "Level": level},
        }
    return table


def play(vizier: str, table: str, a: str, b: str, games: int, tc: str, conc: int, openings: str, pgn: str):
    out = subprocess.run(
        [vizier, "match", a, b, "--engines", table, "--games", str(games), "--tc", tc,
         "--openings", openings, "--concurrency", str(conc), "--pgn", pgn],
        capture_output=True, text=True, check=True,
    ).stdout
    w, d, l = map(int, re.search(r"score: \+(\d+) =(\d+) -(\d+)", out).groups())
    return w, d, l


def elo_diff(w: int, d: int, l: int):
    """Elo difference and its 95% half-interval from a result (trinomial variance)."""
    n = w + d + l
    s = (w + d / 2) / n
    s = min(max(s, 0.5 / n), 1 - 0.5 / n)  # a clean sweep still gives a finite estimate
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n / n
    var = max(var, 0.25 / n / n)
    diff = -400 * math.log10(1 / s - 1)
    slope = 400 / math.log(10) / (s * (1 - s))
    return diff, 1.96 * math.sqrt(var) * slope, s


def fit(matches):
    """Maximum-likelihood ratings of the levels from (level, opponent, wins, draws, losses),
    anchors fixed; returns {name: (elo, 95% half-interval)}."""
    names = sorted({m[0] for m in matches} | {m[1] for m in matches if m[1] not in ANCHORS},
                   key=level_key)
    rating = {n: 1500.0 for n in names} | {k: float(v) for k, v in ANCHORS.items()}
    c = math.log(10) / 400

    def expected(a, b):
        return 1 / (1 + 10 ** (-(rating[a] - rating[b]) / 400))

    for _ in range(20000):  # gradient ascent on the log-likelihood: small and certain to converge
        grad = dict.fromkeys(names, 0.0)
        for a, b, w, d, l in matches:
            g = (w + d / 2 - (w + d + l) * expected(a, b)) * c
            grad[a] += g
            if b in grad:
                grad[b] -= g
        for n in names:
            rating[n] += 400 * grad[n]
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    info = [[0.0] * k for _ in range(k)]
    for a, b, w, d, l in matches:
        q = expected(a, b)
        f = (w + d + l) * q * (1 - q) * c * c
        info[index[a]][index[a]] += f
        if b in index:
            info[index[b]][index[b]] += f
            info[index[a]][index[b]] -= f
            info[index[b]][index[a]] -= f
    # Invert the information matrix (Gauss-Jordan) for the variances.
    m = [row + [1.0 if i == j else 0.0 for j in range(k)] for i, row in enumerate(info)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        m[col] = [x / p for x in m[col]]
        for r in range(k):
            if r != col:
                f = m[r][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return {n: (rating[n], 1.96 * math.sqrt(m[index[n]][k + index[n]])) for n in names}


def level_key(name: str):
    """Sort key of "level8" (a level as it plays now) and "level8@tag" (an earlier version of
    it, whose games link the current one to the scale): by level, the current version first."""
    level, _, tag = name[5:].partition("@")
    return int(level), tag


def report(matches) -> None:
    # Earlier versions of a level take part in the fit but are not reported.
    ratings = {n: r for n, r in fit(matches).items() if "@" not in n}
    print("| Level | Elo | ± (95%) | Games | Results (the level's wins, draws, losses) |")
    print("|------:|----:|--------:|------:|-------------------------------------------|")
    for name, (elo, err) in ratings.items():
        mine = [m for m in matches if m[0] == name]
        games = sum(w + d + l for _, _, w, d, l in mine)
        results = ", ".join(f"{b} +{w} ={d} -{l}" for _, b, w, d, l in mine)
        print(f"| {name[5:]} | {elo:.0f} | {err:.0f} | {games} | {results} |")
    print()
    print("pub const MEASURED: &[(u8, i32, i32)] = &[")
    for name, (elo, err) in ratings.items():
        print(f"    ({name[5:]}, {elo:.0f}, {err:.0f}),")
    print("];")


def main() -> int:
    if sys.argv[1] == "--log":
        pattern = re.compile(r"(level\d+(?:@\S+)?) vs (\S+): \+(\d+) =(\d+) -(\d+)")
        matches = [(m[1], m[2], int(m[3]), int(m[4]), int(m[5]))
                   for m in map(pattern.match, open(sys.argv[2])) if m]
        report(matches)
        return 0
    vizier = os.path.abspath(sys.argv[1])
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    tc = sys.argv[3] if len(sys.argv) > 3 else "10+0.1"
    conc = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    openings = os.path.join(root, "..", "shared", "data", "openings.epd")
    work = tempfile.mkdtemp(prefix="vizier-levels-")
    table = os.path.join(work, "engines.json")
    with open(table, "w") as f:
        json.dump(engines(vizier), f)
    known = {name: (elo, 0.0) for name, elo in ANCHORS.items()}
    matches = []
    runs = []
    expected = FIRST_GUESS
    for level in LEVELS:
        me = f"level{level}"
        tried = set()
        while True:
            opponent = min((n for n in known if n not in tried), key=lambda n: abs(known[n][0] - expected))
            tried.add(opponent)
            w, d, l = play(vizier, table, me, opponent, games, tc, conc, openings, os.path.join(work, f"{me}.pgn"))
            diff, margin, score = elo_diff(w, d, l)
            elo = known[opponent][0] + diff
            err = math.hypot(margin, known[opponent][1])
            runs.append((opponent, w, d, l, elo, err))
            matches.append((me, opponent, w, d, l))
            print(f"{me} vs {opponent}: +{w} ={d} -{l} ({100 * score:.0f}%) -> {elo:.0f} ± {err:.0f}", file=sys.stderr, flush=True)
            one_sided = score < 0.15 or score > 0.85
            better = min((n for n in known if n not in tried), key=lambda n: abs(known[n][0] - elo), default=None)
            if one_sided and better is not None and abs(known[better][0] - elo) < abs(known[opponent][0] - elo):
                expected = elo
                continue
            break
        # The next levels choose opponents by this level's rating so far (all its matches,
        # each weighted by its precision); the table comes from the joint fit below.
        weights = [1 / r[5] ** 2 for r in runs]
        elo = sum(wt * r[4] for wt, r in zip(weights, runs)) / sum(weights)
        known[me] = (elo, 1 / math.sqrt(sum(weights)))
        runs = []
        expected = elo - STEP_GUESS
    report(matches)
    print(f"games and PGN in {work}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
