//! The hash table's memory, seen from outside the real binary (Linux `/proc`): setting the
//! size maps exactly that much more, shrinking gives it back, and clearing and resizing while
//! idle leave an engine that still searches.
#![cfg(target_os = "linux")]

mod common;

use common::{errors, Engine};
use std::process::Command;
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

#[test]
fn a_hash_the_machine_cannot_give_is_halved_with_a_note() {
    // The address space an engine takes with its default table, after a search.
    let (mut probe, _) = Engine::handshake("uci");
    search_works(&mut probe, "go depth 3");
    let base = status_bytes(&probe, "VmSize");
    quit(probe);
    // An engine allowed 900 MiB more than that (a small machine): Hash 2048 and 1024 cannot
    // be allocated, a smaller table can.
    let limit_kb = (base + 900 * MIB) / 1024;
    let mut cmd = Command::new("sh");
    cmd.args(["-c", &format!("ulimit -v {limit_kb} && exec \"$0\""), env!("CARGO_BIN_EXE_chuhe")]);
    let mut e = Engine::start_command(cmd);
    e.send("uci");
    e.until(|l| l == "uciok");
    let lines = e.ask("setoption name Hash value 2048");
    assert_eq!(lines.len(), 1, "{lines:?}");
    let used: i64 = lines[0]
        .strip_prefix("info string Hash 2048 MB: ")
        .and_then(|rest| rest.strip_suffix(" MB"))
        .and_then(|rest| rest.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!((1..1024).contains(&used), "{lines:?}");
    search_works(&mut e, "go depth 4");
    quit(e);
}
