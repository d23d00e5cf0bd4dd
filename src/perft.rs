//! Perft: counts the leaf nodes of the legal move tree, the ground truth for move generation.
//! Plain recursion, and a split over threads with an optional shared cache (`PerftTable`).

use crate::board::{Move, MoveList, Position};
use crate::lines::content_lines;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Leaf count of the legal move tree `depth` plies deep (the last ply counted, not listed).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    perft_by(pos, depth, Position::generate_legal, Position::count_legal)
}

/// `perft` over the reference generator (pseudo-legal moves, then a test of each risky one),
/// which the tests hold the legal generator to.
pub fn perft_reference(pos: &mut Position, depth: u32) -> u64 {
    let count = |p: &Position| {
        let mut list = MoveList::new();
        p.generate_legal_by_filter(&mut list);
        list.len() as u64
    };
    perft_by(pos, depth, Position::generate_legal_by_filter, count)
}

/// Perft with `generate` listing a position's moves and `count` counting them (the last ply).
#[inline(always)]
fn perft_by(
    pos: &mut Position,
    depth: u32,
    generate: impl Fn(&Position, &mut MoveList) + Copy,
    count: impl Fn(&Position) -> u64 + Copy,
) -> u64 {
    match depth {
        0 => 1,
        1 => count(pos),
        _ => {
            let mut moves = MoveList::new();
            generate(pos, &mut moves);
            let mut nodes = 0;
            for &m in &moves {
                let undo = pos.make_move(m);
                nodes += perft_by(pos, depth - 1, generate, count);
                pos.unmake_move(m, undo);
            }
            nodes
        }
    }
}

/// Perft split by root move: one `(move, count)` per legal move, sorted by move text.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    Perft::plain().divide(pos, depth, |_, _| {})
}

/// One cache slot: `check` is the salted key xor `data`, so a slot torn by two threads writing
/// at once fails the check instead of giving a wrong count.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    /// `count << 8 | depth`.
    data: AtomicU64,
}

/// Four slots on one cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; 4]);

/// A transposition cache of perft counts keyed by position and remaining depth, shared by
/// threads without locks. Allocated once; probing and storing never allocate.
pub struct PerftTable {
    buckets: Vec<Bucket>,
}

/// Counts at or above this do not fit beside the depth byte and are not stored.
const MAX_STORED: u64 = 1 << 56;

impl PerftTable {
    /// A table of `mb` MiB (at least one bucket); an error if the memory cannot be had.
    pub fn new(mb: usize) -> Result<PerftTable, String> {
        // Checked first: the allocation would succeed (overcommit) and filling it kill us.
        crate::memory::check_fits(mb as u64, "the perft cache (--hash)")?;
        let n = (mb.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).map_err(|_| format!("cannot allocate {mb} MB for the perft cache"))?;
        buckets.resize_with(n, Bucket::default);
        Ok(PerftTable { buckets })
    }

    /// The key of (position key, depth): the depth is mixed in so each depth has its own entry.
    fn salted(key: u64, depth: u32) -> u64 {
        key ^ u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn bucket(&self, k: u64) -> &Bucket {
        // Multiply-shift: uniform over any length, not just powers of two.
        &self.buckets[((u128::from(k) * self.buckets.len() as u128) >> 64) as usize]
    }

    /// The stored count of the position with key `key` at `depth`, if any.
    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let k = Self::salted(key, depth);
        self.bucket(k).0.iter().find_map(|s| {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            (check ^ data == k && data & 0xff == u64::from(depth)).then_some(data >> 8)
        })
    }

    /// Stores a count, over the same position's slot or else the shallowest one.
    fn store(&self, key: u64, depth: u32, count: u64) {
        if count >= MAX_STORED {
            return;
        }
        let k = Self::salted(key, depth);
        let slots = &self.bucket(k).0;
        let same = slots.iter().find(|s| s.check.load(Ordering::Relaxed) ^ s.data.load(Ordering::Relaxed) == k);
        let slot = same
            .unwrap_or_else(|| slots.iter().min_by_key(|s| s.data.load(Ordering::Relaxed) & 0xff).unwrap_or(&slots[0]));
        let data = count << 8 | u64::from(depth);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(k ^ data, Ordering::Relaxed);
    }
}

