//! UCI sessions against the real binary: handshake and options, a clocked game, stop latency,
//! pondering, searchmoves, MultiPV, no-move, EOF, and bad input.

mod common;

use chuhe::board::Position;
use chuhe::protocol::options::DEFAULT_MOVE_OVERHEAD_MS;
use common::*;
use std::time::{Duration, Instant};

fn uci() -> Engine {
    Engine::handshake("uci").0
}

#[test]
fn handshake_and_options() {
    let (mut e, lines) = Engine::handshake("uci");
    assert!(lines[0].starts_with("id name Chuhe"), "{lines:?}");
    for name in [
        "Hash",
        "Threads",
        "Clear Hash",
        "Ponder",
        "MultiPV",
        "Move Overhead",
        "UCI_Variant",
        "UCI_ShowWDL",
        "Skill Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "OwnBook",
        "BookFile",
        "UseNNUE",
        "EvalFile",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {name} type "))), "{name}: {lines:?}");
    }
    assert_eq!(lines.iter().filter(|l| l.starts_with("option ")).count(), 15, "{lines:?}");
    assert!(lines.contains(&"option name UCI_Variant type combo default xiangqi var xiangqi".to_string()));
    assert!(lines.contains(&"option name UCI_ShowWDL type check default false".to_string()));
    for ok in [
        "setoption name Hash value 32",
        "setoption name threads value 1",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name MultiPV value 2",
        "setoption name Move Overhead value 50",
        "ucinewgame",
    ] {
        assert_eq!(e.ask(ok), Vec::<String>::new(), "{ok}");
    }
    let lines = e.ask("setoption name Hash value 99999999");
    assert!(lines.len() == 1 && lines[0].starts_with("info string") && lines[0].contains("out of range"), "{lines:?}");
    let lines = e.ask("setoption name Threads value 0");
    assert!(lines.len() == 1 && lines[0].contains("out of range"), "{lines:?}");
    for bad in [
        "setoption name Threads value many",
        "setoption name Ponder value sometimes",
        "setoption name Hash",
        "setoption name NoSuchOption value 1",
        "setoption Hash 16",
        "setoption name",
    ] {
        e.refused(bad);
    }
    e.send("quit");
    assert!(e.wait_exit(WAIT).expect("exits after quit").success());
    assert!(!e.log.contains(&"bye".to_string()), "UCI has no bye");
}

#[test]
fn game_under_a_clock() {
    let mut e = uci();
    e.ask("ucinewgame");
    let used = play_clock_game(&mut e, 6, 3000, 100, |own, opp, red| {
        let (w, b) = if red { (own, opp) } else { (opp, own) };
        format!("go wtime {w} btime {b} winc 100 binc 100")
    });
    assert_eq!(used.len(), 6);
}

#[test]
fn the_movers_clock_is_used() {
    // Black to move with 1 s while Red has an hour: Black's clock must bound the search.
    let mut e = uci();
    e.send("position startpos moves h2e2");
    // Thinking on Red's hour would take minutes: `search_end` fails after WAIT.
    e.send("go wtime 3600000 btime 1000 depth 100");
    e.search_end();
}

#[test]
fn movetime_is_respected() {
    let mut e = uci();
    // The whole move time less the default Move Overhead is used (a lower bound holds on any
    // machine); ignoring the move time, depth 100 would never end.
    let t = Instant::now();
    let best = e.go("go movetime 300 depth 100");
    assert!(best.starts_with("bestmove "), "{best}");
    assert!(t.elapsed() >= Duration::from_millis(300 - DEFAULT_MOVE_OVERHEAD_MS), "{:?}", t.elapsed());
}

#[test]
fn stop_ends_infinite_and_info_lines() {
    // Stop latency is measured by `examples/protocol_measure.rs`, not asserted here.
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let (best, info) = e.search_end();
    assert!(Position::startpos().is_legal(best_of(&best)), "{best}");
    let pv = info.iter().find(|l| l.contains(" pv ")).expect("an info pv line");
    for key in ["depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time"] {
        assert!(word_after(pv, key).is_some(), "{key} missing: {pv}");
    }
    assert!(matches!(word_after(pv, "score"), Some("cp") | Some("mate")), "{pv}");
    // A stop while idle says nothing in UCI.
    assert_eq!(e.ask("stop"), Vec::<String>::new());
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = uci();
    e.ask("setoption name Ponder value true");
    scenario::ponder_then_ponderhit(&mut e, "position startpos moves h2e2 h9g7", "go ponder wtime 2000 btime 2000");
}

