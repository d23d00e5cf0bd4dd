//! The network's inner loops: accumulator column updates and the output's SCReLU dot product,
//! for any hidden width that is a multiple of 64.
//!
//! Each loop is written once in plain Rust (the portable path, which the compiler vectorises
//! for the target's baseline, SSE2 on x86-64) and once with AVX2 intrinsics. Which one runs
//! is decided once, when a net is built (`Simd::detect`), and stored in the net: the hot
//! loops branch on a stored flag, not on a CPU query.

use super::QA;

/// Lanes one pass of the AVX2 update loops handles (four 256-bit registers).
pub const LANES: usize = 64;

/// Which path a net's loops take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simd {
    /// Plain Rust.
    Portable,
    /// AVX2 intrinsics (only ever set when the CPU has AVX2).
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

static DETECTED: std::sync::LazyLock<Simd> = std::sync::LazyLock::new(|| {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        return Simd::Avx2;
    }
    Simd::Portable
});

impl Simd {
    /// The best path this CPU runs (asked once per process).
    pub fn detect() -> Simd {
        *DETECTED
    }

    /// "avx2" or "portable".
    pub fn name(self) -> &'static str {
        match self {
            Simd::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => "avx2",
        }
    }
}

mod portable {
    use super::QA;

    pub fn add(acc: &mut [i16], w: &[i16]) {
        for (a, w) in acc.iter_mut().zip(w) {
            *a += w;
        }
    }

    pub fn sub(acc: &mut [i16], w: &[i16]) {
        for (a, w) in acc.iter_mut().zip(w) {
            *a -= w;
        }
    }

    pub fn sub_add(old: &[i16], new: &mut [i16], sub: &[i16], add: &[i16]) {
        for (((n, o), s), a) in new.iter_mut().zip(old).zip(sub).zip(add) {
            *n = o - s + a;
        }
    }

    pub fn sub_sub_add(old: &[i16], new: &mut [i16], sub1: &[i16], sub2: &[i16], add: &[i16]) {
        for ((((n, o), s1), s2), a) in new.iter_mut().zip(old).zip(sub1).zip(sub2).zip(add) {
            *n = o - s1 - s2 + a;
        }
    }

    /// Sums in `i32` over 16 lanes at a time (at most 16·255²·127 each), then in `i64`.
    pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
        let mut total = 0i64;
        for (a, w) in acc.chunks_exact(16).zip(w.chunks_exact(16)) {
            let mut sum = 0i32;
            for (a, w) in a.iter().zip(w) {
                let v = (*a).clamp(0, QA as i16) as i32;
                sum += v * v * *w as i32;
            }
            total += sum as i64;
        }
        total
    }
}

/// A stack's first-layer input of an accumulator value `v`: `clamp(v, 0, QA)² / QA` rounded,
/// 0..=QA (the squared clipped ReLU at the accumulators' own scale).
#[inline(always)]
fn stack_input(v: i16) -> i16 {
    let c = v.clamp(0, QA as i16) as i32;
    ((c * c + QA / 2) / QA) as i16
}

