//! Check / chase / idle classification of a move and the Asian-rules verdict of a repetition
//! cycle (rules.md, "Repetition"). One implementation serves the game record, the judge and
//! search; nothing here allocates.

use super::{LoopVerdict, Rule};
use crate::board::tables::own_half;
use crate::board::{Color, Move, MoveList, PieceId, PieceKind, Position, Square};

/// Whether a piece of `kind` can chase: kings and pawns never do.
fn can_chase(kind: PieceKind) -> bool {
    !matches!(kind, PieceKind::King | PieceKind::Pawn)
}

/// How a move counts in a repetition cycle, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveClass {
    check: bool,
    /// Enemy pieces chased, as a mask over the enemy's `PieceId::index`.
    chased: u16,
}

impl MoveClass {
    /// A checking move.
    pub const CHECK: MoveClass = MoveClass { check: true, chased: 0 };
    /// A move that neither checks nor chases.
    pub const IDLE: MoveClass = MoveClass { check: false, chased: 0 };

    /// A non-checking move that chases the enemy pieces in `mask` (over `PieceId::index`).
    #[cfg(test)]
    pub(crate) const fn chase_mask(mask: u16) -> MoveClass {
        MoveClass { check: false, chased: mask }
    }

    /// Whether the move checks.
    pub fn is_check(self) -> bool {
        self.check
    }

    /// Whether the move chases at least one piece (and does not check).
    pub fn is_chase(self) -> bool {
        self.chased != 0
    }

    /// Whether the move neither checks nor chases.
    pub fn is_idle(self) -> bool {
        !self.check && self.chased == 0
    }

    /// Identities of the pieces chased, given the mover.
    pub fn chased_ids(self, mover: Color) -> impl Iterator<Item = PieceId> {
        PieceId::all(mover.opp()).filter(move |id| self.chased & (1 << id.index()) != 0)
    }
}

/// Which enemy pieces each chasing piece of the side to move could legally capture here:
/// entry `x.index()` is the mask of attackers' `index()` on enemy piece `x`. Kings and pawns
/// that have not crossed the river are never targets.
fn attack_table(pos: &Position) -> [u16; PieceId::PER_SIDE] {
    let us = pos.side_to_move();
    let them = us.opp();
    let mut table = [0u16; PieceId::PER_SIDE];
    let mut list = MoveList::new();
    for a in PieceId::all(us).filter(|a| can_chase(a.kind())) {
        let Some(from) = pos.square_of_id(a) else { continue };
        list.clear();
        pos.captures_from(from, &mut list);
        for &m in &list {
            let Some(x) = pos.piece_id_at(m.to()) else { continue };
            if x.kind() == PieceKind::King || (x.kind() == PieceKind::Pawn && own_half(m.to(), them)) {
                continue;
            }
            if !pos.leaves_king_attacked(m) {
                table[x.index()] |= 1 << a.index();
            }
        }
    }
    table
}

/// Whether the side to move has a legal capture onto `sq`.
fn can_recapture(pos: &Position, sq: Square) -> bool {
    let mut list = MoveList::new();
    for (_, from) in pos.pieces(pos.side_to_move()) {
        list.clear();
        pos.captures_from(from, &mut list);
        if list.iter().any(|&m| m.to() == sq && !pos.leaves_king_attacked(m)) {
            return true;
        }
    }
    false
}

/// Whether a new attack of the piece on `asq` (of the mover) on the enemy piece on `xsq`
/// counts as a chase. `ours` is the position after the move with the mover to move again,
/// `real` the position after the move (the victim's side to move).
fn attack_chases(real: &Position, ours: &Position, asq: Square, xsq: Square) -> bool {
    let (Some(a), Some(x)) = (ours.piece_at(asq), ours.piece_at(xsq)) else { return false };
    let (ak, xk) = (a.kind(), x.kind());
    use PieceKind::*;
    // The value clause: these count even against a protected piece.
    if (matches!(ak, Horse | Cannon) && xk == Rook)
        || (matches!(ak, Advisor | Elephant) && matches!(xk, Rook | Horse | Cannon))
    {
        return true;
    }
    // Same-type mutual attack: not a chase when the victim could take the attacker back.
    if ak == xk {
        let back = Move::new(xsq, asq);
        let mut list = MoveList::new();
        real.captures_from(xsq, &mut list);
        if list.contains(&back) && !real.leaves_king_attacked(back) {
            return false;
        }
    }
    // Otherwise only an unprotected piece is chased: make the capture, look for a legal
    // recapture (a pinned or king-exposing "protector" does not count).
    let mut after_capture = ours.clone();
    after_capture.make_move(Move::new(asq, xsq));
    !can_recapture(&after_capture, xsq)
}

