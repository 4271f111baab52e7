//! The `solve` command: solve every problem and twin and print the solutions as Popeye does.

use super::*;

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

pub(super) fn solve_cmd(a: &SolveArgs) -> Result<(), Failure> {
    let search = bound_search(&a.search);
    let (problems, mut input_errors) = problems_to_solve(a)?;
    init_pool(search.threads, true).map_err(Failure::Input)?;
    let stop = Arc::new(AtomicBool::new(false));
    on_ctrl_c(&stop);
    if let Some(secs) = search.time_limit {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(secs.max(0.0)));
            stop.store(true, Ordering::Relaxed);
        });
    }
    let mut report = Report {
        schema: SCHEMA,
        command: "solve",
        problems: vec![],
    };
    // Popeye's `MaxTime N` stops one problem; the run's stop (time limit, Ctrl-C) too.
    let watchdog = Watchdog::new(1, stop.clone());
    let mut intelligent_noted = false;
    for p in &problems {
        let options = merged_options(p, a);
        let twins = match p.solving_instances(&options) {
            Ok(t) => t,
            Err(e) => {
                input_errors.push(e);
                continue;
            }
        };
        if options.intelligent && !intelligent_noted {
            intelligent_noted = true;
            eprintln!(
                "note: option Intelligent accepted: chainmate's search is exhaustive and finds \
                 every solution anyway"
            );
        }
        let problem_stop = watchdog.start(0, options.max_time.map(f64::from));
        let solving = Solving {
            a,
            search: &search,
            options,
            stop: problem_stop,
        };
        let results = solving.problem(p, &twins, &mut input_errors);
        watchdog.finish(0);
        report.problems.push(ProblemReport {
            meta: problem_meta(p),
            twins: results,
        });
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    watchdog.close();
    print_document(a.format, &report);
    finish(&report, &problems, &input_errors)
}

/// The problems of the files and of `--fen`, and the errors of those that cannot be read.
fn problems_to_solve(a: &SolveArgs) -> Result<(Vec<Problem>, Vec<ProblemError>), Failure> {
    let (mut problems, mut errors) = load_all(&a.files);
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
            Err(e) => errors.push(e),
        }
    } else if a.files.is_empty() {
        return Err(Failure::usage(
            "solve",
            "give problem files or --fen FEN --stipulation S",
        ));
    }
    Ok((problems, errors))
}

/// One problem being solved: the command's arguments, the problem's options (its own,
/// with the command line's) and its stop flag.
struct Solving<'a> {
    a: &'a SolveArgs,
    search: &'a crate::cli::SearchArgs,
    options: problem::Options,
    stop: Arc<AtomicBool>,
}

impl Solving<'_> {
    /// Solves every twin of the problem; as text, prints each twin's solution as soon as it
    /// is found and the closing line, and writes them to the problem's `Protocol` file.
    fn problem(
        &self,
        p: &Problem,
        twins: &[problem::TwinInstance],
        errors: &mut Vec<ProblemError>,
    ) -> Vec<TwinResult> {
        let text = self.a.format == Format::Text;
        let mut protocol = String::new();
        let mut results = vec![];
        for t in twins {
            let r = self.twin(p, t);
            if text {
                let out = self.twin_output(p, t, &r, results.is_empty());
                protocol.push_str(&out);
                let mut lock = std::io::stdout().lock();
                let _ = lock.write_all(out.as_bytes());
                let _ = lock.flush();
            }
            results.push(r);
        }
        if text {
            let closing = format!("{}\n\n\n", closing_line(&results));
            print!("{closing}");
            protocol.push_str(&closing);
        }
        if let Some(file) = &p.protocol {
            write_protocol(file, &protocol, errors);
        }
        results
    }

    /// Solves one twin, with a progress bar on stderr once it takes more than a second.
    fn twin(&self, p: &Problem, t: &problem::TwinInstance) -> TwinResult {
        let show_bar = !self.search.quiet && std::io::stderr().is_terminal();
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
            options: self.options.search_options(),
            threads: 0,
            hash_mb: self.search.hash,
            stop: self.stop.clone(),
            progress: Some(progress),
            exhaustive: self.search.exhaustive,
        };
        let r = solve_twin(&t.search_input(), &rules, &settings);
        bar.finish_and_clear();
        r
    }

    /// The text of one twin's solution, after the problem's header when it is the first.
    fn twin_output(
        &self,
        p: &Problem,
        t: &problem::TwinInstance,
        r: &TwinResult,
        first: bool,
    ) -> String {
        let mut out = String::new();
        if first {
            out.push_str(&self.opening(p, t));
        }
        for (label, text) in &p.twin_remarks {
            if *label == t.label {
                out.push_str(text);
                out.push('\n');
            }
        }
        // A duplex's second half: its twin line was written before the first half, and
        // its solution follows the first's without another blank line (as Popeye).
        let second = t.second_half(&self.options);
        if !second {
            out.push_str(&twin_header(t));
        }
        for line in &r.move_numbers {
            out.push_str(line);
            out.push('\n');
        }
        let style = if self.a.short {
            Style::Short
        } else {
            Style::Long
        };
        let text = twin_text(r, style);
        match text.strip_prefix('\n') {
            Some(rest) if second => out.push_str(rest),
            _ => out.push_str(&text),
        }
        out
    }

    /// What comes before the first twin's solution: the problem's remark and header.
    fn opening(&self, p: &Problem, t: &problem::TwinInstance) -> String {
        let mut out = String::new();
        if let Some(rem) = &p.remark {
            out.push_str(rem);
            out.push('\n');
        }
        // The diagram (the zero position itself when there is one), then, as Popeye: a
        // blank line before the first twin's line, and Popeye's `zeroposition` line before
        // the twins of a zero position.
        let zero = p.has_zero_position();
        let (pos, stip, cond) = if zero {
            (&p.position, p.stipulation, p.condition)
        } else {
            (&t.position, t.stipulation, t.condition)
        };
        let board = if self.options.no_board {
            Board::None
        } else if self.a.unicode {
            Board::Unicode
        } else {
            Board::Popeye
        };
        let threat = self.options.threat;
        out.push_str(&problem_header(
            p,
            pos,
            &stip.to_string(),
            cond,
            threat,
            board,
        ));
        out.push_str(&duplex_line(self.options.duplex));
        if zero {
            out.push_str("\nzeroposition\n\n");
        }
        if !t.label.is_empty() {
            out.push('\n');
        }
        out
    }
}

/// Popeye's closing line of a problem: interrupted (MaxTime, --time-limit, Ctrl-C),
/// partial (MaxSolutions) or finished.
fn closing_line(results: &[TwinResult]) -> &'static str {
    if results.iter().any(|r| !r.complete) {
        "solving interrupted."
    } else if results.iter().any(|r| r.partial) {
        "Partial solution"
    } else {
        "solution finished."
    }
}

/// The end of the run: the input errors and the problems not reached on stderr, and how
/// the run ended.
fn finish(
    report: &Report,
    problems: &[Problem],
    input_errors: &[ProblemError],
) -> Result<(), Failure> {
    for e in input_errors {
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
        Err(Failure::InputReported)
    } else if stopped {
        Err(Failure::Unknown)
    } else {
        Ok(())
    }
}
