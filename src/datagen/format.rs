//! The training-data file format (version 1), byte by byte in `docs/datagen.md`: a 40-byte
//! header, then 40-byte records, all little-endian. A header may appear again between records,
//! so files concatenate (`cat a b > c`). A header block is told from a record by byte 11:
//! 0xFF in a header, at most 3 in a record (the top byte of the 90-bit occupancy).

use crate::board::{Color, Move, Piece, Position, Square};
use crate::bytes::{i16_at, u16_at, u32_at, u64_at};
use crate::rules::GameResult;
use std::fmt;
use std::io::{self, Write};

/// The first 8 bytes of a header.
pub const MAGIC: [u8; 8] = *b"CHUHEDAT";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// The chained format's version (`chain.rs`): its header is version 1's, checksummed.
pub const CHAINED_VERSION: u16 = 2;
/// Bytes per record, and per header.
pub const RECORD_SIZE: usize = 40;
/// Byte 11 of a header (a record's byte 11 is at most 3).
const HEADER_MARK: u8 = 0xFF;
/// Stored scores are clamped to ±this; mates and rule wins are stored as ±this.
pub const SCORE_LIMIT: i16 = 10_000;

/// Record flag: Black is to move.
pub const FLAG_BLACK_TO_MOVE: u8 = 1;
/// Record flag: the side to move is in check.
pub const FLAG_IN_CHECK: u8 = 2;
/// Record flag: the best move captures.
pub const FLAG_CAPTURE: u8 = 4;
/// Record flag: the score is a mate or a win by the rules (stored as ±`SCORE_LIMIT`).
pub const FLAG_DECISIVE: u8 = 8;
/// Record flag: not a quiet position (in check, capture or decisive): kept only by `--keep all`.
pub const FLAG_NOT_QUIET: u8 = 16;
/// Record flag: the first record written for its game.
pub const FLAG_GAME_START: u8 = 32;

coded_enum! {
    /// How a game ended: the rule or the adjudication (byte 39 of a record).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum End {
        /// Both sides' searches agreed on a decisive score (`Adjudication::win_*`).
        AdjudicatedWin = 0,
        /// Late in the game, scores stayed near zero (`Adjudication::draw_*`).
        AdjudicatedDraw = 1,
        /// The game reached the length limit: a draw.
        MaxLength = 2,
        /// Checkmate.
        Checkmate = 3,
        /// Stalemate (the side to move loses).
        Stalemate = 4,
        /// Perpetual check (the checker loses).
        PerpetualCheck = 5,
        /// Perpetual chase (the chaser loses).
        PerpetualChase = 6,
        /// Repetition without a forbidden perpetual: a draw.
        Repetition = 7,
        /// 60 moves without a capture: a draw.
        MoveLimit = 8,
        /// Neither side can mate: a draw.
        InsufficientMaterial = 9,
    }
}

impl End {
    /// The ending of a rules verdict (`IllegalMove` cannot occur in self-play).
    pub fn of_rule(rule: crate::rules::Rule) -> End {
        use crate::rules::Rule;
        match rule {
            Rule::Checkmate | Rule::IllegalMove => End::Checkmate,
            Rule::Stalemate => End::Stalemate,
            Rule::PerpetualCheck => End::PerpetualCheck,
            Rule::PerpetualChase => End::PerpetualChase,
            Rule::Repetition => End::Repetition,
            Rule::MoveLimit => End::MoveLimit,
            Rule::InsufficientMaterial => End::InsufficientMaterial,
        }
    }

    /// Whether the result came from scores or the length limit rather than the rules.
    pub fn adjudicated(self) -> bool {
        matches!(self, End::AdjudicatedWin | End::AdjudicatedDraw | End::MaxLength)
    }

    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            End::AdjudicatedWin => "adjudicated win",
            End::AdjudicatedDraw => "adjudicated draw",
            End::MaxLength => "length limit",
            End::Checkmate => "checkmate",
            End::Stalemate => "stalemate",
            End::PerpetualCheck => "perpetual check",
            End::PerpetualChase => "perpetual chase",
            End::Repetition => "repetition",
            End::MoveLimit => "60-move rule",
            End::InsufficientMaterial => "insufficient material",
        }
    }
}

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position (its halfmove clock is stored; the full-move number is derived from `ply`).
    pub position: Position,
    /// Search score in centipawns from the side to move's view, within ±`SCORE_LIMIT`.
    pub score: i16,
    /// The move the search chose.
    pub best: Move,
    /// Plies played in the game before this position (openings and random plies included).
    pub ply: u16,
    /// Plies the whole game lasted.
    pub game_plies: u16,
    /// The game's result.
    pub result: GameResult,
    /// `FLAG_*` bits.
    pub flags: u8,
    /// How the game ended.
    pub end: End,
}

