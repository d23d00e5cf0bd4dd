//! Pseudo-legal move generation, walking the piece slots (never empty points), one generator
//! per kind over a move sink; the filter that makes it legal by testing moves (the reference
//! for `legal.rs`); legality of single moves.

use super::mv::{Move, MoveList};
use super::piece::{Color, PieceKind};
use super::position::{cell_kind, side_bit, Position, EMPTY, OFF};
use super::square::{Square, ON_BOARD};
use super::tables::{forward, in_palace, own_half, DIAG, HORSE, ORTHO};

/// What a generator hands its moves to: a list, a counter, or a filter in front of one.
pub(super) trait Out {
    /// Takes one generated move.
    fn add(&mut self, m: Move);
}

impl Out for MoveList {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without keeping them (perft's last ply).
impl Out for u64 {
    #[inline(always)]
    fn add(&mut self, _: Move) {
        *self += 1;
    }
}

/// Generation mode: every move.
pub(super) const ALL: u8 = 0;
/// Generation mode: captures only.
pub(super) const CAPTURES: u8 = 1;
/// Generation mode: quiet moves only.
pub(super) const QUIETS: u8 = 2;

/// Where a generator puts its moves: the mover, the output, and which moves (`MODE`: `ALL`,
/// `CAPTURES` or `QUIETS`).
pub(super) struct Sink<'a, O: Out, const MODE: u8> {
    pub(super) cells: &'a [u8; 256],
    pub(super) us: Color,
    pub(super) enemy_bit: u8,
    pub(super) out: &'a mut O,
}

impl<O: Out, const MODE: u8> Sink<'_, O, MODE> {
    /// Adds `from` → `t` if `t` holds an enemy and captures are wanted, or is empty and
    /// quiet moves are.
    #[inline(always)]
    fn step(&mut self, from: Square, t: i16) {
        let c = self.cells[t as usize];
        if (MODE != QUIETS && c & self.enemy_bit != 0) || (MODE != CAPTURES && c == EMPTY) {
            self.out.add(Move::new(from, Square(t as u8)));
        }
    }

    /// Walks from `from` along `d` over empty points (quiet moves when wanted); returns the
    /// first occupied or margin point.
    #[inline(always)]
    fn slide(&mut self, from: Square, d: i16) -> i16 {
        let mut t = from.0 as i16 + d;
        while self.cells[t as usize] == EMPTY {
            if MODE != CAPTURES {
                self.out.add(Move::new(from, Square(t as u8)));
            }
            t += d;
        }
        t
    }

    /// Adds the capture `from` → `t` if `t` holds an enemy and captures are wanted.
    #[inline(always)]
    fn capture(&mut self, from: Square, t: i16) {
        if MODE != QUIETS && self.cells[t as usize] & self.enemy_bit != 0 {
            self.out.add(Move::new(from, Square(t as u8)));
        }
    }

    #[inline(always)]
    fn is_empty(&self, t: i16) -> bool {
        self.cells[t as usize] == EMPTY
    }

    /// One step along each of `dirs` that stays inside the palace.
    #[inline(always)]
    fn palace_steps(&mut self, from: Square, dirs: [i16; 4]) {
        for d in dirs {
            let t = from.0 as i16 + d;
            if in_palace(Square(t as u8), self.us) {
                self.step(from, t);
            }
        }
    }

    #[inline(always)]
    pub(super) fn gen_king(&mut self, from: Square) {
        self.palace_steps(from, ORTHO);
    }

    #[inline(always)]
    pub(super) fn gen_advisor(&mut self, from: Square) {
        self.palace_steps(from, DIAG);
    }

    #[inline(always)]
    pub(super) fn gen_elephant(&mut self, from: Square) {
        let f = from.0 as i16;
        for d in DIAG {
            let t = f + 2 * d;
            if ON_BOARD[t as usize] && own_half(Square(t as u8), self.us) && self.is_empty(f + d) {
                self.step(from, t);
            }
        }
    }

    #[inline(always)]
    pub(super) fn gen_horse(&mut self, from: Square) {
        let f = from.0 as i16;
        for (leg, jumps) in HORSE {
            if self.is_empty(f + leg) {
                for j in jumps {
                    self.step(from, f + j);
                }
            }
        }
    }

    #[inline(always)]
    pub(super) fn gen_rook(&mut self, from: Square) {
        for d in ORTHO {
            let t = self.slide(from, d);
            self.capture(from, t);
        }
    }

    #[inline(always)]
    pub(super) fn gen_cannon(&mut self, from: Square) {
        for d in ORTHO {
            // Over the screen to the next piece: the cannon's only capture on this line.
            let mut t = self.slide(from, d);
            if self.cells[t as usize] == OFF {
                continue;
            }
            t += d;
            while self.is_empty(t) {
                t += d;
            }
            self.capture(from, t);
        }
    }

    #[inline(always)]
    pub(super) fn gen_pawn(&mut self, from: Square) {
        let f = from.0 as i16;
        self.step(from, f + forward(self.us));
        // Sideways only once across the river.
        if !own_half(from, self.us) {
            self.step(from, f - 1);
            self.step(from, f + 1);
        }
    }

