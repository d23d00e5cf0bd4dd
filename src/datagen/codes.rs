//! The bit-level codes of the chained format (`chain.rs`): CRC-32, bits least significant
//! first, Exp-Golomb codes, zig-zag.

/// Zero bytes kept after a block's payload in memory, so the bit reader loads 8 bytes anywhere.
pub(super) const SLACK: usize = 8;

/// CRC-32 (IEEE, reflected) table.
static CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// CRC-32 of `bytes` (the zlib and PNG checksum), continuing from `crc` (0 to start).
pub fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in bytes {
        c = CRC_TABLE[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// Bits needed for an index below `n` (0 when there is one choice).
#[inline]
pub(super) fn index_bits(n: usize) -> u32 {
    if n <= 1 {
        0
    } else {
        usize::BITS - (n - 1).leading_zeros()
    }
}

/// Zig-zag: 0, −1, 1, −2, ... → 0, 1, 2, 3, ...
#[inline]
pub(super) fn zigzag(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

#[inline]
pub(super) fn unzigzag(u: u32) -> i32 {
    (u >> 1) as i32 ^ -((u & 1) as i32)
}

/// Appends bits, least significant first.
#[derive(Default)]
pub(super) struct BitWriter {
    bytes: Vec<u8>,
    acc: u64,
    used: u32,
}

impl BitWriter {
    /// Appends the low `n` (≤ 32) bits of `v`.
    pub(super) fn put(&mut self, v: u64, n: u32) {
        debug_assert!(n <= 32 && (n == 32 || v >> n == 0));
        self.acc |= v << self.used;
        self.used += n;
        while self.used >= 8 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.used -= 8;
        }
    }

    /// Appends `v` as an Exp-Golomb code of order `k`: z zero bits, a one, then the low
    /// z + k bits of v + 2^k, where v + 2^k has z + k + 1 bits.
    pub(super) fn put_golomb(&mut self, v: u32, k: u32) {
        let w = v as u64 + (1 << k);
        let z = 63 - w.leading_zeros() - k;
        self.put(1 << z, z + 1);
        let low = z + k;
        let rest = w & ((1 << low) - 1);
        if low > 32 {
            self.put(rest & 0xFFFF_FFFF, 32);
            self.put(rest >> 32, low - 32);
        } else {
            self.put(rest, low);
        }
    }

    /// The bytes, the last one padded with zero bits.
    pub(super) fn finish(mut self) -> Vec<u8> {
        if self.used > 0 {
            self.bytes.push(self.acc as u8);
        }
        self.bytes
    }
}

/// Reads bits, least significant first, from a block held with `SLACK` zero bytes after it.
pub(super) struct BitReader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) bit: usize,
    pub(super) limit: usize,
}

impl BitReader<'_> {
    /// The next `n` (≤ 56) bits.
    #[inline]
    pub(super) fn get(&mut self, n: u32) -> Result<u64, String> {
        if self.bit + n as usize > self.limit {
            return Err("a chain runs past the end of its block".into());
        }
        let at = self.bit >> 3;
        let word = u64::from_le_bytes(self.bytes[at..at + 8].try_into().expect("8 bytes"));
        self.bit += n as usize;
        Ok((word >> ((self.bit - n as usize) & 7)) & ((1u64 << n) - 1))
    }

    /// The next Exp-Golomb code of order `k`.
    #[inline]
    pub(super) fn get_golomb(&mut self, k: u32) -> Result<u32, String> {
        let at = self.bit >> 3;
        let word = u64::from_le_bytes(self.bytes[at..at + 8].try_into().expect("8 bytes")) >> (self.bit & 7);
        let z = word.trailing_zeros();
        if z > 24 {
            return Err("a number code too long".into());
        }
        self.get(z + 1)?;
        let low = z + k;
        let w = (1u64 << low) | self.get(low)?;
        u32::try_from(w - (1 << k)).map_err(|_| "a number code too long".to_string())
    }

    /// Byte offset after the current bit, rounded up.
    pub(super) fn byte_end(&self) -> usize {
        self.bit.div_ceil(8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_golomb_codes_round_trip() {
        let values: Vec<u32> = (0..300).chain([1000, 65_535, 1 << 20, (1 << 24) - 1]).collect();
        for k in [0, 3, 4, 6] {
            let mut w = BitWriter::default();
            for (i, &v) in values.iter().enumerate() {
                w.put_golomb(v, k);
                w.put(i as u64 & 7, 3);
            }
            let bytes = [w.finish(), vec![0; SLACK]].concat();
            let mut r = BitReader { bytes: &bytes, bit: 0, limit: (bytes.len() - SLACK) * 8 };
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(r.get_golomb(k), Ok(v), "order {k}");
                assert_eq!(r.get(3), Ok(i as u64 & 7));
            }
        }
        for v in [-10_000, -1, 0, 1, 77, 20_000] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        assert_eq!((index_bits(1), index_bits(2), index_bits(17), index_bits(32), index_bits(33)), (0, 1, 5, 5, 6));
    }
}
