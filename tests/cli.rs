//! The command line as a user meets it, through the real binary: help and version, the
//! `--flag=value` spelling, one-line errors with status 2 for every tool, the terminal
//! banner, and the examples of the README and of every tool's help, run as written (the
//! quick ones: no match, bench, datagen or tune runs, no deep perft).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const CHUHE: &str = env!("CARGO_BIN_EXE_chuhe");
const TOOLS: [&str; 13] = [
    "perft",
    "perft-diff",
    "bench",
    "match",
    "stats",
    "judge",
    "datagen",
    "tune",
    "book",
    "diagram",
    "analyze",
    "params",
    "play",
];

fn chuhe(args: &[&str]) -> Output {
    Command::new(CHUHE).args(args).output().expect("run chuhe")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `o` succeeded with output on stdout only; returns stdout.
fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    stdout(o)
}

#[test]
fn top_level_help_lists_every_tool_and_version_is_cargos() {
    let help = ok(&chuhe(&["--help"]));
    for spelling in [&["help"][..], &["-h"]] {
        assert_eq!(ok(&chuhe(spelling)), help, "{spelling:?}");
    }
    for tool in TOOLS {
        assert!(help.lines().any(|l| l.starts_with(&format!("  {tool} "))), "{tool} in:\n{help}");
    }
    assert!(help.contains("chuhe TOOL --help"));
    let version = ok(&chuhe(&["--version"]));
    assert!(version.starts_with(&format!("chuhe {} (", env!("CARGO_PKG_VERSION"))), "{version}");
    assert_eq!(version.lines().count(), 1);
    assert_eq!(ok(&chuhe(&["-V"])), version);
}

#[test]
fn every_tool_has_help_in_three_spellings_and_help_wins_over_other_flags() {
    for tool in TOOLS {
        let help = ok(&chuhe(&[tool, "--help"]));
        assert!(help.starts_with(&format!("chuhe {tool}: ")), "{tool}: {help}");
        for section in ["\nusage:\n", "\nexamples:\n"] {
            assert!(help.contains(section), "{tool}: no {section:?}");
        }
        assert_eq!(ok(&chuhe(&[tool, "-h"])), help, "{tool} -h");
        assert_eq!(ok(&chuhe(&["help", tool])), help, "help {tool}");
    }
    // --help anywhere prints the help and runs nothing, even with bad flags around it.
    let o = chuhe(&["perft", "--depth", "3", "--bogus", "--help"]);
    assert!(ok(&o).starts_with("chuhe perft: ") && !stdout(&o).contains("nodes 79666"));
    assert!(ok(&chuhe(&["match", "-engine", "cmd=x", "-h"])).starts_with("chuhe match: "));
}

