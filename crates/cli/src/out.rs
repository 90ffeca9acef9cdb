//! Standard output for the commands: a line at a time, and a closed pipe (`vizier bench |
//! head -1`) ends the command quietly, as it does a Unix filter, instead of a panic.

use std::fmt::Display;
use std::io::Write;

/// Writes `text` and a newline to standard output; exits with success if the reader is gone.
pub fn line(text: impl Display) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}
