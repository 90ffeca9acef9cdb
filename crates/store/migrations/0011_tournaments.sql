-- Tournaments: each one a document (its players, rounds, pairings and results as JSON, as
-- vizier-compete writes it), with the columns the lists are drawn from.
CREATE TABLE tournaments (
    id          TEXT PRIMARY KEY,
    -- `created`, `running` or `finished`.
    status      TEXT NOT NULL,
    starts_at   BIGINT NOT NULL,
    created_by  TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    data        TEXT NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);
