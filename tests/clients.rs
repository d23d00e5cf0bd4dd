//! Two programs xiangqi players run today, written around Pikafish, replayed against the real
//! binary: each test sends its client's exact command sequence and checks the answers the way
//! the client parses them (what it reads, never how fast). The clients' own code is the
//! reference: Xiangqi Lab 1.2.0 (`xiangqilab/engine.py`, `engine_output.py`, `engine_test.py`)
//! and pikafish-terminal 0.0.8 (`pikafish_terminal/engine.py`, `game.py`). The clients
//! themselves run in `scripts/real-clients.sh` (by hand, not in CI).

mod common;

use chuhe::board::{Move, Position};
use common::*;
use std::collections::{BTreeMap, BTreeSet};

/// Threads as Xiangqi Lab sets them (`os.cpu_count()`), pushed above this machine's cores.
fn threads_above_cores() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores + 2).min(64)
}

/// A copy of the built-in net in a directory and file whose names hold spaces (one double),
/// as a GUI's file dialog may give them.
fn net_with_spaces() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe clients {}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("my  net file.nnue");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue"), &path).unwrap();
    path
}

// ---------------------------------------------------------------------------------------------
// Xiangqi Lab

/// Xiangqi Lab writes FENs with WXF letters (H horse, E elephant) and its own clocks.
fn xiangqilab_fen(pos: &Position, halfmove: u32, fullmove: u32) -> String {
    let board: String = pos
        .to_fen()
        .split(' ')
        .next()
        .unwrap()
        .chars()
        .map(|c| match c {
            'N' => 'H',
            'n' => 'h',
            'B' => 'E',
            'b' => 'e',
            c => c,
        })
        .collect();
    let side = if pos.side_to_move() == chuhe::board::Color::Red { 'w' } else { 'b' };
    format!("{board} {side} - - {halfmove} {fullmove}")
}

/// One line as `AlternativeMove.from_str` reads it: `depth`, `multipv`, `wdl W D L` and `pv`
/// must all be there, else it ignores the line. Where Python's `int()` or the move parser
/// would raise (and stop the client's engine thread), this panics.
#[derive(Debug)]
struct Alternative {
    depth: u32,
    wdl: [u32; 3],
    pv: Vec<Move>,
}

fn xiangqilab_alternative(line: &str) -> Option<(u32, Alternative)> {
    let items: Vec<&str> = line.split_whitespace().collect();
    let int = |i: usize| -> u32 {
        let w = items.get(i).unwrap_or_else(|| panic!("Xiangqi Lab pops past the end: {line}"));
        w.parse().unwrap_or_else(|_| panic!("Xiangqi Lab's int() fails on '{w}': {line}"))
    };
    let (mut depth, mut multipv, mut wdl, mut pv) = (None, None, None, None);
    let mut i = 0;
    while i < items.len() {
        match items[i] {
            "depth" => {
                depth = Some(int(i + 1));
                i += 1;
            }
            "multipv" => {
                multipv = Some(int(i + 1));
                i += 1;
            }
            "wdl" => {
                wdl = Some([int(i + 1), int(i + 2), int(i + 3)]);
                i += 3;
            }
            "pv" => {
                let moves = items[i + 1..].iter().map(|m| Move::parse(m).unwrap_or_else(|_| panic!("pv move {m}")));
                pv = Some(moves.collect());
                break;
            }
            _ => {}
        }
        i += 1;
    }
    Some((multipv?, Alternative { depth: depth?, wdl: wdl?, pv: pv? }))
}

/// What Xiangqi Lab keeps of one search (`EngineOutput.parse`): per `multipv`, the deepest
/// line, and the `bestmove` (`None` for `bestmove (none)`: the AI stops, the game is over).
fn xiangqilab_search(info: &[String], best: &str) -> (BTreeMap<u32, Alternative>, Option<Move>) {
    let mut alts: BTreeMap<u32, Alternative> = BTreeMap::new();
    for l in info.iter().filter(|l| l.starts_with("info")) {
        if let Some((k, a)) = xiangqilab_alternative(l) {
            if alts.get(&k).is_none_or(|old| a.depth > old.depth) {
                alts.insert(k, a);
            }
        }
    }
    let mv = best.split_whitespace().nth(1).expect("a move after bestmove");
    let mv = (mv != "(none)").then(|| Move::parse(mv).unwrap_or_else(|_| panic!("{best}")));
    (alts, mv)
}

