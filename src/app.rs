//! The commands behind the CLI. Exit codes are decided here: 0 success, 1 a check or claim
//! failed, 2 bad input.

use crate::check::{TwinVerdict, Verdict, check_twin};
use crate::cli::{
    CheckArgs, ClaimArgs, Cli, Command, ConvertArgs, Format, PerftArgs, ReplayArgs, ShowArgs, Side,
    SolveArgs, VerifyClaimArgs,
};
use crate::core::Kind;
use crate::output::notation::{Style, move_text};
use crate::output::text::{Meta, diagram, meta_lines, stipulation_lines, twin_header, twin_text};
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

pub const EXIT_OK: i32 = 0;
pub const EXIT_FAILED: i32 = 1;
pub const EXIT_INPUT: i32 = 2;
/// Nothing proven wrong, but some search was stopped (time limit, Ctrl-C) before it decided.
pub const EXIT_UNKNOWN: i32 = 3;

pub fn run(cli: Cli) -> i32 {
    match cli.command {
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
            EXIT_OK
        }
        Command::Man => {
            let cmd = <Cli as clap::CommandFactory>::command();
            match clap_mangen::Man::new(cmd).render(&mut std::io::stdout()) {
                Ok(()) => EXIT_OK,
                Err(e) => {
                    eprintln!("error: {e}");
                    EXIT_INPUT
                }
            }
        }
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

fn show_cmd(a: &ShowArgs) -> i32 {
    if a.files.is_empty() {
        eprintln!("chainmate show: no problem files given");
        return EXIT_INPUT;
    }
    let (problems, mut errors) = load_all(&a.files);
    let mut report = ShowReport {
        schema: SCHEMA,
        command: "show",
        problems: vec![],
        errors: vec![],
    };
    for p in &problems {
        let twins = match p.twin_instances() {
            Ok(t) => t,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        if a.format == Format::Text {
            println!(
                "{}:{} {}",
                p.file,
                p.line,
                p.title.clone().unwrap_or_default()
            );
            for t in &twins {
                if !t.label.is_empty() {
                    println!("{})", t.label);
                }
                let board = if a.unicode {
                    Board::Unicode
                } else {
                    Board::Popeye
                };
                print!("{}", board_text(&t.position, board));
                print!(
                    "{}",
                    stipulation_lines(
                        &t.position,
                        &t.stipulation.to_string(),
                        p.options.threat,
                        t.condition
                    )
                );
            }
            println!();
        }
        report.problems.push(ShowProblem {
            meta: problem_meta(p),
            twins: twins
                .iter()
                .map(|t| ShowTwin {
                    twin: t.label.clone(),
                    description: t.description.clone(),
                    fen: t.position.to_fen(),
                    stipulation: t.stipulation.to_string(),
                    condition: t.condition.name(),
                })
                .collect(),
        });
    }
    for e in &errors {
        eprintln!("error: {e}");
    }
    report.errors = errors.iter().map(|e| e.to_string()).collect();
    match a.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        ),
        Format::Yaml => print!("{}", crate::problem::yaml::to_yaml_string(&report)),
        Format::Text => {}
    }
    if errors.is_empty() {
        EXIT_OK
    } else {
        EXIT_INPUT
    }
}

#[derive(Serialize)]
struct ShowReport {
    schema: &'static str,
    command: &'static str,
    problems: Vec<ShowProblem>,
    /// Input errors, as printed on stderr (file, line, what is wrong).
    errors: Vec<String>,
}

#[derive(Serialize)]
struct ShowProblem {
    #[serde(flatten)]
    meta: ProblemMeta,
    twins: Vec<ShowTwin>,
}

#[derive(Serialize)]
struct ShowTwin {
    twin: String,
    /// What the twin changed, as Popeye prints it.
    description: String,
    fen: String,
    stipulation: String,
    condition: &'static str,
}

#[derive(Serialize)]
struct ProblemReport {
    #[serde(flatten)]
    meta: ProblemMeta,
    twins: Vec<TwinResult>,
}

#[derive(Serialize)]
struct Report {
    schema: &'static str,
    command: &'static str,
    problems: Vec<ProblemReport>,
}

/// The version of the JSON and YAML output; `docs/schema.json` describes it and
/// `docs/solving.md` says what a change of it means.
pub const SCHEMA: &str = "chainmate/1";

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
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
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

