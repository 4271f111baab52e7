//! The `diagram` command: publication diagrams (SVG, PNG, LaTeX).

use super::*;

/// `chainmate diagram`: SVG (default), PNG or LaTeX diagrams of every problem and twin.
/// SVG to standard output with several diagrams writes the documents one after another;
/// PNG needs -o for more than one diagram; LaTeX is always one document.
pub(super) fn diagram_cmd(a: &crate::cli::DiagramArgs) -> i32 {
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