/// Provenance written in every header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// Base seed of the run.
    pub seed: u64,
    /// Node budget per move (0: a depth limit).
    pub nodes: u32,
    /// Depth limit per move (0: a node budget).
    pub depth: u8,
    /// Random plies played before the engines take over.
    pub random_plies: u8,
    /// Whether every searched position is kept (else only quiet ones).
    pub keep_all: bool,
    /// Games the run was asked for.
    pub games: u32,
}

/// Why bytes are not a valid data file.
#[derive(Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Reading failed.
    Io(String),
    /// The file does not start with a header.
    NoHeader,
    /// A header block with the wrong magic, version or record size.
    BadHeader(String),
    /// The stream ends inside a block: where that block starts, and the bytes left over.
    Truncated(u64, usize),
    /// A record that does not decode to a legal position and move (its byte offset; in a
    /// chained file, its block's).
    BadRecord(u64, String),
    /// A chained file's block or end mark that fails its checksum or frame (its byte offset).
    Damaged(u64, String),
    /// A chained segment with no end mark: the byte where one was expected.
    Unfinished(u64),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Io(e) => write!(f, "read error: {e}"),
            FormatError::NoHeader => write!(f, "not a chuhe datagen file (no header)"),
            FormatError::BadHeader(why) => write!(f, "bad header: {why}"),
            FormatError::Truncated(at, n) => {
                write!(f, "truncated at byte {at}: {n} bytes after the last whole record (a cut or unfinished file)")
            }
            FormatError::BadRecord(at, why) => write!(f, "bad record at byte {at}: {why}"),
            FormatError::Damaged(at, why) => write!(f, "damaged at byte {at}: {why}"),
            FormatError::Unfinished(at) => {
                write!(f, "no end mark at byte {at}: a cut or unfinished file (a datagen run still going?)")
            }
        }
    }
}

impl std::error::Error for FormatError {}

/// Point index 0..89 of an on-board square: rank × 9 + file.
pub(crate) fn point(sq: Square) -> u16 {
    sq.rank() as u16 * 9 + sq.file() as u16
}

/// The square of point index `p` (< 90).
pub(crate) fn square(p: u16) -> Square {
    Square::new((p % 9) as u8, (p / 9) as u8)
}

impl Header {
    /// The 40 header bytes.
    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&VERSION.to_le_bytes());
        b[10] = RECORD_SIZE as u8;
        b[11] = HEADER_MARK;
        b[12..20].copy_from_slice(&self.seed.to_le_bytes());
        b[20..24].copy_from_slice(&self.nodes.to_le_bytes());
        b[24] = self.depth;
        b[25] = self.random_plies;
        b[26] = self.keep_all as u8;
        b[28..32].copy_from_slice(&self.games.to_le_bytes());
        b
    }

    /// The 40 header bytes of a chained (version 2) segment: version 1's fields, record
    /// size 0 (records have no fixed size), and a CRC-32 of bytes 0..36 in bytes 36..40.
    pub fn encode_chained(&self) -> [u8; RECORD_SIZE] {
        let mut b = self.encode();
        b[8..10].copy_from_slice(&CHAINED_VERSION.to_le_bytes());
        b[10] = 0;
        let crc = super::codes::crc32(0, &b[0..36]);
        b[36..40].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// The version of a header block: 1 (40-byte records) or 2 (chains).
    pub fn version(b: &[u8; RECORD_SIZE]) -> u16 {
        u16_at(b, 8)
    }

    /// Reads a header block (byte 11 is 0xFF) of either version.
    pub fn decode(b: &[u8; RECORD_SIZE]) -> Result<Header, FormatError> {
        if b[0..8] != MAGIC || b[11] != HEADER_MARK {
            return Err(FormatError::BadHeader("wrong magic bytes".into()));
        }
        let chained = CHAINED_VERSION;
        match Header::version(b) {
            VERSION if b[10] as usize != RECORD_SIZE => {
                return Err(FormatError::BadHeader(format!(
                    "record size {}, version {VERSION} has {RECORD_SIZE}",
                    b[10]
                )))
            }
            VERSION => {}
            v if v == chained => {
                if b[10] != 0 || super::codes::crc32(0, &b[0..36]) != u32_at(b, 36) {
                    return Err(FormatError::BadHeader("version 2 header fails its checksum".into()));
                }
            }
            v => return Err(FormatError::BadHeader(format!("version {v}, this build reads {VERSION} and {chained}"))),
        }
        Ok(Header {
            seed: u64_at(b, 12),
            nodes: u32_at(b, 20),
            depth: b[24],
            random_plies: b[25],
            keep_all: b[26] != 0,
            games: u32_at(b, 28),
        })
    }
}

