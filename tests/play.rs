//! `chuhe play` driven as a person would: the real binary in a pseudo-terminal of 80×24, lines
//! typed, the screen's text read. Each step waits for the text it expects (at most
//! `common::WAIT`, which only catches a hang); nothing depends on how fast the engine is. The
//! engine searches to `--depth 2` with one thread, so its replies are fixed.

mod common;

use chuhe::board::{Move, Position};
use chuhe::matches::pgn::read_games;
use chuhe::search::{Engine, Limits};
use common::WAIT;
use portable_pty::{native_pty_system, Child, CommandBuilder, PtySize};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A position where Red mates in one with i0i9 (the rook on a8 holds rank 8).
const MATE_IN_ONE: &str = "3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1";

/// `chuhe play` running in a pseudo-terminal.
struct Pty {
    child: Box<dyn Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    /// Every byte the program wrote.
    raw: Arc<Mutex<Vec<u8>>>,
    /// How much of the screen text has been matched already.
    seen: usize,
}

impl Pty {
    /// Starts `chuhe play ARGS` in `dir`, `no_color` setting NO_COLOR.
    fn start(args: &[&str], dir: &PathBuf, no_color: bool) -> Pty {
        let pair = native_pty_system()
            .openpty(PtySize { rows: 24, cols: 80, pixel_width: 0, pixel_height: 0 })
            .expect("open a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_chuhe"));
        cmd.arg("play");
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        let child = pair.slave.spawn_command(cmd).expect("spawn chuhe play");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let writer = pair.master.take_writer().expect("pty writer");
        let raw = Arc::new(Mutex::new(Vec::new()));
        let sink = raw.clone();
        std::thread::spawn(move || {
            let _master = pair.master; // kept open while the reader reads
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Pty { child, writer, raw, seen: 0 }
    }

    /// The screen's text so far: every byte written, escape sequences removed.
    fn text(&self) -> String {
        strip_escapes(&String::from_utf8_lossy(&self.raw.lock().unwrap()))
    }

    /// Waits for `needle` after the text matched so far; returns the text up to and
    /// including it.
    fn expect(&mut self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let text = self.text();
            if let Some(at) = text.get(self.seen..).and_then(|t| t.find(needle)) {
                let end = self.seen + at + needle.len();
                let got = text[self.seen..end].to_string();
                self.seen = end;
                return got;
            }
            assert!(start.elapsed() < WAIT, "no '{needle}' on the screen:\n{}", &text[self.seen.min(text.len())..]);
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Types `line` and Enter.
    fn send(&mut self, line: &str) {
        write!(self.writer, "{line}\r").unwrap();
        self.writer.flush().unwrap();
    }

    /// Waits for the program to end; its exit code.
    fn wait_exit(&mut self) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.exit_code();
            }
            assert!(start.elapsed() < WAIT, "chuhe play did not exit:\n{}", self.text());
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// `s` without ANSI escape sequences (CSI `ESC [ ... letter`, and two-byte `ESC x`).
fn strip_escapes(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        if chars.next() == Some('[') {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        }
    }
    out
}

/// A fresh directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("play").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The engine's move at depth 2 after `moves` from the start, as a fresh one-thread engine
/// (the one `chuhe play` runs) finds it.
fn depth2_reply(moves: &[&str]) -> String {
    let moves: Vec<Move> = moves.iter().map(|m| Move::parse(m).unwrap()).collect();
    let mut engine = Engine::new();
    let r = engine.search_sync(&Position::startpos(), &moves, Limits { depth: Some(2), ..Limits::default() });
    r.best.unwrap().to_string()
}

/// The moves of the only game of a PGN file.
fn pgn_moves(path: &PathBuf) -> (Vec<String>, Option<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let games = read_games(&text);
    assert_eq!(games.len(), 1, "{text}");
    let (_, moves) = games[0].start_and_moves().unwrap();
    (moves.iter().map(|m| m.to_string()).collect(), games[0].tag("Result").map(String::from))
}

#[test]
fn a_move_the_reply_an_illegal_move_a_hint_undo_and_resign() {
    let d = dir("resign");
    let mut p = Pty::start(&["--depth", "2", "--pgn-out", "game.pgn"], &d, false);
    let first = p.expect("Red to move (you)> ");
    assert!(first.contains('帥') && first.contains('將') && first.contains("楚"), "{first}");
    assert!(String::from_utf8_lossy(&p.raw.lock().unwrap()).contains("\x1b["), "drawn in colour");
    p.send("h2e2");
    let reply = depth2_reply(&["h2e2"]);
    p.expect(&format!("Chuhe plays {reply} ("));
    p.expect("Red to move (you)> ");

    p.send("h2h9");
    p.expect("h2h9 is not a legal move here: there is no piece on h2");
    p.send("e2e9");
    p.expect("e2e9 is not a legal move here: a cannon on e2 cannot go to e9");
    p.send("frobnicate");
    p.expect("'frobnicate' is neither a move");

    p.send("hint");
    let hint = p.expect("for you)");
    let hint = hint.split("Hint: ").nth(1).unwrap().split(' ').next().unwrap().to_string();
    let mut pos = Position::startpos();
    for m in ["h2e2", reply.as_str()] {
        pos.make_move(Move::parse(m).unwrap());
    }
    assert!(pos.is_legal(Move::parse(&hint).unwrap()), "hint {hint}");

    p.send("undo");
    p.expect("Took back the engine's reply and your move");
    p.send("undo");
    p.expect("Nothing to take back yet");
    p.send("h0g2");
    let reply2 = depth2_reply(&["h0g2"]);
    p.expect(&format!("Chuhe plays {reply2} ("));
    p.expect("Red to move (you)> ");
    p.send("resign");
    p.expect("Game over: 0-1 {Red resigns}");
    p.expect("The game is saved in game.pgn");
    assert_eq!(p.wait_exit(), 0);
    let (moves, result) = pgn_moves(&d.join("game.pgn"));
    assert_eq!(moves, ["h0g2", reply2.as_str()], "the taken-back moves are gone");
    assert_eq!(result.as_deref(), Some("0-1"));
}

#[test]
fn the_players_mate_ends_the_game_with_the_judges_reason() {
    let d = dir("mate");
    let mut p = Pty::start(&["--depth", "2", "--fen", MATE_IN_ONE, "--pgn-out", "mate.pgn"], &d, false);
    p.expect("Red to move (you)> ");
    p.send("i0i9");
    p.expect("Game over: 1-0 {Black loses: checkmate}");
    assert_eq!(p.wait_exit(), 0);
    let text = std::fs::read_to_string(d.join("mate.pgn")).unwrap();
    assert!(text.contains("[FEN \"3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1\"]"), "{text}");
    assert!(text.contains("I0-I9 {Black loses: checkmate} 1-0"), "{text}");
    // The judge rules the saved game alike.
    let judged = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["judge", "--file", d.join("mate.pgn").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&judged.stdout).contains("1-0 {Black loses: checkmate}"));
}

