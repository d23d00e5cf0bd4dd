//! Every tool ends quietly when the reader of its stdout goes away (`chuhe params | head -1`):
//! status 0 (it had written all it had) or 141 (a write found the reader gone), never a panic.
//! Each tool runs many times with its stdout's reader closed before it starts, so every write
//! fails, and many times with the reader closing after the first bytes, so one fails midway.
//! Either way the outcome asserted is the same, so the machine's load cannot change it.

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const CHUHE: &str = env!("CARGO_BIN_EXE_chuhe");

/// How many times each tool runs in each of the two ways.
const RUNS: usize = 6;

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("broken_pipe");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs `chuhe args` with a reader on its stdout that reads `first` bytes (0: the reader is
/// closed before the tool starts) and then goes away; checks the status and stderr.
fn run_closed(args: &[String], first: usize) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    let reader = if first == 0 {
        drop(reader);
        None
    } else {
        Some(reader)
    };
    let mut child = Command::new(CHUHE)
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn chuhe");
    if let Some(mut reader) = reader {
        let mut buf = vec![0u8; first];
        let _ = reader.read(&mut buf);
    }
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{args:?}: {err}");
    let quiet = matches!(status.code(), Some(0) | Some(141)) || status.signal() == Some(13);
    assert!(quiet, "{args:?} (reader read {first} bytes): {status}: {err}");
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn every_tool_ends_quietly_when_its_reader_goes_away() {
    let data = temp("data.bin");
    let book = temp("sample.book");
    let (d, b) = (data.to_str().unwrap(), book.to_str().unwrap());
    let setup = [
        format!("datagen --out {d} --games 2 --nodes 300 --seed 1"),
        format!("book build --pgn samples/games.pgn --out {b} --min-games 1"),
    ];
    for line in &setup {
        let run = Command::new(CHUHE).args(words(line)).output().unwrap();
        assert!(run.status.success(), "{line}: {}", String::from_utf8_lossy(&run.stderr));
    }
    let net = temp("net.nnue");
    let weights = temp("weights.rs");
    let mut cases: Vec<Vec<String>> = [
        "--help".into(),
        "--version".into(),
        "help judge".into(),
        "params".into(),
        "params --switches".into(),
        "judge --file samples/games.txt".into(),
        "judge --file samples/games.pgn --json".into(),
        "perft --depth 3 --divide".into(),
        "perft --depth 2 --threads 2 --hash 4".into(),
        "perft --epd perft/suite.epd --depth-limit 2".into(),
        "perft-diff --engine chuhe --depth 2".replace("chuhe", CHUHE),
        "stats samples/games.pgn".into(),
        "analyze samples/games.pgn --depth 2".into(),
        format!("diagram --moves h2e2 --out {}", temp("board.svg").display()),
        format!("book probe --book {b}"),
        format!("book build --pgn samples/games.pgn --out {b} --min-games 1"),
        "bench --depth 2".into(),
        format!("datagen --stats {d}"),
        format!("tune --data {d} --epochs 2 --out {}", weights.display()),
        format!("train --data {d} --epochs 1 --batch 64 --out {}", net.display()),
        format!("match -engine cmd={CHUHE} name=A -engine cmd={CHUHE} name=B -each proto=uci nodes=200 -games 2"),
        format!("play --depth 1 --side black --pgn-out {}", temp("play.pgn").display()),
    ]
    .iter()
    .map(|s| words(s))
    .collect();
    cases.push(vec!["judge".into(), "--moves".into(), "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9".into()]);
    // Every tool `chuhe --help` lists, by name.
    let help = Command::new(CHUHE).arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let tools = help.split("\ntools:\n").nth(1).unwrap().lines().map_while(|l| l.strip_prefix("  "));
    let tools: Vec<String> = tools.map(|l| l.split_whitespace().next().unwrap().to_string()).collect();
    assert!(tools.contains(&"perft".to_string()) && tools.contains(&"analyze".to_string()), "{tools:?}");
    for tool in tools {
        cases.push(vec![tool, "--help".into()]);
    }
    for args in &cases {
        for _ in 0..RUNS {
            run_closed(args, 0);
            run_closed(args, 1);
        }
    }
}