#[test]
fn ponder_then_stop_then_new_position() {
    let mut e = uci();
    let go = "go ponder wtime 60000 btime 60000";
    scenario::ponder_then_stop_then_new_position(&mut e, "position startpos moves h2e2 h9g7", go);
    assert!(e.ask("ponderhit").iter().all(|l| l.starts_with("info string error:")));
}

#[test]
fn searchmoves_restrict_the_root() {
    let mut e = uci();
    e.send("go depth 3 searchmoves a3a4");
    assert_eq!(best_of(&e.search_end().0).to_string(), "a3a4");
    e.send("go searchmoves i3i4 a3a4 depth 2");
    let b = best_of(&e.search_end().0).to_string();
    assert!(b == "i3i4" || b == "a3a4", "{b}");
    e.refused("go depth 2 searchmoves a3a5");
    e.refused("go depth 2 searchmoves a3");
}

#[test]
fn multipv_lines_are_numbered() {
    let mut e = uci();
    e.ask("setoption name MultiPV value 3");
    e.send("go depth 3");
    let (best, info) = e.search_end();
    assert!(best.starts_with("bestmove "), "{best}");
    let pvs: Vec<&String> = info.iter().filter(|l| l.contains(" pv ")).collect();
    assert!(!pvs.is_empty(), "{info:?}");
    for l in pvs {
        let k: u32 = word_after(l, "multipv").expect("multipv").parse().unwrap();
        assert!((1..=3).contains(&k), "{l}");
    }
}

#[test]
fn mate_search_and_no_legal_move() {
    let mut e = uci();
    e.send(&format!("position fen {CHECKMATED_FEN}"));
    e.send("go depth 3");
    assert_eq!(e.search_end().0, "bestmove (none)");
    e.send(&format!("position fen {MATED_IN_ONE_FEN}"));
    e.send("go depth 3");
    let (best, info) = e.search_end();
    assert!(best.starts_with("bestmove "), "{best}");
    let last = info.iter().rev().find(|l| l.contains(" score ")).expect("an info line");
    assert_eq!(word_after(last, "mate"), Some("-1"), "{last}");
    e.send("go mate 1");
    assert!(e.search_end().0.starts_with("bestmove "));
}

#[test]
fn eof_while_thinking_exits_promptly() {
    scenario::eof_while_thinking_exits(&mut uci());
}

#[test]
fn sixteen_threads_stop_promptly_resize_and_quit() {
    let (t16, t1) = ("setoption name Threads value 16", "setoption name Threads value 1");
    scenario::many_threads_stop_and_quit(&mut uci(), t16, t1, None);
}

#[test]
fn quit_while_thinking_exits() {
    let mut e = uci();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    assert!(e.wait_exit(WAIT).expect("exits on quit").success());
}

#[test]
fn bad_input_gets_one_error_line() {
    let mut e = uci();
    e.send("position startpos moves h2e2");
    let before = e.fen();
    for line in [
        "position fen 9/9/9 w",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h2e2",
        "position startpos moves h2e2 b9c7 h0g2 c9e7 x",
        "xyzzy",
        "go wtime",
        "go btime nope",
        "go depth -1",
        "go movetime later",
        "go mate",
        "go sideways",
        "banmoves h2e2",
        "isready please",
    ] {
        e.refused(line);
        assert_eq!(e.fen(), before, "{line}");
    }
    let lines = e.ask("position startpos moves h2e2 b9c7 h0g2 c9e7 i0i5");
    assert!(lines[0].contains("'i0i5' (move 5 of 5)"), "{lines:?}");
    // Negative clock: a minimal think that ends by itself.
    e.send("go wtime -1000 btime -1000");
    assert!(e.search_end().0.starts_with("bestmove "));
    // Huge clock: searches until stopped, no overflow.
    e.send("go wtime 99999999999999999999999 btime 99999999999999999999999 winc 99999999999999999999");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    assert!(e.search_end().0.starts_with("bestmove "));
}

