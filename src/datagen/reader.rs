//! Reads training data of either version as one stream of records: version 1's 40-byte
//! records and version 2's checksummed blocks of chains (`chain.rs`), segments of both
//! concatenated in any order. Streaming: one block in memory at a time.

use super::chain::{self, BlockDecoder, BLOCK_HEAD, BLOCK_LIMIT, END_SIZE, TAG_BLOCK, TAG_END};
use super::format::{FormatError, Header, Record, RECORD_SIZE};
use std::io::{self, Read};

/// What the reader expects next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The first header.
    Start,
    /// Version 1 records (or a header).
    Records,
    /// Version 2 blocks, or the end mark.
    Blocks,
    /// After an end mark: another segment's header, or the end of the stream.
    Segment,
}

/// Reads records from a stream of concatenated data files of either version; headers are
/// checked and kept, blocks checked against their checksums. An iterator of records; it
/// stops at the first error.
pub struct Reader<R: Read> {
    input: R,
    offset: u64,
    headers: Vec<Header>,
    failed: bool,
    expect: Expect,
    block: BlockDecoder,
    /// Byte offset of the block being decoded, the positions it claims, those yielded so far.
    block_at: u64,
    block_claims: u32,
    block_read: u32,
    /// Positions of the chained segment being read.
    segment_positions: u64,
    /// Whether a stream may stop without its end mark, or inside its last block or record.
    unfinished_ok: bool,
    /// Bytes of a last block or record left unread that way.
    dropped: u64,
    /// The last version 1 record read (a chained one stays in `block`).
    fixed: Option<Record>,
}

