//! Criterion benches for the rules search and the match runner call: move classification,
//! `loop_verdict` on a repetition loop, and `Game::play` + `verdict` per move.

use chuhe::board::{Move, Position};
use chuhe::rules::{classify, loop_verdict, Game};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

const MIDDLEGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace().map(|m| Move::parse(m).unwrap()).collect()
}

/// The position after `loop_moves` from `fen`, where they form a loop.
fn after(fen: &str, loop_moves: &[Move]) -> Position {
    let mut p = Position::from_fen(fen).unwrap();
    for &m in loop_moves {
        p.make_move(m);
    }
    p
}

fn rules(c: &mut Criterion) {
    let mid = Position::from_fen(MIDDLEGAME).unwrap();
    let quiet: Vec<Move> = mid.legal_moves().into_iter().filter(|&m| !mid.is_capture(m)).collect();
    c.bench_function("classify/middlegame_all_quiet_moves", |b| {
        b.iter(|| quiet.iter().filter(|&&m| classify(black_box(&mid), m).is_idle()).count())
    });

    let chase_fen = "1n2k4/5N3/9/9/9/9/9/2R6/9/5K3 w - - 0 1";
    let chase = moves("f8d7 e9d9 c2b2 b9c7 d7f8 d9e9 b2c2 c7b9");
    let chase_after = after(chase_fen, &chase);
    c.bench_function("loop_verdict/one_check_one_chase_8_plies", |b| {
        b.iter(|| loop_verdict(black_box(&chase_after), black_box(&chase)))
    });

    let shuffle = moves("h0g2 h9g7 g2h0 g7h9");
    let start = Position::startpos();
    c.bench_function("loop_verdict/start_horse_shuffle_4_plies", |b| {
        b.iter(|| loop_verdict(black_box(&start), black_box(&shuffle)))
    });

    let game_moves = moves("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 h7i7 b2b6 c6c5 h0h4 h9h5 h4f4 g6g5");
    c.bench_function("game/play_and_verdict_14_plies", |b| {
        b.iter(|| {
            let mut g = Game::new(Position::startpos());
            for &m in &game_moves {
                g.play(m).unwrap();
                black_box(g.verdict());
            }
            g.moves().len()
        })
    });
}

criterion_group!(benches, rules);
criterion_main!(benches);
