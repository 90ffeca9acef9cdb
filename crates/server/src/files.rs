//! The process's resources. The open-files limit: raised at start to what the system allows, and the connection and
//! socket limits fitted under it with descriptors to spare for the database, its journal and
//! the log, so that a flood of connections finds the server refusing them one by one rather
//! than unable to open anything (`/healthz` included).

use crate::limits::Limits;

/// Descriptors kept for everything but clients: the database's files, the listener, the
/// threads' pipes, the log.
pub const RESERVE: usize = 128;

/// Raises the soft open-files limit to the hard one; the soft limit now (`None` where it
/// cannot be read).
fn raise() -> Option<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write only the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        // An unlimited hard limit is not a soft one the kernel takes: then a million.
        for soft in [limit.rlim_max, limit.rlim_max.min(1 << 20)] {
            if limit.rlim_cur >= soft {
                break;
            }
            let raised = libc::rlimit {
                rlim_cur: soft,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    usize::try_from(limit.rlim_cur).ok()
}

/// Has the allocator give large blocks (the engine's tables, a password hash's memory) back
/// to the system when they are freed: glibc otherwise raises its threshold for mapping
/// blocks of their own after the first is freed, and keeps later ones in its heaps.
pub fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// `limits` with connections and sockets fitted under the open-files limit, after raising it.
pub fn fit(limits: Limits) -> Limits {
    match raise() {
        Some(files) => fitted(limits, files),
        None => limits,
    }
}

/// `limits` fitted under `files` descriptors: connections take at most half of what the
/// reserve leaves, sockets the rest.
fn fitted(limits: Limits, files: usize) -> Limits {
    let clients = files.saturating_sub(RESERVE).max(2);
    let max_connections = limits.max_connections.min(clients / 2).max(1);
    let max_sockets = limits.max_sockets.min(clients - max_connections).max(1);
    if max_connections < limits.max_connections || max_sockets < limits.max_sockets {
        tracing::info!(
            files,
            max_connections,
            max_sockets,
            "connections and sockets fitted under the open-files limit"
        );
    }
    Limits {
        max_connections,
        max_sockets,
        ..limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_and_sockets_fit_under_the_limit_with_a_reserve() {
        let low = fitted(Limits::DEFAULT, 1_024);
        assert_eq!(low.max_connections, 448);
        assert_eq!(low.max_sockets, 448);
        assert!(low.max_connections + low.max_sockets + RESERVE <= 1_024);
        let high = fitted(Limits::DEFAULT, 1 << 20);
        assert_eq!(high.max_connections, Limits::DEFAULT.max_connections);
        assert_eq!(high.max_sockets, Limits::DEFAULT.max_sockets);
    }

    #[test]
    fn the_soft_limit_is_raised_to_the_hard_one() {
        let read = || {
            let mut limit = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: as above.
            assert_eq!(
                unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) },
                0
            );
            limit
        };
        let before = read();
        let soft = raise().unwrap() as u64;
        assert!(soft >= before.rlim_cur);
        assert_eq!(soft, read().rlim_cur);
        if before.rlim_max <= 1 << 20 {
            assert_eq!(soft, before.rlim_max);
        }
    }
}