/// Ctrl-C sets `stop`: the search ends and what it proved is printed. A second Ctrl-C ends
/// the program at once (exit code 130, as a shell reports SIGINT).
fn on_ctrl_c(stop: &Arc<AtomicBool>) {
    let stop = stop.clone();
    let presses = std::sync::atomic::AtomicU32::new(0);
    let _ = ctrlc::set_handler(move || {
        stop.store(true, Ordering::SeqCst);
        if presses.fetch_add(1, Ordering::SeqCst) >= 1 {
            std::process::exit(130);
        }
    });
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

fn merged_options(p: &Problem, a: &SolveArgs) -> problem::Options {
    let mut o = p.options.clone();
    o.tries |= a.tries;
    if let Some(d) = a.defence {
        o.defence = d;
        o.tries = true;
    }
    o.set_play |= a.setplay;
    o.variations |= a.variations;
    o.no_threat |= a.nothreat;
    o.short_variations_off |= a.no_short_variations;
    if a.max_solutions.is_some() {
        o.max_solutions = a.max_solutions;
    }
    o.no_board |= a.no_board;
    o
}

/// Popeye's `Protocol FILE`: the problem's text output is appended to FILE (Popeye keeps
/// the protocol open from that problem on; chainmate writes each problem's own output).
fn write_protocol(file: &str, text: &str, errors: &mut Vec<ProblemError>) {
    use std::fs::OpenOptions;
    let r = OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .and_then(|mut f| f.write_all(text.as_bytes()));
    if let Err(e) = r {
        errors.push(ProblemError {
            file: file.to_string(),
            line: None,
            column: None,
            message: format!("Protocol: cannot write: {e}"),
        });
    }
}

fn rules_for(condition: Condition, pos: &Position) -> Rules {
    let kinds: Vec<Kind> = (0..64u8).filter_map(|s| pos.board.kind_at(s)).collect();
    Rules::new(condition).with_fairy_promotions(kinds)
}

fn solve_cmd(a: &SolveArgs) -> i32 {
    let search = bound_search(&a.search);
    let (mut problems, errors) = load_all(&a.files);
    let mut input_errors = errors;
    if let Some(fen) = &a.fen {
        let stip = a.stipulation.clone().unwrap_or_default();
        let cond = match a.condition.as_deref() {
            None => Ok(Condition::Orthodox),
            Some(c) => Condition::parse(c).ok_or_else(|| ProblemError {
                file: "<fen>".into(),
                line: None,
                column: None,
                message: format!("unknown condition '{c}'"),
            }),
        };
        match cond.and_then(|cond| problem::from_fen_arg(fen, &stip, cond)) {
            Ok(p) => problems.push(p),
            Err(e) => input_errors.push(e),
        }
    } else if a.files.is_empty() {
        eprintln!("chainmate solve: give problem files or --fen FEN --stipulation S");
        return EXIT_INPUT;
    }
    if let Err(e) = init_pool(search.threads) {
        eprintln!("error: {e}");
        return EXIT_INPUT;
    }
    let stop = Arc::new(AtomicBool::new(false));
    on_ctrl_c(&stop);
    if let Some(secs) = search.time_limit {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(secs.max(0.0)));
            stop.store(true, Ordering::Relaxed);
        });
    }
    let style = if a.short { Style::Short } else { Style::Long };
    let show_bar = !search.quiet && std::io::stderr().is_terminal();
    let mut report = Report {
        schema: SCHEMA,
        command: "solve",
        problems: vec![],
    };
    let stdout = std::io::stdout();
    // Popeye's `MaxTime N` stops one problem; the run's stop (time limit, Ctrl-C) too.
    let watchdog = Watchdog::new(1, stop.clone());
    let mut intelligent_noted = false;
    for p in &problems {
        let twins = match p.twin_instances() {
            Ok(t) => t,
            Err(e) => {
                input_errors.push(e);
                continue;
            }
        };
        let options = merged_options(p, a);
        if options.intelligent && !intelligent_noted {
            intelligent_noted = true;
            eprintln!(
                "note: option Intelligent accepted: chainmate's search is exhaustive and finds \
                 every solution anyway"
            );
        }
        let problem_stop = watchdog.start(0, options.max_time.map(f64::from));
        let mut protocol = String::new();
        let mut results = vec![];
        for t in &twins {
            let rules = rules_for(t.condition, &t.position);
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} {msg} [{bar:30}] {pos}/{len} first moves ({elapsed})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_message(format!("{} {}", problem_name(p), t.label));
            let started = Instant::now();
            let bar2 = bar.clone();
            let progress: Arc<dyn Fn(u64, u64) + Send + Sync> = Arc::new(move |done, total| {
                bar2.set_length(total);
                bar2.set_position(done);
                if show_bar && bar2.is_hidden() && started.elapsed() > Duration::from_secs(1) {
                    bar2.set_draw_target(ProgressDrawTarget::stderr());
                }
            });
            let settings = Settings {
                options: options.clone(),
                threads: 0,
                hash_mb: search.hash,
                stop: problem_stop.clone(),
                progress: Some(progress),
            };
            let r = solve_twin(t, &rules, &settings);
            bar.finish_and_clear();
            if a.format == Format::Text {
                let mut out = String::new();
                if results.is_empty() {
                    if let Some(rem) = &p.remark {
                        out.push_str(rem);
                        out.push('\n');
                    }
                    // The diagram (the zero position itself when there is one), then, as
                    // Popeye: a blank line before the first twin's line, and Popeye's
                    // `zeroposition` line before the twins of a zero position.
                    let zero = p.has_zero_position();
                    let (pos, stip, cond) = if zero {
                        (&p.position, p.stipulation, p.condition)
                    } else {
                        (&t.position, t.stipulation, t.condition)
                    };
                    out.push_str(&problem_header(
                        p,
                        pos,
                        &stip.to_string(),
                        cond,
                        options.threat,
                        if options.no_board {
                            Board::None
                        } else if a.unicode {
                            Board::Unicode
                        } else {
                            Board::Popeye
                        },
                    ));
                    if zero {
                        out.push_str("\nzeroposition\n\n");
                    }
                    if !t.label.is_empty() {
                        out.push('\n');
                    }
                }
                for (label, text) in &p.twin_remarks {
                    if *label == t.label {
                        out.push_str(text);
                        out.push('\n');
                    }
                }
                out.push_str(&twin_header(t));
                for line in &r.move_numbers {
                    out.push_str(line);
                    out.push('\n');
                }
                out.push_str(&twin_text(&r, style));
                protocol.push_str(&out);
                let mut lock = stdout.lock();
                let _ = lock.write_all(out.as_bytes());
                let _ = lock.flush();
            }
            results.push(r);
        }
        if a.format == Format::Text {
            // Popeye's closing line: interrupted (MaxTime, --time-limit, Ctrl-C), partial
            // (MaxSolutions) or finished.
            if results.iter().any(|r| !r.complete) {
                println!("solving interrupted.\n\n");
                protocol.push_str("solving interrupted.\n\n\n");
            } else if results.iter().any(|r| r.partial) {
                println!("Partial solution\n\n");
                protocol.push_str("Partial solution\n\n\n");
            } else {
                println!("solution finished.\n\n");
                protocol.push_str("solution finished.\n\n\n");
            }
        }
        watchdog.finish(0);
        if let Some(file) = &p.protocol {
            write_protocol(file, &protocol, &mut input_errors);
        }
        report.problems.push(ProblemReport {
            meta: problem_meta(p),
            twins: results,
        });
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    watchdog.close();
    match a.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        ),
        Format::Yaml => print!("{}", crate::problem::yaml::to_yaml_string(&report)),
        Format::Text => {}
    }
    for e in &input_errors {
        eprintln!("error: {e}");
    }
    for p in &problems[report.problems.len().min(problems.len())..] {
        eprintln!(
            "not reached (stopped): {}:{} {}",
            p.file,
            p.line,
            problem_name(p)
        );
    }
    let stopped = report
        .problems
        .iter()
        .any(|p| p.twins.iter().any(|t| !t.complete))
        || report.problems.len() < problems.len();
    if !input_errors.is_empty() {
        EXIT_INPUT
    } else if stopped {
        EXIT_UNKNOWN
    } else {
        EXIT_OK
    }
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

