//! The real binary fed random lines — junk bytes and shuffled protocol words — in both
//! dialects: it must stay alive, answer every `isready` promptly, stop on `stop`, and exit
//! cleanly on `quit`. Seeded, so every run sends the same lines.

mod common;

use common::rng::Rng;
use common::Engine;
use std::time::Duration;

/// First words: mostly searches and positions, every other command now and then.
const COMMANDS: &str =
    "go go go position position setoption isready stop ponderhit banmoves probe d eval ucinewgame uci ucci";

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
            let commands: Vec<&str> = COMMANDS.split(' ').collect();
            let mut words = vec![commands[rng.below(commands.len())]];
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

fn garbage_session(opener: &str, seed: u64) {
    let mut rng = Rng(seed);
    let (mut e, _) = Engine::handshake(opener);
    let (mut errors, mut bestmoves) = (0, 0);
    for i in 0..1000 {
        let mut line = random_line(&mut rng);
        line.push(b'\n');
        e.send_raw(&line);
        if i % 20 == 19 {
            let seen = e.sync();
            errors += seen.iter().filter(|l| l.contains("error")).count();
            bestmoves += seen.iter().filter(|l| l.starts_with("bestmove") || l.starts_with("nobestmove")).count();
        }
    }
    e.send("stop");
    e.sync();
    // The lines must reach both the error paths and real searches.
    eprintln!("{opener}: {errors} errors, {bestmoves} searches finished");
    assert!(errors > 100 && bestmoves > 5, "{errors} errors, {bestmoves} searches");
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(20)).expect("engine exits after quit");
    assert!(status.success(), "engine exited with {status}");
}

#[test]
fn ucci_survives_garbage() {
    garbage_session("ucci", 11);
}

#[test]
fn uci_survives_garbage() {
    garbage_session("uci", 12);
}
