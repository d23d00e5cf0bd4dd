//! Fits the hand-written evaluation's weights to self-play data (`chuhe tune`): the Texel
//! method. The evaluation is linear in its weights given a position's trace (`eval::trace`),
//! so each position is traced once; then Adam descends on the mean squared error between
//! `sigmoid(eval / K)` and a blend of the game result and `sigmoid(search score / K)`, with
//! `K` fitted first to the results. A tenth of the games is held back for validation, and the
//! weights with the lowest validation loss are kept. `weights_file` writes them as the
//! source of `src/eval/weights.rs`; `parse_weights` reads such a file back.

use crate::board::{Color, PieceKind, Square};
use crate::datagen::Record;
use crate::eval::{tally, trace, Section, COUNT, PHASE_MAX, S, SECTIONS, SQUARES, WEIGHTS};
use crate::fit::{self, sigmoid, Adam};

/// One traced position and its labels, Red's view.
#[derive(Clone, Copy, Debug)]
struct Sample {
    /// Its entries in `Set::index`/`Set::count`.
    start: u32,
    len: u16,
    phase: u8,
    /// Game result: 1 Red won, 0.5 draw, 0 Black won.
    result: f32,
    /// Search score in centipawns.
    score: f32,
}

/// Traced positions: a training or validation split.
#[derive(Default)]
pub struct Set {
    samples: Vec<Sample>,
    index: Vec<u16>,
    count: Vec<i16>,
}

impl Set {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    fn push(&mut self, r: &Record) {
        let t = trace(&r.position);
        let red = if r.position.side_to_move() == Color::Red { 1.0 } else { -1.0 };
        self.samples.push(Sample {
            start: self.index.len() as u32,
            len: t.counts.len() as u16,
            phase: t.phase as u8,
            result: r.red_score(),
            score: red * r.score as f32,
        });
        for (i, n) in t.counts {
            self.index.push(i);
            self.count.push(n);
        }
    }

    /// The evaluation of sample `s` with `w`, Red's view.
    #[inline]
    fn eval(&self, s: &Sample, w: &[f64]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        let at = s.start as usize;
        for k in at..at + s.len as usize {
            let (i, n) = (self.index[k] as usize, self.count[k] as f64);
            mg += w[2 * i] * n;
            eg += w[2 * i + 1] * n;
        }
        let p = s.phase as f64 / PHASE_MAX as f64;
        mg * p + eg * (1.0 - p)
    }
}

/// The training data: traced positions split by game, and how often each piece stood on
/// each point (to centre the square tables).
#[derive(Default)]
pub struct Data {
    /// Nine games in ten.
    pub train: Set,
    /// The rest.
    pub validation: Set,
    /// Records skipped: in check, capture, decisive score.
    pub skipped: u64,
    /// How often each weight applied (both sides counted positively).
    occupancy: Vec<u64>,
}

impl Data {
    /// Reads and traces the records of `paths` (at most `limit` positions kept); only quiet
    /// positions are kept, since a static evaluation cannot see a pending capture or check.
    pub fn load(paths: &[String], limit: usize) -> Result<Data, String> {
        let mut occupancy = vec![0; COUNT];
        let split = fit::load(paths, limit, |set: &mut Set, r| {
            tally(&r.position, &mut occupancy);
            set.push(r);
        })?;
        Ok(Data { train: split.train, validation: split.validation, skipped: split.skipped, occupancy })
    }
}

/// Flat index of the square-table weight of a `color` `kind` on `sq`.
fn square_weight(color: Color, kind: PieceKind, sq: Square) -> usize {
    let rr = if color == Color::Red { sq.rank() } else { 9 - sq.rank() } as usize;
    let f = sq.file() as usize;
    let fc = if f < 4 { f } else { 8 - f };
    let tables = SECTIONS.iter().find(|s| s.name == "KING_SQUARES").expect("a king table").start;
    tables + kind.index() * 50 + rr * 5 + fc
}

