//! Static evaluation in centipawns from the side to move's view (a pawn ≈ 100).
//!
//! Material and piece-square tables plus xiangqi knowledge (`terms.rs`): king safety
//! against attackers near the palace, worse without advisors and elephants; rook mobility
//! and open files; horse mobility and blocked legs; cannon mobility and cannons aimed at
//! the king through zero, one or two pieces; tempo. Every number is a (midgame, endgame)
//! weight in one table (`params.rs` names them, `weights.rs` holds the values `chuhe tune`
//! fitted), blended by the phase (rooks, horses and cannons left).
//!
//! The learned evaluation is in `nnue`; `Evaluator` picks one of the two for a search and
//! `EvalState` is the per-thread state the search moves along with its moves.

pub mod nnue;
mod pair;
mod params;
mod state;
mod terms;
mod weights;

use crate::board::{Color, PieceKind, Position, Square};
pub use pair::{S, SQUARES};
pub use params::{section_of, Section, COUNT, SECTIONS, WEIGHTS};
pub use state::{EvalState, Evaluator};
pub use terms::PHASE_MAX;
use terms::{walk, Sink};

/// Whether searches evaluate with the embedded network unless told otherwise (`UseNNUE`):
/// on, since net 1d beat the hand-written evaluation under SPRT (`docs/strength.md`).
pub const NETWORK_BY_DEFAULT: bool = true;

/// Midgame and endgame material of a `kind` in centipawns.
#[inline]
pub const fn material(kind: PieceKind) -> (i32, i32) {
    let S(mg, eg) = weights::MATERIAL[kind.index()];
    (mg, eg)
}

/// Material value of a `kind` in centipawns (midgame), for ordering and pruning margins.
#[inline]
pub const fn piece_value(kind: PieceKind) -> i32 {
    weights::MATERIAL[kind.index()].0
}

/// One named evaluation term, from Red's point of view.
#[derive(Clone, Debug)]
pub struct Term {
    /// What it measures.
    pub name: &'static str,
    /// Red's share minus Black's, in centipawns.
    pub red_minus_black: i32,
}

/// Blends a midgame and an endgame value by `phase` (`PHASE_MAX`: pure midgame).
#[inline(always)]
pub fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The running (midgame, endgame) sum of the weights a walk names.
#[derive(Default)]
struct Sum(i32, i32);

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        let S(mg, eg) = WEIGHTS[index];
        self.0 += mg * count;
        self.1 += eg * count;
    }

    #[inline(always)]
    fn piece(&mut self, color: Color, kind: PieceKind, sq: Square, _: usize) {
        let S(mg, eg) = PIECE_SQUARES[color.index()][kind.index()][sq.index()];
        self.0 += mg;
        self.1 += eg;
    }
}

/// Material plus square weight of every (colour, kind, point), negated for Black: what
/// `Sink::piece` adds, in one lookup for the engine's sum.
static PIECE_SQUARES: [[[S; 256]; 7]; 2] = piece_squares();

