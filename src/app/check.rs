//! The `check` command: judge every problem against its stated solution, at collection scale.

use super::*;

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

pub(super) fn check_cmd(a: &CheckArgs) -> Result<(), Failure> {
    let search = bound_search(&a.search);
    let paths = paths_to_check(a)?;
    let decided = match &a.resume {
        Some(out) => decided_problems(out).map_err(Failure::Input)?,
        None => Default::default(),
    };
    init_pool(search.threads, false).map_err(Failure::Input)?;
    let stop = Arc::new(AtomicBool::new(false));
    on_ctrl_c(&stop);
    let (files, walk_errors) = walk_files(&paths);
    let bar = progress_bar(&search);
    let run = CheckRun {
        a,
        search: &search,
        decided: &decided,
        stop: &stop,
    };
    let tally = run.all(&files, walk_errors, &bar);
    bar.finish_and_clear();
    tally.finish(a.format)
}

/// The files named on the command line and in `--files-from`; at least one.
fn paths_to_check(a: &CheckArgs) -> Result<Vec<PathBuf>, Failure> {
    let mut paths = a.files.clone();
    if let Some(list) = &a.files_from {
        paths.extend(read_path_list(list).map_err(Failure::Input)?);
    }
    if paths.is_empty() {
        return Err(Failure::usage("check", "no problem files given"));
    }
    Ok(paths)
}

/// The spinner counting the problems checked, on stderr when it is a terminal.
fn progress_bar(search: &crate::cli::SearchArgs) -> ProgressBar {
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
    bar
}

/// A `check` run: its arguments, the problems an earlier run decided (`--resume`) and the
/// run's stop flag (Ctrl-C).
struct CheckRun<'a> {
    a: &'a CheckArgs,
    search: &'a crate::cli::SearchArgs,
    decided: &'a std::collections::HashSet<(String, usize)>,
    stop: &'a Arc<AtomicBool>,
}

/// A document for the workers: its number in this run's output order, and the problem.
type Work = (usize, Problem);

impl CheckRun<'_> {
    /// Checks every problem of the files and prints each result in input order.
    ///
    /// Problems run side by side, one per worker, each searching in the run's one thread
    /// pool (its root moves spread over the pool's threads); each worker's table has a
    /// share of the memory and grows only as far as its problem needs (tt.rs). Files are
    /// read one at a time as the workers need problems, so memory does not grow with the
    /// collection.
    fn all(&self, files: &[PathBuf], walk_errors: Vec<ProblemError>, bar: &ProgressBar) -> Tally {
        let workers = rayon::current_num_threads().max(1);
        let hash_each = (self.search.hash / workers).max(1);
        let watchdog = Watchdog::new(workers, self.stop.clone());
        let (work_tx, work_rx) = std::sync::mpsc::sync_channel::<Work>(workers * 2);
        let work_rx = std::sync::Mutex::new(work_rx);
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Outcome)>();
        let mut tally = Tally::default();
        std::thread::scope(|scope| {
            let reader = Reader {
                run: self,
                tx: tx.clone(),
                work_tx,
                run_index: 0,
                seq: 0,
            };
            scope.spawn(move || reader.read(walk_errors, files));
            for w in 0..workers {
                let tx = tx.clone();
                let (work_rx, watchdog) = (&work_rx, &watchdog);
                scope.spawn(move || self.worker(w, hash_each, work_rx, watchdog, tx));
            }
            drop(tx);
            tally.collect(rx, bar, self.a.format);
        });
        watchdog.close();
        tally
    }

    /// Worker `w`: checks the problems it takes until there are no more, each under its
    /// time limit; after a stop the rest is only listed.
    fn worker(
        &self,
        w: usize,
        hash_mb: usize,
        work: &std::sync::Mutex<std::sync::mpsc::Receiver<Work>>,
        watchdog: &Watchdog,
        tx: std::sync::mpsc::Sender<(usize, Outcome)>,
    ) {
        loop {
            let next = work.lock().ok().and_then(|rx| rx.recv().ok());
            let Some((seq, p)) = next else { break };
            let outcome = if self.stop.load(Ordering::Relaxed) {
                Outcome::NotReached(problem_place(&p))
            } else {
                let problem_stop = watchdog.start(w, time_limit(self.search, &p));
                let r = check_problem(&p, self.a, hash_mb, &problem_stop);
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
    }
}

/// A problem's time limit: `--time-limit` or its `MaxTime`, the smaller when both are set.
fn time_limit(search: &crate::cli::SearchArgs, p: &Problem) -> Option<f64> {
    match (search.time_limit, p.options.max_time) {
        (Some(t), Some(m)) => Some(t.min(f64::from(m))),
        (t, m) => t.or(m.map(f64::from)),
    }
}

/// The reader of a `check` run: documents in input order, numbered over the whole run
/// (the shard index), each sent to the workers or, when decided earlier (--resume) or in
/// another shard, left out; after a stop the rest is only listed.
struct Reader<'a> {
    run: &'a CheckRun<'a>,
    /// Outcomes decided here: unreadable documents, problems not reached.
    tx: std::sync::mpsc::Sender<(usize, Outcome)>,
    work_tx: std::sync::mpsc::SyncSender<Work>,
    /// Documents met so far, in every shard.
    run_index: usize,
    /// Documents of this run's output so far.
    seq: usize,
}

