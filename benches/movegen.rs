//! Criterion benches: legal generation, make/unmake, gives_check and perft(4) from the start.

use chuhe::board::{MoveList, Position};
use chuhe::perft::perft;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

const POSITIONS: [(&str, &str); 3] = [
    ("start", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    ("middlegame", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"),
    ("endgame", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1"),
];

fn movegen(c: &mut Criterion) {
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        c.bench_function(&format!("legal_moves/{name}"), |b| {
            b.iter(|| {
                let mut list = MoveList::new();
                black_box(&pos).generate_legal(&mut list);
                black_box(list.len())
            })
        });
    }
}

fn make_unmake(c: &mut Criterion) {
    let mut pos = Position::startpos();
    let moves = pos.legal_moves();
    c.bench_function("make_unmake/start_all_moves", |b| {
        b.iter(|| {
            for &m in &moves {
                let u = pos.make_move(m);
                black_box(pos.key());
                pos.unmake_move(m, u);
            }
        })
    });
}

/// `gives_check` over every legal move of each position (the search asks it of every move
/// it plays).
fn gives_check(c: &mut Criterion) {
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        let moves = pos.legal_moves();
        c.bench_function(&format!("gives_check/{name}_all_moves"), |b| {
            b.iter(|| moves.iter().filter(|&&m| black_box(&pos).gives_check(m)).count())
        });
    }
}

fn perft4(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("start_depth4", |b| {
        let mut pos = Position::startpos();
        b.iter(|| black_box(perft(&mut pos, 4)))
    });
    group.finish();
}

criterion_group!(benches, movegen, make_unmake, gives_check, perft4);
criterion_main!(benches);
