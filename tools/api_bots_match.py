#!/usr/bin/env python3
"""Two bots play each other through the lichess Bot API, as lichess-bot drives it: each
follows its event stream, accepts the other's challenges, streams each game and answers every
state where it is to move with a move from `vizier uci` (within a small share of its clock).

It checks that no acknowledged move is lost (every move the server answered `{"ok": true}` is
in the game's moves) and that no game is lost on time (the engines use a sliver of their
clocks: a flag would be the server's fault), and it measures each move's round trip on
loopback: from the POST to its answer, and from the POST to the move coming back down the
opponent's stream.

    python3 tools/api_bots_match.py target/fast/vizier [games] [minutes+increment]
"""

import json
import queue
import statistics
import sys
import threading
import time

import chess
import chess.engine
import requests

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from api_clients import Server  # noqa: E402


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


class Bot:
    def __init__(self, base, name, token, binary):
        self.base, self.name, self.token = base, name, token
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        self.engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
        self.events = queue.Queue()
        self.acked = {}        # game -> moves the server acknowledged
        self.post_ms = []      # POST to its answer
        self.sent_at = {}      # (game, ply) -> when the POST was sent
        self.results = {}
        threading.Thread(target=self.follow_events, daemon=True).start()

    def lines(self, path):
        with self.http.get(self.base + path, stream=True, timeout=60) as r:
            r.raise_for_status()
            for raw in r.iter_lines():
                if raw.strip():
                    yield json.loads(raw)

    def follow_events(self):
        for event in self.lines("/api/stream/event"):
            if event["type"] == "challenge" and event["challenge"]["direction"] == "in":
                self.http.post(self.base + f"/api/challenge/{event['challenge']['id']}/accept")
            self.events.put(event)

    def play(self, game, color, opponent):
        """Plays `color` in `game` until it ends: its last state."""
        me = chess.WHITE if color == "white" else chess.BLACK
        self.acked[game] = []
        state = None
        for line in self.lines(f"/api/bot/game/stream/{game}"):
            if line["type"] == "gameFull":
                state = line["state"]
            elif line["type"] == "gameState":
                state = line
            else:
                continue
            moves = state["moves"].split()
            seen = time.perf_counter()
            # The opponent's latest move reached this stream: its round trip.
            key = (game, len(moves))
            if key in opponent.sent_at:
                opponent.trip_ms.append((seen - opponent.sent_at.pop(key)) * 1000)
            if state["status"] != "started":
                self.results[game] = state
                return state
            board = chess.Board()
            for m in moves:
                board.push_uci(m)
            if board.turn != me:
                continue
            left = (state["wtime"] if me == chess.WHITE else state["btime"]) / 1000
            inc = (state["winc"] if me == chess.WHITE else state["binc"]) / 1000
            think = max(0.01, min(0.3, left / 60 + inc / 2))
            move = self.engine.play(board, chess.engine.Limit(time=think)).move.uci()
            sent = time.perf_counter()
            self.sent_at[(game, len(moves) + 1)] = sent
            r = self.http.post(self.base + f"/api/bot/game/{game}/move/{move}")
            self.post_ms.append((time.perf_counter() - sent) * 1000)
            if r.status_code == 200 and r.json() == {"ok": True}:
                self.acked[game].append((len(moves), move))
        return state


def main():
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    minutes, increment = (sys.argv[3] if len(sys.argv) > 3 else "1+0").split("+")
    limit, inc = int(float(minutes) * 60), int(increment)
    server = Server(binary)
    try:
        bots = []
        for name in ("Alpha", "Beta"):
            token = server.account(name, ["bot:play"])
            r = requests.post(server.base + "/api/bot/account/upgrade",
                              headers={"Authorization": f"Bearer {token}"})
            assert r.json() == {"ok": True}, r.text
            bots.append(Bot(server.base, name, token, binary))
        for b in bots:
            b.trip_ms = []
        time.sleep(0.5)
        outcomes = []
        for n in range(games):
            challenger, other = (bots[0], bots[1]) if n % 2 == 0 else (bots[1], bots[0])
            r = challenger.http.post(server.base + f"/api/challenge/{other.name}",
                                     data={"clock.limit": limit, "clock.increment": inc,
                                           "color": "white"})
            assert r.status_code == 200, r.text
            start = {}
            for b in bots:
                while True:
                    e = b.events.get(timeout=30)
                    if e["type"] == "gameStart":
                        start[b.name] = e["game"]
                        break
            game = start[challenger.name]["gameId"]
            threads = [threading.Thread(target=b.play,
                                        args=(game, start[b.name]["color"], bots[1 - i]))
                       for i, b in enumerate(bots)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=limit * 3 + 120)
            final = bots[0].results[game]
            moves = final["moves"].split()
            for b in bots:
                for ply, move in b.acked[game]:
                    assert ply < len(moves) and moves[ply] == move, \
                        f"game {game}: acknowledged move {move} at ply {ply} is lost"
            assert final["status"] not in ("outoftime", "timeout"), \
                f"game {game} was lost on time: {final}"
            outcomes.append((game, final["status"], final.get("winner", "-"), len(moves)))
            print(f"game {n + 1}: {game} {final['status']} {final.get('winner', 'draw')} "
                  f"in {len(moves)} plies", flush=True)
        post = [ms for b in bots for ms in b.post_ms]
        trip = [ms for b in bots for ms in b.trip_ms]
        acked = sum(len(b.acked[g]) for b in bots for g in b.acked)
        print(f"{games} games at {minutes}+{increment}: {acked} acknowledged moves, none lost, "
              f"no game lost on time")
        print(f"POST move to answer: p50 {statistics.median(post):.1f} ms, "
              f"p99 {percentile(post, 99):.1f} ms, max {max(post):.1f} ms")
        print(f"POST move to the opponent's stream: p50 {statistics.median(trip):.1f} ms, "
              f"p99 {percentile(trip, 99):.1f} ms, max {max(trip):.1f} ms")
        for b in bots:
            b.engine.quit()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