/// `Engine._set_position` and `_search`: a new game and `isready` before every search, the
/// position as a FEN alone, `go movetime N depth M`. Returns the info lines and the bestmove.
fn xiangqilab_go(e: &mut Engine, fen: &str, movetime_ms: u64, depth: u32) -> (Vec<String>, String) {
    e.send("ucinewgame");
    e.send("isready");
    let before = e.until(|l| l == "readyok");
    assert!(errors(&before).is_empty(), "{before:?}");
    e.send(&format!("position fen {fen}"));
    e.send(&format!("go movetime {movetime_ms} depth {depth}"));
    let (best, info) = e.search_end();
    (info, best)
}

/// Checks one analysis as Xiangqi Lab shows it: `lines` variations, each with win/draw/loss
/// and a principal variation playable from `pos`; the move legal.
fn check_analysis(pos: &Position, info: &[String], best: &str, lines: u32) -> Move {
    let (alts, mv) = xiangqilab_search(info, best);
    assert_eq!(alts.keys().copied().collect::<Vec<_>>(), (1..=lines).collect::<Vec<_>>(), "{info:?}");
    for a in alts.values() {
        assert_eq!(a.wdl.iter().sum::<u32>(), 1000, "{a:?}");
        let mut p = pos.clone();
        for &m in &a.pv {
            assert!(p.is_legal(m), "{a:?} from {}", pos.to_fen());
            p.make_move(m);
        }
    }
    let mv = mv.unwrap_or_else(|| panic!("a move expected: {best}"));
    assert!(pos.is_legal(mv), "{best}");
    mv
}

#[test]
fn xiangqilab_engine_check_analysis_and_ai_game() {
    let mut e = Engine::start();
    // Engine._init_engine: `uci` up to the line "uciok"; no "Fairy-Stockfish" line, so moves
    // are read as ICCS (`h2e2`). Then its options, without waiting for anything.
    e.send("uci");
    let handshake = e.until(|l| l == "uciok");
    assert!(!handshake.iter().any(|l| l.starts_with("Fairy-Stockfish")), "{handshake:?}");
    let net = net_with_spaces();
    for line in [
        "setoption name UCI_ShowWDL value true".to_string(),
        "setoption name MultiPV value 3".to_string(),
        format!("setoption name Threads value {}", threads_above_cores()),
        "setoption name Hash value 2048".to_string(),
        format!("setoption name EvalFile value {}", net.display()),
    ] {
        e.send(&line);
    }
    // engine_test.py: the start position, `go movetime 5000 depth 10`, then quit; it calls
    // the engine usable when the whole exchange ends with the process leaving on `quit`.
    let start = Position::startpos();
    let (info, best) = xiangqilab_go(&mut e, &xiangqilab_fen(&start, 0, 1), 5000, 10);
    check_analysis(&start, &info, &best, 3);
    assert!(errors(&info).is_empty(), "{info:?}");
    let d = e.ask("eval");
    assert!(d.iter().any(|l| l.contains("my  net file.nnue")), "the net with spaces is in use: {d:?}");

    // More moves than lines, and fewer: MultiPV 3 and 500 with one legal move print one line.
    let one_move = Position::from_fen("3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1").unwrap();
    for multipv in ["3", "500"] {
        assert!(errors(&e.ask(&format!("setoption name MultiPV value {multipv}"))).is_empty());
        let (info, best) = xiangqilab_go(&mut e, &xiangqilab_fen(&one_move, 0, 1), 100_000, 4);
        assert_eq!(check_analysis(&one_move, &info, &best, 1).to_string(), "e0e1");
    }
    e.ask("setoption name MultiPV value 3");

    // `go movetime N depth M` ends on whichever comes first: the depth here (the movetime is
    // longer than the tests' WAIT), the movetime there (depth 99 would never end).
    let (info, _) = xiangqilab_go(&mut e, &xiangqilab_fen(&start, 0, 1), 100_000, 3);
    assert!(info.iter().filter_map(|l| word_after(l, "depth")).all(|d| d.parse::<u32>().unwrap() <= 3));
    let (_, best) = xiangqilab_go(&mut e, &xiangqilab_fen(&start, 0, 1), 200, 99);
    assert!(start.is_legal(best_of(&best)), "{best}");

    // AI vs AI from two rooks against a bare king: the engine plays both sides, each move a
    // fresh game and a bare FEN, until a side has no move; Xiangqi Lab stops at
    // `bestmove (none)` (the game is over) and shows the engine's lines until then.
    let mut pos = Position::from_fen(WINNING_FEN).unwrap();
    let (mut halfmove, mut fullmove) = (0, 1);
    let mut plies = 0;
    let last_info = loop {
        let (info, best) = xiangqilab_go(&mut e, &xiangqilab_fen(&pos, halfmove, fullmove), 100_000, 5);
        assert!(errors(&info).is_empty(), "{info:?}");
        let Some(mv) = xiangqilab_search(&info, &best).1 else { break info };
        assert!(pos.is_legal(mv), "{best} in {}", pos.to_fen());
        halfmove = if pos.is_capture(mv) { 0 } else { halfmove + 1 };
        fullmove += u32::from(pos.side_to_move() == chuhe::board::Color::Black);
        pos.make_move(mv);
        plies += 1;
        assert!(plies <= 60, "no mate in 60 plies: {}", pos.to_fen());
    };
    assert!(!pos.has_legal_move() && pos.in_check(), "the game ends by mate: {}", pos.to_fen());
    assert_eq!(last_info, ["info depth 0 score mate 0"], "Pikafish's no-move line");
    // Stalemate (a loss in xiangqi) ends it the same way.
    let stalemate = Position::from_fen("3r1k3/9/9/9/9/9/9/9/r8/4K4 w - - 0 1").unwrap();
    assert!(!stalemate.has_legal_move() && !stalemate.in_check());
    let (info, best) = xiangqilab_go(&mut e, &xiangqilab_fen(&stalemate, 0, 1), 100_000, 5);
    assert_eq!(
        (info.as_slice(), best.as_str()),
        (["info depth 0 score mate 0".to_string()].as_slice(), "bestmove (none)")
    );

    e.send("quit");
    assert!(e.wait_exit(WAIT).expect("exits on quit").success());
    let _ = std::fs::remove_dir_all(net.parent().unwrap());
}