#[test]
fn crlf_empty_lines_and_a_long_game_line() {
    let mut e = Engine::start();
    e.send_raw(b"\r\nuci\r\n\r\n");
    e.until(|l| l == "uciok");
    let line = format!("position startpos moves {}\r\n", shuffle_moves(10_000));
    e.send_raw(line.as_bytes());
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let best = e.go("go depth 2");
    assert!(Position::startpos().is_legal(best_of(&best)), "{best}");
}

#[test]
fn debugging_commands() {
    let mut e = uci();
    // Pikafish's shapes (tests/clients.rs checks them line by line).
    let lines = e.ask("go perft 3");
    assert!(lines.contains(&"Nodes searched: 79666".to_string()), "{lines:?}");
    let d = e.ask("d");
    assert!(d.iter().any(|l| l.starts_with("Fen: rnbakabnr/9/1c5c1")), "{d:?}");
    let ev = e.ask("eval");
    assert!(ev.iter().any(|l| l.starts_with("Final evaluation ")), "{ev:?}");
    assert!(ev.iter().any(|l| l.starts_with("info string eval material")), "{ev:?}");
}

#[test]
fn uci_variant_is_xiangqi_only() {
    let mut e = uci();
    assert!(e.ask("setoption name UCI_Variant value xiangqi").is_empty());
    for other in ["chess", "janggi", ""] {
        let line = format!("setoption name UCI_Variant value {other}");
        let error = e.refused(line.trim_end());
        assert!(error.contains("not supported") && error.ends_with("UCI_Variant stays xiangqi"), "{error}");
    }
    // Still xiangqi: the start position's moves.
    let best = e.go("go depth 2");
    assert!(Position::startpos().is_legal(best_of(&best)), "{best}");
}

/// The `wdl W D L` of an info line, checked to sum to 1000.
fn wdl_of(line: &str) -> Option<[u32; 3]> {
    let mut it = line.split_whitespace().skip_while(|w| *w != "wdl").skip(1);
    let mut v = [0; 3];
    for x in &mut v {
        *x = it.next()?.parse().ok()?;
    }
    assert_eq!(v.iter().sum::<u32>(), 1000, "{line}");
    Some(v)
}

#[test]
fn show_wdl_puts_wdl_on_every_score_line() {
    let mut e = uci();
    assert!(e.ask("setoption name UCI_ShowWDL value true").is_empty());
    e.send(&format!("position fen {WINNING_FEN}"));
    e.send("go depth 4");
    let (_, info) = e.search_end();
    let scored: Vec<&String> = info.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!scored.is_empty(), "{info:?}");
    for l in &scored {
        let [w, _, l_] = wdl_of(l).unwrap_or_else(|| panic!("no wdl: {l}"));
        // Two rooks up: far more wins than losses.
        assert!(w > 900 && l_ == 0, "{l}");
    }
    // Mated: all losses.
    e.send(&format!("position fen {MATED_IN_ONE_FEN}"));
    e.send("go depth 3");
    let (_, info) = e.search_end();
    let last = info.iter().rev().find(|l| l.contains(" score ")).expect("a score line");
    assert_eq!(wdl_of(last), Some([0, 0, 1000]), "{last}");
    // Off again: no wdl.
    assert!(e.ask("setoption name UCI_ShowWDL value false").is_empty());
    e.send("go depth 2");
    assert!(e.search_end().1.iter().all(|l| !l.contains(" wdl ")));
}

#[test]
fn threads_beyond_the_cores_are_kept_with_a_note_and_hash_beyond_the_range_is_clipped() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut e = uci();
    let lines = e.ask(&format!("setoption name Threads value {}", cores + 1));
    let want = format!("info string Threads {}: this machine has {cores} logical core", cores + 1);
    assert!(lines.iter().any(|l| l.starts_with(&want)), "{lines:?}");
    assert!(e.ask(&format!("setoption name Threads value {cores}")).is_empty());
    let lines = e.ask("setoption name Hash value 1000000");
    assert!(lines.iter().any(|l| l.starts_with("info string") && l.contains("using")), "{lines:?}");
    e.send("go depth 3");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
}
