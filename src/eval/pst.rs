//! Material and piece-square values, midgame and endgame, built at compile time from a few
//! readable rules per piece (see each `*_square` function). Values are from the owner's
//! view: `rr` is the rank counted from the owner's back rank, `fc` the distance from the
//! nearer edge file (0 = a/i file .. 4 = central e file).

use crate::board::{Color, PieceKind, Square};

/// Midgame and endgame material of each kind (king, advisor, elephant, horse, rook, cannon,
/// pawn), in centipawns; pawn advancement is scored by the pawn term. The one value table:
/// search's ordering and margins use its midgame column through `piece_value`.
const MATERIAL: [(i32, i32); 7] = [(0, 0), (200, 200), (200, 200), (400, 460), (900, 950), (450, 420), (100, 120)];

/// Midgame and endgame material of a `kind` in centipawns.
#[inline]
pub const fn material(kind: PieceKind) -> (i32, i32) {
    MATERIAL[kind.index()]
}

/// Material value of a `kind` in centipawns (midgame), for ordering and pruning margins.
#[inline]
pub const fn piece_value(kind: PieceKind) -> i32 {
    MATERIAL[kind.index()].0
}

const fn king_square(rr: i32, fc: i32) -> (i32, i32) {
    // Safest on its home point; climbing the palace exposes it in the midgame.
    let mg = match rr {
        0 => 0,
        1 => -20,
        _ => -45,
    } - if fc == 4 { 0 } else { 8 };
    (mg, if rr == 2 { -10 } else { 0 })
}

const fn advisor_square(rr: i32, fc: i32) -> (i32, i32) {
    // The palace centre guards most; the top corners least.
    if rr == 1 && fc == 4 {
        (12, 8)
    } else if rr == 2 {
        (-6, -4)
    } else {
        (0, 0)
    }
}

const fn elephant_square(rr: i32, fc: i32) -> (i32, i32) {
    // The centre point (e2) links both elephants; edge and river points are weaker.
    if rr == 2 && fc == 4 {
        (14, 10)
    } else if fc == 0 || rr == 4 {
        (-8, -6)
    } else {
        (0, 0)
    }
}

const fn horse_square(rr: i32, fc: i32) -> (i32, i32) {
    let file = [-22, -6, 4, 10, 12][fc as usize];
    let rank = [-14, -2, 6, 10, 14, 20, 28, 32, 18, 0][rr as usize];
    (file + rank, (file + rank) / 2)
}

const fn rook_square(rr: i32, fc: i32) -> (i32, i32) {
    let rank = [-12, 0, 0, 2, 6, 12, 20, 16, 12, 4][rr as usize];
    let file = [-6, 0, 2, 10, 6][fc as usize];
    (rank + file, (rank + file) / 2)
}

const fn cannon_square(rr: i32, fc: i32) -> (i32, i32) {
    // The central file is the cannon's classic post; deep enemy points threaten the palace.
    let file = [-6, 0, 2, 6, 22][fc as usize];
    let rank = [0, 0, 4, 2, 0, 2, 4, 2, 4, 10][rr as usize];
    (file + rank, (file + rank) / 3)
}

const fn square_value(kind: PieceKind, rr: i32, fc: i32) -> (i32, i32) {
    match kind {
        PieceKind::King => king_square(rr, fc),
        PieceKind::Advisor => advisor_square(rr, fc),
        PieceKind::Elephant => elephant_square(rr, fc),
        PieceKind::Horse => horse_square(rr, fc),
        PieceKind::Rook => rook_square(rr, fc),
        PieceKind::Cannon => cannon_square(rr, fc),
        // Pawn advancement is its own term.
        PieceKind::Pawn => (0, 0),
    }
}

const fn build() -> [[[(i32, i32); 256]; 7]; 2] {
    let mut t = [[[(0, 0); 256]; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let mut r = 0;
            while r < 10 {
                let mut f = 0;
                while f < 9 {
                    let rr = if c == 0 { r } else { 9 - r };
                    let fc = if f < 4 { f } else { 8 - f };
                    t[c][k][Square::new(f as u8, r as u8).index()] = square_value(PieceKind::ALL[k], rr, fc);
                    f += 1;
                }
                r += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

static PST: [[[(i32, i32); 256]; 7]; 2] = build();

/// Piece-square value (midgame, endgame) of a `color` `kind` on `sq`, from its owner's view.
#[inline]
pub fn square_bonus(color: Color, kind: PieceKind, sq: Square) -> (i32, i32) {
    PST[color.index()][kind.index()][sq.index()]
}