#[test]
fn flag_equals_value_gives_the_same_result_as_two_words() {
    let fen = "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1";
    let split = |o: &Output| ok(o).lines().filter(|l| !l.starts_with("nodes")).map(String::from).collect::<Vec<_>>();
    let spaced = split(&chuhe(&["perft", "--fen", fen, "--depth", "2", "--divide"]));
    let joined = split(&chuhe(&["perft", &format!("--fen={fen}"), "--depth=2", "--divide"]));
    assert_eq!((spaced.len(), &spaced), (25, &joined));

    let moves = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9";
    let a = ok(&chuhe(&["judge", "--moves", moves]));
    assert_eq!(ok(&chuhe(&["judge", &format!("--moves={moves}")])), a);
    assert_eq!(a, "1/2-1/2 {Draw: repetition, plies 1-8}\n");

    // The hand-parsed list flag of datagen, and flags of a tiny run.
    let data = temp("eq.bin");
    let d = data.to_str().unwrap();
    let run = chuhe(&["datagen", &format!("--out={d}"), "--games=1", "--nodes=50", "--random-plies=2", "--seed=5"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let stats = ok(&chuhe(&["datagen", "--stats", d]));
    assert!(stats.starts_with("files 1"), "{stats}");
    assert_eq!(ok(&chuhe(&["datagen", &format!("--stats={d}")])), stats);
    let twice = ok(&chuhe(&["datagen", "--stats", d, d]));
    assert!(twice.starts_with("files 2"), "{twice}");
    assert_eq!(ok(&chuhe(&["datagen", &format!("--stats={d}"), d])), twice);

    // perft-diff's --engine=CMD: Chuhe against itself agrees.
    let o = chuhe(&["perft-diff", &format!("--engine={CHUHE}"), "--depth=2"]);
    assert_eq!(ok(&o), "the engines agree: 1920 leaves over 44 root moves\n");
}

/// Runs `args` expecting a usage error: status 2, nothing on stdout, one line on stderr that
/// starts with `prefix` and contains `needle`.
fn refused(args: &[&str], prefix: &str, needle: &str) {
    let o = chuhe(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with(prefix) && err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn bad_input_is_one_line_on_stderr_with_status_2_for_every_tool() {
    refused(&["frobnicate"], "chuhe: ", "no tool 'frobnicate'");
    refused(&["--frobnicate"], "chuhe: ", "unknown option '--frobnicate'");
    refused(&["help", "frobnicate"], "chuhe help: ", "no tool 'frobnicate'");
    let missing = "/nonexistent/chuhe-cli-test";
    let empty = temp("empty.txt");
    std::fs::write(&empty, "# nothing but a comment\n").unwrap();
    let empty = empty.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["perft"], "--depth is required"),
        (&["perft", "--depth=0"], "--depth '0'"),
        (&["perft", "--depth=3", "--divide=yes"], "--divide takes no value"),
        (&["perft", "--fen", "--depth", "3"], "--fen needs a value before '--depth'"),
        (&["perft", "5", "6"], "unexpected argument '6'"),
        (&["perft", "4", "--depth", "5"], "'4' and --depth '5' both give --depth"),
        (&["judge", "a.pgn", "b.pgn"], "unexpected argument 'b.pgn'"),
        (&["analyze"], "GAME.pgn is required"),
        (&["diagram", "--fen", "4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1"], "--out FILE.svg|FILE.png is required"),
        (&["perft", "--epd", missing], "cannot read"),
        (&["perft", "--epd", empty], "no positions"),
        (&["perft-diff", "--depth", "2"], "--engine CMD is required"),
        (&["perft-diff", "--engine", missing, "--depth", "2"], "cannot start engine"),
        (&["perft-diff", "--engine=chuhe", "proto=cecp", "--depth", "2"], "proto 'cecp'"),
        (&["bench", "--depth", "100"], "--depth '100'"),
        (&["bench", "--threads", "2"], "unknown option '--threads'"),
        (&["match"], "need two -engine flags"),
        (&["match", "-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tc=1", "-frobnicate"], "unknown flag"),
        (&["match", "-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tc=1", "-games", "x"], "-games"),
        (
            &["match", "-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tc=1", "-openings", "file=/nonexistent/o"],
            "cannot read",
        ),
        (&["stats"], "no PGN files"),
        (&["stats", missing], "cannot read"),
        (&["stats", "x.pgn", "-bogus"], "unknown flag '-bogus'"),
        (&["judge", "--moves", "h2e2 h9"], "malformed move 'h9'"),
        (&["judge", "--moves", "H2-E2 H9-G"], "malformed move 'H9-G'"),
        (&["judge", "--file", missing], "cannot read"),
        (&["judge", "--file", empty], "no games"),
        (&["judge", "--fen", "rnbakabnr/9 w"], ""),
        (&["datagen"], "--out FILE is required"),
        (&["datagen", "--out=x.bin", "--keep=some"], "--keep 'some'"),
        (&["datagen", "--stats"], "at least one FILE"),
        (&["datagen", "--stats=", "--games", "3"], "--stats takes only files, not '--games'"),
        (&["datagen", "--stats", missing], missing),
        (&["datagen", "--relabel"], "--relabel needs at least one FILE"),
        (&["datagen", "--relabel", "a.bin"], "--relabel needs --out FILE"),
        (&["datagen", "--relabel", "a.bin", "--out", "a.bin"], "--out 'a.bin' is also an input"),
        (&["datagen", "--relabel", "a.bin", "--out", "b.bin", "--games", "3"], "--games does not go with --relabel"),
        (&["datagen", "--relabel", missing, "--out", "b.bin"], "cannot open"),
        (&["datagen", "--out", "b.bin", "--limit", "3"], "--limit goes with --relabel"),
        (&["tune"], "--data FILE... is required"),
        (&["tune", "--data="], "at least one FILE"),
        (&["tune", "--data", missing], "cannot open"),
        (&["params", "--all"], "unknown option '--all'"),
        (&["params", "all"], "unexpected argument 'all'"),
        (&["play", "--side", "green"], "--side 'green' must be red or black"),
        (&["play", "--level", "3", "--elo", "1500"], "give --level or --elo, not both"),
        (&["play", "--book", missing], "--book: "),
    ];
    for (args, needle) in cases {
        refused(args, &format!("chuhe {}: ", args[0]), needle);
    }
}

#[test]
fn the_main_argument_works_without_its_flag() {
    let same = |short: &[&str], long: &[&str]| {
        let (a, b) = (chuhe(short), chuhe(long));
        assert!(a.status.success() && b.status.success(), "{short:?}: {}", stderr(&a));
        // The first line, without its timing figures.
        let first = |o: &Output| {
            let text = stdout(o);
            let words: Vec<&str> = text.lines().next().unwrap_or("").split_whitespace().collect();
            let timed = |i: usize| i > 0 && ["time", "nps"].contains(&words[i - 1]);
            words.iter().enumerate().filter(|&(i, _)| !timed(i)).map(|(_, w)| *w).collect::<Vec<_>>().join(" ")
        };
        assert_eq!(first(&a), first(&b), "{short:?} vs {long:?}");
    };
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let nodes = |args: &[&str]| ok(&chuhe(args)).split(" time ").next().unwrap_or("").to_string();
    assert_eq!(nodes(&["perft", "3"]), "nodes 79666");
    let long = nodes(&["perft", "--depth", "2", "--fen", fen]);
    assert!(long.starts_with("nodes ") && long != "nodes 1920", "{long}");
    assert_eq!(nodes(&["perft", "2", "--fen", fen]), long);
    assert_eq!(nodes(&["perft", "--fen", fen, "2"]), long);
    same(&["judge", "samples/games.pgn"], &["judge", "--file", "samples/games.pgn"]);
    same(&["judge", "--json", "samples/games.txt"], &["judge", "--file=samples/games.txt", "--json"]);
    same(&["bench", "2"], &["bench", "--depth", "2"]);
    same(&["analyze", "--depth", "2", "samples/blunder.pgn"], &["analyze", "samples/blunder.pgn", "--depth", "2"]);
    same(
        &["analyze", "--depth", "2", "samples/blunder.pgn"],
        &["analyze", "--pgn", "samples/blunder.pgn", "--depth=2"],
    );
    let (short, long) = (temp("short.svg"), temp("long.svg"));
    let (short, long) = (short.to_str().unwrap(), long.to_str().unwrap());
    ok(&chuhe(&["diagram", "--fen", fen, short]));
    ok(&chuhe(&["diagram", "--fen", fen, "--out", long]));
    assert_eq!(std::fs::read(short).unwrap(), std::fs::read(long).unwrap());
    // A picture's name ending the move list is the output, not a move.
    ok(&chuhe(&["diagram", "--moves", "h2e2", "h9g7", short]));
    ok(&chuhe(&["diagram", "--moves", "h2e2", "h9g7", "--out", long]));
    assert_eq!(std::fs::read(short).unwrap(), std::fs::read(long).unwrap());
}

#[test]
fn a_wrong_argument_shows_the_usage_line_and_an_example_on_one_line() {
    for (args, usage, example) in [
        (&["perft", "x"][..], "usage: chuhe perft [--depth] N [--fen FEN]", "example: chuhe perft 5;"),
        (&["perft", "--frob"], "usage: chuhe perft [--depth] N", "example: chuhe perft 5;"),
        (&["judge", "a", "b"], "usage: chuhe judge [--fen FEN]", "example: chuhe judge --moves"),
        (&["book", "probe"], "usage: chuhe book probe [--book] FILE", "example: chuhe book probe --book"),
        (&["book", "build"], "usage: chuhe book build --pgn FILE...", "example: chuhe book build --pgn"),
        (&["analyze", "--depth", "2"], "usage: chuhe analyze [--pgn] GAME.pgn [--game N]", "example: chuhe analyze "),
    ] {
        let o = chuhe(args);
        let err = stderr(&o);
        assert_eq!((o.status.code(), err.lines().count()), (Some(2), 1), "{args:?}: {err}");
        assert!(err.contains(usage) && err.contains(example), "{args:?}: {err}");
        assert!(err.trim_end().ends_with(&format!("all flags: chuhe {} --help", args[0])), "{err}");
    }
    // An error about the input, not the arguments, is the error alone.
    let err = stderr(&chuhe(&["judge", "--moves", "h2e2 h9"]));
    assert!(err.contains("malformed move 'h9'") && !err.contains("usage"), "{err}");
}

#[test]
fn the_engine_is_silent_on_stderr_when_stdin_is_a_pipe() {
    let mut child = Command::new(CHUHE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn chuhe");
    child.stdin.take().unwrap().write_all(b"uci\nquit\n").unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    assert!(stdout(&o).lines().next().is_some_and(|l| l.starts_with("id name Chuhe")), "{}", stdout(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

#[test]
fn the_engine_says_it_waits_when_stdin_is_a_terminal() {
    // A pseudo-terminal from Python's pty module (python3 is already needed by the perft-diff
    // tests); the child's output is read until it exits, so nothing here depends on timing.
    let script = "import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1]])
os.write(fd, b'quit\\n')
out = b''
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
os.waitpid(pid, 0)
sys.stdout.write(out.decode('utf-8', 'replace'))
";
    let o = Command::new("python3").args(["-c", script, CHUHE]).output().expect("python3 runs");
    let text = ok(&o);
    let line = format!("chuhe {}: waiting for a protocol command (ucci, uci or xboard", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&line), "{text}");
}

/// The shell words of one example line (double quotes group, `#` starts a comment).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            '#' if !quoted && word.is_none() => break,
            c if c.is_whitespace() && !quoted => out.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    out
}

/// The `chuhe TOOL ...` and `chuhe --help`-like commands of an example text, continuation
/// lines joined (output lines such as `chuhe 0.1.0: ...` are not commands).
fn commands(text: &str) -> Vec<Vec<String>> {
    let joined = text.replace("\\\n", " ");
    let command = |w: &Vec<String>| {
        w.get(1).is_some_and(|t| TOOLS.contains(&t.as_str()) || ["help", "--help", "--version"].contains(&t.as_str()))
    };
    joined
        .lines()
        .map(|l| l.trim().trim_start_matches("$ "))
        .filter(|l| l.starts_with("chuhe ") && !l.contains('|'))
        .map(words)
        .filter(command)
        .collect()
}

/// Whether an example is quick enough for a test: no match, bench, datagen or tune run, and
/// perft no deeper than 4.
fn quick(cmd: &[String]) -> bool {
    let depth = |flag: &str| {
        cmd.iter().position(|w| w == flag).and_then(|i| cmd.get(i + 1)).and_then(|d| d.parse::<u32>().ok())
    };
    match cmd.get(1).map(String::as_str) {
        Some("match" | "bench" | "datagen" | "tune") => false,
        Some("perft") => depth("--depth").unwrap_or(0) <= 4 && depth("--depth-limit").unwrap_or(0) <= 4,
        _ => true,
    }
}

/// Runs a documented example as written from the source directory, `chuhe` on the PATH.
fn run_example(cmd: &[String]) -> Output {
    let bin = Path::new(CHUHE).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    Command::new(CHUHE)
        .args(&cmd[1..])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path)
        .output()
        .expect("run the example")
}

/// Every quick example runs: status 0, or 1 where the tool reports a difference it found.
fn check_examples(source: &str, text: &str) -> usize {
    let mut ran = 0;
    for cmd in commands(text).iter().filter(|c| quick(c)) {
        let o = run_example(cmd);
        let expected = if cmd.iter().any(|w| w == "arg=--drop") { 1 } else { 0 };
        assert_eq!(o.status.code(), Some(expected), "{source}: {cmd:?}: {}", stderr(&o));
        ran += 1;
    }
    ran
}

#[test]
fn params_prints_openbench_spsa_input_and_switches_apart() {
    // OpenBench takes 'name, int|float, start, min, max, C_end, R_end' lines, nothing else.
    let lines = ok(&chuhe(&["params"]));
    assert!(lines.lines().count() > 40, "{lines}");
    for line in lines.lines() {
        let f: Vec<&str> = line.split(", ").collect();
        assert_eq!((f.len(), f[1]), (7, "int"), "{line}");
        let n: Vec<i64> = f[2..6].iter().map(|v| v.parse().unwrap()).collect();
        assert!(n[1] <= n[0] && n[0] <= n[2] && n[3] >= 1 && n[3] <= n[2] - n[1], "{line}");
        assert_eq!(f[6], "0.002", "{line}");
    }
    let switches = ok(&chuhe(&["params", "--switches"]));
    assert!(switches.contains("null_move, bool, true\n") && switches.contains("probcut, bool, false\n"));
    assert!(switches.lines().all(|l| l.split(", ").nth(1) == Some("bool")), "{switches}");
}

#[test]
fn quick_help_examples_run_as_written() {
    let mut ran = 0;
    for tool in TOOLS {
        let help = ok(&chuhe(&[tool, "--help"]));
        let examples = help.split("\nexamples:\n").nth(1).unwrap_or_default();
        ran += check_examples(&format!("chuhe {tool} --help"), examples);
    }
    assert!(ran >= 12, "{ran} examples run");
}

#[test]
fn quick_readme_examples_run_as_written_and_name_files_that_exist() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut blocks = String::new();
    for (i, block) in readme.split("```").enumerate() {
        if i % 2 == 1 && block.starts_with("sh\n") {
            blocks += block;
        }
    }
    let all = commands(&blocks);
    for cmd in &all {
        for w in cmd.iter().map(|w| w.strip_prefix("file=").unwrap_or(w)) {
            if w.starts_with("samples/") || w.starts_with("perft/") || w.starts_with("tests/") {
                assert!(Path::new(env!("CARGO_MANIFEST_DIR")).join(w).exists(), "README names {w}");
            }
        }
    }
    assert!(all.len() >= 20, "{} commands", all.len());
    assert!(check_examples("README.md", &blocks) >= 10);
}

#[test]
fn example_word_splitting() {
    assert_eq!(words(r#"chuhe judge --fen "a b" --moves=x # note"#), ["chuhe", "judge", "--fen", "a b", "--moves=x"]);
    assert_eq!(words(r#"chuhe x "" y"#), ["chuhe", "x", "", "y"]);
    assert_eq!(
        commands("$ chuhe judge \\\n   b\nchuhe stats c | grep d\nnot chuhe\nchuhe 0.1.0: x\n"),
        [vec!["chuhe", "judge", "b"]]
    );
}

/// The machine's available memory in MB (Linux), as the tools read it.
fn free_mb() -> Option<u64> {
    chuhe::memory::free_memory_mb().map(|m| m as u64)
}

#[test]
fn tables_beyond_the_machine_are_refused_before_they_are_touched() {
    let Some(free) = free_mb() else { return };
    // Twice the free memory: filling it would end in an out-of-memory kill.
    let mb = free * 2;
    if mb <= 65536 {
        refused(&["perft", "3", "--hash", &mb.to_string()], "chuhe perft: ", "MB of memory is free");
    }
    let threads = (mb / 4096 + 1).clamp(1, 256);
    if threads * 4096 > free {
        let out = temp("huge.bin");
        let args = ["datagen", "--out", out.to_str().unwrap(), "--threads", &threads.to_string(), "--hash", "4096"];
        refused(&args, "chuhe datagen: ", "(a table per thread) asks for");
        assert!(!out.exists(), "refused before the file is made");
    }
}