fn perft_cmd(a: &PerftArgs) -> i32 {
    let fen = a
        .fen
        .clone()
        .unwrap_or_else(|| Position::initial().to_fen());
    let Some(cond) = Condition::parse(&a.condition) else {
        eprintln!("error: --condition: unknown condition '{}'", a.condition);
        return EXIT_INPUT;
    };
    let pos = match fen_arg(&fen, cond) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: --fen: {e}");
            return EXIT_INPUT;
        }
    };
    let rules = rules_for(cond, &pos);
    // Each first move with its count (--divide), then the total.
    let mut divide: Vec<PerftMove> = vec![];
    let total = if a.divide && a.depth > 0 && cond == Condition::Combo {
        // Combos are printed from the walk's own paths (replaying each one would cost a
        // generation per move), without check signs.
        use crate::rules::combo;
        let mut total = 0;
        for (child, steps) in combo::moves_with_steps(&pos, &rules) {
            if combo::can_capture_king(&child, child.side, &rules) {
                continue;
            }
            let n = perft(&rules, &child, a.depth - 1);
            total += n;
            divide.push(PerftMove {
                r#move: combo::steps_text(&pos, &rules, &steps, true),
                nodes: n,
            });
        }
        total
    } else if a.divide && a.depth > 0 {
        let mut total = 0;
        for (m, child) in rules.legal_moves(&pos) {
            let n = perft(&rules, &child, a.depth - 1);
            total += n;
            divide.push(PerftMove {
                r#move: move_text(&rules, &pos, m, &child, Style::Long),
                nodes: n,
            });
        }
        total
    } else if a.game_start {
        crate::rules::perft_game_start(&rules, &pos, a.depth)
    } else {
        perft(&rules, &pos, a.depth)
    };
    match a.format {
        Format::Text => {
            let mut out = std::io::stdout().lock();
            for d in &divide {
                let _ = writeln!(out, "{} {}", d.r#move, d.nodes);
            }
            let _ = writeln!(out, "Nodes searched: {total}");
        }
        _ => {
            let report = PerftReport {
                schema: SCHEMA,
                command: "perft",
                fen: pos.to_fen(),
                condition: cond.name(),
                depth: a.depth,
                nodes: total,
                divide,
            };
            if a.format == Format::Json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&report).unwrap_or_default()
                );
            } else {
                print!("{}", crate::problem::yaml::to_yaml_string(&report));
            }
        }
    }
    EXIT_OK
}

#[derive(Serialize)]
struct PerftReport {
    schema: &'static str,
    command: &'static str,
    fen: String,
    condition: &'static str,
    depth: u32,
    nodes: u64,
    /// With --divide: each first move and its count.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    divide: Vec<PerftMove>,
}

#[derive(Serialize)]
struct PerftMove {
    r#move: String,
    nodes: u64,
}

#[derive(Serialize)]
struct CheckReport {
    schema: &'static str,
    command: &'static str,
    #[serde(flatten)]
    meta: ProblemMeta,
    twins: Vec<TwinVerdict>,
    duals: Vec<String>,
    short_variations: Vec<String>,
    seconds: f64,
}

/// Duals and short variations read off a solved tree: a defence followed by several
/// attacker continuations, or answered faster than the full length.
fn tree_remarks(r: &TwinResult, full: u32) -> (Vec<String>, Vec<String>) {
    use crate::search::result::TreeNode;
    fn depth(n: &TreeNode) -> u32 {
        n.children
            .iter()
            .map(depth)
            .max()
            .map_or(n.ply, |d| d.max(n.ply))
    }
    fn walk(n: &TreeNode, full: u32, duals: &mut Vec<String>, short: &mut Vec<String>, path: &str) {
        for c in &n.children {
            let here = format!(
                "{path} {}{}",
                if c.ply % 2 == 1 {
                    format!("{}...", c.ply.div_ceil(2))
                } else {
                    format!("{}.", c.ply / 2 + 1)
                },
                c.mv.text
            );
            if c.ply % 2 == 1 {
                if c.children.len() > 1 {
                    let alts: Vec<String> = c.children.iter().map(|a| a.mv.text.clone()).collect();
                    duals.push(format!("{}: {}", here.trim(), alts.join(", ")));
                }
                if c.ply == 1 && depth(c) + 1 < 2 * full - 1 {
                    short.push(here.trim().to_string());
                }
            }
            walk(c, full, duals, short, &here);
        }
    }
    let (mut duals, mut short) = (vec![], vec![]);
    for k in r.tree.iter().filter(|k| k.mark == "key") {
        walk(k, full, &mut duals, &mut short, &format!("1.{}", k.mv.text));
    }
    (duals, short)
}

