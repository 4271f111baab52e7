//! The commands behind the CLI, one file each (`solve.rs`, `check.rs`, `show.rs`,
//! `perft.rs`, `convert.rs`, `replay.rs`, `claim.rs` with `verify-claim`, `diagram.rs`);
//! this file holds what they share (reading and walking files, the run's thread pool,
//! Ctrl-C and time limits, problem metadata for the output); `failure.rs` holds how a
//! command fails and the exit codes: 0 success, 1 a check or claim failed, 2 bad input,
//! 3 a search stopped before it decided.

use crate::check::{TwinVerdict, Verdict, check_twin};
use crate::cli::{
    CheckArgs, ClaimArgs, Cli, Command, ConvertArgs, Format, PerftArgs, ReplayArgs, ShowArgs, Side,
    SolveArgs, VerifyClaimArgs,
};
use crate::core::Kind;
use crate::output::notation::Style;
use crate::output::text::{
    Meta, diagram, duplex_line, meta_lines, stipulation_lines, twin_header, twin_text,
};
use crate::position::Position;
use crate::problem::{self, Problem, ProblemError};
use crate::rules::{Condition, Rules, perft};
use crate::search::result::TwinResult;
use crate::search::solve::{Settings, solve_twin};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod check;
mod claim;
mod convert;
mod diagram;
mod failure;
mod perft;
mod replay;
mod show;
mod solve;
use check::check_cmd;
use claim::claim_cmd;
use claim::verify_claim_cmd;
use convert::convert_cmd;
use diagram::diagram_cmd;
pub use failure::{EXIT_FAILED, EXIT_INPUT, EXIT_OK, EXIT_UNKNOWN, Failure};
use perft::perft_cmd;
use replay::replay_cmd;
use show::show_cmd;
use solve::solve_cmd;

/// Runs a command: the one place where its [`Failure`] is printed and becomes the exit code.
pub fn run(cli: Cli) -> i32 {
    let result = match cli.command {
        Command::Solve(a) => solve_cmd(&a),
        Command::Show(a) => show_cmd(&a),
        Command::Perft(a) => perft_cmd(&a),
        Command::Check(a) => check_cmd(&a),
        Command::Convert(a) => convert_cmd(&a),
        Command::Replay(a) => replay_cmd(&a),
        Command::Claim(a) => claim_cmd(&a),
        Command::VerifyClaim(a) => verify_claim_cmd(&a),
        Command::Diagram(a) => diagram_cmd(&a),
        Command::Completions(a) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(a.shell, &mut cmd, "chainmate", &mut std::io::stdout());
            Ok(())
        }
        Command::Man => {
            let cmd = <Cli as clap::CommandFactory>::command();
            clap_mangen::Man::new(cmd)
                .render(&mut std::io::stdout())
                .map_err(|e| Failure::Input(e.to_string()))
        }
    };
    match result {
        Ok(()) => EXIT_OK,
        Err(f) => {
            if let Some(m) = f.message() {
                eprintln!("{m}");
            }
            f.exit_code()
        }
    }
}

/// The text of a file named on the command line, or of standard input for `-`; the error
/// names the file (`stdin` for standard input).
fn read_text_arg(path: &Path) -> Result<String, String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("stdin: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Expands directories (recursively, sorted) into problem files. See [`walk_files`]; its
/// errors are dropped here.
pub fn collect_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    walk_files(paths).0
}

/// Whether a file name has one of the problem extensions looked for in directories.
fn problem_extension(f: &Path) -> bool {
    let ext = f
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    matches!(ext.as_str(), "yaml" | "yml" | "olv" | "inp" | "pop" | "fen")
}

/// Expands directories (recursively, sorted) into problem files, with an error for each
/// path that cannot be read. A directory is entered once (by its canonical path), so a
/// symlink loop is followed no further (a note on stderr says so), and a file reached twice
/// through symlinks is read once. Named pipes, sockets and devices are never opened: in a
/// directory they are skipped with a note, named on the command line they are an error.
pub fn walk_files(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<ProblemError>) {
    let mut walk = Walk::default();
    for p in paths {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => walk.dir(p),
            Ok(m) if !m.is_file() && p.as_os_str() != "-" => walk.errors.push(ProblemError {
                file: p.display().to_string(),
                line: None,
                column: None,
                message: "not a regular file (a named pipe, socket or device is not read)".into(),
            }),
            // Files, and paths that do not exist: reading them reports the error.
            _ => walk.files.push(p.clone()),
        }
    }
    (walk.files, walk.errors)
}