/// Perft through the cache: subtrees of depth 2 or more are looked up and stored.
fn perft_cached(pos: &mut Position, depth: u32, table: &PerftTable) -> u64 {
    if depth < 2 {
        return perft(pos, depth);
    }
    if let Some(n) = table.probe(pos.key(), depth) {
        return n;
    }
    let mut moves = MoveList::new();
    pos.generate_legal(&mut moves);
    let mut nodes = 0;
    for &m in &moves {
        let undo = pos.make_move(m);
        nodes += perft_cached(pos, depth - 1, table);
        pos.unmake_move(m, undo);
    }
    table.store(pos.key(), depth, nodes);
    nodes
}

/// How to count: threads and an optional cache. `Perft::plain()` is the one-thread count.
#[derive(Clone, Copy)]
pub struct Perft<'a> {
    /// Worker threads (at least one).
    pub threads: usize,
    /// Shared cache, if any.
    pub table: Option<&'a PerftTable>,
}

impl Perft<'_> {
    /// One thread, no cache.
    pub fn plain() -> Perft<'static> {
        Perft { threads: 1, table: None }
    }

    /// The leaf count under `pos` at `depth`.
    fn count(&self, pos: &mut Position, depth: u32) -> u64 {
        match self.table {
            Some(t) => perft_cached(pos, depth, t),
            None => perft(pos, depth),
        }
    }

    /// Perft split by root move (sorted by move text). Work is split into two-ply tasks
    /// (root move, reply) that the threads take in turn, so a few large root moves do not
    /// leave a thread idle; `done(move, count)` is called as each root move completes.
    pub fn divide(&self, pos: &mut Position, depth: u32, done: impl Fn(Move, u64) + Sync) -> Vec<(Move, u64)> {
        let roots = pos.legal_moves();
        if depth == 0 {
            return Vec::new();
        }
        // Tasks: (root index, reply) pairs when there are at least two plies below the root.
        let mut tasks: Vec<(usize, Option<Move>)> = Vec::new();
        for (i, &m) in roots.iter().enumerate() {
            if depth >= 3 {
                let undo = pos.make_move(m);
                tasks.extend(pos.legal_moves().into_iter().map(|r| (i, Some(r))));
                pos.unmake_move(m, undo);
            } else {
                tasks.push((i, None));
            }
        }
        let counts: Vec<AtomicU64> = roots.iter().map(|_| AtomicU64::new(0)).collect();
        let left: Vec<AtomicUsize> =
            (0..roots.len()).map(|i| AtomicUsize::new(tasks.iter().filter(|t| t.0 == i).count())).collect();
        for (i, &m) in roots.iter().enumerate() {
            if left[i].load(Ordering::Relaxed) == 0 {
                done(m, 0); // no reply: a mate or stalemate below the root
            }
        }
        let next = AtomicUsize::new(0);
        let work = |mut p: Position| {
            while let Some(&(i, reply)) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) {
                let m = roots[i];
                let undo = p.make_move(m);
                let n = match reply {
                    Some(r) => {
                        let u = p.make_move(r);
                        let n = self.count(&mut p, depth - 2);
                        p.unmake_move(r, u);
                        n
                    }
                    None => self.count(&mut p, depth - 1),
                };
                p.unmake_move(m, undo);
                let total = counts[i].fetch_add(n, Ordering::SeqCst) + n;
                if left[i].fetch_sub(1, Ordering::SeqCst) == 1 {
                    done(m, total);
                }
            }
        };
        std::thread::scope(|s| {
            for _ in 1..self.threads.max(1) {
                let p = pos.clone();
                s.spawn(|| work(p));
            }
            work(pos.clone());
        });
        let mut out: Vec<(Move, u64)> =
            roots.iter().zip(&counts).map(|(&m, c)| (m, c.load(Ordering::SeqCst))).collect();
        out.sort_by_key(|(m, _)| m.to_string());
        out
    }

    /// The leaf count under `pos` at `depth`.
    pub fn total(&self, pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.divide(pos, depth, |_, _| {}).iter().map(|(_, n)| n).sum()
    }
}

