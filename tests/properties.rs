//! Property tests of the board against a slow reference generator written plainly from the
//! rules (tests/reference): random legal games from the start, and random placements that
//! exercise unusual configurations (cannon pins, facing kings, blocked horse legs and
//! elephant eyes, kings on open files, composed positions with pieces on points no game
//! reaches). Seeded, so every run checks the same cases; set
//! `CHUHE_PROPERTY_SCALE=N` to run N times as many (with other seeds) for a longer soak.

#[allow(dead_code)] // shared with the fuzz targets; this file uses part of it
mod checks;
mod common;
#[allow(dead_code)]
mod reference;

use checks::{check_move, check_static, placement};
use chuhe::board::{FenError, Move, Position, START_FEN};
use common::rng::Rng;
use reference::{reachable_points, Kind, Man, RefBoard, Side, SET};

/// How many times the default amount of work to do (`CHUHE_PROPERTY_SCALE`, default 1).
fn scale() -> usize {
    std::env::var("CHUHE_PROPERTY_SCALE").ok().and_then(|v| v.parse().ok()).unwrap_or(1).max(1)
}

/// Plays up to `plies` random legal moves from `pos`, checking every position against the
/// reference and every move played (and, every `all_every` plies, every legal move); then
/// takes all the moves back and checks that the start position is restored exactly.
/// Returns the number of plies played.
fn random_game(mut pos: Position, rng: &mut Rng, plies: usize, all_every: usize) -> usize {
    let start = pos.clone();
    let mut played: Vec<(Move, chuhe::board::Undo, String, u64)> = Vec::new();
    for ply in 0..plies {
        let (rb, legal) = check_static(&pos);
        if legal.is_empty() {
            break;
        }
        if ply % all_every == 0 {
            for &m in &legal {
                check_move(&mut pos, &rb, m);
            }
        }
        let m = rng.pick(&legal);
        check_move(&mut pos, &rb, m);
        let (fen, key) = (pos.to_fen(), pos.key());
        let undo = pos.make_move(m);
        played.push((m, undo, fen, key));
    }
    let n = played.len();
    while let Some((m, undo, fen, key)) = played.pop() {
        pos.unmake_move(m, undo);
        assert_eq!((pos.to_fen(), pos.key()), (fen, key), "unwinding {m}");
    }
    assert!(pos == start, "game unwound to {:?}, started at {:?}", pos.to_fen(), start.to_fen());
    n
}

/// A random point of the board.
fn any_point(rng: &mut Rng) -> (i32, i32) {
    (rng.below(9) as i32, rng.below(10) as i32)
}

/// A random placement as FEN text: kings in their palaces (often on one file; rarely the Red
/// king anywhere, which the validator must reject unless it is in the palace), each other
/// piece of the set present with a random density, mostly on points games reach, often on a
/// king's file or rank, sometimes anywhere (a composed position); random side and counters,
/// including their extremes.
fn random_fen(rng: &mut Rng) -> String {
    let mut board = RefBoard::empty(if rng.below(2) == 0 { Side::Red } else { Side::Black });
    let red_king = if rng.below(20) == 0 { any_point(rng) } else { rng.pick(&reachable_points(Side::Red, Kind::King)) };
    let black_choices: Vec<_> = reachable_points(Side::Black, Kind::King)
        .into_iter()
        .filter(|p| rng.below(2) == 0 || p.0 == red_king.0)
        .collect();
    let black_king = if black_choices.is_empty() { (4, 9) } else { rng.pick(&black_choices) };
    board.set(red_king, Some(Man { side: Side::Red, kind: Kind::King }));
    board.set(black_king, Some(Man { side: Side::Black, kind: Kind::King }));
    let kings = [red_king, black_king];
    for side in [Side::Red, Side::Black] {
        let density = 5 + rng.below(90);
        for (kind, count) in SET.into_iter().skip(1) {
            let reachable = reachable_points(side, kind);
            for _ in 0..count {
                if rng.below(100) >= density {
                    continue;
                }
                let p = match rng.below(20) {
                    0..=2 => any_point(rng),
                    3..=9 => {
                        let k = rng.pick(&kings);
                        let lined: Vec<_> = reachable.iter().copied().filter(|q| q.0 == k.0 || q.1 == k.1).collect();
                        if lined.is_empty() {
                            rng.pick(&reachable)
                        } else {
                            rng.pick(&lined)
                        }
                    }
                    _ => rng.pick(&reachable),
                };
                if board.at(p).is_none() {
                    board.set(p, Some(Man { side, kind }));
                }
            }
        }
    }
    let side = if board.to_move == Side::Red { "w" } else { "b" };
    let (h, f) = (rng.below(200), 1 + rng.below(300));
    let half = rng.pick(&[0, h, 119, 65534, 65535]);
    let full = rng.pick(&[1, f, 65534, 65535]);
    format!("{} {side} - - {half} {full}", board.placement())
}

