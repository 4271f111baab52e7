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

pub(super) fn solve_cmd(a: &SolveArgs) -> i32 {
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
                options: options.search_options(),
                threads: 0,
                hash_mb: search.hash,
                stop: problem_stop.clone(),
                progress: Some(progress),
            };
            let r = solve_twin(&t.search_input(), &rules, &settings);
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
    print_document(a.format, &report);
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
