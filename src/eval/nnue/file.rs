//! The net file: a 64-byte header, then the quantised weights (`docs/training.md`, "Net file").

use super::{Network, ARCHITECTURE, HIDDEN, INPUTS, MAX_OUTPUT_WEIGHT, MAX_PIECES, QA, QB};
use crate::bytes::{i16_at, i32_at, u16_at, u32_at, u64_at};
use std::fmt;

/// First 8 bytes of every net file.
pub const MAGIC: &[u8; 8] = b"CHUHENET";
/// The format version this build reads and writes.
pub const VERSION: u16 = 1;
/// Bytes before the payload.
pub const HEADER_SIZE: usize = 64;
/// Bytes of the description field.
const DESCRIPTION_SIZE: usize = 28;
/// Payload bytes of architecture 1.
const PAYLOAD_SIZE: usize = (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) * 2 + 4;

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read.
    Io(String),
    /// Not a net file, or one this build cannot read.
    Header(String),
    /// A net file of another architecture or size.
    Architecture(String),
    /// Shorter or longer than its header says, or the checksum does not match.
    Corrupt(String),
    /// Weights outside the ranges integer inference relies on.
    Range(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(s) => write!(f, "{s}"),
            NetError::Header(s) => write!(f, "not a Chuhe net file: {s}"),
            NetError::Architecture(s) => write!(f, "wrong network architecture: {s}"),
            NetError::Corrupt(s) => write!(f, "damaged net file: {s}"),
            NetError::Range(s) => write!(f, "net weights out of range: {s}"),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// The payload: input columns, hidden biases, output weights (own half, other half), output bias.
fn payload(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(PAYLOAD_SIZE);
    let halves = net.w1.iter().chain(std::iter::once(&net.b1)).chain(net.w2.iter());
    for w in halves.flatten() {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&net.b2.to_le_bytes());
    out
}

/// The file's bytes.
pub(super) fn encode(net: &Network) -> Vec<u8> {
    let body = payload(net);
    let mut out = Vec::with_capacity(HEADER_SIZE + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&ARCHITECTURE.to_le_bytes());
    out.extend_from_slice(&(INPUTS as u16).to_le_bytes());
    out.extend_from_slice(&(HIDDEN as u16).to_le_bytes());
    out.extend_from_slice(&(QA as u16).to_le_bytes());
    out.extend_from_slice(&(QB as u16).to_le_bytes());
    out.extend_from_slice(&net.scale.to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    let mut text = [0u8; DESCRIPTION_SIZE];
    for (t, b) in text.iter_mut().zip(net.description.bytes().filter(|b| b.is_ascii_graphic() || *b == b' ')) {
        *t = b;
    }
    out.extend_from_slice(&text);
    debug_assert_eq!(out.len(), HEADER_SIZE);
    out.extend_from_slice(&body);
    out
}

/// Reads a net file's bytes.
pub(super) fn decode(b: &[u8]) -> Result<Network, NetError> {
    if b.len() < HEADER_SIZE {
        return Err(NetError::Header(format!("{} bytes, shorter than the {HEADER_SIZE}-byte header", b.len())));
    }
    if &b[..8] != MAGIC {
        return Err(NetError::Header("no CHUHENET magic at the start".into()));
    }
    let version = u16_at(b, 8);
    if version != VERSION {
        return Err(NetError::Header(format!("format version {version}, this build reads {VERSION}")));
    }
    let (arch, inputs, hidden, qa, qb) = (u16_at(b, 10), u16_at(b, 12), u16_at(b, 14), u16_at(b, 16), u16_at(b, 18));
    if (arch, inputs as usize, hidden as usize, qa as i32, qb as i32) != (ARCHITECTURE, INPUTS, HIDDEN, QA, QB) {
        return Err(NetError::Architecture(format!(
            "architecture {arch} ({inputs} inputs, {hidden} hidden, QA {qa}, QB {qb}); this build runs \
             {ARCHITECTURE} ({INPUTS} inputs, {HIDDEN} hidden, QA {QA}, QB {QB})"
        )));
    }
    let scale = u32_at(b, 20) as i32;
    let checksum = u64_at(b, 24);
    let size = u32_at(b, 32) as usize;
    let body = &b[HEADER_SIZE..];
    if size != PAYLOAD_SIZE || body.len() != size {
        return Err(NetError::Corrupt(format!(
            "{} payload bytes (header says {size}; architecture {ARCHITECTURE} has {PAYLOAD_SIZE})",
            body.len()
        )));
    }
    if fnv1a(body) != checksum {
        return Err(NetError::Corrupt(format!("checksum {:016x}, header says {checksum:016x}", fnv1a(body))));
    }
    if !(1..=100_000).contains(&scale) {
        return Err(NetError::Range(format!("output scale {scale}")));
    }
    let description = String::from_utf8_lossy(&b[36..36 + DESCRIPTION_SIZE]).trim_end_matches('\0').to_string();
    let mut words = body.chunks_exact(2).map(|c| i16_at(c, 0));
    let mut column = || {
        let mut col = [0i16; HIDDEN];
        for w in col.iter_mut() {
            *w = words.next().expect("size checked");
        }
        col
    };
    let w1: Vec<[i16; HIDDEN]> = (0..INPUTS).map(|_| column()).collect();
    let b1 = column();
    let w2 = [column(), column()];
    let b2 = i32_at(body, PAYLOAD_SIZE - 4);
    // An accumulator sums a bias and at most MAX_PIECES columns: it must fit an i16.
    let widest = |v: &[i16]| v.iter().map(|w| (*w as i32).abs()).max().unwrap_or(0);
    let max_w1 = w1.iter().map(|c| widest(c)).max().unwrap_or(0);
    if widest(&b1) + MAX_PIECES * max_w1 > i16::MAX as i32 {
        return Err(NetError::Range(format!("input weights up to {max_w1} and biases up to {}", widest(&b1))));
    }
    let max_w2 = widest(&w2[0]).max(widest(&w2[1]));
    if max_w2 > MAX_OUTPUT_WEIGHT {
        return Err(NetError::Range(format!("output weight {max_w2} (at most {MAX_OUTPUT_WEIGHT})")));
    }
    Ok(Network { w1, b1, w2, b2, scale, checksum, description })
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_net;
    use super::*;

    #[test]
    fn files_round_trip_and_bad_ones_are_refused_with_a_reason() {
        let net = random_net(5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), HEADER_SIZE + PAYLOAD_SIZE);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.description(), "random");
        let refused = |b: &[u8]| Network::from_bytes(b).err().expect("refused");
        assert!(matches!(refused(&bytes[..10]), NetError::Header(_)));
        assert!(matches!(
            refused(b"not a net at all, but long enough to hold a header: 64 bytes ....."),
            NetError::Header(_)
        ));
        assert!(matches!(refused(&bytes[..bytes.len() - 1]), NetError::Corrupt(_)));
        let mut other = bytes.clone();
        other[14] = 128; // 128 hidden neurons
        assert!(matches!(refused(&other), NetError::Architecture(_)));
        let mut flipped = bytes.clone();
        flipped[HEADER_SIZE + 1000] ^= 1;
        assert!(matches!(refused(&flipped), NetError::Corrupt(_)));
        let mut wide = net.clone();
        wide.w2[1][7] = 200;
        assert!(matches!(refused(&wide.to_bytes()), NetError::Range(_)));
        let mut hot = net;
        hot.w1[3][0] = 2000;
        assert!(matches!(refused(&hot.to_bytes()), NetError::Range(_)));
        // Every refusal reads as one line.
        for e in [refused(&bytes[..10]), refused(&other), refused(&flipped)] {
            assert!(!e.to_string().contains('\n') && !e.to_string().is_empty());
        }
    }
}
