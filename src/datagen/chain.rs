//! The chained training-data format (version 2), byte by byte in `docs/datagen.md`: after
//! Stockfish's binpack, a game's positions as one chain. A chain's first position (the stem)
//! is packed whole; each later position is the one before with its best move made, and the
//! move is stored as its index among the mover's pseudo-legal moves, in the fewest bits that
//! count needs. Scores are Exp-Golomb codes of the difference from the negated previous score.
//! Chains go in checksummed blocks; a segment (one header, its blocks, an end mark counting its
//! positions) is a file, and files concatenate.

pub use super::codes::crc32;
use super::codes::{index_bits, unzigzag, zigzag, BitReader, BitWriter, SLACK};
use super::format::{result_code, result_of, square, End, Header, Record, FLAG_BLACK_TO_MOVE, FLAG_CAPTURE};
use super::format::{FLAG_DECISIVE, FLAG_GAME_START, FLAG_IN_CHECK, FLAG_NOT_QUIET, SCORE_LIMIT};
use crate::board::{Color, Move, MoveList, Piece, Position, Square};
use std::io::{self, Write};

/// The format version of chained files.
pub use super::format::CHAINED_VERSION as VERSION;
/// Exp-Golomb order of the score differences (measured best of 2..6 on net 8's data).
const SCORE_ORDER: u32 = 4;
/// A block is closed at the end of the first chain that takes its payload past this.
pub const BLOCK_TARGET: usize = 64 * 1024;
/// A reader refuses a block whose payload claims more than this (a damaged length).
pub const BLOCK_LIMIT: usize = 16 << 20;
/// First byte of a block.
pub const TAG_BLOCK: u8 = b'B';
/// First byte of a segment's end mark.
pub const TAG_END: u8 = b'E';
/// Bytes of a block's frame before its payload: tag, payload length u32, positions u32.
pub const BLOCK_HEAD: usize = 9;
/// Bytes of an end mark: tag, positions u64, checksum u32.
pub const END_SIZE: usize = 13;

/// The side to move's pieces as a mask of points: the order moves are numbered in.
#[inline]
fn mover_points(pos: &Position) -> u128 {
    pos.pieces(pos.side_to_move()).fold(0u128, |mask, (_, sq)| mask | 1 << sq.point())
}

/// The targets of the side to move's piece on `from` as a mask of points (its pseudo-legal
/// moves), and how many.
#[inline]
fn targets(pos: &Position, from: Square, list: &mut MoveList) -> (u128, u32) {
    list.clear();
    pos.generate_pseudo_from(from, list);
    (list.iter().fold(0u128, |mask, m| mask | 1 << m.to().point()), list.len() as u32)
}

/// Appends move `m` of the side to move: its piece's number among the mover's pieces (in
/// point order), then its target's number among that piece's pseudo-legal targets (in point
/// order), each in the fewest bits its count needs.
fn put_move(bits: &mut BitWriter, pos: &Position, m: Move, list: &mut MoveList) {
    let pieces = mover_points(pos);
    let from = m.from().point();
    let below = |mask: u128, p: usize| (mask & ((1u128 << p) - 1)).count_ones();
    bits.put(below(pieces, from) as u64, index_bits(pieces.count_ones() as usize));
    let (to_mask, n) = targets(pos, m.from(), list);
    bits.put(below(to_mask, m.to().point()) as u64, index_bits(n as usize));
}

/// Reads a move of the side to move written by `put_move`.
#[inline]
fn get_move(bits: &mut BitReader, pos: &Position, list: &mut MoveList) -> Result<Move, String> {
    let mut pieces = mover_points(pos);
    let k = bits.get(index_bits(pieces.count_ones() as usize))?;
    if k >= pieces.count_ones() as u64 {
        return Err(format!("piece {k} of {}", pieces.count_ones()));
    }
    for _ in 0..k {
        pieces &= pieces - 1;
    }
    let from = square(pieces.trailing_zeros() as u16);
    let (mut to_mask, n) = targets(pos, from, list);
    let k = bits.get(index_bits(n as usize))?;
    if k >= n as u64 {
        return Err(format!("target {k} of {n} for the piece on {from}"));
    }
    for _ in 0..k {
        to_mask &= to_mask - 1;
    }
    Ok(Move::new(from, square(to_mask.trailing_zeros() as u16)))
}

