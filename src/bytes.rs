//! Little-endian numbers at a byte offset: the one set of readers for the binary files (the
//! net, the books, the training data). The caller has checked that the bytes are there.

/// The `N` bytes from `at`.
fn array<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    let mut a = [0; N];
    a.copy_from_slice(&b[at..at + N]);
    a
}

/// The `u16` at byte `at`.
pub fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(array(b, at))
}

/// The `i16` at byte `at`.
pub fn i16_at(b: &[u8], at: usize) -> i16 {
    i16::from_le_bytes(array(b, at))
}

/// The `u32` at byte `at`.
pub fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(array(b, at))
}

/// The `i32` at byte `at`.
pub fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(array(b, at))
}

/// The `u64` at byte `at`.
pub fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(array(b, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_back_as_written() {
        let mut b = vec![0xAA];
        b.extend_from_slice(&0x1234u16.to_le_bytes());
        b.extend_from_slice(&(-2i16).to_le_bytes());
        b.extend_from_slice(&0xDEAD_BEEFu32.to_le_bytes());
        b.extend_from_slice(&(-7i32).to_le_bytes());
        b.extend_from_slice(&0x0123_4567_89AB_CDEFu64.to_le_bytes());
        assert_eq!((u16_at(&b, 1), i16_at(&b, 3), u32_at(&b, 5)), (0x1234, -2, 0xDEAD_BEEF));
        assert_eq!((i32_at(&b, 9), u64_at(&b, 13)), (-7, 0x0123_4567_89AB_CDEF));
    }
}
