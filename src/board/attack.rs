//! Attack detection, once for every caller: is a king's square attacked (on the real board,
//! or on the board as it would be after a move, without making it: the legality test and
//! `gives_check`), and could a side capture on a square (the search's "is it defended").

use super::mv::Move;
use super::piece::{Color, PieceKind};
use super::position::{cell_kind, side_bit, Position, EMPTY, OFF};
use super::square::{Square, ON_BOARD};
use super::tables::{forward, in_palace, own_half, DIAG, HORSE_ATTACK, ORTHO};

/// Read access to the cells: the board itself, or a view of it after a move.
trait Cells: Copy {
    /// The cell value at padded index `sq`.
    fn at(self, sq: i16) -> u8;
}

impl Cells for &[u8; 256] {
    #[inline(always)]
    fn at(self, sq: i16) -> u8 {
        self[sq as u8 as usize]
    }
}

/// The board seen as if a piece had moved `from` → `to`.
#[derive(Clone, Copy)]
struct View<'a> {
    cells: &'a [u8; 256],
    from: u8,
    to: u8,
    moving: u8,
}

impl Cells for View<'_> {
    #[inline(always)]
    fn at(self, sq: i16) -> u8 {
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

/// Whether a piece of `by` attacks the point `sq` in `v`. With `ANY_PIECE` false, `sq` is a
/// king's square: the enemy king counts along an open file ("flying general"), advisors and
/// elephants never reach it (they only land in their own palace or half, wherever they stand,
/// and the king is in its own). With `ANY_PIECE` true it is any point: every kind counts as it
/// captures (the king one step inside its palace), pins ignored. `vacated`, a neighbour of
/// `sq` or -1, is read as empty (the point a king steps from; no other line passes it).
#[inline(always)]
fn attacked<const ANY_PIECE: bool>(v: impl Cells, sq: Square, by: Color, vacated: i16) -> bool {
    let eb = side_bit(by);
    let k = sq.0 as i16;
    let is = |cell: u8, kind: PieceKind| cell & eb != 0 && cell_kind(cell) == kind;
    let king_steps_in = ANY_PIECE && in_palace(sq, by);
    for (i, d) in ORTHO.into_iter().enumerate() {
        let mut s = k + d;
        if s == vacated {
            s += d;
        }
        let mut c = v.at(s);
        if king_steps_in && in_palace(Square(s as u8), by) && is(c, PieceKind::King) {
            return true;
        }
        while c == EMPTY {
            s += d;
            c = v.at(s);
        }
        if c == OFF {
            continue;
        }
        if is(c, PieceKind::Rook) || (!ANY_PIECE && i >= 2 && is(c, PieceKind::King)) {
            return true;
        }
        s += d;
        c = v.at(s);
        while c == EMPTY {
            s += d;
            c = v.at(s);
        }
        if is(c, PieceKind::Cannon) {
            return true;
        }
    }
    for (diag, horses) in HORSE_ATTACK {
        if v.at(k + diag) == EMPTY && horses.iter().any(|&h| is(v.at(k + h), PieceKind::Horse)) {
            return true;
        }
    }
    // A pawn of `by` attacks forward, and sideways once across the river.
    if is(v.at(k - forward(by)), PieceKind::Pawn) {
        return true;
    }
    if !own_half(sq, by) && (is(v.at(k + 1), PieceKind::Pawn) || is(v.at(k - 1), PieceKind::Pawn)) {
        return true;
    }
    ANY_PIECE && guard_attacks(v, sq, by)
}

/// Whether an advisor or elephant of `by` could capture on `sq`.
#[inline(always)]
fn guard_attacks(v: impl Cells, sq: Square, by: Color) -> bool {
    let eb = side_bit(by);
    let k = sq.0 as i16;
    let is = |cell: u8, kind: PieceKind| cell & eb != 0 && cell_kind(cell) == kind;
    if in_palace(sq, by) && DIAG.iter().any(|&d| is(v.at(k + d), PieceKind::Advisor)) {
        return true;
    }
    own_half(sq, by)
        && DIAG.iter().any(|&d| {
            let t = k + 2 * d;
            ON_BOARD[t as u8 as usize] && v.at(k + d) == EMPTY && is(v.at(t), PieceKind::Elephant)
        })
}

impl Position {
    #[inline(always)]
    fn view_after(&self, m: Move) -> View<'_> {
        View { cells: &self.cells, from: m.from().0, to: m.to().0, moving: self.cells[m.from().index()] }
    }

    /// Whether a piece of `by` could capture on `sq` (pins ignored): the "is it defended"
    /// half of a static exchange test.
    #[inline]
    pub fn attacked_by(&self, sq: Square, by: Color) -> bool {
        attacked::<true>(&self.cells, sq, by, -1)
    }

    /// Whether `color`'s king is attacked (by any piece, or the facing enemy king).
    #[inline]
    pub fn king_attacked(&self, color: Color) -> bool {
        attacked::<false>(&self.cells, self.king_square(color), color.opp(), -1)
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    /// Whether pseudo-legal `m` would leave the mover's own king attacked.
    #[inline]
    pub(crate) fn leaves_king_attacked(&self, m: Move) -> bool {
        let own = self.side;
        if m.from() == self.king_square(own) {
            return self.king_step_attacked(m);
        }
        attacked::<false>(self.view_after(m), self.king_square(own), own.opp(), -1)
    }

    /// Whether the king's step `m` lands on an attacked point. The board is read as it is: the
    /// point the king leaves lies on one line from its new point only, which skips it, and a
    /// piece it captures is not an attacker.
    #[inline]
    pub(super) fn king_step_attacked(&self, m: Move) -> bool {
        attacked::<false>(&self.cells, m.to(), self.side.opp(), m.from().0 as i16)
    }

    /// The squares of the pieces giving check to the side to move, rank 0 first (for the
    /// `d` command's `Checkers:` line; not a hot path).
    pub fn checkers(&self) -> Vec<Square> {
        let us = self.side;
        let k = self.king_square(us);
        let (kf, kr) = (k.file() as i32, k.rank() as i32);
        let between = |f: i32, r: i32| -> Option<usize> {
            // Pieces strictly between (f, r) and the king on a shared file or rank.
            let (df, dr) = ((kf - f).signum(), (kr - r).signum());
            if (df != 0 && dr != 0) || (df == 0 && dr == 0) {
                return None;
            }
            let (mut x, mut y, mut n) = (f + df, r + dr, 0);
            while (x, y) != (kf, kr) {
                n += usize::from(!self.is_empty(Square::new(x as u8, y as u8)));
                x += df;
                y += dr;
            }
            Some(n)
        };
        let mut out: Vec<Square> = self
            .pieces(us.opp())
            .filter(|&(kind, sq)| {
                let (f, r) = (sq.file() as i32, sq.rank() as i32);
                match kind {
                    PieceKind::Rook | PieceKind::King => between(f, r) == Some(0),
                    PieceKind::Cannon => between(f, r) == Some(1),
                    PieceKind::Horse => {
                        let (df, dr) = (kf - f, kr - r);
                        let leg = match (df.abs(), dr.abs()) {
                            (1, 2) => Square::new(f as u8, (r + dr.signum()) as u8),
                            (2, 1) => Square::new((f + df.signum()) as u8, r as u8),
                            _ => return false,
                        };
                        self.is_empty(leg)
                    }
                    PieceKind::Pawn => {
                        let ahead = if us == Color::Red { -1 } else { 1 };
                        (f == kf && kr - r == ahead) || (r == kr && (f - kf).abs() == 1 && own_half(k, us))
                    }
                    PieceKind::Advisor | PieceKind::Elephant => false,
                }
            })
            .map(|(_, sq)| sq)
            .collect();
        out.sort_by_key(|sq| sq.point());
        out
    }

    /// Whether legal move `m` checks the opponent's king.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let them = self.side.opp();
        let k = self.king_square(them).0 as i16;
        let (from, to) = (m.from().0 as i16, m.to().0 as i16);
        // Most moves neither start nor end on the king's file or rank, nor land a horse's
        // jump away, nor leave a point next to it diagonally: they cannot check.
        let lined = |s: i16| (s ^ k) & 0x0F == 0 || (s ^ k) & 0xF0 == 0;
        let jump = matches!(to - k, 14 | 18 | 31 | 33 | -14 | -18 | -31 | -33);
        let leg = matches!(from - k, 15 | 17 | -15 | -17);
        if !(lined(from) || lined(to) || jump || leg) {
            return false;
        }
        let v = self.view_after(m);
        let eb = side_bit(self.side);
        let ours = |s: i16, kind: PieceKind| {
            let c = v.at(s);
            c & eb != 0 && cell_kind(c) == kind
        };
        // The side not to move is never in check, so a check after the move comes from what
        // the move changes: a line of the king that `from` or `to` is on (a rook or cannon
        // arriving, a screen added or taken away, the kings facing), the moved piece itself
        // (a horse's jump, a pawn), or a horse's leg next to the king opened.
        for (i, d) in ORTHO.into_iter().enumerate() {
            let on_ray = |s: i16| {
                let same_line = if i < 2 { (s ^ k) & 0xF0 == 0 } else { (s ^ k) & 0x0F == 0 };
                same_line && (s - k).signum() == d.signum()
            };
            if !(on_ray(from) || on_ray(to)) {
                continue;
            }
            let mut s = k + d;
            while v.at(s) == EMPTY {
                s += d;
            }
            if v.at(s) == OFF {
                continue;
            }
            if ours(s, PieceKind::Rook) || (i >= 2 && ours(s, PieceKind::King)) {
                return true;
            }
            s += d;
            while v.at(s) == EMPTY {
                s += d;
            }
            if ours(s, PieceKind::Cannon) {
                return true;
            }
        }
        for (diag, horses) in HORSE_ATTACK {
            let leg = k + diag;
            let lands = horses.iter().any(|&h| k + h == to);
            if (lands || leg == from) && v.at(leg) == EMPTY && horses.iter().any(|&h| ours(k + h, PieceKind::Horse)) {
                return true;
            }
        }
        ours(to, PieceKind::Pawn) && (to == k - forward(self.side) || to == k + 1 || to == k - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkers_are_exactly_the_checking_pieces() {
        let names = |fen: &str| -> Vec<String> {
            Position::from_fen(fen).unwrap().checkers().iter().map(|s| s.to_string()).collect()
        };
        // A rook and a cannon over a screen at once; a horse with its leg free.
        assert_eq!(names("4k4/9/9/9/9/9/9/9/9/r2K5 w - - 0 1"), ["a0"]);
        assert_eq!(names("4k4/9/9/9/9/9/9/3c5/3P5/3K5 w - - 0 1"), ["d2"]);
        assert_eq!(names("4k4/9/9/9/9/9/9/2n6/9/r2K5 w - - 0 1"), ["a0", "c2"]);
        assert!(names("4k4/9/9/9/9/9/9/2n6/2P6/3K5 w - - 0 1").is_empty(), "the horse's leg is blocked");
        // A pawn across the river from the side; a pawn in front.
        assert_eq!(names("4k4/9/9/9/9/9/9/9/9/3Kp4 w - - 0 1"), ["e0"]);
        assert_eq!(names("3k5/3P5/9/9/9/9/9/9/9/4K4 b - - 0 1"), ["d8"]);
        assert!(names("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").is_empty());
        // Over random games: a checker exactly when in check.
        crate::board::testing::random_games(11, 40, 150, |pos, _, _, _| {
            assert_eq!(pos.checkers().is_empty(), !pos.in_check(), "{pos:?}");
        });
    }

    #[test]
    fn attacked_by_counts_every_kind_as_it_captures() {
        let sq = |s: &str| Square::parse(s).unwrap();
        // Black's horse d8 defends e6 (its leg d7 is empty), not a5.
        let pos = Position::from_fen("4k4/3n5/9/4p4/4R4/9/9/9/9/3K5 w - - 0 1").unwrap();
        assert!(pos.attacked_by(sq("e6"), Color::Black));
        assert!(!pos.attacked_by(sq("a5"), Color::Black));
        // Cannon over a screen, pawn sideways across the river, king in its palace.
        let pos = Position::from_fen("4k4/9/4c4/9/4P4/3pR4/9/9/9/3K5 w - - 0 1").unwrap();
        let black = |s: &str| pos.attacked_by(sq(s), Color::Black);
        let red = |s: &str| pos.attacked_by(sq(s), Color::Red);
        assert!(black("e4") && black("c4") && black("d3") && black("e8"));
        assert!(!black("b4") && !black("e2") && !black("d8"));
        assert!(red("e6") && red("f5") && red("i4") && red("e1") && !red("a9") && !red("e7"));
        // Advisors and elephants defend their own points; a king never flies to capture.
        let pos = Position::from_fen("4k4/4a4/4b4/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        let black = |s: &str| pos.attacked_by(sq(s), Color::Black);
        assert!(black("d9") && black("f7") && black("c5") && black("g5") && !black("e5") && !black("a7"));
        let red = |s: &str| pos.attacked_by(sq(s), Color::Red);
        assert!(red("e1") && !red("e4") && !red("e8"));
    }
}