/// Flags a record gets without an exception: side, in check, capture, decisive (a score at the
/// limit), not quiet when any of those, and the game's start when told.
#[inline]
fn derived_flags(pos: &Position, best: Move, score: i16, game_start: bool) -> u8 {
    let mut flags = 0;
    if pos.in_check() {
        flags |= FLAG_IN_CHECK;
    }
    if pos.is_capture(best) {
        flags |= FLAG_CAPTURE;
    }
    if score.unsigned_abs() == SCORE_LIMIT as u16 {
        flags |= FLAG_DECISIVE;
    }
    if flags != 0 {
        flags |= FLAG_NOT_QUIET;
    }
    if pos.side_to_move() == Color::Black {
        flags |= FLAG_BLACK_TO_MOVE;
    }
    if game_start {
        flags |= FLAG_GAME_START;
    }
    flags
}

/// One searched ply waiting in the open chain: the record, and whether it is kept.
struct Ply {
    record: Record,
    kept: bool,
}

/// Whether `b` is the ply after `a` in the same game: the next ply, the same game fields, and
/// `b`'s position is `a`'s with `a`'s best move made (placement, side and clock).
fn continues(a: &Record, b: &Record) -> bool {
    if a.ply.checked_add(1) != Some(b.ply) || (a.game_plies, a.result, a.end) != (b.game_plies, b.result, b.end) {
        return false;
    }
    let mut next = a.position.clone();
    let captured = a.position.is_capture(a.best);
    next.make_move(a.best);
    let clock = if captured { 0 } else { (a.position.halfmove_clock().min(255) + 1).min(255) };
    next.side_to_move() == b.position.side_to_move()
        && clock == b.position.halfmove_clock().min(255)
        && crate::board::Square::all().all(|sq| next.piece_at(sq) == b.position.piece_at(sq))
}

/// Packs the stem position: 90-bit occupancy in 12 bytes, then a 4-bit code per piece in point
/// order, low nibble first, in as many bytes as the pieces need.
fn put_placement(pos: &Position, out: &mut Vec<u8>) {
    let mut occupancy = 0u128;
    let mut nibbles = Vec::with_capacity(16);
    let mut n = 0;
    for p in 0..90 {
        if let Some(piece) = pos.piece_at(square(p)) {
            occupancy |= 1 << p;
            if n % 2 == 0 {
                nibbles.push(piece.0);
            } else {
                *nibbles.last_mut().expect("a nibble byte") |= piece.0 << 4;
            }
            n += 1;
        }
    }
    out.extend_from_slice(&occupancy.to_le_bytes()[0..12]);
    out.extend_from_slice(&nibbles);
}

/// Encodes one chain (its plies all continue the first) onto `out`; returns its kept count.
fn encode_chain(plies: &[Ply], out: &mut Vec<u8>) -> u32 {
    let stem = &plies[0].record;
    put_placement(&stem.position, out);
    let first_kept = plies.iter().position(|p| p.kept);
    let game_start = first_kept.is_some_and(|i| plies[i].record.flags & FLAG_GAME_START != 0);
    let skips = plies.iter().any(|p| !p.kept);
    let black = stem.position.side_to_move() == Color::Black;
    out.push(black as u8 | (game_start as u8) << 1 | (skips as u8) << 2 | result_code(stem.result) << 3);
    out.push(stem.end as u8);
    out.push(stem.position.halfmove_clock().min(255) as u8);
    out.extend_from_slice(&stem.ply.to_le_bytes());
    out.extend_from_slice(&stem.game_plies.to_le_bytes());
    let mut n = plies.len() as u32;
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);

    let mut bits = BitWriter::default();
    // Exceptions first (a reader yields records as it goes): kept records whose flags differ
    // from the derived ones, by their index among the kept.
    let mut exceptions = Vec::new();
    for (i, p) in plies.iter().filter(|p| p.kept).enumerate() {
        let r = &p.record;
        let black = if r.position.side_to_move() == Color::Black { FLAG_BLACK_TO_MOVE } else { 0 };
        let flags = r.flags & !FLAG_BLACK_TO_MOVE | black;
        if flags != derived_flags(&r.position, r.best, r.score, i == 0 && game_start) {
            exceptions.push((i as u32, flags));
        }
    }
    bits.put_golomb(exceptions.len() as u32, 0);
    for &(i, flags) in &exceptions {
        bits.put_golomb(i, 0);
        bits.put(flags as u64, 8);
    }
    let mut pos = stem.position.clone();
    let mut moves = MoveList::new();
    let mut predicted = 0i32;
    let mut kept = 0;
    for p in plies {
        if skips {
            bits.put(p.kept as u64, 1);
        }
        put_move(&mut bits, &pos, p.record.best, &mut moves);
        if p.kept {
            bits.put_golomb(zigzag(p.record.score as i32 - predicted), SCORE_ORDER);
            predicted = -(p.record.score as i32);
            kept += 1;
        } else {
            predicted = -predicted;
        }
        pos.make_move(p.record.best);
    }
    out.extend_from_slice(&bits.finish());
    kept
}

