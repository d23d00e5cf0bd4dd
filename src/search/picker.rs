//! The staged move picker: each kind of move is generated and scored only when its turn
//! comes, so a node that cuts on a good capture or a killer never generates its quiet moves
//! nor computes the exchange value of the captures it did not reach.
//!
//! Full-width nodes (the table's move is tried before the picker and skipped by it): captures
//! by MVV-LVA and capture history, each one's static exchange computed when it is picked (a
//! losing one waits for the end), then the two killers and the counter-move (when legal and
//! quiet), then the quiet moves by history, then the losing captures. Quiescence: the table's
//! move (a capture, or a quiet check when checks are wanted), captures by MVV-LVA, then the
//! quiet checks or, in check, the other evasions in generation order. Every move is legal.

use super::ordering::{
    moving_piece, mvv_lva, Earlier, Exchange, Heuristics, BAD_CAPTURE, CAPTURE, COUNTER, KILLER_1, KILLER_2,
    MVV_LVA_WEIGHT,
};
use crate::board::{Move, MoveList, Position, MAX_MOVES};
use arrayvec::ArrayVec;

/// Where the picker is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Quiescence: the table's move, if it fits.
    TableMove,
    /// Generate and score the captures.
    MakeCaptures,
    /// Hand out captures best first (full width: losing ones are put off).
    Captures,
    /// The killers and the counter-move, by index into `refutations`.
    Refutation(usize),
    /// Generate and score the quiet moves.
    MakeQuiets,
    /// Hand out the quiet moves best first.
    Quiets,
    /// Hand out the captures put off as losing.
    BadCaptures,
    /// Quiescence: generate the quiet moves (checks only, unless in check).
    MakeQuiescenceQuiets,
    /// Quiescence: hand out those quiet moves in generation order.
    QuiescenceQuiets,
    /// Nothing left.
    Done,
}

/// Hands out a node's legal moves, best first, generating them a stage at a time.
pub struct MovePicker {
    stage: Stage,
    /// Full width: the table's move (already tried); quiescence: the one to try first.
    tt_move: Move,
    /// Killer 1, killer 2, counter-move.
    refutations: [Move; 3],
    /// The moves one and two plies back (quiet ordering).
    earlier: [Earlier; 2],
    /// Quiescence: which quiet moves (none, checks, or every evasion).
    quiets: QuietMoves,
    /// Whether this is a quiescence picker (no exchange test, no history).
    quiescence: bool,
    /// The prices of the exchange test that puts losing captures last.
    exchange: Exchange,
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    /// Quiet moves as `score << 16 | move`, best first.
    quiet_keys: ArrayVec<i64, MAX_MOVES>,
    next: usize,
    /// Losing captures with their scores, in the order they were put off (best first).
    bad: ArrayVec<(Move, i32), MAX_MOVES>,
}

/// Which quiet moves a quiescence picker hands out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum QuietMoves {
    /// None.
    None,
    /// Those that give check.
    Checks,
    /// All (in check: every evasion).
    All,
}

impl MovePicker {
    /// The picker of a full-width node at `ply`; `tt_move` was tried already and is skipped.
    pub fn new(tt_move: Move, heur: &Heuristics, ply: usize, earlier: [Earlier; 2], exchange: Exchange) -> MovePicker {
        let killers = heur.killers[ply];
        let counter = earlier[0].map_or(Move::NULL, |(pp, pm)| heur.counter[pp][pm.to().index()]);
        MovePicker {
            stage: Stage::MakeCaptures,
            tt_move,
            refutations: [killers[0], killers[1], counter],
            earlier,
            quiets: QuietMoves::All,
            quiescence: false,
            exchange,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            quiet_keys: ArrayVec::new(),
            next: 0,
            bad: ArrayVec::new(),
        }
    }

    /// The picker of a quiescence node (or ProbCut): `tt_move` first if it is legal and a
    /// capture (or a quiet move of the kind `quiets` asks for), captures by MVV-LVA, then the
    /// `quiets`.
    pub fn quiescence(tt_move: Move, quiets: QuietMoves) -> MovePicker {
        MovePicker {
            stage: Stage::TableMove,
            tt_move,
            refutations: [Move::NULL; 3],
            earlier: [None, None],
            quiets,
            quiescence: true,
            exchange: Exchange::default(),
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            quiet_keys: ArrayVec::new(),
            next: 0,
            bad: ArrayVec::new(),
        }
    }

