//! Legal move generation that knows checks and pins, so no move is made to test it.
//!
//! Not in check, a move other than the king's is illegal only if its piece leaves a point
//! that shields the king, or lands between the king and an enemy cannon with nothing between
//! them (the piece becomes the cannon's screen); a capture puts its piece where one stood, so
//! no other square changes. `Guard`, one look out from the king per node, finds those points
//! and lines: the one piece between the king and an enemy rook or the facing king (flying
//! general), the two pieces between the king and an enemy cannon, a piece on the leg of an
//! enemy horse aimed at the king. Only the moves of those pieces and of the king, and every
//! move when in check, are tested on a view of the board after the move.

use super::movegen::{Out, ALL, CAPTURES, QUIETS};
use super::mv::{Move, MoveList};
use super::piece::PieceKind;
use super::position::{cell_kind, side_bit, Position, EMPTY, OFF};
use super::square::Square;
use super::tables::{forward, own_half, HORSE_ATTACK, ORTHO};

/// What can make a move of the side to move illegal, found once per node from its king.
pub(super) struct Guard {
    /// The king's square.
    king: i16,
    /// Whether the side to move is in check.
    in_check: bool,
    /// In check, the points (bits by square index) where a piece other than the king could
    /// answer it: the checkers, the points between them and the king, the horses' legs. A
    /// move to any other point leaves some check standing, unless it takes away a cannon's
    /// screen (those pieces are in `pinned`); a move to one of them is tested.
    answers: [u64; 4],
    /// Pieces of the side to move (bit = slot within the side) whose leaving their point may
    /// expose the king; their moves are tested one by one.
    pinned: u16,
    /// Lines from the king to an enemy cannon with no piece between: (step, cannon square).
    open_cannons: [(i16, i16); 4],
    /// How many of `open_cannons` are used.
    open: usize,
}

impl Guard {
    /// Notes a check by the piece on `s` (or a point that answers one).
    #[inline(always)]
    fn check_at(&mut self, s: i16) {
        self.in_check = true;
        self.answers[s as usize >> 6] |= 1 << (s & 63);
    }

    /// Notes a check along the line from the king in step `d` by the piece on `checker`.
    #[inline(always)]
    fn check_line(&mut self, d: i16, checker: i16) {
        let mut s = self.king;
        while s != checker {
            s += d;
            self.check_at(s);
        }
    }

    /// Whether a move to `to` could answer the check.
    #[inline(always)]
    fn answers(&self, to: u8) -> bool {
        self.answers[to as usize >> 6] & (1 << (to & 63)) != 0
    }

    /// Whether a piece put on the empty `to` would screen an enemy cannon aimed at the king.
    #[inline]
    fn screens(&self, to: i16) -> bool {
        self.open_cannons[..self.open].iter().any(|&(d, c)| {
            let line = if d.abs() == 1 { (to ^ self.king) & 0xF0 == 0 } else { (to ^ self.king) & 0x0F == 0 };
            line && (to - self.king).signum() == d.signum() && (to - c).signum() == -d.signum()
        })
    }
}

/// Passes on only the moves `keep` accepts: those that keep the king safe (tested on a view
/// of the board), in check those that could answer it, or those that screen no open cannon.
struct Only<'a, O: Out, F: Fn(Move) -> bool> {
    keep: F,
    inner: &'a mut O,
}

impl<O: Out, F: Fn(Move) -> bool> Out for Only<'_, O, F> {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        if (self.keep)(m) {
            self.inner.add(m);
        }
    }
}

