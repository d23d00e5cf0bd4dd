//! The network's inner loops: accumulator column updates and the output's SCReLU dot product.
//!
//! Each loop is written once in plain Rust (the portable path, which the compiler vectorises
//! for the target's baseline, SSE2 on x86-64). On x86-64 with AVX2 (detected at run time) the
//! dot product uses explicit AVX2 intrinsics and the updates the same plain loops compiled
//! for AVX2; `chuhe bench --eval nnue` and `benches/search.rs` measure the difference.

use super::{HIDDEN, QA};

type Column = [i16; HIDDEN];

#[inline(always)]
fn add_portable(acc: &mut Column, w: &Column) {
    for (a, w) in acc.iter_mut().zip(w) {
        *a += w;
    }
}

#[inline(always)]
fn sub_add_portable(old: &Column, new: &mut Column, sub: &Column, add: &Column) {
    for i in 0..HIDDEN {
        new[i] = old[i] - sub[i] + add[i];
    }
}

#[inline(always)]
fn sub_sub_add_portable(old: &Column, new: &mut Column, sub1: &Column, sub2: &Column, add: &Column) {
    for i in 0..HIDDEN {
        new[i] = old[i] - sub1[i] - sub2[i] + add[i];
    }
}

#[inline(always)]
fn screlu_dot_portable(acc: &Column, w: &Column) -> i32 {
    let mut sum = 0i32;
    for i in 0..HIDDEN {
        let v = acc[i].clamp(0, QA as i16) as i32;
        sum += v * v * w[i] as i32;
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub fn add(acc: &mut Column, w: &Column) {
        add_portable(acc, w)
    }

    #[target_feature(enable = "avx2")]
    pub fn sub_add(old: &Column, new: &mut Column, sub: &Column, add: &Column) {
        sub_add_portable(old, new, sub, add)
    }

    #[target_feature(enable = "avx2")]
    pub fn sub_sub_add(old: &Column, new: &mut Column, sub1: &Column, sub2: &Column, add: &Column) {
        sub_sub_add_portable(old, new, sub1, sub2, add)
    }

    /// Sixteen lanes at a time: clamp to 0..=QA, v·w in 16 bits (|v·w| ≤ 255·127 fits),
    /// then `madd` multiplies by v again and adds pairs into 32-bit lanes.
    #[target_feature(enable = "avx2")]
    pub fn screlu_dot(acc: &Column, w: &Column) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (a, w) in acc.chunks_exact(16).zip(w.chunks_exact(16)) {
            // SAFETY: each chunk is 16 i16s (32 bytes) inside a live array, and loadu has no
            // alignment requirement.
            let (a, w) = unsafe {
                (_mm256_loadu_si256(a.as_ptr() as *const __m256i), _mm256_loadu_si256(w.as_ptr() as *const __m256i))
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v));
        }
        let half = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
        let one = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b10_11_00_01));
        _mm_cvtsi128_si32(one)
    }
}

/// Whether this machine runs the AVX2 path (std caches the CPUID answer).
#[inline(always)]
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Which path runs here: "avx2" or "portable".
pub fn path() -> &'static str {
    if has_avx2() {
        "avx2"
    } else {
        "portable"
    }
}

// SAFETY (every `unsafe` call below): the AVX2 functions are called only after
// `has_avx2()` found the CPU supports AVX2, which is all `target_feature` requires.

/// `acc += w`.
#[inline]
pub fn add(acc: &mut Column, w: &Column) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        return unsafe { avx2::add(acc, w) };
    }
    add_portable(acc, w)
}

/// `new = old − sub + add`.
#[inline]
pub fn sub_add(old: &Column, new: &mut Column, sub: &Column, add: &Column) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        return unsafe { avx2::sub_add(old, new, sub, add) };
    }
    sub_add_portable(old, new, sub, add)
}

/// `new = old − sub1 − sub2 + add`.
#[inline]
pub fn sub_sub_add(old: &Column, new: &mut Column, sub1: &Column, sub2: &Column, add: &Column) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        return unsafe { avx2::sub_sub_add(old, new, sub1, sub2, add) };
    }
    sub_sub_add_portable(old, new, sub1, sub2, add)
}

/// Σ clamp(acc, 0, QA)² · w.
#[inline]
pub fn screlu_dot(acc: &Column, w: &Column) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        return unsafe { avx2::screlu_dot(acc, w) };
    }
    screlu_dot_portable(acc, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_paths_agree() {
        let mut rng = crate::board::zobrist::Rng::new(9);
        for _ in 0..200 {
            let mut acc = [0i16; HIDDEN];
            let mut w = [0i16; HIDDEN];
            for i in 0..HIDDEN {
                acc[i] = (rng.next_u64() % 700) as i16 - 300;
                w[i] = (rng.next_u64() % 255) as i16 - 127;
            }
            assert_eq!(screlu_dot(&acc, &w), screlu_dot_portable(&acc, &w));
            let (mut a, mut b) = ([0i16; HIDDEN], [0i16; HIDDEN]);
            sub_sub_add(&acc, &mut a, &w, &w, &acc);
            sub_sub_add_portable(&acc, &mut b, &w, &w, &acc);
            assert_eq!(a, b);
        }
    }
}
