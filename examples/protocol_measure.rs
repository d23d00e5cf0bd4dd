//! Measures the protocol front end from the outside, as a GUI sees it:
//! - stop latency: `go infinite`, wait, `stop`, time until `bestmove`;
//! - time use under a clock: a whole self-play game over UCCI (`usemillisec`) with a
//!   base + increment clock kept by this program, like a GUI would.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example protocol_measure -- [--engine target/release/chuhe]
//!     [--base-ms 60000] [--inc-ms 1000] [--plies 200] [--stops 20]
//! ```

use chuhe::board::{Move, Position};
use chuhe::rules::Game;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

struct Engine {
    stdin: std::process::ChildStdin,
    rx: Receiver<String>,
    child: std::process::Child,
}

impl Engine {
    fn send(&mut self, l: &str) {
        writeln!(self.stdin, "{l}").and_then(|_| self.stdin.flush()).expect("engine stdin");
    }

    fn until(&mut self, pred: impl Fn(&str) -> bool) -> String {
        loop {
            let l = self.rx.recv_timeout(Duration::from_secs(120)).expect("engine reply within 120 s");
            if pred(&l) {
                return l;
            }
        }
    }
}

fn arg(args: &[String], name: &str, default: &str) -> String {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned().unwrap_or(default.to_string())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = arg(&args, "--engine", "target/release/chuhe");
    let num = |name: &str, d: &str| -> u64 { arg(&args, name, d).parse().expect("a number") };
    let (base, inc, plies, stops) =
        (num("--base-ms", "60000"), num("--inc-ms", "1000"), num("--plies", "200"), num("--stops", "20"));
    let mut child = Command::new(&path).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("start engine");
    let out = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for l in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    let mut e = Engine { stdin: child.stdin.take().unwrap(), rx, child };
    e.send("ucci");
    e.until(|l| l == "ucciok");
    e.send("setoption usemillisec true");
    let is_end = |l: &str| l.starts_with("bestmove") || l == "nobestmove";

    // Stop latency, from a few different positions.
    let openings = ["", "h2e2", "h2e2 h9g7", "b2e2 b9c7 b0c2", "c3c4 g6g5 h0g2 h9g7"];
    let mut lat: Vec<f64> = Vec::new();
    for i in 0..stops as usize {
        let o = openings[i % openings.len()];
        e.send(&if o.is_empty() { "position startpos".to_string() } else { format!("position startpos moves {o}") });
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(200 + 37 * (i as u64 % 7)));
        let t = Instant::now();
        e.send("stop");
        e.until(is_end);
        lat.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    lat.sort_by(|a, b| a.total_cmp(b));
    if !lat.is_empty() {
        println!(
            "stop latency over {} stops: min {:.2} ms, median {:.2} ms, max {:.2} ms",
            lat.len(),
            lat[0],
            lat[lat.len() / 2],
            lat[lat.len() - 1]
        );
    }

    // A whole game under base + inc per side.
    let mut game = Game::new(Position::startpos());
    let mut clock = [base as i64, base as i64];
    let mut used = [0u64; 2];
    let mut max_move = [0u64; 2];
    let mut min_clock = [base as i64; 2];
    let mut texts: Vec<String> = Vec::new();
    let mut end = "ply limit".to_string();
    for ply in 0..plies as usize {
        if let Some(v) = game.verdict() {
            end = v.reason;
            break;
        }
        let me = ply % 2;
        let pos = if texts.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", texts.join(" "))
        };
        e.send(&pos);
        let t = Instant::now();
        e.send(&format!("go time {} increment {inc} opptime {} oppincrement {inc}", clock[me], clock[1 - me]));
        let reply = e.until(is_end);
        let ms = t.elapsed().as_millis() as u64;
        clock[me] -= ms as i64;
        min_clock[me] = min_clock[me].min(clock[me]);
        if clock[me] <= 0 {
            end = format!("side {me} lost on time at ply {ply}");
            break;
        }
        clock[me] += inc as i64;
        used[me] += ms;
        max_move[me] = max_move[me].max(ms);
        let Some(word) = reply.split_whitespace().nth(1) else {
            end = format!("no move at ply {ply}: {reply}");
            break;
        };
        let m = Move::parse(word).expect("ICCS move");
        if game.play(m).is_err() {
            end = format!("illegal move {m} at ply {ply}");
            break;
        }
        texts.push(m.to_string());
        if reply.ends_with("resign") {
            end = format!("resignation at ply {ply}");
            break;
        }
    }
    println!("clock game {} ms + {} ms/move, {} plies, ended: {end}", base, inc, texts.len());
    for (side, name) in ["Red", "Black"].iter().enumerate() {
        let n = texts.len().div_ceil(2).max(1) - if side == 1 && texts.len() % 2 == 1 { 1 } else { 0 };
        println!(
            "  {name}: used {} ms total, {} ms/move average, {} ms longest move, lowest clock {} ms, clock left {} ms",
            used[side],
            used[side] / n.max(1) as u64,
            max_move[side],
            min_clock[side],
            clock[side]
        );
    }
    e.send("quit");
    let _ = e.child.wait();
}