impl Record {
    /// The 40 record bytes.
    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        // Occupancy (90 bits), then one 4-bit piece code per occupied point in point order.
        let mut occupancy = 0u128;
        let mut nibble = 0;
        for p in 0..90 {
            if let Some(piece) = self.position.piece_at(square(p)) {
                occupancy |= 1 << p;
                b[12 + nibble / 2] |= piece.0 << (4 * (nibble % 2));
                nibble += 1;
            }
        }
        b[0..12].copy_from_slice(&occupancy.to_le_bytes()[0..12]);
        b[28..30].copy_from_slice(&self.score.to_le_bytes());
        let mv = point(self.best.from()) | point(self.best.to()) << 7;
        b[30..32].copy_from_slice(&mv.to_le_bytes());
        b[32..34].copy_from_slice(&self.ply.to_le_bytes());
        b[34..36].copy_from_slice(&self.game_plies.to_le_bytes());
        b[36] = result_code(self.result);
        let black = self.position.side_to_move() == Color::Black;
        b[37] = (self.flags & !FLAG_BLACK_TO_MOVE) | if black { FLAG_BLACK_TO_MOVE } else { 0 };
        b[38] = self.position.halfmove_clock().min(255) as u8;
        b[39] = self.end as u8;
        b
    }

    /// Reads a record block: the position must be legal and the best move legal in it.
    pub fn decode(b: &[u8; RECORD_SIZE]) -> Result<Record, String> {
        let mut bytes = [0u8; 16];
        bytes[0..12].copy_from_slice(&b[0..12]);
        let occupancy = u128::from_le_bytes(bytes);
        if occupancy >> 90 != 0 || occupancy.count_ones() > 32 {
            return Err("bad occupancy bits".into());
        }
        let mut pieces = Vec::with_capacity(32);
        for (nibble, p) in (0..90u16).filter(|&p| occupancy >> p & 1 == 1).enumerate() {
            let code = b[12 + nibble / 2] >> (4 * (nibble % 2)) & 15;
            if code & 7 == 0 {
                return Err(format!("bad piece code {code}"));
            }
            pieces.push((square(p), Piece(code)));
        }
        let flags = b[37];
        let side = if flags & FLAG_BLACK_TO_MOVE != 0 { Color::Black } else { Color::Red };
        let ply = u16_at(b, 32);
        let position =
            Position::from_pieces(&pieces, side, b[38] as u16, 1 + ply / 2).map_err(|e| format!("position: {e}"))?;
        let mv = u16_at(b, 30);
        let (from, to) = (mv & 127, mv >> 7 & 127);
        let best = Move::new(square(from.min(89)), square(to.min(89)));
        if from >= 90 || to >= 90 || !position.is_legal(best) {
            return Err(format!("best move {mv:#06x} not legal in {}", position.to_fen()));
        }
        let result = result_of(b[36])?;
        let end = *End::ALL.get(b[39] as usize).ok_or_else(|| format!("bad end code {}", b[39]))?;
        Ok(Record { position, score: i16_at(b, 28), best, ply, game_plies: u16_at(b, 34), result, flags, end })
    }

    /// The result from Red's view: 1 win, 0.5 draw, 0 loss.
    pub fn red_score(&self) -> f32 {
        result_code(self.result) as f32 / 2.0
    }
}

/// The result of its code (`result_code`), or why not.
pub(crate) fn result_of(code: u8) -> Result<GameResult, String> {
    match code {
        0 => Ok(GameResult::BlackWins),
        1 => Ok(GameResult::Draw),
        2 => Ok(GameResult::RedWins),
        r => Err(format!("bad result code {r}")),
    }
}

/// Result byte: 0 Black wins, 1 draw, 2 Red wins (Red's points × 2).
pub(crate) fn result_code(r: GameResult) -> u8 {
    match r {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::RedWins => 2,
    }
}

/// Writes a header, then records.
pub struct Writer<W: Write> {
    out: W,
}

impl<W: Write> Writer<W> {
    /// Starts a data stream with `header`.
    pub fn new(mut out: W, header: &Header) -> io::Result<Writer<W>> {
        out.write_all(&header.encode())?;
        Ok(Writer { out })
    }

    /// Goes on with a stream whose header (and perhaps records) are already written.
    pub fn append(out: W) -> Writer<W> {
        Writer { out }
    }

    /// Appends one record.
    pub fn write(&mut self, record: &Record) -> io::Result<()> {
        self.out.write_all(&record.encode())
    }

    /// Flushes what was written.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The output.
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::Reader;