impl<R: Read> Reader<R> {
    /// A reader over `input` (wrap files in a `BufReader`).
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            offset: 0,
            headers: Vec::new(),
            failed: false,
            expect: Expect::Start,
            block: BlockDecoder::default(),
            block_at: 0,
            block_claims: 0,
            block_read: 0,
            segment_positions: 0,
            unfinished_ok: false,
            dropped: 0,
            fixed: None,
        }
    }

    /// A reader that takes a run stopped before its end (a killed datagen run): the stream
    /// may end without an end mark, or inside its last block or record, which is dropped.
    pub fn unfinished_ok(mut self) -> Reader<R> {
        self.unfinished_ok = true;
        self
    }

    /// Bytes of an unfinished last block or record that were dropped (`unfinished_ok`).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The headers read so far.
    pub fn headers(&self) -> &[Header] {
        &self.headers
    }

    /// The input.
    pub fn input(&self) -> &R {
        &self.input
    }

    /// Bytes read so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Fills `buf` from the input: how many bytes came (fewer only at the end of input).
    fn fill(&mut self, buf: &mut [u8]) -> Result<usize, FormatError> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.input.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(FormatError::Io(e.to_string())),
            }
        }
        self.offset += filled as u64;
        Ok(filled)
    }

    /// Fills `buf` whole, or says where the stream was cut.
    fn fill_whole(&mut self, buf: &mut [u8], started: u64) -> Result<(), FormatError> {
        let n = self.fill(buf)?;
        if n < buf.len() {
            return Err(FormatError::Truncated(started, (self.offset - started) as usize));
        }
        Ok(())
    }

    /// Takes a header block: checks it and sets what comes next by its version.
    fn take_header(&mut self, block: &[u8; RECORD_SIZE], at: u64) -> Result<(), FormatError> {
        let header = Header::decode(block).map_err(|e| match e {
            FormatError::BadHeader(why) => FormatError::BadHeader(format!("at byte {at}: {why}")),
            e => e,
        })?;
        self.headers.push(header);
        self.expect = if Header::version(block) == chain::VERSION { Expect::Blocks } else { Expect::Records };
        self.segment_positions = 0;
        Ok(())
    }

    /// Moves to the next record, reading headers, blocks and end marks on the way: false at
    /// the end. The record is then `current`.
    fn advance(&mut self) -> Result<bool, FormatError> {
        loop {
            match self.expect {
                Expect::Start | Expect::Segment | Expect::Records => {
                    let at = self.offset;
                    let mut block = [0u8; RECORD_SIZE];
                    let n = self.fill(&mut block)?;
                    match (n, self.expect) {
                        (0, Expect::Start) => return Err(FormatError::NoHeader),
                        (0, _) => return Ok(false),
                        (n, _) if n < RECORD_SIZE => return Err(FormatError::Truncated(at, n)),
                        _ => {}
                    }
                    if block[11] == 0xFF {
                        self.take_header(&block, at)?;
                    } else if self.expect == Expect::Records {
                        self.fixed = Some(Record::decode(&block).map_err(|why| FormatError::BadRecord(at, why))?);
                        return Ok(true);
                    } else if self.expect == Expect::Start {
                        return Err(FormatError::NoHeader);
                    } else {
                        return Err(FormatError::Damaged(at, "after an end mark, neither a header nor the end".into()));
                    }
                }
                Expect::Blocks => {
                    if self.block.advance().map_err(|why| FormatError::BadRecord(self.block_at, why))? {
                        self.block_read += 1;
                        return Ok(true);
                    }
                    if self.block_read != self.block_claims {
                        let why =
                            format!("the block claims {} positions and holds {}", self.block_claims, self.block_read);
                        return Err(FormatError::Damaged(self.block_at, why));
                    }
                    self.read_frame()?;
                }
            }
        }
    }

    /// The record `advance` found: a chained one is lent from the block being decoded.
    fn current(&self) -> &Record {
        match self.expect {
            Expect::Blocks => self.block.current(),
            _ => self.fixed.as_ref().expect("advance read a record"),
        }
    }

    /// The next record, lent until the next call (no copy: the fast way to read), or the
    /// first error; `None` at the end and after an error. The iterator gives owned copies.
    pub fn next_ref(&mut self) -> Option<Result<&Record, FormatError>> {
        if self.failed {
            return None;
        }
        match self.advance() {
            Ok(true) => Some(Ok(self.current())),
            Ok(false) => None,
            // Only at the end of the input: the same errors elsewhere stay errors.
            Err(FormatError::Unfinished(_)) if self.unfinished_ok => None,
            Err(FormatError::Truncated(_, n)) if self.unfinished_ok => {
                self.dropped = n as u64;
                None
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }

    /// Reads the next block (checked, ready to decode) or end mark of a chained segment.
    fn read_frame(&mut self) -> Result<(), FormatError> {
        let at = self.offset;
        let mut tag = [0u8; 1];
        if self.fill(&mut tag)? == 0 {
            return Err(FormatError::Unfinished(at));
        }
        match tag[0] {
            TAG_BLOCK => {
                let mut head = [0u8; BLOCK_HEAD];
                head[0] = TAG_BLOCK;
                self.fill_whole(&mut head[1..], at)?;
                let len = u32::from_le_bytes(head[1..5].try_into().expect("4 bytes")) as usize;
                if len > BLOCK_LIMIT {
                    return Err(FormatError::Damaged(at, format!("a block of {len} bytes (at most {BLOCK_LIMIT})")));
                }
                let mut payload = std::mem::take(&mut self.block);
                let filled = self.fill_whole(payload.buffer(len), at);
                self.block = payload;
                filled?;
                let mut crc = [0u8; 4];
                self.fill_whole(&mut crc, at)?;
                let payload = self.block.buffer_filled();
                if chain::crc32(chain::crc32(0, &head), payload) != u32::from_le_bytes(crc) {
                    return Err(FormatError::Damaged(at, "the block fails its checksum".into()));
                }
                self.block.start();
                self.block_at = at;
                self.block_claims = u32::from_le_bytes(head[5..9].try_into().expect("4 bytes"));
                self.block_read = 0;
                self.segment_positions += self.block_claims as u64;
                Ok(())
            }
            TAG_END => {
                let mut end = [0u8; END_SIZE];
                end[0] = TAG_END;
                self.fill_whole(&mut end[1..], at)?;
                let positions = u64::from_le_bytes(end[1..9].try_into().expect("8 bytes"));
                if end != chain::end_mark(positions) {
                    return Err(FormatError::Damaged(at, "the end mark fails its checksum".into()));
                }
                if positions != self.segment_positions {
                    let why =
                        format!("the end mark counts {positions} positions, the blocks {}", self.segment_positions);
                    return Err(FormatError::Damaged(at, why));
                }
                self.expect = Expect::Segment;
                Ok(())
            }
            t => Err(FormatError::Damaged(at, format!("byte {t:#04x} where a block or an end mark begins"))),
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_ref().map(|r| r.cloned())
    }
}
