//! Match statistics: Elo difference with its 95% error bar, likelihood of superiority and the
//! SPRT log-likelihood ratio.
//!
//! All Elo here is *logistic* Elo (score fraction `s` ↔ `-400·log10(1/s − 1)`), as cutechess-cli
//! prints it. The error bar uses the per-game variance of the win/draw/loss trinomial. The SPRT
//! is the generalised SPRT with the normal approximation on the trinomial (fishtest's
//! "logistic" `LLR`, by Michel Van den Bergh): `LLR = N·(s1−s0)·(2s−s0−s1) / (2σ²)`, where `s0`,
//! `s1` are the expected scores at `elo0`, `elo1` and `σ²` the per-game score variance.

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

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Tally {
    /// Counts one game's `result` for the first engine, which had Red if `first_red`.
    pub fn record(&mut self, result: GameResult, first_red: bool) {
        match (result, first_red) {
            (GameResult::Draw, _) => self.draws += 1,
            (GameResult::RedWins, true) | (GameResult::BlackWins, false) => self.wins += 1,
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
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2) + self.draws as f64 * (0.5 - s).powi(2) + self.losses as f64 * s * s) / n
    }

    /// Elo difference of the first engine over the second.
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Half-width of the 95% confidence interval of [`Tally::elo`].
    pub fn elo_error(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return f64::NAN;
        }
        let dev = Z95 * (self.variance() / n).sqrt();
        let s = self.score();
        (elo_from_score(s + dev) - elo_from_score(s - dev)) / 2.0
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

    /// The log-likelihood ratio of H1 over H0 for `t` (0 while the variance is still zero).
    pub fn llr(&self, t: &Tally) -> f64 {
        let var = t.variance();
        if t.games() == 0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        t.games() as f64 * (s1 - s0) * (2.0 * t.score() - s0 - s1) / (2.0 * var)
    }

    /// Whether the test has decided after `t`.
    pub fn decision(&self, t: &Tally) -> SprtDecision {
        let llr = self.llr(t);
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
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
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
            close(sprt.llr(&t), llr, 1e-4);
        }
        let t = Tally { wins: 7, losses: 3, draws: 0 };
        let wide = Sprt { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05 };
        close(wide.llr(&t), 0.55901, 1e-4);
        close(t.elo(), 147.191, 1e-3);
    }

    #[test]
    fn bounds_and_decisions() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        close(sprt.lower_bound(), -2.94444, 1e-5);
        close(sprt.upper_bound(), 2.94444, 1e-5);
        assert_eq!(sprt.decision(&Tally { wins: 130, losses: 90, draws: 280 }), SprtDecision::Continue);
        assert_eq!(sprt.decision(&Tally { wins: 400, losses: 250, draws: 500 }), SprtDecision::AcceptH1);
        assert_eq!(sprt.decision(&Tally { wins: 250, losses: 400, draws: 500 }), SprtDecision::AcceptH0);
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
