//! The net file (`docs/nnue.md`, "Net file"): a header, then the quantised weights.
//! Version 1 holds architecture 1 only (a 64-byte header); version 2 any `Arch` without a
//! stack (the same 64 bytes, then 16 naming the king map and the output buckets); version 3 a
//! stacked one (version 2's header, with the stack's layer sizes). Versions 1 and 2 share the
//! payload layout; version 3's has the stack where the output layer was.

use super::arch::{L2, L3};
use super::stack::Stack;
use super::threats::MAX_THREATS;
use super::{Arch, Network, FEATURES, MAX_OUTPUT_WEIGHT, MAX_PIECES, QA, QB};
use crate::bytes::{i16_at, i32_at, u16_at, u32_at, u64_at};
use std::fmt;

/// First 8 bytes of every net file.
pub const MAGIC: &[u8; 8] = b"CHUHENET";
/// The newest format version this build reads and writes (it reads 1 too).
pub const VERSION: u16 = 3;
/// Bytes of a version-1 header (version 2 adds `EXTRA_SIZE`).
pub const HEADER_SIZE: usize = 64;
/// Bytes version 2 adds to the header.
const EXTRA_SIZE: usize = 16;
/// Bytes of the description field.
const DESCRIPTION_SIZE: usize = 28;
/// Output bucket map ids: 0 is the count of rooks, horses and cannons (`arch::material`).
const OUTPUT_MAP: u8 = 0;

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