/// Writes a chained (version 2) segment: the header, then records in blocks, then (by
/// `finish`) the end mark. Records that continue the previous one join its chain.
pub struct ChainWriter<W: Write> {
    out: W,
    chain: Vec<Ply>,
    block: Vec<u8>,
    block_positions: u32,
    positions: u64,
}

impl<W: Write> ChainWriter<W> {
    /// Starts a segment with `header`.
    pub fn new(mut out: W, header: &Header) -> io::Result<ChainWriter<W>> {
        out.write_all(&header.encode_chained())?;
        Ok(Self::append(out, 0))
    }

    /// Goes on with a segment whose header and first `positions` kept records are written
    /// (whole blocks, no end mark).
    pub fn append(out: W, positions: u64) -> ChainWriter<W> {
        ChainWriter { out, chain: Vec::new(), block: Vec::new(), block_positions: 0, positions }
    }

    /// The output.
    pub fn output(&self) -> &W {
        &self.out
    }

    /// Kept records written so far (in closed chains or the open one).
    pub fn positions(&self) -> u64 {
        self.positions + self.chain.iter().filter(|p| p.kept).count() as u64
    }

    /// Appends a searched ply: its record, kept (read back) or skipped (only its move is
    /// stored, to keep the chain whole). A record that does not continue the open chain
    /// starts a new one.
    pub fn write(&mut self, record: &Record, kept: bool) -> io::Result<()> {
        // A game's start mark belongs on a chain's first kept record.
        let starts = kept && record.flags & FLAG_GAME_START != 0 && self.chain.iter().any(|p| p.kept);
        if self.chain.last().is_some_and(|last| starts || !continues(&last.record, record)) {
            self.close_chain()?;
        }
        self.chain.push(Ply { record: record.clone(), kept });
        Ok(())
    }

    /// Encodes the open chain into the block; writes the block out once it is big enough.
    fn close_chain(&mut self) -> io::Result<()> {
        // A chain of skipped plies alone holds nothing a reader yields.
        if self.chain.iter().any(|p| p.kept) {
            let kept = encode_chain(&self.chain, &mut self.block);
            self.block_positions += kept;
            self.positions += kept as u64;
        }
        self.chain.clear();
        if self.block.len() >= BLOCK_TARGET {
            self.write_block()?;
        }
        Ok(())
    }

    /// Writes the block (when it holds anything): frame, payload, checksum.
    fn write_block(&mut self) -> io::Result<()> {
        if self.block.is_empty() {
            return Ok(());
        }
        let mut head = [0u8; BLOCK_HEAD];
        head[0] = TAG_BLOCK;
        head[1..5].copy_from_slice(&(self.block.len() as u32).to_le_bytes());
        head[5..9].copy_from_slice(&self.block_positions.to_le_bytes());
        let crc = crc32(crc32(0, &head), &self.block);
        self.out.write_all(&head)?;
        self.out.write_all(&self.block)?;
        self.out.write_all(&crc.to_le_bytes())?;
        self.block.clear();
        self.block_positions = 0;
        Ok(())
    }

