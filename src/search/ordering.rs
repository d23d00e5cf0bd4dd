//! Move ordering's knowledge: MVV-LVA (most valuable victim, least valuable attacker), the
//! exchange test, the ordering scores, and the quiet-move and capture histories (`Heuristics`)
//! that `picker.rs` orders by.

use super::params::SearchParams;
use crate::board::{Move, PieceKind, Position};

/// Capture-ordering value of each kind (king, advisor, elephant, horse, rook, cannon, pawn).
const ORDER_VALUE: [i32; 7] = [50, 2, 2, 4, 9, 5, 1];

/// Ordering score of a capture (plus its MVV-LVA and capture-history key).
pub const CAPTURE: i32 = 1 << 28;
/// Ordering score of the first killer.
pub const KILLER_1: i32 = 1 << 27;
/// Ordering score of the second killer.
pub const KILLER_2: i32 = KILLER_1 - 1;
/// Ordering score of the counter-move.
pub const COUNTER: i32 = KILLER_1 - 2;
/// History scores are kept within ±HISTORY_MAX so quiets stay below the counter move.
pub const HISTORY_MAX: i32 = 1 << 14;
/// Captures that likely lose material go after the quiet moves.
pub const BAD_CAPTURE: i32 = -4 * HISTORY_MAX;

/// Piece codes (the `Piece::index` range) and board points, the axes of the history tables.
const PIECES: usize = 16;
const POINTS: usize = 90;
/// Piece kinds, the captured-kind axis of the capture history.
const KINDS: usize = 7;
/// MVV-LVA steps are worth this much capture history, so the history reorders captures of
/// neighbouring values but never a rook capture below a pawn capture.
pub const MVV_LVA_WEIGHT: i32 = 32;

/// An earlier move on the search path: the moving piece's code and the move.
pub type Earlier = Option<(usize, Move)>;

/// Quiet-move statistics of one search thread.
pub struct Heuristics {
    /// Two killer moves per ply.
    pub killers: Vec<[Move; 2]>,
    /// history[piece code][to square].
    pub history: Vec<[i32; 256]>,
    /// counter[piece code][to square] of the previous move: the reply that refuted it.
    pub counter: Vec<[Move; 256]>,
    /// Continuation history: how a quiet move (piece, to point) fared one or two plies after
    /// an earlier move (piece, to point), flattened.
    pub continuation: Vec<i16>,
    /// The entries of `continuation` that may be non-zero, while they are few enough that aging
    /// them one by one beats halving the whole table (short searches: datagen); `None` once
    /// they are not (aging then halves every entry). Capacity fixed: nothing allocates.
    live: Option<LiveEntries>,
    /// Whether the continuation histories are read and written (`Features`).
    pub continuation_on: bool,
    /// Capture history: how a capture (piece, to point, captured kind) fared, flattened.
    pub captures: Vec<i32>,
    /// Whether the capture history orders captures (`Features`).
    pub captures_on: bool,
}

impl Heuristics {
    /// Empty tables for `max_ply` plies.
    pub fn new(max_ply: usize) -> Heuristics {
        Heuristics {
            killers: vec![[Move::NULL; 2]; max_ply + 2],
            history: vec![[0; 256]; PIECES],
            counter: vec![[Move::NULL; 256]; PIECES],
            continuation: vec![0; CONTINUATION_LEN],
            live: Some(LiveEntries::new()),
            continuation_on: true,
            captures: vec![0; PIECES * POINTS * KINDS],
            captures_on: true,
        }
    }

