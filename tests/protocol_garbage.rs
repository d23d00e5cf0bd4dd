//! The real binary fed random lines — junk bytes and shuffled protocol words — in both
//! dialects: it must stay alive, answer every `isready` promptly, stop on `stop`, and exit
//! cleanly on `quit`. Seeded, so every run sends the same lines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// Generous bound for a reply that should come at once.
const PROMPT: Duration = Duration::from_secs(20);

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const COMMANDS: &[&str] = &[
    "go",
    "go",
    "go",
    "position",
    "position",
    "setoption",
    "isready",
    "stop",
    "ponderhit",
    "banmoves",
    "probe",
    "d",
    "eval",
    "ucinewgame",
    "uci",
    "ucci",
];

/// Well-formed commands of either dialect (the other dialect rejects some of them).
const VALID: &[&str] = &[
    "go depth 1",
    "go depth 3",
    "go nodes 500",
    "go movetime 20",
    "go time 2 increment 0",
    "go wtime 500 btime 500 winc 0 binc 0",
    "go infinite",
    "go ponder",
    "stop",
    "stop",
    "ponderhit",
    "position startpos",
    "position startpos moves h2e2 h9g7",
    "position fen 4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1",
    "banmoves h2e2",
    "setoption name Hash value 8",
    "setoption hashsize 8",
    "setoption usemillisec true",
    "ucinewgame",
];

const WORDS: &[&str] = &[
    "go",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "ponder",
    "draw",
    "time",
    "increment",
    "opptime",
    "movestogo",
    "wtime",
    "btime",
    "winc",
    "binc",
    "searchmoves",
    "mate",
    "position",
    "startpos",
    "fen",
    "moves",
    "setoption",
    "name",
    "value",
    "Hash",
    "hashsize",
    "Threads",
    "MultiPV",
    "usemillisec",
    "true",
    "false",
    "Clear",
    "newgame",
    "isready",
    "stop",
    "ponderhit",
    "banmoves",
    "probe",
    "d",
    "eval",
    "ucinewgame",
    "uci",
    "ucci",
    "h2e2",
    "h9g7",
    "b0c2",
    "a0a9",
    "e0e1",
    "i9i0",
    "0000",
    "z9z9",
    "0",
    "1",
    "2",
    "3",
    "-5",
    "100",
    "1e9",
    "18446744073709551616",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "4k4/9/9/9/9/9/9/9/9/4K4",
    "w",
    "b",
    "-",
    "\t",
    "",
];

/// A random line: junk bytes, a well-formed command, or a command word followed by random
/// protocol words. Lines that make the engine
/// slow *by request* (perft, big tables, many threads) or end the session (`quit`) are left out.
fn random_line(rng: &mut Rng) -> Vec<u8> {
    let line: Vec<u8> = match rng.below(3) {
        0 => (0..rng.below(60)).map(|_| rng.below(256) as u8).filter(|&b| b != b'\n').collect(),
        1 => VALID[rng.below(VALID.len())].as_bytes().to_vec(),
        _ => {
            let n = rng.below(8);
            let mut words = vec![COMMANDS[rng.below(COMMANDS.len())]];
            words.extend((0..n).map(|_| WORDS[rng.below(WORDS.len())]));
            words.join(" ").into_bytes()
        }
    };
    let text = String::from_utf8_lossy(&line).to_ascii_lowercase();
    let big_number = text.split(|c: char| !c.is_ascii_digit()).any(|n| n.len() > 1);
    let first = text.split_whitespace().next().unwrap_or("");
    if text.contains("perft") || first == "quit" || ((text.contains("hash") || text.contains("thread")) && big_number) {
        return b"isready".to_vec();
    }
    line
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).and_then(|()| self.stdin.write_all(b"\n")).expect("engine is alive");
        self.stdin.flush().unwrap();
    }

    /// Waits for `want`; returns the lines seen before it.
    fn expect(&mut self, want: &str, context: &str) -> Vec<String> {
        let deadline = Instant::now() + PROMPT;
        let mut seen = Vec::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(l) if l == want => return seen,
                Ok(l) => seen.push(l),
                Err(_) => break,
            }
        }
        let tail: Vec<_> = seen.iter().rev().take(10).collect();
        panic!("no '{want}' after {context}; last lines: {tail:?}");
    }
}

fn garbage_session(opener: &str, ok: &str, seed: u64) {
    let mut rng = Rng(seed);
    let mut e = Engine::start();
    e.send(opener.as_bytes());
    e.expect(ok, opener);
    let (mut errors, mut bestmoves) = (0, 0);
    for i in 0..1000 {
        let line = random_line(&mut rng);
        e.send(&line);
        if i % 20 == 19 {
            e.send(b"isready");
            let seen = e.expect("readyok", &format!("line {i}: {:?}", String::from_utf8_lossy(&line)));
            errors += seen.iter().filter(|l| l.contains("error")).count();
            bestmoves += seen.iter().filter(|l| l.starts_with("bestmove") || l.starts_with("nobestmove")).count();
        }
    }
    e.send(b"stop");
    e.send(b"isready");
    e.expect("readyok", "the final stop");
    // The lines must reach both the error paths and real searches.
    eprintln!("{opener}: {errors} errors, {bestmoves} searches finished");
    assert!(errors > 100 && bestmoves > 5, "{errors} errors, {bestmoves} searches");
    e.send(b"quit");
    let deadline = Instant::now() + PROMPT;
    loop {
        if let Some(status) = e.child.try_wait().unwrap() {
            assert!(status.success(), "engine exited with {status}");
            return;
        }
        assert!(Instant::now() < deadline, "engine did not exit after quit");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn ucci_survives_garbage() {
    garbage_session("ucci", "ucciok", 11);
}

#[test]
fn uci_survives_garbage() {
    garbage_session("uci", "uciok", 12);
}
