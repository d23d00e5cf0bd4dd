//! The network's shape (`docs/nnue.md`): the hidden width, the king
//! buckets (which input set a perspective uses, by its general's point) and the output buckets
//! (which output a position uses, by its material). The inputs of one king bucket are
//! architecture 1's 1260: (own or enemy, kind, point) seen from the perspective. A net may
//! add threat inputs (`threats`), shared by all king buckets.

use super::threats::THREAT_FEATURES;
use crate::board::{Color, Piece, PieceKind, Position, Square};

/// Inputs of one king bucket: 2 sides (own, enemy) × 7 kinds × 90 points.
pub const FEATURES: usize = 2 * 7 * 90;
/// Hidden widths a net may have (multiples of the SIMD loops' 64 lanes).
pub const HIDDEN_SIZES: [usize; 4] = [256, 512, 768, 1024];
/// Most output buckets.
pub const MAX_OUTPUT_BUCKETS: usize = 8;
/// Neurons of the first layer of a stack (after the accumulators' 2·H).
pub const L2: usize = 16;
/// Neurons of a stack's second layer (then one output).
pub const L3: usize = 32;

/// A way to split the general's 9 palace points into input buckets. Points are numbered from
/// the perspective's own view, `rank × 3 + file − 3` (rank 0 its back rank, file 3..=5 d..f).
/// A point with `mirror` set uses the left-right mirrored board (file a ↔ i), so the general
/// on file f sees the same weights as on file d.
#[derive(Debug, PartialEq, Eq)]
pub struct KingMap {
    /// Buckets, and the value of `--king-buckets`.
    pub buckets: usize,
    /// Bucket of each palace point.
    pub bucket: [u8; 9],
    /// Whether a palace point sees the mirrored board.
    pub mirror: [bool; 9],
}

/// The king maps, by the id net files store. The one table of them.
pub const KING_MAPS: [KingMap; 4] = [
    // 0: no buckets (architecture 1).
    KingMap { buckets: 1, bucket: [0; 9], mirror: [false; 9] },
    // 1: by rank, files d and f folded by the mirror.
    KingMap {
        buckets: 3,
        bucket: [0, 0, 0, 1, 1, 1, 2, 2, 2],
        mirror: [false, false, true, false, false, true, false, false, true],
    },
    // 2: every point, files d and f folded by the mirror: (rank, centre or side).
    KingMap {
        buckets: 6,
        bucket: [1, 0, 1, 3, 2, 3, 5, 4, 5],
        mirror: [false, false, true, false, false, true, false, false, true],
    },
    // 3: every point, no folding.
    KingMap { buckets: 9, bucket: [0, 1, 2, 3, 4, 5, 6, 7, 8], mirror: [false; 9] },
];

/// Kinds whose count chooses the output bucket: the attacking pieces (rooks, horses,
/// cannons), 0..=12 on the board; advisors and elephants rarely leave, pawns are many.
const MATERIAL_KINDS: [PieceKind; 3] = [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon];
/// One more than the most `MATERIAL_KINDS` pieces a position holds.
const MATERIAL_LEVELS: usize = 13;

/// A network's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arch {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Index in `KING_MAPS`.
    pub king_map: u8,
    /// Output buckets (1 = a single output).
    pub output_buckets: usize,
    /// Whether each output bucket is a stack 2·H → `L2` → `L3` → 1 (clipped ReLU between)
    /// rather than one linear output.
    pub stack: bool,
    /// Whether the inputs include the threat inputs (`threats::THREAT_FEATURES` after the
    /// king buckets' columns).
    pub threats: bool,
}

/// Which input set a perspective uses: its bucket and whether it sees the mirrored board
/// (`bucket × 2 + mirror`).
pub type KingKey = u8;

impl Arch {
    /// Architecture 1: 1260 → 2×256 → 1.
    pub const ONE: Arch = Arch { hidden: 256, king_map: 0, output_buckets: 1, stack: false, threats: false };

