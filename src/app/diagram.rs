//! The `diagram` command: publication diagrams (SVG, PNG, LaTeX).

use super::*;
use crate::output::diagram::{Diagram, numbered_path, png};
use crate::output::{latex, svg};

/// `chainmate diagram`: SVG (default), PNG or LaTeX diagrams of every problem and twin.
/// SVG to standard output with several diagrams writes the documents one after another;
/// PNG needs -o for more than one diagram; LaTeX is always one document.
pub(super) fn diagram_cmd(a: &crate::cli::DiagramArgs) -> Result<(), Failure> {
    let kind = output_kind(a);
    let (problems, errors) = load_all(&a.files);
    for e in &errors {
        eprintln!("error: {e}");
    }
    if !errors.is_empty() {
        return Err(Failure::InputReported);
    }
    let mut diagrams: Vec<Diagram> = vec![];
    let mut environments: Vec<String> = vec![];
    for p in &problems {
        let ds =
            Diagram::all(p).map_err(|e| Failure::Input(format!("{}:{}: {e}", p.file, p.line)))?;
        if kind == Output::Latex {
            let twins: Vec<String> = ds.iter().filter_map(|d| d.twin.clone()).collect();
            environments.push(latex::environment(&Diagram::base(p), &twins));
        }
        diagrams.extend(ds);
    }
    if diagrams.is_empty() {
        return Err(Failure::usage("diagram", "no problem found"));
    }
    match kind {
        Output::Latex => write(
            a.output.as_deref(),
            latex::document(&environments).as_bytes(),
        ),
        Output::Svg | Output::Png => write_images(a, &diagrams, kind == Output::Png),
    }
}

/// What the diagrams are written as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Svg,
    Png,
    Latex,
}

/// `--svg`, `--png` or `--latex` (one at most); without one, the extension of `-o` (`.png`, `.tex`), and
/// SVG otherwise.
fn output_kind(a: &crate::cli::DiagramArgs) -> Output {
    let ext = a
        .output
        .as_ref()
        .and_then(|o| o.extension())
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if a.svg {
        Output::Svg
    } else if a.latex {
        Output::Latex
    } else if a.png {
        Output::Png
    } else {
        match ext.as_deref() {
            Some("png") => Output::Png,
            Some("tex") => Output::Latex,
            _ => Output::Svg,
        }
    }
}

/// Each diagram as SVG or PNG: to standard output, or to `-o` (numbered when there are
/// several).
fn write_images(
    a: &crate::cli::DiagramArgs,
    diagrams: &[Diagram],
    as_png: bool,
) -> Result<(), Failure> {
    let opts = svg::Options {
        coordinates: a.coordinates,
    };
    let n = diagrams.len();
    if as_png && n > 1 && a.output.is_none() {
        return Err(Failure::usage(
            "diagram",
            format!(
                "{n} diagrams; PNG needs -o OUT.png (they are written to OUT-1.png, OUT-2.png, ...)"
            ),
        ));
    }
    for (i, d) in diagrams.iter().enumerate() {
        let text = svg::render(d, opts);
        let bytes = if as_png {
            png(&text).map_err(|e| Failure::Input(e.to_string()))?
        } else {
            text.into_bytes()
        };
        let path = a.output.as_ref().map(|o| numbered_path(o, i, n));
        write(path.as_deref(), &bytes)?;
        if let Some(p) = &path {
            eprintln!("wrote {}", p.display());
        }
    }
    Ok(())
}

/// Writes a file, or standard output when there is no path.
fn write(path: Option<&Path>, bytes: &[u8]) -> Result<(), Failure> {
    let result = match path {
        Some(p) => std::fs::write(p, bytes),
        None => std::io::stdout().write_all(bytes),
    };
    result.map_err(|e| {
        let name = path.map_or("standard output".to_string(), |p| p.display().to_string());
        Failure::Input(format!("{name}: {e}"))
    })
}
