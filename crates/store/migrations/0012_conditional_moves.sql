-- Conditional premoves of correspondence games: each side's lines, kept apart from the game's
-- commands (they are private to the player and change without a move).
CREATE TABLE conditional_moves (
    game_id     TEXT NOT NULL,
    -- 0 White, 1 Black.
    side        INTEGER NOT NULL,
    -- One line a text line: the moves in UCI, separated by spaces, the opponent's first.
    lines       TEXT NOT NULL,
    PRIMARY KEY (game_id, side)
);
