//! The transposition table: a shared, lockless hash of search results.
//!
//! Each entry is two 64-bit words, `key ^ data` and `data`, written with relaxed atomic
//! stores (the scheme of Hyatt and Mann): a reader recomputes `word0 ^ word1` and accepts
//! the entry only if it equals the full 64-bit key, so an entry torn by two threads
//! writing at once is simply a miss. Entries sit in buckets of four (one 64-byte cache
//! line); the bucket is chosen from the key by a multiply-shift, and within it a new
//! result replaces the same position, else the entry that is shallowest and oldest
//! (depth minus eight times its age in searches).
//!
//! Mate scores are stored relative to the node and handed back relative to the root:
//! [`TranspositionTable::store`] and [`TranspositionTable::probe`] take the ply and
//! convert.

use crate::score::{from_tt, to_tt};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use xq_core::Move;

/// What a stored score means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Only the move is usable; the score says nothing. The search itself always stores
    /// a bound (every score is kept, even one reached through a repetition), so this
    /// marks an entry stored with a move alone.
    None = 0,
    /// The true value is at most the score (no move beat alpha).
    Upper = 1,
    /// The true value is at least the score (a move reached beta).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

impl Bound {
    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// A probed entry, with the score already converted to root-relative form.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refutation) move found, if any.
    pub mv: Option<Move>,
    /// The score, meaningful according to `bound`.
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
}

#[derive(Debug, Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([Slot; 4]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

// data layout: bits 0-15 move, 16-31 score (i16), 32-47 eval (i16), 48-55 depth (u8,
// offset so that -1..=254 fit), 56-57 bound, 58-63 generation.
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, gen: u8) -> u64 {
    let m = mv.map_or(0, |m| m.to_u16()) as u64;
    let s = (score.clamp(-32767, 32767) as i16 as u16) as u64;
    let e = (eval.clamp(-32767, 32767) as i16 as u16) as u64;
    let d = (depth + 1).clamp(0, 255) as u64;
    m | s << 16 | e << 32 | d << 48 | (bound as u64) << 56 | ((gen & 63) as u64) << 58
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32 - 1
}

fn gen_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// A transposition table that could not be made: the system refused `mib` MiB.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The size asked for, MiB.
    pub mib: usize,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a hash table of {} MiB", self.mib)
    }
}

impl std::error::Error for TableError {}