impl Reader<'_> {
    fn read(mut self, walk_errors: Vec<ProblemError>, files: &[PathBuf]) {
        for e in walk_errors {
            if !self.emit(Err(e)) {
                return;
            }
        }
        for f in files {
            for item in documents(f) {
                if !self.emit(item) {
                    return;
                }
            }
        }
    }

    /// Passes one document on; false when nobody takes them any more.
    fn emit(&mut self, item: Result<Problem, ProblemError>) -> bool {
        let mine = self
            .run
            .a
            .shard
            .is_none_or(|(k, n)| self.run_index % n == k - 1);
        self.run_index += 1;
        if !mine {
            return true;
        }
        let ok = match item {
            Err(e) => self.tx.send((self.seq, Outcome::Error(e))).is_ok(),
            Ok(p) if self.run.decided.contains(&(p.file.clone(), p.index)) => return true,
            Ok(p) if self.run.stop.load(Ordering::Relaxed) => self
                .tx
                .send((self.seq, Outcome::NotReached(problem_place(&p))))
                .is_ok(),
            Ok(p) => self.work_tx.send((self.seq, p)).is_ok(),
        };
        self.seq += 1;
        ok
    }
}

/// The problems of a file and the errors of those that cannot be read, in the order of
/// their lines.
fn documents(f: &Path) -> Vec<Result<Problem, ProblemError>> {
    let (ps, es) = problem::load_file_all(f);
    let mut items: Vec<(usize, Result<Problem, ProblemError>)> = ps
        .into_iter()
        .map(|p| (p.line, Ok(p)))
        .chain(es.into_iter().map(|e| (e.line.unwrap_or(0), Err(e))))
        .collect();
    items.sort_by_key(|x| x.0);
    items.into_iter().map(|x| x.1).collect()
}

/// What a `check` run has printed: the verdicts, the input errors, the problems not
/// reached.
#[derive(Default)]
struct Tally {
    summary: CheckSummary,
    input_errors: Vec<ProblemError>,
    not_reached: Vec<String>,
}

impl Tally {
    /// Prints the outcomes in input order, each as soon as it and all before it are in.
    fn collect(
        &mut self,
        rx: std::sync::mpsc::Receiver<(usize, Outcome)>,
        bar: &ProgressBar,
        format: Format,
    ) {
        let mut pending = std::collections::BTreeMap::new();
        let mut next = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&next) {
                match r {
                    Outcome::Report(r) => {
                        bar.inc(1);
                        bar.suspend(|| self.summary.print(&r, format));
                    }
                    Outcome::Error(e) => {
                        bar.suspend(|| eprintln!("error: {e}"));
                        self.input_errors.push(e);
                    }
                    Outcome::NotReached(place) => self.not_reached.push(place),
                }
                next += 1;
            }
        }
    }

    /// The summary (text), the problems not reached, and how the run ended: bad input
    /// first, then an unsound problem, then an undecided one.
    fn finish(self, format: Format) -> Result<(), Failure> {
        if format == Format::Text {
            self.summary
                .print_totals(&self.input_errors, &self.not_reached);
        }
        if let Some(first) = self.not_reached.first() {
            eprintln!(
                "stopped: {} problem(s) not reached, from {first} on",
                self.not_reached.len(),
            );
        }
        if !self.input_errors.is_empty() {
            Err(Failure::InputReported)
        } else if self.summary.unsound > 0 {
            Err(Failure::Failed)
        } else if self.summary.unknown > 0 || !self.not_reached.is_empty() {
            Err(Failure::Unknown)
        } else {
            Ok(())
        }
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
    let text = read_text_arg(list)?;
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

/// One problem checked: every twin judged against its own part of the stated solution,
/// all under one stop flag (the problem's time limit, or the run's Ctrl-C).
fn check_problem(
    p: &Problem,
    a: &CheckArgs,
    hash_mb: usize,
    stop: &Arc<AtomicBool>,
) -> Result<CheckReport, ProblemError> {
    let started = Instant::now();
    let mut options = p.options.clone();
    if a.duals || a.short_variations {
        options.variations = true;
    }
    let twins = p.solving_instances(&options)?;
    let mut verdicts = vec![];
    let (mut duals, mut short) = (vec![], vec![]);
    for t in &twins {
        let settings = Settings {
            options: options.search_options(),
            threads: 0,
            hash_mb,
            stop: stop.clone(),
            progress: None,
            exhaustive: a.search.exhaustive,
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
                    let label = match (t.twin.is_empty(), t.exchanged) {
                        (true, false) => String::new(),
                        (true, true) => "duplex: ".into(),
                        (false, false) => format!("{}) ", t.twin),
                        (false, true) => format!("{}) duplex: ", t.twin),
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
