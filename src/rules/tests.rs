//! Rule-by-rule cases. Every position was built by hand and checked against rules.md (and,
//! where the rules agree, against Fairy-Stockfish's xiangqi via pyffish).

use super::*;
use crate::board::{Move, Position, Square};

fn game(fen: &str, moves: &str) -> (Game, Option<Verdict>) {
    let mut g = Game::new(Position::from_fen(fen).unwrap());
    let mut v = g.verdict();
    for m in moves.split_whitespace() {
        assert!(v.is_none(), "game ended before {m}: {v:?}");
        g.play(Move::parse(m).unwrap()).unwrap_or_else(|e| panic!("{m} illegal: {e:?}"));
        v = g.verdict();
    }
    (g, v)
}

fn verdict(fen: &str, moves: &str) -> Verdict {
    game(fen, moves).1.expect("game should be over")
}

fn class(fen: &str, m: &str) -> MoveClass {
    let pos = Position::from_fen(fen).unwrap();
    let m = Move::parse(m).unwrap();
    assert!(pos.is_legal(m));
    classify(&pos, m)
}

/// Asserts that `moves` from `fen` end in a drawn repetition (no perpetual check or chase).
fn assert_repetition_draw(fen: &str, moves: &str) {
    let v = verdict(fen, moves);
    assert_eq!((v.result, v.rule), (GameResult::Draw, Rule::Repetition), "{}", v.reason);
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// The moves of the last `n` plies of `moves` and the position after them (for loop_verdict).
fn last_loop(fen: &str, moves: &str, n: usize) -> LoopVerdict {
    let (g, _) = game(fen, moves);
    let ms = g.moves();
    loop_verdict(g.position(), &ms[ms.len() - n..])
}

const PERPETUAL_CHECK: (&str, &str) =
    ("4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1", "a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9");
const CHASE_HORSE: &str = "2n1k4/9/9/9/9/3R5/9/9/9/5K3 w - - 0 1";
const CHASE_PROTECTED_HORSE: &str = "2n1k4/4a4/b8/9/9/3R5/9/9/9/5K3 w - - 0 1";
const CHASE_MOVES: &str = "d4c4 c9d7 c4d4 d7c9 d4c4 c9d7 c4d4 d7c9";

#[test]
fn perpetual_check_by_a_rook_loses() {
    let v = verdict(PERPETUAL_CHECK.0, PERPETUAL_CHECK.1);
    assert_eq!(
        (v.result, v.rule, v.loser, v.cycle),
        (GameResult::BlackWins, Rule::PerpetualCheck, Some(Color::Red), Some((2, 9)))
    );
    assert_eq!(v.reason, "Red loses: perpetual check, plies 2-9");
    assert_eq!(last_loop(PERPETUAL_CHECK.0, PERPETUAL_CHECK.1, 4), LoopVerdict::Loses(Color::Red));
}

#[test]
fn second_occurrence_goes_on() {
    // Eight plies of the perpetual check: the position after ply 1 has occurred twice only.
    let moves: Vec<&str> = PERPETUAL_CHECK.1.split_whitespace().collect();
    let (_, v) = game(PERPETUAL_CHECK.0, &moves[..8].join(" "));
    assert_eq!(v, None);
    let (_, v) = game(PERPETUAL_CHECK.0, &moves[..5].join(" "));
    assert_eq!(v, None);
}

#[test]
fn perpetual_chase_of_an_unprotected_horse_loses() {
    let (g, v) = game(CHASE_HORSE, CHASE_MOVES);
    let v = v.unwrap();
    assert_eq!(
        (v.result, v.rule, v.loser, v.cycle),
        (GameResult::BlackWins, Rule::PerpetualChase, Some(Color::Red), Some((1, 8)))
    );
    // Each rook move chases the horse, followed from c9 to d7 and back.
    let cm = g.cycle_moves(1, 8);
    assert_eq!(cm[0].chased, vec![(PieceKind::Horse, sq("c9"))]);
    assert_eq!(cm[2].chased, vec![(PieceKind::Horse, sq("d7"))]);
    assert!(cm.iter().filter(|c| c.side == Color::Black).all(|c| c.class.is_idle()));
    assert_eq!(loop_verdict(g.position(), &g.moves()[4..]), LoopVerdict::Loses(Color::Red));
}

#[test]
fn chasing_a_protected_horse_is_a_draw() {
    let v = verdict(CHASE_PROTECTED_HORSE, CHASE_MOVES);
    assert_eq!((v.result, v.rule, v.loser), (GameResult::Draw, Rule::Repetition, None));
    assert_eq!(v.reason, "Draw: repetition, plies 1-8");
    assert!(class(CHASE_PROTECTED_HORSE, "d4c4").is_idle());
}

#[test]
fn horse_chasing_a_protected_rook_loses() {
    let fen = "1r2k4/9/1r7/N8/9/9/9/9/9/5K3 w - - 0 1";
    let moves = "a6c5 b7b8 c5a6 b8b7 a6c5 b7b8 c5a6 b8b7";
    let v = verdict(fen, moves);
    assert_eq!((v.rule, v.loser), (Rule::PerpetualChase, Some(Color::Red)));
    // The rook on b7 is protected by the one on b9: only the value clause makes it a chase.
    let c = class(fen, "a6c5");
    assert!(c.is_chase());
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(c.chased_ids(Color::Red).collect::<Vec<_>>(), vec![pos.piece_id_at(sq("b7")).unwrap()]);
}

#[test]
fn pawn_and_king_attacks_never_chase() {
    // A crossed pawn hunting an unprotected rook back and forth: a draw, not a chase.
    let fen = "4k4/9/1r7/2P6/9/9/9/9/9/5K3 w - - 0 1";
    assert_repetition_draw(fen, "c6b6 b7c7 b6c6 c7b7 c6b6 b7c7 b6c6 c7b7");
    assert!(class(fen, "c6b6").is_idle());
    // The king stepping up to an unprotected horse does not chase it; a rook doing it does.
    let fen = "4k4/9/9/9/9/9/9/4n4/R8/4K4 w - - 0 1";
    assert!(class(fen, "e0e1").is_idle());
    assert!(class(fen, "a1a2").is_chase());
    // The king hunting a crossed, unprotected pawn along the back rank: a draw.
    assert_repetition_draw("5k3/9/9/9/9/9/9/9/3K5/4p4 w - - 0 1", "d1e1 e0d0 e1d1 d0e0 d1e1 e0d0 e1d1 d0e0");
}

#[test]
fn same_type_mutual_attack_is_not_a_chase() {
    let fen = "4k4/2r6/9/9/9/9/3R5/9/9/5K3 w - - 0 1";
    assert_repetition_draw(fen, "d3c3 c8d8 c3d3 d8c8 d3c3 c8d8 c3d3 d8c8");
    assert!(class(fen, "d3c3").is_idle());
    // A horse on a horse is mutual, unless the victim is pinned and cannot take back.
    assert!(class("4k4/9/4n4/9/N8/9/9/9/9/3K5 w - - 0 1", "a5c6").is_idle());
    assert!(class("4k4/9/4n4/9/N8/9/9/9/9/4K4 w - - 0 1", "a5c6").is_chase());
}

#[test]
fn fake_protector_does_not_protect() {
    // The black horse on e7 "protects" the cannon on d5 but may not leave the file between
    // the kings; with the Red king on d0 it may.
    assert!(class("4k4/9/4n4/9/3c5/9/9/9/R8/4K4 w - - 0 1", "a1a5").is_chase());
    assert!(class("4k4/9/4n4/9/3c5/9/9/9/R8/3K5 w - - 0 1", "a1a5").is_idle());
}

#[test]
fn one_check_one_chase_is_a_perpetual_chase() {
    let fen = "1n2k4/5N3/9/9/9/9/9/2R6/9/5K3 w - - 0 1";
    let moves = "f8d7 e9d9 c2b2 b9c7 d7f8 d9e9 b2c2 c7b9 f8d7 e9d9 c2b2 b9c7 d7f8 d9e9 b2c2 c7b9";
    let (g, v) = game(fen, moves);
    let v = v.unwrap();
    assert_eq!((v.rule, v.loser, v.cycle), (Rule::PerpetualChase, Some(Color::Red), Some((1, 16))));
    let red: Vec<_> = g.cycle_moves(1, 16).into_iter().filter(|c| c.side == Color::Red).collect();
    assert!(red.iter().step_by(2).all(|c| c.class.is_check()));
    assert!(red.iter().skip(1).step_by(2).all(|c| c.class.is_chase()));
    assert_eq!(loop_verdict(g.position(), &g.moves()[8..]), LoopVerdict::Loses(Color::Red));
}

#[test]
fn check_against_chase_the_checker_loses() {
    // Each Black king step evades the check and uncovers a cannon on the checking rook.
    let fen = "4k1b1c/R5n1c/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let (g, v) = game(fen, "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9");
    let v = v.unwrap();
    assert_eq!((v.rule, v.loser), (Rule::PerpetualCheck, Some(Color::Red)));
    let cm = g.cycle_moves(1, 8);
    assert!(cm
        .iter()
        .filter(|c| c.side == Color::Black)
        .all(|c| c.chased.len() == 1 && c.chased[0].0 == PieceKind::Rook));
    assert_eq!(loop_verdict(g.position(), &g.moves()[4..]), LoopVerdict::Loses(Color::Red));
}

#[test]
fn cycle_judgement_follows_the_verdict_order() {
    let tally = |classes: &[MoveClass]| {
        let mut t = repetition::SideTally::new();
        classes.iter().for_each(|&c| t.add(c));
        t
    };
    let chase = |mask: u16| MoveClass::chase_mask(mask);
    let (check, idle) = (MoveClass::CHECK, MoveClass::IDLE);
    let judge = |r: &[MoveClass], b: &[MoveClass]| {
        let o = repetition::judge_cycle(&[tally(r), tally(b)]);
        (o.rule, o.loser, o.draw_kind)
    };
    // Mutual perpetual check: a draw.
    assert_eq!(judge(&[check; 4], &[check; 4]), (Rule::Repetition, None, Rule::PerpetualCheck));
    // Perpetual check against perpetual chase: the checker loses.
    assert_eq!(judge(&[check; 4], &[chase(1); 4]), (Rule::PerpetualCheck, Some(Color::Red), Rule::PerpetualCheck));
    // Both chase: a draw. Chasing two different pieces in turn is no perpetual chase.
    assert_eq!(judge(&[chase(2); 4], &[chase(1); 4]), (Rule::Repetition, None, Rule::PerpetualChase));
    assert_eq!(
        judge(&[chase(1), chase(2), chase(1), chase(2)], &[idle; 4]),
        (Rule::Repetition, None, Rule::Repetition)
    );
    assert_eq!(
        judge(&[chase(3), chase(2), check, chase(6)], &[idle; 4]),
        (Rule::PerpetualChase, Some(Color::Red), Rule::PerpetualChase)
    );
    assert_eq!(judge(&[idle, check, check, check], &[idle; 4]).1, None);
}

#[test]
fn loop_verdict_agrees_with_the_whole_cycle() {
    let (g, v) = game(PERPETUAL_CHECK.0, PERPETUAL_CHECK.1);
    let (first, last) = v.unwrap().cycle.unwrap();
    assert_eq!(loop_verdict(g.position(), &g.moves()[first - 1..last]), LoopVerdict::Loses(Color::Red));
}

#[test]
fn quiet_repetition_is_a_draw() {
    let v = verdict(crate::board::START_FEN, "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9");
    assert_eq!((v.result, v.rule, v.cycle), (GameResult::Draw, Rule::Repetition, Some((1, 8))));
    let (_, v) = game(crate::board::START_FEN, "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0");
    assert_eq!(v, None);
}

#[test]
fn sixty_move_rule_at_exactly_120_plies() {
    let fen = |n: u32| format!("4k4/R8/9/9/9/9/9/9/1R7/5K3 w - - {n} 80");
    assert_eq!(game(&fen(118), "b1b2").1, None);
    let v = verdict(&fen(119), "b1b2");
    assert_eq!((v.result, v.rule), (GameResult::Draw, Rule::MoveLimit));
    // From a clock of 0: 120 quiet plies, all new positions, and only the 120th draws.
    let mut g = Game::new(Position::from_fen("n2k4n/9/9/9/9/9/9/9/R1R6/4K4 w - - 0 1").unwrap());
    let mut seen = std::collections::HashSet::new();
    for ply in 1..=120 {
        let pos = g.position().clone();
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|&m| {
                let mut p = pos.clone();
                p.make_move(m);
                !pos.is_capture(m) && p.has_legal_move() && !seen.contains(&p.key())
            })
            .unwrap_or_else(|| panic!("no fresh quiet move at ply {ply}: {pos:?}"));
        g.play(m).unwrap();
        seen.insert(g.position().key());
        let v = g.verdict();
        if ply < 120 {
            assert_eq!(v, None, "ply {ply}");
        } else {
            assert_eq!(v.map(|v| v.rule), Some(Rule::MoveLimit));
        }
    }
    // Mate on the 120th ply wins.
    let v = verdict(&fen(119), "b1b9");
    assert_eq!((v.result, v.rule, v.loser), (GameResult::RedWins, Rule::Checkmate, Some(Color::Black)));
    assert_eq!(v.reason, "Black loses: checkmate");
}

