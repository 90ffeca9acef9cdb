//! Calendar dates for PGN `Date` tags (UTC).

/// `YYYY.MM.DD` of the UTC day containing `unix_ms`.
pub fn pgn_date(unix_ms: u64) -> String {
    let at = time::OffsetDateTime::from_unix_timestamp((unix_ms / 1000) as i64)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}.{:02}.{:02}",
        at.year(),
        u8::from(at.month()),
        at.day()
    )
}

/// The UTC calendar year of `unix_ms`.
pub fn year(unix_ms: u64) -> i64 {
    time::OffsetDateTime::from_unix_timestamp((unix_ms / 1000) as i64)
        .map_or(1970, |at| at.year() as i64)
}

/// The UTC instant `unix_ms` in ISO 8601 (`2026-12-07T00:00:00Z`), to the second.
pub fn iso(unix_ms: u64) -> String {
    let at = time::OffsetDateTime::from_unix_timestamp((unix_ms / 1000) as i64)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_764_460_800_000), "2025.11.30");
        assert_eq!(iso(1_764_460_800_000), "2025-11-30T00:00:00Z");
    }
}