fn check_cmd(a: &CheckArgs) -> i32 {
    let search = bound_search(&a.search);
    let mut paths = a.files.clone();
    if let Some(list) = &a.files_from {
        match read_path_list(list) {
            Ok(more) => paths.extend(more),
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_INPUT;
            }
        }
    }
    if paths.is_empty() {
        eprintln!("chainmate check: no problem files given");
        return EXIT_INPUT;
    }
    let decided = match &a.resume {
        Some(out) => match decided_problems(out) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_INPUT;
            }
        },
        None => Default::default(),
    };
    if let Err(e) = init_pool(search.threads) {
        eprintln!("error: {e}");
        return EXIT_INPUT;
    }
    let stop = Arc::new(AtomicBool::new(false));
    on_ctrl_c(&stop);
    let (files, walk_errors) = walk_files(&paths);
    // Problems run side by side, one per worker, each searching in the run's one thread
    // pool (its root moves spread over the pool's threads); each worker's table has a share
    // of the memory and grows only as far as its problem needs (tt.rs). Files are read one
    // at a time as the workers need problems, so memory does not grow with the collection.
    let workers = rayon::current_num_threads().max(1);
    let hash_each = (search.hash / workers).max(1);
    let show_bar = !search.quiet && std::io::stderr().is_terminal();
    let bar = if show_bar {
        ProgressBar::new_spinner()
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos} problems checked ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let watchdog = Watchdog::new(workers, stop.clone());
    let (work_tx, work_rx) = std::sync::mpsc::sync_channel::<(usize, Problem)>(workers * 2);
    let work_rx = std::sync::Mutex::new(work_rx);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Outcome)>();
    let mut summary = CheckSummary::default();
    let mut input_errors: Vec<ProblemError> = vec![];
    let mut not_reached: Vec<String> = vec![];
    std::thread::scope(|scope| {
        // The reader: documents in input order, numbered over the whole run (the shard
        // index), each sent to the workers or, when decided earlier (--resume) or in
        // another shard, left out; after a stop the rest is only listed.
        {
            let (tx, stop, decided) = (tx.clone(), &stop, &decided);
            let (files, walk_errors) = (&files, walk_errors);
            scope.spawn(move || {
                let mut run_index = 0usize;
                let mut seq = 0usize;
                let mut emit = |item: Result<Problem, ProblemError>| {
                    let mine = a.shard.is_none_or(|(k, n)| run_index % n == k - 1);
                    run_index += 1;
                    if !mine {
                        return true;
                    }
                    let p = match item {
                        Err(e) => {
                            let ok = tx.send((seq, Outcome::Error(e))).is_ok();
                            seq += 1;
                            return ok;
                        }
                        Ok(p) => p,
                    };
                    if decided.contains(&(p.file.clone(), p.index)) {
                        return true;
                    }
                    let ok = if stop.load(Ordering::Relaxed) {
                        tx.send((seq, Outcome::NotReached(problem_place(&p))))
                            .is_ok()
                    } else {
                        work_tx.send((seq, p)).is_ok()
                    };
                    seq += 1;
                    ok
                };
                for e in walk_errors {
                    if !emit(Err(e)) {
                        return;
                    }
                }
                for f in files {
                    let (ps, es) = problem::load_file_all(f);
                    let mut items: Vec<(usize, Result<Problem, ProblemError>)> = ps
                        .into_iter()
                        .map(|p| (p.line, Ok(p)))
                        .chain(es.into_iter().map(|e| (e.line.unwrap_or(0), Err(e))))
                        .collect();
                    items.sort_by_key(|x| x.0);
                    for (_, item) in items {
                        if !emit(item) {
                            return;
                        }
                    }
                }
            });
        }
        for w in 0..workers {
            let tx = tx.clone();
            let (work_rx, watchdog, stop, search) = (&work_rx, &watchdog, &stop, &search);
            scope.spawn(move || {
                loop {
                    let next = work_rx.lock().ok().and_then(|rx| rx.recv().ok());
                    let Some((seq, p)) = next else { break };
                    let outcome = if stop.load(Ordering::Relaxed) {
                        Outcome::NotReached(problem_place(&p))
                    } else {
                        let limit = match (search.time_limit, p.options.max_time) {
                            (Some(t), Some(m)) => Some(t.min(f64::from(m))),
                            (t, m) => t.or(m.map(f64::from)),
                        };
                        let problem_stop = watchdog.start(w, limit);
                        let r = check_problem(&p, a, hash_each, &problem_stop);
                        watchdog.finish(w);
                        match r {
                            Ok(r) => Outcome::Report(Box::new(r)),
                            Err(e) => Outcome::Error(e),
                        }
                    };
                    if tx.send((seq, outcome)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Results are printed in input order as soon as they and all before them are in.
        let mut pending = std::collections::BTreeMap::new();
        let mut next = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&next) {
                match r {
                    Outcome::Report(r) => {
                        bar.inc(1);
                        bar.suspend(|| summary.print(&r, a.format));
                    }
                    Outcome::Error(e) => {
                        bar.suspend(|| eprintln!("error: {e}"));
                        input_errors.push(e);
                    }
                    Outcome::NotReached(place) => not_reached.push(place),
                }
                next += 1;
            }
        }
    });
    watchdog.close();
    bar.finish_and_clear();
    if a.format == Format::Text {
        summary.print_totals(&input_errors, &not_reached);
    }
    if !not_reached.is_empty() {
        eprintln!(
            "stopped: {} problem(s) not reached, from {} on",
            not_reached.len(),
            not_reached[0]
        );
    }
    if !input_errors.is_empty() {
        EXIT_INPUT
    } else if summary.unsound > 0 {
        EXIT_FAILED
    } else if summary.unknown > 0 || !not_reached.is_empty() {
        EXIT_UNKNOWN
    } else {
        EXIT_OK
    }
}

/// What became of one document of a `check` run.
enum Outcome {
    Report(Box<CheckReport>),
    Error(ProblemError),
    /// Stopped before it was checked: where it is ("file:line name").
    NotReached(String),
}

fn problem_place(p: &Problem) -> String {
    format!("{}:{} {}", p.file, p.line, problem_name(p))
}

/// The paths of `--files-from` (one a line; blank lines skipped; `-` is standard input).
fn read_path_list(list: &Path) -> Result<Vec<PathBuf>, String> {
    let text = if list.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("stdin: {e}"))?;
        s
    } else {
        std::fs::read_to_string(list).map_err(|e| format!("{}: {e}", list.display()))?
    };
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(PathBuf::from)
        .collect())
}

/// The problems an earlier `check --format json` run decided: (file, index) of each JSON
/// line whose twins all have a verdict other than `unknown`. Lines that are not such JSON
/// (a line cut short when the run was killed) are passed over.
fn decided_problems(out: &Path) -> Result<std::collections::HashSet<(String, usize)>, String> {
    let mut done = std::collections::HashSet::new();
    if !out.exists() {
        // The first run of a resumable job: nothing is decided yet.
        eprintln!(
            "note: {} does not exist yet: nothing to skip",
            out.display()
        );
        return Ok(done);
    }
    let text = std::fs::read_to_string(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let (Some(file), Some(index), Some(twins)) = (
            v["file"].as_str(),
            v["index"].as_u64(),
            v["twins"].as_array(),
        ) else {
            continue;
        };
        if !twins.is_empty() && twins.iter().all(|t| t["verdict"] != "unknown") {
            done.insert((file.to_string(), index as usize));
        }
    }
    Ok(done)
}

/// Builds the run's one thread pool (rayon's global pool) with `threads` threads (0: one
/// per core). A pool that cannot be built is an error, not a panic.
fn init_pool(threads: usize) -> Result<(), String> {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
    {
        Ok(()) => Ok(()),
        // Already built (a second command in one process): keep it.
        Err(_) if threads == 0 || rayon::current_num_threads() == threads => Ok(()),
        Err(e) => Err(format!("cannot start {threads} worker threads: {e}")),
    }
}