/// How the loss is computed.
#[derive(Clone, Copy, Debug)]
pub struct Loss {
    /// Sigmoid scale.
    pub k: f64,
    /// Weight of the game result in the target (the rest: the search score).
    pub lambda: f64,
    /// Worker threads.
    pub threads: usize,
}

impl Loss {
    fn target(&self, s: &Sample) -> f64 {
        fit::target(self.lambda, s.result as f64, s.score as f64, self.k)
    }

    /// Mean squared error of `w` on `set`.
    pub fn of(&self, set: &Set, w: &[f64]) -> f64 {
        if set.is_empty() {
            return 0.0;
        }
        let sum = self.split(set, |part| {
            part.iter().map(|s| (sigmoid(set.eval(s, w) / self.k) - self.target(s)).powi(2)).sum::<f64>()
        });
        sum.into_iter().sum::<f64>() / set.len() as f64
    }

    /// The loss of `w` on `set` and its gradient (2 per weight: midgame, endgame).
    pub fn gradient(&self, set: &Set, w: &[f64]) -> (f64, Vec<f64>) {
        let parts = self.split(set, |part| {
            let mut g = vec![0.0; w.len()];
            let mut loss = 0.0;
            for s in part {
                let p = sigmoid(set.eval(s, w) / self.k);
                let err = p - self.target(s);
                loss += err * err;
                // d(err²)/d(eval), then split between midgame and endgame by the phase.
                let d = 2.0 * err * p * (1.0 - p) / self.k;
                let ph = s.phase as f64 / PHASE_MAX as f64;
                let at = s.start as usize;
                for k in at..at + s.len as usize {
                    let (i, n) = (set.index[k] as usize, set.count[k] as f64);
                    g[2 * i] += d * n * ph;
                    g[2 * i + 1] += d * n * (1.0 - ph);
                }
            }
            (loss, g)
        });
        let n = set.len().max(1) as f64;
        let mut total = vec![0.0; w.len()];
        let mut loss = 0.0;
        for (l, g) in parts {
            loss += l;
            for (t, x) in total.iter_mut().zip(g) {
                *t += x / n;
            }
        }
        (loss / n, total)
    }

    /// Runs `f` over `threads` slices of the samples, in order.
    fn split<T: Send>(&self, set: &Set, f: impl Fn(&[Sample]) -> T + Sync) -> Vec<T> {
        fit::in_parts(&set.samples, self.threads, f)
    }
}

/// The scale `K` that best maps the evaluation `w` to the game results of `set`
/// (golden-section search over 50..2000 centipawns).
pub fn fit_k(set: &Set, w: &[f64], threads: usize) -> f64 {
    fit::fit_k(|k: f64| Loss { k, lambda: 1.0, threads }.of(set, w))
}

/// The weights as the tuner's vector: midgame, endgame for each.
pub fn to_vector(w: &[S]) -> Vec<f64> {
    w.iter().flat_map(|s| [s.0 as f64, s.1 as f64]).collect()
}

/// The engine's weights as a vector.
pub fn current() -> Vec<f64> {
    to_vector(&WEIGHTS)
}

/// Adam's settings.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Passes over the training set.
    pub epochs: usize,
    /// Step size in centipawns.
    pub rate: f64,
}

/// Descends from `w` with Adam; returns the weights with the lowest validation loss (the
/// training loss when there is no validation data). `report` sees every epoch.
pub fn descend(
    data: &Data,
    loss: &Loss,
    schedule: Schedule,
    w: &[f64],
    mut report: impl FnMut(&fit::Epoch),
) -> Vec<f64> {
    let mut adam = Adam::default();
    let mut w = w.to_vec();
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let judge = |set_loss: f64, w: &[f64]| {
        if data.validation.is_empty() {
            set_loss
        } else {
            loss.of(&data.validation, w)
        }
    };
    let mut best = (f64::INFINITY, w.clone());
    for epoch in 1..=schedule.epochs {
        let clock = std::time::Instant::now();
        let (train, g) = loss.gradient(&data.train, &w);
        let validation = judge(train, &w);
        if validation < best.0 {
            best = (validation, w.clone());
        }
        let samples_per_s = data.train.len() as f64 / clock.elapsed().as_secs_f64().max(1e-9);
        report(&fit::Epoch { number: epoch, train, validation, lr: schedule.rate, samples_per_s });
        let step = adam.step(schedule.rate);
        for i in 0..w.len() {
            step.update(&mut w[i], g[i], &mut m[i], &mut v[i]);
        }
    }
    let last = judge(loss.of(&data.train, &w), &w);
    if last < best.0 {
        best = (last, w);
    }
    best.1
}

