//! Why the database failed, with what it was doing.

/// A database error, with what we were doing.
#[derive(Debug)]
pub enum StoreError {
    /// The data directory could not be created.
    DataDir {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// The database could not be opened (the URL is shown without its password).
    Open { url: String, source: sqlx::Error },
    /// The schema could not be brought up to date.
    Migrate(sqlx::migrate::MigrateError),
    /// The database opened but refuses writes.
    NotWritable(sqlx::Error),
    /// A query failed while `doing` something.
    Query {
        doing: &'static str,
        source: sqlx::Error,
    },
    /// A statement failed on the writer's own SQLite connection while `doing` something.
    Sqlite {
        doing: &'static str,
        source: rusqlite::Error,
    },
    /// The writer's thread could not be started.
    Writer(std::io::Error),
    /// The task that writes moves has stopped.
    WriterGone,
    /// A health check failed.
    Unhealthy(&'static str),
    /// A command numbered at or below one already stored for its game: two writers cannot
    /// both win a move.
    Duplicate { game: String, seq: i64 },
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::DataDir { path, source } => {
                write!(
                    f,
                    "cannot create the data directory {}: {source}",
                    path.display()
                )
            }
            StoreError::Open { url, source } => {
                write!(f, "cannot open the database {url}: {source}")
            }
            StoreError::Migrate(e) => write!(f, "cannot migrate the database: {e}"),
            StoreError::NotWritable(e) => write!(
                f,
                "the database cannot be written (read-only files, a full disk?): {e}"
            ),
            StoreError::Query { doing, source } => write!(f, "{doing}: {source}"),
            StoreError::Sqlite { doing, source } => write!(f, "{doing}: {source}"),
            StoreError::Writer(e) => write!(f, "cannot start the database writer: {e}"),
            StoreError::WriterGone => write!(f, "the database writer has stopped"),
            StoreError::Unhealthy(why) => f.write_str(why),
            StoreError::Duplicate { game, seq } => {
                write!(
                    f,
                    "game {game} already has a command numbered {seq} or later"
                )
            }
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::DataDir { source, .. } => Some(source),
            StoreError::Open { source, .. } | StoreError::Query { source, .. } => Some(source),
            StoreError::Sqlite { source, .. } => Some(source),
            StoreError::Migrate(e) => Some(e),
            StoreError::NotWritable(e) => Some(e),
            StoreError::Writer(e) => Some(e),
            StoreError::WriterGone | StoreError::Unhealthy(_) | StoreError::Duplicate { .. } => {
                None
            }
        }
    }
}

pub(super) fn err(doing: &'static str) -> impl Fn(sqlx::Error) -> StoreError {
    move |source| StoreError::Query { doing, source }
}

/// `url` with any password replaced by `***`, for messages and logs.
pub(super) fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(
            redacted("postgres://vizier:secret@127.0.0.1/db"),
            "postgres://vizier:***@127.0.0.1/db"
        );
        assert_eq!(redacted("sqlite://x.db?mode=rwc"), "sqlite://x.db?mode=rwc");
        assert_eq!(redacted("postgres://me@host/db"), "postgres://me@host/db");
    }
}