    /// Takes the best-scored move left in `moves` (the first of equals).
    #[inline]
    fn pick_best(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }

    /// Whether a quiet move fits the quiescence picker's `quiets`.
    fn wanted_quiet(&self, pos: &Position, m: Move) -> bool {
        match self.quiets {
            QuietMoves::None => false,
            QuietMoves::Checks => pos.gives_check(m),
            QuietMoves::All => true,
        }
    }

    /// The next move and its ordering score (captures `CAPTURE`+, killers and counter just
    /// below, quiet moves their history, losing captures `BAD_CAPTURE`+), or `None` at the end.
    pub fn next(&mut self, pos: &Position, heur: &Heuristics) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::MakeCaptures;
                    let m = self.tt_move;
                    if !m.is_null() && pos.is_legal(m) && (pos.is_capture(m) || self.wanted_quiet(pos, m)) {
                        return Some((m, i32::MAX));
                    }
                }
                Stage::MakeCaptures => {
                    pos.generate_legal_captures(&mut self.moves);
                    for &m in &self.moves {
                        let s = if self.quiescence {
                            mvv_lva(pos, m)
                        } else {
                            mvv_lva(pos, m) * MVV_LVA_WEIGHT + heur.capture_score(pos, m) / 8
                        };
                        self.scores.push(s);
                    }
                    self.stage = Stage::Captures;
                }
                Stage::Captures => match self.pick_best() {
                    Some((m, _)) if m == self.tt_move => {}
                    Some((m, s)) if !self.quiescence && self.exchange.losing_capture(pos, m) => {
                        self.bad.push((m, BAD_CAPTURE + s))
                    }
                    Some((m, s)) => return Some((m, CAPTURE + s)),
                    None => {
                        self.moves.clear();
                        self.scores.clear();
                        self.next = 0;
                        self.stage = if self.quiescence { Stage::MakeQuiescenceQuiets } else { Stage::Refutation(0) };
                    }
                },
                Stage::Refutation(i) => {
                    self.stage = if i < 2 { Stage::Refutation(i + 1) } else { Stage::MakeQuiets };
                    let m = self.refutations[i];
                    let repeated = i == 2 && self.refutations[..2].contains(&m);
                    if !m.is_null() && m != self.tt_move && !repeated && !pos.is_capture(m) && pos.is_legal(m) {
                        return Some((m, [KILLER_1, KILLER_2, COUNTER][i]));
                    }
                }
                Stage::MakeQuiets => {
                    pos.generate_legal_quiets(&mut self.moves);
                    // Score and move in one key, sorted once: most quiet moves of a node are
                    // handed out when none cuts (ties: the larger move code first).
                    for &m in &self.moves {
                        let score = heur.quiet_score(moving_piece(pos, m), m, self.earlier);
                        self.quiet_keys.push((i64::from(score) << 16) | i64::from(m.0));
                    }
                    self.quiet_keys.sort_unstable_by(|a, b| b.cmp(a));
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.quiet_keys.get(self.next) {
                    Some(&key) => {
                        self.next += 1;
                        let m = Move(key as u16);
                        if m != self.tt_move && !self.refutations.contains(&m) {
                            return Some((m, (key >> 16) as i32));
                        }
                    }
                    None => {
                        self.next = 0;
                        self.stage = Stage::BadCaptures;
                    }
                },
                Stage::BadCaptures => {
                    let r = self.bad.get(self.next).copied();
                    self.next += 1;
                    if r.is_none() {
                        self.stage = Stage::Done;
                    }
                    return r;
                }
                Stage::MakeQuiescenceQuiets => {
                    if self.quiets != QuietMoves::None {
                        pos.generate_legal_quiets(&mut self.moves);
                    }
                    self.stage = Stage::QuiescenceQuiets;
                }
                Stage::QuiescenceQuiets => {
                    let m = *self.moves.get(self.next)?;
                    self.next += 1;
                    if m != self.tt_move && self.wanted_quiet(pos, m) {
                        return Some((m, 0));
                    }
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::random_games;

    /// Every move a picker hands out, in order.
    fn all(mut p: MovePicker, pos: &Position, heur: &Heuristics) -> Vec<Move> {
        std::iter::from_fn(|| p.next(pos, heur).map(|(m, _)| m)).collect()
    }

    #[test]
    fn captures_by_mvv_lva_then_refutations_then_quiets_then_losing_captures() {
        // Red's rook e5 can take the pawn a5, or the pawn e6, which the horse d8 defends.
        let pos = Position::from_fen("1nbakab2/3nr4/9/4p4/p3R4/9/9/1C7/9/3A1K3 w - - 0 1").unwrap();
        let mut heur = Heuristics::new(8);
        let quiet = Move::parse("b2b3").unwrap();
        heur.killers[0] = [quiet, Move::parse("e5e4").unwrap()];
        let order = all(MovePicker::new(Move::NULL, &heur, 0, [None, None], Exchange::default()), &pos, &heur);
        let at = |m: &str| order.iter().position(|&x| x == Move::parse(m).unwrap()).unwrap();
        assert_eq!(order[0], Move::parse("e5a5").unwrap(), "{order:?}");
        assert_eq!((at("b2b3"), at("e5e4")), (1, 2), "killers after the good captures: {order:?}");
        assert_eq!(at("e5e6"), order.len() - 1, "the losing capture last: {order:?}");
        let mut sorted = order.clone();
        sorted.sort();
        let mut legal = pos.legal_moves().to_vec();
        legal.sort();
        assert_eq!(sorted, legal, "each legal move once");
        // The table's move is skipped: it was tried before the picker.
        let tt = Move::parse("e5a5").unwrap();
        let without = all(MovePicker::new(tt, &heur, 0, [None, None], Exchange::default()), &pos, &heur);
        assert_eq!(without.len(), legal.len() - 1);
        assert!(!without.contains(&tt));
    }

    #[test]
    fn capture_history_reorders_captures_of_like_value_only() {
        // Red's rooks can each take a black horse: alike by victim and attacker.
        let pos = Position::from_fen("3akab2/9/9/n7n/R7R/9/9/9/9/3K5 w - - 0 1").unwrap();
        let (left, right) = (Move::parse("a5a6").unwrap(), Move::parse("i5i6").unwrap());
        let first = |heur: &Heuristics| {
            all(MovePicker::new(Move::NULL, heur, 0, [None, None], Exchange::default()), &pos, heur)[..2].to_vec()
        };
        let mut heur = Heuristics::new(4);
        heur.update_capture(&pos, right, 4000);
        heur.update_capture(&pos, left, -4000);
        assert_eq!(first(&heur), vec![right, left]);
        heur.update_capture(&pos, right, -8000);
        heur.update_capture(&pos, left, 8000);
        assert_eq!(first(&heur), vec![left, right]);
        // A rook capture stays ahead of a pawn capture whatever the history says.
        let pos = Position::from_fen("3akab2/9/9/r7p/R7R/9/9/9/9/3K5 w - - 0 1").unwrap();
        let (rook, pawn) = (Move::parse("a5a6").unwrap(), Move::parse("i5i6").unwrap());
        let mut heur = Heuristics::new(4);
        for _ in 0..100 {
            heur.update_capture(&pos, pawn, 16000);
            heur.update_capture(&pos, rook, -16000);
        }
        assert_eq!(all(MovePicker::new(Move::NULL, &heur, 0, [None, None], Exchange::default()), &pos, &heur)[0], rook);
    }

    #[test]
    fn every_legal_move_once_over_random_games() {
        let heur = Heuristics::new(4);
        random_games(29, 40, 120, |pos, moves, _, ply| {
            let tt = moves[ply % moves.len()];
            let mut want: Vec<Move> = moves.iter().copied().filter(|&m| m != tt).collect();
            let mut got = all(MovePicker::new(tt, &heur, 0, [None, None], Exchange::default()), pos, &heur);
            want.sort();
            got.sort();
            assert_eq!(got, want, "{pos:?}");
            // Quiescence: the table's move first when it is a capture, then captures, then checks.
            let q = all(MovePicker::quiescence(tt, QuietMoves::Checks), pos, &heur);
            let want_q = moves.iter().filter(|&&m| pos.is_capture(m) || pos.gives_check(m)).count();
            assert_eq!(q.len(), want_q, "{pos:?}");
            assert_eq!(q.first() == Some(&tt), pos.is_capture(tt) || pos.gives_check(tt));
            let evasions = all(MovePicker::quiescence(tt, QuietMoves::All), pos, &heur);
            assert_eq!(evasions.len(), moves.len());
        });
    }
}