/// Tables that apply exactly once to every piece of a kind: its square table and, for
/// rooks, horses and cannons, its mobility table. Their average is part of the piece's value.
fn per_piece_tables() -> Vec<(PieceKind, usize, usize)> {
    let section = |name: &str| SECTIONS.iter().find(|s| s.name == name).expect("a known section");
    let mut tables: Vec<(PieceKind, usize, usize)> =
        PieceKind::ALL.iter().map(|&k| (k, square_weight(Color::Red, k, Square::new(0, 0)), 50)).collect();
    for (kind, name) in [
        (PieceKind::Rook, "ROOK_MOBILITY"),
        (PieceKind::Horse, "HORSE_MOBILITY"),
        (PieceKind::Cannon, "CANNON_MOBILITY"),
    ] {
        let s = section(name);
        tables.push((kind, s.start, s.len));
    }
    tables
}

/// Moves the average of each per-piece table (weighted by how often each entry applied in
/// the data) into the piece's material: square tables and mobility tables then read as
/// bonuses around zero, and `MATERIAL` as what a piece is worth on a typical point with a
/// typical mobility (search orders and prunes by it). The evaluation is unchanged. Entries
/// the data never used keep their weights.
pub fn centre_tables(data: &Data, w: &mut [f64]) {
    let material = SECTIONS.iter().find(|s| s.name == "MATERIAL").expect("a material table").start;
    for (kind, at, len) in per_piece_tables() {
        let seen: u64 = data.occupancy[at..at + len].iter().sum();
        if seen == 0 || kind == PieceKind::King {
            continue;
        }
        for half in 0..2 {
            let mean: f64 =
                (0..len).map(|i| w[2 * (at + i) + half] * data.occupancy[at + i] as f64).sum::<f64>() / seen as f64;
            for i in (0..len).filter(|&i| data.occupancy[at + i] > 0) {
                w[2 * (at + i) + half] -= mean;
            }
            w[2 * (material + kind.index()) + half] += mean;
        }
    }
}

/// The factor that brings `tuned`'s evaluations to `reference`'s scale on `set` (least
/// squares through the origin): the search's margins are in centipawns of the evaluation it
/// was tuned with, and a fit may sharpen the whole scale.
pub fn scale_to(set: &Set, tuned: &[f64], reference: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for s in &set.samples {
        let (t, r) = (set.eval(s, tuned), set.eval(s, reference));
        num += t * r;
        den += t * t;
    }
    if den > 0.0 {
        num / den
    } else {
        1.0
    }
}

/// The weights rounded to whole centipawns.
pub fn rounded(w: &[f64]) -> Vec<S> {
    w.chunks(2).map(|p| S(p[0].round() as i32, p[1].round() as i32)).collect()
}

