-- Each writer numbers its own journal rows, and a fold deletes only the rows of the writer that
-- folded them: two stores on one database (tests side by side, later several nodes) never take
-- each other's positions or delete each other's moves. Rows left by a writer before this have
-- writer 0; start-up folds them like any other.
CREATE TABLE journal_by_writer (
    writer      BIGINT NOT NULL,
    pos         BIGINT NOT NULL,
    game_id     TEXT NOT NULL REFERENCES games (id),
    seq         BIGINT NOT NULL,
    at_ms       BIGINT NOT NULL,
    command     TEXT NOT NULL,
    PRIMARY KEY (writer, pos)
);
INSERT INTO journal_by_writer (writer, pos, game_id, seq, at_ms, command)
    SELECT 0, pos, game_id, seq, at_ms, command FROM journal;
DROP TABLE journal;
ALTER TABLE journal_by_writer RENAME TO journal;
