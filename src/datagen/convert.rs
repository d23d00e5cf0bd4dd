//! `chuhe datagen --convert`: data files rewritten in either version, every record and header
//! kept (version 1 → 2 → 1 gives the same bytes back).

use super::chain::{ChainWriter, VERSION as CHAINED};
use super::format::{Header, Writer, VERSION as FIXED};
use super::reader::Reader;
use std::io::{self, Write};

/// What a conversion wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    /// Records.
    pub records: u64,
    /// Headers (segments).
    pub headers: u64,
    /// Bytes of unfinished last blocks or records dropped (`unfinished`).
    pub dropped: u64,
}

/// The output of either version, one segment at a time.
enum Out<W: Write> {
    Fixed(Writer<W>),
    Chained(ChainWriter<W>),
    /// Between segments (or before the first).
    Idle(W),
}

impl<W: Write> Out<W> {
    /// Ends the open segment (a chained one gets its end mark) and starts one with `header`.
    fn segment(self, header: &Header, version: u16) -> io::Result<Out<W>> {
        let out = self.close()?;
        Ok(if version == CHAINED {
            Out::Chained(ChainWriter::new(out, header)?)
        } else {
            let mut out = out;
            out.write_all(&header.encode())?;
            Out::Fixed(Writer::append(out))
        })
    }

    /// Ends the open segment; the output.
    fn close(self) -> io::Result<W> {
        match self {
            Out::Fixed(mut w) => {
                w.flush()?;
                Ok(w.into_inner())
            }
            Out::Chained(w) => w.finish(),
            Out::Idle(w) => Ok(w),
        }
    }
}

/// Reads `inputs` in order and writes their headers and records to `out` in `version` (1 or
/// 2). A chained output keeps every input header as a segment of its own. With `unfinished`,
/// an input may be a stopped run (`Reader::unfinished_ok`).
pub fn convert(inputs: &[String], out: impl Write, version: u16, unfinished: bool) -> Result<Converted, String> {
    if version != FIXED && version != CHAINED {
        return Err(format!("version {version}: this build writes {FIXED} and {CHAINED}"));
    }
    let write_err = |e: io::Error| format!("writing: {e}");
    let mut done = Converted::default();
    let mut out = Out::Idle(out);
    for path in inputs {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot open '{path}': {e}"))?;
        let mut reader = Reader::new(io::BufReader::with_capacity(1 << 20, file));
        if unfinished {
            reader = reader.unfinished_ok();
        }
        let mut seen = 0;
        loop {
            let item = reader.next();
            // Headers read on the way to this record (or to the end) open segments first.
            while seen < reader.headers().len() {
                out = out.segment(&reader.headers()[seen], version).map_err(write_err)?;
                seen += 1;
                done.headers += 1;
            }
            let Some(item) = item else { break };
            let record = item.map_err(|e| format!("{path}: {e}"))?;
            match &mut out {
                Out::Fixed(w) => w.write(&record).map_err(write_err)?,
                Out::Chained(w) => w.write(&record, true).map_err(write_err)?,
                Out::Idle(_) => unreachable!("a record comes after a header"),
            }
            done.records += 1;
        }
        done.dropped += reader.dropped();
    }
    out.close().map_err(write_err)?.flush().map_err(write_err)?;
    Ok(done)
}
