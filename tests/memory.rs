//! The hash table's memory, seen from outside the real binary (Linux `/proc`): setting the
//! size maps exactly that much more, shrinking gives it back, and clearing and resizing while
//! idle leave an engine that still searches.
#![cfg(target_os = "linux")]

mod common;

use common::{errors, Engine};
use std::time::Duration;

const MIB: i64 = 1024 * 1024;

/// Sends `line`, waits until the engine has handled it, and asserts it reported no error.
fn settle(e: &mut Engine, line: &str) {
    let lines = e.ask(line);
    assert!(errors(&lines).is_empty(), "{line}: {lines:?}");
}

/// A `/proc/<pid>/status` field in bytes (e.g. `VmSize`, `VmRSS`).
fn status_bytes(e: &Engine, field: &str) -> i64 {
    let text = std::fs::read_to_string(format!("/proc/{}/status", e.pid())).expect("read /proc status");
    let line = text.lines().find(|l| l.starts_with(&format!("{field}:"))).expect("field present");
    let kb: i64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

fn search_works(e: &mut Engine, go: &str) {
    e.send("position startpos moves h2e2");
    e.send(go);
    let (best, _) = e.search_end();
    assert!(best.starts_with("bestmove ") && best.split_whitespace().nth(1).is_some_and(|m| m.len() == 4), "{best}");
}

fn quit(mut e: Engine) {
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(20)).expect("engine exits");
    assert!(status.success());
}

/// Asserts `got` is `want` MiB give or take 4 MiB (allocator rounding, a stray thread stack).
fn about(got: i64, want: i64, what: &str) {
    assert!((got - want * MIB).abs() <= 4 * MIB, "{what}: {:.1} MiB, expected {want} MiB", got as f64 / MIB as f64);
}

#[test]
fn uci_hash_size_resize_and_clear() {
    let (mut e, _) = Engine::handshake("uci");
    e.sync();
    let base = status_bytes(&e, "VmSize"); // with the default 16 MB table
    settle(&mut e, "setoption name Hash value 256");
    about(status_bytes(&e, "VmSize") - base, 240, "address space grown by Hash 16 -> 256");
    settle(&mut e, "setoption name Clear Hash");
    settle(&mut e, "ucinewgame");
    search_works(&mut e, "go depth 3");
    e.sync();
    // Measured across the resize only: a search thread leaves a malloc arena mapped.
    let before = status_bytes(&e, "VmSize");
    settle(&mut e, "setoption name Hash value 16");
    about(before - status_bytes(&e, "VmSize"), 240, "address space given back by Hash 256 -> 16");
    search_works(&mut e, "go nodes 2000");
    quit(e);
}

#[test]
fn ucci_hashsize_resize() {
    let (mut e, _) = Engine::handshake("ucci");
    e.sync();
    let base = status_bytes(&e, "VmSize");
    settle(&mut e, "setoption hashsize 128");
    about(status_bytes(&e, "VmSize") - base, 112, "address space grown by hashsize 16 -> 128");
    search_works(&mut e, "go depth 3");
    settle(&mut e, "setoption newgame");
    let before = status_bytes(&e, "VmSize");
    settle(&mut e, "setoption hashsize 16");
    about(before - status_bytes(&e, "VmSize"), 112, "address space given back by hashsize 128 -> 16");
    search_works(&mut e, "go depth 2");
    quit(e);
}