    /// Closes the open chain and block and flushes: everything written so far is whole in
    /// the output (datagen calls it after each game, so a resume can cut there).
    pub fn flush(&mut self) -> io::Result<()> {
        self.close_chain()?;
        self.write_block()?;
        self.out.flush()
    }

    /// Flushes, writes the end mark and returns the output.
    pub fn finish(mut self) -> io::Result<W> {
        self.flush()?;
        self.out.write_all(&end_mark(self.positions))?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// The end mark of a segment holding `positions` kept records.
pub fn end_mark(positions: u64) -> [u8; END_SIZE] {
    let mut b = [0u8; END_SIZE];
    b[0] = TAG_END;
    b[1..9].copy_from_slice(&positions.to_le_bytes());
    let crc = crc32(0, &b[0..9]);
    b[9..13].copy_from_slice(&crc.to_le_bytes());
    b
}

/// A chain being read. Its record is lent out as it stands (the position before the ply's
/// move, with the record's fields), and the move is made when the next ply is asked for, so
/// a position is never copied on the way to the caller.
struct Cursor {
    record: Record,
    /// The move of the ply last lent out, made before the next one is read.
    pending: Option<Move>,
    plies_left: u32,
    skips: bool,
    game_start: bool,
    kept: u32,
    predicted: i32,
    exceptions: Vec<(u32, u8)>,
}

impl Cursor {
    /// Makes a ply's move on the chain's position.
    fn play(&mut self, best: Move) -> Result<(), String> {
        let pos = &mut self.record.position;
        if pos.piece_at(best.to()).is_some_and(|p| p.kind() == crate::board::PieceKind::King) {
            return Err(format!("ply {} captures a king", self.record.ply));
        }
        pos.make_move(best);
        self.record.ply = self.record.ply.wrapping_add(1);
        Ok(())
    }
}

/// Decodes the records of one block, chain by chain, ply by ply.
pub struct BlockDecoder {
    /// Payload, then `SLACK` zero bytes.
    bytes: Vec<u8>,
    len: usize,
    /// Where the next chain starts (bytes), or the bit reader's place inside the open one.
    at: usize,
    bit: usize,
    cursor: Option<Cursor>,
    moves: MoveList,
}

impl Default for BlockDecoder {
    fn default() -> Self {
        BlockDecoder { bytes: Vec::new(), len: 0, at: 0, bit: 0, cursor: None, moves: MoveList::new() }
    }
}

impl BlockDecoder {
    /// The buffer to fill with a payload of `len` bytes (then `start`).
    pub fn buffer(&mut self, len: usize) -> &mut [u8] {
        self.bytes.clear();
        self.bytes.resize(len + SLACK, 0);
        self.len = len;
        &mut self.bytes[..len]
    }

    /// The payload in the buffer.
    pub fn buffer_filled(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Starts decoding the payload in the buffer.
    pub fn start(&mut self) {
        self.at = 0;
        self.cursor = None;
    }

    /// The record `advance` last found.
    #[inline]
    pub fn current(&self) -> &Record {
        &self.cursor.as_ref().expect("advance found a record").record
    }

    /// Moves to the block's next kept record (then `current`): false when the block is done.
    #[inline]
    pub fn advance(&mut self) -> Result<bool, String> {
        if let Some(c) = self.cursor.as_mut() {
            if let Some(best) = c.pending.take() {
                c.play(best)?;
            }
        }
        loop {
            if self.cursor.is_none() {
                if self.at >= self.len {
                    return Ok(false);
                }
                self.open_chain()?;
            }
            let mut reader = BitReader { bytes: &self.bytes, bit: self.bit, limit: self.len * 8 };
            let c = self.cursor.as_mut().expect("an open chain");
            if c.plies_left == 0 {
                self.at = reader.byte_end();
                self.cursor = None;
                continue;
            }
            c.plies_left -= 1;
            let kept = !c.skips || reader.get(1)? == 1;
            let r = &mut c.record;
            let best =
                get_move(&mut reader, &r.position, &mut self.moves).map_err(|e| format!("ply {}: {e}", r.ply))?;
            self.bit = reader.bit;
            if !kept {
                c.predicted = -c.predicted;
                c.play(best)?;
                continue;
            }
            let score = c.predicted + unzigzag(reader.get_golomb(SCORE_ORDER)?);
            self.bit = reader.bit;
            let score = i16::try_from(score).map_err(|_| format!("score {score} out of range"))?;
            c.predicted = -(score as i32);
            let clock = r.position.halfmove_clock().min(255) as u16;
            r.position.set_counters(clock, 1 + r.ply / 2);
            r.flags = derived_flags(&r.position, best, score, c.kept == 0 && c.game_start);
            if let Some(&(_, f)) = c.exceptions.iter().find(|e| e.0 == c.kept) {
                r.flags = f;
            }
            (r.score, r.best) = (score, best);
            c.kept += 1;
            c.pending = Some(best);
            return Ok(true);
        }
    }

    /// Reads a chain's stem and exceptions at `at`.
    fn open_chain(&mut self) -> Result<(), String> {
        let b = &self.bytes[..self.len];
        let need = |n: usize| if self.at + n <= b.len() { Ok(()) } else { Err("a chain's stem runs past its block") };
        need(12)?;
        let mut occ = [0u8; 16];
        occ[0..12].copy_from_slice(&b[self.at..self.at + 12]);
        let occupancy = u128::from_le_bytes(occ);
        if occupancy >> 90 != 0 || occupancy.count_ones() > 32 {
            return Err("bad occupancy bits".into());
        }
        let n = occupancy.count_ones() as usize;
        let mut at = self.at + 12;
        need(12 + n.div_ceil(2) + 7)?;
        let mut pieces = arrayvec::ArrayVec::<_, 32>::new();
        for (i, p) in (0..90u16).filter(|&p| occupancy >> p & 1 == 1).enumerate() {
            let code = b[at + i / 2] >> (4 * (i % 2)) & 15;
            if code & 7 == 0 {
                return Err(format!("bad piece code {code}"));
            }
            pieces.push((square(p), Piece(code)));
        }
        at += n.div_ceil(2);
        let info = b[at];
        let end = *End::ALL.get(b[at + 1] as usize).ok_or_else(|| format!("bad end code {}", b[at + 1]))?;
        let clock = b[at + 2];
        let ply = u16::from_le_bytes([b[at + 3], b[at + 4]]);
        let game_plies = u16::from_le_bytes([b[at + 5], b[at + 6]]);
        at += 7;
        let result = result_of(info >> 3 & 3)?;
        if info >> 5 != 0 {
            return Err(format!("bad stem bits {info:#04x}"));
        }
        let (mut plies, mut shift) = (0u32, 0);
        loop {
            let byte = *b.get(at).ok_or("a chain's length runs past its block")?;
            at += 1;
            plies |= ((byte & 0x7F) as u32) << shift;
            if byte & 0x80 == 0 {
                break;
            }
            shift += 7;
            if shift > 28 {
                return Err("a chain's length too long".into());
            }
        }
        let side = if info & 1 != 0 { Color::Black } else { Color::Red };
        let pos =
            Position::from_pieces(&pieces, side, clock as u16, 1 + ply / 2).map_err(|e| format!("position: {e}"))?;
        let mut reader = BitReader { bytes: &self.bytes, bit: at * 8, limit: self.len * 8 };
        let count = reader.get_golomb(0)?;
        if count > plies {
            return Err(format!("{count} flag exceptions in a chain of {plies} plies"));
        }
        let mut exceptions = Vec::with_capacity(count as usize);
        for _ in 0..count {
            exceptions.push((reader.get_golomb(0)?, reader.get(8)? as u8));
        }
        self.bit = reader.bit;
        let record = Record { position: pos, score: 0, best: Move::NULL, ply, game_plies, result, flags: 0, end };
        self.cursor = Some(Cursor {
            record,
            pending: None,
            plies_left: plies,
            skips: info & 4 != 0,
            game_start: info & 2 != 0,
            kept: 0,
            predicted: 0,
            exceptions,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::format::Writer;
    use crate::datagen::{play_game, Config, GameRecord, MoveBudget, Reader};

    /// Self-play games at a small budget with the hand evaluation, every searched ply with its
    /// kept mark (`keep_all`: all kept; else the quiet ones).
    fn games(seed: u64, n: u64, keep_all: bool) -> Vec<GameRecord> {
        let cfg = Config {
            budget: MoveBudget::Nodes(150),
            keep_all,
            seed,
            evaluator: crate::eval::Evaluator::Hand,
            ..Config::default()
        };
        let mut engine = crate::datagen::worker_engine(1, &cfg.evaluator);
        (0..n).map(|i| play_game(&mut engine, &cfg, i)).collect()
    }

    fn header(seed: u64) -> Header {
        Header { seed, nodes: 150, depth: 0, random_plies: 8, keep_all: false, games: 3 }
    }

    fn chained(games: &[GameRecord], h: &Header) -> Vec<u8> {
        let mut w = ChainWriter::new(Vec::new(), h).unwrap();
        for g in games {
            for (r, &kept) in g.records.iter().zip(&g.kept) {
                w.write(r, kept).unwrap();
            }
            w.flush().unwrap();
        }
        w.finish().unwrap()
    }

    fn fixed(records: &[Record], h: &Header) -> Vec<u8> {
        let mut w = Writer::new(Vec::new(), h).unwrap();
        for r in records {
            w.write(r).unwrap();
        }
        w.into_inner()
    }

    fn read(bytes: &[u8]) -> Result<Vec<Record>, crate::datagen::FormatError> {
        Reader::new(bytes).collect()
    }

    fn kept(games: &[GameRecord]) -> Vec<Record> {
        games.iter().flat_map(|g| g.kept_records().cloned()).collect()
    }

    #[test]
    fn every_pseudo_legal_move_is_numbered_and_found_again() {
        let mut list = MoveList::new();
        for r in kept(&games(5, 2, true)) {
            let mut all = MoveList::new();
            r.position.generate_pseudo(&mut all);
            for &m in &all {
                let mut w = BitWriter::default();
                put_move(&mut w, &r.position, m, &mut list);
                let bytes = [w.finish(), vec![0; SLACK]].concat();
                let mut reader = BitReader { bytes: &bytes, bit: 0, limit: (bytes.len() - SLACK) * 8 };
                assert_eq!(get_move(&mut reader, &r.position, &mut list), Ok(m), "{}", r.position.to_fen());
            }
        }
    }

    #[test]
    fn version_1_to_chains_and_back_gives_every_record_and_header() {
        // Quiet-only games (chains broken where plies were not kept) and whole games, two
        // segments, converted through the chained format.
        let (quiet, all) = (kept(&games(1, 3, false)), kept(&games(2, 3, true)));
        let v1 = [fixed(&quiet, &header(1)), fixed(&all, &header(2))].concat();
        let dir = std::env::temp_dir().join(format!("chuhe-chain-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("v1.bin").to_string_lossy().into_owned();
        std::fs::write(&input, &v1).unwrap();
        let mut v2 = Vec::new();
        let done = crate::datagen::convert::convert(std::slice::from_ref(&input), &mut v2, VERSION, false).unwrap();
        assert_eq!(done.records, (quiet.len() + all.len()) as u64);
        assert_eq!(done.headers, 2);
        let back: Vec<u8> = read(&v2).unwrap().iter().map(|r| r.encode()).collect::<Vec<_>>().concat();
        let records_v1: Vec<u8> = v1.chunks(40).filter(|b| b[11] != 0xFF).flatten().copied().collect();
        assert_eq!(back, records_v1, "every field of every record");
        let mut reader = Reader::new(&v2[..]);
        assert!(reader.by_ref().all(|r| r.is_ok()));
        assert_eq!(reader.headers(), &[header(1), header(2)]);
        let chained_path = dir.join("v2.bin").to_string_lossy().into_owned();
        std::fs::write(&chained_path, &v2).unwrap();
        let mut again = Vec::new();
        crate::datagen::convert::convert(&[chained_path], &mut again, 1, false).unwrap();
        assert_eq!(again, v1, "and back to version 1, byte for byte");
        std::fs::remove_dir_all(&dir).unwrap();
        // Whole games chain: about 2 bytes a position.
        let whole = chained(&games(2, 3, true), &header(2));
        assert!(whole.len() < all.len() * 3, "{} bytes for {} positions", whole.len(), all.len());
    }

    #[test]
    fn skipped_plies_keep_the_chain_and_only_kept_records_are_read() {
        let g = games(3, 3, false);
        let bytes = chained(&g, &header(3));
        let read = read(&bytes).unwrap();
        let expected = kept(&g);
        assert!(expected.len() < g.iter().map(|g| g.records.len()).sum::<usize>(), "some plies skipped");
        assert_eq!(
            read.iter().map(Record::encode).collect::<Vec<_>>(),
            expected.iter().map(Record::encode).collect::<Vec<_>>()
        );
        assert_eq!(read.iter().filter(|r| r.flags & FLAG_GAME_START != 0).count(), 3, "a start mark a game");
    }

    #[test]
    fn odd_flags_and_scores_survive_as_exceptions() {
        let mut records = kept(&games(4, 1, true));
        records[0].flags &= !FLAG_GAME_START; // a game's start unmarked
        records[1].flags |= FLAG_GAME_START; // and marked where it is not the first
        records[2].score = SCORE_LIMIT; // a score at the limit that is not a mate
        records[3].score = -SCORE_LIMIT;
        records[3].flags |= FLAG_DECISIVE | FLAG_NOT_QUIET;
        records[4].score = i16::MIN;
        records[5].flags |= 0xC0; // bits no writer sets
        let mut w = ChainWriter::new(Vec::new(), &header(4)).unwrap();
        for r in &records {
            w.write(r, true).unwrap();
        }
        let bytes = w.finish().unwrap();
        let read = read(&bytes).unwrap();
        assert_eq!(
            read.iter().map(Record::encode).collect::<Vec<_>>(),
            records.iter().map(Record::encode).collect::<Vec<_>>()
        );
    }

    #[test]
    fn every_cut_and_every_changed_byte_is_refused() {
        let bytes = chained(&games(6, 2, false), &header(6));
        assert!(read(&bytes).is_ok());
        for len in 0..bytes.len() {
            assert!(read(&bytes[..len]).is_err(), "cut at {len} of {}", bytes.len());
        }
        let mut changed = bytes.clone();
        for at in 0..bytes.len() {
            changed[at] ^= 0x10;
            assert!(read(&changed).is_err(), "byte {at} changed");
            changed[at] ^= 0x10;
        }
        // Cut between two games' blocks: told as an unfinished file, with the byte.
        let g = games(6, 2, false);
        let one = chained(&g[..1], &header(6));
        let cut = &bytes[..one.len() - END_SIZE];
        let err = read(cut).unwrap_err();
        assert_eq!(err, crate::datagen::FormatError::Unfinished(cut.len() as u64));
        assert!(err.to_string().contains("no end mark at byte"), "{err}");
        // A stopped run is read to its last whole block when asked, and the rest dropped.
        let stopped = |bytes: &[u8]| {
            let mut reader = Reader::new(bytes).unfinished_ok();
            let n = reader.by_ref().inspect(|r| assert!(r.is_ok())).count();
            (n, reader.dropped())
        };
        let first = kept(&g[..1]).len();
        assert_eq!(stopped(cut), (first, 0));
        assert_eq!(stopped(&bytes[..one.len() - END_SIZE + 20]), (first, 20));
        let mut damaged = bytes.clone();
        damaged[60] ^= 0x10; // inside the first block
        assert!(Reader::new(&damaged[..one.len() + 1]).unfinished_ok().any(|r| r.is_err()), "damage stays an error");
    }

    #[test]
    fn segments_of_both_versions_concatenate() {
        let g = games(7, 2, true);
        let records = kept(&g);
        let (a, b) = (chained(&g, &header(7)), fixed(&records, &header(8)));
        let all = [a.clone(), b.clone(), a.clone()].concat();
        let mut reader = Reader::new(&all[..]);
        assert_eq!(reader.by_ref().filter(|r| r.is_ok()).count(), records.len() * 3);
        assert_eq!(reader.headers().iter().map(|h| h.seed).collect::<Vec<_>>(), vec![7, 8, 7]);
        // Something after an end mark that is not a header is refused.
        let junk = [a.clone(), vec![b'x'; 40]].concat();
        assert!(matches!(read(&junk), Err(crate::datagen::FormatError::Damaged(at, _)) if at == a.len() as u64));
    }
}
