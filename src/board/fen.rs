//! FEN parsing, printing and validation.

use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::square::Square;
use super::tables::{in_palace, own_half};
use super::zobrist;
use std::fmt;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN string was rejected: a one-line message naming the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

/// Whether a piece of `color` and `kind` can ever stand on `sq` under the rules of movement.
pub(crate) fn reachable(color: Color, kind: PieceKind, sq: Square) -> bool {
    // Mirror Black onto Red's side so one set of rules serves both.
    let s = if color == Color::Red { sq } else { sq.flip() };
    let (f, r) = (s.file(), s.rank());
    match kind {
        PieceKind::King => in_palace(s, Color::Red),
        PieceKind::Advisor => in_palace(s, Color::Red) && (f + r) % 2 == 1,
        PieceKind::Elephant => own_half(s, Color::Red) && r % 2 == 0 && f % 2 == 0 && (f / 2 + r / 2) % 2 == 1,
        // Before the river a pawn only moves forward from its start file a, c, e, g or i.
        PieceKind::Pawn => r >= 5 || (r >= 3 && f % 2 == 0),
        _ => true,
    }
}

impl Position {
    /// Parses and validates a FEN; see `FenError` for what is rejected.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return err("empty FEN");
        }
        if fields.len() > 6 {
            return err(format!("too many fields ({}, at most 6)", fields.len()));
        }
        let mut pos = Position::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 10 {
            return err(format!("{} ranks, expected 10", ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file: u32 = 0;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 {
                        return err(format!("digit 0 in rank {rank}"));
                    }
                    file += d;
                } else if let Some(kind) = PieceKind::from_letter(ch) {
                    if file >= 9 {
                        return err(format!("rank {rank} has more than 9 files"));
                    }
                    let color = if ch.is_ascii_uppercase() { Color::Red } else { Color::Black };
                    let sq = Square::new(file as u8, rank);
                    let piece = Piece::new(color, kind);
                    if !pos.put(sq, piece) {
                        return err(format!(
                            "{} has more than {} {}{}; the set has {}",
                            color.name(),
                            kind.set_count(),
                            kind.name(),
                            if kind.set_count() > 1 { "s" } else { "" },
                            kind.set_count()
                        ));
                    }
                    if !reachable(color, kind, sq) {
                        return err(format!("{} {} on {sq}, a point it can never reach", color.name(), kind.name()));
                    }
                    file += 1;
                } else {
                    let shown: String = ch.escape_debug().collect();
                    return err(format!("unknown piece letter '{shown}' in rank {rank}"));
                }
                if file > 9 {
                    return err(format!("rank {rank} has more than 9 files"));
                }
            }
            if file != 9 {
                return err(format!("rank {rank} has {file} files, expected 9"));
            }
        }
        pos.side = match fields.get(1).copied() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(other) => {
                let shown: String = other.chars().take(8).collect();
                return err(format!("side to move '{shown}', expected w, r or b"));
            }
        };
        if pos.side == Color::Black {
            pos.key ^= zobrist::SIDE;
        }
        let number = |idx: usize, name: &str, default: u16| -> Result<u16, FenError> {
            match fields.get(idx) {
                None => Ok(default),
                Some(t) => t.parse::<u16>().map_err(|_| {
                    let shown: String = t.chars().take(8).collect();
                    FenError(format!("{name} '{shown}' is not a number from 0 to 65535"))
                }),
            }
        };
        pos.halfmove = number(4, "ply count", 0)?;
        pos.fullmove = number(5, "move number", 1)?.max(1);
        for color in [Color::Red, Color::Black] {
            if pos.count(color, PieceKind::King) == 0 {
                return err(format!("{} king is missing", color.name()));
            }
        }
        let (rk, bk) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
        if rk.file() == bk.file()
            && (rk.rank() + 1..bk.rank()).all(|r| pos.piece_at(Square::new(rk.file(), r)).is_none())
        {
            return err("the kings face each other on an open file");
        }
        if pos.king_attacked(pos.side.opp()) {
            return err(format!("{} is in check but it is {} to move", pos.side.opp().name(), pos.side.name()));
        }
        Ok(pos)
    }

    /// The FEN of this position (UCCI letters, `w`/`b`, fields 3 and 4 as `-`).
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for r in (0..10u8).rev() {
            let mut gap = 0;
            for f in 0..9u8 {
                match self.piece_at(Square::new(f, r)) {
                    None => gap += 1,
                    Some(p) => {
                        if gap > 0 {
                            out.push(char::from(b'0' + gap));
                            gap = 0;
                        }
                        out.push(p.letter());
                    }
                }
            }
            if gap > 0 {
                out.push(char::from(b'0' + gap));
            }
            if r > 0 {
                out.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        out.push_str(&format!(" {side} - - {} {}", self.halfmove, self.fullmove));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rejects(fen: &str, needle: &str) {
        match Position::from_fen(fen) {
            Ok(_) => panic!("accepted bad FEN {fen}"),
            Err(e) => assert!(e.to_string().contains(needle), "{fen}: '{e}' lacks '{needle}'"),
        }
    }

    #[test]
    fn start_round_trip() {
        let p = Position::startpos();
        assert_eq!(p.to_fen(), START_FEN);
        assert_eq!(p.key(), p.compute_key());
    }

    #[test]
    fn accepts_variants() {
        let short = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR").unwrap();
        assert_eq!(short.to_fen(), START_FEN);
        let eh = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r").unwrap();
        assert_eq!(eh.to_fen(), START_FEN);
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12").unwrap();
        assert_eq!(black.side_to_move(), Color::Black);
        assert_eq!(black.halfmove_clock(), 7);
        assert_eq!(black.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12");
        assert_eq!(black.key(), black.compute_key());
    }

    #[test]
    fn rejects_each_problem() {
        rejects("", "empty");
        rejects("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "9 ranks");
        rejects("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w", "11 ranks");
        rejects("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "8 files");
        rejects("rnbakabnr/9/1c5c2/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "more than 9 files");
        rejects("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unknown piece letter 'X'");
        rejects("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "Black king is missing");
        rejects("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "more than 1 king");
        rejects("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2R2C1/9/RNBAKABNR w", "more than 2 rooks");
        rejects("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", "Red king is missing");
        rejects("k8/9/9/9/9/9/9/9/9/3K5 w", "Black king on a9");
        rejects("4k4/9/9/9/9/9/9/9/3A5/4K4 w", "Red advisor on d1");
        rejects("4k4/9/9/9/9/9/9/9/9/B2K5 w", "Red elephant on a0");
        rejects("4k4/9/9/9/9/9/9/9/P8/3K5 w", "Red pawn on a1");
        rejects("4k4/9/9/9/9/9/1P7/9/9/3K5 w", "Red pawn on b3");
        rejects("4k4/9/9/9/9/9/9/9/9/4K4 w", "kings face");
        rejects("3k5/9/9/9/9/9/9/9/4r4/4K4 b - - 0 1", "Red is in check but it is Black to move");
        rejects("3k5/9/9/9/9/9/9/9/3R5/4K4 w - - 0 1", "Black is in check but it is Red to move");
        rejects("4k4/9/9/9/9/9/9/9/9/3K5 x", "side to move 'x'");
        rejects("4k4/9/9/9/9/9/9/9/9/3K5 w - - a 1", "ply count 'a'");
        rejects("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 extra", "too many fields");
        rejects("4k4/9/9/9/9/9/9/9/9/3K0 w", "digit 0");
    }

    #[test]
    fn reachable_points() {
        let count = |kind| Square::all().filter(|&s| reachable(Color::Red, kind, s)).count();
        assert_eq!(count(PieceKind::King), 9);
        assert_eq!(count(PieceKind::Advisor), 5);
        assert_eq!(count(PieceKind::Elephant), 7);
        assert_eq!(count(PieceKind::Pawn), 55);
        assert!(reachable(Color::Black, PieceKind::Elephant, Square::parse("c9").unwrap()));
        assert!(reachable(Color::Black, PieceKind::Pawn, Square::parse("a6").unwrap()));
        assert!(!reachable(Color::Black, PieceKind::Pawn, Square::parse("b6").unwrap()));
    }

    #[test]
    fn never_panics_on_junk() {
        for junk in
            ["/////////", "99999999999", "k", "rnbakabnr/9/9/9/9/9/9/9/9/9 w", "\u{0}\u{ffff}", "10/9/9/9/9/9/9/9/9/9"]
        {
            assert!(Position::from_fen(junk).is_err());
        }
    }
}
