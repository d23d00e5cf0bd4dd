//! Command-line tools over the library: `perft` and friends. Errors go to stderr, exit 2.
//! Each tool's help text lives beside its flag parsing (`ABOUT` and `HELP` in its file); this
//! module lists the tools, prints help and the version, and runs the protocol loop.

/// `print!` for the tools: quiet when stdout's reader has gone away (`out::write`).
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::out::write(format_args!($($arg)*)) };
}

/// `println!` for the tools: quiet when stdout's reader has gone away (`out::write`).
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::out::write(format_args!("{}\n", format_args!($($arg)*))) };
}

mod analyze_cmd;
mod args;
pub(crate) mod bench_cmd;
mod book_cmd;
mod datagen_cmd;
mod diagram_cmd;
mod engine_draft;
mod judge_cmd;
mod match_cmd;
mod out;
mod params_cmd;
mod perft_cmd;
mod perft_diff_cmd;
mod play;
mod stats_cmd;
mod train_cmd;
mod tune_cmd;
mod user_moves;

pub use args::Args;
use std::io::IsTerminal;
use std::process::ExitCode;

/// A subcommand: its name, one-line summary, help text and entry point.
struct Tool {
    name: &'static str,
    about: &'static str,
    help: &'static str,
    run: fn(&[String]) -> Result<ExitCode, String>,
}

/// A tool that finished without a verdict of its own exits with status 0.
fn done(_: ()) -> ExitCode {
    ExitCode::SUCCESS
}

/// A tool whose `run` returns `()` (it exits 0 unless it fails), from its module's items.
macro_rules! tool {
    ($name:literal, $module:ident) => {
        Tool { name: $name, about: $module::ABOUT, help: $module::HELP, run: |a| $module::run(a).map(done) }
    };
}

/// Every tool, in the order `chuhe --help` lists them.
const TOOLS: &[Tool] = &[
    Tool { name: "perft", about: perft_cmd::ABOUT, help: perft_cmd::HELP, run: perft_cmd::run },
    Tool { name: "perft-diff", about: perft_diff_cmd::ABOUT, help: perft_diff_cmd::HELP, run: perft_diff_cmd::run },
    tool!("bench", bench_cmd),
    tool!("match", match_cmd),
    tool!("stats", stats_cmd),
    tool!("judge", judge_cmd),
    tool!("datagen", datagen_cmd),
    tool!("tune", tune_cmd),
    tool!("train", train_cmd),
    tool!("book", book_cmd),
    tool!("diagram", diagram_cmd),
    tool!("analyze", analyze_cmd),
    tool!("params", params_cmd),
    tool!("play", play),
];

/// `chuhe --version`: the version from Cargo.toml, the build profile and the target.
pub fn version() -> String {
    let profile = if cfg!(debug_assertions) { "debug" } else { "release" };
    format!(
        "chuhe {} ({profile} build, {}-{})",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::ARCH,
        std::env::consts::OS
    )
}