    /// Readies tables kept from the last search for the next one: the killers (per ply of
    /// another tree) are forgotten, the histories halved so the new search soon outweighs them.
    pub fn age(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [Move::NULL; 2]);
        self.history.iter_mut().flatten().for_each(|h| *h /= 2);
        match &mut self.live {
            Some(live) => live.halve(&mut self.continuation),
            None => self.continuation.iter_mut().for_each(|h| *h /= 2),
        }
        self.captures.iter_mut().for_each(|h| *h /= 2);
    }

    /// Index of capture `m` by `piece` in `captures`.
    #[inline]
    fn capture_index(pos: &Position, piece: usize, m: Move) -> usize {
        let victim = pos.piece_at(m.to()).map_or(0, |p| p.kind().index());
        (piece * POINTS + m.to().point()) * KINDS + victim
    }

    /// The capture history of `m` in `pos` (0 when switched off).
    #[inline]
    pub fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        if !self.captures_on {
            return 0;
        }
        self.captures[Self::capture_index(pos, moving_piece(pos, m), m)]
    }

    /// Rewards (positive `delta`) or punishes capture `m` in `pos`, before it is played.
    pub fn update_capture(&mut self, pos: &Position, m: Move, delta: i32) {
        if self.captures_on {
            Self::adjust(&mut self.captures[Self::capture_index(pos, moving_piece(pos, m), m)], delta);
        }
    }

    /// Index of quiet (piece, m) after the earlier move `e` in `continuation`.
    #[inline]
    fn continuation_index(e: (usize, Move), piece: usize, m: Move) -> usize {
        ((e.0 * POINTS + e.1.to().point()) * PIECES + piece) * POINTS + m.to().point()
    }

    /// The ordering score of quiet `m` (moving piece `piece`) after the earlier moves `earlier`
    /// (one and two plies back): its history plus both continuation histories.
    #[inline]
    pub fn quiet_score(&self, piece: usize, m: Move, earlier: [Earlier; 2]) -> i32 {
        let mut s = self.history[piece][m.to().index()];
        if !self.continuation_on {
            return s;
        }
        for e in earlier.into_iter().flatten() {
            s += self.continuation[Self::continuation_index(e, piece, m)] as i32;
        }
        s
    }

    /// Records that quiet `m` (moving piece `piece`) caused a cutoff at `ply`.
    pub fn reward(&mut self, ply: usize, piece: usize, m: Move, bonus: i32, earlier: [Earlier; 2]) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if let Some((pp, pm)) = earlier[0] {
            self.counter[pp][pm.to().index()] = m;
        }
        self.update(piece, m, bonus, earlier);
    }

    /// Lowers the histories of a quiet move that was tried and did not cut.
    pub fn punish(&mut self, piece: usize, m: Move, malus: i32, earlier: [Earlier; 2]) {
        self.update(piece, m, -malus, earlier);
    }

    fn update(&mut self, piece: usize, m: Move, delta: i32, earlier: [Earlier; 2]) {
        Self::adjust(&mut self.history[piece][m.to().index()], delta);
        if !self.continuation_on {
            return;
        }
        for e in earlier.into_iter().flatten() {
            let i = Self::continuation_index(e, piece, m);
            if let Some(live) = &mut self.live {
                if !live.insert(i) {
                    self.live = None;
                }
            }
            let c = &mut self.continuation[i];
            let mut v = *c as i32;
            Self::adjust(&mut v, delta);
            *c = v as i16;
        }
    }

    /// Gravity update: moves towards ±HISTORY_MAX, never past it.
    fn adjust(h: &mut i32, delta: i32) {
        let delta = delta.clamp(-HISTORY_MAX, HISTORY_MAX);
        *h += delta - *h * delta.abs() / HISTORY_MAX;
    }
}

/// Entries in the continuation history.
const CONTINUATION_LEN: usize = PIECES * POINTS * PIECES * POINTS;

/// A set of continuation-history indices, at most `LiveEntries::MAX`: a list for aging and a
/// bit per entry so that none is listed twice (halving one twice would change the search).
struct LiveEntries {
    list: Vec<u32>,
    bits: Vec<u64>,
}

impl LiveEntries {
    /// Past this many, halving the whole table is as quick.
    const MAX: usize = CONTINUATION_LEN / 16;

    fn new() -> LiveEntries {
        LiveEntries { list: Vec::with_capacity(Self::MAX), bits: vec![0; CONTINUATION_LEN.div_ceil(64)] }
    }

    /// Lists entry `i`; false when the set is full (the caller then halves everything).
    #[inline]
    fn insert(&mut self, i: usize) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if self.bits[word] & bit != 0 {
            return true;
        }
        if self.list.len() == Self::MAX {
            return false;
        }
        self.bits[word] |= bit;
        self.list.push(i as u32);
        true
    }

    /// Halves the listed entries of `table` (the others are zero) and forgets those now zero.
    fn halve(&mut self, table: &mut [i16]) {
        let bits = &mut self.bits;
        self.list.retain(|&i| {
            let h = &mut table[i as usize];
            *h /= 2;
            if *h == 0 {
                bits[i as usize / 64] &= !(1u64 << (i % 64));
            }
            *h != 0
        });
    }
}

/// Piece code (0..16) of the piece on `m`'s origin.
#[inline]
pub fn moving_piece(pos: &Position, m: Move) -> usize {
    pos.piece_at(m.from()).map_or(0, |p| p.index())
}

/// MVV-LVA key of a capture.
#[inline]
pub fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos.piece_at(m.to()).map_or(0, |p| ORDER_VALUE[p.kind().index()]);
    let attacker = pos.piece_at(m.from()).map_or(0, |p| ORDER_VALUE[p.kind().index()]);
    victim * 64 - attacker
}

/// The prices the search's exchange tests use (the `see_*` search parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// Value of each kind (`PieceKind::index` order), the king priced so that it is never traded.
    pub values: [i32; 7],
    /// An exchange counts as losing only below this (negative).
    pub losing: i32,
}

