//! UCCI sessions against the real binary: handshake, clocked games in seconds and in
//! milliseconds, stop latency, pondering, draw/resign, banmoves, probe, EOF, and bad input.

mod common;

use chuhe::board::Position;
use common::*;
use std::time::Duration;

fn ucci() -> Engine {
    Engine::handshake("ucci").0
}

#[test]
fn handshake_advertises_options_and_usemillisec_off() {
    let (mut e, lines) = Engine::handshake("ucci");
    assert!(lines[0].starts_with("id name Chuhe"), "{lines:?}");
    assert!(lines.contains(&"option usemillisec type check default false".to_string()), "{lines:?}");
    for name in ["hashsize", "threads", "moveoverhead", "newgame"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option {name} type "))), "{name}: {lines:?}");
    }
    assert!(lines.iter().all(|l| l.starts_with("id ") || l.starts_with("option ") || l == "ucciok"), "{lines:?}");
    assert_eq!(e.ask(""), Vec::<String>::new());
    e.send("quit");
    e.until(|l| l == "bye");
    assert!(e.wait_exit(WAIT).expect("exits after quit").success());
}

#[test]
fn game_under_a_clock_in_seconds() {
    let mut e = ucci();
    // 8 s + 1 s per move; the GUI sends whole seconds, rounded down.
    let used = play_clock_game(&mut e, 6, 8000, 1000, |own, opp, _| {
        format!("go time {} increment 1 opptime {} oppincrement 1", own / 1000, opp / 1000)
    });
    assert_eq!(used.len(), 6);
}

#[test]
fn game_under_a_clock_in_milliseconds() {
    let mut e = ucci();
    assert!(errors(&e.ask("setoption usemillisec true")).is_empty());
    let used = play_clock_game(&mut e, 6, 3000, 200, |own, opp, _| {
        format!("go time {own} increment 200 opptime {opp} oppincrement 200")
    });
    assert_eq!(used.len(), 6);
}

#[test]
fn milliseconds_are_not_taken_for_seconds() {
    // 15000 ms with usemillisec on ends the search by itself within a second or so, even with a
    // deep depth limit; read as 15000 s it would think for minutes and `search_end` would fail
    // after WAIT.
    let mut e = ucci();
    e.ask("setoption usemillisec true");
    e.send("position startpos");
    e.send("go time 15000 depth 100");
    e.search_end();
}

#[test]
fn stop_answers_fast_and_stray_stop_gives_nobestmove() {
    let mut e = ucci();
    assert_eq!(e.ask("stop"), vec!["nobestmove".to_string()]);
    e.send("position startpos moves h2e2");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // Stop latency is measured by `examples/protocol_measure.rs`, not asserted here.
    e.send("stop");
    let (best, _) = e.search_end();
    let mut pos = Position::startpos();
    pos.make_move(chuhe::board::Move::parse("h2e2").unwrap());
    assert!(pos.is_legal(best_of(&best)), "{best}");
}

#[test]
fn commands_while_thinking() {
    let mut e = ucci();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    // isready and probe answer during the search; go/setoption are refused with one error line.
    assert!(e.sync().iter().all(|l| l.starts_with("info ")));
    e.send("probe startpos");
    let lines = e.until(|l| l.starts_with("pophash"));
    assert!(lines.iter().all(|l| !is_search_end(l)), "{lines:?}");
    e.refused("go depth 3");
    e.refused("setoption hashsize 32");
    e.send("stop");
    e.search_end();
    // Now idle: the same commands work.
    e.send("go depth 2");
    let (best, info) = e.search_end();
    assert!(best.starts_with("bestmove "), "{best}");
    assert!(errors(&info).is_empty(), "{info:?}");
}

#[test]
fn ponder_then_ponderhit() {
    scenario::ponder_then_ponderhit(&mut ucci(), "position startpos moves h2e2", "go ponder time 2 increment 0");
}

#[test]
fn ponder_then_stop_then_new_position() {
    scenario::ponder_then_stop_then_new_position(&mut ucci(), "position startpos moves h2e2", "go ponder time 60");
}