// ---------------------------------------------------------------------------------------------
// pikafish-terminal

/// pikafish-terminal's position command: `XiangqiBoard.board_to_fen()` (the *current* board and
/// side, two fields) followed by every move since the start. An engine that refused the whole
/// line would keep an older position and answer for it.
fn terminal_position(pos: &Position, history: &[Move]) -> String {
    let side = if pos.side_to_move() == chuhe::board::Color::Red { "w" } else { "b" };
    let board = pos.to_fen().split(' ').next().unwrap().to_string();
    let mut cmd = format!("position fen {board} {side}");
    if !history.is_empty() {
        cmd.push_str(" moves");
        for m in history {
            cmd.push_str(&format!(" {m}"));
        }
    }
    cmd
}

/// `PikafishEngine._start`: `uci` until a line containing "uciok", then `isready`/"readyok".
fn terminal_engine() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l.contains("uciok"));
    e.send("isready");
    e.until(|l| l.contains("readyok"));
    e
}

/// `is_move_legal`: `go perft 1`, reading lines until one starting "Nodes searched:" or one
/// containing "illegal"; a line with ": " that is neither an info line nor the total names a
/// legal move. Returns the moves read; fails if the answer ended without the total.
fn terminal_legal_moves(e: &mut Engine, pos: &Position, history: &[Move]) -> BTreeSet<String> {
    e.send(&terminal_position(pos, history));
    e.send("go perft 1");
    let mut moves = BTreeSet::new();
    loop {
        let line = e.until(|_| true).pop().unwrap();
        let line = line.trim();
        if line.contains(": ") && !line.starts_with("info") && !line.starts_with("Nodes") {
            let mv = line.split(':').next().unwrap().trim();
            if mv.len() >= 4 {
                moves.insert(mv.to_string());
            }
        } else if line.starts_with("Nodes searched:") {
            return moves;
        } else {
            assert!(!line.to_lowercase().contains("illegal"), "the client would stop reading here: {line}");
        }
    }
}