/// The transposition table. It is `Sync`: share it between search threads with an `Arc`.
///
/// ```
/// use xq_search::tt::{TranspositionTable, Bound};
/// use xq_search::score;
/// let tt = TranspositionTable::new(1);
/// let m = "h2e2".parse().unwrap();
/// // A mate in 3 plies from a node 2 plies below the root...
/// tt.store(0xabcd, Some(m), score::mate_in(5), 0, 4, Bound::Exact, 2);
/// // ...probed 4 plies below the root is a mate 7 plies from the root.
/// let e = tt.probe(0xabcd, 4).unwrap();
/// assert_eq!(e.score, score::mate_in(7));
/// assert_eq!(e.mv, Some(m));
/// assert_eq!((e.depth, e.bound), (4, Bound::Exact));
/// ```
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mib` mebibytes (at least one bucket).
    ///
    /// # Panics
    /// If the memory cannot be allocated ([`TranspositionTable::try_new`] says so instead).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xq_search::{tt::TranspositionTable, Searcher};
    /// // Two searchers sharing one 16 MiB table, as the threads of a parallel search do.
    /// let tt = Arc::new(TranspositionTable::new(16));
    /// assert_eq!(tt.size_mib(), 16);
    /// let (a, b) = (Searcher::with_table(tt.clone()), Searcher::with_table(tt.clone()));
    /// assert!(Arc::ptr_eq(a.table(), b.table()));
    /// ```
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mib` mebibytes (at least one bucket), or [`TableError`] when the
    /// system does not give that much memory: nothing is aborted, so a program can keep
    /// the table it has and say why.
    ///
    /// # Errors
    /// The memory cannot be allocated, or `mib` MiB is more bytes than the address space
    /// holds.
    ///
    /// ```
    /// use xq_search::tt::{TableError, TranspositionTable};
    /// assert_eq!(TranspositionTable::try_new(2).unwrap().size_mib(), 2);
    /// // An exbibyte: more than any 64-bit address space offers.
    /// let err = TranspositionTable::try_new(1 << 40).unwrap_err();
    /// assert_eq!(err, TableError { mib: 1 << 40 });
    /// assert_eq!(err.to_string(), "cannot allocate a hash table of 1099511627776 MiB");
    /// ```
    pub fn try_new(mib: usize) -> Result<TranspositionTable, TableError> {
        let error = TableError { mib };
        let bytes = mib.max(1).checked_mul(1024 * 1024).ok_or(error)?;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = try_huge_vec(n, Bucket::default).map_err(|_| error)?;
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in MiB.
    pub fn size_mib(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the processor to start loading `key`'s entries into its cache, so that a
    /// [`probe`](TranspositionTable::probe) soon after does not wait for memory: a
    /// search calls it with the next position's key before it makes the move. A hint
    /// only; nothing changes elsewhere than x86-64.
    ///
    /// ```
    /// use xq_search::tt::TranspositionTable;
    /// let tt = TranspositionTable::new(1);
    /// tt.prefetch(0xabcd);
    /// assert_eq!(tt.probe(0xabcd, 0), None);
    /// ```
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch reads nothing the program sees and cannot fault, whatever
            // the address; this one is a live bucket of the table. It needs SSE, which
            // every x86-64 processor has. Measured: docs/speed.md, "Prefetching the
            // table".
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(bucket.cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, probed `ply` plies from the root.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in &self.bucket(key).0 {
            let data = slot.data.load(Ordering::Relaxed);
            let k = slot.key_xor_data.load(Ordering::Relaxed) ^ data;
            if k == key && data != 0 {
                return Some(TtEntry {
                    mv: Move::from_u16(data as u16),
                    score: from_tt((data >> 16) as u16 as i16 as i32, ply),
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: depth_of(data),
                    bound: Bound::from_bits(data >> 56),
                });
            }
        }
        None
    }

    /// Stores a result for `key` found `ply` plies from the root.
    ///
    /// With no move, an existing entry's move for the same position is kept.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let gen = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut worst = i32::MAX;
        for slot in &bucket.0 {
            let data = slot.data.load(Ordering::Relaxed);
            let k = slot.key_xor_data.load(Ordering::Relaxed) ^ data;
            if k == key && data != 0 {
                // Same position: keep a deeper exact result from this search.
                if bound != Bound::Exact
                    && gen_of(data) == gen
                    && depth_of(data) > depth + 2
                    && Bound::from_bits(data >> 56) == Bound::Exact
                {
                    return;
                }
                let mv = mv.or_else(|| Move::from_u16(data as u16));
                let d = pack(mv, to_tt(score, ply), eval, depth, bound, gen);
                slot.data.store(d, Ordering::Relaxed);
                slot.key_xor_data.store(key ^ d, Ordering::Relaxed);
                return;
            }
            let age = (gen.wrapping_sub(gen_of(data)) & 63) as i32;
            let worth = if data == 0 {
                i32::MIN
            } else {
                depth_of(data) - 8 * age
            };
            if worth < worst {
                worst = worth;
                victim = slot;
            }
        }
        let d = pack(mv, to_tt(score, ply), eval, depth, bound, gen);
        victim.data.store(d, Ordering::Relaxed);
        victim.key_xor_data.store(key ^ d, Ordering::Relaxed);
    }

    /// How full the table is, in permille, from a sample of entries written during the
    /// current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for s in &b.0 {
                let d = s.data.load(Ordering::Relaxed);
                if d != 0 && gen_of(d) == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

/// A vector of `n` elements made by `f`, its memory backed by huge pages where the system
/// allows it (Linux's transparent huge pages, as Stockfish asks for its table).
///
/// A probe lands anywhere in the table: with 4 KiB pages nearly every probe of a table
/// larger than the processor's address cache also misses that cache. `xq bench` read 1.89
/// against 1.98 Mnps with a 64 MiB table (five interleaved runs), 1.57-1.77 against
/// 1.92-1.96 with 512 MiB (three).
///
/// The memory is asked for with [`Vec::try_reserve_exact`]: a refusal is an error, not an
/// abort.
fn try_huge_vec<T>(
    n: usize,
    f: impl FnMut() -> T,
) -> Result<Vec<T>, std::collections::TryReserveError> {
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(n)?;
    // Before the first write: the kernel picks the page size when a page is first touched.
    advise_huge_pages(v.as_ptr().cast(), n * std::mem::size_of::<T>());
    v.resize_with(n, f);
    Ok(v)
}

/// For a program that makes and frees tables of many sizes (an engine whose GUI changes
/// `Hash`): sets glibc's threshold for allocating a block by its own mapping to 256 KiB,
/// for good, so that tables (1 MiB or more) and the searchers' histories are mapped and
/// unmapped on their own and their memory goes back to the system when they are freed.
/// With glibc's default, a sliding threshold, a freed table raised it to its size, so
/// that the next table came from the heap, whose memory glibc may keep after it is freed:
/// an engine session that changed `Hash` back and forth held 20 to 25 MiB more than its
/// largest table in 3 runs of 5 of the UCCI soak test, and at most 85 MiB for a 64 MiB
/// table with this setting (its trace: 119 to 144 MiB without). Call it at the start of
/// `main`, before any other thread exists; elsewhere than Linux with glibc it does
/// nothing. The `xq` binary calls it.
pub fn map_large_allocations() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes a setting of the allocator, which every later
    // allocation reads; the documented call is at the start of `main`, before any other
    // thread exists. A refusal (0) leaves glibc's default, only less frugal.
    #[allow(unsafe_code)]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 * 1024);
    }
}

