//! Reading training data: records a second from the chained format (version 2) and from
//! the 40-byte one (version 1), the same games in both; and the first committed part of
//! `data/` when there is one. `cargo bench --bench datagen`.

use chuhe::datagen::{play_game, ChainWriter, Config, MoveBudget, Reader, Writer};
use chuhe::eval::Evaluator;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Self-play games at a small budget, every searched position kept, in both versions.
fn data() -> (Vec<u8>, Vec<u8>, u64) {
    let cfg =
        Config { budget: MoveBudget::Nodes(300), keep_all: true, evaluator: Evaluator::Hand, ..Config::default() };
    let header = chuhe::datagen::header(&cfg);
    let mut engine = chuhe::search::Engine::new();
    engine.set_threads(1);
    engine.set_evaluator(cfg.evaluator.clone());
    let (mut v1, mut v2) = (Writer::new(Vec::new(), &header).unwrap(), ChainWriter::new(Vec::new(), &header).unwrap());
    let mut n = 0;
    for i in 0..24 {
        let game = play_game(&mut engine, &cfg, i);
        for r in game.kept_records() {
            v1.write(r).unwrap();
            v2.write(r, true).unwrap();
            n += 1;
        }
        v2.flush().unwrap();
    }
    (v1.into_inner(), v2.finish().unwrap(), n)
}

/// Sums the scores of every record, read as `train` and `tune` read them (lent, not copied).
fn sum_scores(bytes: &[u8]) -> i64 {
    let mut reader = Reader::new(bytes);
    let mut sum = 0;
    while let Some(r) = reader.next_ref() {
        sum += r.unwrap().score as i64;
    }
    sum
}

fn read(c: &mut Criterion) {
    let (v1, v2, n) = data();
    let mut g = c.benchmark_group("read");
    g.throughput(Throughput::Elements(n));
    for (name, bytes) in [("chained", &v2), ("fixed", &v1)] {
        g.bench_function(name, |b| b.iter(|| sum_scores(bytes)));
    }
    g.finish();
    // The committed data, when the checkout has it: real games at 8,000 nodes a move.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let Ok(parts) = chuhe::datagen::manifest::parts_of(&dir) else { return };
    let Some(bytes) = parts.first().and_then(|p| std::fs::read(p).ok()) else { return };
    let n = Reader::new(&bytes[..]).count() as u64;
    let mut g = c.benchmark_group("read-data");
    g.throughput(Throughput::Elements(n)).sample_size(10);
    g.bench_function("first-part", |b| b.iter(|| sum_scores(&bytes)));
    g.finish();
}

criterion_group!(benches, read);
criterion_main!(benches);
