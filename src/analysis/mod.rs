//! Game analysis: every position of a game searched, each move's evaluation in Red's view,
//! its loss in expected score against the engine's best move, and a mark (?!, ?, ??) from that
//! loss (`docs/players.md`). `annotate` writes the result as PGN.

pub mod annotate;

use crate::board::{Color, Move, Position};
use crate::eval::Evaluator;
use crate::search::{Engine, Limits, Report, Score, SearchRequest};

/// The sigmoid scale of the hand-written evaluation's search scores: the `K` fitted to the
/// results of the games the shipped net was trained on (`docs/training.md`, net 1d, 510.2).
/// A network carries its own (its file's `scale`).
pub const HAND_SCALE_CP: f64 = 510.0;

/// Drops in the mover's expected score (0..1) from which a move is marked: lichess's
/// inaccuracy, mistake and blunder thresholds on its win-chance scale.
pub const THRESHOLDS: [(f64, Mark); 3] = [(0.3, Mark::Blunder), (0.2, Mark::Mistake), (0.1, Mark::Inaccuracy)];

/// A move's grade.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `?!`: lost at least 0.1 of the expected score.
    Inaccuracy,
    /// `?`: at least 0.2.
    Mistake,
    /// `??`: at least 0.3.
    Blunder,
}

impl Mark {
    /// The PGN suffix: `?!`, `?`, `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The word: inaccuracy, mistake, blunder.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The mark for a drop in expected score, if any.
    pub fn of_drop(drop: f64) -> Option<Mark> {
        THRESHOLDS.iter().find(|(t, _)| drop >= *t - 1e-9).map(|&(_, m)| m)
    }
}

/// A score in Red's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedScore {
    /// Centipawns, positive when Red is better.
    Cp(i32),
    /// Red mates (or wins by the rules) in this many moves; 0: Black is mated now.
    RedMates(u32),
    /// Black mates in this many moves; 0: Red is mated now.
    BlackMates(u32),
}

impl RedScore {
    /// A search score (the side to move's view) in Red's view.
    pub fn of(score: Score, side_to_move: Color) -> RedScore {
        let red = side_to_move == Color::Red;
        match score {
            Score::Cp(v) => RedScore::Cp(if red { v } else { -v }),
            Score::Mate(n) if n > 0 => {
                if red {
                    RedScore::RedMates(n as u32)
                } else {
                    RedScore::BlackMates(n as u32)
                }
            }
            Score::Mate(n) if red => RedScore::BlackMates(n.unsigned_abs()),
            Score::Mate(n) => RedScore::RedMates(n.unsigned_abs()),
        }
    }

    /// Red's expected score (win 1, draw ½): the logistic `1 / (1 + e^(−cp/K))`, a mate 1 or 0.
    pub fn red_expected(self, scale_cp: f64) -> f64 {
        match self {
            RedScore::Cp(v) => 1.0 / (1.0 + (-(v as f64) / scale_cp).exp()),
            RedScore::RedMates(_) => 1.0,
            RedScore::BlackMates(_) => 0.0,
        }
    }

    /// In pawns as PGN comments write it: `+0.35`, `-1.20`, `0.00`, `+M3`, `-M2`.
    pub fn text(self) -> String {
        match self {
            RedScore::Cp(v) => {
                let sign = match v.signum() {
                    1 => "+",
                    -1 => "-",
                    _ => "",
                };
                format!("{sign}{}.{:02}", v.unsigned_abs() / 100, v.unsigned_abs() % 100)
            }
            RedScore::RedMates(n) => format!("+M{n}"),
            RedScore::BlackMates(n) => format!("-M{n}"),
        }
    }
}

/// The sigmoid scale `K` of `evaluator`'s scores, centipawns.
pub fn scale_of(evaluator: &Evaluator) -> f64 {
    evaluator.network().map_or(HAND_SCALE_CP, |n| f64::from(n.scale()))
}

/// One position's search.
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    /// The score in Red's view.
    pub score: RedScore,
    /// Red's expected score.
    pub red_expected: f64,
    /// The depth completed.
    pub depth: u32,
    /// The engine's line, best move first (empty when the game is over).
    pub line: Vec<Move>,
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The move played.
    pub mv: Move,
    /// Who played it.
    pub mover: Color,
    /// The mover's expected score lost against the engine's best move (≤ 0: none lost).
    pub drop: f64,
    /// The mark, if the move lost enough and was not the engine's choice.
    pub mark: Option<Mark>,
}

/// A game analysed: the search of every position (the start, then after each move) and the
/// report of every move.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// `positions[i]`: the position after `i` moves.
    pub positions: Vec<Searched>,
    /// `moves[i]`: the `i+1`-th move.
    pub moves: Vec<MoveReport>,
}

impl Analysis {
    /// Whether the engine's best move differs from move `i` (so its line is worth showing).
    pub fn best_differs(&self, i: usize) -> bool {
        self.positions[i].line.first().is_some_and(|&b| b != self.moves[i].mv)
    }

    /// How many moves of `side` got `mark`.
    pub fn count(&self, side: Color, mark: Mark) -> usize {
        self.moves.iter().filter(|r| r.mover == side && r.mark == Some(mark)).count()
    }

    /// `side`'s average loss of expected score per move, in percent.
    pub fn average_loss(&self, side: Color) -> f64 {
        let losses: Vec<f64> = self.moves.iter().filter(|r| r.mover == side).map(|r| r.drop.max(0.0)).collect();
        if losses.is_empty() {
            0.0
        } else {
            100.0 * losses.iter().sum::<f64>() / losses.len() as f64
        }
    }
}