/// Asks Linux to back the untouched memory from `start` to `start + len` with huge
/// pages: only the 2 MiB-aligned stretches inside it can be. Advice only: nothing
/// changes if the system says no (or has transparent huge pages off).
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *const u8, len: usize) {
    const PAGE: usize = 4096;
    let begin = (start as usize).next_multiple_of(PAGE);
    let end = start as usize + len;
    if end > begin {
        // SAFETY: `madvise` with `MADV_HUGEPAGE` changes no memory and no access rights;
        // it only tells the kernel which page size to prefer. The range, from a page
        // boundary, lies inside the one allocation `start` heads (its capacity is `len`
        // bytes). Its result is ignored on purpose: a refusal leaves ordinary pages.
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
        }
    }
}

/// Elsewhere: ordinary pages.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *const u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, mated_in};

    /// The mapping that holds `addr`, from /proc/self/smaps: the kB of huge pages
    /// backing it and its `VmFlags` (`hg`: advised to use huge pages).
    #[cfg(target_os = "linux")]
    fn mapping_at(addr: usize) -> Option<(u64, String)> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        let mut huge = None;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or("");
            if let Some((a, b)) = first.split_once('-') {
                if let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
                {
                    inside = a <= addr && addr < b;
                    continue;
                }
            }
            if inside {
                if let Some(kib) = line.strip_prefix("AnonHugePages:") {
                    huge = kib.trim().trim_end_matches("kB").trim().parse().ok();
                }
                if let Some(flags) = line.strip_prefix("VmFlags:") {
                    return Some((huge?, flags.trim().to_string()));
                }
            }
        }
        None
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn the_table_asks_for_huge_pages() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        if !mode.is_ok_and(|m| m.contains("[madvise]") || m.contains("[always]")) {
            eprintln!("transparent huge pages off: nothing to test");
            return;
        }
        let tt = TranspositionTable::new(16);
        let addr = tt.buckets.as_ptr() as usize + 8 * 1024 * 1024;
        let (huge, flags) = mapping_at(addr).expect("the table's mapping in /proc/self/smaps");
        // The advice is ours; whether the kernel has a free huge page to give is not (a
        // busy or fragmented memory falls back to small pages), so that is only shown.
        assert!(
            flags.split_whitespace().any(|f| f == "hg"),
            "no MADV_HUGEPAGE on the table: {flags}"
        );
        eprintln!("{huge} kB of huge pages under a 16 MiB table");
        // Nothing else changes: every entry empty, every probe a miss.
        let empty = |s: &Slot| s.data.load(Ordering::Relaxed) == 0;
        assert!(tt.buckets.iter().all(|b| b.0.iter().all(empty)));
        assert_eq!(tt.probe(0x1234_5678_9abc_def0, 0), None);
    }

    #[test]
    fn a_size_the_system_cannot_give_is_an_error_not_an_abort() {
        // More bytes than a usize holds.
        assert_eq!(
            TranspositionTable::try_new(usize::MAX).unwrap_err(),
            TableError { mib: usize::MAX }
        );
        // More than any address space: 2^60 bytes on 64-bit systems.
        assert_eq!(
            TranspositionTable::try_new(1 << 40).unwrap_err(),
            TableError { mib: 1 << 40 }
        );
        let tt = TranspositionTable::try_new(3).unwrap();
        assert_eq!(tt.size_mib(), 3);
        assert_eq!(tt.buckets.len(), 3 * 1024 * 1024 / 64);
    }

    #[test]
    fn round_trip_and_mates() {
        let tt = TranspositionTable::new(1);
        let m: Move = "b0c2".parse().unwrap();
        tt.store(42, Some(m), -123, 17, 9, Bound::Lower, 3);
        let e = tt.probe(42, 7).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (Some(m), -123, 17, 9, Bound::Lower)
        );
        // Being mated 6 plies from the root, found at ply 2 (4 plies below the node),
        // seen again at ply 3: mated 7 plies from the root.
        tt.store(43, None, mated_in(6), 0, 3, Bound::Upper, 2);
        assert_eq!(tt.probe(43, 3).unwrap().score, mated_in(7));
        tt.store(44, None, mate_in(1), 0, 0, Bound::Exact, 0);
        assert_eq!(tt.probe(44, 10).unwrap().score, mate_in(11));
        assert_eq!(tt.probe(45, 0), None);
    }

    #[test]
    fn keeps_the_move_and_replaces_old_entries() {
        let mut tt = TranspositionTable::new(1);
        let m: Move = "h2e2".parse().unwrap();
        tt.store(7, Some(m), 10, 0, 5, Bound::Exact, 0);
        tt.store(7, None, 20, 0, 6, Bound::Upper, 0);
        let e = tt.probe(7, 0).unwrap();
        assert_eq!((e.mv, e.score, e.bound), (Some(m), 20, Bound::Upper));
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert_eq!(tt.probe(7, 0), None);
        // Fill one bucket with five keys: the shallowest entry goes.
        let tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u128;
        let same: Vec<u64> = (1u64..)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .filter(|k| ((*k as u128 * n) >> 64) == 0)
            .take(5)
            .collect();
        for (i, k) in same.iter().take(4).enumerate() {
            tt.store(*k, None, 0, 0, 10 + i as i32, Bound::Exact, 0);
        }
        tt.store(same[4], None, 0, 0, 1, Bound::Exact, 0);
        assert!(
            tt.probe(same[0], 0).is_none(),
            "the shallowest entry is replaced"
        );
        assert!(tt.probe(same[4], 0).is_some());
    }
}