const fn piece_squares() -> [[[S; 256]; 7]; 2] {
    let mut t = [[[S(0, 0); 256]; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let sign = if c == 0 { 1 } else { -1 };
        let mut k = 0;
        while k < 7 {
            let m = params::FLAT[params::at::MATERIAL + k];
            let mut sq = 0;
            while sq < 90 {
                let (f, r) = (sq % 9, sq / 9);
                let rr = if c == 0 { r } else { 9 - r };
                let fc = if f < 4 { f } else { 8 - f };
                let p = params::FLAT[params::at::KING_SQUARES + k * SQUARES + params::square_index(rr, fc)];
                t[c][k][Square::new(f as u8, r as u8).index()] = S(sign * (m.0 + p.0), sign * (m.1 + p.1));
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut sum = Sum::default();
    let phase = walk(pos, &mut sum);
    let red = blend(sum.0, sum.1, phase);
    if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    }
}

/// The evaluation split into its terms (for the `eval` debugging command); they sum to
/// `evaluate` from Red's side up to the rounding of each term's blend.
pub fn breakdown(pos: &Position) -> Vec<Term> {
    let trace = trace(pos);
    // Every term, in table order, even when nothing in the position scores it.
    let mut terms: Vec<(&'static str, i32, i32)> = Vec::new();
    for s in SECTIONS {
        if !terms.iter().any(|t| t.0 == s.term) {
            terms.push((s.term, 0, 0));
        }
    }
    for &(index, count) in &trace.counts {
        let S(mg, eg) = WEIGHTS[index as usize];
        let name = section_of(index as usize).term;
        if let Some(t) = terms.iter_mut().find(|t| t.0 == name) {
            t.1 += mg * count as i32;
            t.2 += eg * count as i32;
        }
    }
    terms.into_iter().map(|(name, mg, eg)| Term { name, red_minus_black: blend(mg, eg, trace.phase) }).collect()
}

/// The weights a position's evaluation uses and how many times each (Red minus Black),
/// with its phase: the evaluation is linear in the weights, which is what the tuner fits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// (weight index, count), one entry per weight used, by index; counts are never zero.
    pub counts: Vec<(u16, i16)>,
    /// The phase (0 ..= `PHASE_MAX`).
    pub phase: i32,
}

/// How many times each weight applies to either side (both counted positively), added
/// into `counts` (`COUNT` long): how often the data exercises each weight.
pub fn tally(pos: &Position, counts: &mut [u64]) {
    struct Tally<'a>(&'a mut [u64]);
    impl Sink for Tally<'_> {
        fn add(&mut self, index: usize, count: i32) {
            self.0[index] += count.unsigned_abs() as u64;
        }
    }
    walk(pos, &mut Tally(counts));
}

/// Dense per-weight counts, for `trace`.
struct Counts([i32; COUNT]);

impl Sink for Counts {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.0[index] += count;
    }
}

