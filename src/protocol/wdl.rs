//! Win/draw/loss estimates for UCI's `UCI_ShowWDL`, from the score alone: a logistic of the
//! centipawn score shifted by a draw band on each side (`docs/protocol.md`, "WDL model").
//!
//! win(cp) = 1 / (1 + e^(−(cp − DRAW_BAND_CP) / SCALE_CP)), loss(cp) = win(−cp), draw the rest;
//! a mate for us is 1000/0/0, a mate against us 0/0/1000.

use crate::search::Score;

/// Half-width of the draw band: at this score the win chance is one half.
pub const DRAW_BAND_CP: f64 = 200.0;
/// Centipawns per unit of the logistic: how fast the chances turn with the score.
pub const SCALE_CP: f64 = 100.0;

/// Chance (0..1) that the side with score `cp` wins.
fn win_chance(cp: f64) -> f64 {
    1.0 / (1.0 + (-(cp - DRAW_BAND_CP) / SCALE_CP).exp())
}

/// `[win, draw, loss]` in per mille from the side to move's view; they sum to 1000.
pub fn wdl(score: Score) -> [u32; 3] {
    match score {
        Score::Mate(n) if n > 0 => [1000, 0, 0],
        Score::Mate(_) => [0, 0, 1000],
        Score::Cp(cp) => {
            let per_mille = |p: f64| (p * 1000.0).round() as u32;
            let (w, l) = (per_mille(win_chance(cp as f64)), per_mille(win_chance(-cp as f64)));
            // The band keeps win + loss below one; the guard only covers rounding.
            let l = l.min(1000 - w);
            [w, 1000 - w - l, l]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_to_1000_and_is_symmetric() {
        for cp in (-30000..=30000).step_by(7) {
            let [w, d, l] = wdl(Score::Cp(cp));
            assert_eq!(w + d + l, 1000, "{cp}");
            assert_eq!(wdl(Score::Cp(-cp)), [l, d, w], "{cp}");
        }
    }

    #[test]
    fn monotone_in_the_score() {
        let mut last = wdl(Score::Cp(-5000));
        for cp in -4999..=5000 {
            let now = wdl(Score::Cp(cp));
            assert!(now[0] >= last[0] && now[2] <= last[2], "{cp}: {last:?} -> {now:?}");
            last = now;
        }
    }

    #[test]
    fn the_model_s_landmarks() {
        assert_eq!(wdl(Score::Cp(0)), [119, 762, 119]);
        assert_eq!(wdl(Score::Cp(200)), [500, 482, 18]);
        assert_eq!(wdl(Score::Cp(-100)), [47, 684, 269]);
        assert_eq!(wdl(Score::Cp(400)), [881, 117, 2]);
        assert_eq!(wdl(Score::Cp(900)), [999, 1, 0]);
        assert_eq!(wdl(Score::Cp(-25000)), [0, 0, 1000]);
        assert_eq!(wdl(Score::Mate(3)), [1000, 0, 0]);
        assert_eq!(wdl(Score::Mate(-1)), [0, 0, 1000]);
    }
}