#[test]
fn draw_offers_are_accepted_only_when_worse() {
    let mut e = ucci();
    e.send(&format!("position fen {WINNING_FEN}"));
    let best = e.go("go draw depth 3");
    assert!(!best.contains("draw"), "accepted a draw when winning: {best}");
    let lost = format!("position fen {MATED_IN_ONE_FEN}");
    e.send(&lost);
    let best = e.go("go draw depth 3");
    assert!(best.ends_with(" draw"), "lost position, draw offered: {best}");
    // ponderhit draw: the offer comes with the ponderhit.
    let best = scenario::ponder_then(&mut e, &lost, "go ponder depth 3", "ponderhit draw");
    assert!(best.ends_with(" draw"), "{best}");
    // The offer lasted one search only.
    let best = e.go("go depth 3");
    assert!(!best.contains("draw"), "{best}");
}

#[test]
fn resigns_only_after_two_hopeless_searches() {
    let mut e = ucci();
    e.send(&format!("position fen {MATED_IN_ONE_FEN}"));
    let first = e.go("go depth 3");
    assert!(!first.contains("resign"), "{first}");
    let second = e.go("go depth 3");
    assert!(second.ends_with(" resign"), "{second}");
    e.ask("setoption newgame");
    let third = e.go("go depth 3");
    assert!(!third.contains("resign"), "newgame resets the history: {third}");
    e.send("position startpos");
    for _ in 0..2 {
        let b = e.go("go depth 2");
        assert!(!b.contains("resign"), "{b}");
    }
}

