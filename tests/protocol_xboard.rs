//! CECP (xboard protocol 2) sessions with the real binary: handshake, a game under a clock in
//! centiseconds, force/undo/remove, setboard, analyze, ping, claims, bad input, EOF.

mod common;

use chuhe::board::{Move, Position};
use chuhe::rules::{Game, GameResult};
use common::{Engine, CHECKMATED_FEN, MATED_IN_ONE_FEN, WAIT, WINNING_FEN};
use std::time::{Duration, Instant};

/// Sends `ping n` and returns the lines printed before `pong n`.
fn sync(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let mut lines = e.until(|l| l == format!("pong {n}"));
    lines.pop();
    lines
}

/// Sends `line`, pings, returns what the engine printed for it.
fn ask(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    sync(e, 999)
}

/// The engine's FEN (through the `d` debugging command).
fn fen(e: &mut Engine) -> String {
    let lines = ask(e, "d");
    lines.iter().find_map(|l| l.strip_prefix("fen ")).expect("d prints a fen line").to_string()
}

/// The next `move` line (with the lines before it); fails on anything that ends a game.
fn engine_move(e: &mut Engine) -> (Move, Vec<String>) {
    let mut lines = e.until(|l| l.starts_with("move ") || l.starts_with("Error") || l.contains(" {"));
    let last = lines.pop().unwrap();
    let m = last.strip_prefix("move ").unwrap_or_else(|| panic!("expected a move, got '{last}'"));
    (Move::parse(m).unwrap_or_else(|_| panic!("bad move '{last}'")), lines)
}

/// Whether `l` is CECP thinking output: `ply score time nodes pv...`.
fn is_thinking(l: &str) -> bool {
    let w: Vec<&str> = l.split_whitespace().collect();
    w.len() >= 4
        && w[..4].iter().all(|x| x.trim_start_matches('-').chars().all(|c| c.is_ascii_digit()) && !x.is_empty())
        && w[4..].iter().all(|m| Move::parse(m).is_ok())
}

#[test]
fn handshake_announces_the_features() {
    let (mut e, lines) = Engine::xboard_handshake();
    for f in [
        "myname=\"Chuhe ",
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "analyze=1",
        "memory=1",
        "smp=1",
        "option=\"MultiPV -spin 1 1 ",
        "option=\"Move Overhead -spin 100 0 ",
        "option=\"Clear Hash -button\"",
    ] {
        assert!(lines.iter().any(|l| l.starts_with("feature ") && l.contains(f)), "{f} missing: {lines:?}");
    }
    assert_eq!(lines.first().map(String::as_str), Some("feature done=0"));
    // XBoard's replies to features, and its setup commands, are accepted silently.
    for l in
        ["accepted setboard", "rejected nps", "new", "random", "variant xiangqi", "computer", "memory 32", "cores 1"]
    {
        assert_eq!(ask(&mut e, l), Vec::<String>::new(), "{l}");
    }
    assert_eq!(ask(&mut e, "bk"), vec!["\tno opening book".to_string(), String::new()]);
    assert_eq!(ask(&mut e, "option MultiPV=2"), Vec::<String>::new());
    assert_eq!(ask(&mut e, "option Clear Hash"), Vec::<String>::new());
    e.send("quit");
    assert!(e.wait_exit(WAIT).is_some_and(|s| s.success()));
}