/// One problem checked: every twin judged against its own part of the stated solution,
/// all under one stop flag (the problem's time limit, or the run's Ctrl-C).
fn check_problem(
    p: &Problem,
    a: &CheckArgs,
    hash_mb: usize,
    stop: &Arc<AtomicBool>,
) -> Result<CheckReport, ProblemError> {
    let twins = p.twin_instances()?;
    let started = Instant::now();
    let mut options = p.options.clone();
    if a.duals || a.short_variations {
        options.variations = true;
    }
    let mut verdicts = vec![];
    let (mut duals, mut short) = (vec![], vec![]);
    for t in &twins {
        let settings = Settings {
            options: options.clone(),
            threads: 0,
            hash_mb,
            stop: stop.clone(),
            progress: None,
        };
        let rules = rules_for(t.condition, &t.position);
        let (v, r) = check_twin(p, t, &rules, &settings);
        let (d, sv) = tree_remarks(&r, t.stipulation.moves);
        if a.duals {
            duals.extend(d);
            if r.lines.len() > 1 {
                duals.extend(help_duals(&r));
            }
        }
        if a.short_variations {
            short.extend(sv);
        }
        verdicts.push(v);
    }
    Ok(CheckReport {
        schema: SCHEMA,
        command: "check",
        meta: problem_meta(p),
        twins: verdicts,
        duals,
        short_variations: short,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A problem's deadline (none without a time limit) and the stop flag it sets.
type Deadline = (Option<Instant>, Arc<AtomicBool>);

/// Per-worker deadlines, watched by one thread: a problem's stop flag is set when its time
/// limit has passed or the run is stopped (Ctrl-C). One thread for the whole run, however
/// many problems.
struct Watchdog {
    slots: Arc<std::sync::Mutex<Vec<Option<Deadline>>>>,
    done: Arc<AtomicBool>,
    thread: std::sync::Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Watchdog {
    fn new(workers: usize, run_stop: Arc<AtomicBool>) -> Watchdog {
        let slots = Arc::new(std::sync::Mutex::new(vec![None::<Deadline>; workers]));
        let done = Arc::new(AtomicBool::new(false));
        let (s, d) = (slots.clone(), done.clone());
        let thread = std::thread::spawn(move || {
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
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        Watchdog {
            slots,
            done,
            thread: std::sync::Mutex::new(Some(thread)),
        }
    }

    /// A fresh stop flag for worker `w`'s next problem, set after `limit` seconds.
    fn start(&self, w: usize, limit: Option<f64>) -> Arc<AtomicBool> {
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
            let _ = t.join();
        }
    }
}

/// What `check` has printed so far: counts per verdict and the slowest problems.
#[derive(Default)]
struct CheckSummary {
    counts: std::collections::BTreeMap<&'static str, usize>,
    problems: usize,
    unsound: usize,
    unknown: usize,
    /// (seconds, "file:line name"), the five slowest.
    slowest: Vec<(f64, String)>,
}

impl CheckSummary {
    fn print(&mut self, r: &CheckReport, format: Format) {
        self.problems += 1;
        for t in &r.twins {
            *self.counts.entry(t.verdict.text()).or_insert(0) += 1;
            match t.verdict {
                Verdict::Cooked | Verdict::NoSolution | Verdict::Unstated => self.unsound += 1,
                Verdict::Unknown => self.unknown += 1,
                _ => {}
            }
        }
        self.slowest.push((
            r.seconds,
            format!("{}:{} {}", r.meta.file, r.meta.line, r.meta.name),
        ));
        self.slowest
            .sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(std::cmp::Ordering::Equal));
        self.slowest.truncate(5);
        let mut out = String::new();
        match format {
            Format::Json => {
                out.push_str(&serde_json::to_string(r).unwrap_or_default());
                out.push('\n');
            }
            Format::Yaml => {
                out.push_str("---\n");
                out.push_str(&crate::problem::yaml::to_yaml_string(r));
            }
            Format::Text => {
                out.push_str(&format!("{}:{} {}", r.meta.file, r.meta.line, r.meta.name));
                if let Some(id) = &r.meta.yacpdb_id {
                    out.push_str(&format!(" (YACPDB {id})"));
                }
                out.push('\n');
                for t in &r.twins {
                    let label = if t.twin.is_empty() {
                        String::new()
                    } else {
                        format!("{}) ", t.twin)
                    };
                    let incomplete = if t.complete { "" } else { " (search stopped)" };
                    out.push_str(&format!(
                        "  {label}{}: {}{incomplete} ({:.2} s)\n",
                        t.stipulation,
                        t.verdict.text(),
                        t.seconds
                    ));
                    for e in &t.evidence {
                        out.push_str(&format!("    {e}\n"));
                    }
                }
                for d in &r.duals {
                    out.push_str(&format!("    dual: {d}\n"));
                }
                for s in &r.short_variations {
                    out.push_str(&format!("    short variation: {s}\n"));
                }
            }
        }
        let mut lock = std::io::stdout().lock();
        let _ = lock.write_all(out.as_bytes());
        let _ = lock.flush();
    }

    fn print_totals(&self, errors: &[ProblemError], not_reached: &[String]) {
        println!();
        println!("summary: {} problems", self.problems);
        for (k, v) in &self.counts {
            println!("  {k:<12} {v}");
        }
        if !errors.is_empty() {
            println!("  {:<12} {}", "input error", errors.len());
        }
        if !not_reached.is_empty() {
            println!("  {:<12} {}", "not reached", not_reached.len());
        }
        println!("slowest:");
        for (secs, name) in &self.slowest {
            println!("  {secs:>8.2} s  {name}");
        }
        if !not_reached.is_empty() {
            println!("not reached (stopped):");
            for p in not_reached {
                println!("  {p}");
            }
        }
    }
}

/// Help/series solutions that differ in exactly one move.
fn help_duals(r: &TwinResult) -> Vec<String> {
    let mut out = vec![];
    for (i, a) in r.lines.iter().enumerate() {
        for b in &r.lines[i + 1..] {
            if a.len() == b.len() && a.iter().zip(b).filter(|(x, y)| x.text != y.text).count() == 1
            {
                let t = |l: &Vec<crate::search::result::MoveInfo>| {
                    l.iter()
                        .map(|m| m.text.clone())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                out.push(format!("{} / {}", t(a), t(b)));
            }
        }
    }
    out
}

fn convert_cmd(a: &ConvertArgs) -> i32 {
    // `-` reads standard input; its format is sniffed (Popeye's `BeginProblem`, a FEN
    // board, or YAML).
    let stdin_text = if a.file.as_os_str() == "-" {
        let mut s = String::new();
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut s) {
            eprintln!("error: stdin: {e}");
            return EXIT_INPUT;
        }
        Some(s)
    } else {
        None
    };
    let loaded = match &stdin_text {
        Some(t) => problem::parse_text("<stdin>", t, problem::Format::sniff(t)),
        None => problem::load_file(&a.file),
    };
    let problems = match loaded {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    let from_popeye = match &stdin_text {
        Some(t) => problem::Format::sniff(t) == problem::Format::Popeye,
        None => problem::Format::from_extension(&a.file) == Some(problem::Format::Popeye),
    };
    if from_popeye {
        print!("{}", crate::problem::yaml::problems_to_yaml(&problems));
    } else {
        print!("{}", crate::problem::inp::problems_to_inp(&problems));
    }
    EXIT_OK
}

/// Replays moves from the initial array (game rules: in Pocket Mutation White may not use
/// the pocket on the first move, D15) or from a FEN, checking each move and printing the
/// position after it.
fn replay_cmd(a: &ReplayArgs) -> i32 {
    let name = a.game.display().to_string();
    let text = if name == "-" {
        let mut s = String::new();
        match std::io::Read::read_to_string(&mut std::io::stdin(), &mut s) {
            Ok(_) => s,
            Err(e) => {
                eprintln!("error: stdin: {e}");
                return EXIT_INPUT;
            }
        }
    } else {
        match std::fs::read_to_string(&a.game) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                return EXIT_INPUT;
            }
        }
    };
    let Some(cond) = Condition::parse(&a.condition) else {
        eprintln!("error: --condition: unknown condition '{}'", a.condition);
        return EXIT_INPUT;
    };
    let game_start = a.fen.is_none();
    let mut pos = match &a.fen {
        Some(f) => match fen_arg(f, cond) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: --fen: {e}");
                return EXIT_INPUT;
            }
        },
        None => Position::initial(),
    };
    let rules = rules_for(cond, &pos);
    let mut clock = GameClock::new(a.fen.as_deref());
    println!("start {}", clock.fen(&pos));
    for (ply, token) in crate::check::tokens(&text).iter().enumerate() {
        let number = format!(
            "{}{}",
            clock.full,
            if pos.side == crate::core::Color::White {
                "."
            } else {
                "..."
            }
        );
        if cond == Condition::Combo {
            // Game semantics: a combo may leave the own king capturable; a king capture
            // ends the game.
            let shown = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            let (child, steps) = match crate::rules::combo::parse(&pos, &rules, shown) {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("error: {name}: move {number}{shown}: {e}");
                    return EXIT_INPUT;
                }
            };
            let text = crate::rules::combo::steps_text(&pos, &rules, &steps, false);
            let last = steps.last().expect("a combo has steps");
            if last.capture && last.to == pos.king(pos.side.flip()) {
                clock.advance(&pos, &child);
                println!("{number}{text} {} (king captured)", clock.fen(&child));
                return EXIT_OK;
            }
            let mut notes = vec![];
            if crate::rules::combo::can_capture_king(&child, child.side, &rules) {
                notes.push("own king left capturable");
            }
            if rules.in_check(&child) {
                notes.push("combo check");
            }
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join(", "))
            };
            let sign = if rules.in_check(&child) { "+" } else { "" };
            clock.advance(&pos, &child);
            println!("{number}{text}{sign} {}{notes}", clock.fen(&child));
            pos = child;
            continue;
        }
        let found = crate::check::find_move(&rules, &pos, token).filter(|(m, _)| {
            // D15: no pocket use on White's first move of a game.
            !(game_start
                && ply == 0
                && cond == Condition::PocketMutation
                && matches!(
                    m.kind,
                    crate::moves::MoveKind::Pocket | crate::moves::MoveKind::Drop
                ))
        });
        let Some((m, child)) = found else {
            let shown = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            eprintln!(
                "error: {name}: move {number}{shown} is not a legal {} move here ({})",
                cond.name(),
                pos.to_fen()
            );
            return EXIT_INPUT;
        };
        clock.advance(&pos, &child);
        println!(
            "{number}{} {}",
            move_text(&rules, &pos, m, &child, Style::Long),
            clock.fen(&child)
        );
        pos = child;
    }
    EXIT_OK
}

