//! What the load examples read of a process in /proc: its memory and its CPU time.

#![allow(dead_code)] // each example reads what it needs

/// A `kB` field of `/proc/PID/status` (`VmRSS:`, `VmHWM:`, `Threads:` — a count), 0 if absent.
pub fn status_kb(pid: impl std::fmt::Display, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// A process's CPU time so far (user + system), in seconds; `pid` may be `"self"`.
pub fn cpu_s(pid: impl std::fmt::Display) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}