/// Plays a game between two engine processes the way XBoard relays it: `time` / `otim` in
/// centiseconds, then the opponent's move. Checks every move, the thinking output, and that
/// each search takes its clock in centiseconds: with `option Debug=1` the `# debug: go:` line
/// states the search's clock in milliseconds. Nothing depends on the machine's speed: the
/// clocks are the test's own bookkeeping (each move costs a fixed 1.23 s and earns the 1 s
/// increment, whatever it really took), and `sd 3` ends each search long before its share of
/// a 10-minute clock.
#[test]
fn a_game_under_a_clock_in_centiseconds() {
    let (base_cs, inc_cs, cost_cs) = (60_000u64, 100u64, 123u64);
    let (red, _) = Engine::xboard_handshake();
    let (black, _) = Engine::xboard_handshake();
    let mut side = [red, black];
    for e in side.iter_mut() {
        for l in ["new", "variant xiangqi", "level 0 10 1", "sd 3", "option Debug=1", "post", "easy"] {
            e.send(l);
        }
        assert_eq!(sync(e, 1), Vec::<String>::new());
    }
    let mut pos = Position::startpos();
    let mut game = Game::new(pos.clone());
    let mut clock = [base_cs, base_cs];
    let mut thinking_lines = 0;
    let mut last_move: Option<Move> = None;
    for ply in 0..30 {
        let me = ply % 2;
        let e = &mut side[me];
        e.send(&format!("time {}", clock[me]));
        e.send(&format!("otim {}", clock[1 - me]));
        match last_move {
            None => e.send("go"), // the first engine plays the side to move, Red
            Some(m) => e.send(&format!("usermove {m}")),
        }
        // The engine moves, claims the game's end, or resigns a hopeless game: which of these
        // happens depends on the position, so all three end a ply.
        let lines = e.until(|l| l.starts_with("move ") || l.contains(" {") || l == "resign");
        let last = lines.last().unwrap().clone();
        let (debug, rest): (Vec<&String>, Vec<&String>) =
            lines[..lines.len() - 1].iter().partition(|l| l.starts_with("# debug: "));
        assert!(rest.iter().all(|l| is_thinking(l)), "ply {ply}: unexpected output {lines:?}");
        thinking_lines += rest.len();
        if last.contains(" {") {
            let v = game.verdict().unwrap_or_else(|| panic!("ply {ply}: claim '{last}' but the game goes on"));
            assert_eq!(last, format!("{} {{{}}}", v.result, v.reason), "ply {ply}");
            break;
        }
        let budget = format!("; depth 3, time {} ms, increment {} ms, ", clock[me] * 10, inc_cs * 10);
        assert!(
            debug.first().is_some_and(|l| l.starts_with("# debug: go: ") && l.contains(&budget)),
            "ply {ply}: expected '{budget}' in {debug:?}"
        );
        if last == "resign" {
            assert!(game.verdict().is_none(), "ply {ply}: resigned a finished game");
            break;
        }
        clock[me] = clock[me] - cost_cs + inc_cs;
        let m = Move::parse(last.strip_prefix("move ").unwrap()).unwrap();
        assert!(pos.is_legal(m), "ply {ply}: illegal {m} in {}", pos.to_fen());
        pos.make_move(m);
        game.play(m).unwrap();
        last_move = Some(m);
    }
    assert!(thinking_lines > 0, "post is on: thinking output expected");
    // Both engines know the game; the one that moved last has one ply more.
    let [red, black] = &mut side;
    let (a, b) = (fen(red), fen(black));
    assert!(a == pos.to_fen() || b == pos.to_fen(), "{a} / {b} / {}", pos.to_fen());
}

#[test]
fn usermove_gets_a_reply_and_force_undo_remove_rewind() {
    let (mut e, _) = Engine::xboard_handshake();
    for l in ["new", "variant xiangqi", "level 40 5 0", "nopost", "st 1", "sd 2"] {
        e.send(l);
    }
    sync(&mut e, 1);
    // Not in force mode: the engine (Black after `new`) answers a usermove with a move.
    e.send("usermove h2e2");
    let (m, before) = engine_move(&mut e);
    assert!(before.is_empty(), "nopost: no thinking output, got {before:?}");
    let mut pos = Position::startpos();
    pos.make_move(Move::parse("h2e2").unwrap());
    assert!(pos.is_legal(m), "{m}");
    pos.make_move(m);
    assert_eq!(fen(&mut e), pos.to_fen());
    // Force mode: moves are recorded, no reply.
    assert!(ask(&mut e, "force").is_empty());
    assert!(ask(&mut e, "usermove h0g2").is_empty());
    assert!(ask(&mut e, "usermove h9g7").is_empty());
    let four = fen(&mut e);
    assert!(ask(&mut e, "undo").is_empty());
    let mut three = pos.clone();
    three.make_move(Move::parse("h0g2").unwrap());
    assert_eq!(fen(&mut e), three.to_fen());
    assert!(ask(&mut e, "usermove h9g7").is_empty());
    assert_eq!(fen(&mut e), four);
    assert!(ask(&mut e, "remove").is_empty());
    assert_eq!(fen(&mut e), pos.to_fen(), "remove takes back two plies");
    // Undo past the start: an error, nothing changes.
    for _ in 0..2 {
        ask(&mut e, "undo");
    }
    assert_eq!(fen(&mut e), Position::startpos().to_fen());
    let l = ask(&mut e, "undo");
    assert!(l.len() == 1 && l[0].starts_with("Error ("), "{l:?}");
    // `go` makes the engine play the side to move (Red here), then it stays that side.
    e.send("go");
    let (m1, _) = engine_move(&mut e);
    assert!(Position::startpos().is_legal(m1), "{m1}");
    // After m1 Black is to move; `playother` makes the engine Red, so our Black move gets a reply.
    ask(&mut e, "force");
    ask(&mut e, "playother");
    e.send("usermove h9g7");
    let (m2, _) = engine_move(&mut e);
    let mut p = Position::startpos();
    p.make_move(m1);
    p.make_move(Move::parse("h9g7").unwrap());
    assert!(p.is_legal(m2), "{m2}");
}