#[test]
fn reference_reads_the_start_position() {
    let rb = RefBoard::parse_fen(START_FEN).unwrap();
    assert_eq!(rb.legal_moves().len(), 44);
    assert_eq!(rb.problem(), None);
    assert_eq!(rb.placement(), placement(START_FEN));
    let n = |k| reachable_points(Side::Red, k).len();
    let counts = [Kind::King, Kind::Advisor, Kind::Elephant, Kind::Horse, Kind::Pawn].map(n);
    assert_eq!(counts, [9, 5, 7, 90, 55]);
}

#[test]
fn random_games_from_the_start_match_the_reference() {
    let mut rng = Rng(0xC0FFEE);
    let mut plies = 0;
    let games = 60 * scale();
    for g in 0..games {
        plies += random_game(Position::startpos(), &mut rng, 160, if g % 10 == 0 { 1 } else { 16 });
    }
    assert!(plies > games * 60, "only {plies} plies in {games} games");
}

#[test]
fn random_placements_match_the_reference() {
    let mut rng = Rng(0x5EED_0001 + scale() as u64);
    let (mut accepted, mut rejected, mut plies) = (0, 0, 0);
    let (mut seen_in_check, mut composed) = (0, 0);
    let tries = 3000 * scale();
    for _ in 0..tries {
        let fen = random_fen(&mut rng);
        let rb = RefBoard::parse_fen(&fen).unwrap();
        match (Position::from_fen(&fen), rb.problem()) {
            (Ok(pos), None) => {
                accepted += 1;
                seen_in_check += pos.in_check() as usize;
                composed += is_composed(&rb) as usize;
                plies += random_game(pos, &mut rng, 12, 4);
            }
            (Err(FenError::Position(_)), Some(_)) => rejected += 1,
            (Err(e @ FenError::Parse(_)), _) => panic!("engine could not read {fen}: {e}"),
            (Ok(_), Some(why)) => panic!("engine accepted {fen}, which the reference rejects: {why}"),
            (Err(e), None) => panic!("engine rejected {fen}, which the reference accepts: {e}"),
        }
    }
    assert!(accepted > tries / 5 && rejected > tries / 10, "accepted {accepted}, rejected {rejected}");
    assert!(seen_in_check > accepted / 20, "only {seen_in_check} of {accepted} positions in check");
    assert!(composed > accepted / 5, "only {composed} of {accepted} positions composed");
    assert!(plies > accepted * 5, "only {plies} plies");
}

/// Whether some piece stands on a point no game from the start position reaches.
fn is_composed(b: &RefBoard) -> bool {
    b.all_points().any(|p| b.at(p).is_some_and(|m| !reachable_points(m.side, m.kind).contains(&p)))
}

/// Leaf count of the reference generator's move tree.
fn reference_perft(b: &RefBoard, depth: u32) -> u64 {
    let moves = b.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.into_iter().map(|m| reference_perft(&b.after(m), depth - 1)).sum()
}

/// The FENs and counts of an EPD perft suite (`FEN ;D1 n ;D2 n ...`, `#` comments).
fn epd_lines(suite: &str) -> Vec<(RefBoard, Vec<u64>, &str)> {
    let lines = suite.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    lines
        .map(|line| {
            let mut parts = line.split(';');
            let rb = RefBoard::parse_fen(parts.next().unwrap().trim()).unwrap();
            let counts: Vec<u64> = parts.map(|p| p.trim()[2..].trim().parse().unwrap()).collect();
            (rb, counts, line)
        })
        .collect()
}

#[test]
fn reference_matches_published_perft_counts() {
    // The reference is checked against the public counts on its own, so an agreement
    // between it and the engine means both follow the rules, not that both share a bug.
    let mut checked = 0;
    for (rb, counts, line) in epd_lines(include_str!("../perft/suite.epd")) {
        let depth = if rb.placement() == placement(START_FEN) { 3 } else { 2 };
        for d in 1..=depth {
            assert_eq!(reference_perft(&rb, d), counts[d as usize - 1], "{line} depth {d}");
            checked += 1;
        }
    }
    assert_eq!(checked, 23);
}

#[test]
fn reference_matches_composed_perft_counts() {
    // The composed positions' counts come from Fairy-Stockfish (perft/README.md): the
    // reference agreeing with them means its rules for pieces on unusual points are theirs.
    let mut checked = 0;
    for (rb, counts, line) in epd_lines(include_str!("../perft/composed.epd")) {
        assert!(is_composed(&rb), "{line} is not composed");
        assert_eq!(rb.problem(), None, "{line}");
        for d in 1..=2 {
            assert_eq!(reference_perft(&rb, d), counts[d as usize - 1], "{line} depth {d}");
            checked += 1;
        }
    }
    assert_eq!(checked, 16);
}