    /// The moves of the `kind` piece on `from`.
    #[inline(always)]
    pub(super) fn gen_piece(&mut self, from: Square, kind: PieceKind) {
        match kind {
            PieceKind::King => self.gen_king(from),
            PieceKind::Advisor => self.gen_advisor(from),
            PieceKind::Elephant => self.gen_elephant(from),
            PieceKind::Horse => self.gen_horse(from),
            PieceKind::Rook => self.gen_rook(from),
            PieceKind::Cannon => self.gen_cannon(from),
            PieceKind::Pawn => self.gen_pawn(from),
        }
    }
}

impl Position {
    /// A move sink for `us` (whoever is to move) handing its moves to `out`.
    #[inline(always)]
    pub(super) fn sink<'a, O: Out, const MODE: u8>(&'a self, us: Color, out: &'a mut O) -> Sink<'a, O, MODE> {
        Sink { cells: &self.cells, us, enemy_bit: side_bit(us.opp()), out }
    }

    /// Hands the pseudo-legal moves of the side to move (which: `MODE`) to `list`, kind by
    /// kind in slot order (the order search's ties depend on).
    #[inline(always)]
    pub(super) fn pseudo_into<O: Out, const MODE: u8>(&self, list: &mut O) {
        self.pseudo_into_for::<O, MODE>(self.side, list);
    }

    /// `pseudo_into` for `us`'s pieces, whoever is to move.
    #[inline(always)]
    fn pseudo_into_for<O: Out, const MODE: u8>(&self, us: Color, list: &mut O) {
        let mut sink = self.sink::<_, MODE>(us, list);
        self.squares_of(us, PieceKind::King).for_each(|from| sink.gen_king(from));
        self.squares_of(us, PieceKind::Advisor).for_each(|from| sink.gen_advisor(from));
        self.squares_of(us, PieceKind::Elephant).for_each(|from| sink.gen_elephant(from));
        self.squares_of(us, PieceKind::Horse).for_each(|from| sink.gen_horse(from));
        self.squares_of(us, PieceKind::Rook).for_each(|from| sink.gen_rook(from));
        self.squares_of(us, PieceKind::Cannon).for_each(|from| sink.gen_cannon(from));
        self.squares_of(us, PieceKind::Pawn).for_each(|from| sink.gen_pawn(from));
    }

    /// The owner of a piece's cell value.
    #[inline]
    fn cell_owner(cell: u8) -> Color {
        if cell & side_bit(Color::Red) != 0 {
            Color::Red
        } else {
            Color::Black
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

    /// Appends every legal move of the side to move to `list` the older way, pseudo-legal
    /// generation and then a test of each move that could expose the king: the reference the
    /// tests (and `perft_reference`) hold `generate_legal` to.
    pub fn generate_legal_by_filter(&self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_into::<_, ALL>(&mut pseudo);
        self.filter_legal(&pseudo, list);
    }

    /// Appends every pseudo-legal move (own king safety not checked) to `list`.
    pub fn generate_pseudo(&self, list: &mut MoveList) {
        self.pseudo_into::<_, ALL>(list);
    }

    /// Appends every pseudo-legal capture (own king safety not checked) to `list`.
    pub fn generate_pseudo_captures(&self, list: &mut MoveList) {
        self.pseudo_into::<_, CAPTURES>(list);
    }

    /// Appends every pseudo-legal capture of `color`'s pieces, whoever is to move, to `list`
    /// (what each piece attacks: the network's threat inputs).
    pub fn pseudo_captures_of(&self, color: Color, list: &mut MoveList) {
        self.pseudo_into_for::<_, CAPTURES>(color, list);
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

    /// Appends the pseudo-legal moves of the side to move's piece on `from` to `list`.
    #[inline]
    pub fn generate_pseudo_from(&self, from: Square, list: &mut MoveList) {
        let cell = self.cells[from.index()];
        if cell & side_bit(self.side) != 0 {
            self.sink::<_, ALL>(self.side, list).gen_piece(from, cell_kind(cell));
        }
    }

    /// Pseudo-legal captures that the piece on `from` could make for its own side, whoever is
    /// to move (the repetition rules ask what a piece attacks).
    pub fn captures_from(&self, from: Square, list: &mut MoveList) {
        let cell = self.cells[from.index()];
        if cell == EMPTY || cell == OFF {
            return;
        }
        self.sink::<_, CAPTURES>(Self::cell_owner(cell), list).gen_piece(from, cell_kind(cell));
    }

    /// Whether `m` is legal for `mover` here if it were `mover`'s turn (the mover's king is
    /// not left attacked); `m` must be pseudo-legal for the piece on its origin.
    pub fn is_legal_for_owner(&self, m: Move) -> bool {
        let cell = self.cells[m.from().index()];
        if cell == EMPTY || cell == OFF {
            return false;
        }
        if Self::cell_owner(cell) == self.side {
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
        self.sink::<_, ALL>(self.side, &mut pseudo).gen_piece(from, cell_kind(cell));
        pseudo.contains(&m) && !self.leaves_king_attacked(m)
    }
}
