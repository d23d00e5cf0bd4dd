//! The move played is the first move of the last principal variation shown, in all three
//! dialects: a GUI shows the line and score the engine plays, and the match runner's
//! score-based adjudication reads the score of the move played. Many short searches are cut
//! at arbitrary points (clock, `stop`, `?`), so some end inside an unfinished iteration; the
//! invariant must hold wherever the cut lands, so no timing can fail this test. The first
//! iteration always completes, so every search shows a line.

mod common;

use chuhe::board::{Move, Position};
use common::rng::Rng;
use common::*;
use std::time::Duration;

/// A start position a few random plies from the opening (seeded) and its move text.
fn random_opening(rng: &mut Rng) -> (Position, String) {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for _ in 0..2 + rng.below(7) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = rng.pick(&legal);
        pos.make_move(m);
        moves.push(m.to_string());
    }
    (pos, moves.join(" "))
}

/// Checks search `i`: the move `played` is legal in `pos` and opens the last line shown.
fn check_search(i: usize, pos: &Position, played: &str, last_line_first: Option<String>, lines: &[String]) {
    assert!(pos.is_legal(Move::parse(played).unwrap()), "search {i}: {played}");
    let first = last_line_first.unwrap_or_else(|| panic!("search {i}: no line shown"));
    assert_eq!(first, played, "search {i}: the last line shown is not the move played\n{lines:?}");
}

/// The first move of the last `pv` in UCI/UCCI `info` lines.
fn last_pv_move(info: &[String]) -> Option<String> {
    let line = info.iter().rev().find(|l| l.starts_with("info ") && l.contains(" pv "))?;
    line.split(" pv ").nth(1)?.split_whitespace().next().map(String::from)
}

/// Runs `searches` searches in a UCI or UCCI session: a third of them `go infinite` stopped
/// after a pause, the others the timed `go` that `timed` makes.
fn check_dialect(dialect: &str, seed: u64, searches: usize, timed: impl Fn(&mut Rng) -> String) {
    let (mut e, _) = Engine::handshake(dialect);
    if dialect == "ucci" {
        e.ask("setoption usemillisec true");
    }
    let mut rng = Rng(seed);
    for i in 0..searches {
        let (pos, moves) = random_opening(&mut rng);
        e.send(&format!("position startpos moves {moves}"));
        let stop = rng.below(3) == 0;
        let line = if stop { "go infinite".to_string() } else { timed(&mut rng) };
        e.send(&line);
        if stop {
            std::thread::sleep(Duration::from_millis(rng.below(150) as u64));
            e.send("stop");
        }
        let (best, info) = e.search_end();
        let played = best.split_whitespace().nth(1).unwrap_or_else(|| panic!("search {i}: '{best}'"));
        check_search(i, &pos, played, last_pv_move(&info), &info);
    }
}

#[test]
fn uci_plays_the_last_line_shown() {
    check_dialect("uci", 11, 40, |rng| format!("go movetime {}", 5 + rng.below(250)));
}

#[test]
fn uci_with_two_threads_plays_the_last_line_shown() {
    // A helper thread's shorter mate, when chosen, is shown too.
    let (mut e, _) = Engine::handshake("uci");
    e.ask("setoption name Threads value 2");
    for depth in 1..=8 {
        e.send("position fen 9/4k4/1R7/9/6N2/9/9/5K2C/9/2p6 w - - 0 1");
        e.send(&format!("go depth {depth}"));
        let (best, info) = e.search_end();
        assert_eq!(last_pv_move(&info).as_deref(), best.split_whitespace().nth(1), "{info:?}\n{best}");
    }
}

#[test]
fn ucci_plays_the_last_line_shown() {
    check_dialect("ucci", 12, 30, |rng| format!("go time {} increment 0", 200 + rng.below(4000)));
}

#[test]
fn xboard_plays_the_last_line_shown() {
    let mut e = Engine::start();
    for l in ["xboard", "protover 2"] {
        e.send(l);
    }
    e.until(|l| l == "feature done=1");
    let mut rng = Rng(13);
    for i in 0..30 {
        let (pos, moves) = random_opening(&mut rng);
        for l in ["new", "force", "post", "st 30"] {
            e.send(l);
        }
        for m in moves.split_whitespace() {
            e.send(&format!("usermove {m}"));
        }
        e.send("go");
        std::thread::sleep(Duration::from_millis(rng.below(200) as u64));
        e.send("?");
        let mut lines = e.until(|l| l.starts_with("move ") || l.contains(" {"));
        let last = lines.pop().unwrap();
        let played = last.strip_prefix("move ").unwrap_or_else(|| panic!("search {i}: '{last}'"));
        // Thinking output: `ply score time nodes pv...`.
        let pv_first = lines.iter().rev().find_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let numbers = w.len() > 4 && w[..4].iter().all(|x| x.trim_start_matches('-').parse::<i64>().is_ok());
            numbers.then(|| w[4].to_string())
        });
        check_search(i, &pos, played, pv_first, &lines);
    }
}
