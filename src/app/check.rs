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

pub(super) fn check_cmd(a: &CheckArgs) -> i32 {
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
            options: options.search_options(),
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
