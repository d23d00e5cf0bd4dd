//! The tools' output on stdout. `println!` panics when the reader has gone away
//! (`chuhe params | head -1`); these writes end the process quietly instead, as a Unix tool
//! that SIGPIPE kills does.

use std::io::{ErrorKind, Write};

/// The status a shell reports for a tool killed by SIGPIPE (128 + 13).
pub const BROKEN_PIPE_STATUS: i32 = 141;

/// Writes `args` to stdout. A reader that has gone away ends the process with status 141
/// and no message; any other write error (a full disk) with one line on stderr and status 2.
pub fn write(args: std::fmt::Arguments) {
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        quit(&e);
    }
}

/// Ends the process after a failed write to stdout (see `write`).
pub fn quit(e: &std::io::Error) -> ! {
    if e.kind() == ErrorKind::BrokenPipe {
        std::process::exit(BROKEN_PIPE_STATUS);
    }
    let _ = writeln!(std::io::stderr(), "chuhe: cannot write the output: {e}");
    std::process::exit(2);
}
