//! The `show` command: validate problem files and print (or write as data) each problem.

use super::*;

pub(super) fn show_cmd(a: &ShowArgs) -> Result<(), Failure> {
    if a.files.is_empty() {
        return Err(Failure::usage("show", "no problem files given"));
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
    print_document(a.format, &report);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Failure::InputReported)
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