/// The source of `src/eval/weights.rs` holding `w`, under a `//!` comment `provenance`.
pub fn weights_file(w: &[S], provenance: &str) -> String {
    let mut out = String::new();
    out.push_str("//! The evaluation's weights, (midgame, endgame) in centipawns; layout and meaning in\n");
    out.push_str("//! `params.rs`. Written by `chuhe tune` (docs/training.md):\n");
    for line in provenance.lines() {
        out.push_str(&format!("//! {line}\n").replace("//! \n", "//!\n"));
    }
    // A square table's trailing all-zero ranks are left out (`pair::ranks` restores them).
    let kept = |s: &Section| {
        let rows = &w[s.start..s.start + s.len];
        if s.len == SQUARES {
            rows.iter().rposition(|v| *v != S(0, 0)).map_or(s.row, |i| (i / s.row + 1) * s.row)
        } else {
            s.len
        }
    };
    let trims = SECTIONS.iter().any(|s| kept(s) < s.len);
    out.push_str(if trims { "\nuse super::pair::{ranks, S};\n" } else { "\nuse super::pair::S;\n" });
    for s in SECTIONS {
        let n = kept(&s);
        let open = if n < s.len { "ranks([" } else { "[" };
        out.push_str(&format!(
            "\n/// {}\n#[rustfmt::skip]\npub(super) const {}: [S; {}] = {open}\n",
            s.doc, s.name, s.len
        ));
        for (r, row) in w[s.start..s.start + n].chunks(s.row).enumerate() {
            let cells: Vec<String> = row.iter().map(|v| format!("S({}, {}),", v.0, v.1)).collect();
            let rank = if s.row == 5 { format!(" // rank {r}") } else { String::new() };
            out.push_str(&format!("    {}{rank}\n", cells.join(" ")));
        }
        out.push_str(if n < s.len { "]);\n" } else { "];\n" });
    }
    out
}