/// One position of a perft suite: `FEN ;D1 n ;D2 n ...`.
#[derive(Clone)]
pub struct EpdEntry {
    /// Line number in the file (1-based).
    pub line: usize,
    /// The FEN text as written.
    pub fen: String,
    /// The position.
    pub pos: Position,
    /// (depth, expected count) pairs in file order.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft suite: one `FEN ;D1 n ;D2 n ...` a line, `#` comments and blank lines
/// skipped, other `;` fields ignored. Errors name the line.
pub fn parse_epd(text: &str) -> Result<Vec<EpdEntry>, String> {
    let mut out = Vec::new();
    for (n, line) in content_lines(text) {
        let bad = |what: String| format!("line {n}: {what}");
        let mut fields = line.split(';');
        let fen = fields.next().unwrap_or("").trim().to_string();
        let pos = Position::from_fen(&fen).map_err(|e| bad(e.to_string()))?;
        let mut counts = Vec::new();
        for f in fields.map(str::trim).filter(|f| f.starts_with('D')) {
            let (d, n) = f[1..].split_once(char::is_whitespace).unwrap_or((&f[1..], ""));
            match (d.parse::<u32>(), n.trim().parse::<u64>()) {
                (Ok(d), Ok(n)) if d >= 1 => counts.push((d, n)),
                _ => return Err(bad(format!("'{f}' is not 'D<depth> <count>'"))),
            }
        }
        if counts.is_empty() {
            return Err(bad("no ';D<depth> <count>' fields".to_string()));
        }
        out.push(EpdEntry { line: n, fen, pos, counts });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_shallow() {
        let mut p = Position::startpos();
        assert_eq!(perft(&mut p, 1), 44);
        assert_eq!(perft(&mut p, 2), 1920);
        assert_eq!(perft(&mut p, 3), 79666);
        let d = divide(&mut p, 2);
        assert_eq!(d.len(), 44);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 1920);
    }

    #[test]
    fn threads_and_cache_give_the_plain_counts() {
        let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
        let mut p = Position::from_fen(fen).unwrap();
        let plain = divide(&mut p, 4);
        let tiny = PerftTable::new(0).unwrap(); // one bucket: constant replacement, still exact
        let table = PerftTable::new(1).unwrap();
        for run in [
            Perft { threads: 3, table: None },
            Perft { threads: 2, table: Some(&table) },
            Perft { threads: 2, table: Some(&table) }, // warm table
            Perft { threads: 1, table: Some(&tiny) },
        ] {
            assert_eq!(run.divide(&mut p, 4, |_, _| {}), plain);
        }
        assert_eq!(plain.iter().map(|x| x.1).sum::<u64>(), 1_339_047);
        assert_eq!(Perft { threads: 2, table: Some(&table) }.total(&mut p, 1), 38);
        assert_eq!(p.to_fen(), fen, "perft left the position changed");
    }

    #[test]
    fn every_root_move_is_reported_once() {
        let mut p = Position::startpos();
        let seen = std::sync::Mutex::new(Vec::new());
        let d = Perft { threads: 2, table: None }.divide(&mut p, 3, |m, n| seen.lock().unwrap().push((m, n)));
        let mut seen = seen.into_inner().unwrap();
        seen.sort_by_key(|(m, _)| m.to_string());
        assert_eq!(seen, d);
    }

    #[test]
    fn slots_check_their_key_and_depth() {
        let t = PerftTable::new(1).unwrap();
        assert_eq!(t.probe(42, 3), None);
        t.store(42, 3, 1000);
        assert_eq!(t.probe(42, 3), Some(1000));
        assert_eq!(t.probe(42, 4), None);
        assert_eq!(t.probe(43, 3), None);
        t.store(42, 3, MAX_STORED); // too big: left out, the old count stays
        assert_eq!(t.probe(42, 3), Some(1000));
    }

    #[test]
    fn epd_lines_and_their_errors() {
        let text = "# c\n\n4k4/9/9/9/9/9/9/9/9/3K1R3 w ;D1 16 ;id x; D2 77\n";
        let e = parse_epd(text).unwrap();
        assert_eq!((e.len(), e[0].line, e[0].counts.clone()), (1, 3, vec![(1, 16), (2, 77)]));
        for bad in ["4k4/9 w ;D1 3", "4k4/9/9/9/9/9/9/9/9/3K1R3 w ;D1 x", "4k4/9/9/9/9/9/9/9/9/3K1R3 w", "x ;D0 1"] {
            let err = parse_epd(bad).err().unwrap_or_default();
            assert!(err.starts_with("line 1: "), "{bad}: {err}");
        }
    }
}