/// `get_position_evaluation` (score display, on by default): `go depth 15 movetime 500`, the
/// last `score cp|mate N` of an info line, until `bestmove`.
fn terminal_score(e: &mut Engine, pos: &Position, history: &[Move]) -> i32 {
    e.send(&terminal_position(pos, history));
    e.send("go depth 15 movetime 500");
    let (_, info) = e.search_end();
    let mut score = None;
    for l in info.iter().filter(|l| l.starts_with("info") && l.contains("score")) {
        let parts: Vec<&str> = l.split_whitespace().collect();
        let i = parts.iter().position(|w| *w == "score").unwrap();
        let v: i32 = parts[i + 2].parse().unwrap_or_else(|_| panic!("the client's int() fails: {l}"));
        score = Some(match parts[i + 1] {
            "mate" if v > 0 => 10_000 - v,
            "mate" => -10_000 - v,
            _ => v,
        });
    }
    score.expect("a score line")
}

/// `is_game_over`: `go depth 1`; over when `bestmove` has no move (`(none)` or `0000`).
fn terminal_game_over(e: &mut Engine, pos: &Position, history: &[Move]) -> bool {
    e.send(&terminal_position(pos, history));
    let best = e.go("go depth 1");
    let mv = best.split_whitespace().nth(1).unwrap_or("(none)");
    mv == "(none)" || mv == "0000"
}

#[test]
fn pikafish_terminal_typed_moves_replies_hints_and_game_end() {
    // play(): a first engine is started and quit to check the binary, then the game's own.
    let mut probe = terminal_engine();
    probe.send("quit");
    assert!(probe.wait_exit(WAIT).expect("exits on quit").success());
    let mut e = terminal_engine();
    e.send("ucinewgame");
    e.send("isready");
    e.until(|l| l.contains("readyok"));

    // The human plays Red with `--depth 4` (`go depth 4` for the engine's moves); the score
    // display (on by default) asks for a score of the start and after every move.
    let mut pos = Position::startpos();
    let mut history: Vec<Move> = Vec::new();
    terminal_score(&mut e, &pos, &history);
    for wanted in ["h2e2", "h0g2", "i0h0"] {
        assert!(!terminal_game_over(&mut e, &pos, &history));
        // The typed move is checked with `go perft 1`: the moves read are exactly the legal
        // ones of the real position, and the answer ends with Pikafish's total.
        let legal: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(terminal_legal_moves(&mut e, &pos, &history), legal, "{}", pos.to_fen());
        let typed = if legal.contains(wanted) { wanted } else { legal.iter().next().unwrap() };
        let m = Move::parse(typed).unwrap();
        pos.make_move(m);
        history.push(m);
        terminal_score(&mut e, &pos, &history);
        assert!(!terminal_game_over(&mut e, &pos, &history));
        // The engine's reply (`best_move`) must be a move of the real position.
        e.send(&terminal_position(&pos, &history));
        let best = e.go("go depth 4");
        let reply = best_of(&best);
        assert!(pos.is_legal(reply), "{best} in {}", pos.to_fen());
        pos.make_move(reply);
        history.push(reply);
        terminal_score(&mut e, &pos, &history);
    }

    // Hints (`get_candidate_moves`): MultiPV 3 for one search, ranked by `multipv`, then 1.
    e.send(&terminal_position(&pos, &history));
    e.send("setoption name MultiPV value 3");
    e.send("go depth 30 movetime 3000");
    let (best, info) = e.search_end();
    e.send("setoption name MultiPV value 1");
    let mut ranked: BTreeMap<String, u32> = BTreeMap::new();
    for l in info.iter().filter(|l| l.starts_with("info") && l.contains("pv") && l.contains("score")) {
        let parts: Vec<&str> = l.split_whitespace().collect();
        let rank = word_after(l, "multipv").map_or(1, |k| k.parse().unwrap());
        let first = parts[parts.iter().position(|w| *w == "pv").unwrap() + 1];
        ranked.insert(first.to_string(), rank);
    }
    // The client adds the bestmove if no line had it, sorts by rank and shows three.
    assert!(pos.is_legal(best_of(&best)), "{best}");
    assert!(ranked.len() >= 3 && ranked.values().all(|k| (1..=3).contains(k)), "{ranked:?}");
    assert!(ranked.keys().all(|m| pos.is_legal(Move::parse(m).unwrap())), "{ranked:?}");
    e.sync();

    // Game over: a mated side gets `bestmove (none)`, which the client reports.
    let mated = Position::from_fen(CHECKMATED_FEN).unwrap();
    assert!(terminal_game_over(&mut e, &mated, &[]));
    e.send("quit");
    assert!(e.wait_exit(WAIT).expect("exits on quit").success());
}

