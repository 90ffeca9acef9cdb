-- A player's unfinished games are counted at every new game: find them by seat, not by
-- scanning every live game.
CREATE INDEX games_white ON games (white, result);
CREATE INDEX games_black ON games (black, result);
