//! Attack detection on the king's square, on the real board or on the board as it would be
//! after a move (without making it), which is what the legality test and `gives_check` use.

use super::mv::Move;
use super::piece::{Color, PieceKind};
use super::position::{cell_kind, side_bit, Position, EMPTY, OFF};
use super::square::Square;
use super::tables::{forward, own_half, HORSE_ATTACK, ORTHO};

const ROOK: usize = PieceKind::Rook as usize;
const CANNON: usize = PieceKind::Cannon as usize;
const HORSE: usize = PieceKind::Horse as usize;
const PAWN: usize = PieceKind::Pawn as usize;
const KING: usize = PieceKind::King as usize;

/// The board seen as if a piece had moved `from` → `to` (a no-op view when both are 0).
#[derive(Clone, Copy)]
struct View<'a> {
    cells: &'a [u8; 256],
    from: u8,
    to: u8,
    moving: u8,
}

impl View<'_> {
    #[inline(always)]
    fn at(&self, sq: i16) -> u8 {
        let s = sq as u8;
        if s == self.to {
            self.moving
        } else if s == self.from {
            EMPTY
        } else {
            self.cells[s as usize]
        }
    }
}

impl Position {
    #[inline(always)]
    fn view_after(&self, m: Move) -> View<'_> {
        View { cells: &self.cells, from: m.from().0, to: m.to().0, moving: self.cells[m.from().index()] }
    }

    #[inline(always)]
    fn view_now(&self) -> View<'_> {
        // Square 0 is in the margin, so the substitutions never touch the board.
        View { cells: &self.cells, from: 0, to: 0, moving: OFF }
    }

    /// Whether the point `ksq` (a king's square) is attacked by `by` in view `v`,
    /// counting the enemy king along an open file ("flying general").
    #[inline(always)]
    fn king_square_attacked(v: View<'_>, ksq: Square, by: Color) -> bool {
        let eb = side_bit(by);
        let k = ksq.0 as i16;
        let is = |cell: u8, kind: usize| cell & eb != 0 && cell_kind(cell) == kind;
        for (i, d) in ORTHO.into_iter().enumerate() {
            let mut s = k + d;
            let mut c = v.at(s);
            while c == EMPTY {
                s += d;
                c = v.at(s);
            }
            if c == OFF {
                continue;
            }
            if is(c, ROOK) || (i >= 2 && is(c, KING)) {
                return true;
            }
            s += d;
            c = v.at(s);
            while c == EMPTY {
                s += d;
                c = v.at(s);
            }
            if is(c, CANNON) {
                return true;
            }
        }
        for (diag, horses) in HORSE_ATTACK {
            if v.at(k + diag) == EMPTY {
                for h in horses {
                    if is(v.at(k + h), HORSE) {
                        return true;
                    }
                }
            }
        }
        // A pawn of `by` attacks forward, and sideways once across the river.
        if is(v.at(k - forward(by)), PAWN) {
            return true;
        }
        if !own_half(ksq, by) && (is(v.at(k + 1), PAWN) || is(v.at(k - 1), PAWN)) {
            return true;
        }
        false
    }

    /// Whether `color`'s king is attacked (by any piece, or the facing enemy king).
    #[inline]
    pub fn king_attacked(&self, color: Color) -> bool {
        Self::king_square_attacked(self.view_now(), self.king_square(color), color.opp())
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    /// Whether pseudo-legal `m` would leave the mover's own king attacked.
    #[inline]
    pub(crate) fn leaves_king_attacked(&self, m: Move) -> bool {
        let v = self.view_after(m);
        let own = self.side;
        let ksq = if m.from() == self.king_square(own) { m.to() } else { self.king_square(own) };
        Self::king_square_attacked(v, ksq, own.opp())
    }

    /// Whether legal move `m` checks the opponent's king.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let them = self.side.opp();
        Self::king_square_attacked(self.view_after(m), self.king_square(them), self.side)
    }

    /// Whether `cell` at padded index `sq` is empty (helper for generators).
    #[inline(always)]
    pub(crate) fn is_empty(&self, sq: i16) -> bool {
        self.cells[sq as usize] == EMPTY
    }
}