impl Exchange {
    /// The prices `params` sets.
    pub const fn new(params: &SearchParams) -> Exchange {
        let mut values = [0; 7];
        values[PieceKind::King.index()] = 10_000;
        values[PieceKind::Advisor.index()] = params.see_advisor;
        values[PieceKind::Elephant.index()] = params.see_elephant;
        values[PieceKind::Horse.index()] = params.see_horse;
        values[PieceKind::Rook.index()] = params.see_rook;
        values[PieceKind::Cannon.index()] = params.see_cannon;
        values[PieceKind::Pawn.index()] = params.see_pawn;
        Exchange { values, losing: -params.see_losing }
    }

    /// These prices with no capture counted as losing (for ordering without SEE).
    pub const fn never_losing(self) -> Exchange {
        Exchange { losing: i32::MIN, ..self }
    }

    /// Static exchange evaluation of `m` at these prices.
    #[inline]
    pub fn see(&self, pos: &Position, m: Move) -> i32 {
        pos.see(m, &self.values)
    }

    /// The value of what `m` captures, for delta pruning (0 for a quiet move).
    #[inline]
    pub fn captured_value(&self, pos: &Position, m: Move) -> i32 {
        pos.piece_at(m.to()).map_or(0, |p| self.values[p.kind().index()])
    }

    /// Whether capture `m` loses material by static exchange (a capture of a piece worth nearly
    /// as much as the capturer never does).
    #[inline]
    pub fn losing_capture(&self, pos: &Position, m: Move) -> bool {
        let (Some(attacker), Some(victim)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) else {
            return false;
        };
        self.values[victim.kind().index()] - self.values[attacker.kind().index()] < self.losing
            && self.see(pos, m) < self.losing
    }
}

impl Default for Exchange {
    fn default() -> Self {
        Exchange::new(&SearchParams::DEFAULT)
    }
}

/// Whether an ordering score is a killer or the counter move.
pub fn is_refutation(score: i32) -> bool {
    (COUNTER..=KILLER_1).contains(&score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losing_captures_need_a_defender() {
        // Red rook e5 takes pawn e6, which Black's horse d8 defends (its leg d7 is empty);
        // the pawn on a5 is not defended.
        let pos = Position::from_fen("4k4/3n5/9/4p4/p3R4/9/9/9/9/3K5 w - - 0 1").unwrap();
        let ex = Exchange::default();
        assert!(ex.losing_capture(&pos, Move::parse("e5e6").unwrap()));
        assert!(!ex.losing_capture(&pos, Move::parse("e5a5").unwrap()));
        // A cannon for a defended horse is a near-equal trade (within `see_losing`), not a loss.
        let pos = Position::from_fen("4k4/4r4/9/4n4/9/4P4/9/4C4/9/3K5 w - - 0 1").unwrap();
        let trade = Move::parse("e2e6").unwrap();
        assert!(ex.see(&pos, trade) < 0 && ex.see(&pos, trade) > ex.losing);
        assert!(!ex.losing_capture(&pos, trade));
        // Priced otherwise, the same trade is a loss.
        let mut p = SearchParams::DEFAULT;
        p.set("see_cannon", 1000).unwrap();
        assert!(Exchange::new(&p).losing_capture(&pos, trade));
    }

    #[test]
    fn aging_the_listed_entries_equals_halving_the_whole_table() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let mut lazy = Heuristics::new(8);
        let mut full = Heuristics::new(8);
        full.live = None;
        for round in 0..40 {
            // Sometimes many updates, so the list also overflows into halving everything.
            let updates = if round == 30 { 600_000 } else { 300 };
            for _ in 0..updates {
                let m = moves[next(moves.len() as u64) as usize];
                let e = (next(PIECES as u64) as usize, moves[next(moves.len() as u64) as usize]);
                let piece = next(PIECES as u64) as usize;
                let delta = next(2 * HISTORY_MAX as u64) as i32 - HISTORY_MAX;
                lazy.update(piece, m, delta, [Some(e), None]);
                full.update(piece, m, delta, [Some(e), None]);
            }
            if round < 30 {
                assert!(lazy.live.is_some(), "few entries stay listed");
            }
            lazy.age();
            full.age();
            assert_eq!(lazy.continuation, full.continuation, "round {round}");
        }
        assert!(lazy.live.is_none(), "many entries: the whole table is halved");
    }

    #[test]
    fn history_stays_bounded() {
        let mut h = Heuristics::new(4);
        let m = Move::parse("h2e2").unwrap();
        for _ in 0..1000 {
            h.reward(1, 5, m, 4000, [Some((3, m)), None]);
        }
        assert!(h.history[5][m.to().index()] <= HISTORY_MAX);
        assert!(h.quiet_score(5, m, [Some((3, m)), None]) <= 2 * HISTORY_MAX);
        assert_eq!(h.killers[1][0], m);
    }
}