#[test]
fn banmoves_restrict_the_root_until_the_next_position() {
    let mut e = ucci();
    let legal = Position::startpos().legal_moves();
    let keep = legal.iter().copied().find(|m| m.to_string() == "a3a4").unwrap();
    let banned: Vec<String> = legal.iter().filter(|&&m| m != keep).map(|m| m.to_string()).collect();
    assert!(errors(&e.ask(&format!("banmoves {}", banned.join(" ")))).is_empty());
    e.send("go depth 2");
    assert_eq!(best_of(&e.search_end().0).to_string(), "a3a4");
    // An illegal move in banmoves: one error, the previous ban stays.
    let error = e.refused("banmoves a3a4 e0e2");
    assert!(error.contains("e0e2"), "{error}");
    e.send("go depth 1");
    assert_eq!(best_of(&e.search_end().0).to_string(), "a3a4");
    // Everything banned: nobestmove.
    e.ask(&format!("banmoves {}", legal.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")));
    e.send("go depth 1");
    assert_eq!(e.search_end().0, "nobestmove");
    // A new position clears the ban.
    e.send("position startpos");
    e.send("go depth 1");
    assert!(e.search_end().0.starts_with("bestmove "));
}

#[test]
fn probe_answers_pophash() {
    let mut e = ucci();
    e.send("go depth 3");
    e.search_end();
    e.send("probe startpos");
    let l = e.until(|l| l.starts_with("pophash")).pop().unwrap();
    let words: Vec<&str> = l.split_whitespace().collect();
    assert!(words.len() == 1 || ["bestmove", "lowerbound", "upperbound"].contains(&words[1]), "{l}");
    e.refused("probe fen bad");
}

#[test]
fn no_legal_move_gives_nobestmove() {
    let mut e = ucci();
    e.send(&format!("position fen {CHECKMATED_FEN}"));
    e.send("go depth 3");
    assert_eq!(e.search_end().0, "nobestmove");
}

#[test]
fn go_before_position_searches_the_start() {
    let mut e = ucci();
    let best = e.go("go depth 2");
    assert!(Position::startpos().is_legal(best_of(&best)), "{best}");
}

#[test]
fn eof_while_thinking_exits_promptly() {
    scenario::eof_while_thinking_exits(&mut ucci());
}

#[test]
fn sixteen_threads_stop_promptly_resize_and_quit() {
    let (t16, t1) = ("setoption threads 16", "setoption threads 1");
    scenario::many_threads_stop_and_quit(&mut ucci(), t16, t1, Some("bye"));
}

#[test]
fn eof_while_idle_exits() {
    let mut e = ucci();
    e.close_stdin();
    assert!(e.wait_exit(WAIT).expect("exits on EOF").success());
}

#[test]
fn bad_fen_and_bad_moves_leave_the_position_alone() {
    let mut e = ucci();
    e.send("position startpos moves h2e2");
    let before = e.fen();
    for (line, needle) in [
        ("position fen rnbakabnr/9/1c5c1 w - - 0 1", "FEN"),
        ("position fen", "FEN"),
        ("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1", "FEN"),
        ("position startpos moves h2e2 h9g7 h0h9 b0c2", "'h0h9' (move 3 of 4)"),
        ("position startpos moves h2e2 xx b0c2", "'xx' (move 2)"),
        ("position startpos moves h2e2 h2e2", "'h2e2' (move 2 of 2)"),
        ("position middle", "startpos"),
        ("position startpos h2e2", "moves"),
        ("position", "startpos"),
    ] {
        let error = e.refused(line);
        assert!(error.contains(needle), "{line}: {error}");
        assert_eq!(e.fen(), before, "{line} changed the position");
    }
}

#[test]
fn bad_commands_and_numbers_get_one_error_line() {
    let mut e = ucci();
    for line in [
        "frobnicate",
        "go depth",
        "go depth ten",
        "go nodes -5",
        "go time",
        "go time soon",
        "go increment",
        "go movestogo x",
        "go ponder draw depth 2",
        "go sideways",
        "go perft",
        "go perft 99",
        "setoption hashsize lots",
        "setoption hashsize -1",
        "setoption usemillisec perhaps",
        "setoption",
        "banmoves zz",
        "ponderhit",
        "ponderhit now",
        "isready now",
        "uci",
    ] {
        e.refused(line);
    }
    // Options the engine never advertised are accepted silently; out-of-range ones are clamped.
    assert!(e.ask("setoption useegtb false").is_empty());
    // A book file that cannot be read is one error line.
    e.refused("setoption bookfiles a.obk;b.obk");
    let lines = e.ask("setoption hashsize 100000000");
    assert!(lines.len() == 1 && lines[0].contains("out of range"), "{lines:?}");
    // The engine still works.
    e.send("go depth 1");
    assert!(e.search_end().0.starts_with("bestmove"));
}

#[test]
fn negative_and_huge_times() {
    let mut e = ucci();
    // A negative clock gives a minimal think that ends by itself.
    let best = e.go("go time -5 increment -1");
    assert!(best.starts_with("bestmove "), "{best}");
    e.send("go time 999999999999999999999999 increment 99999999999999 opptime 1e300");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    assert!(e.search_end().0.starts_with("bestmove "));
    e.ask("setoption usemillisec true");
    e.send("go time 99999999999999999999999999999 movestogo 1");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    assert!(e.search_end().0.starts_with("bestmove "));
}

#[test]
fn empty_lines_crlf_and_bad_bytes() {
    let mut e = Engine::start();
    e.send_raw(b"\r\n\n   \r\nucci\r\n");
    e.until(|l| l == "ucciok");
    e.send_raw(b"position startpos moves h2e2\r\n\r\nisready\r\n");
    e.until(|l| l == "readyok");
    assert!(errors(&e.log).is_empty(), "{:?}", e.log);
    assert!(e.fen().contains("1C2C4"), "the CRLF position was applied");
    e.send_raw(b"\xff\xfe garbage\n");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    e.send_raw(b"go depth 1\r\n");
    assert!(e.search_end().0.starts_with("bestmove "));
}

#[test]
fn ten_thousand_move_position() {
    let mut e = ucci();
    let line = format!("position startpos moves {}", shuffle_moves(10_000));
    let lines = e.ask(&line);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let d = e.ask("d");
    assert!(d.contains(&"moves since the FEN 10000".to_string()), "{d:?}");
    let best = e.go("go depth 2");
    assert!(Position::startpos().is_legal(best_of(&best)), "{best}");
    // An illegal move at the very end: reported with its index, nothing applied.
    let bad = format!("position startpos moves {} a0a9", shuffle_moves(10_000));
    let lines = e.ask(&bad);
    assert!(lines.len() == 1 && lines[0].contains("'a0a9' (move 10001 of 10001)"), "{lines:?}");
    assert!(e.ask("d").contains(&"moves since the FEN 10000".to_string()));
}

#[test]
fn boot_rejects_other_words() {
    let mut e = Engine::start();
    e.send("isready");
    let l = e.recv(WAIT).expect("a reply");
    assert!(l.starts_with("info string error:"), "{l}");
    e.send("ucci");
    e.until(|l| l == "ucciok");
}

#[test]
fn debugging_commands() {
    let mut e = ucci();
    let lines = e.ask("go perft 2");
    assert_eq!(lines.len(), 45, "{lines:?}");
    assert!(lines[44].starts_with("nodes 1920 "), "{lines:?}");
    let lines = e.ask("eval");
    assert!(lines.iter().any(|l| l.starts_with("evaluate")), "{lines:?}");
    e.send(&format!("position fen {MATED_IN_ONE_FEN}"));
    assert_eq!(e.fen(), MATED_IN_ONE_FEN);
}

/// Nodes of a single-threaded `go depth 5` from the start on an empty table (deterministic).
fn nodes_at_depth_5(e: &mut Engine) -> u64 {
    e.ask("setoption newgame");
    e.send("position startpos");
    e.send("go depth 5");
    let (_, info) = e.search_end();
    let last = info.iter().rev().find(|l| l.contains(" pv ")).expect("a pv line");
    word_after(last, "nodes").expect("nodes").parse().unwrap()
}

#[test]
fn uccis_standard_options_are_accepted_and_only_working_ones_listed() {
    let (mut e, lines) = Engine::handshake("ucci");
    for line in [
        "option batch type check default false",
        "option debug type check default false",
        "option ponder type check default false",
        "option pruning type combo var none var small var medium var large default large",
        "option randomness type combo var none var tiny var small var medium var large var huge default none",
    ] {
        assert!(lines.contains(&line.to_string()), "{line}: {lines:?}");
    }
    for listed in ["option usebook type check default true", "option bookfiles type string default <empty>"] {
        assert!(lines.contains(&listed.to_string()), "{listed}: {lines:?}");
    }
    for unlisted in ["usehash", "idle", "knowledge", "style", "promotion"] {
        assert!(!lines.iter().any(|l| l.starts_with(&format!("option {unlisted} "))), "{unlisted}: {lines:?}");
    }
    for ok in [
        "setoption ponder true",
        "setoption debug false",
        "setoption usehash false",
        "setoption usebook true",
        "setoption bookfiles",
        "setoption idle large",
        "setoption knowledge none",
        "setoption randomness HUGE",
        "setoption style risky",
        "setoption promotion false",
        "setoption pruning small",
        "setoption useegtb false",
    ] {
        assert_eq!(e.ask(ok), Vec::<String>::new(), "{ok}");
    }
    for (bad, needle) in [
        ("setoption randomness lots", "none, tiny, small, medium, large, huge"),
        ("setoption style wild", "solid, normal, risky"),
        ("setoption pruning", "none, small, medium, large"),
        ("setoption idle maybe", "none, small, medium, large"),
        ("setoption batch sometimes", "true or false"),
        ("setoption promotion true", "not supported"),
    ] {
        let error = e.refused(bad);
        assert!(error.contains(needle), "{bad}: {error}");
    }
    let best = e.go("go depth 2");
    assert!(Position::startpos().is_legal(best_of(&best)), "{best}");
}

#[test]
fn pruning_none_searches_without_the_selective_switches() {
    let mut e = ucci();
    let large = nodes_at_depth_5(&mut e);
    assert!(e.ask("setoption pruning none").is_empty());
    let none = nodes_at_depth_5(&mut e);
    assert!(none > large, "no pruning searches more nodes: {none} vs {large}");
    // The same as switching the six off one by one through the hidden options.
    e.ask("setoption pruning large");
    for switch in ["null_move", "lmr", "reverse_futility", "losing_capture_pruning", "futility", "late_move_pruning"] {
        assert!(e.ask(&format!("setoption {switch} false")).is_empty());
    }
    assert_eq!(nodes_at_depth_5(&mut e), none);
    e.ask("setoption pruning large");
    assert_eq!(nodes_at_depth_5(&mut e), large, "large is the default setting again");
    e.ask("setoption pruning medium");
    let medium = nodes_at_depth_5(&mut e);
    assert!(medium != large && medium != none, "{medium}");
}

#[test]
fn debug_reports_the_limits_and_the_result() {
    let mut e = ucci();
    e.ask("setoption debug true");
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    let (best, lines) = e.search_end();
    assert!(best.starts_with("bestmove "), "{best}");
    let strings: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string")).collect();
    assert_eq!(strings.len(), 2, "{lines:?}");
    assert!(strings[0].starts_with("info string debug: go: "), "{lines:?}");
    assert!(strings[0].contains(" root moves; depth 3; threads 1, hash 16 MB, pruning large"), "{lines:?}");
    assert!(strings[1].starts_with("info string debug: search done: depth 3, score "), "{lines:?}");
    assert_eq!(lines.last(), Some(strings[1]), "the result line comes right before the move");
    e.ask("setoption debug false");
    let (_, lines) = {
        e.send("go depth 2");
        e.search_end()
    };
    assert!(lines.iter().all(|l| !l.starts_with("info string")), "{lines:?}");
}

#[test]
fn go_time_in_the_wrong_unit_is_warned_about_and_obeyed() {
    let mut e = ucci();
    // 5000 "seconds": a warning naming usemillisec, then the search as asked (depth ends it).
    e.send("go time 5000 increment 0 depth 2");
    let (best, lines) = e.search_end();
    assert!(best.starts_with("bestmove "), "{best}");
    let warnings: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string")).collect();
    assert_eq!(warnings.len(), 1, "{lines:?}");
    assert!(warnings[0].starts_with("info string warning: go time 5000 is read as seconds"), "{lines:?}");
    assert!(warnings[0].contains("setoption usemillisec true"), "{lines:?}");
    // An hour is not absurd; with usemillisec on, 5000 is 5 s.
    e.send("go time 3600 depth 2");
    assert!(e.search_end().1.iter().all(|l| !l.starts_with("info string")));
    e.ask("setoption usemillisec true");
    e.send("go time 5000 depth 2");
    assert!(e.search_end().1.iter().all(|l| !l.starts_with("info string")));
}

#[test]
fn batch_mode_runs_queued_commands_after_the_move() {
    let mut e = ucci();
    assert!(e.ask("setoption batch true").is_empty());
    // A script: every line waits for the search before it. `stop` is read when the engine is
    // idle again (`nobestmove`), the second `go` is not refused as busy.
    e.send("position startpos");
    e.send("go depth 5");
    e.send("stop");
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    let ends: Vec<&String> = lines.iter().filter(|l| is_search_end(l)).collect();
    assert_eq!(ends.len(), 3, "{lines:?}");
    assert!(ends[0].starts_with("bestmove ") && ends[1] == "nobestmove" && ends[2].starts_with("bestmove "));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let mut after = Position::startpos();
    after.make_move(chuhe::board::Move::parse("h2e2").unwrap());
    assert!(after.is_legal(best_of(ends[2])), "{lines:?}");
    // Searches that would never end by themselves are refused in batch mode.
    for line in ["go infinite", "go", "go ponder time 10"] {
        assert!(e.refused(line).contains("batch mode"), "{line}");
    }
    // The end of input waits for the search too: the move comes, then the process exits.
    e.send("go depth 4");
    e.close_stdin();
    let (best, _) = e.search_end();
    assert!(best.starts_with("bestmove "), "{best}");
    assert!(e.wait_exit(WAIT).expect("exits after the queued input").success());
}

#[test]
fn batch_needs_an_idle_engine_and_goes_off_again() {
    let mut e = ucci();
    e.send("go infinite");
    e.refused("setoption batch true");
    e.send("stop");
    e.search_end();
    assert!(e.ask("setoption batch true").is_empty());
    assert!(e.ask("setoption batch false").is_empty());
    // Back to normal: a running search reads commands and `stop` ends it.
    e.send("go infinite");
    e.send("stop");
    assert!(e.search_end().0.starts_with("bestmove "));
}
