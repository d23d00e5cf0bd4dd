//! Command-line tools over the library: `perft` and friends. Errors go to stderr, exit 2.

mod args;
mod bench_cmd;
mod datagen_cmd;
mod judge_cmd;
mod match_cmd;
mod params_cmd;
mod perft_cmd;
mod perft_diff_cmd;
mod stats_cmd;
mod tune_cmd;

pub use args::Args;
use std::process::ExitCode;

/// Usage text printed by `chuhe help` and on an unknown subcommand.
pub const USAGE: &str = "usage: chuhe                      start the protocol loop (first command: ucci, uci or xboard)
       chuhe perft [--fen FEN] --depth N [--divide] [--threads N] [--hash MB] [--progress|--quiet]
       chuhe perft --epd FILE [--depth-limit D] [--threads N] [--hash MB]
       chuhe perft-diff --engine CMD [proto=uci|ucci] [arg=A]... [--fen FEN] --depth D [--timeout S]
       chuhe bench [--depth D]
       chuhe match -engine cmd=PROG ... -engine cmd=PROG ... [-each ...]   [-shard K/N]  (see README, Match)
       chuhe stats FILE.pgn... [-sprt elo0=E elo1=E alpha=A beta=B] [-first NAME]
       chuhe judge [--fen FEN] [--moves \"M1 M2 ...\"] [--json] | judge --file FILE [--json]
       chuhe datagen --out FILE [--games N] [--nodes N | --depth D] [--threads T] [--seed S]
                     [--random-plies K] [--openings FILE|builtin] [--keep quiet|all]
                     [--max-start-score CP] [--max-plies N] [--hash MB]   (see docs/training.md)
       chuhe datagen --stats FILE...
       chuhe tune --data FILE... [--out FILE] [--epochs N] [--rate R] [--lambda L] [--k K]
                  [--threads T] [--limit N] [--from FILE] [--report-every N]   (see docs/training.md)
       chuhe params                search parameters and switches (hidden engine options)
       chuhe help";

/// A tool that finished without a verdict of its own exits with status 0.
fn done(_: ()) -> ExitCode {
    ExitCode::SUCCESS
}

/// Runs the subcommand named by `args[0]` (none: the protocol loop).
pub fn run(args: &[String]) -> ExitCode {
    let Some(cmd) = args.first() else {
        crate::protocol::run_stdio();
        return ExitCode::SUCCESS;
    };
    let rest = &args[1..];
    let result = match cmd.as_str() {
        "perft" => perft_cmd::run(rest),
        "perft-diff" => perft_diff_cmd::run(rest),
        "bench" => bench_cmd::run(rest).map(done),
        "match" => match_cmd::run(rest).map(done),
        "judge" => judge_cmd::run(rest).map(done),
        "stats" => stats_cmd::run(rest).map(done),
        "datagen" => datagen_cmd::run(rest).map(done),
        "tune" => tune_cmd::run(rest).map(done),
        "params" => params_cmd::run(rest).map(done),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        other => Err(format!("unknown subcommand '{other}' (try 'chuhe help')")),
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("chuhe {cmd}: {msg}");
            ExitCode::from(2)
        }
    }
}