    /// The shape with `hidden` neurons, the king map of `king_buckets` buckets and
    /// `output_buckets` outputs, or why there is none.
    pub fn new(hidden: usize, king_buckets: usize, output_buckets: usize) -> Result<Arch, String> {
        if !HIDDEN_SIZES.contains(&hidden) {
            return Err(format!("hidden width {hidden} (one of {HIDDEN_SIZES:?})"));
        }
        let Some(map) = KING_MAPS.iter().position(|m| m.buckets == king_buckets) else {
            let counts: Vec<usize> = KING_MAPS.iter().map(|m| m.buckets).collect();
            return Err(format!("{king_buckets} king buckets (one of {counts:?})"));
        };
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&output_buckets) {
            return Err(format!("{output_buckets} output buckets (1 to {MAX_OUTPUT_BUCKETS})"));
        }
        Ok(Arch { hidden, king_map: map as u8, output_buckets, stack: false, threats: false })
    }

    /// The same shape with a stack of layers after the accumulators in each output bucket,
    /// or without.
    pub fn with_stack(self, stack: bool) -> Arch {
        Arch { stack, ..self }
    }

    /// The same shape with the threat inputs, or without.
    pub fn with_threats(self, threats: bool) -> Arch {
        Arch { threats, ..self }
    }

    /// The same shape without the threat inputs: the part the king buckets and pieces make.
    pub fn without_threats(self) -> Arch {
        self.with_threats(false)
    }

    /// The architecture id net files store: 1 for `Arch::ONE`, 3 with a stack, else 2.
    pub fn id(&self) -> u16 {
        if *self == Arch::ONE {
            1
        } else if self.stack {
            3
        } else {
            2
        }
    }

    /// The king map.
    pub fn map(&self) -> &'static KingMap {
        &KING_MAPS[self.king_map as usize]
    }

    /// King buckets.
    pub fn king_buckets(&self) -> usize {
        self.map().buckets
    }

    /// Input columns: `FEATURES` per king bucket, then the threat inputs if any.
    pub fn inputs(&self) -> usize {
        self.piece_inputs() + if self.threats { THREAT_FEATURES } else { 0 }
    }

    /// The piece inputs' columns (`FEATURES` per king bucket), where the threat inputs start.
    pub fn piece_inputs(&self) -> usize {
        self.king_buckets() * FEATURES
    }

    /// The input column of threat input `threat` (`threats::feature`) for a perspective of
    /// key `key` (mirrored with its board).
    #[inline(always)]
    pub fn threat_index(&self, key: KingKey, threat: usize) -> usize {
        self.piece_inputs() + if key & 1 == 1 { mirrored(threat) } else { threat }
    }

    /// Distinct king keys (`KingKey` values below this).
    pub fn king_keys(&self) -> usize {
        self.king_buckets() * 2
    }

    /// The key of a perspective whose general stands on palace point `point` (`palace_point`).
    #[inline(always)]
    pub fn key_of_point(&self, point: usize) -> KingKey {
        let map = self.map();
        map.bucket[point] * 2 + map.mirror[point] as u8
    }

    /// The key `persp` uses in `pos`.
    #[inline]
    pub fn king_key(&self, pos: &Position, persp: Color) -> KingKey {
        self.key_of_point(palace_point(persp, pos.king_square(persp)))
    }

    /// The input column of `piece` on `sq` for a perspective of key `key`.
    #[inline(always)]
    pub fn index(&self, key: KingKey, persp: Color, piece: Piece, sq: Square) -> usize {
        self.index_of_feature(key, feature(persp, piece, sq))
    }

    /// The input column of an architecture-1 `feature` for a perspective of key `key`.
    #[inline(always)]
    pub fn index_of_feature(&self, key: KingKey, feature: usize) -> usize {
        let f = if key & 1 == 1 { mirrored(feature) } else { feature };
        (key >> 1) as usize * FEATURES + f
    }

    /// The output bucket of a position with `material` attacking pieces (`material`).
    #[inline(always)]
    pub fn output_bucket_of(&self, material: usize) -> usize {
        material.min(MATERIAL_LEVELS - 1) * self.output_buckets / MATERIAL_LEVELS
    }

    /// The output bucket of `pos`.
    #[inline]
    pub fn output_bucket(&self, pos: &Position) -> usize {
        if self.output_buckets == 1 {
            return 0;
        }
        self.output_bucket_of(material(pos))
    }

    /// "1260x6 -> 2x512 -> 8" style summary ("-> 8x(16 -> 32 -> 1)" with a stack).
    pub fn describe(&self) -> String {
        let threats = if self.threats { format!(" + {THREAT_FEATURES} threats") } else { String::new() };
        let head = format!("{}x{}{threats} -> 2x{}", FEATURES, self.king_buckets(), self.hidden);
        if self.stack {
            format!("{head} -> {}x({L2} -> {L3} -> 1)", self.output_buckets)
        } else {
            format!("{head} -> {}", self.output_buckets)
        }
    }
}

