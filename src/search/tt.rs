//! The transposition table shared by all search threads: buckets of four entries, each a
//! pair of atomics (key xor data, data) so a torn write is detected instead of trusted.

use super::score::{Bound, RULE_BOUND};
use crate::board::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Entries per bucket (a bucket is one 64-byte cache line).
const BUCKET_SLOTS: usize = 4;
/// Bytes one bucket takes.
const BUCKET_BYTES: usize = BUCKET_SLOTS * 16;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

// Aligned to its cache line: the allocator's large blocks start 16 bytes past a page, which
// split every bucket over two lines.
#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; BUCKET_SLOTS],
}

/// One table entry as the search reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refuting move (may be `Move::NULL`).
    pub mv: Move,
    /// Score adjusted to the probing ply.
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// Exact, lower or upper bound.
    pub bound: Bound,
}

impl TtEntry {
    /// Whether the stored score settles a search with window (alpha, beta): exact, or a
    /// bound on the side of the window it fails.
    #[inline]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

fn bound_bits(b: Bound) -> u64 {
    match b {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    }
}

fn bits_bound(b: u64) -> Bound {
    match b {
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => Bound::Exact,
    }
}

/// Mate and rule-outcome scores are stored relative to the node, not the root, so they stay
/// true at any ply.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= RULE_BOUND {
        score + ply as i32
    } else if score <= -RULE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of `score_to_tt`.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= RULE_BOUND {
        score - ply as i32
    } else if score <= -RULE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// `n` empty buckets from a zeroed allocation (the kernel maps the pages only as the search
/// writes them), or `None` if the allocator refuses. Fallible and zeroed at once is not in
/// stable safe Rust (a reserve-then-fill touches every page; a reserve used only as a probe
/// is optimised away), hence the allocator call.
fn zeroed_buckets(n: usize) -> Option<Vec<Bucket>> {
    let layout = std::alloc::Layout::array::<Bucket>(n).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // SAFETY: the layout has a non-zero size (checked above); a null result is handled; all-zero
    // bytes are a valid `Bucket` (every field is an `AtomicU64`, zero being 0); and the memory
    // comes from the global allocator with exactly the layout a `Vec<Bucket>` of capacity `n`
    // has, so the `Vec` may own it, with all `n` elements initialised.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<Bucket>();
        if ptr.is_null() {
            return None;
        }
        Some(Vec::from_raw_parts(ptr, n, n))
    }
}

// data layout: move 0..16, score 16..32, eval 32..48, depth 48..56, bound 56..58, generation 58..64
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    (mv.0 as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | ((depth.clamp(0, 255) as u64) << 48)
        | (bound_bits(bound) << 56)
        | (((generation & 63) as u64) << 58)
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32
}