#[test]
fn a_capture_resets_the_count() {
    // 119 quiet plies, then a capture: the count starts again.
    let (g, v) = game("4k4/9/9/9/9/9/9/1p7/1R7/5K3 w - - 119 80", "b1b2");
    assert_eq!(v, None);
    assert_eq!(g.position().halfmove_clock(), 0);
}

#[test]
fn insufficient_material_is_a_draw() {
    let v = verdict("3k5/9/9/9/9/9/9/9/4p4/4K4 w - - 0 1", "e0e1");
    assert_eq!((v.result, v.rule), (GameResult::Draw, Rule::InsufficientMaterial));
    let advisors = Position::from_fen("3ak4/4a4/9/9/9/9/9/4B4/9/3AK4 w - - 0 1").unwrap();
    assert!(insufficient_material(&advisors));
    assert!(!insufficient_material(&Position::startpos()));
}

#[test]
fn stalemate_loses() {
    let v = verdict("3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1", "a7a8");
    assert_eq!((v.result, v.rule, v.loser), (GameResult::RedWins, Rule::Stalemate, Some(Color::Black)));
}

#[test]
fn illegal_move_loses_for_its_player() {
    let mut g = Game::new(Position::startpos());
    g.play(Move::parse("h2e2").unwrap()).unwrap();
    let e = g.play(Move::parse("e2e9").unwrap()).unwrap_err();
    assert_eq!((e.ply, e.side), (2, Color::Black));
    let e = IllegalMove { mv: Move::parse("e2e9").unwrap(), ply: 2, side: Color::Black };
    let v = Verdict::illegal(&e);
    assert_eq!((v.result, v.rule, v.loser), (GameResult::RedWins, Rule::IllegalMove, Some(Color::Black)));
    assert_eq!(g.moves().len(), 1, "an illegal move changes nothing");
}

