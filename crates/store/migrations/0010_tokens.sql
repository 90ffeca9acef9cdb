-- Personal API tokens, as lichess's: an account's bearer tokens with their scopes. Only the
-- SHA-256 of a token is stored, as for sessions.
CREATE TABLE tokens (
    id          TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL UNIQUE,
    user_id     TEXT NOT NULL REFERENCES users (id),
    description TEXT NOT NULL,
    -- The scopes, comma-separated as lichess writes them (`bot:play,challenge:read`).
    scopes      TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    used_at     BIGINT
);
CREATE INDEX tokens_by_user ON tokens (user_id);

-- An account's title: `BOT` once it is upgraded to a bot account (for good).
ALTER TABLE users ADD COLUMN title TEXT;