impl Position {
    /// Looks out from the side to move's king: checks (and the points where a piece could
    /// answer them), pinned pieces, open cannon lines.
    #[inline(always)]
    pub(super) fn guard(&self) -> Guard {
        let us = self.side;
        let (ours, theirs) = (side_bit(us), side_bit(us.opp()));
        let k = self.king_square(us).0 as i16;
        let at = |s: i16| self.cells[s as usize];
        let enemy = |cell: u8, kind: PieceKind| cell & theirs != 0 && cell_kind(cell) == kind;
        let flier = |cell: u8, i: usize| enemy(cell, PieceKind::Rook) || (i >= 2 && enemy(cell, PieceKind::King));
        let pin = |cell: u8| if cell & ours != 0 { 1u16 << (cell & 15) } else { 0 };
        let next = |mut s: i16, d: i16| {
            s += d;
            while at(s) == EMPTY {
                s += d;
            }
            s
        };
        let mut g = Guard { king: k, in_check: false, answers: [0; 4], pinned: 0, open_cannons: [(0, 0); 4], open: 0 };
        for (i, d) in ORTHO.into_iter().enumerate() {
            // The first three pieces along the line: A, B, C.
            let sa = next(k, d);
            let a = at(sa);
            if a == OFF {
                continue;
            }
            if flier(a, i) {
                g.check_line(d, sa);
            } else if enemy(a, PieceKind::Cannon) {
                g.open_cannons[g.open] = (d, sa);
                g.open += 1;
            }
            let sb = next(sa, d);
            let b = at(sb);
            if b == OFF {
                continue;
            }
            if enemy(b, PieceKind::Cannon) {
                // A is the screen: moving it off answers the check.
                g.check_line(d, sb);
                g.pinned |= pin(a) | pin(b);
            } else if flier(b, i) {
                g.pinned |= pin(a) | pin(b);
            }
            if enemy(at(next(sb, d)), PieceKind::Cannon) {
                g.pinned |= pin(a) | pin(b);
            }
        }
        for (diag, horses) in HORSE_ATTACK {
            let leg = at(k + diag);
            for h in horses {
                if enemy(at(k + h), PieceKind::Horse) {
                    if leg == EMPTY {
                        g.check_at(k + h);
                        g.check_at(k + diag);
                    } else {
                        g.pinned |= pin(leg);
                    }
                }
            }
        }
        let them = us.opp();
        if enemy(at(k - forward(them)), PieceKind::Pawn) {
            g.check_at(k - forward(them));
        }
        if !own_half(Square(k as u8), them) {
            for s in [k + 1, k - 1] {
                if enemy(at(s), PieceKind::Pawn) {
                    g.check_at(s);
                }
            }
        }
        g
    }

    /// The moves of the `kind` piece on `from` (not the king), none of them illegal.
    #[inline(always)]
    fn piece_legal<O: Out, const MODE: u8>(&self, g: &Guard, from: Square, kind: PieceKind, out: &mut O) {
        let us = self.side;
        if g.pinned & (1 << (self.cells[from.index()] & 15)) != 0 {
            let safe = |m| !self.leaves_king_attacked(m);
            self.sink::<_, MODE>(us, &mut Only { keep: safe, inner: out }).gen_piece(from, kind);
        } else if g.in_check {
            let answers = |m: Move| g.answers(m.to().0) && !self.leaves_king_attacked(m);
            self.sink::<_, MODE>(us, &mut Only { keep: answers, inner: out }).gen_piece(from, kind);
        } else if g.open != 0 && MODE != CAPTURES {
            let unscreened = |m: Move| !g.screens(m.to().0 as i16);
            self.sink::<_, MODE>(us, &mut Only { keep: unscreened, inner: out }).gen_piece(from, kind);
        } else {
            self.sink::<_, MODE>(us, out).gen_piece(from, kind);
        }
    }

    /// Hands every legal move of the side to move (which: `MODE`) to `out`,
    /// kind by kind in slot order (the order of the pseudo-legal generator, which search's
    /// ties depend on).
    #[inline(always)]
    fn legal_into<O: Out, const MODE: u8>(&self, out: &mut O) {
        let us = self.side;
        let g = self.guard();
        let safe = |m: Move| !self.king_step_attacked(m);
        self.sink::<_, MODE>(us, &mut Only { keep: safe, inner: out }).gen_king(self.king_square(us));
        // One loop per kind, so each generator is specialised to its kind.
        macro_rules! each {
            ($($kind:ident),*) => {$(
                for from in self.squares_of(us, PieceKind::$kind) {
                    self.piece_legal::<_, MODE>(&g, from, PieceKind::$kind, out);
                }
            )*};
        }
        each!(Advisor, Elephant, Horse, Rook, Cannon, Pawn);
    }

    /// Appends every legal move of the side to move to `list`.
    pub fn generate_legal(&self, list: &mut MoveList) {
        self.legal_into::<_, ALL>(list);
    }

    /// Appends every legal capture of the side to move to `list`.
    pub fn generate_legal_captures(&self, list: &mut MoveList) {
        self.legal_into::<_, CAPTURES>(list);
    }

    /// Appends every legal quiet move (no capture) of the side to move to `list`.
    pub fn generate_legal_quiets(&self, list: &mut MoveList) {
        self.legal_into::<_, QUIETS>(list);
    }

    /// How many legal moves the side to move has (perft's last ply: nothing is stored).
    pub fn count_legal(&self) -> u64 {
        let mut n = 0u64;
        self.legal_into::<_, ALL>(&mut n);
        n
    }
}
