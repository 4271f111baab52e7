//! A bounded, lock-free transposition table shared by all threads. Entries hold proven
//! facts only (bit masks of depths proven to win / to fail), so a lost or torn write only
//! costs speed, never correctness: a torn entry fails the key check (key XOR data trick).
//!
//! The table grows only while growing pays. It starts with 256 KB in use; each time a quarter
//! of the part in use has been written anew (an epoch), it asks whether a table twice the
//! size would have saved a clear part of the work since the last growth, and doubles the
//! part in use only then, up to `--hash`. The question is answered by a shadow: for one
//! bucket index in 16 (set sampling, as cache designers measure caches), the table keeps
//! the keys a table of twice its size would hold, with the same buckets and replacement.
//! Work is counted in table probes (a search probes about once per node): each thread
//! counts its probes, and a sampled search's work is the probes between its miss and its
//! store. When the table misses a sampled key the shadow holds, the shadow's entry stands
//! for a search the doubled table would have saved, and its work is added up. A doubling
//! pays when that saved work is at least one `PAYS`-th of all the work (the sampled probes)
//! since the last growth (beyond 64 MB in use a larger share: the shadow does not see
//! what a large doubling costs, `pays_from`). Memory beyond the part in use is reserved
//! but never touched.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

pub struct Tt {
    slots: Slots,
    /// The index mask of the part in use (a power of two minus one, at most `mask()`).
    active: AtomicUsize,
    /// New entries written in this epoch, counted in the sampled buckets.
    written: AtomicUsize,
    /// The keys of the sampled buckets of a table twice the part in use (see the module
    /// comment): bucket `i` of the shadow holds two packed entries (see `SHADOW_KEY`).
    shadow: Slots,
    /// Since the last growth, in the sampled buckets: the probes (a measure of all the work
    /// done, one in `SAMPLE`), and the work of the searches that followed the probes the
    /// table missed and the shadow would have answered (work counted in probes, `PROBES`).
    probes: AtomicU64,
    gained: AtomicU64,
    /// Mixed into every key: a table reused for a new search gets a new salt, so the old
    /// entries simply never match (no clearing).
    salt: u64,
}

/// Entries in use when a search starts: 256 KB. A short search (a #2) then touches few
/// pages of memory (each first touch of a page costs a page fault, which the kernel
/// zeroes); a longer one doubles it within its first milliseconds.
const START_LEN: usize = 1 << 14;

/// A reused table's used part up to this size is cleared by writing zeros
/// ([`Slots::clear`]).
const CLEAR_BYTES: usize = 4 << 20;

/// From this many entries in use on, the table asks for huge pages.
const HUGE_LEN: usize = 1 << 16;

/// A doubling pays when the doubled table would have saved one `PAYS`-th of the work
/// (BENCHMARKS.md, "The table grows while growing pays").
const PAYS: u64 = 50;

/// Entries in use (32 MB) beyond which each doubling must save twice the share of the
/// work the one before had to (BENCHMARKS.md, "The table's last doublings").
const DEAR_LEN: usize = 1 << 21;

/// The `PAYS` of a doubling from `active + 1` entries in use: `PAYS` up to twice
/// `DEAR_LEN`, halved for each doubling beyond (from 64 MB a 25th of the work, from
/// 128 MB a 12th, from 256 MB a 6th, from 512 MB a third). A doubling of a large table
/// costs time the shadow does not see: the kernel clears the new pages, the entries move,
/// and more probes miss the processor's caches.
fn pays_from(active: usize) -> u64 {
    let beyond = ((active + 1) / DEAR_LEN).max(1).ilog2();
    (PAYS >> beyond).max(1)
}

/// One bucket index in `SAMPLE` is sampled: those whose bits 1-4 are clear.
const SAMPLE: usize = 16;

/// The key bits a shadow entry keeps (bit 0 and bits 16-63; bits 1-15 of a sampled key are
/// clear or implied by its bucket). Bits 1-7 hold the depth + 2, bits 8-15 the binary
/// logarithm of the work its search took.
const SHADOW_KEY: u64 = !0xFFFE;