#[derive(Default)]
struct Walk {
    files: Vec<PathBuf>,
    errors: Vec<ProblemError>,
    /// Canonical paths of the directories entered and the files taken.
    seen: std::collections::HashSet<PathBuf>,
}

impl Walk {
    fn error(&mut self, p: &Path, message: String) {
        self.errors.push(ProblemError {
            file: p.display().to_string(),
            line: None,
            column: None,
            message,
        });
    }

    fn dir(&mut self, dir: &Path) {
        let canon = match std::fs::canonicalize(dir) {
            Ok(c) => c,
            Err(e) => return self.error(dir, format!("cannot read the directory: {e}")),
        };
        if !self.seen.insert(canon.clone()) {
            eprintln!(
                "note: {}: directory {} already read (symlink loop or second link), skipped",
                dir.display(),
                canon.display()
            );
            return;
        }
        let mut entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
            Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(e) => return self.error(dir, format!("cannot read the directory: {e}")),
        };
        entries.sort();
        let mut dirs = vec![];
        for e in entries {
            let meta = match std::fs::metadata(&e) {
                Ok(m) => m,
                Err(err) => {
                    // A dangling symlink or an entry that vanished: an error only when it
                    // looks like a problem file.
                    if problem_extension(&e) {
                        self.error(&e, format!("cannot read the file: {err}"));
                    }
                    continue;
                }
            };
            if meta.is_dir() {
                dirs.push(e);
            } else if !meta.is_file() {
                eprintln!(
                    "note: {}: not a regular file (named pipe, socket or device), skipped",
                    e.display()
                );
            } else if problem_extension(&e) {
                let canon = std::fs::canonicalize(&e).unwrap_or_else(|_| e.clone());
                if self.seen.insert(canon) {
                    self.files.push(e);
                } else {
                    eprintln!(
                        "note: {}: same file as one already read, skipped",
                        e.display()
                    );
                }
            }
        }
        for d in dirs {
            self.dir(&d);
        }
    }
}

/// Reads every problem of the files (directories walked by [`walk_files`]): the good
/// problems, and one error per path that cannot be read and per problem (YAML document,
/// Popeye problem) that cannot be read; the other problems of a file are kept.
fn load_all(files: &[PathBuf]) -> (Vec<Problem>, Vec<ProblemError>) {
    let mut problems = vec![];
    let (paths, mut errors) = walk_files(files);
    for f in paths {
        let (ps, es) = problem::load_file_all(&f);
        problems.extend(ps);
        errors.extend(es);
    }
    (problems, errors)
}

pub use crate::output::SCHEMA;

/// Where a problem comes from and what it is, in every JSON/YAML output.
#[derive(Serialize, Clone)]
struct ProblemMeta {
    file: String,
    /// 1-based line where the problem starts.
    line: usize,
    /// 0-based index of the problem (document) in its file.
    index: usize,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    authors: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    award: Option<String>,
    /// The YACPDB id, when the file gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    yacpdb_id: Option<String>,
}

fn problem_meta(p: &Problem) -> ProblemMeta {
    ProblemMeta {
        file: p.file.clone(),
        line: p.line,
        index: p.index,
        name: problem_name(p),
        title: p.title.clone(),
        authors: p.authors.clone(),
        source: p.source.clone(),
        award: p.award.clone(),
        yacpdb_id: p.yacpdb_id.clone(),
    }
}

