use super::*;
use crate::board::Position;
use crate::eval::nnue::tests::{random_net, test_archs};
use crate::eval::nnue::Arch;

/// A position with pieces on both sides' halves and generals off the centre file.
const FEN: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

#[test]
fn the_gradient_matches_finite_differences() {
    use crate::eval::nnue::arch::{L2, L3};
    let stacked = |a: Arch| a.with_stack(true);
    let threats = Arch::new(256, 3, 2).unwrap().with_threats(true);
    let archs = [Arch::ONE, Arch::new(256, 6, 8).unwrap(), stacked(Arch::ONE), stacked(Arch::new(256, 3, 4).unwrap())];
    for arch in archs.into_iter().chain([threats, stacked(threats)]) {
        let net = FloatNet::random(arch, 4);
        let s = Sample::new(&Position::from_fen(FEN).unwrap(), 1.0, 120.0);
        let target = 0.8;
        let mut g = FloatNet::zeros(arch);
        let mut h = [vec![0.0; arch.hidden], vec![0.0; arch.hidden]];
        net.backprop(&net.folded(), &s, target, false, &mut g, &mut h);
        net.unfold_gradient(&mut g.w1);
        let loss = |n: &FloatNet| (sigmoid(n.output(&n.folded(), &s)) - target).powi(2);
        let mut idx = [0u32; net::MAX_FEATURES];
        let count = s.indices(&arch, 0, false, &mut idx);
        let column = idx[3] as usize * arch.hidden + 5;
        // The factoriser's first row of that column (its (side, kind) row).
        let factor = (arch.inputs() + (idx[3] as usize % crate::eval::nnue::FEATURES) / 90) * arch.hidden + 5;
        let bucket = s.bucket(&arch);
        // (name, tensor, index): tensors as `tensors()` orders them.
        let mut checks = vec![("w1", 0, column), ("w1 factor", 0, factor), ("b1", 1, 7)];
        if arch.threats {
            // The last column is a threat's (the rook on f3 attacks the horse on f8).
            assert!(idx[count - 1] as usize >= arch.piece_inputs() && count > s.count as usize);
            checks.push(("w1 threat", 0, idx[count - 1] as usize * arch.hidden + 11));
        }
        if arch.stack {
            let n = 2 * arch.hidden;
            for j in [3, 11] {
                checks.extend([("w2", 2, (bucket * L2 + j) * n + arch.hidden + 9), ("b2", 3, bucket * L2 + j)]);
            }
            for k in [5, 20] {
                checks.extend([("w3", 4, (bucket * L3 + k) * L2 + 2), ("b3", 5, bucket * L3 + k)]);
                checks.push(("w4", 6, bucket * L3 + k));
            }
            checks.push(("b4", 7, bucket));
        } else {
            checks.extend([("w2", 2, bucket * 2 * arch.hidden + arch.hidden + 9), ("b2", 3, bucket)]);
        }
        let step = 1e-2f32;
        for (name, tensor, index) in checks {
            let analytic = g.tensors()[tensor][index];
            let nudged = |by: f32| {
                let mut n = net.clone();
                n.tensors_mut()[tensor][index] += by;
                n
            };
            let (up, down) = (nudged(step), nudged(-step));
            let numeric = (loss(&up) - loss(&down)) / (2.0 * step);
            assert!(
                (numeric - analytic).abs() < 2e-3 + 0.05 * analytic.abs(),
                "{arch:?} {name}: {numeric} vs {analytic}"
            );
        }
        if arch.stack {
            let touched = |t: &Vec<f32>| t.iter().filter(|x| **x != 0.0).count();
            assert!(g.tensors()[2..].iter().all(|t| touched(t) > 0), "every stack tensor learns: {arch:?}");
        }
    }
}

#[test]
fn the_quantised_net_is_the_float_net_within_rounding() {
    // Integer inference is exact on the rounded weights; what differs is the rounding of
    // every weight (1/QA, 1/QB), a few centipawns on average at this scale.
    for arch in test_archs() {
        let net = FloatNet::random(arch, 8);
        let k = 500.0;
        let q = net.quantise(k, "test");
        assert_eq!(q.arch(), arch);
        let back = FloatNet::from_network(&q);
        let (mut sum, mut max, mut n) = (0.0f32, 0.0f32, 0);
        let mut samples = Vec::new();
        crate::board::testing::random_games(3, 4, 100, |pos, _, _, _| samples.push(Sample::new(pos, 0.5, 0.0)));
        let (folded, back_folded) = (net.folded(), back.folded());
        for s in &samples {
            let int = net::integer_eval(&q, s) as f32;
            let err = (net.output(&folded, s) * k - int).abs();
            let exact = back.output(&back_folded, s) * k - int;
            // Truncating divisions; a stack also rounds each layer's inputs to 255 steps.
            let rounding = if arch.stack { 8.0 } else { 1.5 };
            assert!(exact.abs() < rounding, "{arch:?} {exact}");
            sum += err;
            max = max.max(err);
            n += 1;
        }
        // A stack passes rounding errors on through its layers: more of them, a few cp.
        let mean_limit = if arch.stack { 16.0 } else { 8.0 };
        assert!(sum / (n as f32) < mean_limit && max < 40.0, "{arch:?} mean {} max {max}", sum / n as f32);
        let pos = Position::from_fen(FEN).unwrap();
        assert_eq!(net::integer_eval(&q, &Sample::new(&pos, 0.5, 0.0)), q.evaluate_position(&pos));
        let (max_err, _) = quantisation_error(&net, &q, &samples[..20], k);
        assert!(max_err < 40.0);
    }
}