#[test]
fn without_colours_the_board_is_plain_text_and_says_so_once() {
    let d = dir("plain");
    let mut p = Pty::start(&["--depth", "2", "--side", "black", "--pgn-out", "plain.pgn"], &d, true);
    let reply = depth2_reply(&[]);
    let screen = p.expect("Black to move (you)> ");
    assert!(screen.contains(&format!("Chuhe plays {reply} (")), "{screen}");
    // Black at the bottom: Red's pieces on top, the files from i to a.
    assert!(screen.contains(" 0 R---N---B---A---K---A---B---N---R"), "{screen}");
    assert!(screen.contains("   i   h   g   f   e   d   c   b   a"), "{screen}");
    let marked = screen.as_bytes().windows(3).any(|w| w[0] == b'(' && w[1].is_ascii_uppercase() && w[2] == b')');
    assert!(marked && screen.contains('*'), "the last move is marked: {screen}");
    p.send("flip");
    let flipped = p.expect("Red is at the bottom now");
    assert!(flipped.contains(" 9 r---n---b---a---k---a---b---n---r"), "{flipped}");
    p.send("quit");
    p.expect("Game left unfinished: Black left the game");
    assert_eq!(p.wait_exit(), 0);
    let raw = p.raw.lock().unwrap().clone();
    assert!(!raw.contains(&0x1b), "no escape codes at all");
    let text = String::from_utf8_lossy(&raw);
    assert_eq!(text.matches("no colours (NO_COLOR is set)").count(), 1, "{text}");
    let (moves, result) = pgn_moves(&d.join("plain.pgn"));
    assert_eq!((moves, result.as_deref()), (vec![reply], Some("*")));
}

#[test]
fn from_a_pipe_the_game_is_plain_and_ends_at_the_end_of_input() {
    let d = dir("pipe");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["play", "--depth", "2", "--letters", "--pgn-out", "pipe.pgn"])
        .current_dir(&d)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"h2e2\nh2e2\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("chuhe play: no colours (the output is not a terminal)"), "{text}");
    assert!(text.contains("Red to move (you)> h2e2\n"), "typed lines are shown: {text}");
    assert!(text.contains("Game left unfinished: Red left the game"), "{text}");
    let (moves, _) = pgn_moves(&d.join("pipe.pgn"));
    assert_eq!(moves, ["h2e2", depth2_reply(&["h2e2"]).as_str()]);
}