thread_local! {
    /// This thread's table probes so far: the measure of work (a search probes the table
    /// about once per node).
    static PROBES: Cell<u64> = const { Cell::new(0) };
    /// Sampled keys this thread missed and is now searching, with `PROBES` at the miss.
    static OPEN: Cell<[(u64, u64); 8]> = const { Cell::new([(0, 0); 8]) };
}

/// The work since this thread missed `key` (and forgets the miss); 1 if it was not noted.
fn work_since_miss(key: u64) -> u64 {
    let mut open = OPEN.get();
    let now = PROBES.get();
    let work = match open.iter_mut().find(|e| e.0 == key) {
        Some(e) => {
            e.0 = 0;
            now - e.1
        }
        None => 1,
    };
    OPEN.set(open);
    work.max(1)
}

/// Notes that this thread missed `key` (in place of its oldest open miss).
fn note_miss(key: u64) {
    let mut open = OPEN.get();
    if let Some(e) = open.iter_mut().min_by_key(|e| (e.0 != 0, e.1)) {
        *e = (key, PROBES.get());
    }
    OPEN.set(open);
}

/// Is this (salted) key's bucket one of the sampled ones?
#[inline]
fn sampled(key: u64) -> bool {
    (key >> 1) as usize & (SAMPLE - 1) == 0
}

/// Tables kept for reuse by later searches of the same process (reserving a large table
/// costs more than many small searches).
static POOL: std::sync::Mutex<Vec<Tt>> = std::sync::Mutex::new(Vec::new());
static SALTS: AtomicU64 = AtomicU64::new(0x0123_4567_89AB_CDEF);

/// A table borrowed from the pool for one search; returned on drop.
pub struct PooledTt(Option<Tt>);

impl std::ops::Deref for PooledTt {
    type Target = Tt;
    fn deref(&self) -> &Tt {
        self.0.as_ref().expect("table present until drop")
    }
}

impl Drop for PooledTt {
    fn drop(&mut self) {
        if let (Some(t), Ok(mut pool)) = (self.0.take(), POOL.lock()) {
            pool.push(t);
        }
    }
}

/// What is known about one node: bit n of `win` = proven to succeed with n moves (plies)
/// left; bit n of `fail` = proven to fail.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    pub win: u32,
    pub fail: u32,
}

impl Facts {
    #[inline]
    fn pack(self) -> u64 {
        (u64::from(self.win) << 32) | u64::from(self.fail)
    }
    #[inline]
    fn unpack(d: u64) -> Facts {
        Facts {
            win: (d >> 32) as u32,
            fail: d as u32,
        }
    }
}

fn splitmix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// `n` zeroed entries. On Linux the memory is mapped anonymously, so the kernel supplies
/// zeroed pages (transparent huge pages where it can) only when the search first touches
/// them; elsewhere it is allocated and cleared up front.
struct Slots {
    ptr: *mut [AtomicU64; 2],
    len: usize,
}

// SAFETY: the entries are atomics; the pointer is owned by this value alone.
unsafe impl Send for Slots {}
// SAFETY: as above: shared access only goes through the atomics.
unsafe impl Sync for Slots {}

impl Slots {
    fn bytes(len: usize) -> usize {
        len * std::mem::size_of::<[AtomicU64; 2]>()
    }

    #[cfg(target_os = "linux")]
    fn new(len: usize) -> Slots {
        let bytes = Slots::bytes(len);
        // SAFETY: an anonymous private mapping of `bytes` bytes, checked for failure; its
        // pages read as zero, a valid AtomicU64 value; unmapped once, in `drop`.
        unsafe {
            let ptr = libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            );
            if ptr == libc::MAP_FAILED {
                std::alloc::handle_alloc_error(
                    std::alloc::Layout::from_size_align(bytes, 16).expect("table layout"),
                );
            }
            Slots {
                ptr: ptr as *mut [AtomicU64; 2],
                len,
            }
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn new(len: usize) -> Slots {
        let layout = std::alloc::Layout::from_size_align(Slots::bytes(len), 16).expect("layout");
        // SAFETY: non-zero size; zeroed bytes are valid AtomicU64 values; freed in `drop`
        // with the same layout.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Slots {
            ptr: ptr as *mut [AtomicU64; 2],
            len,
        }
    }

