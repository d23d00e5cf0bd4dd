//! FEN parsing, printing and validation.

use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::square::Square;
use super::tables::in_palace;
use super::zobrist;
use std::fmt;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why FEN text could not be read as a placement, side to move and counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenParseError {
    /// No fields at all.
    Empty,
    /// More than six fields (the count).
    TooManyFields(usize),
    /// A placement without ten ranks (the count).
    RankCount(usize),
    /// A `0` digit in a rank.
    ZeroDigit {
        /// The rank (0..9).
        rank: u8,
    },
    /// A rank with more than nine files.
    RankTooLong {
        /// The rank (0..9).
        rank: u8,
    },
    /// A rank with fewer than nine files.
    RankTooShort {
        /// The rank (0..9).
        rank: u8,
        /// How many files it has.
        files: u32,
    },
    /// A character that is neither a digit nor a piece letter.
    BadLetter {
        /// The rank (0..9).
        rank: u8,
        /// The character.
        letter: char,
    },
    /// A side to move other than w, r or b (its first 8 characters).
    BadSide(String),
    /// A move counter that is not a number from 0 to 65535.
    BadNumber {
        /// "ply count" or "move number".
        field: &'static str,
        /// The field's first 8 characters.
        text: String,
    },
}

impl fmt::Display for FenParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenParseError::Empty => write!(f, "empty FEN"),
            FenParseError::TooManyFields(n) => write!(f, "too many fields ({n}, at most 6)"),
            FenParseError::RankCount(n) => write!(f, "{n} ranks, expected 10"),
            FenParseError::ZeroDigit { rank } => write!(f, "digit 0 in rank {rank}"),
            FenParseError::RankTooLong { rank } => write!(f, "rank {rank} has more than 9 files"),
            FenParseError::RankTooShort { rank, files } => write!(f, "rank {rank} has {files} files, expected 9"),
            FenParseError::BadLetter { rank, letter } => {
                write!(f, "unknown piece letter '{}' in rank {rank}", letter.escape_debug())
            }
            FenParseError::BadSide(text) => write!(f, "side to move '{text}', expected w, r or b"),
            FenParseError::BadNumber { field, text } => write!(f, "{field} '{text}' is not a number from 0 to 65535"),
        }
    }
}

impl std::error::Error for FenParseError {}

/// Why a parsed position cannot be played: the pieces, kings or checks break the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// More pieces of a kind than the set holds.
    TooMany {
        /// Whose pieces.
        color: Color,
        /// Which kind.
        kind: PieceKind,
    },
    /// A king outside its own palace (the one point a king can never be; every other piece
    /// may stand anywhere, as in composed positions).
    KingOutsidePalace {
        /// Whose king.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// A side without its king.
    MissingKing(Color),
    /// The kings face each other on an open file.
    KingsFacing,
    /// The side not to move is in check (the given side is the one to move).
    OpponentInCheck(Color),
    /// Two pieces on one point, or a piece off the board (only from a piece list).
    BadPoint(Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::TooMany { color, kind } => {
                let n = kind.set_count();
                let plural = if n > 1 { "s" } else { "" };
                write!(f, "{} has more than {n} {}{plural}; the set has {n}", color.name(), kind.name())
            }
            PositionError::KingOutsidePalace { color, square } => {
                write!(f, "{} king on {square}, outside its palace", color.name())
            }
            PositionError::MissingKing(color) => write!(f, "{} king is missing", color.name()),
            PositionError::KingsFacing => write!(f, "the kings face each other on an open file"),
            PositionError::OpponentInCheck(side) => {
                write!(f, "{} is in check but it is {} to move", side.opp().name(), side.name())
            }
            PositionError::BadPoint(square) => write!(f, "two pieces on {square}, or a piece off the board"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why `Position::from_fen` rejected a FEN: unreadable text, or an impossible position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is not a FEN.
    Parse(FenParseError),
    /// The FEN is read but the position is illegal.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Parse(e) => write!(f, "invalid FEN: {e}"),
            FenError::Position(e) => write!(f, "invalid FEN: {e}"),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Parse(e) => Some(e),
            FenError::Position(e) => Some(e),
        }
    }
}

