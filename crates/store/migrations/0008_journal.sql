-- Commands as they are stored, in order: a commit appends at the end of this table instead of
-- touching one page of the `commands` index for each game in it. The writer folds them into
-- `commands` a few seconds later, sorted by game, and deletes them here; at start-up whatever
-- is left is folded first. A game's commands are all in `commands` from the commit that ends it.
CREATE TABLE journal (
    pos         BIGINT PRIMARY KEY,
    game_id     TEXT NOT NULL REFERENCES games (id),
    seq         BIGINT NOT NULL,
    at_ms       BIGINT NOT NULL,
    command     TEXT NOT NULL
);
