#!/usr/bin/env python3
"""The lichess Bot and Board API as lichess's own clients use it.

berserk (the lichess client on PyPI), pointed at a Vizier server, upgrades an account to a
bot, streams its events, accepts a challenge sent by a second account and plays a whole game
with moves from `vizier uci`, while the second account plays its side through the Board API.
Every line of every stream is checked against the field names of lichess's published API
(the schemas of the lichess-org/api specification): the fields it must have, and no field
that lichess does not name.

    python3 tools/api_clients.py target/debug/vizier
"""

import json
import queue
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import berserk
import chess
import chess.engine
import requests

# lichess's names, from the API specification's schemas.
STATUS_NAMES = {
    "created", "started", "aborted", "mate", "resign", "stalemate", "timeout", "draw",
    "outoftime", "cheat", "noStart", "unknownFinish", "insufficientMaterialClaim", "variantEnd",
}
SPEEDS = {"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}
SCHEMAS = {
    # (required, optional)
    "gameFull": ({"type", "id", "variant", "speed", "perf", "rated", "createdAt", "white",
                  "black", "initialFen", "state"}, {"clock", "daysPerTurn", "tournamentId"}),
    "gameState": ({"type", "moves", "wtime", "btime", "winc", "binc", "status"},
                  {"winner", "wdraw", "bdraw", "wtakeback", "btakeback", "expiration", "rematch"}),
    "chatLine": ({"type", "room", "username", "text"}, set()),
    "opponentGone": ({"type", "gone"}, {"claimWinInSeconds"}),
    "player": ({"id", "name"}, {"title", "rating", "provisional", "aiLevel"}),
    "gameEvent": ({"fullId", "gameId"}, {
        "id", "fen", "color", "lastMove", "source", "status", "variant", "speed", "perf",
        "rated", "hasMoved", "opponent", "isMyTurn", "secondsLeft", "rating", "winner",
        "ratingDiff", "compat", "tournamentId", "swissId"}),
    "challenge": ({"id", "url", "status", "challenger", "destUser", "variant", "rated",
                   "speed", "timeControl", "color", "perf"},
                  {"finalColor", "direction", "initialFen", "rematchOf", "declineReason",
                   "declineReasonKey"}),
    "challengeUser": ({"id", "name"}, {"rating", "title", "provisional", "online", "lag",
                                       "flair", "patron"}),
}
EVENT_TYPES = {"gameStart", "gameFinish", "challenge", "challengeCanceled",
               "challengeDeclined"}


def check(kind, obj, where):
    required, optional = SCHEMAS[kind]
    keys = set(obj)
    missing = required - keys
    unknown = keys - required - optional
    assert not missing, f"{where}: {kind} lacks {sorted(missing)}: {obj}"
    assert not unknown, f"{where}: {kind} has fields lichess does not name {sorted(unknown)}"


def check_game_line(line, where):
    kind = line.get("type")
    assert kind in ("gameFull", "gameState", "chatLine", "opponentGone"), f"{where}: {line}"
    check(kind, line, where)
    if kind == "gameFull":
        check("gameState", line["state"], where + " state")
        assert line["state"]["type"] == "gameState"
        assert line["speed"] in SPEEDS
        assert set(line["variant"]) <= {"key", "name", "short"}
        for side in ("white", "black"):
            check("player", line[side], f"{where} {side}")
        state = line["state"]
    elif kind == "gameState":
        state = line
    else:
        return
    assert state["status"] in STATUS_NAMES, state
    for clock in ("wtime", "btime", "winc", "binc"):
        assert isinstance(state[clock], int), state


def check_event(event, where):
    kind = event.get("type")
    assert kind in EVENT_TYPES, f"{where}: {event}"
    if kind in ("gameStart", "gameFinish"):
        assert set(event) == {"type", "game"}, event
        check("gameEvent", event["game"], where)
        assert event["game"]["status"]["name"] in STATUS_NAMES
    else:
        assert set(event) <= {"type", "challenge", "compat"}, event
        c = event["challenge"]
        check("challenge", c, where)
        for who in ("challenger", "destUser"):
            check("challengeUser", c[who], f"{where} {who}")
        if kind == "challengeDeclined":
            assert c["declineReasonKey"] == c["declineReasonKey"].lower()


class Server:
    def __init__(self, binary):
        self.dir = tempfile.mkdtemp(prefix="vizier-api-")
        self.proc = subprocess.Popen(
            [binary, "serve", "--port", "0", "--data-dir", self.dir],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in self.proc.stdout:
            m = re.search(r"open (http://[\d.:]+)/", line)
            if m:
                self.base = m.group(1)
                break
        else:
            raise SystemExit("the server did not start")
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    def account(self, name, scopes):
        """Signs up `name` and makes a token with `scopes`: the token."""
        s = requests.Session()
        r = s.post(self.base + "/signup", json={"username": name, "password": "correct horse 42"})
        assert r.ok, r.text
        r = s.post(self.base + "/api/account/tokens",
                   json={"description": f"{name}'s client", "scopes": scopes})
        assert r.ok, r.text
        return r.json()["token"]

    def stop(self):
        self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def raw_lines(base, path, token, into, stop):
    """Reads an NDJSON stream line by line, as sent, into a queue (blank lines too)."""
    with requests.get(base + path, headers={"Authorization": f"Bearer {token}"},
                      stream=True, timeout=30) as r:
        assert r.status_code == 200, (path, r.status_code, r.text)
        assert r.headers["content-type"].startswith("application/x-ndjson"), r.headers
        for raw in r.iter_lines():
            into.put(json.loads(raw) if raw.strip() else None)
            if stop.is_set():
                return
    into.put("closed")


def play(client, api, game_id, me, choose, lines, where):
    """Plays `me`'s side of a game from its stream: returns the last state."""
    state = None
    for line in api.stream_game_state(game_id):
        if line.get("type") == "gameFull":
            state = line["state"]
        elif line.get("type") == "gameState":
            state = line
        else:
            continue
        lines.append(line)
        if state["status"] != "started":
            return state
        moves = state["moves"].split()
        board = chess.Board()
        for m in moves:
            board.push_uci(m)
        if (board.turn == chess.WHITE) == (me == "white"):
            api.make_move(game_id, choose(board))
    return state


def main():
    binary = sys.argv[1]
    server = Server(binary)
    base = server.base
    try:
        bot_token = server.account("Botty", ["bot:play", "challenge:read", "challenge:write"])
        human_token = server.account("Human", ["board:play", "challenge:read", "challenge:write"])
        bot = berserk.Client(berserk.TokenSession(bot_token), base_url=base)
        human = berserk.Client(berserk.TokenSession(human_token), base_url=base)

        # Tokens: lichess's test answer, and its refusals.
        tested = bot.oauth.test_tokens(bot_token, "vzp_nosuchtoken")
        assert tested["vzp_nosuchtoken"] is None, tested
        assert tested[bot_token]["userId"] == "botty", tested
        assert set(tested[bot_token]["scopes"].split(",")) == {
            "bot:play", "challenge:read", "challenge:write"}, tested
        r = requests.get(base + "/api/stream/event",
                         headers={"Authorization": "Bearer vzp_nosuchtoken"})
        assert r.status_code == 401 and r.json() == {"error": "No such token"}, r.text
        r = requests.post(base + "/api/bot/account/upgrade",
                          headers={"Authorization": f"Bearer {human_token}"})
        assert r.status_code == 403 and r.json()["error"].startswith("Missing scope"), r.text

        # The bot account.
        r = requests.get(base + "/api/bot/game/stream/nosuchgame",
                         headers={"Authorization": f"Bearer {bot_token}"})
        assert r.status_code == 400 and "Bot account" in r.json()["error"], r.text
        bot.account.upgrade_to_bot()
        assert bot.account.get()["title"] == "BOT"
        assert requests.get(base + "/api/user/botty").json()["title"] == "BOT"

        # Both event streams, read raw to check every line.
        stop = threading.Event()
        bot_events, human_events = queue.Queue(), queue.Queue()
        for token, into in ((bot_token, bot_events), (human_token, human_events)):
            threading.Thread(target=raw_lines, args=(base, "/api/stream/event", token, into, stop),
                             daemon=True).start()
        time.sleep(0.5)
        status = requests.get(base + "/api/users/status", params={"ids": "botty,human"}).json()
        assert [s.get("online") for s in status] == [True, True], status
        online = [json.loads(l) for l in requests.get(base + "/api/bot/online").text.splitlines()]
        assert [b["username"] for b in online] == ["Botty"], online

        def next_event(events, kind, seen):
            deadline = time.time() + 20
            while time.time() < deadline:
                try:
                    e = events.get(timeout=1)
                except queue.Empty:
                    continue
                if e is None:
                    continue
                check_event(e, kind)
                seen.append(e)
                if e["type"] == kind:
                    return e
            raise AssertionError(f"no {kind} event; saw {seen}")

        bot_seen, human_seen = [], []
        # A challenge declined, with a bot's reason.
        sent = human.challenges.create("Botty", rated=False, clock_limit=60, clock_increment=1)
        check("challenge", sent, "challenge answer")
        incoming = next_event(bot_events, "challenge", bot_seen)["challenge"]
        assert incoming["direction"] == "in" and incoming["challenger"]["name"] == "Human"
        bot.bots.decline_challenge(incoming["id"], reason="tooFast")
        declined = next_event(human_events, "challengeDeclined", human_seen)["challenge"]
        assert declined["declineReasonKey"] == "toofast", declined

        # The challenge that is played.
        sent = human.challenges.create("Botty", rated=False, clock_limit=180, clock_increment=2,
                                       color="white")
        incoming = next_event(bot_events, "challenge", bot_seen)["challenge"]
        assert incoming["id"] == sent["id"] and incoming["finalColor"] == "white", incoming
        bot.bots.accept_challenge(incoming["id"])
        start = next_event(bot_events, "gameStart", bot_seen)["game"]
        game_id = start["gameId"]
        assert start["color"] == "black" and start["opponent"]["username"] == "Human", start
        assert next_event(human_events, "gameStart", human_seen)["game"]["gameId"] == game_id

        playing = requests.get(base + "/api/account/playing",
                               headers={"Authorization": f"Bearer {human_token}"}).json()
        assert [g["gameId"] for g in playing["nowPlaying"]] == [game_id], playing
        for g in playing["nowPlaying"]:
            check("gameEvent", g, "nowPlaying")

        # A raw copy of the bot's game stream, for its lines as sent.
        raw = queue.Queue()
        threading.Thread(target=raw_lines,
                         args=(base, f"/api/bot/game/stream/{game_id}", bot_token, raw, stop),
                         daemon=True).start()

        engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
        rng = random.Random(7)
        results, lines = {}, {"bot": [], "human": []}

        def bot_move(board):
            return engine.play(board, chess.engine.Limit(time=0.05)).move.uci()

        def human_move(board):
            return rng.choice(list(board.legal_moves)).uci()

        threads = [
            threading.Thread(target=lambda: results.__setitem__(
                "bot", play(bot, bot.bots, game_id, "black", bot_move, lines["bot"], "bot"))),
            threading.Thread(target=lambda: results.__setitem__(
                "human", play(human, human.board, game_id, "white", human_move, lines["human"],
                              "board"))),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        engine.quit()
        assert results.get("bot") and results.get("human"), "a side's stream never ended"
        final = results["bot"]
        assert final["status"] == "mate" and final.get("winner") == "black", final
        assert results["human"]["moves"] == final["moves"]

        finish = next_event(bot_events, "gameFinish", bot_seen)["game"]
        assert finish["status"]["name"] == "mate" and finish["winner"] == "black", finish
        next_event(human_events, "gameFinish", human_seen)

        raw_seen = []
        while True:
            line = raw.get(timeout=20)
            if line == "closed":
                break
            if line is not None:
                check_game_line(line, "bot stream")
                raw_seen.append(line)
        assert raw_seen[0]["type"] == "gameFull", raw_seen[0]
        assert raw_seen[-1]["status"] == "mate", raw_seen[-1]

        pgn = requests.get(base + f"/game/export/{game_id}").text
        assert '[Result "0-1"]' in pgn, pgn
        moves = final["moves"].split()
        stop.set()
        print(f"api clients: berserk played game {game_id} to mate in {len(moves)} plies; "
              f"{len(raw_seen)} game-stream lines and "
              f"{len(bot_seen) + len(human_seen)} events matched lichess's fields")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
