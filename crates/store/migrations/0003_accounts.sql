-- Accounts and their sessions. A user's id is a player id, as the games' seats hold: the
-- guest id of the browser that signed up, so that its games stay theirs.
CREATE TABLE users (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    -- The name as compared: names are unique ignoring case.
    name_key    TEXT NOT NULL UNIQUE,
    -- An argon2id hash in PHC form; empty once the account is closed.
    password    TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    closed_at   BIGINT,
    lang        TEXT,
    sound       BIGINT
);

-- A signed-in browser. The cookie holds a random token; only its SHA-256 is stored.
CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL UNIQUE,
    user_id     TEXT NOT NULL REFERENCES users (id),
    created_at  BIGINT NOT NULL,
    seen_at     BIGINT NOT NULL,
    address     TEXT NOT NULL,
    agent       TEXT NOT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);