#[test]
fn pikafish_terminal_hints_after_a_stop_are_one_ranked_set() {
    // The hint search ends on its time (`go depth 30 movetime 3000`), inside an iteration; the
    // client keeps each `multipv`'s last line. A node limit stops it inside an iteration too,
    // with no clock: the lines sent last must be 1, 2, 3 in order (lines of two iterations
    // mixed would rank a line below one it beats), the first one's move the bestmove.
    let mut e = terminal_engine();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves h2e2 b9c7 b0c2 h9g7");
    e.send("go nodes 30000");
    let (best, info) = e.search_end();
    let lines: Vec<&String> = info.iter().filter(|l| word_after(l, "multipv").is_some()).collect();
    let last: Vec<&str> = lines[lines.len() - 3..].iter().map(|l| word_after(l, "multipv").unwrap()).collect();
    assert_eq!(last, ["1", "2", "3"], "{lines:#?}");
    let depth = |l: &str| word_after(l, "depth").unwrap().parse::<u32>().unwrap();
    let top = lines[lines.len() - 3];
    assert_eq!(word_after(top, "pv"), best.split_whitespace().nth(1), "{top} / {best}");
    assert!(lines[lines.len() - 2..].iter().all(|l| depth(l) + 1 >= depth(top)), "{lines:#?}");
    e.send("quit");
    assert!(e.wait_exit(WAIT).expect("exits on quit").success());
}

// ---------------------------------------------------------------------------------------------
// The shapes other tools parse (UCI), and UCCI's own forms kept