/// The move counters of a replayed game (FEN's last two fields). The half-move clock
/// restarts when a move captures (the opponent has fewer pieces after it) or moves, drops
/// or pockets a pawn (a promotion moves a pawn); the move number grows after each Black
/// move.
struct GameClock {
    half: u32,
    full: u32,
}

impl GameClock {
    /// The counters of a FEN (`0 1` when absent or not numbers).
    fn new(fen: Option<&str>) -> GameClock {
        let fields: Vec<&str> = fen.unwrap_or("").split_whitespace().collect();
        let number = |i: usize, default: u32| {
            fields
                .get(i)
                .and_then(|f| f.parse().ok())
                .unwrap_or(default)
        };
        GameClock {
            half: number(4, 0),
            full: number(5, 1).max(1),
        }
    }

    fn advance(&mut self, before: &Position, after: &Position) {
        use crate::core::Piece;
        let us = before.side;
        let pawns = |p: &Position| -> u64 {
            (0..64u8)
                .filter(|&s| p.board.get(s) == Some(Piece::new(us, Kind::Pawn)))
                .fold(0, |m, s| m | 1 << s)
        };
        let pocket = |p: &Position| p.pockets[us.idx()];
        let capture = after.count(us.flip()) < before.count(us.flip());
        let pawn_move = pawns(before) != pawns(after)
            || pocket(before) == Some(Kind::Pawn)
            || pocket(after) == Some(Kind::Pawn);
        self.half = if capture || pawn_move {
            0
        } else {
            self.half + 1
        };
        if us == crate::core::Color::Black {
            self.full += 1;
        }
    }

    fn fen(&self, pos: &Position) -> String {
        let f = pos.to_fen();
        let board = f.strip_suffix(" 0 1").unwrap_or(&f);
        format!("{board} {} {}", self.half, self.full)
    }
}

#[derive(Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimProof {
    /// The output version (absent in proofs written before it was introduced).
    #[serde(default = "schema_version")]
    schema: String,
    #[serde(default = "claim_command")]
    command: String,
    fen: String,
    condition: String,
    claimant: String,
    holds: bool,
    in_check: bool,
    /// When the claim fails because the claimant can move: one legal move.
    safe_move: Option<String>,
    /// Combo, claimant in combo check: the opponent's combo that captures the king.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    check_capture: Option<String>,
    /// Combo, claim holds: every distinct combo of the claimant with a king capture.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    refutations: Vec<ComboRefutation>,
}

fn schema_version() -> String {
    SCHEMA.into()
}

fn claim_command() -> String {
    "claim".into()
}

#[derive(Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ComboRefutation {
    /// The claimant's combo.
    combo: String,
    /// The opponent's combo after it that captures the claimant's king.
    capture: String,
}

/// The Combo part of a claim: the proof fields, or an error text.
fn combo_claim(pos: &Position, rules: &Rules) -> ClaimProof {
    use crate::rules::combo;
    let us = pos.side;
    let mut proof = ClaimProof {
        schema: SCHEMA.into(),
        command: "claim".into(),
        fen: pos.to_fen(),
        condition: "combo".into(),
        claimant: us.to_string(),
        holds: false,
        in_check: false,
        safe_move: None,
        check_capture: None,
        refutations: vec![],
    };
    let them_to_move = pos.null_move();
    if let Some(steps) = combo::king_capture(pos, us.flip(), rules) {
        proof.in_check = true;
        proof.check_capture = Some(combo::steps_text(&them_to_move, rules, &steps, false));
        return proof;
    }
    for (after, steps) in combo::moves_with_steps(pos, rules) {
        let text = combo::steps_text(pos, rules, &steps, false);
        match combo::king_capture(&after, after.side, rules) {
            Some(capture) => proof.refutations.push(ComboRefutation {
                combo: text,
                capture: combo::steps_text(&after, rules, &capture, false),
            }),
            None => {
                proof.safe_move = Some(text);
                proof.refutations.clear();
                return proof;
            }
        }
    }
    proof.holds = true;
    proof
}

