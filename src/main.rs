//! The `chuhe` binary: no arguments → protocol loop; otherwise a tool subcommand.

use chuhe::cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    cli::run(&args)
}
