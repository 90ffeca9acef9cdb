-- Each account's standing per speed class (bullet, blitz, rapid, classical, correspondence):
-- Glicko-2, the FIDE-method Elo and the level scheme's points, with the games behind them.
CREATE TABLE ratings (
    user_id     TEXT NOT NULL REFERENCES users (id),
    class       TEXT NOT NULL,
    glicko      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    rated_at    BIGINT,
    elo         BIGINT NOT NULL,
    elo_games   BIGINT NOT NULL,
    elo_2400    BIGINT NOT NULL,
    -- In hundredths, so that every amount of the scheme is exact.
    points      BIGINT NOT NULL,
    games       BIGINT NOT NULL,
    wins        BIGINT NOT NULL,
    draws       BIGINT NOT NULL,
    losses      BIGINT NOT NULL,
    PRIMARY KEY (user_id, class)
);

-- What a rated game did to each player's ratings: the archive shows it, the profile's chart
-- draws it.
CREATE TABLE game_ratings (
    game_id           TEXT NOT NULL REFERENCES games (id),
    color             TEXT NOT NULL,
    user_id           TEXT NOT NULL REFERENCES users (id),
    class             TEXT NOT NULL,
    at                BIGINT NOT NULL,
    glicko_before     DOUBLE PRECISION NOT NULL,
    deviation_before  DOUBLE PRECISION NOT NULL,
    glicko_after      DOUBLE PRECISION NOT NULL,
    deviation_after   DOUBLE PRECISION NOT NULL,
    elo_before        BIGINT NOT NULL,
    elo_after         BIGINT NOT NULL,
    points_before     BIGINT NOT NULL,
    points_after      BIGINT NOT NULL,
    PRIMARY KEY (game_id, color)
);
CREATE INDEX game_ratings_by_user ON game_ratings (user_id, class, at);