/// A stalemate claim (orthodox and the non-Combo conditions): it holds when the claimant is
/// not in check and has no legal move. Exit code 0 when it holds, 1 when it fails.
fn claim_cmd(a: &ClaimArgs) -> i32 {
    let arg_condition = match &a.condition {
        Some(c) => match Condition::parse(c) {
            Some(c) => Some(c),
            None => {
                eprintln!("error: --condition: unknown condition '{c}'");
                return EXIT_INPUT;
            }
        },
        None => None,
    };
    let (mut pos, file_condition) = match (&a.fen, &a.file) {
        (Some(f), _) => match fen_arg(f, arg_condition.unwrap_or(Condition::Orthodox)) {
            Ok(p) => (p, None),
            Err(e) => {
                eprintln!("error: --fen: {e}");
                return EXIT_INPUT;
            }
        },
        (None, Some(file)) => match problem::load_file(file) {
            Ok(ps) if !ps.is_empty() => (ps[0].position, Some(ps[0].condition)),
            Ok(_) => {
                eprintln!("error: {}: no problem in the file", file.display());
                return EXIT_INPUT;
            }
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_INPUT;
            }
        },
        (None, None) => {
            eprintln!("chainmate claim: give a problem file or --fen FEN");
            return EXIT_INPUT;
        }
    };
    let cond = arg_condition
        .or(file_condition)
        .unwrap_or(Condition::Orthodox);
    if let Some(side) = a.side {
        let c = if side == Side::White {
            crate::core::Color::White
        } else {
            crate::core::Color::Black
        };
        if pos.side != c {
            pos = pos.null_move();
        }
    }
    let rules = rules_for(cond, &pos);
    if rules.other_side_in_check(&pos) {
        eprintln!(
            "error: illegal position: the side not to move is in check ({})",
            pos.to_fen()
        );
        return EXIT_INPUT;
    }
    let proof = if cond == Condition::Combo {
        combo_claim(&pos, &rules)
    } else {
        let in_check = rules.in_check(&pos);
        let first = rules.legal_moves(&pos).into_iter().next();
        let safe_move = first.map(|(m, c)| move_text(&rules, &pos, m, &c, Style::Long));
        ClaimProof {
            schema: SCHEMA.into(),
            command: "claim".into(),
            fen: pos.to_fen(),
            condition: cond.name().to_string(),
            claimant: pos.side.to_string(),
            holds: !in_check && safe_move.is_none(),
            in_check,
            safe_move,
            check_capture: None,
            refutations: vec![],
        }
    };
    let holds = proof.holds;
    let in_check = proof.in_check;
    let safe_move = proof.safe_move.clone();
    match a.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&proof).unwrap_or_default()
        ),
        Format::Yaml => print!("{}", crate::problem::yaml::to_yaml_string(&proof)),
        Format::Text => {
            if holds && cond == Condition::Combo {
                println!(
                    "claim holds: {} is not in combo check, and each of its {} combos lets {} capture the king:",
                    proof.claimant,
                    proof.refutations.len(),
                    pos.side.flip()
                );
                for r in &proof.refutations {
                    println!("  {} {}", r.combo, r.capture);
                }
            } else if holds {
                println!(
                    "claim holds: {} is not in check and has no legal move ({})",
                    proof.claimant,
                    cond.name()
                );
            } else if in_check {
                match &proof.check_capture {
                    Some(c) => println!(
                        "claim fails: {} is in combo check: {} can play {c}",
                        proof.claimant,
                        pos.side.flip()
                    ),
                    None => println!("claim fails: {} is in check", proof.claimant),
                }
            } else {
                println!(
                    "claim fails: {} can play {}",
                    proof.claimant,
                    safe_move.unwrap_or_default()
                );
            }
        }
    }
    if holds { EXIT_OK } else { EXIT_FAILED }
}

/// Re-checks a claim proof. Combo: the claimant's combos and the king captures are replayed
/// step by step by the notation reader (each step validated on the board), the list is
/// compared with the move generator's distinct results, and "not in combo check" is
/// decided by the plain exhaustive walk, without the search's over-approximation.
/// Exit 0 when the proof is right, 1 when it is wrong, 2 on unreadable input.
fn verify_claim_cmd(a: &VerifyClaimArgs) -> i32 {
    let name = a.proof.display().to_string();
    let text = if name == "-" {
        let mut s = String::new();
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut s) {
            eprintln!("error: stdin: {e}");
            return EXIT_INPUT;
        }
        s
    } else {
        match std::fs::read_to_string(&a.proof) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                return EXIT_INPUT;
            }
        }
    };
    let proof: ClaimProof = match serde_json::from_str(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!(
                "error: {name}:{}:{}: not a claim proof: {e}",
                e.line(),
                e.column()
            );
            return EXIT_INPUT;
        }
    };
    if proof.schema != SCHEMA || proof.command != "claim" {
        eprintln!(
            "error: {name}: a proof of schema '{}' and command '{}'; this chainmate reads '{SCHEMA}' claim proofs",
            proof.schema, proof.command
        );
        return EXIT_INPUT;
    }
    let pos = match Position::from_fen(&proof.fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {name}: fen: {e}");
            return EXIT_INPUT;
        }
    };
    let Some(cond) = Condition::parse(&proof.condition) else {
        eprintln!("error: {name}: unknown condition '{}'", proof.condition);
        return EXIT_INPUT;
    };
    let rules = rules_for(cond, &pos);
    let verdict = verify_proof(&pos, cond, &rules, &proof);
    match verdict {
        Ok(why) => {
            println!("proof verified: {why}");
            EXIT_OK
        }
        Err(why) => {
            println!("proof rejected: {why}");
            EXIT_FAILED
        }
    }
}

/// Checks every field of a proof: against the position (the claimant is the side to move,
/// the diagram is legal under the condition), against each other (a claim that holds has no
/// check, no safe move; a failing one has a reason), and then the claim itself.
fn verify_proof(
    pos: &Position,
    cond: Condition,
    rules: &Rules,
    proof: &ClaimProof,
) -> Result<String, String> {
    let us = pos.side;
    if proof.claimant != us.to_string() {
        return Err(format!(
            "the claimant is '{}', but {us} is to move in the FEN",
            proof.claimant
        ));
    }
    let combo = cond == Condition::Combo;
    if rules.other_side_in_check(pos) {
        return Err(format!(
            "illegal position: {} is in check with {us} to move",
            us.flip()
        ));
    }
    if proof.holds && proof.in_check {
        return Err(
            "\"holds\" and \"in_check\" contradict each other: no stalemate in check".into(),
        );
    }
    if proof.holds && proof.safe_move.is_some() {
        return Err("the claim is said to hold, yet a safe move is given".into());
    }
    if !proof.in_check && proof.check_capture.is_some() {
        return Err("a check capture is given, but \"in_check\" is false".into());
    }
    if !proof.holds && !proof.refutations.is_empty() {
        return Err("refutations are given for a claim said to fail".into());
    }
    if !proof.holds && !proof.in_check && proof.safe_move.is_none() {
        return Err("the claim is said to fail, but neither check nor a safe move is given".into());
    }
    if combo {
        return verify_combo(pos, rules, proof);
    }
    if proof.check_capture.is_some() || !proof.refutations.is_empty() {
        return Err(format!(
            "check captures and refutations belong to Combo proofs, not to {}",
            cond.name()
        ));
    }
    let in_check = rules.in_check(pos);
    if proof.in_check != in_check {
        return Err(format!(
            "\"in_check\" is {}, but {us} is {}in check",
            proof.in_check,
            if in_check { "" } else { "not " }
        ));
    }
    if let Some(m) = &proof.safe_move {
        if crate::check::find_move(rules, pos, m).is_none() {
            return Err(format!("the safe move {m} is not a legal move of {us}"));
        }
    }
    let any = rules.has_legal_move(pos);
    if proof.holds != (!in_check && !any) {
        return Err("the claim's verdict is wrong".into());
    }
    Ok(if proof.holds {
        format!("{us} is not in check and has no legal move")
    } else if in_check {
        format!("{us} is in check: the claim fails")
    } else {
        format!("{us} can move: the claim fails")
    })
}