/// The search settings with the machine's limits applied: more threads than cores are
/// capped at the core count, a table larger than half the machine's memory at that half;
/// each cap is said on stderr.
fn bound_search(a: &crate::cli::SearchArgs) -> crate::cli::SearchArgs {
    let mut s = a.clone();
    // Asked only when it can matter: the count reads the system's CPU files, which costs
    // about as much as a short search.
    let cores = match s.threads {
        0 | 1 => 1,
        _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if s.threads > cores {
        eprintln!(
            "note: --threads {} is more than the {cores} cores of this machine; using {cores}",
            s.threads
        );
        s.threads = cores;
    }
    if let Some(total) = physical_memory_mb() {
        let most = (total / 2).max(16);
        if s.hash > most {
            eprintln!(
                "note: --hash {} MB is more than half of this machine's {total} MB; using {most} MB",
                s.hash
            );
            s.hash = most;
        }
    }
    s
}

/// The machine's physical memory in MB, where the system says.
fn physical_memory_mb() -> Option<usize> {
    // SAFETY: sysconf only reads system constants.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages > 0 && size > 0).then(|| (pages as u128 * size as u128 / (1 << 20)) as usize)
}

/// Prints a document for programs: pretty JSON, or YAML; nothing for text (the command
/// prints its own text).
fn print_document(format: Format, doc: &impl Serialize) {
    match format {
        Format::Json => println!("{}", serde_json::to_string_pretty(doc).unwrap_or_default()),
        Format::Yaml => print!("{}", crate::problem::yaml::to_yaml_string(doc)),
        Format::Text => {}
    }
}

/// Ctrl-C sets `stop`: the search ends and what it proved is printed. A second Ctrl-C ends
/// the program at once (exit code 130, as a shell reports SIGINT). The handler only stores
/// to atomics (safe in a signal handler), so no thread is started to wait for the signal.
fn on_ctrl_c(stop: &Arc<AtomicBool>) {
    use std::sync::atomic::{AtomicPtr, AtomicU32};
    static FLAG: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());
    static PRESSES: AtomicU32 = AtomicU32::new(0);
    extern "C" fn handler(_: libc::c_int) {
        let flag = FLAG.load(Ordering::SeqCst);
        // SAFETY: the pointer comes from `Arc::into_raw` below and is never released.
        if let Some(flag) = unsafe { flag.as_ref() } {
            flag.store(true, Ordering::SeqCst);
        }
        if PRESSES.fetch_add(1, Ordering::SeqCst) >= 1 {
            // SAFETY: `_exit` is async-signal-safe.
            unsafe { libc::_exit(130) };
        }
    }
    // One flag per process: a later call (a second command in one process) replaces it.
    let raw = Arc::into_raw(stop.clone()) as *mut AtomicBool;
    FLAG.store(raw, Ordering::SeqCst);
    // SAFETY: installs a handler that only touches atomics and calls `_exit`.
    unsafe {
        libc::signal(libc::SIGINT, handler as *const () as libc::sighandler_t);
    }
}

fn problem_name(p: &Problem) -> String {
    let mut name = p.title.clone().unwrap_or_else(|| {
        Path::new(&p.file)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("problem")
            .to_string()
    });
    if p.index > 0 {
        name = format!("{name} [problem {}]", p.index + 1);
    }
    name
}

/// What `solve` prints above a problem's solution: a line naming the problem and its
/// file (chainmate's, so that every solution can be matched to its file), then Popeye's
/// header: a blank line, the `Author`/`Origin`/`Award`/`Title` lines centred, and the
/// board (with `NoBoard`: neither the blank lines nor the board), the stipulation line
/// with the piece count `W + B`, and the condition.
fn problem_header(
    p: &Problem,
    pos: &crate::position::Position,
    stip: &str,
    cond: crate::rules::Condition,
    threat: Option<u32>,
    board: Board,
) -> String {
    let show = board != Board::None;
    let mut out = format!("{}  {}\n", problem_name(p), p.file);
    let meta = Meta {
        authors: &p.authors,
        source: p.source.as_deref(),
        award: p.award.as_deref(),
        title: p.title.as_deref(),
    };
    if show {
        out.push('\n');
    }
    out.push_str(&meta_lines(&meta));
    if show {
        out.push('\n');
        out.push_str(&board_text(pos, board));
    }
    out.push_str(&stipulation_lines(pos, stip, threat, cond));
    out
}

/// How the text output draws the board.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Board {
    /// No board (`NoBoard`, `--no-board`).
    None,
    /// Popeye's ASCII board.
    Popeye,
    /// Unicode glyphs and box-drawing lines (`--unicode`).
    Unicode,
}

fn board_text(pos: &crate::position::Position, board: Board) -> String {
    match board {
        Board::Unicode => crate::output::text::unicode_diagram(pos),
        _ => diagram(pos),
    }
}

fn rules_for(condition: Condition, pos: &Position) -> Rules {
    let kinds: Vec<Kind> = (0..64u8).filter_map(|s| pos.board.kind_at(s)).collect();
    Rules::new(condition).with_fairy_promotions(kinds)
}

