-- A finished game's review: every position analysed, the moves judged (analysis::review's
-- JSON), kept with the game.
CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