impl TranspositionTable {
    /// A table of exactly `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let n = (mb.max(1) * 1024 * 1024 / BUCKET_BYTES).max(1);
        let buckets = std::iter::repeat_with(Bucket::default).take(n).collect();
        TranspositionTable { buckets, generation: AtomicU8::new(0) }
    }

    /// A table of exactly `mb` megabytes, or `None` when the memory cannot be had (the
    /// allocation is tried, not assumed: a GUI may ask for more than the machine has).
    pub fn try_new(mb: usize) -> Option<TranspositionTable> {
        let n = (mb.max(1).checked_mul(1024 * 1024)? / BUCKET_BYTES).max(1);
        Some(TranspositionTable { buckets: zeroed_buckets(n)?, generation: AtomicU8::new(0) })
    }

    /// An empty table of the same size straight from the allocator, or `None` if refused.
    /// For a large table this writes nothing: the kernel maps zero pages as the search
    /// touches them, where `clear_with` writes every byte.
    pub fn fresh(&self) -> Option<TranspositionTable> {
        Some(TranspositionTable { buckets: zeroed_buckets(self.buckets.len())?, generation: AtomicU8::new(0) })
    }

    /// Size in bytes actually allocated for entries.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Empties every entry (new game) with up to `threads` threads: GUIs such as Xiangqi Lab
    /// send `ucinewgame` before every search, with a 2 GB table.
    pub fn clear_with(&self, threads: usize) {
        fn wipe(buckets: &[Bucket]) {
            for b in buckets {
                for s in &b.slots {
                    s.check.store(0, Ordering::Relaxed);
                    s.data.store(0, Ordering::Relaxed);
                }
            }
        }
        // Below 64 MB a thread costs more than it saves.
        let threads = threads.clamp(1, (self.bytes() >> 26).max(1));
        if threads == 1 {
            wipe(&self.buckets);
        } else {
            let chunk = self.buckets.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for part in self.buckets.chunks(chunk) {
                    scope.spawn(move || wipe(part));
                }
            });
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store(g.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the CPU to bring `key`'s bucket into its cache, so that the probe a little later
    /// does not wait for memory (with the alignment, 10% less time in `bench`: docs/speed.md).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let line = (self.bucket(key) as *const Bucket).cast::<i8>();
            // SAFETY: SSE, which has this instruction, is part of every x86-64 target; a prefetch
            // is a hint that neither faults nor changes memory, whatever the address (here a
            // bucket the table owns).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, its score adjusted to `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for s in &self.bucket(key).slots {
            let data = s.data.load(Ordering::Relaxed);
            if data != 0 && s.check.load(Ordering::Relaxed) ^ data == key {
                let score = (data >> 16) as u16 as i16 as i32;
                return Some(TtEntry {
                    mv: Move(data as u16),
                    score: score_from_tt(score, ply),
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: depth_of(data),
                    bound: bits_bound((data >> 56) & 3),
                });
            }
        }
        None
    }

    /// Stores a search result; replaces the same position, else the shallowest or oldest entry.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, ply: usize) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, s) in bucket.slots.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = i;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if s.check.load(Ordering::Relaxed) ^ data == key {
                // Same position: keep a deeper exact result of this search, and an old move.
                if bound != Bound::Exact && depth + 3 < depth_of(data) && generation_of(data) == generation {
                    return;
                }
                let mv = if mv.is_null() { Move(data as u16) } else { mv };
                let new = pack(mv, score_to_tt(score, ply), eval, depth, bound, generation);
                s.data.store(new, Ordering::Relaxed);
                s.check.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 63) as i32;
            let worth = depth_of(data) - 8 * age;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let new = pack(mv, score_to_tt(score, ply), eval, depth, bound, generation);
        let s = &bucket.slots[victim];
        s.data.store(new, Ordering::Relaxed);
        s.check.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for s in &b.slots {
                let d = s.data.load(Ordering::Relaxed);
                if d != 0 && generation_of(d) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * BUCKET_SLOTS).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn each_bucket_is_one_whole_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), BUCKET_BYTES);
        for tt in [TranspositionTable::new(16), TranspositionTable::try_new(16).unwrap()] {
            assert_eq!(tt.buckets.as_ptr() as usize % 64, 0);
        }
    }

    #[test]
    fn size_is_exact_and_entries_round_trip() {
        let tt = TranspositionTable::new(2);
        assert_eq!(tt.bytes(), 2 * 1024 * 1024);
        let m = Move::parse("h2e2").unwrap();
        tt.store(0xDEAD_BEEF, m, -123, 45, 7, Bound::Lower, 3);
        let e = tt.probe(0xDEAD_BEEF, 3).unwrap();
        assert_eq!(e, TtEntry { mv: m, score: -123, eval: 45, depth: 7, bound: Bound::Lower });
        assert!(tt.probe(0xDEAD_BEEE, 3).is_none());
        tt.clear_with(1);
        assert!(tt.probe(0xDEAD_BEEF, 3).is_none());
    }

    #[test]
    fn clearing_with_threads_empties_every_entry() {
        let tt = TranspositionTable::new(192);
        let m = Move::parse("h2e2").unwrap();
        let keys: Vec<u64> = (1..2000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        for &k in &keys {
            tt.store(k, m, 1, 2, 3, Bound::Exact, 0);
        }
        assert!(keys.iter().filter(|&&k| tt.probe(k, 0).is_some()).count() > 1900);
        tt.clear_with(3);
        assert!(keys.iter().all(|&k| tt.probe(k, 0).is_none()));
    }

    #[test]
    fn a_fresh_table_is_empty_and_the_same_size() {
        let tt = TranspositionTable::try_new(3).unwrap();
        tt.new_search();
        tt.store(7, Move::parse("h2e2").unwrap(), 1, 2, 3, Bound::Exact, 0);
        let fresh = tt.fresh().unwrap();
        assert_eq!(fresh.bytes(), tt.bytes());
        assert_eq!(fresh.probe(7, 0), None);
        assert_eq!(fresh.generation.load(Ordering::Relaxed), 0);
        assert!(tt.probe(7, 0).is_some());
    }

    #[test]
    fn an_impossible_size_is_refused_not_fatal() {
        // black_box: an allocation nothing reads may be assumed to succeed and left out.
        let made = |mb: usize| std::hint::black_box(TranspositionTable::try_new(mb)).map(|t| t.bytes());
        assert_eq!(made(usize::MAX), None);
        assert_eq!(made(usize::MAX / (1 << 21)), None);
        assert_eq!(made(1), Some(1024 * 1024));
        let t = TranspositionTable::try_new(2).unwrap();
        t.store(7, Move::NULL, 1, 2, 3, Bound::Exact, 0);
        assert_eq!(t.probe(7, 0).map(|e| e.depth), Some(3));
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root, found at ply 3: stored as mate in 2 from the node.
        tt.store(42, Move::NULL, MATE - 5, 0, 4, Bound::Exact, 3);
        assert_eq!(tt.probe(42, 3).unwrap().score, MATE - 5);
        assert_eq!(tt.probe(42, 1).unwrap().score, MATE - 3);
        tt.store(43, Move::NULL, -MATE + 6, 0, 4, Bound::Exact, 2);
        assert_eq!(tt.probe(43, 4).unwrap().score, -MATE + 8);
    }
}
