//! Match statistics: Elo difference with its 95% error bar, likelihood of superiority and the
//! SPRT log-likelihood ratio.
//!
//! All Elo here is *logistic* Elo (score fraction `s` ↔ `-400·log10(1/s − 1)`), as cutechess-cli
//! prints it. The SPRT is the generalised SPRT with the normal approximation (fishtest's
//! "logistic" `LLR`, by Michel Van den Bergh): `LLR = N·(s1−s0)·(2s−s0−s1) / (2σ²)`, where `s0`,
//! `s1` are the expected scores at `elo0`, `elo1`, `N` the number of independent samples and
//! `σ²` their score variance. A sample is a game (the win/draw/loss trinomial) or, when games
//! come in colour-swapped pairs on one opening, a pair (the pentanomial of its 0, ½, 1, 1½ or 2
//! points): the two games of a pair are not independent (the opening favours one colour), and
//! counting pairs removes that shared part from the variance, so a test decides in fewer games.

use crate::rules::GameResult;

/// Wins, losses and draws of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
}

/// The first engine's points (1, ½ or 0) from a game's `result`, when it had Red if `first_red`.
pub fn first_score(result: GameResult, first_red: bool) -> f64 {
    match (result, first_red) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::RedWins, true) | (GameResult::BlackWins, false) => 1.0,
        _ => 0.0,
    }
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Tally {
    /// Counts one game's `result` for the first engine, which had Red if `first_red`.
    pub fn record(&mut self, result: GameResult, first_red: bool) {
        match first_score(result, first_red) {
            0.5 => self.draws += 1,
            1.0 => self.wins += 1,
            _ => self.losses += 1,
        }
    }

    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score fraction of the first engine (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Per-game variance of the score (win 1, draw ½, loss 0).
    pub fn variance(&self) -> f64 {
        Sample::from(self).variance
    }

    /// Elo difference of the first engine over the second.
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Half-width of the 95% confidence interval of [`Tally::elo`].
    pub fn elo_error(&self) -> f64 {
        Sample::from(self).elo_error()
    }

    /// Likelihood of superiority of the first engine, 0..1 (draws ignored).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// Share of drawn games, 0..1.
    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }
}

/// Colour-swapped game pairs counted by the first engine's points in the pair: the pentanomial
/// `[0, ½, 1, 1½, 2]` (fastchess's and fishtest's `Ptnml(0-2)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// `counts[k]`: pairs in which the first engine scored k half-points.
    pub counts: [u32; 5],
}

impl Pairs {
    /// Counts one pair from the first engine's two scores (each 0, ½ or 1).
    pub fn record(&mut self, first: f64, second: f64) {
        let halves = (2.0 * (first + second)).round().clamp(0.0, 4.0) as usize;
        self.counts[halves] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Half-width of the 95% confidence interval of the Elo difference, from the pairs.
    pub fn elo_error(&self) -> f64 {
        Sample::from(self).elo_error()
    }
}

/// Independent score samples as the SPRT and the error bar see them: how many, their mean
/// score fraction and its per-sample variance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Number of samples (games or pairs).
    pub n: f64,
    /// Mean score fraction, 0..1.
    pub mean: f64,
    /// Variance of one sample's score fraction.
    pub variance: f64,
}

impl Sample {
    /// From `(score fraction, count)` classes.
    fn of(classes: &[(f64, u32)]) -> Sample {
        let n: f64 = classes.iter().map(|&(_, c)| c as f64).sum();
        if n == 0.0 {
            return Sample { n, mean: 0.5, variance: 0.0 };
        }
        let mean = classes.iter().map(|&(x, c)| x * c as f64).sum::<f64>() / n;
        let variance = classes.iter().map(|&(x, c)| c as f64 * (x - mean).powi(2)).sum::<f64>() / n;
        Sample { n, mean, variance }
    }