#[test]
fn setboard_and_claims() {
    let (mut e, _) = Engine::xboard_handshake();
    ask(&mut e, "new");
    let fen_in = "4k4/9/9/9/9/R7R/9/9/9/3K5 w - - 0 1";
    assert!(ask(&mut e, &format!("setboard {fen_in}")).is_empty());
    assert_eq!(fen(&mut e), fen_in);
    // XBoard 4.9's own form: H/E letters and four fields (board side halfmove fullmove).
    assert!(ask(&mut e, "setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4HC1/9/RHEAKAE1R b 3 9").is_empty());
    assert_eq!(fen(&mut e), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R b - - 3 9");
    assert!(ask(&mut e, &format!("setboard {fen_in}")).is_empty());
    // A bad FEN is refused CECP-style and the position stays.
    // Text that is no FEN is refused as a command; a readable impossible position is shown to
    // the user as an illegal position.
    let l = ask(&mut e, "setboard rnbakabnr/9/9 w");
    assert_eq!(l, vec!["Error (not a FEN: 3 ranks, expected 10): setboard"]);
    let l = ask(&mut e, "setboard 4k4/9/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(l, vec!["tellusererror Illegal position: the kings face each other on an open file"]);
    assert_eq!(fen(&mut e), fen_in);
    e.send("sd 3");
    e.send("go");
    let (m, _) = engine_move(&mut e);
    assert!(Position::from_fen(fen_in).unwrap().is_legal(m), "{m}");
    // Asked to move in a lost position: the engine claims the result instead of moving.
    ask(&mut e, "force");
    ask(&mut e, &format!("setboard {CHECKMATED_FEN}"));
    e.send("go");
    let l = e.until(|l| l.contains('{') || l.starts_with("move"));
    let v = Game::new(Position::from_fen(CHECKMATED_FEN).unwrap()).verdict().expect("mated");
    assert_eq!(v.result, GameResult::BlackWins);
    assert_eq!(l.last().cloned(), Some(format!("0-1 {{{}}}", v.reason)));
    // The game is over: a further usermove in the mated position is illegal (no legal moves).
    let l = ask(&mut e, "usermove e2e1");
    assert_eq!(l, vec!["Illegal move: e2e1".to_string()]);
    // A drawn position (no attacking pieces): before any move the engine plays on rather than
    // claim (XBoard would call that claim false); once moves were played, it claims the draw.
    let drawn = "4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1";
    ask(&mut e, &format!("setboard {drawn}"));
    e.send("go");
    let (m, _) = engine_move(&mut e);
    let mut game = Game::new(Position::from_fen(drawn).unwrap());
    assert!(game.verdict().is_some_and(|v| v.result == GameResult::Draw), "the position is a rules draw");
    game.play(m).unwrap();
    let reply = game.position().legal_moves()[0];
    game.play(reply).unwrap();
    e.send(&format!("usermove {reply}"));
    let l = e.until(|l| l.contains('{') || l.starts_with("move"));
    let v = game.verdict().expect("still a draw");
    assert_eq!(l.last().cloned(), Some(format!("1/2-1/2 {{{}}}", v.reason)));
}

#[test]
fn engine_claims_the_mate_it_gives() {
    // Black to move mates in one (rook to the back rank); the engine plays it and claims.
    let (mut e, _) = Engine::xboard_handshake();
    ask(&mut e, "new");
    ask(&mut e, "force");
    let fen_in = "3k5/r8/9/9/5r3/9/9/4K4/9/9 b - - 0 1";
    ask(&mut e, &format!("setboard {fen_in}"));
    ask(&mut e, "sd 3");
    e.send("go");
    let lines = e.until(|l| l.contains('{'));
    let n = lines.len();
    assert!(n >= 2 && lines[n - 2].starts_with("move "), "{lines:?}");
    let mut game = Game::new(Position::from_fen(fen_in).unwrap());
    game.play(Move::parse(&lines[n - 2][5..]).unwrap()).expect("legal");
    let v = game.verdict().expect("the engine mates in one");
    assert_eq!(v.result, GameResult::BlackWins);
    assert_eq!(lines[n - 1], format!("0-1 {{{}}}", v.reason));
}

#[test]
fn a_draw_offer_is_accepted_only_when_worse() {
    let (mut e, _) = Engine::xboard_handshake();
    for l in ["new", "force", "sd 2"] {
        e.send(l);
    }
    sync(&mut e, 1);
    // Two rooks up, draw offered: the engine just moves.
    ask(&mut e, &format!("setboard {WINNING_FEN}"));
    e.send("draw");
    e.send("go");
    let (_, lines) = engine_move(&mut e);
    assert!(!lines.iter().any(|l| l == "offer draw"), "{lines:?}");
    // Mated next move whatever it plays: an offered draw is accepted before the move.
    ask(&mut e, "force");
    ask(&mut e, &format!("setboard {MATED_IN_ONE_FEN}"));
    e.send("draw");
    e.send("go");
    let (m, lines) = engine_move(&mut e);
    assert_eq!(lines.last().map(String::as_str), Some("offer draw"), "{lines:?}");
    assert!(Position::from_fen(MATED_IN_ONE_FEN).unwrap().is_legal(m));
}

#[test]
fn analyze_mode() {
    let (mut e, _) = Engine::xboard_handshake();
    for l in ["new", "force", "post"] {
        e.send(l);
    }
    sync(&mut e, 1);
    e.send("analyze");
    let first = e.until(is_thinking);
    assert!(first.iter().all(|l| is_thinking(l)), "{first:?}");
    // A move in analyze mode: the analysis goes on from the new position.
    e.send("usermove h2e2");
    e.send("ping 7");
    e.until(|l| l == "pong 7");
    let after = e.until(is_thinking);
    let pv = after.last().unwrap().split_whitespace().nth(4).map(|m| Move::parse(m).unwrap());
    let mut pos = Position::startpos();
    pos.make_move(Move::parse("h2e2").unwrap());
    if let Some(m) = pv {
        assert!(pos.is_legal(m), "analysis of the new position expected, pv starts {m}");
    }
    let stat = ask(&mut e, ".");
    assert!(stat.iter().any(|l| l.starts_with("stat01: ")), "{stat:?}");
    // An illegal move leaves the analysis and the position alone.
    let l = ask(&mut e, "usermove a0a5");
    assert!(l.contains(&"Illegal move: a0a5".to_string()), "{l:?}");
    // `exit` ends the analysis without a move.
    e.send("exit");
    sync(&mut e, 2);
    let end = Instant::now() + Duration::from_millis(300);
    while let Some(l) = e.recv(end.saturating_duration_since(Instant::now())) {
        assert!(!l.starts_with("move"), "no move after exit: {l}");
    }
    assert_eq!(fen(&mut e), pos.to_fen());
}

#[test]
fn ping_move_now_and_time_limits() {
    let (mut e, _) = Engine::xboard_handshake();
    for l in ["new", "force", "post", "level 0 10 0", "time 100000", "otim 100000"] {
        e.send(l);
    }
    sync(&mut e, 1);
    // A long think (`st 600`) is cut short by `?`; ping is answered while thinking.
    e.send("st 600");
    e.send("go");
    std::thread::sleep(Duration::from_millis(200));
    // Both waits fail after WAIT, long before the 10-minute think would end by itself: the pong
    // comes while thinking and `?` moves now.
    e.send("ping 5");
    let lines = e.until(|l| l == "pong 5");
    e.send("?");
    let mut moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
    let rest = if moves.is_empty() { e.until(|l| l.starts_with("move ")) } else { Vec::new() };
    moves.extend(rest.iter().filter(|l| l.starts_with("move ")));
    assert_eq!(moves.len(), 1, "{lines:?} {rest:?}");
    assert!(Position::startpos().is_legal(Move::parse(&moves[0][5..]).unwrap()));
    // `?` when idle does nothing.
    assert!(ask(&mut e, "?").is_empty());
    // `sd 1`: the search stops at depth 1.
    ask(&mut e, "force");
    ask(&mut e, "new");
    ask(&mut e, "force");
    ask(&mut e, "sd 1");
    e.send("go");
    let (_, lines) = engine_move(&mut e);
    for l in lines.iter().filter(|l| is_thinking(l)) {
        assert_eq!(l.split_whitespace().next(), Some("1"), "{lines:?}");
    }
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let (mut e, _) = Engine::xboard_handshake();
    ask(&mut e, "new");
    ask(&mut e, "force");
    let start = fen(&mut e);
    let cases: &[(&str, &str)] = &[
        ("frobnicate now", "Error (unknown command): frobnicate"),
        ("usermove a0a5", "Illegal move: a0a5"),
        ("usermove zz", "Illegal move: zz"),
        ("e2e4", "Illegal move: e2e4"),
        ("variant shogi", "Error (unsupported variant): shogi"),
        ("level x y z", "Error (level needs MPS BASE INC): level x y z"),
        ("time lots", "Error (time needs centiseconds): time lots"),
        ("option Nonsense=3", "Error ("),
        ("option MultiPV=many", "Error ("),
    ];
    for (line, want) in cases {
        let got = ask(&mut e, line);
        assert!(got.len() == 1 && got[0].starts_with(want), "{line}: {got:?}");
    }
    e.send_raw(b"\xff\xfe garbage\n\n   \n");
    let got = sync(&mut e, 3);
    assert!(got.iter().all(|l| l.starts_with("Error (unknown command)")) && got.len() == 1, "{got:?}");
    assert_eq!(fen(&mut e), start);
    // Still playing after all that.
    e.send("sd 2");
    e.send("go");
    let (m, _) = engine_move(&mut e);
    assert!(Position::startpos().is_legal(m));
}

#[test]
fn pondering_keeps_the_game_straight() {
    let (mut e, _) = Engine::xboard_handshake();
    for l in ["new", "post", "hard", "level 0 1 0", "time 6000", "otim 6000", "sd 3"] {
        e.send(l);
    }
    sync(&mut e, 1);
    let mut pos = Position::startpos();
    let mut predicted: Option<Move> = None;
    let (mut hits, mut misses) = (0, 0);
    for ply in 0..8 {
        // Our (Red) move: alternately the reply the engine expects (a ponder hit) and another.
        let legal = pos.legal_moves();
        let other = legal.iter().copied().find(|&m| Some(m) != predicted).unwrap_or(legal[0]);
        let m = match predicted {
            Some(p) if ply % 2 == 0 => {
                hits += 1;
                p
            }
            Some(_) => {
                misses += 1;
                other
            }
            None => other,
        };
        pos.make_move(m);
        e.send(&format!("usermove {m}"));
        let (reply, lines) = engine_move(&mut e);
        assert!(pos.is_legal(reply), "ply {ply}: {reply} in {}; {lines:?}", pos.to_fen());
        pos.make_move(reply);
        if !pos.has_legal_move() {
            break;
        }
        // The engine's expected reply: the second move of its last principal variation.
        let pv: Vec<Move> = lines
            .iter()
            .rev()
            .find(|l| is_thinking(l))
            .map(|l| l.split_whitespace().skip(4).map(|w| Move::parse(w).unwrap()).collect())
            .unwrap_or_default();
        predicted = pv.get(1).copied().filter(|&p| pv[0] == reply && pos.is_legal(p));
        // While it waits for our move it ponders on that reply, thinking aloud (post): wait
        // for that output rather than a fixed while, which a loaded machine may not fill.
        let mut meanwhile = if predicted.is_some() { e.until(is_thinking) } else { Vec::new() };
        meanwhile.extend(sync(&mut e, 10 + ply as u32));
        assert!(!meanwhile.iter().any(|l| l.starts_with("move")), "ply {ply}: moved while pondering");
    }
    ask(&mut e, "force");
    assert_eq!(fen(&mut e).split(' ').next(), pos.to_fen().split(' ').next());
    eprintln!("ponder hits {hits}, misses {misses}");
}

#[test]
fn eof_and_quit_end_the_process() {
    let (mut e, _) = Engine::xboard_handshake();
    e.send("new");
    e.send("force");
    e.send("analyze");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    assert!(e.wait_exit(WAIT).is_some(), "EOF while analysing ends the process");
    let (mut e, _) = Engine::xboard_handshake();
    e.send("new");
    e.send("hard");
    e.send("st 600");
    e.send("usermove h2e2");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    assert!(e.wait_exit(WAIT).is_some_and(|s| s.success()), "quit while thinking");
}