#[test]
fn uci_perft_d_eval_flip_compiler_in_pikafish_shapes() {
    let (mut e, _) = Engine::handshake("uci");
    e.send("position startpos moves h2e2");
    // go perft: `move: count` lines, a blank line, `Nodes searched: N`, a blank line; the time
    // after that as an info string.
    let lines = e.ask("go perft 2");
    let n = lines.iter().position(|l| l.is_empty()).expect("a blank line");
    assert!(lines[..n]
        .iter()
        .all(|l| l.split_once(": ").is_some_and(|(m, c)| m.len() == 4 && c.parse::<u64>().is_ok())));
    let mut after = Position::startpos();
    after.make_move(Move::parse("h2e2").unwrap());
    assert_eq!(n, after.legal_moves().len(), "{lines:?}");
    assert_eq!(&lines[n..n + 3], ["", "Nodes searched: 1564", ""], "{lines:?}");
    assert!(lines[n + 3..].iter().all(|l| l.starts_with("info string ")), "{lines:?}");
    // d: the grid, then Fen:, Key: (16 upper-case hex digits), Checkers:.
    let d = e.ask("d");
    assert_eq!(d[0], "");
    assert_eq!(d[1], " +---+---+---+---+---+---+---+---+---+");
    assert_eq!(d[2], " | r | n | b | a | k | a | b | n | r | 9");
    assert_eq!(d[20], " | R | N | B | A | K | A | B | N | R | 0");
    assert_eq!(d[22], "   a   b   c   d   e   f   g   h   i");
    assert_eq!(d[24], "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    let key = d[25].strip_prefix("Key: ").unwrap();
    assert!(key.len() == 16 && key.chars().all(|c| c.is_ascii_digit() || c.is_ascii_uppercase()), "{key}");
    assert_eq!(d[26], "Checkers: ");
    assert!(d[27..].iter().all(|l| l.starts_with("info string ")), "{d:?}");
    e.send(&format!("position fen {MATED_IN_ONE_FEN} moves e1e2"));
    let d = e.ask("d");
    assert_eq!(d.iter().find(|l| l.starts_with("Checkers:")).unwrap(), "Checkers: ");
    e.send(&format!("position fen {CHECKMATED_FEN}"));
    assert!(e.ask("d").contains(&"Checkers: e8".to_string()));
    // eval: Pikafish's closing lines (pawns, Red's side = its "white side"); in check, none.
    assert!(e.ask("eval").contains(&"Final evaluation: none (in check)".to_string()));
    e.send("position fen 4k4/9/9/9/9/R7R/9/9/9/3K5 b - - 0 1");
    let ev = e.ask("eval");
    let fin = ev.iter().find_map(|l| l.strip_prefix("Final evaluation ")).expect("a final line");
    let pawns: f64 = fin.split_whitespace().next().unwrap().parse().unwrap();
    assert!(pawns > 5.0 && fin.contains("(red side)"), "Red is two rooks up whoever moves: {fin}");
    let last_pikafish = ev.iter().position(|l| l.starts_with("Final evaluation")).unwrap();
    assert!(ev[last_pikafish + 1..].iter().all(|l| l.starts_with("info string eval ")), "{ev:?}");
    // flip: ranks reversed, colours and side swapped; twice is the position again.
    e.send("position startpos moves h2e2");
    e.send("flip");
    assert_eq!(e.fen(), "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 1 1");
    e.send("flip");
    assert_eq!(e.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    assert_eq!(e.refused("flip now"), "info string error: flip: unexpected word 'now'");
    // compiler: Pikafish's four labels between blank lines.
    let c = e.ask("compiler");
    assert_eq!(c.len(), 6, "{c:?}");
    for (line, label) in c[1..5].iter().zip([
        "Compiled by                : rustc ",
        "Compilation architecture   : ",
        "Compilation settings       : ",
        "Compiler __VERSION__ macro : rustc ",
    ]) {
        assert!(line.starts_with(label), "{line}");
    }
}

#[test]
fn bench_in_the_loop_is_the_cli_bench() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe")).args(["bench", "--depth", "4"]).output();
    let text = String::from_utf8(out.unwrap().stdout).unwrap();
    let cli = text.lines().find_map(|l| l.strip_prefix("Nodes searched  : ")).expect("the CLI's block").to_string();
    let (mut e, _) = Engine::handshake("uci");
    let lines = e.ask("bench 16 1 4 default depth");
    let n = lines.len();
    assert!(lines[..n - 4].iter().all(|l| l.starts_with("info string bench position ")), "{lines:?}");
    assert_eq!(lines[n - 4], "=".repeat(27));
    assert!(lines[n - 3].starts_with("Total time (ms) : "));
    assert_eq!(lines[n - 2], format!("Nodes searched  : {cli}"));
    assert!(lines[n - 1].starts_with("Nodes/second    : "));
    for bad in ["bench 16 1 4 mine.epd", "bench 16 1 4 default nodes", "bench lots"] {
        assert!(e.refused(bad).starts_with("info string error: bench: "), "{bad}");
    }
}

#[test]
fn ucci_keeps_its_own_forms() {
    let (mut e, _) = Engine::handshake("ucci");
    let lines = e.ask("go perft 2");
    assert!(lines.last().unwrap().starts_with("nodes 1920 time "), "{lines:?}");
    assert!(e.ask("d").iter().any(|l| l.starts_with("fen rnbakabnr")));
    e.send(&format!("position fen {CHECKMATED_FEN}"));
    assert_eq!(e.ask("go depth 3"), ["nobestmove"]);
    // A move that cannot be played refuses the whole line in UCCI (UCI keeps the moves before).
    e.send("position startpos");
    e.refused("position startpos moves h2e2 h2e2");
    assert!(e.fen().starts_with("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"));
}

#[test]
fn uci_position_keeps_the_moves_before_one_that_cannot_be_played() {
    let (mut e, _) = Engine::handshake("uci");
    let note = e.refused("position startpos moves h2e2 h9g7 h2e2 b0c2");
    assert!(note.contains("'h2e2' (move 3 of 4)") && !note.to_lowercase().contains("illegal"), "{note}");
    assert_eq!(e.fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
}