/// A `--fen` position for `perft`, `replay` and `claim`: the FEN reader's checks (an
/// en-passant square must be possible under the condition), and no pawn where the
/// condition forbids one (a pawn on its first rank only under Teleport and Pocket
/// Mutation, on its last rank only under Pocket Mutation), as `solve --fen` and the
/// problem files check.
fn fen_arg(fen: &str, cond: Condition) -> Result<Position, String> {
    let mut pos = Position::from_fen_unnormalized(fen)?;
    if let Some(m) = pos.ep_origin_error()
        && !cond.refills_double_step_origin()
    {
        return Err(m);
    }
    pos.normalize();
    problem::check_pawn_ranks(&pos, cond).map_err(|e| e.message)?;
    Ok(pos)
}

/// A `--condition` argument: one of the registry's names.
fn condition_arg(name: &str) -> Result<Condition, Failure> {
    Condition::parse(name)
        .ok_or_else(|| Failure::Input(format!("--condition: unknown condition '{name}'")))
}

/// Builds the run's one thread pool (rayon's global pool) with `threads` threads (0: one
/// per core). A pool that cannot be built is an error, not a panic. With `here` and one
/// thread, the calling thread is the pool's only thread (no thread is started: a short
/// search then costs less than the thread's start); only for a command whose searches
/// all run on the calling thread (`solve`: `check` calls into the pool from its own
/// workers, which would wait for ever on a pool whose thread is busy elsewhere).
fn init_pool(threads: usize, here: bool) -> Result<(), String> {
    let builder = rayon::ThreadPoolBuilder::new().num_threads(threads);
    let builder = if here && threads == 1 {
        builder.use_current_thread()
    } else {
        builder
    };
    match builder.build_global() {
        Ok(()) => Ok(()),
        // Already built (a second command in one process): keep it.
        Err(_) if threads == 0 || rayon::current_num_threads() == threads => Ok(()),
        Err(e) => Err(format!("cannot start {threads} worker threads: {e}")),
    }
}

/// A problem's deadline (none without a time limit) and the stop flag it sets.
type Deadline = (Option<Instant>, Arc<AtomicBool>);

/// Per-worker deadlines, watched by one thread: a problem's stop flag is set when its time
/// limit has passed or the run is stopped (Ctrl-C). One thread for the whole run, however
/// many problems, started with the first deadline: a problem without one is given the
/// run's own stop flag, which nobody else sets (a short run starts no thread).
struct Watchdog {
    slots: Arc<std::sync::Mutex<Vec<Option<Deadline>>>>,
    done: Arc<AtomicBool>,
    run_stop: Arc<AtomicBool>,
    thread: std::sync::Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Watchdog {
    fn new(workers: usize, run_stop: Arc<AtomicBool>) -> Watchdog {
        Watchdog {
            slots: Arc::new(std::sync::Mutex::new(vec![None::<Deadline>; workers])),
            done: Arc::new(AtomicBool::new(false)),
            run_stop,
            thread: std::sync::Mutex::new(None),
        }
    }

    /// Starts the watching thread if it is not running.
    fn watch(&self) {
        let Ok(mut thread) = self.thread.lock() else {
            return;
        };
        if thread.is_some() {
            return;
        }
        let (s, d, run_stop) = (self.slots.clone(), self.done.clone(), self.run_stop.clone());
        *thread = Some(std::thread::spawn(move || {
            while !d.load(Ordering::Relaxed) {
                let now = Instant::now();
                let stopped = run_stop.load(Ordering::Relaxed);
                if let Ok(slots) = s.lock() {
                    for (deadline, flag) in slots.iter().flatten() {
                        if stopped || deadline.is_some_and(|t| now >= t) {
                            flag.store(true, Ordering::Relaxed);
                        }
                    }
                }
                // Woken early by `close`, so a run never waits out the last interval.
                std::thread::park_timeout(Duration::from_millis(10));
            }
        }));
    }

    /// A fresh stop flag for worker `w`'s next problem, set after `limit` seconds.
    fn start(&self, w: usize, limit: Option<f64>) -> Arc<AtomicBool> {
        if limit.is_none() {
            return self.run_stop.clone();
        }
        self.watch();
        let flag = Arc::new(AtomicBool::new(false));
        let deadline = limit.map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
        if let Ok(mut slots) = self.slots.lock() {
            slots[w] = Some((deadline, flag.clone()));
        }
        flag
    }

    fn finish(&self, w: usize) {
        if let Ok(mut slots) = self.slots.lock() {
            slots[w] = None;
        }
    }

    fn close(&self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.lock().ok().and_then(|mut t| t.take()) {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}