fn verify_combo(pos: &Position, rules: &Rules, proof: &ClaimProof) -> Result<String, String> {
    use crate::rules::combo;
    let us = pos.side;
    let king_taken = |after: &Position, capture: &str| -> Result<(), String> {
        let (_, steps) = combo::parse_capture(after, rules, capture)?;
        let last = steps.last().ok_or("empty capture")?;
        if last.capture && last.to == after.king(after.side.flip()) {
            Ok(())
        } else {
            Err(format!("{capture} does not capture the king"))
        }
    };
    if proof.in_check {
        let c = proof
            .check_capture
            .as_deref()
            .ok_or("in check, but no capture given")?;
        king_taken(&pos.null_move(), c)?;
        if let Some(m) = &proof.safe_move {
            // Not needed for a claim in check, but a field that is printed is checked.
            let (after, _) = combo::parse(pos, rules, m)?;
            if combo::king_capture(&after, after.side, rules).is_some() {
                return Err(format!("the safe move {m} lets the king be captured"));
            }
        }
        return Ok(format!("{us} is in combo check: {c}"));
    }
    if combo::king_capture(pos, us.flip(), rules).is_some() {
        return Err(format!("{us} is in combo check, the proof says not"));
    }
    if !proof.holds {
        let m = proof.safe_move.as_deref().ok_or("no safe move given")?;
        let (after, _) = combo::parse(pos, rules, m)?;
        if combo::king_capture(&after, after.side, rules).is_some() {
            return Err(format!("the safe move {m} lets the king be captured"));
        }
        return Ok(format!("{m} keeps the king safe: the claim fails"));
    }
    let mut covered = std::collections::HashSet::new();
    for r in &proof.refutations {
        let (after, _) = combo::parse(pos, rules, &r.combo)?;
        king_taken(&after, &r.capture).map_err(|e| format!("{}: {e}", r.combo))?;
        covered.insert(after.hash);
    }
    let all = combo::moves_with_steps(pos, rules);
    if let Some((_, steps)) = all.iter().find(|(after, _)| !covered.contains(&after.hash)) {
        return Err(format!(
            "the combo {} is not refuted in the proof",
            combo::steps_text(pos, rules, steps, false)
        ));
    }
    Ok(format!(
        "{us} is not in combo check and all {} combos are refuted by a king capture",
        all.len()
    ))
}

/// `chainmate diagram`: SVG (default), PNG or LaTeX diagrams of every problem and twin.
/// SVG to standard output with several diagrams writes the documents one after another;
/// PNG needs -o for more than one diagram; LaTeX is always one document.
fn diagram_cmd(a: &crate::cli::DiagramArgs) -> i32 {
    use crate::output::diagram::{Diagram, numbered_path, png};
    use crate::output::{latex, svg};
    let ext = a
        .output
        .as_ref()
        .and_then(|o| o.extension())
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let (as_png, as_latex) = if a.svg {
        (false, false)
    } else if a.png || a.latex {
        (a.png, a.latex)
    } else {
        (ext.as_deref() == Some("png"), ext.as_deref() == Some("tex"))
    };
    let (problems, errors) = load_all(&a.files);
    for e in &errors {
        eprintln!("error: {e}");
    }
    if !errors.is_empty() {
        return EXIT_INPUT;
    }
    let mut diagrams: Vec<Diagram> = vec![];
    let mut environments: Vec<String> = vec![];
    for p in &problems {
        match Diagram::all(p) {
            Ok(ds) => {
                if as_latex {
                    let twins: Vec<String> = ds.iter().filter_map(|d| d.twin.clone()).collect();
                    environments.push(latex::environment(&Diagram::base(p), &twins));
                }
                diagrams.extend(ds);
            }
            Err(e) => {
                eprintln!("error: {}:{}: {e}", p.file, p.line);
                return EXIT_INPUT;
            }
        }
    }
    if diagrams.is_empty() {
        eprintln!("chainmate diagram: no problem found");
        return EXIT_INPUT;
    }
    let write = |path: Option<&Path>, bytes: &[u8]| -> bool {
        let result = match path {
            Some(p) => std::fs::write(p, bytes),
            None => std::io::stdout().write_all(bytes),
        };
        match result {
            Ok(()) => true,
            Err(e) => {
                let name = path.map_or("standard output".to_string(), |p| p.display().to_string());
                eprintln!("error: {name}: {e}");
                false
            }
        }
    };
    if as_latex {
        let doc = latex::document(&environments);
        return if write(a.output.as_deref(), doc.as_bytes()) {
            EXIT_OK
        } else {
            EXIT_INPUT
        };
    }
    let opts = svg::Options {
        coordinates: a.coordinates,
    };
    let n = diagrams.len();
    if as_png && n > 1 && a.output.is_none() {
        eprintln!(
            "chainmate diagram: {n} diagrams; PNG needs -o OUT.png (they are written to OUT-1.png, OUT-2.png, ...)"
        );
        return EXIT_INPUT;
    }
    for (i, d) in diagrams.iter().enumerate() {
        let text = svg::render(d, opts);
        let bytes = if as_png {
            match png(&text) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("error: {e}");
                    return EXIT_INPUT;
                }
            }
        } else {
            text.into_bytes()
        };
        let path = a.output.as_ref().map(|o| numbered_path(o, i, n));
        if !write(path.as_deref(), &bytes) {
            return EXIT_INPUT;
        }
        if let Some(p) = &path {
            eprintln!("wrote {}", p.display());
        }
    }
    EXIT_OK
}
