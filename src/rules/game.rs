//! The game record: start position, moves, the Zobrist key after every ply and each move's
//! check / chase / idle classification, computed once when the move is played so that the
//! verdict after every move stays cheap.

use super::repetition::{classify, judge_cycle, MoveClass, SideTally};
use super::{insufficient_material, Rule, Verdict};
use crate::board::{Color, Move, PieceKind, Position, Square};

/// Plies without a capture that draw the game (the 60-move rule).
pub const MOVE_LIMIT_PLIES: u32 = 120;

/// A game: a start position and the moves played from it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// `keys[i]` is the key after `i` plies (`keys[0]` the start).
    keys: Vec<u64>,
    /// `classes[i]` classifies `moves[i]`.
    classes: Vec<MoveClass>,
    /// Index into `keys` of the position right after the latest capture (0 if none).
    last_capture: usize,
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

/// One move of a repetition cycle with its classification, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleMove {
    /// Ply number (1-based) in the record.
    pub ply: usize,
    /// The move.
    pub mv: Move,
    /// The side that played it.
    pub side: Color,
    /// Check, chase or idle.
    pub class: MoveClass,
    /// The pieces chased, with the squares they stand on after the move.
    pub chased: Vec<(PieceKind, Square)>,
}

impl Game {
    /// A game starting at `start`.
    pub fn new(start: Position) -> Game {
        let keys = vec![start.key()];
        Game { pos: start.clone(), start, moves: Vec::new(), keys, classes: Vec::new(), last_capture: 0 }
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

    /// Classification of the move at `ply` (1-based), if played.
    pub fn classification(&self, ply: usize) -> Option<MoveClass> {
        ply.checked_sub(1).and_then(|i| self.classes.get(i)).copied()
    }

    /// Plays `m` if legal; an illegal move changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !self.pos.is_legal(m) {
            return Err(IllegalMove { mv: m, ply: self.moves.len() + 1, side: self.pos.side_to_move() });
        }
        // A capture can never be part of a repetition cycle: no need to classify it.
        let capture = self.pos.is_capture(m);
        let class = if capture { MoveClass::IDLE } else { classify(&self.pos, m) };
        self.pos.make_move(m);
        self.moves.push(m);
        self.keys.push(self.pos.key());
        self.classes.push(class);
        if capture {
            self.last_capture = self.moves.len();
        }
        Ok(())
    }

    /// The repetition cycle ending now, as (first, last) ply, if the current position occurs
    /// for the third time: the moves from its first occurrence to now.
    fn repetition_cycle(&self) -> Option<(usize, usize)> {
        let n = self.moves.len();
        let key = self.keys[n];
        let mut seen = 0;
        let mut i = n;
        while i >= self.last_capture + 2 {
            i -= 2;
            if self.keys[i] == key {
                seen += 1;
                if seen == 2 {
                    return Some((i + 1, n));
                }
            }
        }
        None
    }

    /// The side that plays ply `ply` (1-based).
    fn mover(&self, ply: usize) -> Color {
        if ply % 2 == 1 {
            self.start.side_to_move()
        } else {
            self.start.side_to_move().opp()
        }
    }

    /// The verdict at the current point, or `None` while the game goes on. Rules are checked
    /// in rules.md's order: checkmate, stalemate, repetition, 60-move rule, material.
    pub fn verdict(&self) -> Option<Verdict> {
        let side = self.pos.side_to_move();
        if !self.pos.has_legal_move() {
            let rule = if self.pos.in_check() { Rule::Checkmate } else { Rule::Stalemate };
            return Some(Verdict::loss(rule, side, None));
        }
        if let Some((first, last)) = self.repetition_cycle() {
            let mut tally = [SideTally::new(); 2];
            for ply in first..=last {
                tally[self.mover(ply).index()].add(self.classes[ply - 1]);
            }
            let outcome = judge_cycle(&tally);
            return Some(match outcome.loser {
                Some(loser) => Verdict::loss(outcome.rule, loser, Some((first, last))),
                None => Verdict::repetition_draw(outcome.draw_kind, (first, last)),
            });
        }
        if self.pos.halfmove_clock() >= MOVE_LIMIT_PLIES {
            return Some(Verdict::draw(Rule::MoveLimit));
        }
        if insufficient_material(&self.pos) {
            return Some(Verdict::draw(Rule::InsufficientMaterial));
        }
        None
    }

    /// The moves of plies `first..=last` (a quiet stretch ending at the current position,
    /// such as a verdict's cycle) with their classification and the chased pieces' squares.
    pub fn cycle_moves(&self, first: usize, last: usize) -> Vec<CycleMove> {
        let n = self.moves.len();
        if first == 0 || first > last || last != n || first <= self.last_capture {
            return Vec::new();
        }
        // No capture in the stretch: walk back by moving pieces home, then forward again.
        let mut p = self.pos.clone();
        for &m in self.moves[first - 1..].iter().rev() {
            p.make_move(Move::new(m.to(), m.from()));
        }
        let mut out = Vec::with_capacity(last + 1 - first);
        for ply in first..=last {
            let (mv, class) = (self.moves[ply - 1], self.classes[ply - 1]);
            let side = p.side_to_move();
            p.make_move(mv);
            let chased = class
                .chased_ids(side)
                .filter_map(|id| p.square_of_id(id).and_then(|sq| p.piece_at(sq).map(|pc| (pc.kind(), sq))))
                .collect();
            out.push(CycleMove { ply, mv, side, class, chased });
        }
        out
    }
}
