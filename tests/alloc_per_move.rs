//! No allocation per generated move, in any condition (issue 20): a counting global
//! allocator wraps the system one, and each condition's perft suite is counted to depth 2
//! twice from each root; the second count must allocate nothing (the first lets the
//! reusable buffers of the move generators grow, `rules::Scratch`).

use chainmate::position::Position;
use chainmate::rules::{Condition, Rules, perft};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Set on the thread that counts: the harness's other threads may allocate meanwhile
    /// (a run once failed with allocations that ten runs after it never had).
    static COUNTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Counts an allocation made by the counting thread.
fn count() {
    if COUNTED.try_with(|c| c.get()).unwrap_or(false) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: `p` came from this allocator, hence from `System`, with layout `l`.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        count();
        // SAFETY: as for `dealloc`, and `n` is the caller's new size.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// (condition, suite file, roots counted: Combo's crowded roots are costly).
const SUITES: [(Condition, &str, usize); 9] = [
    (Condition::Orthodox, "perftsuite", 40),
    (Condition::Circe, "circe", usize::MAX),
    (Condition::Madrasi, "madrasi", usize::MAX),
    (Condition::Teleport, "teleport", usize::MAX),
    (Condition::PocketMutation, "pocket-mutation", usize::MAX),
    (Condition::Kazan, "kazan", usize::MAX),
    (
        Condition::TatarstanNoChains,
        "tatarstan-nochains",
        usize::MAX,
    ),
    (Condition::Tatarstan, "tatarstan", usize::MAX),
    (Condition::Combo, "combo", 6),
];

#[test]
fn generating_moves_allocates_nothing_once_the_buffers_have_grown() {
    // One thread, the one counted.
    COUNTED.with(|c| c.set(true));
    for (cond, file, roots) in SUITES {
        let path = format!("{}/tests/data/perft/{file}.epd", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("suite file");
        let rules = Rules::new(cond);
        let fens: Vec<Position> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .take(roots)
            .map(|l| Position::from_fen(l.split(';').next().unwrap().trim()).expect("fen"))
            .collect();
        let (mut nodes, mut allocs) = (0u64, 0u64);
        for pos in &fens {
            let first = perft(&rules, pos, 2);
            let before = ALLOCS.load(Ordering::Relaxed);
            let again = perft(&rules, pos, 2);
            allocs += ALLOCS.load(Ordering::Relaxed) - before;
            assert_eq!(first, again);
            nodes += again;
        }
        println!(
            "{file:<20} {:>3} roots {nodes:>9} nodes {allocs} allocations",
            fens.len()
        );
        assert_eq!(allocs, 0, "{file}: {allocs} allocations in {nodes} nodes");
    }
}