/// `chuhe --help`: how to start the engine and one line per tool.
pub fn usage() -> String {
    let mut s = format!(
        "chuhe {}: a xiangqi (Chinese chess) engine speaking UCCI, UCI and XBoard (CECP)

usage:
  chuhe                   start the engine: it reads protocol commands on stdin; the first
                          one (ucci, uci or xboard) picks the protocol (see docs/protocol.md)
  chuhe TOOL [FLAGS]      run a tool; 'chuhe TOOL --help' lists its flags with examples
  chuhe --version         version and build
  chuhe --help            this text ('chuhe help TOOL' is 'chuhe TOOL --help')

tools:
",
        env!("CARGO_PKG_VERSION")
    );
    for t in TOOLS {
        s += &format!("  {:<12}{}\n", t.name, t.about);
    }
    s += "
Flags: --name VALUE or --name=VALUE (match and stats: cutechess-cli's -name KEY=VALUE...).
Bad input: one line on stderr ('chuhe TOOL: ...') and exit status 2.";
    s
}

/// A tool's full help: its summary line, then its usage, flags and examples.
fn tool_help(t: &Tool) -> String {
    format!("chuhe {}: {}\n\n{}", t.name, t.about, t.help.trim_end())
}

/// The line printed on stderr when a person starts the engine in a terminal, so they know it
/// waits for them; nothing when stdin is a pipe (a GUI, a test).
pub fn banner(stdin_is_terminal: bool) -> Option<String> {
    stdin_is_terminal.then(|| {
        format!(
            "chuhe {}: waiting for a protocol command (ucci, uci or xboard; quit to leave); \
             'chuhe --help' lists the tools",
            env!("CARGO_PKG_VERSION")
        )
    })
}

/// Whether `args` ask for help: `--help` or `-h` anywhere (the tools take no such value).
fn wants_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

/// Runs the subcommand named by `args[0]` (none: the protocol loop).
pub fn run(args: &[String]) -> ExitCode {
    let Some(cmd) = args.first() else {
        if let Some(line) = banner(std::io::stdin().is_terminal()) {
            eprintln!("{line}");
        }
        crate::protocol::run_stdio();
        return ExitCode::SUCCESS;
    };
    let rest = &args[1..];
    let find = |name: &str| TOOLS.iter().find(|t| t.name == name);
    match cmd.as_str() {
        "help" | "--help" | "-h" => match rest {
            [] => print(&usage()),
            [name] => match find(name) {
                Some(t) => print(&tool_help(t)),
                None => fail("chuhe help", &format!("no tool '{name}' (the tools: {})", names())),
            },
            _ => fail("chuhe help", "takes at most one tool name"),
        },
        "--version" | "-V" | "version" => print(&version()),
        name => match find(name) {
            Some(t) if wants_help(rest) => print(&tool_help(t)),
            Some(t) => (t.run)(rest).unwrap_or_else(|msg| fail(&format!("chuhe {name}"), &with_usage(t, rest, &msg))),
            None if name.starts_with('-') => fail("chuhe", &format!("unknown option '{name}' (try 'chuhe --help')")),
            None => fail("chuhe", &format!("no tool '{name}' (try 'chuhe --help'; the tools: {})", names())),
        },
    }
}

/// An error about the arguments (ending in [`args::SEE_HELP`]) with the tool's usage line and
/// its first example in place of that tail, still one line; other errors as they are.
/// With a subcommand (`book probe`), the usage form and example of that subcommand.
fn with_usage(t: &Tool, args: &[String], msg: &str) -> String {
    let Some(what) = msg.strip_suffix(args::SEE_HELP) else { return msg.to_string() };
    let section = |head: &str| t.help.split(head).nth(1).unwrap_or("").lines().collect::<Vec<_>>();
    // Each usage form with its continuation lines (indented further, not a new form).
    let mut forms: Vec<String> = Vec::new();
    for line in section("usage:\n").iter().take_while(|l| !l.trim().is_empty()) {
        match forms.last_mut() {
            Some(form) if !line.trim_start().starts_with("chuhe ") => *form += &format!(" {}", line.trim()),
            _ => forms.push(line.trim().to_string()),
        }
    }
    let examples: Vec<&str> =
        section("examples:\n").into_iter().map(|l| l.split("  #").next().unwrap_or("").trim()).collect();
    // A form or example of the subcommand the user typed, if the tool has subcommands.
    let sub = args.first().map(|w| format!("chuhe {} {w} ", t.name));
    let pick = |all: Vec<&str>| {
        let runs: Vec<&str> = all.into_iter().filter(|l| l.starts_with("chuhe ")).collect();
        sub.as_ref()
            .and_then(|s| runs.iter().find(|l| l.starts_with(s.as_str())))
            .or(runs.first())
            .map_or(String::new(), |l| l.to_string())
    };
    let usage = pick(forms.iter().map(String::as_str).collect());
    let example = pick(examples);
    format!("{}; usage: {usage}; example: {example}; all flags: chuhe {} --help", what.trim_end(), t.name)
}

/// Reports bad input: one line on stderr, `who: msg`, and status 2.
fn fail(who: &str, msg: &str) -> ExitCode {
    eprintln!("{who}: {msg}");
    ExitCode::from(2)
}

/// Prints `text` on stdout: status 0.
fn print(text: &str) -> ExitCode {
    outln!("{text}");
    ExitCode::SUCCESS
}

/// The tools' names, comma-separated.
fn names() -> String {
    TOOLS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_a_summary_usage_flags_and_examples() {
        let usage = usage();
        for t in TOOLS {
            assert!(!t.about.contains('\n') && t.about.len() < 90, "{}: one short line", t.name);
            assert!(usage.contains(&format!("  {:<12}{}\n", t.name, t.about)), "{}", t.name);
            let help = tool_help(t);
            assert!(help.contains(&format!("usage:\n  chuhe {}", t.name)), "{}: usage", t.name);
            assert!(help.contains("\nexamples:\n"), "{}: examples", t.name);
            let examples = help.split("\nexamples:\n").nth(1).unwrap_or("");
            assert!(
                examples.lines().any(|l| l.trim_start().starts_with(&format!("chuhe {} ", t.name))
                    || l.trim() == format!("chuhe {}", t.name)),
                "{}: an example runs the tool",
                t.name
            );
            assert!(help.lines().all(|l| l.chars().count() <= 100), "{}: lines fit a terminal", t.name);
        }
    }

    #[test]
    fn version_and_banner() {
        assert!(version().starts_with(&format!("chuhe {} (", env!("CARGO_PKG_VERSION"))));
        assert_eq!(banner(false), None);
        let line = banner(true).unwrap();
        assert!(line.starts_with("chuhe ") && line.contains("ucci, uci or xboard") && !line.contains('\n'));
    }

    #[test]
    fn help_is_asked_by_either_spelling_anywhere() {
        let w = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert!(wants_help(&w("--help")) && wants_help(&w("--depth 3 -h")));
        assert!(!wants_help(&w("--depth 3")) && !wants_help(&w("arg=--help")));
    }
}