    /// Asks for transparent huge pages (fewer TLB misses in a large table; not asked for at
    /// the start, where a huge page would bring in 2 MB for a 1 MB part in use).
    fn advise_huge(&self) {
        #[cfg(target_os = "linux")]
        // SAFETY: advice on the mapping made in `new`, of exactly its size.
        unsafe {
            libc::madvise(
                self.ptr as *mut libc::c_void,
                Slots::bytes(self.len),
                libc::MADV_HUGEPAGE,
            );
        }
    }

    /// Has the kernel supply the pages of entries `from..to` now, in one call, rather than
    /// one page fault each on first touch (a short search touches every page of its
    /// starting part; in a virtual machine each fault costs microseconds). Advice only:
    /// where it is not supported the pages come on first touch as before.
    fn populate(&self, from: usize, to: usize) {
        #[cfg(target_os = "linux")]
        // SAFETY: advice on a range inside the mapping made in `new`.
        unsafe {
            let to = to.min(self.len);
            if from < to {
                libc::madvise(
                    self.ptr.add(from) as *mut libc::c_void,
                    Slots::bytes(to - from),
                    libc::MADV_POPULATE_WRITE,
                );
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = (from, to);
    }

    /// Zeroes the first `n` slots (at most all of them); no other thread may use them.
    /// Beyond `CLEAR_BYTES` on Linux the kernel takes the pages back instead (they come
    /// back zeroed where a later search touches them): writing zeros over a large part
    /// costs more than the page faults of the part the next search uses.
    fn clear(&mut self, n: usize) {
        let n = n.min(self.len);
        #[cfg(target_os = "linux")]
        if Slots::bytes(n) > CLEAR_BYTES {
            // SAFETY: advice on a range of the private anonymous mapping made in `new`,
            // from its start (page-aligned); its pages read as zero afterwards.
            let done = unsafe {
                libc::madvise(
                    self.ptr as *mut libc::c_void,
                    Slots::bytes(n),
                    libc::MADV_DONTNEED,
                )
            };
            if done == 0 {
                return;
            }
        }
        // SAFETY: within the mapping made in `new`; `&mut self` keeps every other access
        // out, and zero bytes are valid atomics.
        unsafe { std::ptr::write_bytes(self.ptr, 0, n) }
    }

    /// Slot `i` alone.
    #[inline]
    fn one(&self, i: usize) -> &[AtomicU64; 2] {
        &self.get(i & !1)[i & 1]
    }

    #[inline]
    fn get(&self, i: usize) -> &[[AtomicU64; 2]] {
        assert!(i + 2 <= self.len);
        // SAFETY: in bounds (checked above); the memory lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.add(i), 2) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        let bytes = Slots::bytes(self.len);
        #[cfg(target_os = "linux")]
        // SAFETY: the mapping made in `new`, unmapped once.
        unsafe {
            libc::munmap(self.ptr as *mut libc::c_void, bytes);
        }
        #[cfg(not(target_os = "linux"))]
        // SAFETY: allocated in `new` with this layout.
        unsafe {
            std::alloc::dealloc(
                self.ptr as *mut u8,
                std::alloc::Layout::from_size_align(bytes, 16).expect("layout"),
            );
        }
    }
}

impl Tt {
    /// A table of at most about `mb` megabytes (at least 1024 entries, a power of two).
    pub fn new(mb: usize) -> Tt {
        Tt::with_len(Tt::new_len(mb))
    }

    /// A table of `n` entries (a power of two).
    fn with_len(n: usize) -> Tt {
        let mut t = Tt {
            slots: Slots::new(n),
            active: AtomicUsize::new(0),
            written: AtomicUsize::new(0),
            shadow: Slots::new((n / SAMPLE / 2).max(2)),
            probes: AtomicU64::new(0),
            gained: AtomicU64::new(0),
            salt: 0,
        };
        t.restart();
        t.slots.populate(0, START_LEN);
        t
    }

    /// The index mask of the whole table.
    fn mask(&self) -> usize {
        self.slots.len - 1
    }

    /// Back to the starting part in use, for a new search. The part the last search used
    /// (and its shadow's) is cleared: its entries never match a new salt, but they would
    /// hold the front places of their buckets by their depths, so the new search would
    /// keep one entry per bucket there (a search after a long one in the same process
    /// was a third slower: BENCHMARKS.md, "A reused table cleared").
    fn restart(&mut self) {
        let used = *self.active.get_mut() + 1;
        self.slots.clear(used);
        self.shadow.clear(used / SAMPLE + 1);
        *self.active.get_mut() = self.slots.len.min(START_LEN) - 1;
        self.new_epoch();
    }

    fn new_epoch(&self) {
        self.written.store(0, Ordering::Relaxed);
        self.gained.store(0, Ordering::Relaxed);
        self.probes.store(0, Ordering::Relaxed);
    }

    /// Bytes of table in use now (the part in use and its shadow).
    pub fn bytes_in_use(&self) -> usize {
        let active = self.active.load(Ordering::Relaxed) + 1;
        Slots::bytes(active + active / SAMPLE)
    }

    /// A table of about `mb` megabytes for one search: a pooled one of that size when
    /// there is one (with a fresh salt), else a new one.
    pub fn acquire(mb: usize) -> PooledTt {
        let want = Tt::new_len(mb);
        let reused = POOL.lock().ok().and_then(|mut pool| {
            let i = pool.iter().position(|t| t.slots.len == want)?;
            Some(pool.swap_remove(i))
        });
        let mut t = reused.unwrap_or_else(|| Tt::new(mb));
        t.salt = splitmix(SALTS.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed));
        t.restart();
        PooledTt(Some(t))
    }

    /// Number of slots (a power of two) for about `mb` megabytes.
    fn new_len(mb: usize) -> usize {
        let bytes = mb.max(1) * 1024 * 1024;
        let mut n = (bytes / 16).next_power_of_two();
        if n * 16 > bytes {
            n /= 2;
        }
        n.max(1024)
    }

    /// Counts a new entry of a sampled bucket; at the end of an epoch (a quarter of the part
    /// in use written anew) doubles the part in use if that pays.
    #[inline]
    fn count_new(&self, key: u64) {
        if !sampled(key) {
            return;
        }
        let w = self.written.fetch_add(1, Ordering::Relaxed) + 1;
        let active = self.active.load(Ordering::Relaxed);
        if w * 4 * SAMPLE > active {
            self.end_epoch(active);
        }
    }

    /// Whether doubling pays (see the module comment); doubles if so, and starts a new epoch.
    #[cold]
    fn end_epoch(&self, active: usize) {
        let gained = self.gained.load(Ordering::Relaxed);
        let probes = self.probes.load(Ordering::Relaxed);
        let pays = active < self.mask() && gained > 0 && gained * pays_from(active) >= probes;
        self.written.store(0, Ordering::Relaxed);
        if pays {
            self.grow(active);
        }
    }

    /// Doubles the part in use from `active + 1` entries (unless another thread just did).
    fn grow(&self, active: usize) {
        let grown = (active << 1) | 1;
        if self
            .active
            .compare_exchange(active, grown, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            self.new_epoch();
            if active + 1 == HUGE_LEN {
                self.slots.advise_huge();
            }
            // `migrate` writes into nearly every page of the new half.
            self.slots.populate(active + 1, 2 * (active + 1));
            self.migrate(active + 1);
        }
    }

    /// After the part in use doubled from `old` entries: moves every entry whose key has
    /// the new index bit set to its new place, `old` entries further on, and so for the
    /// shadow (bit `2 * old`, `old / 64` buckets on). Other threads keep searching
    /// meanwhile; an entry they miss or overwrite costs speed only.
    #[cold]
    fn migrate(&self, old: usize) {
        for i in 0..old {
            let e = self.slots.one(i);
            let (k, d) = (e[0].load(Ordering::Relaxed), e[1].load(Ordering::Relaxed));
            if (k ^ d) as usize & old == 0 || (k == 0 && d == 0) {
                continue;
            }
            let to = self.slots.one(i + old);
            to[0].store(k, Ordering::Relaxed);
            to[1].store(d, Ordering::Relaxed);
            e[0].store(0, Ordering::Relaxed);
            e[1].store(0, Ordering::Relaxed);
        }
        let buckets = old / SAMPLE;
        if 2 * old > self.mask() {
            return; // the table is now whole: no shadow beyond it
        }
        for i in 0..buckets {
            let (b, to) = (self.shadow.one(i), self.shadow.one(i + buckets));
            for j in 0..2 {
                let v = b[j].load(Ordering::Relaxed);
                if v as usize & (2 * old) != 0 {
                    to[j].store(v, Ordering::Relaxed);
                    b[j].store(0, Ordering::Relaxed);
                } else {
                    to[j].store(0, Ordering::Relaxed);
                }
            }
        }
    }

    /// The shadow bucket of a sampled key (a table of twice the part in use); `None` once
    /// the part in use is the whole table.
    #[inline]
    fn shadow_bucket(&self, key: u64) -> Option<&[AtomicU64; 2]> {
        let active = self.active.load(Ordering::Relaxed);
        let i = (key as usize & (2 * active + 1)) / (2 * SAMPLE);
        (active < self.mask()).then(|| self.shadow.one(i))
    }

    /// A probe of a sampled bucket: counted, with whether the table and the shadow know it.
    #[cold]
    fn observe(&self, key: u64, hit: bool) {
        let Some(b) = self.shadow_bucket(key) else {
            return;
        };
        self.probes.fetch_add(1, Ordering::Relaxed);
        if hit {
            return;
        }
        note_miss(key);
        let known = b
            .iter()
            .map(|e| e.load(Ordering::Relaxed))
            .find(|&v| v != 0 && v & SHADOW_KEY == key & SHADOW_KEY);
        if let Some(v) = known {
            // The work of the search the shadow's entry stands for (to within a factor 2).
            let log = v >> 8 & 0xFF;
            self.gained.fetch_add(3 << log >> 1, Ordering::Relaxed);
        }
    }

    /// A store into a sampled bucket, replayed in the shadow with the table's replacement.
    #[cold]
    fn shadow_add(&self, key: u64, depth: i32, work: u64) {
        let Some(b) = self.shadow_bucket(key) else {
            return;
        };
        let log = u64::from(63 - work.max(1).leading_zeros());
        let packed = (key & SHADOW_KEY) | ((depth + 2) as u64) << 1 | log << 8;
        let depth_of = |v: u64| (v >> 1 & 0x7F) as i32 - 2;
        for e in b {
            let v = e.load(Ordering::Relaxed);
            if v & SHADOW_KEY == key & SHADOW_KEY && v != 0 {
                let merged = (key & SHADOW_KEY)
                    | ((depth_of(v).max(depth) + 2) as u64) << 1
                    | (v >> 8 & 0xFF).max(log) << 8;
                e.store(merged, Ordering::Relaxed);
                return;
            }
        }
        let first = b[0].load(Ordering::Relaxed);
        if first == 0 || depth >= depth_of(first) {
            b[1].store(first, Ordering::Relaxed);
            b[0].store(packed, Ordering::Relaxed);
        } else {
            b[1].store(packed, Ordering::Relaxed);
        }
    }

    /// The two entries of a key's bucket: the first keeps the deepest facts, the second
    /// takes whatever comes (so long searches keep their expensive results while cheap
    /// ones still get stored).
    #[inline]
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]] {
        let i = key as usize & self.active.load(Ordering::Relaxed) & !1;
        self.slots.get(i)
    }

    #[inline]
    fn read(e: &[AtomicU64; 2], key: u64) -> Option<Facts> {
        let k = e[0].load(Ordering::Relaxed);
        let d = e[1].load(Ordering::Relaxed);
        (k ^ d == key).then(|| Facts::unpack(d))
    }

    #[inline]
    fn write(e: &[AtomicU64; 2], key: u64, facts: Facts) {
        let d = facts.pack();
        e[0].store(key ^ d, Ordering::Relaxed);
        e[1].store(d, Ordering::Relaxed);
    }

    /// The deepest depth bit a set of facts mentions (-1: none).
    #[inline]
    fn depth(f: Facts) -> i32 {
        31 - (f.win | f.fail).leading_zeros() as i32
    }

    /// Asks the processor to bring a key's bucket into the cache (a hint only: the search
    /// goes on meanwhile, and probes it later without waiting for memory).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b = self.bucket(key ^ self.salt);
            // SAFETY: a prefetch has no effect on memory and cannot fault; the pointer is
            // into the table anyway.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    b.as_ptr() as *const i8,
                    std::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn get(&self, key: u64) -> Facts {
        let key = key ^ self.salt;
        let b = self.bucket(key);
        let found = Tt::read(&b[0], key).or_else(|| Tt::read(&b[1], key));
        PROBES.set(PROBES.get() + 1);
        if sampled(key) {
            self.observe(key, found.is_some());
        }
        found.unwrap_or_default()
    }

    #[inline]
    pub fn add(&self, key: u64, facts: Facts) {
        let key = key ^ self.salt;
        if sampled(key) {
            self.shadow_add(key, Tt::depth(facts), work_since_miss(key));
        }
        let b = self.bucket(key);
        for e in b {
            if let Some(old) = Tt::read(e, key) {
                let merged = Facts {
                    win: old.win | facts.win,
                    fail: old.fail | facts.fail,
                };
                Tt::write(e, key, merged);
                return;
            }
        }
        self.count_new(key);
        let first = Facts::unpack(b[0][1].load(Ordering::Relaxed));
        if Tt::depth(facts) >= Tt::depth(first) {
            // The deeper entry moves in front; the one it displaces takes the second place.
            let k = b[0][0].load(Ordering::Relaxed);
            let d = b[0][1].load(Ordering::Relaxed);
            b[1][0].store(k, Ordering::Relaxed);
            b[1][1].store(d, Ordering::Relaxed);
            Tt::write(&b[0], key, facts);
        } else {
            Tt::write(&b[1], key, facts);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reused_table_forgets_the_previous_search() {
        {
            let a = Tt::acquire(1);
            a.add(777, Facts { win: 2, fail: 0 });
            assert_eq!(a.get(777).win, 2);
        }
        let b = Tt::acquire(1);
        assert_eq!(b.get(777), Facts::default());
    }

    /// A table reused for a new search keeps two new entries to a bucket: the last
    /// search's entries, deeper but never matching again, do not hold the buckets' front
    /// places (each pair of keys differing in bit 0 shares a bucket).
    #[test]
    fn a_reused_table_keeps_no_old_entries_in_front() {
        let deep = Facts {
            win: 0,
            fail: 1 << 20,
        };
        {
            let a = Tt::acquire(1);
            for i in 0..START_LEN as u64 * 4 {
                a.add(splitmix(i) | 1, deep);
            }
        }
        let b = Tt::acquire(1);
        let shallow = Facts { win: 0, fail: 1 };
        let keys: Vec<u64> = (0..START_LEN as u64 / 8)
            .map(|i| splitmix((i + 1) << 40) & !1)
            .collect();
        let mut kept = 0;
        for &k in &keys {
            b.add(k, shallow);
            b.add(k | 1, shallow);
            kept += usize::from(b.get(k) == shallow) + usize::from(b.get(k | 1) == shallow);
        }
        assert_eq!(kept, 2 * keys.len());
    }

    /// Entries stored before a growth are still found after it (those whose index gained
    /// a bit were moved).
    #[test]
    fn growing_keeps_what_was_stored() {
        let tt = Tt::new(64);
        assert_eq!(tt.active.load(Ordering::Relaxed), START_LEN - 1);
        let key = |i: u64| (i * 2) | ((i & 1) << 16);
        let facts = |i: u64| Facts {
            win: 1 << (i % 31),
            fail: 0,
        };
        // About a third of the slots in use: every entry finds room.
        let n = START_LEN as u64 * 5 / 16;
        for i in 0..n {
            tt.add(key(i), facts(i));
        }
        for _ in 0..2 {
            tt.grow(tt.active.load(Ordering::Relaxed));
        }
        assert_eq!(tt.active.load(Ordering::Relaxed), 4 * START_LEN - 1);
        for i in 0..n {
            assert_eq!(tt.get(key(i)), facts(i), "entry {i}");
        }
    }

    /// A search's probes: look the key up, store it when missing. Returns the hits.
    fn probe_all(tt: &Tt, keys: impl Iterator<Item = u64>) -> usize {
        let mut hits = 0;
        for k in keys {
            if tt.get(k) == Facts::default() {
                tt.add(
                    k,
                    Facts {
                        win: 1 << (k % 7),
                        fail: 0,
                    },
                );
            } else {
                hits += 1;
            }
        }
        hits
    }

    /// The shadow holds exactly the keys of the sampled buckets of a table twice the size:
    /// the same probes hit in both.
    #[test]
    fn the_shadow_is_a_table_twice_the_size() {
        let small = Tt::new(64);
        let mut twice = Tt::with_len(2 * START_LEN);
        *twice.active.get_mut() = twice.mask();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let (mut hits, mut agree) = (0, 0);
        for _ in 0..200_000 {
            rng = splitmix(rng);
            // Sampled keys only, from a pool larger than the sampled buckets hold.
            let key =
                splitmix(1 + rng % (START_LEN as u64 * 15 / 32)) & !(((SAMPLE as u64) - 1) << 1);
            let depth = (rng >> 40) as u32 % 9;
            let in_shadow = small
                .shadow_bucket(key)
                .expect("a shadow")
                .iter()
                .any(|e| e.load(Ordering::Relaxed) & SHADOW_KEY == key & SHADOW_KEY);
            let hit = twice.get(key) != Facts::default();
            hits += usize::from(hit);
            agree += usize::from(hit == in_shadow);
            let facts = Facts {
                win: 1 << depth,
                fail: 0,
            };
            small.shadow_add(key, Tt::depth(facts), 1);
            twice.add(key, facts);
        }
        assert!(
            hits > 20_000 && hits < 180_000,
            "{hits} hits: no pressure to test"
        );
        assert_eq!(agree, 200_000);
    }

    /// Up to 64 MB a doubling must save a 50th of the work; beyond, each doubling twice
    /// the share of the one before.
    #[test]
    fn large_doublings_must_save_more() {
        let at = |mb: usize| pays_from((mb << 20) / 16 - 1);
        assert_eq!(
            [
                at(1),
                at(16),
                at(32),
                at(64),
                at(128),
                at(256),
                at(512),
                at(4096)
            ],
            [50, 50, 50, 25, 12, 6, 3, 1]
        );
    }

    /// The table grows when a larger one would answer what it misses (a search that keeps
    /// coming back to more keys than it holds), and not for a stream of new keys.
    #[test]
    fn the_table_grows_only_while_growing_pays() {
        let stream = Tt::new(64);
        probe_all(&stream, (0..2_000_000u64).map(splitmix));
        assert_eq!(stream.active.load(Ordering::Relaxed), START_LEN - 1);
        let cycle = Tt::new(64);
        let n = START_LEN as u64 * 3 / 2;
        for _ in 0..4 {
            probe_all(&cycle, (0..n).map(splitmix));
        }
        assert!(cycle.active.load(Ordering::Relaxed) > START_LEN - 1);
        // Grown, it answers most of the cycle (keys of overfull buckets still miss).
        let hits = probe_all(&cycle, (0..n).map(splitmix)) as u64;
        assert!(
            hits > n * 3 / 4,
            "{hits} of {n}, {}",
            cycle.active.load(Ordering::Relaxed)
        );
    }

    #[test]
    fn stores_and_merges() {
        let tt = Tt::new(1);
        assert_eq!(tt.get(12345), Facts::default());
        tt.add(12345, Facts { win: 4, fail: 0 });
        tt.add(12345, Facts { win: 0, fail: 2 });
        assert_eq!(tt.get(12345), Facts { win: 4, fail: 2 });
        // a different key in the same slot is not confused
        let other = 12345 + (tt.mask() as u64 + 1);
        assert_eq!(tt.get(other), Facts::default());
    }

    #[test]
    fn deep_facts_survive_a_stream_of_shallow_ones() {
        let tt = Tt::new(1);
        let step = tt.mask() as u64 + 1;
        tt.add(
            5,
            Facts {
                win: 0,
                fail: 1 << 9,
            },
        );
        for i in 1..100u64 {
            tt.add(
                5 + i * step,
                Facts {
                    win: 1 << 2,
                    fail: 0,
                },
            );
        }
        assert_eq!(
            tt.get(5),
            Facts {
                win: 0,
                fail: 1 << 9
            }
        );
        // The latest shallow entry is kept too.
        assert_eq!(
            tt.get(5 + 99 * step),
            Facts {
                win: 1 << 2,
                fail: 0
            }
        );
    }
}
