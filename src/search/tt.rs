//! A bounded, lock-free transposition table shared by all threads. Entries hold proven
//! facts only (bit masks of depths proven to win / to fail), so a lost or torn write only
//! costs speed, never correctness: a torn entry fails the key check (key XOR data trick).

use std::sync::atomic::{AtomicU64, Ordering};

pub struct Tt {
    slots: Box<[[AtomicU64; 2]]>,
    mask: usize,
    /// Mixed into every key: a table reused for a new search gets a new salt, so the old
    /// entries simply never match (no clearing).
    salt: u64,
}

/// Tables kept for reuse by later searches of the same process (allocating and clearing a
/// large table costs more than many small searches).
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

/// `n` zeroed slots, 2 MB-aligned and (on Linux) on transparent huge pages, cleared up
/// front: the table is probed at random, and touching 4 KB pages one fault at a time
/// during the search cost more than the search on small problems (BENCHMARKS.md).
fn zeroed_slots(n: usize) -> Box<[[AtomicU64; 2]]> {
    use std::alloc::{Layout, handle_alloc_error};
    let layout = Layout::from_size_align(n * 16, 2 << 20).expect("table layout");
    // SAFETY: the layout has non-zero size; the bytes are zeroed before use, and all-zero
    // bytes are valid AtomicU64 values; the box takes ownership of exactly this allocation
    // (alignment 2 MB, a multiple of the element's 8), freed with the same layout by
    // `Drop for Tt` below.
    unsafe {
        let ptr = std::alloc::alloc(layout);
        if ptr.is_null() {
            handle_alloc_error(layout);
        }
        #[cfg(target_os = "linux")]
        libc::madvise(ptr as *mut libc::c_void, n * 16, libc::MADV_HUGEPAGE);
        std::ptr::write_bytes(ptr, 0, n * 16);
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(
            ptr as *mut [AtomicU64; 2],
            n,
        ))
    }
}

impl Drop for Tt {
    fn drop(&mut self) {
        use std::alloc::{Layout, dealloc};
        let slots = std::mem::take(&mut self.slots);
        let n = slots.len();
        if n == 0 {
            return;
        }
        let layout = Layout::from_size_align(n * 16, 2 << 20).expect("table layout");
        let ptr = Box::into_raw(slots) as *mut u8;
        // SAFETY: allocated in `zeroed_slots` with this layout.
        unsafe { dealloc(ptr, layout) }
    }
}

impl Tt {
    /// A table using about `mb` megabytes (at least 1024 entries, a power of two).
    pub fn new(mb: usize) -> Tt {
        let n = Tt::new_len(mb);
        Tt {
            slots: zeroed_slots(n),
            mask: n - 1,
            salt: 0,
        }
    }

    /// A table of about `mb` megabytes for one search: a pooled one of that size when
    /// there is one (with a fresh salt), else a new one.
    pub fn acquire(mb: usize) -> PooledTt {
        let want = Tt::new_len(mb);
        let reused = POOL.lock().ok().and_then(|mut pool| {
            let i = pool.iter().position(|t| t.slots.len() == want)?;
            Some(pool.swap_remove(i))
        });
        let mut t = reused.unwrap_or_else(|| Tt::new(mb));
        t.salt = splitmix(SALTS.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed));
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

    /// The two entries of a key's bucket: the first keeps the deepest facts, the second
    /// takes whatever comes (so long searches keep their expensive results while cheap
    /// ones still get stored).
    #[inline]
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]] {
        let i = key as usize & self.mask & !1;
        &self.slots[i..i + 2]
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

    #[inline]
    pub fn get(&self, key: u64) -> Facts {
        let key = key ^ self.salt;
        let b = self.bucket(key);
        Tt::read(&b[0], key)
            .or_else(|| Tt::read(&b[1], key))
            .unwrap_or_default()
    }

    #[inline]
    pub fn add(&self, key: u64, facts: Facts) {
        let key = key ^ self.salt;
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

    #[test]
    fn stores_and_merges() {
        let tt = Tt::new(1);
        assert_eq!(tt.get(12345), Facts::default());
        tt.add(12345, Facts { win: 4, fail: 0 });
        tt.add(12345, Facts { win: 0, fail: 2 });
        assert_eq!(tt.get(12345), Facts { win: 4, fail: 2 });
        // a different key in the same slot is not confused
        let other = 12345 + (tt.mask as u64 + 1);
        assert_eq!(tt.get(other), Facts::default());
    }

    #[test]
    fn deep_facts_survive_a_stream_of_shallow_ones() {
        let tt = Tt::new(1);
        let step = tt.mask as u64 + 1;
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
