//! `chuhe bench` from the binary: one line per position, one summary line, Pikafish's
//! closing block, and a node count that is the same on every run (the search's signature),
//! pinned in `bench_signature.txt`.

use std::process::Command;

fn bench(depth: &str) -> (Vec<String>, u64) {
    let mut args = vec!["bench"];
    if !depth.is_empty() {
        args.extend(["--depth", depth]);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe")).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    // The summary line, then Pikafish's block: '=' line, time, nodes, speed.
    let n = lines.len();
    assert!(n > 5, "{text}");
    let summary = lines[n - 5].split_whitespace().collect::<Vec<_>>();
    assert_eq!((summary.len(), summary[0], summary[2], summary[4]), (6, "nodes", "time", "nps"), "{text}");
    let nodes: u64 = summary[1].parse().unwrap();
    assert_eq!(lines[n - 4], "=".repeat(27));
    assert!(lines[n - 3].starts_with("Total time (ms) : "), "{text}");
    assert_eq!(lines[n - 2], format!("Nodes searched  : {nodes}"));
    assert!(lines[n - 1].strip_prefix("Nodes/second    : ").is_some_and(|r| r.parse::<u64>().is_ok()), "{text}");
    (lines, nodes)
}

#[test]
fn bench_node_count_is_a_stable_signature() {
    let (lines, a) = bench("5");
    assert!(lines.len() > 30, "one line per position");
    assert_eq!(lines.iter().filter(|l| l.starts_with("nodes ")).count(), 1);
    let (_, b) = bench("5");
    assert_eq!(a, b);
    let (_, deeper) = bench("6");
    assert!(deeper > a);
}

/// The signature `chuhe bench` must print: the number in `tests/bench_signature.txt`.
fn pinned_signature() -> u64 {
    let text = include_str!("bench_signature.txt");
    let mut numbers = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    let pinned = numbers.next().expect("bench_signature.txt holds the node count");
    assert!(numbers.next().is_none(), "bench_signature.txt holds one number");
    pinned.parse().expect("bench_signature.txt: a whole number")
}

#[test]
fn bench_prints_the_pinned_signature() {
    let (_, nodes) = bench("");
    let pinned = pinned_signature();
    assert_eq!(
        nodes, pinned,
        "chuhe bench searched {nodes} nodes, tests/bench_signature.txt pins {pinned}: the search changed. \
         If on purpose, write {nodes} there in the same commit and say 'bench {nodes}' in its message."
    );
}

#[test]
fn bench_rejects_a_bad_depth() {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe")).args(["bench", "--depth", "x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}