impl NetError {
    /// The same error, its text led by the file's name (`'PATH': ...`).
    pub fn in_file(self, path: &str) -> NetError {
        let named = |s: String| format!("'{path}': {s}");
        match self {
            NetError::Io(s) => NetError::Io(s),
            NetError::Header(s) => NetError::Header(named(s)),
            NetError::Architecture(s) => NetError::Architecture(named(s)),
            NetError::Corrupt(s) => NetError::Corrupt(named(s)),
            NetError::Range(s) => NetError::Range(named(s)),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Bytes of each of a stack's six tensors (`Stack::sizes`): weights `i16`, biases `i32`.
const STACK_BYTES: [usize; 6] = [2, 4, 2, 4, 2, 4];

/// Payload bytes of a net of shape `arch`.
fn payload_size(arch: &Arch) -> usize {
    let h = arch.hidden;
    let inputs = (arch.inputs() * h + h) * 2;
    if arch.stack {
        let sizes = Stack::sizes(h, arch.output_buckets);
        return inputs + sizes.iter().zip(STACK_BYTES).map(|(n, b)| n * b).sum::<usize>();
    }
    inputs + 2 * h * arch.output_buckets * 2 + 4 * arch.output_buckets
}

/// The payload: input columns, hidden biases, output weights (per output bucket: own half,
/// other half), output biases; in a stacked net the stack's six tensors instead of the last two.
pub(super) fn payload(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload_size(&net.arch));
    for w in net.w1.iter().chain(&net.b1).chain(&net.w2) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in &net.b2 {
        out.extend_from_slice(&b.to_le_bytes());
    }
    if let Some(st) = &net.stack {
        let ints = |v: &[i32], out: &mut Vec<u8>| v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        st.w2.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        ints(&st.b2, &mut out);
        st.w3.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        ints(&st.b3, &mut out);
        st.w4.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        ints(&st.b4, &mut out);
    }
    out
}

/// Reads a stack's six tensors from `b` (exactly their bytes).
fn read_stack(b: &[u8], arch: &Arch) -> Stack {
    let sizes = Stack::sizes(arch.hidden, arch.output_buckets);
    let mut at = 0;
    let mut take = |i: usize| {
        let part = &b[at..at + sizes[i] * STACK_BYTES[i]];
        at += part.len();
        part
    };
    let ints = |p: &[u8]| p.chunks_exact(4).map(|c| i32_at(c, 0)).collect::<Vec<_>>();
    let words = |p: &[u8]| p.chunks_exact(2).map(|c| i16_at(c, 0)).collect::<Vec<_>>();
    let (w2, b2, w3, b3) = (words(take(0)), ints(take(1)), words(take(2)), ints(take(3)));
    let w4 = words(take(4));
    Stack { w2, b2, w3, b3, w4, b4: ints(take(5)) }
}

/// The file's bytes: version 1 for architecture 1, 3 for a stacked net, else version 2.
pub(super) fn encode(net: &Network) -> Vec<u8> {
    let body = payload(net);
    let arch = net.arch;
    let version: u16 = if arch == Arch::ONE {
        1
    } else if arch.stack {
        3
    } else {
        2
    };
    let mut out = Vec::with_capacity(HEADER_SIZE + EXTRA_SIZE + body.len());
    out.extend_from_slice(MAGIC);
    for field in [version, arch.id(), FEATURES as u16, arch.hidden as u16, QA as u16, QB as u16] {
        out.extend_from_slice(&field.to_le_bytes());
    }
    out.extend_from_slice(&net.scale.to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    let mut text = [0u8; DESCRIPTION_SIZE];
    for (t, b) in text.iter_mut().zip(net.description.bytes().filter(|b| b.is_ascii_graphic() || *b == b' ')) {
        *t = b;
    }
    out.extend_from_slice(&text);
    if version >= 2 {
        let mut extra = [0u8; EXTRA_SIZE];
        extra[..4].copy_from_slice(&[arch.king_map, arch.king_buckets() as u8, arch.output_buckets as u8, OUTPUT_MAP]);
        if arch.stack {
            extra[4..6].copy_from_slice(&[L2 as u8, L3 as u8]);
        }
        extra[6] = arch.threats as u8;
        out.extend_from_slice(&extra);
    }
    out.extend_from_slice(&body);
    out
}

/// The shape a header describes, and the header's size, or why the engine cannot use it.
fn read_arch(b: &[u8]) -> Result<(Arch, usize), NetError> {
    if b.len() < HEADER_SIZE {
        return Err(NetError::Header(format!("{} bytes, shorter than the {HEADER_SIZE}-byte header", b.len())));
    }
    if &b[..8] != MAGIC {
        return Err(NetError::Header("no CHUHENET magic at the start".into()));
    }
    let version = u16_at(b, 8);
    if !(1..=VERSION).contains(&version) {
        return Err(NetError::Header(format!("format version {version}, this build reads 1 to {VERSION}")));
    }
    let (id, inputs, hidden, qa, qb) = (u16_at(b, 10), u16_at(b, 12), u16_at(b, 14), u16_at(b, 16), u16_at(b, 18));
    let this = format!("this build runs 1260 inputs per king bucket, QA {QA}, QB {QB}");
    if (inputs as usize, qa as i32, qb as i32) != (FEATURES, QA, QB) {
        return Err(NetError::Architecture(format!("{inputs} inputs, QA {qa}, QB {qb}; {this}")));
    }
    if version == 1 {
        if (id, hidden as usize) != (1, Arch::ONE.hidden) {
            return Err(NetError::Architecture(format!(
                "version 1 with architecture {id}, {hidden} hidden; version 1 holds only architecture 1 (256 hidden)"
            )));
        }
        return Ok((Arch::ONE, HEADER_SIZE));
    }
    if b.len() < HEADER_SIZE + EXTRA_SIZE {
        return Err(NetError::Header(format!("{} bytes, shorter than the version-2 header", b.len())));
    }
    let e = &b[HEADER_SIZE..HEADER_SIZE + EXTRA_SIZE];
    let (map, king_buckets, output_buckets, output_map) = (e[0], e[1] as usize, e[2] as usize, e[3]);
    let arch = Arch::new(hidden as usize, king_buckets, output_buckets).map_err(NetError::Architecture)?;
    let arch = arch.with_stack(version == 3).with_threats(e[6] == 1);
    if arch.king_map != map || output_map != OUTPUT_MAP || e[6] > 1 || e[7..].iter().any(|&x| x != 0) || arch.id() != id
    {
        return Err(NetError::Architecture(format!(
            "architecture {id}, king map {map} of {king_buckets} buckets, output map {output_map}; this build \
             knows king map {} for {king_buckets} buckets and output map {OUTPUT_MAP}",
            arch.king_map
        )));
    }
    let layers = if arch.stack { [L2 as u8, L3 as u8] } else { [0, 0] };
    if e[4..6] != layers {
        return Err(NetError::Architecture(format!(
            "version {version} with stack layers {} and {}; this build runs {}",
            e[4],
            e[5],
            if arch.stack { format!("{L2} and {L3}") } else { "none in version 2".into() }
        )));
    }
    Ok((arch, HEADER_SIZE + EXTRA_SIZE))
}

/// Reads a net file's bytes.
pub(super) fn decode(b: &[u8]) -> Result<Network, NetError> {
    let (arch, header) = read_arch(b)?;
    let scale = u32_at(b, 20) as i32;
    let checksum = u64_at(b, 24);
    let size = u32_at(b, 32) as usize;
    let body = &b[header..];
    let expected = payload_size(&arch);
    if size != expected {
        return Err(NetError::Corrupt(format!(
            "the header (bytes 32..36) says {size} payload bytes; {} has {expected}",
            arch.describe()
        )));
    }
    if body.len() < size {
        return Err(NetError::Corrupt(format!(
            "truncated at byte {}: the weights run from byte {header} to byte {} (a cut or unfinished file)",
            b.len(),
            header + size
        )));
    }
    if body.len() > size {
        return Err(NetError::Corrupt(format!(
            "{} bytes after the weights end at byte {}",
            body.len() - size,
            header + size
        )));
    }
    if fnv1a(body) != checksum {
        // One checksum covers the weights: it tells that a byte changed, not which.
        return Err(NetError::Corrupt(format!(
            "the weights (bytes {header} to {}) checksum to {:016x}, the header (byte 24) says {checksum:016x}",
            b.len(),
            fnv1a(body)
        )));
    }
    if !(1..=100_000).contains(&scale) {
        return Err(NetError::Range(format!("output scale {scale}")));
    }
    let description = String::from_utf8_lossy(&b[36..36 + DESCRIPTION_SIZE]).trim_end_matches('\0').to_string();
    let h = arch.hidden;
    let mut words = body.chunks_exact(2).map(|c| i16_at(c, 0));
    let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
    let (w1, b1) = (take(arch.inputs() * h), take(h));
    let (w2, b2) = if arch.stack {
        (Vec::new(), Vec::new())
    } else {
        let b2_at = expected - 4 * arch.output_buckets;
        (take(2 * h * arch.output_buckets), (0..arch.output_buckets).map(|i| i32_at(body, b2_at + 4 * i)).collect())
    };
    // An accumulator sums a bias, at most MAX_PIECES piece columns and MAX_THREATS threat
    // columns: it must fit an i16.
    let widest = |v: &[i16]| v.iter().map(|w| (*w as i32).abs()).max().unwrap_or(0);
    let (pieces, threats) = w1.split_at(arch.piece_inputs() * h);
    let (max_w1, max_t, max_b1) = (widest(pieces), widest(threats), widest(&b1));
    if max_b1 + MAX_PIECES * max_w1 + MAX_THREATS as i32 * max_t > i16::MAX as i32 {
        return Err(NetError::Range(format!(
            "input weights up to {max_w1}, threat weights up to {max_t} and biases up to {max_b1}"
        )));
    }
    let max_w2 = widest(&w2);
    if max_w2 > MAX_OUTPUT_WEIGHT {
        return Err(NetError::Range(format!("output weight {max_w2} (at most {MAX_OUTPUT_WEIGHT})")));
    }
    let mut net = if arch.stack {
        let stack = read_stack(&body[(arch.inputs() * h + h) * 2..], &arch);
        if let Some(why) = stack.out_of_range() {
            return Err(NetError::Range(why));
        }
        Network::from_stack(arch, w1, b1, stack)
    } else {
        Network::from_parts(arch, w1, b1, w2, b2)
    };
    (net.scale, net.description) = (scale, description);
    debug_assert_eq!(net.checksum, checksum);
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{random_arch_net, random_net, test_archs};
    use super::*;

    #[test]
    fn files_round_trip_and_bad_ones_are_refused_with_a_reason() {
        let net = random_net(5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), HEADER_SIZE + payload_size(&Arch::ONE));
        assert_eq!(payload_size(&Arch::ONE), 646_660);
        assert_eq!(u16_at(&bytes, 8), 1);
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
        let mut future = bytes.clone();
        future[8] = 4; // version 4
        assert!(matches!(refused(&future), NetError::Header(_)));
        let mut flipped = bytes.clone();
        flipped[HEADER_SIZE + 1000] ^= 1;
        assert!(matches!(refused(&flipped), NetError::Corrupt(_)));
        let mut wide = net.clone();
        wide.w2[256 + 7] = 200;
        assert!(matches!(refused(&wide.to_bytes()), NetError::Range(_)));
        let mut hot = net;
        hot.w1[3 * 256] = 2000;
        assert!(matches!(refused(&hot.to_bytes()), NetError::Range(_)));
        // Every refusal reads as one line.
        for e in [refused(&bytes[..10]), refused(&other), refused(&flipped), refused(&future)] {
            assert!(!e.to_string().contains('\n') && !e.to_string().is_empty());
        }
    }

    #[test]
    fn version_2_and_3_files_round_trip_and_name_their_shape() {
        for arch in test_archs().into_iter().skip(1) {
            let net = random_arch_net(arch, 6);
            let bytes = net.to_bytes();
            assert_eq!(u16_at(&bytes, 8), if arch.stack { 3 } else { 2 });
            assert_eq!(bytes.len(), HEADER_SIZE + EXTRA_SIZE + payload_size(&arch));
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!((back.arch(), back.to_bytes()), (arch, bytes.clone()));
            let refused = |b: &[u8]| Network::from_bytes(b).err().expect("refused");
            for (at, value) in [(HEADER_SIZE, 7u8), (HEADER_SIZE + 1, 5), (HEADER_SIZE + 2, 9), (HEADER_SIZE + 3, 1)] {
                let mut bad = bytes.clone();
                bad[at] = value;
                let e = refused(&bad);
                assert!(matches!(e, NetError::Architecture(_)), "{e}");
                assert!(!e.to_string().contains('\n'));
            }
            let mut bad = bytes.clone();
            bad[HEADER_SIZE + 2] = (arch.output_buckets % 8 + 1) as u8; // another bucket count: other size
            assert!(matches!(refused(&bad), NetError::Corrupt(_) | NetError::Architecture(_)));
            assert!(matches!(refused(&bytes[..HEADER_SIZE + 3]), NetError::Header(_)));
            // The stack's layer sizes: only 16 and 32 in version 3, none in version 2.
            let mut bad = bytes.clone();
            bad[HEADER_SIZE + 4] = if arch.stack { 8 } else { 16 };
            assert!(matches!(refused(&bad), NetError::Architecture(_)));
            if let Some(stack) = &net.stack {
                let mut hot = net.clone();
                hot.stack.as_mut().unwrap().w4[3] = 16385;
                assert!(matches!(refused(&hot.to_bytes()), NetError::Range(_)));
                let mut hot = net.clone();
                hot.stack.as_mut().unwrap().w2[3] = -2041;
                assert!(matches!(refused(&hot.to_bytes()), NetError::Range(_)));
                let mut hot = net.clone();
                hot.stack.as_mut().unwrap().b3[1] = i32::MAX - 5;
                assert!(matches!(refused(&hot.to_bytes()), NetError::Range(_)));
                assert_eq!(back.stack.as_ref(), Some(stack));
            }
        }
    }
}
