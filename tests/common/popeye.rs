//! Solving a Popeye input file in-process as the corpus tests do, and Popeye's piece codes
//! mapped to chainmate's, for the tests that compare with Popeye's output.

use chainmate::output::notation::Style;
use chainmate::output::text::{twin_header, twin_text};
use chainmate::problem::load_file;
use chainmate::rules::Rules;
use chainmate::search::solve::{Settings, solve_twin};
use std::path::Path;

/// How to solve: threads (0: every core), a time limit, the table's size in MB, and
/// whether by the plain search (`--exhaustive`).
pub struct Run {
    pub threads: usize,
    pub limit: Option<std::time::Duration>,
    pub hash_mb: usize,
    pub exhaustive: bool,
}

/// chainmate's text for every twin of the problems in `inp` (each twin's header, then its
/// solutions), or `None` when a search stopped at the run's limit.
pub fn solve_text(inp: &Path, run: &Run) -> Option<String> {
    let problems = load_file(inp).unwrap_or_else(|e| panic!("{e}"));
    let mut got = String::new();
    for p in &problems {
        for t in p
            .solving_instances(&p.options)
            .unwrap_or_else(|e| panic!("{e}"))
        {
            let kinds: Vec<_> = (0..64u8)
                .filter_map(|s| t.position.board.kind_at(s))
                .collect();
            let rules = Rules::new(t.condition).with_fairy_promotions(kinds);
            let settings = Settings {
                options: p.options.search_options(),
                threads: run.threads,
                hash_mb: run.hash_mb,
                exhaustive: run.exhaustive,
                ..Settings::default()
            };
            let (done, wait) = std::sync::mpsc::channel::<()>();
            if let Some(limit) = run.limit {
                let stop = settings.stop.clone();
                std::thread::spawn(move || {
                    if wait.recv_timeout(limit).is_err() {
                        stop.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                });
            }
            let r = solve_twin(&t.search_input(), &rules, &settings);
            let _ = done.send(());
            if run.limit.is_some() && !r.complete {
                return None;
            }
            assert!(r.complete, "{}: search incomplete", inp.display());
            // A duplex's second half has no twin line of its own (as Popeye writes it).
            if !t.second_half(&p.options) {
                got.push_str(&twin_header(&t));
            }
            got.push_str(&twin_text(&r, Style::Long));
        }
    }
    Some(got)
}

/// Popeye's output with the piece codes chainmate writes differently replaced by
/// chainmate's (`ETa8*a5[+bWAa1]` is `NQa8*a5[+bNRa1]`): a code counts where it stands
/// before a square or after `=` (promotion).
pub fn chainmate_codes(text: &str) -> String {
    let mut out = text.to_string();
    for &(popeye, kind) in chainmate::core::piece::INPUT_ALIASES {
        let mut s = String::new();
        let mut rest = out.as_str();
        while let Some(i) = rest.find(popeye) {
            let after = &rest.as_bytes()[i + popeye.len()..];
            let at_square = after.len() >= 2
                && (b'a'..=b'h').contains(&after[0])
                && (b'1'..=b'8').contains(&after[1]);
            let promoted = rest[..i].ends_with('=');
            s.push_str(&rest[..i]);
            s.push_str(if at_square || promoted {
                kind.code()
            } else {
                popeye
            });
            rest = &rest[i + popeye.len()..];
        }
        s.push_str(rest);
        out = s;
    }
    out
}
