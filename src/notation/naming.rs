//! What WXF and Chinese notation both write: a piece (by its file, or by its place among the
//! pieces of its kind that share a file), a direction and a number, all from the mover's side
//! of the board. `describe` turns a move into that; `resolve` finds the legal moves a written
//! one names.

use crate::board::{Color, Move, PieceKind, Position, Square};

/// Forward (进, `+`), back (退, `-`) or along the rank (平, `=`), from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dir {
    Forward,
    Back,
    Across,
}

/// A tandem piece's place: 前/中/后 (`+`, middle, `-`) or numbered from the first (一..五, `a`..`e`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    Front,
    Middle,
    Rear,
    Nth(u8),
}

/// How a written move picks its piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pick {
    /// By its file, 1..9 from the mover's right. On a file with 3 or 5 of the kind it is the
    /// middle one (WXF); on a file with 2 or 4 whichever can make the move, if only one can.
    File(u8),
    /// Among the tandem pieces (every piece of the kind that shares its file with another),
    /// ordered right file first, then front to rear (xqbase's rule).
    Tandem(Place),
    /// WXF's letter-first `C+`/`C-` (Chinese 车前/车后): front or rear; among 4 or 5 pawns on
    /// one file the second from the front or rear (the WXF's published tandem-pawn rule).
    Beside(bool),
    /// A place within one file: WXF `3+.4`, `33.4`, `3-.4`; Chinese 前兵三平四.
    OnFile(u8, Place),
}

/// A move as the notations write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Written {
    pub kind: PieceKind,
    pub pick: Pick,
    pub dir: Dir,
    /// Steps for a straight move forward or back, else the destination file.
    pub number: u8,
}

/// Whether the kind moves on diagonals (its number is always a file).
fn slanting(kind: PieceKind) -> bool {
    matches!(kind, PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse)
}

