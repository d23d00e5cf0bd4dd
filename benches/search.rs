//! Criterion benches: fixed-depth searches (one thread, 16 MB, table cleared) and evaluation.

use chuhe::board::Position;
use chuhe::eval::nnue::{AccumulatorStack, DEFAULT};
use chuhe::eval::{evaluate, Evaluator};
use chuhe::search::{Engine, Limits};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

const POSITIONS: [(&str, &str, u32); 3] = [
    ("start_d8", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 8),
    ("middlegame_d7", "2bakab2/4n4/6nc1/pRp1p3p/7r1/9/2P1P1P1P/3CB1NCB/4K4/rc1A1A2R w - - 0 16", 7),
    ("endgame_d9", "3akab2/9/4b4/5R3/r8/4P4/4N4/B7B/4A4/4KA3 w - - 0 76", 9),
];

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (evaluator, label) in [(Evaluator::Hand, "hand"), (Evaluator::embedded(), "nnue")] {
        let mut engine = Engine::new();
        engine.set_evaluator(evaluator);
        for (name, fen, depth) in POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            group.bench_function(format!("{label}/{name}"), |b| {
                b.iter(|| {
                    engine.clear();
                    black_box(engine.search_sync(&pos, &[], Limits { depth: Some(depth), ..Limits::default() }).nodes)
                })
            });
        }
    }
    group.finish();
}

fn eval(c: &mut Criterion) {
    for (name, fen, _) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        c.bench_function(&format!("evaluate/{name}"), |b| b.iter(|| evaluate(black_box(&pos))));
        // The network: the output from a kept accumulator, one move's lazy update and its
        // evaluation (what search pays per node), and a refresh from scratch (only at the root).
        let net = &**DEFAULT;
        let acc = net.refresh(&pos);
        c.bench_function(&format!("nnue_output/{name}"), |b| b.iter(|| net.evaluate(black_box(&acc), &pos)));
        let m = pos.legal_moves()[0];
        let mut next = pos.clone();
        next.make_move(m);
        let mut stack = AccumulatorStack::new(net, &pos, 2);
        c.bench_function(&format!("nnue_update/{name}"), |b| {
            b.iter(|| {
                stack.push_move(black_box(&pos), m);
                let v = stack.evaluate(black_box(&next));
                stack.pop();
                v
            })
        });
        c.bench_function(&format!("nnue_refresh/{name}"), |b| b.iter(|| net.refresh(black_box(&pos))));
    }
}

criterion_group!(benches, search, eval);
criterion_main!(benches);
