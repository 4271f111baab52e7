//! A bounded, lock-free transposition table shared by all threads. Entries hold proven
//! facts only (bit masks of depths proven to win / to fail), so a lost or torn write only
//! costs speed, never correctness: a torn entry fails the key check (key XOR data trick).

use std::sync::atomic::{AtomicU64, Ordering};

pub struct Tt {
    slots: Box<[[AtomicU64; 2]]>,
    mask: usize,
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
        let bytes = mb.max(1) * 1024 * 1024;
        let mut n = (bytes / 16).next_power_of_two();
        if n * 16 > bytes {
            n /= 2;
        }
        let n = n.max(1024);
        Tt {
            slots: zeroed_slots(n),
            mask: n - 1,
        }
    }

    #[inline]
    pub fn get(&self, key: u64) -> Facts {
        let slot = &self.slots[key as usize & self.mask];
        let k = slot[0].load(Ordering::Relaxed);
        let d = slot[1].load(Ordering::Relaxed);
        if k ^ d == key {
            Facts::unpack(d)
        } else {
            Facts::default()
        }
    }

    /// Adds facts about `key` (merged with what the slot knows about the same key).
    #[inline]
    pub fn add(&self, key: u64, facts: Facts) {
        let slot = &self.slots[key as usize & self.mask];
        let old = self.get(key);
        let merged = Facts {
            win: old.win | facts.win,
            fail: old.fail | facts.fail,
        };
        let d = merged.pack();
        slot[0].store(key ^ d, Ordering::Relaxed);
        slot[1].store(d, Ordering::Relaxed);
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