/// How many attacking pieces (rooks, horses, cannons, both sides) `pos` holds.
pub fn material(pos: &Position) -> usize {
    let mut n = 0;
    for color in [Color::Red, Color::Black] {
        for kind in MATERIAL_KINDS {
            n += pos.count(color, kind) as usize;
        }
    }
    n
}

/// The palace point (0..9, `KingMap`) of `persp`'s general on `sq`, from its own view.
#[inline(always)]
pub fn palace_point(persp: Color, sq: Square) -> usize {
    let rank = if persp == Color::Red { sq.rank() } else { 9 - sq.rank() } as usize;
    (rank.min(2)) * 3 + (sq.file() as usize).clamp(3, 5) - 3
}

/// The palace point on the mirrored board.
#[inline(always)]
pub const fn mirrored_point(point: usize) -> usize {
    point / 3 * 3 + 2 - point % 3
}

/// Architecture 1's input index of `piece` on `sq` seen from `persp`.
#[inline(always)]
pub fn feature(persp: Color, piece: Piece, sq: Square) -> usize {
    let rank = if persp == Color::Red { sq.rank() } else { 9 - sq.rank() } as usize;
    let enemy = (piece.color() != persp) as usize;
    (enemy * 7 + piece.kind().index()) * 90 + rank * 9 + sq.file() as usize
}

/// The same input on the left-right mirrored board (file a ↔ i): the board and the rules
/// are symmetric, so the trainer doubles its data with it. Threat inputs are blocks of 90
/// points too, and mirror alike.
#[inline(always)]
pub const fn mirrored(feature: usize) -> usize {
    let (block, point) = (feature / 90, feature % 90);
    block * 90 + (point / 9) * 9 + 8 - point % 9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_maps_are_consistent_and_mirror_symmetric() {
        for (id, map) in KING_MAPS.iter().enumerate() {
            let arch = Arch::new(256, map.buckets, 1).unwrap();
            assert_eq!(arch.king_map as usize, id);
            for p in 0..9 {
                assert!((map.bucket[p] as usize) < map.buckets);
                // A folded point and its mirror use one bucket, the mirror flag flipped.
                if map.mirror.iter().any(|&m| m) && p % 3 != 1 {
                    assert_eq!(map.bucket[p], map.bucket[mirrored_point(p)]);
                    assert_ne!(map.mirror[p], map.mirror[mirrored_point(p)]);
                }
            }
            assert!((0..map.buckets).all(|b| map.bucket.contains(&(b as u8))));
        }
        assert_eq!(Arch::new(256, 1, 1), Ok(Arch::ONE));
        assert!(Arch::new(300, 1, 1).is_err() && Arch::new(512, 4, 1).is_err() && Arch::new(512, 6, 9).is_err());
    }

    #[test]
    fn output_buckets_grow_with_material() {
        let arch = Arch::new(256, 1, 8).unwrap();
        let buckets: Vec<usize> = (0..=12).map(|m| arch.output_bucket_of(m)).collect();
        assert_eq!(buckets[0], 0);
        assert_eq!(buckets[12], 7);
        assert!(buckets.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(material(&Position::startpos()), 12);
        let black_king = Square::parse("f9").unwrap();
        assert_eq!(palace_point(Color::Black, black_king), 2);
        assert_eq!(mirrored_point(5), 3);
        assert_eq!(palace_point(Color::Red, Square::parse("d2").unwrap()), 6);
    }
}