/// File number 1..9 from `side`'s right.
pub(super) fn file_no(side: Color, sq: Square) -> u8 {
    match side {
        Color::Red => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// How far forward from `side`'s back rank, 0..9.
fn ahead(side: Color, sq: Square) -> i8 {
    match side {
        Color::Red => sq.rank() as i8,
        Color::Black => 9 - sq.rank() as i8,
    }
}

/// The point on `side`'s file `file` (1..9), `ahead` ranks from its back rank.
fn point(side: Color, file: u8, ahead: i8) -> Option<Square> {
    if !(1..=9).contains(&file) || !(0..=9).contains(&ahead) {
        return None;
    }
    Some(match side {
        Color::Red => Square::new(9 - file, ahead as u8),
        Color::Black => Square::new(file - 1, 9 - ahead as u8),
    })
}

/// The side to move's pieces of `kind` on files holding at least `min` of them, right file
/// first, then front to rear.
fn sorted(pos: &Position, kind: PieceKind, min: usize) -> Vec<Square> {
    let side = pos.side_to_move();
    let all: Vec<Square> = pos.squares_of(side, kind).collect();
    let mut out: Vec<Square> =
        all.iter().copied().filter(|&s| all.iter().filter(|&&t| t.file() == s.file()).count() >= min).collect();
    out.sort_by_key(|&s| (file_no(side, s), -ahead(side, s)));
    out
}

/// The pieces of `kind` on the mover's file `file`, front to rear.
fn on_file(pos: &Position, kind: PieceKind, file: u8) -> Vec<Square> {
    let side = pos.side_to_move();
    sorted(pos, kind, 1).into_iter().filter(|&s| file_no(side, s) == file).collect()
}

/// Index of `place` among `n` pieces ordered front to rear.
fn index(place: Place, n: usize) -> Option<usize> {
    let i = match place {
        Place::Front if n >= 2 => 0,
        Place::Rear if n >= 2 => n - 1,
        Place::Middle if n >= 3 && n % 2 == 1 => n / 2,
        Place::Nth(k) if k >= 1 && usize::from(k) <= n => usize::from(k) - 1,
        _ => return None,
    };
    Some(i)
}

/// The place of piece `i` among `n` tandem pieces, as xqbase writes it.
fn place_of(i: usize, n: usize) -> Place {
    match (n, i) {
        (2, 0) | (3, 0) => Place::Front,
        (2, _) => Place::Rear,
        (3, 1) => Place::Middle,
        (3, _) => Place::Rear,
        _ => Place::Nth(i as u8 + 1),
    }
}

/// The point a piece of `kind` on `from` reaches going `dir` with `number`, if it exists.
fn target(side: Color, kind: PieceKind, from: Square, dir: Dir, number: u8) -> Option<Square> {
    let (file, rank) = (file_no(side, from), ahead(side, from));
    let sign = match dir {
        Dir::Forward => 1,
        Dir::Back => -1,
        Dir::Across if slanting(kind) => return None,
        Dir::Across => return (number != file).then(|| point(side, number, rank)).flatten(),
    };
    if !slanting(kind) {
        return point(side, file, rank + sign * number as i8);
    }
    let dx = file.abs_diff(number);
    let dy = match (kind, dx) {
        (PieceKind::Horse, 1) => 2,
        (PieceKind::Horse, 2) => 1,
        (PieceKind::Advisor, 1) => 1,
        (PieceKind::Elephant, 2) => 2,
        _ => return None,
    };
    point(side, number, rank + sign * dy)
}

/// The legal moves of the side to move that `w` names (more than one: ambiguous).
pub(super) fn resolve(pos: &Position, w: &Written) -> Vec<Move> {
    let side = pos.side_to_move();
    let origins: Vec<Square> = match w.pick {
        Pick::File(f) => {
            let s = on_file(pos, w.kind, f);
            if s.len() >= 3 && s.len() % 2 == 1 {
                vec![s[s.len() / 2]]
            } else {
                s
            }
        }
        Pick::Tandem(place) => {
            let g = sorted(pos, w.kind, 2);
            index(place, g.len()).map(|i| g[i]).into_iter().collect()
        }
        Pick::Beside(front) => {
            let g = sorted(pos, w.kind, 2);
            let one_file = g.iter().all(|s| s.file() == g[0].file());
            let i = match (one_file && g.len() >= 4, front) {
                (true, true) => Some(1),
                (true, false) => Some(g.len() - 2),
                (false, true) => index(Place::Front, g.len()),
                (false, false) => index(Place::Rear, g.len()),
            };
            i.map(|i| g[i]).into_iter().collect()
        }
        Pick::OnFile(f, place) => {
            let s = on_file(pos, w.kind, f);
            index(place, s.len()).map(|i| s[i]).into_iter().collect()
        }
    };
    origins
        .into_iter()
        .filter_map(|from| target(side, w.kind, from, w.dir, w.number).map(|to| Move::new(from, to)))
        .filter(|&m| pos.is_legal(m))
        .collect()
}

/// How the notations write `m`, a move of the side to move; `None` when no piece of the side
/// to move stands on its origin or the move is no move of that piece's kind.
pub(super) fn describe(pos: &Position, m: Move) -> Option<Written> {
    let side = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    if !from.on_board() || !to.on_board() {
        return None;
    }
    let piece = pos.piece_at(from).filter(|p| p.color() == side)?;
    let kind = piece.kind();
    let (ff, fa, tf, ta) = (file_no(side, from), ahead(side, from), file_no(side, to), ahead(side, to));
    let dir = match ta.cmp(&fa) {
        std::cmp::Ordering::Greater => Dir::Forward,
        std::cmp::Ordering::Less => Dir::Back,
        std::cmp::Ordering::Equal => Dir::Across,
    };
    let number = if slanting(kind) || dir == Dir::Across { tf } else { ta.abs_diff(fa) };
    let mut w = Written { kind, pick: Pick::File(ff), dir, number };
    if target(side, kind, from, dir, number) != Some(to) {
        return None;
    }
    let tandem = || {
        let g = sorted(pos, kind, 2);
        g.iter().position(|&s| s == from).map(|i| Pick::Tandem(place_of(i, g.len())))
    };
    w.pick = match kind {
        PieceKind::King => w.pick,
        // Advisors and elephants keep their file (A6+5 names one move) unless two on the file
        // could make it, which only composed positions allow.
        PieceKind::Advisor | PieceKind::Elephant if resolve(pos, &w).len() <= 1 => w.pick,
        _ => tandem().unwrap_or(w.pick),
    };
    Some(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_points_from_each_side() {
        let h2 = Square::parse("h2").unwrap();
        assert_eq!((file_no(Color::Red, h2), ahead(Color::Red, h2)), (2, 2));
        assert_eq!((file_no(Color::Black, h2), ahead(Color::Black, h2)), (8, 7));
        for sq in Square::all() {
            for side in [Color::Red, Color::Black] {
                assert_eq!(point(side, file_no(side, sq), ahead(side, sq)), Some(sq));
            }
        }
        assert_eq!(point(Color::Red, 0, 0), None);
        assert_eq!(point(Color::Red, 1, 10), None);
    }

    #[test]
    fn places_count_front_to_rear() {
        assert_eq!((0..2).map(|i| place_of(i, 2)).collect::<Vec<_>>(), [Place::Front, Place::Rear]);
        assert_eq!((0..3).map(|i| place_of(i, 3)).collect::<Vec<_>>(), [Place::Front, Place::Middle, Place::Rear]);
        assert_eq!(place_of(3, 4), Place::Nth(4));
        for n in 2..=5 {
            for i in 0..n {
                assert_eq!(index(place_of(i, n), n), Some(i));
            }
        }
        assert_eq!(index(Place::Middle, 4), None);
        assert_eq!(index(Place::Front, 1), None);
        assert_eq!(index(Place::Nth(6), 5), None);
    }
}