    /// Half-width of the 95% confidence interval of the Elo difference (NaN with no samples).
    pub fn elo_error(&self) -> f64 {
        if self.n == 0.0 {
            return f64::NAN;
        }
        let dev = Z95 * (self.variance / self.n).sqrt();
        (elo_from_score(self.mean + dev) - elo_from_score(self.mean - dev)) / 2.0
    }
}

impl From<&Tally> for Sample {
    fn from(t: &Tally) -> Sample {
        Sample::of(&[(1.0, t.wins), (0.5, t.draws), (0.0, t.losses)])
    }
}

impl From<&Pairs> for Sample {
    fn from(p: &Pairs) -> Sample {
        let classes: Vec<(f64, u32)> = p.counts.iter().enumerate().map(|(k, &c)| (k as f64 / 4.0, c)).collect();
        Sample::of(&classes)
    }
}

/// Logistic Elo from a score fraction (+∞ from 1 up, −∞ from 0 down, so an error bar that
/// runs past a certain result is infinite).
pub fn elo_from_score(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score fraction at a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz–Stegun 7.1.26, absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of hypothesis H0.
    pub elo0: f64,
    /// Elo of hypothesis H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// What one sample is when the games come in pairs.
    pub model: SprtModel,
}

/// What the SPRT counts as one sample when the games come in colour-swapped pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SprtModel {
    /// A pair of games (fishtest's and fastchess's default).
    #[default]
    Pentanomial,
    /// A game, as cutechess-cli counts (and as Chuhe did before the 20th session).
    Trinomial,
}

/// The SPRT's state after some games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// LLR fell to the lower bound: H0 accepted.
    AcceptH0,
    /// LLR reached the upper bound: H1 accepted.
    AcceptH1,
}

impl Sprt {
    /// Lower LLR bound, `ln(β/(1−α))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper LLR bound, `ln((1−β)/α)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The samples this test counts: `pairs` under the pentanomial model when there are any,
    /// else the games of `t`.
    pub fn sample(&self, t: &Tally, pairs: Option<&Pairs>) -> Sample {
        match self.counted_pairs(pairs) {
            Some(p) => Sample::from(p),
            None => Sample::from(t),
        }
    }

