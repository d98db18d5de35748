//! The port logs its warnings with `eprintln!` (a refused requestParams key, a failed MCP server, a
//! tools filter name that matched nothing): straight to file descriptor 2, with no hook a caller
//! could install. To collect them per operation, as the protocol asks, fd 2 is turned into a pipe at
//! startup; a thread reads it, echoes every line to the real stderr and keeps it for `take`. The
//! runner's own diagnostics go to the real stderr directly (`log`), so they are never taken for the
//! port's.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::FromRawFd;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

struct Capture {
    real: Mutex<File>,
    state: Mutex<State>,
    seen: Condvar,
}

#[derive(Default)]
struct State {
    lines: Vec<String>,
    last_sync: u64,
    next_sync: u64,
}

static CAPTURE: OnceLock<Capture> = OnceLock::new();

/// A line the runner writes into the pipe to know everything written before it has been read.
const SYNC_PREFIX: &str = "\u{1}tnc-rust-runner-sync ";

/// Redirects fd 2 into the capture pipe. Call once, before anything else runs.
pub fn install() -> std::io::Result<()> {
    // SAFETY: plain POSIX calls on descriptors this function owns; fd 2 is replaced atomically by dup2.
    let (real, read) = unsafe {
        let real = libc::dup(2);
        if real < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let mut fds = [0; 2];
        if libc::pipe(fds.as_mut_ptr()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::dup2(fds[1], 2) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        libc::close(fds[1]);
        libc::fcntl(real, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::fcntl(fds[0], libc::F_SETFD, libc::FD_CLOEXEC);
        (File::from_raw_fd(real), File::from_raw_fd(fds[0]))
    };
    let capture = CAPTURE.get_or_init(|| Capture {
        real: Mutex::new(real),
        state: Mutex::new(State::default()),
        seen: Condvar::new(),
    });
    std::thread::spawn(move || {
        for line in BufReader::new(read).lines() {
            let Ok(line) = line else { break };
            if let Some(n) = line.strip_prefix(SYNC_PREFIX).and_then(|n| n.parse::<u64>().ok()) {
                let mut state = capture.state.lock().unwrap_or_else(|e| e.into_inner());
                state.last_sync = n;
                capture.seen.notify_all();
                continue;
            }
            if let Ok(mut real) = capture.real.lock() {
                let _ = writeln!(real, "{line}");
            }
            capture.state.lock().unwrap_or_else(|e| e.into_inner()).lines.push(line);
        }
    });
    Ok(())
}

/// Every line the port wrote to stderr since the last `take`, once the pipe has been read up to now
/// (bounded: after 2 s what has arrived is returned).
pub fn take() -> Vec<String> {
    let Some(capture) = CAPTURE.get() else { return Vec::new() };
    let n = {
        let mut state = capture.state.lock().unwrap_or_else(|e| e.into_inner());
        state.next_sync += 1;
        state.next_sync
    };
    let marker = format!("{SYNC_PREFIX}{n}\n");
    // SAFETY: a write of a buffer this function owns to fd 2.
    unsafe { libc::write(2, marker.as_ptr().cast(), marker.len()) };
    let state = capture.state.lock().unwrap_or_else(|e| e.into_inner());
    let (mut state, _) = capture
        .seen
        .wait_timeout_while(state, Duration::from_secs(2), |s| s.last_sync < n)
        .unwrap_or_else(|e| e.into_inner());
    std::mem::take(&mut state.lines)
}

/// The runner's own diagnostics, on the real stderr (never collected as the port's warnings).
pub fn log(message: &str) {
    match CAPTURE.get() {
        Some(capture) => {
            if let Ok(mut real) = capture.real.lock() {
                let _ = writeln!(real, "rust runner: {message}");
            }
        }
        None => eprintln!("rust runner: {message}"),
    }
}
