//! `chuhe bench` from the binary: one line per position, one summary line, Pikafish's
//! closing block, and a node count that is the same on every run (the search's signature).

use std::process::Command;

fn bench(depth: &str) -> (Vec<String>, u64) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe")).args(["bench", "--depth", depth]).output().unwrap();
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

#[test]
fn bench_rejects_a_bad_depth() {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe")).args(["bench", "--depth", "x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}