    /// The pairs this test counts instead of games, if any.
    pub fn counted_pairs<'p>(&self, pairs: Option<&'p Pairs>) -> Option<&'p Pairs> {
        pairs.filter(|p| self.model == SprtModel::Pentanomial && p.pairs() > 0)
    }

    /// The log-likelihood ratio of H1 over H0 for `s` (0 while the variance is still zero).
    pub fn llr(&self, s: Sample) -> f64 {
        if s.n == 0.0 || s.variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        s.n * (s1 - s0) * (2.0 * s.mean - s0 - s1) / (2.0 * s.variance)
    }

    /// Whether the test has decided after `s`.
    pub fn decision(&self, s: Sample) -> SprtDecision {
        let llr = self.llr(s);
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() < tol, "{a} != {b}");
    }

    // Expected values worked out by hand from the formulas in the module doc, e.g. for 60/40/100:
    // s = 0.55, Elo = -400·log10(0.45/0.55) = 34.86; σ² = (60·0.45² + 100·0.05² + 40·0.55²)/200
    // = 0.1475; dev = 1.96·√(0.1475/200) = 0.05323; error = (Elo(0.60323) − Elo(0.49677))/2 = 34.16;
    // LOS = ½(1 + erf(20/√200)) = 0.97725; LLR(0, 10) = 200·(s1−s0)·(1.1−s0−s1)/(2σ²) = 1.0055.
    #[test]
    fn elo_error_los_llr_match_hand_values() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, model: SprtModel::Trinomial };
        let cases = [
            // (W, L, D, elo, error, los, llr)
            (60, 40, 100, 34.860, 34.159, 0.97725, 1.00549),
            (10, 20, 30, -58.451, 62.872, 0.03394, -0.66194),
            (130, 90, 280, 27.854, 20.205, 0.99650, 2.17708),
        ];
        for (w, l, d, elo, err, los, llr) in cases {
            let t = Tally { wins: w, losses: l, draws: d };
            close(t.elo(), elo, 1e-3);
            close(t.elo_error(), err, 1e-3);
            close(t.los(), los, 1e-5);
            close(sprt.llr((&t).into()), llr, 1e-4);
        }
        let t = Tally { wins: 7, losses: 3, draws: 0 };
        let wide = Sprt { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05, model: SprtModel::Trinomial };
        close(wide.llr((&t).into()), 0.55901, 1e-4);
        close(t.elo(), 147.191, 1e-3);
    }

    // 105 pairs [1, 16, 69, 19, 0] (the first 214 games of SPSA run 1's SPRT): mean
    // 52.75/105 = 0.502381, σ² = 0.0232086 (a game's trinomial gives 0.0537, so a pair varies
    // less than two independent games, 0.0269); LLR(0, 10) = −0.31326; error ±20.271 Elo.
    #[test]
    fn pentanomial_counts_pairs() {
        let mut p = Pairs::default();
        for (first, second, times) in [(0.0, 0.0, 1), (0.5, 0.0, 8), (0.0, 0.5, 8), (0.5, 0.5, 60), (1.0, 0.0, 9)] {
            (0..times).for_each(|_| p.record(first, second));
        }
        (0..19).for_each(|_| p.record(1.0, 0.5));
        assert_eq!(p.counts, [1, 16, 69, 19, 0]);
        let s = Sample::from(&p);
        assert_eq!(s.n, 105.0);
        close(s.mean, 0.502_381, 1e-6);
        close(s.variance, 0.023_208_6, 1e-7);
        close(p.elo_error(), 20.271, 1e-3);
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, model: SprtModel::Pentanomial };
        close(sprt.llr(s), -0.313_26, 1e-5);
        // The model picks the sample: pairs when there are any, else games.
        let t = Tally { wins: 24, losses: 22, draws: 168 };
        assert_eq!(sprt.sample(&t, Some(&p)), s);
        assert_eq!(sprt.sample(&t, Some(&Pairs::default())), Sample::from(&t));
        assert_eq!(sprt.sample(&t, None), Sample::from(&t));
        let tri = Sprt { model: SprtModel::Trinomial, ..sprt };
        assert_eq!(tri.sample(&t, Some(&p)), Sample::from(&t));
        close(tri.llr(tri.sample(&t, Some(&p))), -0.144_48, 1e-5);
        // Every pair 1-1: no variance, no evidence counted either way.
        let even = Pairs { counts: [0, 0, 50, 0, 0] };
        assert_eq!(sprt.llr((&even).into()), 0.0);
    }

    #[test]
    fn bounds_and_decisions() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, model: SprtModel::Trinomial };
        close(sprt.lower_bound(), -2.94444, 1e-5);
        close(sprt.upper_bound(), 2.94444, 1e-5);
        assert_eq!(sprt.decision((&Tally { wins: 130, losses: 90, draws: 280 }).into()), SprtDecision::Continue);
        assert_eq!(sprt.decision((&Tally { wins: 400, losses: 250, draws: 500 }).into()), SprtDecision::AcceptH1);
        assert_eq!(sprt.decision((&Tally { wins: 250, losses: 400, draws: 500 }).into()), SprtDecision::AcceptH0);
    }

    #[test]
    fn edge_cases_do_not_panic() {
        let none = Tally::default();
        assert_eq!(none.score(), 0.5);
        assert_eq!(none.los(), 0.5);
        assert!(Tally { wins: 3, losses: 0, draws: 0 }.elo().is_infinite());
        assert!(Tally { wins: 1, losses: 1, draws: 0 }.elo_error().is_infinite());
        close(erf(0.5), 0.520_499_877_8, 1e-6);
        close(erf(-1.5), -0.966_105_146_5, 1e-6);
    }
}
