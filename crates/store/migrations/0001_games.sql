-- Portable SQL: the same migrations run on SQLite and PostgreSQL.
-- Games and the accepted arbiter commands that make them up; replaying a game's commands
-- in order rebuilds it, clocks included.
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    started_at  BIGINT,
    setup       TEXT NOT NULL,
    white       TEXT NOT NULL,
    black       TEXT NOT NULL,
    invite      TEXT,
    seed        BIGINT NOT NULL,
    result      TEXT,
    reason      TEXT,
    ended_at    BIGINT
);
CREATE INDEX games_live ON games (result);

CREATE TABLE commands (
    game_id     TEXT NOT NULL REFERENCES games (id),
    seq         BIGINT NOT NULL,
    at_ms       BIGINT NOT NULL,
    command     TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Server-wide secrets, such as the key that signs player cookies.
CREATE TABLE secrets (
    name        TEXT PRIMARY KEY,
    value       TEXT NOT NULL
);
