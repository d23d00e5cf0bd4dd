//! The rules of the game: the game record and the end-of-game verdict (checkmate, stalemate,
//! Asian-rules repetition, the 60-move rule, insufficient material), shared by `chuhe judge`,
//! the match runner and search. See `docs/rules.md`.
//!
//! `game.rs` keeps the record (moves, keys, per-move classification); `repetition.rs`
//! classifies moves as check / chase / idle and judges a cycle; `verdict.rs` builds the
//! verdicts, their one-line reasons and the judge's JSON.

mod game;
mod repetition;
mod verdict;

pub use game::{CycleMove, Game, IllegalMove, MOVE_LIMIT_PLIES};
pub use repetition::{classify, loop_verdict, MoveClass};
pub use verdict::json_string;

use crate::board::{Color, PieceKind, Position};
use std::fmt;

/// Game result in PGN notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Red wins: `1-0`.
    RedWins,
    /// Black wins: `0-1`.
    BlackWins,
    /// Draw: `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// The result in which `loser` loses.
    pub fn loss_for(loser: Color) -> GameResult {
        match loser {
            Color::Red => GameResult::BlackWins,
            Color::Black => GameResult::RedWins,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        })
    }
}

/// The rule that ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The side to move is in check with no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check (it loses).
    Stalemate,
    /// One side checked on every move of a threefold repetition cycle.
    PerpetualCheck,
    /// One side chased the same piece throughout a threefold repetition cycle.
    PerpetualChase,
    /// A threefold repetition with no forbidden perpetual (or forbidden on both sides).
    Repetition,
    /// 120 plies without a capture.
    MoveLimit,
    /// Neither side has a rook, horse, cannon or pawn.
    InsufficientMaterial,
    /// A move in the record was not legal.
    IllegalMove,
}

/// How a finished game ended, with a one-line human reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result.
    pub result: GameResult,
    /// The rule applied.
    pub rule: Rule,
    /// The side that loses, if any.
    pub loser: Option<Color>,
    /// First and last ply (1-based, counted from the record's start) of the repetition cycle.
    pub cycle: Option<(usize, usize)>,
    /// e.g. `Red loses: perpetual check, plies 41-48`.
    pub reason: String,
}

/// Outcome of a repetition loop met in search or in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopVerdict {
    /// Neither side (or both) perpetually checks or chases.
    Draw,
    /// This side perpetually checks or chases and loses.
    Loses(Color),
}

/// Whether neither side has a rook, horse, cannon or pawn.
pub fn insufficient_material(pos: &Position) -> bool {
    [Color::Red, Color::Black].iter().all(|&c| {
        [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn].iter().all(|&k| pos.count(c, k) == 0)
    })
}

#[cfg(test)]
mod tests;