/// Reads the weights back from a `weights.rs` source (`weights_file`'s layout).
pub fn parse_weights(source: &str) -> Result<Vec<S>, String> {
    let mut out = Vec::with_capacity(COUNT);
    for s in SECTIONS {
        let head = format!("const {}: [S; {}] = ", s.name, s.len);
        let at = source.find(&head).ok_or_else(|| format!("no table {} of {} weights", s.name, s.len))?;
        let rest = &source[at + head.len()..];
        // `ranks([...])` gives a square table up to its last rank with a weight.
        let (open, close, trimmed) =
            if rest.starts_with("ranks([") { ("ranks([", "]);", true) } else { ("[", "];", false) };
        let body = rest.strip_prefix(open).ok_or_else(|| format!("{} does not open with '['", s.name))?;
        let body = &body[..body.find(close).ok_or_else(|| format!("{} is not closed", s.name))?];
        let mut n = 0;
        for cell in body.split("S(").skip(1) {
            let inner = &cell[..cell.find(')').ok_or_else(|| format!("{}: a weight is not closed", s.name))?];
            let (a, b) = inner.split_once(',').ok_or_else(|| format!("{}: '{inner}' is not a pair", s.name))?;
            let num =
                |x: &str| x.trim().parse::<i32>().map_err(|_| format!("{}: '{}' is not a number", s.name, x.trim()));
            out.push(S(num(a)?, num(b)?));
            n += 1;
        }
        if trimmed && s.len == SQUARES && n <= s.len && n % s.row == 0 {
            out.extend(std::iter::repeat_n(S(0, 0), s.len - n));
        } else if n != s.len {
            return Err(format!("{} has {n} weights, not {}", s.name, s.len));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::random_games;
    use crate::board::Position;
    use crate::rules::GameResult;

    /// A small built-in sample: random-game positions labelled by a noisy material count.
    fn sample() -> Data {
        let mut data = Data { occupancy: vec![0; COUNT], ..Data::default() };
        random_games(3, 40, 60, |pos, moves, game, ply| {
            let balance: i32 = PieceKind::ALL
                .iter()
                .map(|&k| {
                    let v = crate::eval::piece_value(k);
                    v * (pos.count(Color::Red, k) as i32 - pos.count(Color::Black, k) as i32)
                })
                .sum();
            let noise = ((game * 31 + ply * 17) % 7) as i32 - 3;
            let result = match balance + noise * 40 {
                b if b > 150 => GameResult::RedWins,
                b if b < -150 => GameResult::BlackWins,
                _ => GameResult::Draw,
            };
            let red = if pos.side_to_move() == Color::Red { 1 } else { -1 };
            let r = Record {
                position: pos.clone(),
                score: (red * balance) as i16,
                best: moves[0],
                ply: ply as u16,
                game_plies: 60,
                result,
                flags: 0,
                end: crate::datagen::End::MaxLength,
            };
            tally(&r.position, &mut data.occupancy);
            if game % 5 == 4 {
                data.validation.push(&r);
            } else {
                data.train.push(&r);
            }
        });
        data
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let data = sample();
        let loss = Loss { k: 300.0, lambda: 0.5, threads: 2 };
        let w = current();
        let (_, g) = loss.gradient(&data.train, &w);
        let material = SECTIONS[0].start;
        // Rook and pawn material, midgame and endgame; a horse mobility weight.
        for i in [2 * (material + 4), 2 * (material + 6) + 1, 2 * (SECTIONS[8].start + 7)] {
            let h = 0.5;
            let (mut up, mut down) = (w.clone(), w.clone());
            up[i] += h;
            down[i] -= h;
            let slope = (loss.of(&data.train, &up) - loss.of(&data.train, &down)) / (2.0 * h);
            assert!((slope - g[i]).abs() <= 1e-3 * slope.abs().max(1e-6), "weight {i}: {slope} vs {}", g[i]);
        }
    }

    #[test]
    fn tuning_lowers_the_loss_on_a_built_in_sample() {
        let data = sample();
        assert!(data.train.len() > 1000 && data.validation.len() > 200);
        let w0 = current();
        let k = fit_k(&data.train, &w0, 2);
        assert!((50.0..2000.0).contains(&k), "{k}");
        let loss = Loss { k, lambda: 0.5, threads: 2 };
        let before = loss.of(&data.validation, &w0);
        let w = descend(&data, &loss, Schedule { epochs: 60, rate: 2.0 }, &w0, |_| {});
        let after = loss.of(&data.validation, &w);
        assert!(after < before, "{before} -> {after}");
        // Centring the square tables leaves every evaluation as it was.
        let mut centred = w.clone();
        centre_tables(&data, &mut centred);
        for s in &data.train.samples[..50] {
            assert!((data.train.eval(s, &w) - data.train.eval(s, &centred)).abs() < 1e-6);
        }
    }

    #[test]
    fn the_weights_file_round_trips() {
        let text = weights_file(&WEIGHTS, "test");
        assert_eq!(parse_weights(&text).unwrap(), WEIGHTS.to_vec());
        // The shipped file is in the same layout.
        let shipped = include_str!("../eval/weights.rs");
        assert_eq!(parse_weights(shipped).unwrap(), WEIGHTS.to_vec());
        let broken = text.replacen("S(", "S(x", 1);
        assert!(parse_weights(&broken).is_err());
        // The shipped file is exactly what the writer writes for its weights and provenance.
        let provenance: Vec<&str> =
            shipped.lines().skip(2).map_while(|l| l.strip_prefix("//!")).map(str::trim_start).collect();
        assert_eq!(weights_file(&WEIGHTS, &provenance.join("\n")), shipped);
        // A square table's trailing zero ranks are left out and come back; an empty one keeps
        // its first rank.
        let mut w = WEIGHTS.to_vec();
        let king = SECTIONS.iter().find(|s| s.name == "KING_SQUARES").unwrap().start;
        w[king..king + SQUARES].fill(S(0, 0));
        w[king + 7] = S(5, -5); // rank 1
        let text = weights_file(&w, "test");
        assert!(text.contains("KING_SQUARES: [S; 50] = ranks([") && text.contains("use super::pair::{ranks, S};"));
        assert_eq!(parse_weights(&text).unwrap(), w);
        w[king + 7] = S(0, 0);
        assert_eq!(parse_weights(&weights_file(&w, "test")).unwrap(), w);
    }

    #[test]
    fn the_square_weight_is_the_one_the_evaluation_uses() {
        // A lone red horse beside its king: its square-table entry appears in the trace.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/2N6/9/4K4 w - - 0 1").unwrap();
        let sq = pos.squares_of(Color::Red, PieceKind::Horse).next().unwrap();
        let i = square_weight(Color::Red, PieceKind::Horse, sq) as u16;
        assert!(trace(&pos).counts.iter().any(|&(j, n)| j == i && n == 1));
    }
}