/// Classifies legal move `m` of the side to move in `pos`: check, chase (of which enemy
/// pieces) or idle. See rules.md, "Repetition".
pub fn classify(pos: &Position, m: Move) -> MoveClass {
    if pos.gives_check(m) {
        return MoveClass::CHECK;
    }
    let us = pos.side_to_move();
    let them = us.opp();
    let before = attack_table(pos);
    let mut real = pos.clone();
    real.make_move(m);
    let mut ours = real.clone();
    ours.make_null();
    let after = attack_table(&ours);
    let mut chased = 0u16;
    for x in PieceId::all(them) {
        let new = after[x.index()] & !before[x.index()];
        if new == 0 {
            continue;
        }
        let Some(xsq) = ours.square_of_id(x) else { continue };
        for a in PieceId::all(us) {
            if new & (1 << a.index()) == 0 {
                continue;
            }
            let Some(asq) = ours.square_of_id(a) else { continue };
            if attack_chases(&real, &ours, asq, xsq) {
                chased |= 1 << x.index();
                break;
            }
        }
    }
    MoveClass { check: false, chased }
}

/// One side's moves in a cycle, folded together.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SideTally {
    moves: u32,
    all_check: bool,
    /// Enemy pieces chased (or checked past) by every non-checking move so far.
    chase_all: u16,
}

impl SideTally {
    pub(crate) const fn new() -> SideTally {
        SideTally { moves: 0, all_check: true, chase_all: u16::MAX }
    }

    pub(crate) fn add(&mut self, c: MoveClass) {
        self.moves += 1;
        if !c.check {
            self.all_check = false;
            self.chase_all &= c.chased;
        }
    }

    /// Whether further moves cannot make this side a perpetual checker or chaser.
    pub(crate) fn settled(&self) -> bool {
        !self.all_check && self.chase_all == 0
    }

    fn perpetual_check(&self) -> bool {
        self.moves > 0 && self.all_check
    }

    /// Every non-check move chased one same piece (and there was at least one).
    fn perpetual_chase(&self) -> bool {
        !self.all_check && self.chase_all != 0
    }
}

/// The verdict of a whole cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CycleOutcome {
    /// `PerpetualCheck`, `PerpetualChase` or `Repetition` (a draw).
    pub rule: Rule,
    pub loser: Option<Color>,
    /// For a draw: both sides checked perpetually (`PerpetualCheck`), both chased
    /// (`PerpetualChase`), or neither (`Repetition`).
    pub draw_kind: Rule,
}

/// Applies rules.md's verdict order to the tallies of Red (`t[0]`) and Black (`t[1]`).
pub(crate) fn judge_cycle(t: &[SideTally; 2]) -> CycleOutcome {
    let one_sided = |f: fn(&SideTally) -> bool| match (f(&t[0]), f(&t[1])) {
        (true, false) => Some(Some(Color::Red)),
        (false, true) => Some(Some(Color::Black)),
        (true, true) => Some(None),
        _ => None,
    };
    for (rule, test) in [
        (Rule::PerpetualCheck, SideTally::perpetual_check as fn(&SideTally) -> bool),
        (Rule::PerpetualChase, SideTally::perpetual_chase),
    ] {
        match one_sided(test) {
            Some(Some(loser)) => return CycleOutcome { rule, loser: Some(loser), draw_kind: rule },
            Some(None) => return CycleOutcome { rule: Rule::Repetition, loser: None, draw_kind: rule },
            None => {}
        }
    }
    CycleOutcome { rule: Rule::Repetition, loser: None, draw_kind: Rule::Repetition }
}

/// Verdict of a repetition loop: `after` is the position reached at the end of the loop,
/// `moves` the loop's moves, oldest first; the position before `moves[0]` equals `after`.
/// The loop holds no capture, so its positions are rebuilt by moving pieces back.
pub fn loop_verdict(after: &Position, moves: &[Move]) -> LoopVerdict {
    let mut p = after.clone();
    for &m in moves.iter().rev() {
        // A loop is quiet: the piece stands on `to` and `from` is empty. Anything else is
        // not a loop; call it a draw rather than judge nonsense.
        if p.piece_at(m.to()).is_none() || p.piece_at(m.from()).is_some() {
            return LoopVerdict::Draw;
        }
        p.make_move(Move::new(m.to(), m.from()));
    }
    let mut tally = [SideTally::new(); 2];
    for &m in moves {
        let t = &mut tally[p.side_to_move().index()];
        if !t.settled() {
            t.add(classify(&p, m));
        }
        if tally[0].settled() && tally[1].settled() {
            return LoopVerdict::Draw;
        }
        p.make_move(m);
    }
    match judge_cycle(&tally).loser {
        Some(c) => LoopVerdict::Loses(c),
        None => LoopVerdict::Draw,
    }
}
