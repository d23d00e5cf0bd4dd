//! Command-line tools over the library: `perft` and friends. Errors go to stderr, exit 2.

mod args;
mod bench_cmd;
mod datagen_cmd;
mod judge_cmd;
mod match_cmd;
mod params_cmd;
mod perft_cmd;

pub use args::Args;
use std::process::ExitCode;

/// Usage text printed by `chuhe help` and on an unknown subcommand.
pub const USAGE: &str = "usage: chuhe                      start the protocol loop (first command: ucci, uci or xboard)
       chuhe perft [--fen FEN] --depth N [--divide]
       chuhe bench [--depth D]
       chuhe match -engine cmd=PROG ... -engine cmd=PROG ... [-each ...]   (see README, Match)
       chuhe judge [--fen FEN] [--moves \"M1 M2 ...\"] [--json] | judge --file FILE [--json]
       chuhe datagen --out FILE [--games N] [--nodes N | --depth D] [--threads T] [--seed S]
                     [--random-plies K] [--openings FILE|builtin] [--keep quiet|all]
                     [--max-start-score CP] [--max-plies N] [--hash MB]   (see docs/training.md)
       chuhe datagen --stats FILE...
       chuhe params                search parameters and switches (hidden engine options)
       chuhe help";

/// Runs the subcommand named by `args[0]` (none: the protocol loop).
pub fn run(args: &[String]) -> ExitCode {
    let Some(cmd) = args.first() else {
        crate::protocol::run_stdio();
        return ExitCode::SUCCESS;
    };
    let rest = &args[1..];
    let result = match cmd.as_str() {
        "perft" => perft_cmd::run(rest),
        "bench" => bench_cmd::run(rest),
        "match" => match_cmd::run(rest),
        "judge" => judge_cmd::run(rest),
        "datagen" => datagen_cmd::run(rest),
        "params" => params_cmd::run(rest),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown subcommand '{other}' (try 'chuhe help')")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("chuhe {cmd}: {msg}");
            ExitCode::from(2)
        }
    }
}