impl From<FenParseError> for FenError {
    fn from(e: FenParseError) -> FenError {
        FenError::Parse(e)
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// FEN text read but not yet checked: pieces in text order, side to move, counters.
struct ParsedFen {
    pieces: Vec<(Square, Piece)>,
    side: Color,
    halfmove: u16,
    fullmove: u16,
}

/// The first 8 characters of `text`, for an error message.
fn shown(text: &str) -> String {
    text.chars().take(8).collect()
}

impl ParsedFen {
    /// Reads the fields of `fen` (the last four are optional).
    fn parse(fen: &str) -> Result<ParsedFen, FenParseError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenParseError::Empty);
        }
        if fields.len() > 6 {
            return Err(FenParseError::TooManyFields(fields.len()));
        }
        let pieces = Self::placement(fields[0])?;
        let side = match fields.get(1).copied() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(other) => return Err(FenParseError::BadSide(shown(other))),
        };
        let number = |idx: usize, field: &'static str, default: u16| match fields.get(idx) {
            None => Ok(default),
            Some(t) => t.parse::<u16>().map_err(|_| FenParseError::BadNumber { field, text: shown(t) }),
        };
        let halfmove = number(4, "ply count", 0)?;
        let fullmove = number(5, "move number", 1)?.max(1);
        Ok(ParsedFen { pieces, side, halfmove, fullmove })
    }

    /// Reads the placement field: ten ranks of nine files, rank 9 first.
    fn placement(field: &str) -> Result<Vec<(Square, Piece)>, FenParseError> {
        let ranks: Vec<&str> = field.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenParseError::RankCount(ranks.len()));
        }
        let mut pieces = Vec::with_capacity(32);
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file: u32 = 0;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 {
                        return Err(FenParseError::ZeroDigit { rank });
                    }
                    file += d;
                } else if let Some(kind) = PieceKind::from_letter(ch) {
                    if file >= 9 {
                        return Err(FenParseError::RankTooLong { rank });
                    }
                    let color = if ch.is_ascii_uppercase() { Color::Red } else { Color::Black };
                    pieces.push((Square::new(file as u8, rank), Piece::new(color, kind)));
                    file += 1;
                } else {
                    return Err(FenParseError::BadLetter { rank, letter: ch });
                }
                if file > 9 {
                    return Err(FenParseError::RankTooLong { rank });
                }
            }
            if file != 9 {
                return Err(FenParseError::RankTooShort { rank, files: file });
            }
        }
        Ok(pieces)
    }

    /// The position, if it can be played.
    fn into_position(self) -> Result<Position, PositionError> {
        let mut pos = Position::empty();
        for (sq, piece) in self.pieces {
            if !pos.is_empty(sq) {
                return Err(PositionError::BadPoint(sq));
            }
            let (color, kind) = (piece.color(), piece.kind());
            if !pos.put(sq, piece) {
                return Err(PositionError::TooMany { color, kind });
            }
            // Only the king is bound to its points: a composed position (排局) may put any
            // other piece anywhere, and move generation handles every point.
            if kind == PieceKind::King && !in_palace(sq, color) {
                return Err(PositionError::KingOutsidePalace { color, square: sq });
            }
        }
        pos.side = self.side;
        if pos.side == Color::Black {
            pos.key ^= zobrist::SIDE;
        }
        pos.halfmove = self.halfmove;
        pos.fullmove = self.fullmove;
        for color in [Color::Red, Color::Black] {
            if pos.count(color, PieceKind::King) == 0 {
                return Err(PositionError::MissingKing(color));
            }
        }
        let (rk, bk) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
        if rk.file() == bk.file() && (rk.rank() + 1..bk.rank()).all(|r| pos.is_empty(Square::new(rk.file(), r))) {
            return Err(PositionError::KingsFacing);
        }
        if pos.king_attacked(pos.side.opp()) {
            return Err(PositionError::OpponentInCheck(pos.side));
        }
        Ok(pos)
    }
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("start FEN is valid")
    }

    /// Parses and validates a FEN: `FenError::Parse` for text that is not a FEN,
    /// `FenError::Position` for a position that cannot be played (composed positions with
    /// pieces on points no game reaches are accepted).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(ParsedFen::parse(fen)?.into_position()?)
    }

    /// The position with `pieces` placed and `side` to move, checked as a FEN's would be (for
    /// readers of packed positions, such as training data).
    pub fn from_pieces(
        pieces: &[(Square, Piece)],
        side: Color,
        halfmove: u16,
        fullmove: u16,
    ) -> Result<Position, PositionError> {
        let parsed = ParsedFen { pieces: pieces.to_vec(), side, halfmove, fullmove: fullmove.max(1) };
        parsed.into_position()
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

    /// The colour-mirrored position (Pikafish's `flip`): ranks reversed, Red and Black
    /// swapped, the other side to move, the counters kept. Files stay, so `e0` becomes `e9`.
    pub fn flipped(&self) -> Result<Position, PositionError> {
        let pieces: Vec<(Square, Piece)> = [Color::Red, Color::Black]
            .into_iter()
            .flat_map(|c| {
                self.pieces(c).map(move |(kind, sq)| (Square::new(sq.file(), 9 - sq.rank()), Piece::new(c.opp(), kind)))
            })
            .collect();
        Position::from_pieces(&pieces, self.side.opp(), self.halfmove, self.fullmove)
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
    fn flipping_mirrors_colours_and_twice_is_the_same() {
        let fen = "2bak4/4a4/4b4/2P5P/3RN4/9/r8/2n6/9/3AKA3 w - - 7 41";
        let p = Position::from_fen(fen).unwrap();
        let f = p.flipped().unwrap();
        assert_eq!(f.to_fen(), "3aka3/9/2N6/R8/9/3rn4/2p5p/4B4/4A4/2BAK4 b - - 7 41");
        assert_eq!(f.flipped().unwrap().to_fen(), fen);
        assert_eq!(Position::startpos().flipped().unwrap().to_fen().split(' ').next(), Some(START_BOARD_FLIPPED));
    }

    /// The start position mirrored is the start position's board again.
    const START_BOARD_FLIPPED: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

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
        rejects("k8/9/9/9/9/9/9/9/9/3K5 w", "Black king on a9, outside its palace");
        rejects("9/9/9/9/9/9/9/9/4K4/3k5 w", "Black king on d0, outside its palace");
        rejects("4k4/4K4/9/9/9/9/9/9/9/9 w", "Red king on e8, outside its palace");
        rejects("3k5/9/9/9/9/9/9/9/PPPPPP3/4K4 w", "more than 5 pawns");
        rejects("3k5/9/9/9/9/9/9/9/9/AAA1K4 w", "more than 2 advisors");
        rejects("4k4/9/9/9/9/9/9/9/9/4K4 w", "kings face");
        rejects("3k5/9/9/9/9/9/9/9/4r4/4K4 b - - 0 1", "Red is in check but it is Black to move");
        rejects("3k5/9/9/9/9/9/9/9/3R5/4K4 w - - 0 1", "Black is in check but it is Red to move");
        rejects("4k4/9/9/9/9/9/9/9/9/3K5 x", "side to move 'x'");
        rejects("4k4/9/9/9/9/9/9/9/9/3K5 w - - a 1", "ply count 'a'");
        rejects("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 extra", "too many fields");
        rejects("4k4/9/9/9/9/9/9/9/9/3K0 w", "digit 0");
    }

    #[test]
    fn composed_positions_are_accepted() {
        // Pieces on points no game reaches: each one alone, then all at once.
        for fen in [
            "3k5/9/9/9/9/9/9/9/3A5/4K4 w", // advisor off the palace diagonals
            "3k5/9/9/9/4A4/9/9/9/9/4K4 w", // advisor outside the palace
            "3k5/4A4/9/9/9/9/9/9/9/4K4 w", // advisor in the enemy palace
            "3k5/9/9/9/9/9/9/9/9/B3K4 w",  // elephant off its seven points
            "3k5/9/9/2B6/9/9/9/9/9/4K4 w", // elephant across the river
            "3k5/9/9/9/9/9/9/9/P8/4K4 w",  // pawn behind its start rank
            "3k5/9/9/9/9/9/1P7/9/9/4K4 w", // pawn before the river off its start files
            "3kp4/9/9/9/9/9/9/9/9/4K4 w",  // Black pawn on its own back rank
            "3k5/9/9/9/9/9/9/9/9/4K3p w",  // Black pawn on Red's back rank
            "3k4P/9/9/9/9/9/9/9/9/4K4 b",  // Red pawn on Black's back rank
        ] {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(pos.key(), pos.compute_key(), "{fen}");
        }
        let all = "1P1kp1a2/4A4/2b6/2B6/9/9/1P7/9/3A5/a3K3p w - - 0 1";
        assert_eq!(Position::from_fen(all).unwrap().to_fen(), all);
    }

    #[test]
    fn text_and_position_errors_are_told_apart() {
        use FenParseError::*;
        let parse = |e| Err(FenError::Parse(e));
        let junk: [(&str, Result<Position, FenError>); 7] = [
            ("/////////", parse(RankTooShort { rank: 9, files: 0 })),
            ("99999999999", parse(RankCount(1))),
            ("k", parse(RankCount(1))),
            ("\u{0}\u{ffff}", parse(RankCount(1))),
            ("10/9/9/9/9/9/9/9/9/9", parse(ZeroDigit { rank: 9 })),
            ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 x", parse(BadNumber { field: "move number", text: "x".into() })),
            ("rnbakabnr/9/9/9/9/9/9/9/9/9 w", Err(FenError::Position(PositionError::MissingKing(Color::Red)))),
        ];
        for (fen, want) in junk {
            assert_eq!(Position::from_fen(fen), want, "{fen:?}");
        }
        // Text is read whole before the position is judged: a bad letter after an extra king
        // is a parse error.
        let both = "kk7/9/9/9/9/9/9/9/9/3K4X w";
        assert_eq!(Position::from_fen(both), parse(BadLetter { rank: 0, letter: 'X' }));
        let facing = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w");
        assert_eq!(facing, Err(FenError::Position(PositionError::KingsFacing)));
    }
}
