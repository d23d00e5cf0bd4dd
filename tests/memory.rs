//! The hash table's memory, seen from outside the real binary (Linux `/proc`): setting the
//! size maps exactly that much more, shrinking gives it back, and clearing and resizing while
//! idle leave an engine that still searches.
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const MIB: i64 = 1024 * 1024;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(opener: &str, ok: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the engine");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut e = Engine { child, stdin, lines };
        e.send(opener);
        e.wait_for(ok);
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()).expect("engine is alive");
    }

    fn wait_for(&mut self, prefix: &str) -> String {
        loop {
            let l = self.lines.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|_| panic!("no '{prefix}'"));
            assert!(!l.contains("error"), "engine said: {l}");
            if l.starts_with(prefix) {
                return l;
            }
        }
    }

    /// Waits until the engine has handled everything sent so far.
    fn sync(&mut self) {
        self.send("isready");
        self.wait_for("readyok");
    }

    /// Sends `line`, then waits until the engine has handled it.
    fn settle(&mut self, line: &str) {
        self.send(line);
        self.sync();
    }

    /// A `/proc/<pid>/status` field in bytes (e.g. `VmSize`, `VmRSS`).
    fn status_bytes(&self, field: &str) -> i64 {
        let text = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("read /proc status");
        let line = text.lines().find(|l| l.starts_with(&format!("{field}:"))).expect("field present");
        let kb: i64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kb * 1024
    }

    fn search_works(&mut self, go: &str) {
        self.send("position startpos moves h2e2");
        self.send(go);
        let best = self.wait_for("bestmove");
        assert!(best.split_whitespace().nth(1).is_some_and(|m| m.len() == 4), "{best}");
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("engine exits");
        assert!(status.success());
    }
}

/// Asserts `got` is `want` MiB give or take 4 MiB (allocator rounding, a stray thread stack).
fn about(got: i64, want: i64, what: &str) {
    assert!((got - want * MIB).abs() <= 4 * MIB, "{what}: {:.1} MiB, expected {want} MiB", got as f64 / MIB as f64);
}

#[test]
fn uci_hash_size_resize_and_clear() {
    let mut e = Engine::start("uci", "uciok");
    e.sync();
    let base = e.status_bytes("VmSize"); // with the default 16 MB table
    e.settle("setoption name Hash value 256");
    about(e.status_bytes("VmSize") - base, 240, "address space grown by Hash 16 -> 256");
    e.settle("setoption name Clear Hash");
    e.settle("ucinewgame");
    e.search_works("go depth 3");
    e.sync();
    // Measured across the resize only: a search thread leaves a malloc arena mapped.
    let before = e.status_bytes("VmSize");
    e.settle("setoption name Hash value 16");
    about(before - e.status_bytes("VmSize"), 240, "address space given back by Hash 256 -> 16");
    e.search_works("go nodes 2000");
    e.quit();
}

#[test]
fn ucci_hashsize_resize() {
    let mut e = Engine::start("ucci", "ucciok");
    e.sync();
    let base = e.status_bytes("VmSize");
    e.settle("setoption hashsize 128");
    about(e.status_bytes("VmSize") - base, 112, "address space grown by hashsize 16 -> 128");
    e.search_works("go depth 3");
    e.settle("setoption newgame");
    let before = e.status_bytes("VmSize");
    e.settle("setoption hashsize 16");
    about(before - e.status_bytes("VmSize"), 112, "address space given back by hashsize 128 -> 16");
    e.search_works("go depth 2");
    e.quit();
}