/// A stack's first layer: `out[j] = Σ input · w[j]` over the inputs of `us` then `them`.
fn stack_layer_portable(us: &[i16], them: &[i16], w: &[i16], out: &mut [i32]) {
    let mut act = [0i16; 2 * 1024];
    let (a, b) = act.split_at_mut(us.len());
    a.iter_mut().zip(us).for_each(|(a, &v)| *a = stack_input(v));
    b.iter_mut().zip(them).for_each(|(a, &v)| *a = stack_input(v));
    let act = &act[..us.len() + them.len()];
    for (o, row) in out.iter_mut().zip(w.chunks_exact(act.len())) {
        *o = act.iter().zip(row).map(|(&a, &w)| a as i32 * w as i32).sum();
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{LANES, QA};
    use std::arch::x86_64::*;

    // SAFETY (every load and store below): the callers pass slices of length `N` (the
    // `by_width!` dispatch matches the length), a multiple of `LANES`, so each 16-lane access
    // below `N` stays inside them; `loadu`/`storeu` have no alignment requirement. `N` is a
    // constant so that each width's loop is unrolled.

    #[inline(always)]
    unsafe fn load(s: &[i16], i: usize) -> __m256i {
        _mm256_loadu_si256(s.as_ptr().add(i) as *const __m256i)
    }

    #[inline(always)]
    unsafe fn store(s: &mut [i16], i: usize, v: __m256i) {
        _mm256_storeu_si256(s.as_mut_ptr().add(i) as *mut __m256i, v)
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn add<const N: usize>(acc: &mut [i16], w: &[i16]) {
        for i in 0..N / LANES {
            for r in 0..4 {
                let j = i * LANES + 16 * r;
                store(acc, j, _mm256_add_epi16(load(acc, j), load(w, j)));
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn sub<const N: usize>(acc: &mut [i16], w: &[i16]) {
        for i in 0..N / LANES {
            for r in 0..4 {
                let j = i * LANES + 16 * r;
                store(acc, j, _mm256_sub_epi16(load(acc, j), load(w, j)));
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn sub_add<const N: usize>(old: &[i16], new: &mut [i16], sub: &[i16], add: &[i16]) {
        for i in 0..N / LANES {
            for r in 0..4 {
                let j = i * LANES + 16 * r;
                let v = _mm256_add_epi16(_mm256_sub_epi16(load(old, j), load(sub, j)), load(add, j));
                store(new, j, v);
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn sub_sub_add<const N: usize>(old: &[i16], new: &mut [i16], sub1: &[i16], sub2: &[i16], add: &[i16]) {
        for i in 0..N / LANES {
            for r in 0..4 {
                let j = i * LANES + 16 * r;
                let v = _mm256_sub_epi16(_mm256_sub_epi16(load(old, j), load(sub1, j)), load(sub2, j));
                store(new, j, _mm256_add_epi16(v, load(add, j)));
            }
        }
    }

    /// Sixteen lanes at a time: clamp to 0..=QA, v·w in 16 bits (|v·w| ≤ 255·127 fits),
    /// then `madd` multiplies by v again and adds pairs into 32-bit lanes. Each of the 8
    /// lanes sums `len / 8` terms of at most 255²·127: below 2³¹ up to 2048 neurons. The
    /// lanes are added in `i64`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot<const N: usize>(acc: &[i16], w: &[i16]) -> i64 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = [_mm256_setzero_si256(); 2];
        for i in 0..N / 32 {
            for (r, s) in sum.iter_mut().enumerate() {
                let j = i * 32 + 16 * r;
                let v = _mm256_min_epi16(_mm256_max_epi16(load(acc, j), zero), qa);
                *s = _mm256_add_epi32(*s, _mm256_madd_epi16(_mm256_mullo_epi16(v, load(w, j)), v));
            }
        }
        let both = _mm256_add_epi32(sum[0], sum[1]);
        let wide = _mm256_add_epi64(
            _mm256_cvtepi32_epi64(_mm256_castsi256_si128(both)),
            _mm256_cvtepi32_epi64(_mm256_extracti128_si256(both, 1)),
        );
        let half = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
        _mm_cvtsi128_si64(half) + _mm_extract_epi64(half, 1)
    }

    /// `stack_input` of 16 lanes: clamp, square (at most 255², inside a `u16`), then the
    /// rounded division by 255 as (x + 127) · 0x8081 >> 23, exact for x below 2¹⁶.
    #[inline(always)]
    unsafe fn stack_inputs(v: __m256i) -> __m256i {
        let c = _mm256_min_epi16(_mm256_max_epi16(v, _mm256_setzero_si256()), _mm256_set1_epi16(QA as i16));
        let x = _mm256_add_epi16(_mm256_mullo_epi16(c, c), _mm256_set1_epi16((QA / 2) as i16));
        _mm256_srli_epi16(_mm256_mulhi_epu16(x, _mm256_set1_epi16(0x8081u16 as i16)), 7)
    }

    /// A stack's first layer, eight rows per pass over the inputs (sixteen lanes at a time,
    /// made by `stack_inputs` in registers), `madd` into 32-bit lanes: exact, as the caller
    /// keeps every sum inside an `i32`. The eight rows' lanes are then added across.
    #[target_feature(enable = "avx2")]
    pub unsafe fn stack_layer(us: &[i16], them: &[i16], w: &[i16], out: &mut [i32]) {
        let (h, n) = (us.len(), us.len() + them.len());
        for (block, o) in out.chunks_exact_mut(8).enumerate() {
            let mut sum = [_mm256_setzero_si256(); 8];
            for i in (0..n).step_by(16) {
                let a = stack_inputs(if i < h { load(us, i) } else { load(them, i - h) });
                for (r, s) in sum.iter_mut().enumerate() {
                    *s = _mm256_add_epi32(*s, _mm256_madd_epi16(a, load(w, (block * 8 + r) * n + i)));
                }
            }
            let quad = |a, b, c, d| _mm256_hadd_epi32(_mm256_hadd_epi32(a, b), _mm256_hadd_epi32(c, d));
            let (low, high) = (quad(sum[0], sum[1], sum[2], sum[3]), quad(sum[4], sum[5], sum[6], sum[7]));
            let rows = _mm256_add_epi32(
                _mm256_permute2x128_si256(low, high, 0x20),
                _mm256_permute2x128_si256(low, high, 0x31),
            );
            _mm256_storeu_si256(o.as_mut_ptr() as *mut __m256i, rows);
        }
    }
}

// SAFETY (every `unsafe` call below): `Simd::Avx2` exists only when `Simd::detect` found the
// CPU has AVX2, which is all `target_feature` requires; `by_width!` calls a kernel of width
// `N` only when the slice it matches has length `N`, and each method asserts first that all
// its slices have one length (a few compares per call, against reading out of bounds).

/// Calls the AVX2 kernel `f` compiled for the hidden width `len` (one of `HIDDEN_SIZES`),
/// else the portable one.
macro_rules! by_width {
    ($len:expr, $f:ident($($arg:expr),*)) => {
        match $len {
            256 => unsafe { avx2::$f::<256>($($arg),*) },
            512 => unsafe { avx2::$f::<512>($($arg),*) },
            768 => unsafe { avx2::$f::<768>($($arg),*) },
            1024 => unsafe { avx2::$f::<1024>($($arg),*) },
            _ => portable::$f($($arg),*),
        }
    };
}

impl Simd {
    /// `acc += w`.
    #[inline(always)]
    pub fn add(self, acc: &mut [i16], w: &[i16]) {
        assert!(acc.len() == w.len(), "one width");
        match self {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => by_width!(acc.len(), add(acc, w)),
            Simd::Portable => portable::add(acc, w),
        }
    }

    /// `acc −= w`.
    #[inline(always)]
    pub fn sub(self, acc: &mut [i16], w: &[i16]) {
        assert!(acc.len() == w.len(), "one width");
        match self {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => by_width!(acc.len(), sub(acc, w)),
            Simd::Portable => portable::sub(acc, w),
        }
    }

    /// `new = old − sub + add`.
    #[inline(always)]
    pub fn sub_add(self, old: &[i16], new: &mut [i16], sub: &[i16], add: &[i16]) {
        assert!(old.len() == new.len() && sub.len() == new.len() && add.len() == new.len(), "one width");
        match self {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => by_width!(new.len(), sub_add(old, new, sub, add)),
            Simd::Portable => portable::sub_add(old, new, sub, add),
        }
    }

    /// `new = old − sub1 − sub2 + add`.
    #[inline(always)]
    pub fn sub_sub_add(self, old: &[i16], new: &mut [i16], sub1: &[i16], sub2: &[i16], add: &[i16]) {
        let n = new.len();
        assert!(old.len() == n && sub1.len() == n && sub2.len() == n && add.len() == n, "one width");
        match self {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => by_width!(new.len(), sub_sub_add(old, new, sub1, sub2, add)),
            Simd::Portable => portable::sub_sub_add(old, new, sub1, sub2, add),
        }
    }

    /// `new = old − sub + add` at a width known when compiling (no length checks).
    #[inline(always)]
    pub fn sub_add_n<const N: usize>(self, old: &[i16; N], new: &mut [i16; N], sub: &[i16; N], add: &[i16; N]) {
        match self {
            // SAFETY: as above; the array types make every length `N`.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { avx2::sub_add::<N>(old, new, sub, add) },
            Simd::Portable => portable::sub_add(old, new, sub, add),
        }
    }

    /// `new = old − sub1 − sub2 + add` at a width known when compiling (no length checks).
    #[inline(always)]
    pub fn sub_sub_add_n<const N: usize>(
        self,
        old: &[i16; N],
        new: &mut [i16; N],
        sub1: &[i16; N],
        sub2: &[i16; N],
        add: &[i16; N],
    ) {
        match self {
            // SAFETY: as above; the array types make every length `N`.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { avx2::sub_sub_add::<N>(old, new, sub1, sub2, add) },
            Simd::Portable => portable::sub_sub_add(old, new, sub1, sub2, add),
        }
    }

    /// Σ clamp(acc, 0, QA)² · w at a width known when compiling (no length checks).
    #[inline(always)]
    pub fn screlu_dot_n<const N: usize>(self, acc: &[i16; N], w: &[i16; N]) -> i64 {
        match self {
            // SAFETY: as above; the array types make every length `N`.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { avx2::screlu_dot::<N>(acc, w) },
            Simd::Portable => portable::screlu_dot(acc, w),
        }
    }

    /// A stack's first layer: `out[j] = Σ input · w[j]` over the rows of `w`, the inputs
    /// (`stack_input`, 0..=QA) those of the halves `us` and `them`.
    #[inline(always)]
    pub fn stack_layer(self, us: &[i16], them: &[i16], w: &[i16], out: &mut [i32]) {
        let n = us.len() + them.len();
        let fits = us.len() == them.len() && us.len().is_multiple_of(16) && n <= 2048;
        assert!(fits && out.len().is_multiple_of(8) && w.len() == out.len() * n, "stack sizes");
        match self {
            // SAFETY: as above; the loads read 16 lanes below the length (a multiple of 16) of
            // `us`, `them` and of a row of `n` inside `w`, and the stores eight lanes of
            // `out`, whose lengths the assert checked.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { avx2::stack_layer(us, them, w, out) },
            Simd::Portable => stack_layer_portable(us, them, w, out),
        }
    }

    /// Σ clamp(acc, 0, QA)² · w.
    #[inline(always)]
    pub fn screlu_dot(self, acc: &[i16], w: &[i16]) -> i64 {
        assert!(acc.len() == w.len(), "one width");
        match self {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => by_width!(acc.len(), screlu_dot(acc, w)),
            Simd::Portable => portable::screlu_dot(acc, w),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_paths_agree_at_every_width() {
        let mut rng = crate::board::zobrist::Rng::new(9);
        let (best, portable) = (Simd::detect(), Simd::Portable);
        for width in super::super::arch::HIDDEN_SIZES {
            for _ in 0..50 {
                let mut col = |lo: i64, span: u64| -> Vec<i16> {
                    (0..width).map(|_| ((rng.next_u64() % span) as i64 + lo) as i16).collect()
                };
                let (acc, w, x) = (col(-300, 700), col(-127, 255), col(-200, 400));
                assert_eq!(best.screlu_dot(&acc, &w), portable.screlu_dot(&acc, &w));
                let (mut a, mut b) = (vec![0i16; width], vec![0i16; width]);
                best.sub_sub_add(&acc, &mut a, &w, &x, &acc);
                portable.sub_sub_add(&acc, &mut b, &w, &x, &acc);
                assert_eq!(a, b);
                best.sub_add(&acc, &mut a, &w, &x);
                portable.sub_add(&acc, &mut b, &w, &x);
                assert_eq!(a, b);
                best.add(&mut a, &x);
                portable.add(&mut b, &x);
                best.sub(&mut a, &w);
                portable.sub(&mut b, &w);
                assert_eq!(a, b);
            }
        }
        // A stack's first layer: the same sums, at the extremes too (inputs at QA against
        // the most negative weight the loader allows).
        for width in super::super::arch::HIDDEN_SIZES {
            for round in 0..20 {
                let mut half = || -> Vec<i16> { (0..width).map(|_| (rng.next_u64() % 700) as i16 - 300).collect() };
                let (us, them) = if round == 0 { (vec![QA as i16; width], vec![400; width]) } else { (half(), half()) };
                let rows = 16;
                let w: Vec<i16> = (0..rows * 2 * width)
                    .map(|i| if round == 0 { -2040 } else { (i as u64 * 2654435761 % 4081) as i16 - 2040 })
                    .collect();
                let (mut o1, mut o2) = (vec![0i32; rows], vec![0i32; rows]);
                best.stack_layer(&us, &them, &w, &mut o1);
                portable.stack_layer(&us, &them, &w, &mut o2);
                assert_eq!(o1, o2);
                if round == 0 {
                    assert!(o1.iter().all(|&o| o == -(2 * width as i32) * QA * 2040));
                }
            }
        }
        // The widest sum does not overflow: every lane at QA against the largest weight.
        let (acc, w) = (vec![QA as i16; 1024], vec![127i16; 1024]);
        assert_eq!(best.screlu_dot(&acc, &w), 1024 * 255 * 255 * 127);
    }
}
