-- The archive: what a player's games are filtered by, stored with each game. The speed class
-- and rated flag are known when a game is created, the opening when it ends.
ALTER TABLE games ADD COLUMN speed TEXT;
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN eco TEXT;
ALTER TABLE games ADD COLUMN opening TEXT;
-- A player's finished games, newest first.
CREATE INDEX games_white_ended ON games (white, ended_at);
CREATE INDEX games_black_ended ON games (black, ended_at);