/// The legal moves by making every pseudo-legal move and looking at the mover's king.
fn make_and_test(pos: &Position) -> Vec<Move> {
    let mut pseudo = chuhe::board::MoveList::new();
    pos.generate_pseudo(&mut pseudo);
    let mut p = pos.clone();
    let us = pos.side_to_move();
    pseudo
        .into_iter()
        .filter(|&m| {
            let u = p.make_move(m);
            let ok = !p.king_attacked(us);
            p.unmake_move(m, u);
            ok
        })
        .collect()
}

/// A placement built to strain legal generation: a few pieces of random kinds and sides on the
/// red king's file and rank (cannon screens, rook pins, a second piece between the kings),
/// on its horse-leg and horse points, or anywhere; the kings often on one file.
fn tactical_fen(rng: &mut Rng) -> String {
    let mut board = RefBoard::empty(if rng.below(2) == 0 { Side::Red } else { Side::Black });
    let rk = rng.pick(&reachable_points(Side::Red, Kind::King));
    let bk = if rng.below(2) == 0 && rk.1 < 9 { (rk.0, 7 + rng.below(3) as i32) } else { (4, 9) };
    board.set(rk, Some(Man { side: Side::Red, kind: Kind::King }));
    board.set(bk, Some(Man { side: Side::Black, kind: Kind::King }));
    let kinds = [Kind::Rook, Kind::Cannon, Kind::Horse, Kind::Pawn, Kind::Advisor, Kind::Elephant];
    let mut counts = [[0; 7]; 2];
    for _ in 0..2 + rng.below(9) {
        let side = if rng.below(2) == 0 { Side::Red } else { Side::Black };
        // Cannons twice as often: their screens are what is special.
        let kind = if rng.below(6) == 0 { Kind::Cannon } else { rng.pick(&kinds) };
        let p = match rng.below(10) {
            0..=3 if rng.below(2) == 0 => (rk.0, rng.below(10) as i32),
            0..=3 => (rng.below(9) as i32, rk.1),
            4..=5 => (rk.0 + rng.pick(&[-1, 1]), rk.1 + rng.pick(&[-1, 1])),
            6..=7 => {
                let (df, dr) = rng.pick(&[(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]);
                (rk.0 + df, rk.1 + dr)
            }
            _ => any_point(rng),
        };
        let n = &mut counts[(side == Side::Black) as usize][kind as usize];
        let limit = if kind == Kind::Pawn { 5 } else { 2 };
        if (0..9).contains(&p.0) && (0..10).contains(&p.1) && board.at(p).is_none() && *n < limit {
            *n += 1;
            board.set(p, Some(Man { side, kind }));
        }
    }
    let side = if board.to_move == Side::Red { "w" } else { "b" };
    format!("{} {side} - - 0 1", board.placement())
}

#[test]
fn legal_generation_matches_make_and_test() {
    let mut rng = Rng(0x1E6A_0029 + scale() as u64);
    let (mut positions, mut in_check, mut double_check, mut pinned) = (0, 0, 0, 0);
    let tries = 20_000 * scale();
    for t in 0..tries {
        let fen = if t % 2 == 0 { tactical_fen(&mut rng) } else { random_fen(&mut rng) };
        let Ok(mut pos) = Position::from_fen(&fen) else { continue };
        // A few random plies from each, so positions after real moves are seen too.
        for _ in 0..4 {
            let want = make_and_test(&pos);
            let mut got = chuhe::board::MoveList::new();
            pos.generate_legal(&mut got);
            assert_eq!(got.as_slice(), want.as_slice(), "legal moves of {}", pos.to_fen());
            assert_eq!(pos.count_legal(), want.len() as u64, "legal count of {}", pos.to_fen());
            let mut caps = chuhe::board::MoveList::new();
            pos.generate_legal_captures(&mut caps);
            let want_caps: Vec<Move> = want.iter().copied().filter(|&m| pos.is_capture(m)).collect();
            assert_eq!(caps.as_slice(), want_caps.as_slice(), "legal captures of {}", pos.to_fen());
            let mut quiets = chuhe::board::MoveList::new();
            pos.generate_legal_quiets(&mut quiets);
            let want_quiets: Vec<Move> = want.iter().copied().filter(|&m| !pos.is_capture(m)).collect();
            assert_eq!(quiets.as_slice(), want_quiets.as_slice(), "legal quiet moves of {}", pos.to_fen());
            let mut pseudo = chuhe::board::MoveList::new();
            pos.generate_pseudo(&mut pseudo);
            positions += 1;
            in_check += pos.in_check() as usize;
            double_check += (pos.checkers().len() >= 2) as usize;
            pinned += (pseudo.iter().any(|&m| !pos.is_capture(m) && !want.contains(&m)) && !pos.in_check()) as usize;
            if want.is_empty() {
                break;
            }
            pos.make_move(rng.pick(&want));
        }
    }
    assert!(positions > tries, "only {positions} positions");
    assert!(in_check > positions / 20, "only {in_check} of {positions} in check");
    assert!(double_check > positions / 500, "only {double_check} double checks");
    assert!(pinned > positions / 20, "only {pinned} positions with a quiet move ruled out by a pin");
}
