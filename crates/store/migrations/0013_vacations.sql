-- Correspondence vacations: each account's days taken in the current year and the vacation
-- under way, if any.
CREATE TABLE vacations (
    user_id     TEXT PRIMARY KEY,
    year        INTEGER NOT NULL,
    days_used   INTEGER NOT NULL,
    from_ms     BIGINT,
    until_ms    BIGINT
);