#[test]
fn a_widened_net_starts_as_its_source() {
    let small = random_net(2);
    let source = FloatNet::from_network(&small);
    for arch in [Arch::new(512, 6, 8).unwrap(), Arch::new(256, 1, 4).unwrap()] {
        let wide = FloatNet::widened(&small, arch, 3).unwrap();
        let (source_folded, wide_folded) = (source.folded(), wide.folded());
        crate::board::testing::random_games(6, 3, 60, |pos, _, _, _| {
            let s = Sample::new(pos, 0.5, 0.0);
            let (a, b) = (source.output(&source_folded, &s), wide.output(&wide_folded, &s));
            // The centre file sees the board unmirrored in both; the folded files mirror it.
            let king_in_centre = [Color::Red, Color::Black].iter().all(|&c| pos.king_square(c).file() == 4);
            if king_in_centre || arch.king_buckets() == 1 {
                assert!((a - b).abs() < 1e-4, "{arch:?} {a} {b} {}", pos.to_fen());
            }
        });
    }
    // Threat inputs added to a net of any shape start at zero: the same function.
    for arch in [Arch::ONE, Arch::new(256, 3, 2).unwrap()] {
        let net = FloatNet::random(arch, 5).quantise(400.0, "t");
        let source = FloatNet::from_network(&net);
        let with = FloatNet::widened(&net, arch.with_threats(true), 1).unwrap();
        assert_eq!(
            with.quantise(400.0, "t").evaluate_position(&Position::from_fen(FEN).unwrap()),
            net.evaluate_position(&Position::from_fen(FEN).unwrap())
        );
        let (source_folded, with_folded) = (source.folded(), with.folded());
        crate::board::testing::random_games(7, 3, 60, |pos, _, _, _| {
            let s = Sample::new(pos, 0.5, 0.0);
            let (a, b) = (source.output(&source_folded, &s), with.output(&with_folded, &s));
            assert!((a - b).abs() < 1e-5, "{arch:?} {a} {b} {}", pos.to_fen());
        });
    }
    assert!(FloatNet::widened(&random_net(2), Arch::ONE, 1).is_ok());
    let bucketed = FloatNet::random(Arch::new(256, 3, 1).unwrap(), 1).quantise(400.0, "b");
    assert!(FloatNet::widened(&bucketed, Arch::new(512, 3, 1).unwrap(), 1).is_err());
}

#[test]
fn training_lowers_the_loss_and_repeats_itself() {
    // Synthetic labels: the material balance (pawn 1, advisor and elephant 2, horse and
    // cannon 4, rook 9) of positions along random games, which capture a lot.
    let mut train = Vec::new();
    crate::board::testing::random_games(12, 40, 150, |pos, _, _, _| {
        let stm = pos.side_to_move();
        let value = [0, 2, 2, 4, 9, 4, 1];
        let balance: i32 = crate::board::PieceKind::ALL
            .iter()
            .map(|&k| value[k.index()] * (pos.count(stm, k) as i32 - pos.count(stm.opp(), k) as i32))
            .sum();
        train.push(Sample::new(pos, 0.5, 60.0 * balance as f32));
    });
    let validation = train.split_off(train.len() * 9 / 10);
    let data = Data { train, validation, skipped: 0 };
    let archs =
        [Arch::new(256, 3, 2).unwrap(), Arch::new(256, 1, 2).unwrap().with_stack(true), Arch::ONE.with_threats(true)];
    for arch in archs {
        let cfg = Config {
            epochs: 4,
            batch: 256,
            lr: 0.003,
            final_lr: 0.1,
            lambda: 0.0,
            k: 400.0,
            threads: 2,
            seed: 5,
            mirror: true,
        };
        let start = FloatNet::random(arch, cfg.seed);
        let before = start.loss(&data.validation, &cfg);
        let mut saved = Vec::new();
        let a = super::train(&data, &cfg, start.clone(), None, |_| {}, |c| saved.push(c.encode(1)));
        let b = super::train(&data, &cfg, start.clone(), None, |_| {}, |_| {});
        assert!(a.loss(&data.validation, &cfg) < before * 0.9, "{before} -> {}", a.loss(&data.validation, &cfg));
        let checksum = |n: &FloatNet| n.quantise(400.0, "a").checksum();
        assert_eq!(checksum(&a), checksum(&b));
        // Stopped after any epoch and resumed from its checkpoint: the same net, and the same
        // checkpoints after it.
        assert_eq!(saved.len(), 4);
        for (done, bytes) in saved.iter().enumerate().take(3) {
            let c = super::Checkpoint::decode(bytes, arch, 1).unwrap().unwrap();
            assert_eq!(c.epochs, done + 1);
            let mut later = Vec::new();
            let resumed =
                super::train(&data, &cfg, FloatNet::zeros(arch), Some(c), |_| {}, |c| later.push(c.encode(1)));
            assert_eq!(checksum(&resumed), checksum(&a), "resumed after epoch {}", done + 1);
            assert_eq!(later, saved[done + 1..], "resumed after epoch {}", done + 1);
        }
    }
}