#[test]
fn a_draw_offer_is_declined_when_the_engine_stands_better_and_accepted_when_it_is_lost() {
    let d = dir("draw");
    let rook_up = "r2k5/9/9/9/9/9/9/9/4P4/4K4 w - - 0 1";
    let mut p = Pty::start(&["--depth", "2", "--fen", rook_up, "--pgn-out", "declined.pgn"], &d, false);
    p.expect("Red to move (you)> ");
    p.send("draw");
    p.expect("Chuhe declines the draw (its score +");
    p.send("quit");
    p.expect("No move was played: nothing saved");
    assert_eq!(p.wait_exit(), 0);
    assert!(!d.join("declined.pgn").exists());

    let mut p = Pty::start(&["--depth", "2", "--fen", MATE_IN_ONE, "--pgn-out", "agreed.pgn"], &d, false);
    p.expect("Red to move (you)> ");
    p.send("draw");
    p.expect("Game over: 1/2-1/2 {Draw agreed (Chuhe accepts: its score -M1");
    assert_eq!(p.wait_exit(), 0);
}

#[test]
fn a_player_whose_clock_runs_out_loses_on_time() {
    let d = dir("clock");
    // 0.001 minutes: a 60 ms clock, and the move is typed well after it has run out.
    let mut p = Pty::start(&["--depth", "2", "--time", "0.001", "--pgn-out", "clock.pgn"], &d, false);
    p.expect("Red to move (you)> ");
    std::thread::sleep(std::time::Duration::from_millis(300));
    p.send("h2e2");
    p.expect("Game over: 0-1 {Red loses on time}");
    assert_eq!(p.wait_exit(), 0);
    let text = std::fs::read_to_string(d.join("clock.pgn")).unwrap();
    assert!(text.contains("[TimeControl \"0.06\"]") && text.contains("[Termination \"time forfeit\"]"), "{text}");
}

#[test]
fn the_engine_plays_its_book_moves() {
    let d = dir("book");
    let book = d.join("sample.book");
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/games.pgn");
    let built = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["book", "build", "--pgn", games, "--out", book.to_str().unwrap(), "--min-games", "1"])
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let probe = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["book", "probe", "--book", book.to_str().unwrap()])
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&probe.stdout).to_string();
    let book_moves: Vec<&str> = listing.lines().skip(1).filter_map(|l| l.split_whitespace().next()).collect();
    assert!(!book_moves.is_empty(), "{listing}");
    let mut p = Pty::start(&["--depth", "2", "--side", "black", "--book", "sample.book", "--seed", "1"], &d, true);
    let screen = p.expect("Black to move (you)> ");
    let played = screen.split("Chuhe plays ").nth(1).unwrap().split(' ').next().unwrap();
    assert!(book_moves.contains(&played), "{played} not in {book_moves:?}");
    assert!(screen.contains(&format!("Chuhe plays {played} (book move (weight ")), "{screen}");
    p.send("quit");
    assert_eq!(p.wait_exit(), 0);
    // Without --pgn-out the game goes to chuhe-play-DATE-TIME.pgn in the current directory.
    let saved: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("chuhe-play-") && n.ends_with(".pgn"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert_eq!(pgn_moves(&d.join(&saved[0])).0, [played]);
}

#[test]
fn a_chinese_notation_game_is_replayed_through_its_gbk_book_and_typed_moves() {
    // The book is built from the GBK file; the player types Red's moves in Chinese, the engine
    // answers from the book: the first 20 plies of the sample come back as their ICCS twin.
    let d = dir("chinese");
    let sample = |name: &str| format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"));
    let built = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["book", "build", "--pgn", &sample("notation-chinese-gbk.pgn"), "--out", "c.book", "--min-games", "1"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let chinese = read_games(&std::fs::read_to_string(sample("notation-chinese.pgn")).unwrap());
    let iccs = read_games(&std::fs::read_to_string(sample("notation-iccs.pgn")).unwrap());
    let twin: Vec<String> = iccs[0].start_and_moves().unwrap().1.iter().map(|m| m.to_string()).collect();
    let typed: String = chinese[0].moves.iter().step_by(2).take(10).map(|m| format!("{m}\n")).collect();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args([
            "play",
            "--depth",
            "2",
            "--book",
            "c.book",
            "--notation",
            "chinese",
            "--pgn-out",
            "c.pgn",
            "--seed",
            "1",
        ])
        .current_dir(&d)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(typed.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(&format!("Chuhe plays {} (book move", chinese[0].moves[1])), "{text}");
    let (moves, _) = pgn_moves(&d.join("c.pgn"));
    assert_eq!(moves, twin[..20], "{text}");
}