/// Searches the position after `moves` from `start` (the game so far is its history).
fn search(engine: &mut Engine, start: &Position, moves: &[Move], limits: &Limits, scale: f64) -> Searched {
    let (result, reports) = engine.search_collect(&SearchRequest::new(start, moves, limits.clone()));
    let mut pos = start.clone();
    for &m in moves {
        pos.make_move(m);
    }
    let score = RedScore::of(result.score, pos.side_to_move());
    // The line of the last report that starts with the move chosen.
    let line = reports
        .iter()
        .rev()
        .find_map(|r| match r {
            Report::Pv(info) if info.multipv == 1 && info.pv.first() == result.best.as_ref() => Some(info.pv.clone()),
            _ => None,
        })
        .or_else(|| result.best.map(|b| vec![b]))
        .unwrap_or_default();
    Searched { score, red_expected: score.red_expected(scale), depth: result.depth, line }
}

/// Analyses the game of `moves` (legal, checked by the caller) from `start`: every position
/// searched with `limits` by `engine`, in order; `progress(i)` after the `i`-th position.
pub fn analyse(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    limits: &Limits,
    mut progress: impl FnMut(usize),
) -> Analysis {
    let scale = scale_of(engine.evaluator());
    let mut positions = Vec::with_capacity(moves.len() + 1);
    for i in 0..=moves.len() {
        positions.push(search(engine, start, &moves[..i], limits, scale));
        progress(i + 1);
    }
    let mut side = start.side_to_move();
    let mut reports = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let (before, after) = (positions[i].red_expected, positions[i + 1].red_expected);
        let drop = if side == Color::Red { before - after } else { after - before };
        let engine_choice = positions[i].line.first() == Some(&mv);
        let mark = if engine_choice { None } else { Mark::of_drop(drop) };
        reports.push(MoveReport { mv, mover: side, drop, mark });
        side = side.opp();
    }
    Analysis { positions, moves: reports }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_turn_to_red_s_view() {
        assert_eq!(RedScore::of(Score::Cp(35), Color::Red), RedScore::Cp(35));
        assert_eq!(RedScore::of(Score::Cp(35), Color::Black), RedScore::Cp(-35));
        assert_eq!(RedScore::of(Score::Mate(3), Color::Black), RedScore::BlackMates(3));
        assert_eq!(RedScore::of(Score::Mate(-2), Color::Black), RedScore::RedMates(2));
        // No legal move: the side to move has lost.
        assert_eq!(RedScore::of(Score::Mate(0), Color::Red), RedScore::BlackMates(0));
        assert_eq!(RedScore::of(Score::Mate(0), Color::Black), RedScore::RedMates(0));
        let texts: Vec<String> =
            [RedScore::Cp(35), RedScore::Cp(-1205), RedScore::Cp(0), RedScore::RedMates(5), RedScore::BlackMates(0)]
                .iter()
                .map(|s| s.text())
                .collect();
        assert_eq!(texts, ["+0.35", "-12.05", "0.00", "+M5", "-M0"]);
    }

    #[test]
    fn expected_scores_and_marks() {
        let e = |cp| RedScore::Cp(cp).red_expected(HAND_SCALE_CP);
        assert!((e(0) - 0.5).abs() < 1e-12 && (e(300) + e(-300) - 1.0).abs() < 1e-12);
        assert!(e(100) > e(50) && e(1460) > 0.94);
        assert_eq!((RedScore::RedMates(4).red_expected(1.0), RedScore::BlackMates(4).red_expected(1.0)), (1.0, 0.0));
        assert_eq!(Mark::of_drop(0.09), None);
        assert_eq!(Mark::of_drop(0.1), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of_drop(0.25), Some(Mark::Mistake));
        assert_eq!(Mark::of_drop(0.3), Some(Mark::Blunder));
        assert_eq!(Mark::of_drop(-0.5), None);
        // From an equal game, a rook given away is a blunder and a pawn is not marked.
        assert_eq!(Mark::of_drop(e(0) - e(-1460)), Some(Mark::Blunder));
        assert_eq!(Mark::of_drop(e(0) - e(-137)), None);
    }

    #[test]
    fn a_hung_rook_is_marked_and_the_engine_s_moves_are_not() {
        // Red's rook on a0 walks to a7 where Black's rook on a9 takes it.
        let start = Position::from_fen("r3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
        let moves: Vec<Move> = ["a0a7", "a9a7"].iter().map(|m| Move::parse(m).unwrap()).collect();
        let mut engine = Engine::new();
        let limits = Limits { depth: Some(3), ..Limits::default() };
        let mut seen = Vec::new();
        let a = analyse(&mut engine, &start, &moves, &limits, |i| seen.push(i));
        assert_eq!(seen, [1, 2, 3]);
        assert_eq!(a.positions.len(), 3);
        assert_eq!(a.moves[0].mark, Some(Mark::Blunder), "{a:?}");
        assert_eq!(a.moves[1].mark, None);
        assert!(a.best_differs(0) && a.count(Color::Red, Mark::Blunder) == 1 && a.average_loss(Color::Red) > 30.0);
        // The same search again gives the same analysis.
        assert_eq!(analyse(&mut Engine::new(), &start, &moves, &limits, |_| {}), a);
    }
}
