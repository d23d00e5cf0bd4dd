//! Pseudo-legal and legal move generation, walking the piece slots (never empty points).

use super::mv::{Move, MoveList};
use super::piece::Color;
use super::position::{side_bit, Position, EMPTY, KIND_SLOTS, OFF};
use super::square::Square;
use super::tables::{forward, in_palace, own_half, DIAG, HORSE, ON_BOARD, ORTHO};

impl Position {
    /// Appends the pseudo-legal moves of the side to move (captures only when `CAPTURES`).
    fn pseudo_moves<const CAPTURES: bool>(&self, list: &mut MoveList) {
        let us = self.side;
        let base = side_bit(us) as usize;
        for (kind, &(lo, hi)) in KIND_SLOTS.iter().enumerate() {
            for slot in lo..hi {
                let s = self.slot_sq[base + slot as usize];
                if s != 0 {
                    self.piece_moves::<CAPTURES>(Square(s), kind, us, list);
                }
            }
        }
    }

    /// Appends the pseudo-legal moves of the `kind` piece of `us` standing on `from`.
    #[inline(always)]
    fn piece_moves<const CAPTURES: bool>(&self, from: Square, kind: usize, us: Color, list: &mut MoveList) {
        let eb = side_bit(us.opp());
        let f = from.0 as i16;
        let cells = &self.cells;
        // A target is fine if it holds an enemy, or (when quiet moves are wanted) is empty.
        let ok = |t: i16| {
            let c = cells[t as usize];
            c & eb != 0 || (!CAPTURES && c == EMPTY)
        };
        let mut push = |t: i16| list.push(Move::new(from, Square(t as u8)));
        match kind {
            0 => {
                for d in ORTHO {
                    let t = f + d;
                    if in_palace(Square(t as u8), us) && ok(t) {
                        push(t);
                    }
                }
            }
            1 => {
                for d in DIAG {
                    let t = f + d;
                    if in_palace(Square(t as u8), us) && ok(t) {
                        push(t);
                    }
                }
            }
            2 => {
                for d in DIAG {
                    let t = f + 2 * d;
                    if ON_BOARD[t as usize] && own_half(Square(t as u8), us) && self.is_empty(f + d) && ok(t) {
                        push(t);
                    }
                }
            }
            3 => {
                for (leg, jumps) in HORSE {
                    if self.is_empty(f + leg) {
                        for j in jumps {
                            if ok(f + j) {
                                push(f + j);
                            }
                        }
                    }
                }
            }
            4 => {
                for d in ORTHO {
                    let mut t = f + d;
                    while cells[t as usize] == EMPTY {
                        if !CAPTURES {
                            push(t);
                        }
                        t += d;
                    }
                    if cells[t as usize] & eb != 0 {
                        push(t);
                    }
                }
            }
            5 => {
                for d in ORTHO {
                    let mut t = f + d;
                    while cells[t as usize] == EMPTY {
                        if !CAPTURES {
                            push(t);
                        }
                        t += d;
                    }
                    if cells[t as usize] == OFF {
                        continue;
                    }
                    t += d;
                    while cells[t as usize] == EMPTY {
                        t += d;
                    }
                    if cells[t as usize] & eb != 0 {
                        push(t);
                    }
                }
            }
            _ => {
                let t = f + forward(us);
                if ok(t) {
                    push(t);
                }
                if !own_half(from, us) {
                    for t in [f - 1, f + 1] {
                        if ok(t) {
                            push(t);
                        }
                    }
                }
            }
        }
    }

    /// Whether a pseudo-legal move could change the safety of the mover's king: only moves of
    /// the king, moves from or to the king's file or rank, and moves off a horse-leg point
    /// next to the king can expose or block an attack line.
    #[inline(always)]
    fn may_affect_own_king(&self, m: Move, ksq: Square) -> bool {
        let (from, to, k) = (m.from().0, m.to().0, ksq.0);
        from == k
            || (from ^ k) & 0x0F == 0
            || (from ^ k) & 0xF0 == 0
            || (to ^ k) & 0x0F == 0
            || (to ^ k) & 0xF0 == 0
            || matches!(from as i16 - k as i16, 17 | 15 | -15 | -17)
    }

    /// Keeps the moves of `pseudo` that do not leave the mover's king attacked.
    #[inline]
    fn filter_legal(&self, pseudo: &MoveList, list: &mut MoveList) {
        let ksq = self.king_square(self.side);
        if self.in_check() {
            list.extend(pseudo.iter().copied().filter(|&m| !self.leaves_king_attacked(m)));
        } else {
            list.extend(
                pseudo.iter().copied().filter(|&m| !self.may_affect_own_king(m, ksq) || !self.leaves_king_attacked(m)),
            );
        }
    }

    /// Appends every legal move of the side to move to `list`.
    pub fn generate_legal(&self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_moves::<false>(&mut pseudo);
        self.filter_legal(&pseudo, list);
    }

    /// Appends every legal capture of the side to move to `list`.
    pub fn generate_legal_captures(&self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_moves::<true>(&mut pseudo);
        self.filter_legal(&pseudo, list);
    }

    /// Appends every pseudo-legal move (own king safety not checked) to `list`.
    pub fn generate_pseudo(&self, list: &mut MoveList) {
        self.pseudo_moves::<false>(list);
    }

    /// Appends every pseudo-legal capture (own king safety not checked) to `list`.
    pub fn generate_pseudo_captures(&self, list: &mut MoveList) {
        self.pseudo_moves::<true>(list);
    }

    /// Whether pseudo-legal `m` of the side to move keeps its king safe; `in_check` must say
    /// whether the side to move is in check (lets the search test legality lazily, only for
    /// the moves it actually plays).
    #[inline]
    pub fn pseudo_is_legal(&self, m: Move, in_check: bool) -> bool {
        (!in_check && !self.may_affect_own_king(m, self.king_square(self.side))) || !self.leaves_king_attacked(m)
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Pseudo-legal captures that the piece on `from` could make for its own side, whoever is
    /// to move (the repetition rules ask what a piece attacks).
    pub fn captures_from(&self, from: Square, list: &mut MoveList) {
        let cell = self.cells[from.index()];
        if cell == EMPTY || cell == OFF {
            return;
        }
        let us = if cell & side_bit(Color::Red) != 0 { Color::Red } else { Color::Black };
        self.piece_moves::<true>(from, super::position::cell_kind(cell), us, list);
    }

    /// Whether `m` is legal for `mover` here if it were `mover`'s turn (the mover's king is
    /// not left attacked); `m` must be pseudo-legal for the piece on its origin.
    pub fn is_legal_for_owner(&self, m: Move) -> bool {
        let cell = self.cells[m.from().index()];
        if cell == EMPTY || cell == OFF {
            return false;
        }
        let owner = if cell & side_bit(Color::Red) != 0 { Color::Red } else { Color::Black };
        if owner == self.side {
            !self.leaves_king_attacked(m)
        } else {
            let mut p = self.clone();
            let u = p.make_null();
            let ok = !p.leaves_king_attacked(m);
            p.unmake_null(u);
            ok
        }
    }

    /// Whether `m` is a legal move for the side to move.
    pub fn is_legal(&self, m: Move) -> bool {
        let from = m.from();
        if !from.on_board() || !m.to().on_board() {
            return false;
        }
        let cell = self.cells[from.index()];
        if cell & side_bit(self.side) == 0 {
            return false;
        }
        let mut pseudo = MoveList::new();
        self.piece_moves::<false>(from, super::position::cell_kind(cell), self.side, &mut pseudo);
        pseudo.contains(&m) && !self.leaves_king_attacked(m)
    }
}