    fn sample(fen: &str, best: &str) -> Record {
        let position = Position::from_fen(fen).unwrap();
        let best = Move::parse(best).unwrap();
        let flags = if position.is_capture(best) { FLAG_CAPTURE | FLAG_NOT_QUIET } else { 0 };
        Record {
            position,
            score: -1234,
            best,
            ply: 57,
            game_plies: 211,
            result: GameResult::BlackWins,
            flags: flags | FLAG_GAME_START,
            end: End::PerpetualChase,
        }
    }

    fn records() -> Vec<Record> {
        vec![
            sample("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "h2e2"),
            sample("2bakab2/4n4/6nc1/pRp1p3p/7r1/9/2P1P1P1P/3CB1NCB/4K4/rc1A1A2R w - - 7 16", "b6b9"),
            sample("3akab2/9/4b4/5R3/r8/4P4/4N4/B7B/4A4/4KA3 b - - 3 29", "a5a2"),
            sample("5k2N/4R4/9/9/9/9/9/8p/2rKA4/9 w - - 0 29", "d1d0"),
        ]
    }

    #[test]
    fn records_round_trip() {
        // A composed position (elephant c3, advisor d1, pawn g9 on points no game reaches) too.
        let composed = sample("3k1apR1/9/1na1r4/7c1/b6P1/1P6b/2B5p/p5N2/C2A1P3/4K2B1 w - - 0 1", "c3e1");
        for r in records().into_iter().chain([composed]) {
            let bytes = r.encode();
            assert!(bytes[11] <= 3, "byte 11 of a record must not look like a header");
            let back = Record::decode(&bytes).unwrap();
            assert_eq!(back.position.to_fen().split(' ').take(5).collect::<Vec<_>>(), {
                let fen = r.position.to_fen();
                fen.split(' ').take(5).map(String::from).collect::<Vec<_>>()
            });
            assert_eq!(back.position.key(), r.position.key());
            assert_eq!((back.score, back.best, back.ply, back.game_plies), (r.score, r.best, r.ply, r.game_plies));
            assert_eq!((back.result, back.end), (r.result, r.end));
            let black = if r.position.side_to_move() == Color::Black { FLAG_BLACK_TO_MOVE } else { 0 };
            assert_eq!(back.flags, r.flags | black);
            assert_eq!(back.encode(), bytes);
        }
    }

    #[test]
    fn header_round_trips_and_streams_concatenate() {
        let h = Header { seed: 0xDEAD_BEEF_0123, nodes: 5000, depth: 0, random_plies: 8, keep_all: true, games: 77 };
        assert_eq!(Header::decode(&h.encode()), Ok(h));
        let mut bytes = Vec::new();
        for seed in [1, 2] {
            let mut w = Writer::new(&mut bytes, &Header { seed, ..h }).unwrap();
            for r in records() {
                w.write(&r).unwrap();
            }
        }
        assert_eq!(bytes.len(), 10 * RECORD_SIZE);
        let mut reader = Reader::new(&bytes[..]);
        let read: Vec<Record> = reader.by_ref().map(|r| r.unwrap()).collect();
        assert_eq!(read.len(), 8);
        assert_eq!(read[4].best, records()[0].best);
        assert_eq!(reader.headers().iter().map(|h| h.seed).collect::<Vec<_>>(), vec![1, 2]);
    }

    #[test]
    fn bad_streams_are_refused() {
        let h = Header::default().encode();
        let r = records()[0].encode();
        let read = |bytes: &[u8]| Reader::new(bytes).collect::<Result<Vec<_>, _>>();
        assert_eq!(read(&[]), Err(FormatError::NoHeader));
        assert_eq!(read(&r), Err(FormatError::NoHeader));
        assert_eq!(read(&h).map(|v| v.len()), Ok(0));
        assert_eq!(read(&[&h[..], &r[..5]].concat()), Err(FormatError::Truncated(40, 5)));
        let mut v2 = h;
        v2[8] = 2;
        assert!(matches!(read(&v2), Err(FormatError::BadHeader(_))));
        let mut size = h;
        size[10] = 48;
        assert!(matches!(read(&size), Err(FormatError::BadHeader(_))));
        let mut illegal = r;
        illegal[30] = 0;
        illegal[31] = 0; // a0a0
        assert!(matches!(read(&[&h[..], &illegal[..]].concat()), Err(FormatError::BadRecord(40, _))));
        let mut four_advisors = r;
        four_advisors[12] = 0x22; // the a0 rook and b0 horse become advisors: four, more than the set
        assert!(matches!(read(&[&h[..], &four_advisors[..]].concat()), Err(FormatError::BadRecord(40, _))));
    }
}
