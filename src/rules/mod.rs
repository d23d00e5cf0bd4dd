//! The rules of the game: the game record and the end-of-game verdict (checkmate, stalemate,
//! Asian-rules repetition, the 60-move rule, insufficient material), shared by `chuhe judge`,
//! the match runner and search. See `docs/rules.md`.
//!
//! STUB (to be completed under the rules issue): repetition is judged a draw for now.

use crate::board::{Color, Move, PieceKind, Position};
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

/// Verdict of a repetition loop: `after` is the position reached at the end of the loop,
/// `moves` the loop's moves, oldest first; the position before `moves[0]` equals `after`.
pub fn loop_verdict(_after: &Position, _moves: &[Move]) -> LoopVerdict {
    LoopVerdict::Draw
}

/// Whether neither side has a rook, horse, cannon or pawn.
pub fn insufficient_material(pos: &Position) -> bool {
    [Color::Red, Color::Black].iter().all(|&c| {
        [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn].iter().all(|&k| pos.count(c, k) == 0)
    })
}

/// A game: a start position and the moves played from it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    keys: Vec<u64>,
}

/// A move that is not legal in the position where it was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// Its ply number (1-based) in the record.
    pub ply: usize,
    /// The side that tried it.
    pub side: Color,
}

impl Game {
    /// A game starting at `start`.
    pub fn new(start: Position) -> Game {
        let keys = vec![start.key()];
        Game { pos: start.clone(), start, moves: Vec::new(), keys }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays `m` if legal; an illegal move changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !self.pos.is_legal(m) {
            return Err(IllegalMove { mv: m, ply: self.moves.len() + 1, side: self.pos.side_to_move() });
        }
        self.pos.make_move(m);
        self.moves.push(m);
        self.keys.push(self.pos.key());
        Ok(())
    }

    /// The verdict at the current point, or `None` while the game goes on.
    pub fn verdict(&self) -> Option<Verdict> {
        let side = self.pos.side_to_move();
        if !self.pos.has_legal_move() {
            let rule = if self.pos.in_check() { Rule::Checkmate } else { Rule::Stalemate };
            let what = if rule == Rule::Checkmate { "checkmated" } else { "stalemated" };
            return Some(Verdict {
                result: GameResult::loss_for(side),
                rule,
                loser: Some(side),
                cycle: None,
                reason: format!("{} is {what}", side.name()),
            });
        }
        if self.pos.halfmove_clock() >= 120 {
            return Some(Verdict {
                result: GameResult::Draw,
                rule: Rule::MoveLimit,
                loser: None,
                cycle: None,
                reason: "60 moves without capture".to_string(),
            });
        }
        if insufficient_material(&self.pos) {
            return Some(Verdict {
                result: GameResult::Draw,
                rule: Rule::InsufficientMaterial,
                loser: None,
                cycle: None,
                reason: "insufficient material".to_string(),
            });
        }
        None
    }
}