/// The trace of `pos`: `evaluate` from Red's view is `blend` of the traced weight sums.
pub fn trace(pos: &Position) -> Trace {
    let mut counts = Counts([0; COUNT]);
    let phase = walk(pos, &mut counts);
    let counts = counts.0.iter().enumerate().filter(|(_, &n)| n != 0).map(|(i, &n)| (i as u16, n as i16)).collect();
    Trace { counts, phase }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirror(fen: &str) -> String {
        // Swap colours and flip the board top to bottom (files stay): same position, other side.
        let mut parts = fen.split(' ');
        let board: Vec<String> = parts
            .next()
            .unwrap()
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                    .collect()
            })
            .collect();
        let side = if parts.next() == Some("w") { "b" } else { "w" };
        format!("{} {side} - - 0 1", board.join("/"))
    }

    #[test]
    fn symmetric_positions_score_the_same_for_the_mover() {
        for fen in [
            crate::board::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        ] {
            let a = Position::from_fen(fen).unwrap();
            let b = Position::from_fen(&mirror(fen)).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
        }
        let start = Position::startpos();
        let red: i32 = breakdown(&start).iter().filter(|t| t.name != "tempo").map(|t| t.red_minus_black).sum();
        assert_eq!(red, 0);
    }

    #[test]
    fn breakdown_sums_to_evaluate_and_material_counts() {
        // Red has an extra rook.
        let pos = Position::from_fen("3akab2/9/4b4/9/9/9/9/9/R8/2BAKAB2 w - - 0 1").unwrap();
        let terms = breakdown(&pos);
        let names: Vec<&str> = terms.iter().map(|t| t.name).collect();
        assert!(names.contains(&"material") && names.contains(&"tempo") && names.contains(&"horse_mobility"));
        let sum: i32 = terms.iter().map(|t| t.red_minus_black).sum();
        assert!((sum - evaluate(&pos)).abs() < terms.len() as i32, "{sum} {}", evaluate(&pos));
        let material = terms.iter().find(|t| t.name == "material").unwrap().red_minus_black;
        // Whatever the fit, a rook is worth 8 to 13 pawns.
        assert!((800..=1300).contains(&material), "{material}");
        assert!(evaluate(&pos) > 700);
    }

    /// The evaluation summed from the trace, from the side to move's view.
    fn traced_eval(pos: &Position) -> i32 {
        let t = trace(pos);
        let (mut mg, mut eg) = (0, 0);
        for &(i, n) in &t.counts {
            mg += WEIGHTS[i as usize].0 * n as i32;
            eg += WEIGHTS[i as usize].1 * n as i32;
        }
        let red = blend(mg, eg, t.phase);
        if pos.side_to_move() == Color::Red {
            red
        } else {
            -red
        }
    }

    #[test]
    fn the_trace_is_the_evaluation() {
        // The tuner fits the trace; the engine plays the sum: they must be one function.
        crate::board::testing::random_games(7, 30, 80, |pos, _, _, _| {
            assert_eq!(traced_eval(pos), evaluate(pos), "{}", pos.to_fen());
        });
    }

    #[test]
    fn every_kind_evaluates_on_every_point() {
        // Composed positions put pieces on points no game reaches: the tables cover them all.
        use crate::board::{Piece, Square};
        let (rk, bk) = (Square::parse("d0").unwrap(), Square::parse("f9").unwrap());
        let mut seen = 0;
        for kind in PieceKind::ALL.into_iter().filter(|&k| k != PieceKind::King) {
            for sq in Square::all().filter(|&s| s != rk && s != bk) {
                let pieces =
                    [(rk, Piece::new(Color::Red, PieceKind::King)), (bk, Piece::new(Color::Black, PieceKind::King))];
                let pieces = [&pieces[..], &[(sq, Piece::new(Color::Red, kind))]].concat();
                // A piece checking the king not to move is refused; those points are skipped.
                let Ok(pos) = Position::from_pieces(&pieces, Color::Red, 0, 1) else { continue };
                let other = Position::from_fen(&mirror(&pos.to_fen())).unwrap();
                assert_eq!(evaluate(&pos), evaluate(&other), "{}", pos.to_fen());
                assert_eq!(traced_eval(&pos), evaluate(&pos), "{}", pos.to_fen());
                seen += 1;
            }
        }
        assert!(seen > 6 * 80, "{seen}");
    }

    #[test]
    fn square_tables_follow_the_kinds() {
        // `terms::walk` indexes the square tables by `PieceKind::index`.
        for kind in PieceKind::ALL {
            let name = format!("{:?}_SQUARES", kind).to_uppercase();
            let s = SECTIONS.iter().find(|s| s.name == name).unwrap();
            assert_eq!(s.start, params::at::KING_SQUARES + kind.index() * SQUARES, "{name}");
        }
    }

    /// The count of weight `section + offset` in `fen`'s trace (0 if unused).
    fn count(fen: &str, section: usize, offset: usize) -> i16 {
        let t = trace(&Position::from_fen(fen).unwrap());
        t.counts.iter().find(|c| c.0 as usize == section + offset).map_or(0, |c| c.1)
    }

    #[test]
    fn knowledge_terms_see_what_they_name() {
        // The values are fitted (they may say anything the data says); the features must
        // be the ones their names promise. Counts are Red minus Black.
        use params::{at, square_index};
        // A crossed pawn is scored on its own point: rank 7 from its side, e file.
        let deep = "3k5/9/4P4/9/9/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(count(deep, at::PAWN_SQUARES, square_index(7, 4)), 1);
        // A cannon aimed at the king through two pieces (advisor, pawn); it attacks on the
        // king's file, and so does nothing else.
        let aimed = "4k4/4a4/9/9/4p4/9/9/4C4/9/3K5 w - - 0 1";
        assert_eq!(count(aimed, at::CANNON_AIMED, 2), 1);
        assert_eq!(count(aimed, at::KING_ATTACK, 2), 1);
        // A rook across the river near the palace: an attacker; per missing guard only when
        // guards are missing (4 here: 4 times), and none with the full set.
        let guarded = "3akab2/9/4b4/3R5/9/9/9/9/9/5K3 w - - 0 1";
        let bare = "4k4/9/9/3R5/9/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(count(guarded, at::KING_ATTACK, 4), 1);
        assert_eq!(count(guarded, at::KING_ATTACK_PER_MISSING_GUARD, 4), 0);
        assert_eq!(count(bare, at::KING_ATTACK_PER_MISSING_GUARD, 4), 4);
        // Rook mobility: the d-file rook on an empty board but for the kings reaches 17 points.
        assert_eq!(count(bare, at::ROOK_MOBILITY, 17), 1);
        // Black's pieces count negatively: the mirrored pawn.
        let black = "4k4/9/9/9/9/9/9/4p4/9/3K5 w - - 0 1";
        assert_eq!(count(black, at::PAWN_SQUARES, square_index(7, 4)), -1);
        // The side to move gets the tempo.
        assert_eq!(count(bare, at::TEMPO, 0), 1);
        assert_eq!(count("4k4/9/9/3R5/9/9/9/9/9/5K3 b - - 0 1", at::TEMPO, 0), -1);
    }
}