#[test]
fn loop_verdict_rejects_a_non_loop() {
    let pos = Position::startpos();
    assert_eq!(loop_verdict(&pos, &[Move::parse("h2e2").unwrap()]), LoopVerdict::Draw);
    assert_eq!(loop_verdict(&pos, &[]), LoopVerdict::Draw);
}

#[test]
fn classification_is_consistent_over_random_games() {
    // Every quiet legal move of random games is classified without panicking, checks agree
    // with `gives_check`, and chased pieces are enemy non-kings.
    let mut chases = 0;
    crate::board::testing::random_games(0x2545_f491_4f6c_dd1d, 40, 120, |pos, moves, _, _| {
        for &m in moves.iter().filter(|&&m| !pos.is_capture(m)) {
            let c = classify(pos, m);
            assert_eq!(c.is_check(), pos.gives_check(m), "{m} in {pos:?}");
            let mut after = pos.clone();
            after.make_move(m);
            for id in c.chased_ids(pos.side_to_move()) {
                let sq = after.square_of_id(id).expect("chased piece on the board");
                let piece = after.piece_at(sq).unwrap();
                assert_eq!(piece.color(), pos.side_to_move().opp());
                assert_ne!(piece.kind(), PieceKind::King);
                chases += 1;
            }
        }
    });
    assert!(chases > 100, "only {chases} chases seen");
}
