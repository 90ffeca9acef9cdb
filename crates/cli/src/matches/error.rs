//! Why a match could not be played: an engine that failed, a file that did not read, a flag
//! that did not parse, or an arbiter refusal the runner did not expect.

use std::fmt;
use std::path::PathBuf;

/// An engine that could not be driven.
#[derive(Debug)]
pub enum EngineError {
    /// The spec's protocol is neither `uci` nor `xboard`.
    UnknownProtocol { engine: String, protocol: String },
    /// The spec has no command.
    EmptyCommand { engine: String },
    /// The program could not be started.
    Start {
        engine: String,
        program: String,
        source: std::io::Error,
    },
    /// A line could not be sent: the engine stopped reading.
    Send {
        engine: String,
        source: std::io::Error,
    },
    /// The awaited answer did not come in time.
    Timeout { engine: String, awaited: String },
    /// The engine exited.
    Exited { engine: String },
    /// The engine's move line names no move.
    EmptyMove { engine: String },
    /// CECP cannot limit a search by nodes.
    NoNodeLimit { engine: String },
    /// A CECP engine without `setboard` can start only from the standard position.
    NoSetboard { engine: String },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownProtocol { engine, protocol } => {
                write!(f, "{engine}: unknown protocol {protocol} (uci or xboard)")
            }
            EngineError::EmptyCommand { engine } => write!(f, "{engine}: empty command"),
            EngineError::Start {
                engine,
                program,
                source,
            } => write!(f, "{engine}: cannot start {program}: {source}"),
            EngineError::Send { engine, source } => write!(f, "{engine}: {source}"),
            EngineError::Timeout { engine, awaited } => {
                write!(f, "{engine}: no '{awaited}' in time")
            }
            EngineError::Exited { engine } => write!(f, "{engine}: the engine exited"),
            EngineError::EmptyMove { engine } => write!(f, "{engine}: empty move"),
            EngineError::NoNodeLimit { engine } => write!(f, "{engine}: CECP has no node limit"),
            EngineError::NoSetboard { engine } => write!(
                f,
                "{engine}: declares no setboard, so it can start only from the standard position"
            ),
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::Start { source, .. } | EngineError::Send { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why `vizier match` stopped.
#[derive(Debug)]
pub enum MatchError {
    /// `--tc` is not BASE+INC, movetime=MS or nodes=N.
    TimeControl(String),
    /// `--draw` or `--resign` is not the expected numbers.
    Adjudication { flag: &'static str, text: String },
    /// `--sprt` is not ELO0,ELO1,ALPHA,BETA.
    Sprt(String),
    /// No engine of this name in the engines file.
    UnknownEngine { name: String, known: Vec<String> },
    /// A file could not be read or written.
    File {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The engines file is not the engines.json format.
    EnginesFile {
        path: PathBuf,
        source: serde_json::Error,
    },
    /// An opening's FEN does not read.
    Opening {
        path: PathBuf,
        line: usize,
        source: vizier_rules::FenError,
    },
    /// The openings file holds none.
    NoOpenings(PathBuf),
    /// This program's own path is unknown (to start `vizier uci`).
    OwnPath(std::io::Error),
    /// An engine failed outside a game, where no result can stand for it.
    Engine(EngineError),
    /// The arbiter refused the opening position.
    Setup(vizier_arbiter::SetupError),
    /// The arbiter refused a command the runner gave it.
    Arbiter(vizier_arbiter::CommandError),
    /// A thread playing games panicked.
    Panicked,
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::TimeControl(tc) => write!(
                f,
                "time control \"{tc}\" is not BASE+INC, movetime=MS or nodes=N"
            ),
            MatchError::Adjudication { flag, text } => write!(
                f,
                "--{flag} \"{text}\": expected {} whole numbers, the move count above 0",
                if *flag == "draw" { 3 } else { 2 }
            ),
            MatchError::Sprt(text) => write!(f, "--sprt \"{text}\" is not ELO0,ELO1,ALPHA,BETA"),
            MatchError::UnknownEngine { name, known } => {
                write!(f, "no engine \"{name}\" (known: {})", known.join(", "))
            }
            MatchError::File { path, source } => write!(f, "{}: {source}", path.display()),
            MatchError::EnginesFile { path, source } => write!(f, "{}: {source}", path.display()),
            MatchError::Opening { path, line, source } => {
                write!(f, "{}:{line}: {source}", path.display())
            }
            MatchError::NoOpenings(path) => write!(f, "{}: no openings", path.display()),
            MatchError::OwnPath(e) => write!(f, "cannot find this program's own path: {e}"),
            MatchError::Engine(e) => write!(f, "{e}"),
            MatchError::Setup(e) => write!(f, "{e}"),
            MatchError::Arbiter(e) => write!(f, "the arbiter refused: {e}"),
            MatchError::Panicked => write!(f, "a match thread panicked"),
        }
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MatchError::File { source, .. } | MatchError::OwnPath(source) => Some(source),
            MatchError::EnginesFile { source, .. } => Some(source),
            MatchError::Opening { source, .. } => Some(source),
            MatchError::Engine(e) => Some(e),
            MatchError::Setup(e) => Some(e),
            MatchError::Arbiter(e) => Some(e),
            _ => None,
        }
    }
}

impl From<EngineError> for MatchError {
    fn from(e: EngineError) -> MatchError {
        MatchError::Engine(e)
    }
}

impl From<vizier_arbiter::CommandError> for MatchError {
    fn from(e: vizier_arbiter::CommandError) -> MatchError {
        MatchError::Arbiter(e)
    }
}
