//! The shape of the source tree (issue "One seam per condition"): no function in `src/`
//! is longer than 80 lines, and no code outside `src/rules/` names a particular condition
//! (the registry's names are read through `Condition::parse` and the rules' own methods).

use std::path::{Path, PathBuf};

const MAX_FN_LINES: usize = 80;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn src_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut v);
    v
}

/// Is this line the start of a function with a body (`fn name` at the start, after the
/// visibility and qualifiers)?
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for q in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "unsafe ",
        "async ",
        "extern \"C\" ",
    ] {
        if let Some(r) = rest.strip_prefix(q) {
            rest = r;
        }
    }
    let rest = rest.strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&rest[..end])
}

/// (file, first line, name, length) of every function with a body. A function ends at the
/// first later line that is its indentation followed by `}`.
fn functions(path: &Path, text: &str) -> Vec<(String, usize, String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(name) = fn_name(l) else { continue };
        let indent = &l[..l.len() - l.trim_start().len()];
        // A declaration without a body (trait method) ends with `;` before any `{`.
        let mut j = i;
        while j < lines.len() && !lines[j].contains('{') && !lines[j].trim_end().ends_with(';') {
            j += 1;
        }
        if j == lines.len() || !lines[j].contains('{') {
            continue;
        }
        if lines[j].trim_end().ends_with('}')
            && lines[j].matches('{').count() == lines[j].matches('}').count()
        {
            out.push((
                path.display().to_string(),
                i + 1,
                name.to_string(),
                j - i + 1,
            ));
            continue;
        }
        let close = format!("{indent}}}");
        let end = (j + 1..lines.len())
            .find(|&k| lines[k].trim_end() == close)
            .unwrap_or_else(|| panic!("{}:{}: end of fn {name} not found", path.display(), i + 1));
        out.push((
            path.display().to_string(),
            i + 1,
            name.to_string(),
            end - i + 1,
        ));
    }
    out
}

#[test]
fn no_function_is_longer_than_80_lines() {
    let mut long = Vec::new();
    for f in src_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        for (file, line, name, len) in functions(&f, &text) {
            if len > MAX_FN_LINES {
                long.push(format!("{file}:{line}: fn {name} has {len} lines"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_measure_sees_long_functions() {
    let body: String = (0..90).map(|i| format!("    let x{i} = {i};\n")).collect();
    let text = format!("fn short() {{ 1 }}\n\npub fn long() {{\n{body}}}\n");
    let fns = functions(Path::new("x.rs"), &text);
    assert_eq!(fns.len(), 2);
    assert_eq!(fns[0].3, 1);
    assert_eq!(fns[1].3, 92);
}

#[test]
fn no_condition_is_named_outside_the_rules() {
    let variants = [
        "Teleport",
        "Kazan",
        "PocketMutation",
        "Tatarstan",
        "TatarstanNoChains",
        "Combo",
    ];
    let rules_dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join("rules");
    let mut found = Vec::new();
    for f in src_files() {
        if f.starts_with(&rules_dir) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        // Unit tests may name the condition they test.
        let code = text.split("#[cfg(test)]").next().unwrap();
        for (i, l) in code.lines().enumerate() {
            for v in variants {
                for pat in [format!("Condition::{v}"), format!("MoveKind::{v}")] {
                    let hit = l.match_indices(&pat).any(|(at, _)| {
                        !l[at + pat.len()..].starts_with(|c: char| c.is_alphanumeric())
                    });
                    if hit {
                        found.push(format!("{}:{}: {}", f.display(), i + 1, l.trim()));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "conditions named outside src/rules/:\n{}",
        found.join("\n")
    );
}
