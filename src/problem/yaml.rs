//! YAML problems in the YACPDB / Olive schema (`.yaml`, `.yml`, `.olv`): one problem per
//! document, `---` between documents. This is the only file that names the YAML crate.
//!
//! Fields read: `algebraic` (`white`, `black`; `neutral` is refused), `stipulation`,
//! `options` (Popeye options and conditions), `twins`, `solution`, `authors`, `source`
//! (text, or YACPDB's map), `award` (text or YACPDB's map; Olive's `distinction`),
//! `keywords`, `comments`, `title`; Olive's `source-id` and `date` join the source. Our
//! extensions: `condition`, `castling`, `enpassant`, `pockets`, `fen`. Any other field is
//! ignored.
//!
//! The stream is cut into documents at `---` / `...` lines before parsing, so that each
//! document is parsed on its own: line numbers are exact, and a syntax error stops the
//! reading with that error (serde_yaml's streaming deserializer would repeat it forever).

use super::fen::read_fen;
use super::inp::{
    ErrorSite, Lexer, PieceTok, Tok, apply_entry, classify_piece_token, parse_twin_commands,
};
use super::inp::{resolve_conditions, square_list};
use super::{
    Draft, EpSpec, FenDiagram, PiecePlacement, Problem, ProblemError, Twin, twin_label_order,
};
use super::{parse_piece_code, popeye_names};
use crate::core::{Color, Kind};
use crate::position::{BLACK_KINGSIDE, BLACK_QUEENSIDE, WHITE_KINGSIDE, WHITE_QUEENSIDE};
use crate::search::Stipulation;
use serde_yaml::{Mapping, Value};

/// One document of the stream.
struct Doc<'a> {
    text: &'a str,
    /// 1-based line of the document's first line in the file.
    first_line: usize,
    /// 1-based line of its first content line (not blank, not a comment, not a marker).
    content_line: Option<usize>,
}

fn is_marker(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '\r']))
}

/// Cuts a YAML stream into documents at `---` (document start) and `...` (document end)
/// lines, keeping directives (`%YAML`) with the document they introduce.
fn split_documents(text: &str) -> Vec<Doc<'_>> {
    let mut docs = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1usize;
    let mut has_marker = false;
    let mut content: Option<usize> = None;
    let mut offset = 0usize;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let n = i + 1;
        let body = line.trim_end_matches(['\n', '\r']);
        let new_doc_here = (is_marker(body, "---") && (has_marker || content.is_some()))
            || (body.starts_with('%') && (has_marker || content.is_some()));
        if new_doc_here {
            docs.push(Doc {
                text: &text[start..offset],
                first_line: start_line,
                content_line: content,
            });
            start = offset;
            start_line = n;
            has_marker = false;
            content = None;
        }
        if is_marker(body, "---") {
            has_marker = true;
            let rest = body[3..].trim();
            if !rest.is_empty() && !rest.starts_with('#') && content.is_none() {
                content = Some(n);
            }
        } else if is_marker(body, "...") {
            offset += line.len();
            docs.push(Doc {
                text: &text[start..offset],
                first_line: start_line,
                content_line: content,
            });
            start = offset;
            start_line = n + 1;
            has_marker = false;
            content = None;
            continue;
        } else if content.is_none()
            && !body.trim().is_empty()
            && !body.trim_start().starts_with('#')
            && !body.starts_with('%')
        {
            content = Some(n);
        }
        offset += line.len();
    }
    docs.push(Doc {
        text: &text[start..],
        first_line: start_line,
        content_line: content,
    });
    docs
}

/// Reads every problem of a YAML stream. `file` names it in errors; messages also say
/// which problem (document) they are about. The first bad document's error is returned;
/// [`parse_yaml_all`] reads the other documents too.
pub fn parse_yaml(file: &str, text: &str) -> Result<Vec<Problem>, ProblemError> {
    let (problems, mut errors) = parse_yaml_all(file, text);
    if errors.is_empty() {
        Ok(problems)
    } else {
        Err(errors.swap_remove(0))
    }
}

/// Reads every document of a YAML stream: the problems of the good ones, and one error
/// (naming the file, line and "problem N") for each document that cannot be read. A
/// problem's `index` counts the bad documents before it too.
pub fn parse_yaml_all(file: &str, text: &str) -> (Vec<Problem>, Vec<ProblemError>) {
    let mut problems = Vec::new();
    let mut errors = Vec::new();
    for doc in split_documents(text) {
        let Some(content_line) = doc.content_line else {
            continue;
        };
        let index = problems.len() + errors.len();
        let site = ErrorSite {
            file,
            prefix: format!("problem {}: ", index + 1),
        };
        match read_document(&site, &doc, content_line, index) {
            Ok(Some(p)) => problems.push(p),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    if problems.is_empty() && errors.is_empty() {
        errors.push(ProblemError {
            file: file.to_string(),
            line: None,
            column: None,
            message:
                "no problem in the file (expected YAML documents with algebraic: and stipulation:)"
                    .into(),
        });
    }
    (problems, errors)
}

/// One document's problem (`None` for an empty document).
fn read_document(
    site: &ErrorSite,
    doc: &Doc,
    content_line: usize,
    index: usize,
) -> Result<Option<Problem>, ProblemError> {
    if let Some((line, col)) = too_deep_flow(doc.text) {
        return Err(site.err(
            line + doc.first_line - 1,
            col,
            format!(
                "YAML nested too deeply: more than {MAX_FLOW_DEPTH} '[' or '{{' open at once \
                 (a problem's fields nest a few levels only)"
            ),
        ));
    }
    let value: Value = serde_yaml::from_str(doc.text).map_err(|e| syntax_error(site, doc, &e))?;
    let map = match value {
        Value::Null => return Ok(None),
        Value::Mapping(m) => m,
        _ => {
            return Err(site.err(
                content_line,
                1,
                "expected the fields of a problem (algebraic:, stipulation:, ...), not a single value or a list",
            ));
        }
    };
    let reader = Reader {
        site,
        doc,
        map: &map,
    };
    reader.check_keys()?;
    reader.problem(content_line, index).map(Some)
}

/// The top-level keys of a problem document: the fields of YACPDB's entry schema
/// (olive-gui `yacpdb/schemas/yacpdb-entry.schema.json`), the older (v1.0) fields Olive
/// still reads and writes, and chainmate's extensions.
const TOP_KEYS: &[&str] = &[
    // YACPDB entry schema 1.1
    "authors",
    "source",
    "award",
    "reprints",
    "stipulation",
    "algebraic",
    "glyphs",
    "twins",
    "intended-solutions",
    "solution",
    "options",
    "keywords",
    "comments",
    "foreignids",
    // YACPDB 1.0 / Olive
    "id",
    "date",
    "source-id",
    "distinction",
    "ash",
    "legend",
    // chainmate's extensions
    "title",
    "remark",
    "fen",
    "condition",
    "castling",
    "enpassant",
    "pockets",
];
/// A source (`source:`, each of `reprints:`).
const SOURCE_KEYS: &[&str] = &[
    "name",
    "volume",
    "issue",
    "round",
    "problemid",
    "pagenumber",
    "date",
    "variant",
    "comments",
];
const DATE_KEYS: &[&str] = &["year", "month", "day"];
const AWARD_KEYS: &[&str] = &["distinction", "tourney", "judges"];
const TOURNEY_KEYS: &[&str] = &["name", "date"];
const ALGEBRAIC_KEYS: &[&str] = &["white", "black", "neutral"];
const FOREIGNID_KEYS: &[&str] = &["domain", "problemid"];

/// Levenshtein distance (by characters, case-insensitive).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The known key nearest to `key`, when it is near enough to be a likely typo.
fn nearest_key(key: &str, known: &[&'static str]) -> Option<&'static str> {
    let k = key.trim().to_lowercase();
    let (best, d) = known
        .iter()
        .map(|&c| (c, edit_distance(&k, c)))
        .min_by_key(|&(_, d)| d)?;
    let close = d <= 2.max(k.chars().count() / 3)
        || (k.chars().count() >= 3 && (best.starts_with(&k) || k.starts_with(best)));
    if close {
        return Some(best);
    }
    // A prefix (`stip`, `algeb`) of a longer key.
    known
        .iter()
        .copied()
        .find(|c| k.chars().count() >= 3 && c.starts_with(&k))
}

/// `unknown key 'option' (did you mean 'options'?)`, or with the known keys listed.
fn unknown_key_message(key: &str, within: Option<&str>, known: &[&'static str]) -> String {
    let place = within.map(|w| format!(" in {w}")).unwrap_or_default();
    match nearest_key(key, known) {
        Some(s) => format!("unknown key '{key}'{place} (did you mean '{s}'?)"),
        None => format!(
            "unknown key '{key}'{place} (known keys: {})",
            known.join(", ")
        ),
    }
}

/// Deepest flow nesting (`[` / `{`) a document may have. serde_yaml refuses more than
/// 128 levels, but only after a scan that takes time quadratic in the nesting (a minute
/// for 100,000 `[`), so deeper nesting is refused before serde_yaml sees it. Block
/// nesting (indentation, `- - -`) reaches serde_yaml's limit quickly and is left to it.
const MAX_FLOW_DEPTH: usize = 64;

/// Where (1-based line and column in `text`) the flow nesting first goes past
/// [`MAX_FLOW_DEPTH`], if it does. A cheap over-estimate of YAML's own nesting: every `[`
/// and `{` counts, except inside quoted scalars, comments and block scalars (`|`, `>`).
fn too_deep_flow(text: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    // Inside a quoted scalar: its quote character.
    let mut quote: Option<char> = None;
    // Inside a block scalar: the indentation of the line that opened it.
    let mut block: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(parent) = block {
            if line.trim().is_empty() || indent > parent {
                continue;
            }
            block = None;
        }
        let mut prev: Option<char> = None;
        // The last character before this one on the line that is not white space.
        let mut last: Option<char> = None;
        let mut chars = line.char_indices().peekable();
        while let Some((j, c)) = chars.next() {
            // Where a node may start (a quoted or block scalar): at the start of the line,
            // after `[`, `{` or `,`, or after an indicator `:`, `-`, `?` and a blank. A
            // quote elsewhere belongs to a plain scalar (`it's`, `a 'b`).
            let node_start = match last {
                None => true,
                Some('[' | '{' | ',') => true,
                Some(':' | '-' | '?') => prev.is_some_and(char::is_whitespace),
                Some(_) => false,
            };
            match quote {
                Some('\'') if c == '\'' => {
                    if chars.peek().is_some_and(|&(_, n)| n == '\'') {
                        chars.next();
                    } else {
                        quote = None;
                    }
                }
                Some('"') if c == '\\' => {
                    chars.next();
                }
                Some('"') if c == '"' => quote = None,
                Some(_) => {}
                None => match c {
                    '#' if prev.is_none_or(char::is_whitespace) => break,
                    '\'' | '"' if node_start => quote = Some(c),
                    '[' | '{' => {
                        depth += 1;
                        if depth > MAX_FLOW_DEPTH {
                            return Some((i + 1, line[..j].chars().count() + 1));
                        }
                    }
                    ']' | '}' => depth = depth.saturating_sub(1),
                    '|' | '>' if node_start && depth == 0 => {
                        // A block scalar when only modifiers and a comment follow.
                        let rest = line[j + 1..].trim_start_matches(|c: char| {
                            c.is_ascii_digit() || c == '+' || c == '-'
                        });
                        let rest = rest.trim();
                        if rest.is_empty() || rest.starts_with('#') {
                            block = Some(indent);
                            break;
                        }
                    }
                    _ => {}
                },
            }
            if !c.is_whitespace() {
                last = Some(c);
            }
            prev = Some(c);
        }
    }
    None
}

/// A serde_yaml syntax error, with its line made relative to the file.
fn syntax_error(site: &ErrorSite, doc: &Doc, e: &serde_yaml::Error) -> ProblemError {
    let shift = doc.first_line - 1;
    let mut msg = e.to_string();
    // serde_yaml says "... at line L column C"; the location goes into the error itself,
    // other positions in the message ("while parsing ... at line L") are shifted.
    if let Some(loc) = e.location() {
        let own = format!(" at line {} column {}", loc.line(), loc.column());
        if let Some(i) = msg.find(&own) {
            msg.replace_range(i..i + own.len(), "");
        }
    }
    let mut out = String::new();
    let mut rest = msg.as_str();
    while let Some(i) = rest.find("line ") {
        out.push_str(&rest[..i + 5]);
        rest = &rest[i + 5..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        match rest[..digits].parse::<usize>() {
            Ok(n) => out.push_str(&(n + shift).to_string()),
            Err(_) => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    match e.location() {
        Some(loc) => site.err(
            loc.line() + shift,
            loc.column(),
            format!("YAML syntax error: {out}"),
        ),
        None => site.err(
            doc.content_line.unwrap_or(doc.first_line),
            0,
            format!("YAML error: {out}"),
        ),
    }
}

/// A scalar as text (numbers and booleans too).
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Tagged(t) => scalar(&t.value),
        _ => None,
    }
}

/// A list of texts: a sequence of scalars, or one scalar.
fn texts(v: &Value) -> Vec<String> {
    match v {
        Value::Sequence(s) => s.iter().filter_map(scalar).collect(),
        Value::Null => Vec::new(),
        other => scalar(other).into_iter().collect(),
    }
}

fn get<'m>(map: &'m Mapping, key: &str) -> Option<&'m Value> {
    map.iter()
        .find(|(k, _)| k.as_str().is_some_and(|k| k.eq_ignore_ascii_case(key)))
        .map(|(_, v)| v)
}

fn render_date(v: &Value) -> Option<String> {
    match v {
        Value::Mapping(m) => {
            let mut s = get(m, "year").and_then(scalar)?;
            for k in ["month", "day"] {
                match get(m, k).and_then(scalar) {
                    Some(x) => s.push_str(&format!("-{x:0>2}")),
                    None => break,
                }
            }
            Some(s)
        }
        other => scalar(other),
    }
}

/// YACPDB's source map as one line: `name vol. V issue/problemid round R p. N, date`.
fn render_source(v: &Value) -> Option<String> {
    match v {
        Value::Mapping(m) => {
            let field = |k: &str| get(m, k).and_then(scalar).filter(|s| !s.trim().is_empty());
            let mut parts: Vec<String> = Vec::new();
            parts.extend(field("name"));
            if let Some(vol) = field("volume") {
                parts.push(format!("vol. {vol}"));
            }
            let ids: Vec<String> = ["issue", "problemid"]
                .iter()
                .filter_map(|k| field(k))
                .collect();
            if !ids.is_empty() {
                parts.push(ids.join("/"));
            }
            if let Some(r) = field("round") {
                parts.push(format!("round {r}"));
            }
            if let Some(p) = field("pagenumber") {
                parts.push(format!("p. {p}"));
            }
            let mut s = parts.join(" ");
            if let Some(d) = get(m, "date").and_then(render_date) {
                if !s.is_empty() {
                    s.push_str(", ");
                }
                s.push_str(&d);
            }
            (!s.is_empty()).then_some(s)
        }
        Value::Sequence(items) => {
            let all: Vec<String> = items.iter().filter_map(render_source).collect();
            (!all.is_empty()).then(|| all.join("; "))
        }
        other => scalar(other),
    }
}

/// YACPDB's award map as one line: `distinction, tourney date`.
fn render_award(v: &Value, source_name: Option<String>) -> Option<String> {
    match v {
        Value::Mapping(m) => {
            let mut s = get(m, "distinction").and_then(scalar).unwrap_or_default();
            let tourney = match get(m, "tourney") {
                Some(Value::Mapping(t)) => {
                    let mut name = get(t, "name").and_then(scalar).unwrap_or_default();
                    if let Some(d) = get(t, "date").and_then(render_date) {
                        name = format!("{name} {d}");
                    }
                    Some(name)
                }
                Some(t) => match scalar(t) {
                    Some(x) if x.eq_ignore_ascii_case("ditto") => source_name,
                    other => other,
                },
                None => None,
            };
            if let Some(t) = tourney.filter(|t| !t.trim().is_empty()) {
                if !s.is_empty() {
                    s.push_str(", ");
                }
                s.push_str(t.trim());
            }
            (!s.is_empty()).then_some(s)
        }
        other => scalar(other),
    }
}

struct Reader<'r> {
    site: &'r ErrorSite<'r>,
    doc: &'r Doc<'r>,
    map: &'r Mapping,
}

impl Reader<'_> {
    /// Refuses keys outside the YACPDB schema (and chainmate's extensions), at the top
    /// level and in the nested maps (`source`, `award`, `algebraic`, dates, ...).
    fn check_keys(&self) -> Result<(), ProblemError> {
        for (k, v) in self.map {
            let key = scalar(k).unwrap_or_default();
            let lower = key.to_ascii_lowercase();
            if !TOP_KEYS.contains(&lower.as_str()) {
                let at = self.key_loc(&key).unwrap_or_else(|| self.loc(&key, &key));
                return Err(self.err_at(at, unknown_key_message(&key, None, TOP_KEYS)));
            }
            match lower.as_str() {
                "source" => self.check_sources(&key, v, false)?,
                "reprints" => self.check_sources(&key, v, true)?,
                "award" => {
                    if let Value::Mapping(m) = v {
                        self.check_map(&key, "award", m, AWARD_KEYS)?;
                        if let Some(Value::Mapping(t)) = get(m, "tourney") {
                            self.check_map(&key, "award tourney", t, TOURNEY_KEYS)?;
                            if let Some(Value::Mapping(d)) = get(t, "date") {
                                self.check_map(&key, "award tourney date", d, DATE_KEYS)?;
                            }
                        }
                    }
                }
                "date" => {
                    if let Value::Mapping(m) = v {
                        self.check_map(&key, "date", m, DATE_KEYS)?;
                    }
                }
                "algebraic" => {
                    if let Value::Mapping(m) = v {
                        self.check_map(&key, "algebraic", m, ALGEBRAIC_KEYS)?;
                    }
                }
                "foreignids" => {
                    if let Value::Sequence(items) = v {
                        for item in items {
                            if let Value::Mapping(m) = item {
                                self.check_map(&key, "foreignids", m, FOREIGNID_KEYS)?;
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A source map, a list of them (`reprints`, or several sources), or a text.
    fn check_sources(&self, top: &str, v: &Value, list: bool) -> Result<(), ProblemError> {
        let what = if list { "reprints" } else { "source" };
        let maps: Vec<&Mapping> = match v {
            Value::Mapping(m) => vec![m],
            Value::Sequence(items) => items
                .iter()
                .filter_map(|i| match i {
                    Value::Mapping(m) => Some(m),
                    _ => None,
                })
                .collect(),
            _ => vec![],
        };
        for m in maps {
            self.check_map(top, what, m, SOURCE_KEYS)?;
            if let Some(Value::Mapping(d)) = get(m, "date") {
                self.check_map(top, &format!("{what} date"), d, DATE_KEYS)?;
            }
        }
        Ok(())
    }

    /// Refuses a key of a nested map (under the top-level key `top`) not in `known`.
    fn check_map(
        &self,
        top: &str,
        within: &str,
        m: &Mapping,
        known: &[&'static str],
    ) -> Result<(), ProblemError> {
        for (k, _) in m {
            let key = scalar(k).unwrap_or_default();
            if !known.contains(&key.to_ascii_lowercase().as_str()) {
                let at = self
                    .nested_key_loc(top, &key)
                    .unwrap_or_else(|| self.loc(top, &key));
                return Err(self.err_at(at, unknown_key_message(&key, Some(within), known)));
            }
        }
        Ok(())
    }

    /// Line and column of a nested `key:` on a line after the top-level key `top`.
    fn nested_key_loc(&self, top: &str, key: &str) -> Option<(usize, usize)> {
        let from = self.key_loc(top)?.0 - self.doc.first_line;
        self.doc
            .text
            .lines()
            .enumerate()
            .skip(from + 1)
            .find_map(|(i, l)| {
                let t = l.trim_start();
                let t = t.strip_prefix("- ").map_or(t, str::trim_start);
                let k = t.get(..key.len())?;
                (k.eq_ignore_ascii_case(key) && t[key.len()..].trim_start().starts_with(':'))
                    .then(|| (self.doc.first_line + i, l.len() - t.len() + 1))
            })
    }

    /// Line and column of a key (`key:`), if found: a top-level one first.
    fn key_loc(&self, key: &str) -> Option<(usize, usize)> {
        let find = |top: bool| {
            self.doc.text.lines().enumerate().find_map(|(i, l)| {
                let t = l.trim_start();
                if top && t.len() != l.len() {
                    return None;
                }
                let k = t.get(..key.len())?;
                (k.eq_ignore_ascii_case(key) && t[key.len()..].trim_start().starts_with(':'))
                    .then(|| (self.doc.first_line + i, l.len() - t.len() + 1))
            })
        };
        find(true).or_else(|| find(false))
    }

    /// Where `needle` first appears at or after the line of `key` (else where `key` is).
    fn loc(&self, key: &str, needle: &str) -> (usize, usize) {
        let from = self
            .key_loc(key)
            .map_or(0, |(l, _)| l - self.doc.first_line);
        if !needle.is_empty() && !needle.contains('\n') {
            for (i, l) in self.doc.text.lines().enumerate().skip(from) {
                if let Some(c) = l.find(needle) {
                    return (self.doc.first_line + i, l[..c].chars().count() + 1);
                }
            }
        }
        self.key_loc(key)
            .unwrap_or((self.doc.content_line.unwrap_or(self.doc.first_line), 0))
    }

    fn err_at(&self, (line, col): (usize, usize), m: impl AsRef<str>) -> ProblemError {
        self.site.err(line, col, m)
    }

    fn text_field(&self, key: &str) -> Result<Option<String>, ProblemError> {
        match get(self.map, key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match scalar(v) {
                Some(s) => Ok(Some(s)),
                None => Err(self.err_at(self.loc(key, ""), format!("'{key}' should be a text"))),
            },
        }
    }

    fn problem(&self, content_line: usize, index: usize) -> Result<Problem, ProblemError> {
        let mut d = Draft::new(content_line, index);
        self.stipulation(&mut d)?;
        self.diagram(&mut d)?;
        if let Some(c) = self.text_field("condition")? {
            let (line, col) = self.loc("condition", &c);
            let mut lx = Lexer::new(&c, line, col);
            let toks: Vec<Tok> = std::iter::from_fn(|| lx.next_tok()).collect();
            let at = Tok {
                text: "condition",
                line,
                col,
            };
            d.conditions
                .extend(resolve_conditions(self.site, &at, &toks)?);
        }
        if let Some(v) = get(self.map, "options") {
            for entry in texts(v) {
                let (line, col) = self.loc("options", &entry);
                apply_entry(self.site, &mut d, &entry, line, col)?;
            }
        }
        self.castling_and_ep(&mut d)?;
        self.pockets(&mut d)?;
        self.twins(&mut d)?;
        d.solution = self.text_field("solution")?;
        d.yacpdb_id = self.text_field("id")?;
        d.authors = get(self.map, "authors").map(texts).unwrap_or_default();
        d.keywords = get(self.map, "keywords").map(texts).unwrap_or_default();
        d.comments = get(self.map, "comments").map(texts).unwrap_or_default();
        d.title = self.text_field("title")?.into_iter().collect();
        // Our extension: Popeye's `Remark` (echoed before the solution).
        d.remark = self.text_field("remark")?.into_iter().collect();
        let source_name = match get(self.map, "source") {
            Some(Value::Mapping(m)) => get(m, "name").and_then(scalar),
            Some(v) => scalar(v),
            None => None,
        };
        let mut source = get(self.map, "source")
            .and_then(render_source)
            .unwrap_or_default();
        // Olive: source-id ("issue/problem") and date beside a text source.
        if let Some(id) = self.text_field("source-id")? {
            source = format!("{source} {id}").trim().to_string();
        }
        if let Some(date) = get(self.map, "date").and_then(render_date) {
            source = if source.is_empty() {
                date
            } else {
                format!("{source}, {date}")
            };
        }
        if !source.is_empty() {
            d.source.push(source);
        }
        d.award = match get(self.map, "award") {
            Some(v) => render_award(v, source_name),
            None => self.text_field("distinction")?,
        };
        d.build(
            self.site.file,
            &self.site.prefix,
            " (add e.g. `stipulation: \"#2\"`)",
        )
    }

    fn stipulation(&self, d: &mut Draft) -> Result<(), ProblemError> {
        match get(self.map, "stipulation") {
            None => Ok(()),
            Some(Value::Null) => {
                let at = self.loc("stipulation", "");
                let line =
                    at.0.checked_sub(self.doc.first_line)
                        .and_then(|i| self.doc.text.lines().nth(i))
                        .unwrap_or("");
                let value = line.split_once(':').map_or("", |(_, v)| v.trim_start());
                Err(self.err_at(
                    at,
                    if value.starts_with('#') {
                        "the stipulation is empty: in YAML an unquoted # starts a comment, so \
                         `stipulation: #3` has no value; quote it: stipulation: \"#3\""
                    } else {
                        "the stipulation is empty (write e.g. stipulation: \"#2\")"
                    },
                ))
            }
            Some(v) => {
                let Some(s) = scalar(v) else {
                    return Err(self.err_at(
                        self.loc("stipulation", ""),
                        "the stipulation should be a text such as \"#2\"",
                    ));
                };
                let at = self.loc("stipulation", &s);
                if s.trim().is_empty() {
                    return Err(self.err_at(
                        at,
                        "the stipulation is empty (write e.g. stipulation: \"#2\")",
                    ));
                }
                d.stipulation = Some(Stipulation::parse(&s).map_err(|m| self.err_at(at, m))?);
                Ok(())
            }
        }
    }

    fn diagram(&self, d: &mut Draft) -> Result<(), ProblemError> {
        if let Some(fen) = self.text_field("fen")? {
            let at = self.loc("fen", &fen);
            let (position, explicit_castling, ep_origin) =
                read_fen(&fen).map_err(|m| self.err_at(at, format!("bad FEN '{fen}': {m}")))?;
            d.fen = Some(FenDiagram {
                position,
                explicit_castling,
                ep_origin,
                text: fen.clone(),
                line: Some(at.0),
                column: Some(at.1),
            });
        }
        let Some(alg) = get(self.map, "algebraic") else {
            if d.fen.is_none() {
                return Err(self.err_at(
                    self.loc("stipulation", ""),
                    "no diagram: give algebraic: (or fen:)",
                ));
            }
            return Ok(());
        };
        let Value::Mapping(alg) = alg else {
            return Err(self.err_at(
                self.loc("algebraic", ""),
                "algebraic: should hold white: and black: piece lists",
            ));
        };
        for (k, v) in alg {
            let key = scalar(k).unwrap_or_default();
            let color = match key.to_ascii_lowercase().as_str() {
                "white" => Color::White,
                "black" => Color::Black,
                "neutral" => {
                    if texts(v).is_empty() {
                        continue;
                    }
                    return Err(
                        self.err_at(self.loc("neutral", ""), "neutral pieces are not supported")
                    );
                }
                _ => {
                    return Err(self.err_at(
                        self.loc("algebraic", &key),
                        format!("unknown colour '{key}' in algebraic (white, black)"),
                    ));
                }
            };
            let entries: Vec<String> = match v {
                Value::Sequence(_) => texts(v),
                other => scalar(other)
                    .map(|s| {
                        s.split([' ', ','])
                            .filter(|w| !w.is_empty())
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
            };
            for entry in entries {
                self.piece_entry(d, color, &entry)?;
            }
        }
        Ok(())
    }

    /// One `algebraic` entry: `Kg1`, `Pb5e5f4`, or with Popeye attributes `Royal Zf3`.
    fn piece_entry(&self, d: &mut Draft, color: Color, entry: &str) -> Result<(), ProblemError> {
        let (line, col) = self.loc("algebraic", entry);
        let words: Vec<&str> = entry.split_whitespace().collect();
        let Some((&piece, attrs)) = words.split_last() else {
            return Ok(());
        };
        if let Some(a) = attrs.first() {
            return Err(self.site.err(
                line,
                col,
                format!("piece attribute '{a}' in '{entry}' is not supported (chainmate has no piece attributes)"),
            ));
        }
        let pcol = col + entry.find(piece).unwrap_or(0);
        match classify_piece_token(piece) {
            PieceTok::Piece { code, squares } => {
                for i in (0..squares.len()).step_by(2) {
                    d.placements.push(PiecePlacement {
                        color,
                        code: code.to_ascii_uppercase(),
                        square: squares[i..i + 2].to_string(),
                        line: Some(line),
                        column: Some(if i == 0 { pcol } else { pcol + code.len() + i }),
                    });
                }
                Ok(())
            }
            _ => {
                let hint = if popeye_names::popeye_piece_name(piece).is_some()
                    || parse_piece_code(piece).is_ok()
                {
                    format!(
                        " (the square is missing: e.g. {}e4)",
                        piece.to_ascii_uppercase()
                    )
                } else {
                    String::new()
                };
                Err(self.site.err(
                    line,
                    pcol,
                    format!(
                        "cannot read piece '{piece}'{hint}: write a piece code and a square such as Kg1 or Sf3 \
                         (the knight is S, N is the nightrider)"
                    ),
                ))
            }
        }
    }

    fn castling_and_ep(&self, d: &mut Draft) -> Result<(), ProblemError> {
        match get(self.map, "castling") {
            None => {}
            Some(Value::Bool(false)) | Some(Value::Null) => d.castling = Some(0),
            Some(v) => {
                let s = scalar(v).unwrap_or_default();
                let at = self.loc("castling", &s);
                let t = s.trim();
                let mut bits = 0u8;
                if !(t.is_empty() || t == "-" || t.eq_ignore_ascii_case("none")) {
                    for (i, c) in t.chars().enumerate() {
                        bits |= match c {
                            'K' => WHITE_KINGSIDE,
                            'Q' => WHITE_QUEENSIDE,
                            'k' => BLACK_KINGSIDE,
                            'q' => BLACK_QUEENSIDE,
                            _ => {
                                return Err(self.site.err(
                                    at.0,
                                    at.1 + i,
                                    format!("castling '{s}': expected letters from KQkq, or \"-\" for none"),
                                ));
                            }
                        };
                    }
                }
                d.castling = Some(bits);
            }
        }
        if let Some(ep) = self.text_field("enpassant")? {
            let (line, col) = self.loc("enpassant", &ep);
            let t = Tok {
                text: ep.trim(),
                line,
                col,
            };
            let squares = square_list(self.site, &t)?;
            d.ep = Some(EpSpec {
                squares,
                text: ep.trim().to_string(),
                line: Some(line),
                column: Some(col),
            });
        }
        Ok(())
    }

    fn pockets(&self, d: &mut Draft) -> Result<(), ProblemError> {
        let Some(v) = get(self.map, "pockets") else {
            return Ok(());
        };
        let Value::Mapping(m) = v else {
            return Err(self.err_at(
                self.loc("pockets", ""),
                "pockets: should be a map such as {white: Q, black: S}",
            ));
        };
        for (k, v) in m {
            let key = scalar(k).unwrap_or_default();
            let color = match key.to_ascii_lowercase().as_str() {
                "white" => Color::White,
                "black" => Color::Black,
                _ => {
                    return Err(self.err_at(
                        self.loc("pockets", &key),
                        format!("unknown colour '{key}' in pockets"),
                    ));
                }
            };
            let Some(code) = scalar(v).filter(|c| !c.trim().is_empty()) else {
                continue;
            };
            let at = self.loc("pockets", &code);
            let kind = parse_piece_code(code.trim()).map_err(|m| self.err_at(at, m))?;
            if kind == Kind::King {
                return Err(self.err_at(at, "a king cannot be in a pocket"));
            }
            d.pockets[color.idx()] = Some(kind);
        }
        Ok(())
    }

    fn twins(&self, d: &mut Draft) -> Result<(), ProblemError> {
        let Some(v) = get(self.map, "twins") else {
            return Ok(());
        };
        let Value::Mapping(m) = v else {
            if v.is_null() {
                return Ok(());
            }
            return Err(self.err_at(
                self.loc("twins", ""),
                "twins: should be a map such as {b: Move a1 a2, c: Remove e5}",
            ));
        };
        let mut twins = Vec::new();
        for (k, v) in m {
            let key = scalar(k).unwrap_or_default();
            let (plus, label) = match key.strip_prefix('+') {
                Some(l) => (true, l.trim().to_string()),
                None => (false, key.trim().to_string()),
            };
            let key_at = self.loc("twins", &key);
            if twin_label_order(&label).0 == usize::MAX {
                return Err(self.err_at(
                    key_at,
                    format!("twin key '{key}' is not a twin label (b, c, ..., or +c for a continued twin)"),
                ));
            }
            let text = scalar(v).unwrap_or_default();
            let (line, col) = self.loc("twins", &text);
            let mut lx = Lexer::new(&text, line, col);
            let (continued, commands, _) = parse_twin_commands(&mut lx, self.site, false)?;
            twins.push(Twin {
                label,
                continued: plus || continued,
                commands,
                line,
            });
        }
        twins.sort_by_key(|t| twin_label_order(&t.label));
        d.twins = twins;
        Ok(())
    }
}

/// Problems written in the YACPDB schema (a multi-document stream), with our extensions
/// (`condition`, `castling` as NoCastling squares, `enpassant`) where needed.
pub fn problems_to_yaml(problems: &[super::Problem]) -> String {
    let mut out = String::new();
    for p in problems {
        out.push_str("---\n");
        out.push_str(
            &serde_yaml::to_string(&Value::Mapping(problem_mapping(p))).unwrap_or_default(),
        );
    }
    out
}

/// A YAML string.
fn string_value(x: &str) -> Value {
    Value::String(x.to_string())
}

/// A YAML sequence of strings.
fn string_values(v: &[String]) -> Value {
    Value::Sequence(v.iter().map(|x| string_value(x)).collect())
}

/// One problem as a YACPDB document, its fields in the schema's order.
fn problem_mapping(p: &super::Problem) -> Mapping {
    let mut m = Mapping::new();
    if !p.authors.is_empty() {
        m.insert(string_value("authors"), string_values(&p.authors));
    }
    for (key, x) in [
        ("source", &p.source),
        ("award", &p.award),
        ("title", &p.title),
        ("remark", &p.remark),
    ] {
        if let Some(x) = x {
            m.insert(string_value(key), string_value(x));
        }
    }
    m.insert(
        string_value("stipulation"),
        string_value(&p.stipulation.to_string()),
    );
    let options = option_entries(p);
    if !options.is_empty() {
        m.insert(string_value("options"), string_values(&options));
    }
    let mut alg = Mapping::new();
    for (name, c) in [("white", Color::White), ("black", Color::Black)] {
        alg.insert(string_value(name), string_values(&p.piece_words(c)));
    }
    m.insert(string_value("algebraic"), Value::Mapping(alg));
    if !p.twins.is_empty() {
        m.insert(
            string_value("twins"),
            Value::Mapping(twin_mapping(&p.twins)),
        );
    }
    if let Some(x) = &p.solution {
        m.insert(string_value("solution"), string_value(x));
    }
    if !p.keywords.is_empty() {
        m.insert(string_value("keywords"), string_values(&p.keywords));
    }
    if !p.comments.is_empty() {
        m.insert(string_value("comments"), string_values(&p.comments));
    }
    m
}

/// The `options` entries: the condition, Popeye's option words, the castling rights taken
/// away and the en-passant square.
fn option_entries(p: &super::Problem) -> Vec<String> {
    let mut options = vec![];
    if p.condition != crate::rules::Condition::Orthodox {
        options.push(p.condition.name().to_string());
    }
    options.extend(p.option_words());
    let nc = p.no_castling_squares();
    if !nc.is_empty() {
        options.push(format!("NoCastling {}", nc.join(" ")));
    }
    if p.position.ep != crate::core::NO_SQUARE {
        options.push(format!(
            "EnPassant {}",
            crate::core::square_name(p.position.ep)
        ));
    }
    options
}

/// The `twins` map: label to commands (a continued twin's start with `Continued`).
fn twin_mapping(twins: &[super::Twin]) -> Mapping {
    let mut tw = Mapping::new();
    for t in twins {
        let cmds: Vec<String> = t.commands.iter().map(super::command_text).collect();
        let line = if t.continued {
            format!("Continued {}", cmds.join(" "))
        } else {
            cmds.join(" ")
        };
        tw.insert(string_value(&t.label), string_value(&line));
    }
    tw
}

/// Serialises any result structure as YAML (used by `--format yaml`).
pub fn to_yaml_string<T: serde::Serialize>(value: &T) -> String {
    serde_yaml::to_string(value).unwrap_or_else(|e| format!("# could not serialise: {e}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_nesting_is_bounded_before_parsing() {
        let deep = format!("stipulation: \"#2\"\ntitle: {}\n", "[".repeat(100_000));
        assert_eq!(too_deep_flow(&deep), Some((2, 8 + MAX_FLOW_DEPTH)));
        let e = parse_yaml("deep.yaml", &deep).unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("deep.yaml", Some(2)));
        assert!(e.message.contains("nested too deeply"), "{e}");
        // In a later document, the line is the file's.
        let two = format!(
            "algebraic: {{white: [Ke1], black: [Ke8]}}\nstipulation: \"#2\"\n---\na: {}\n",
            "{a: ".repeat(70)
        );
        let e = parse_yaml("t.yaml", &two).unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.starts_with("problem 2: "), "{e}");
        // Brackets in quotes, comments and block scalars do not count; closed ones neither.
        let many = "[".repeat(MAX_FLOW_DEPTH + 1);
        for ok in [
            format!("title: '{many}'\n"),
            format!("title: \"{many}\"\n"),
            format!("title: 'it''s {many}'\n"),
            format!("# {many}\ntitle: x\n"),
            format!("title: x # {many}\n"),
            format!("solution: |\n  {many}\n\n  {many}\ntitle: x\n"),
            format!("solution: >-\n   {many}\n"),
            format!("a: {}\n", "[]".repeat(1000)),
            format!(
                "a: {}{}\n",
                "[".repeat(MAX_FLOW_DEPTH),
                "]".repeat(MAX_FLOW_DEPTH)
            ),
            "title: don't [stop]\n".to_string(),
            format!("- '{many}'\n- \"{many}\"\n- [a, '{many}']\n"),
            format!("a: {{b: '{many}'}}\n"),
            format!("solution: |\n   1.e4 'x\n   {many}\n"),
        ] {
            assert_eq!(too_deep_flow(&ok), None, "{ok}");
        }
        // A quote inside a plain scalar does not hide what follows.
        for bad in [
            format!("title: a 'b\ncomments: {many}\n"),
            format!("title: it's\ncomments: {many}\n"),
            format!("title: a:'b\ncomments: {many}\n"),
            format!("title: a:|\n  {many}\n"),
        ] {
            assert!(too_deep_flow(&bad).is_some(), "{bad}");
        }
        // A block scalar ends where the indentation comes back.
        let after = format!("solution: |\n  x\ntitle: {many}\n");
        assert_eq!(too_deep_flow(&after), Some((3, 8 + MAX_FLOW_DEPTH)));
    }

    #[test]
    fn splits_documents() {
        let t = "# collection\n---\na: 1\n---\nb: 2\n...\n%YAML 1.2\n---\nc: 3\n";
        let docs = split_documents(t);
        let with_content: Vec<(usize, Option<usize>)> = docs
            .iter()
            .filter(|d| d.content_line.is_some())
            .map(|d| (d.first_line, d.content_line))
            .collect();
        assert_eq!(with_content, [(1, Some(3)), (4, Some(5)), (7, Some(9))]);
        for d in docs.iter().filter(|d| d.content_line.is_some()) {
            let v: Value = serde_yaml::from_str(d.text).unwrap();
            assert!(v.is_mapping());
        }
    }

    #[test]
    fn renders_sources() {
        let v: Value = serde_yaml::from_str(
            "name: feenschach\nissue: 01-02\nproblemid: 7100\ndate:\n  year: 1965\n  month: 2\n",
        )
        .unwrap();
        assert_eq!(render_source(&v).unwrap(), "feenschach 01-02/7100, 1965-02");
        let a: Value =
            serde_yaml::from_str("tourney:\n  name: feenschach\ndistinction: 1st Prize\n").unwrap();
        assert_eq!(render_award(&a, None).unwrap(), "1st Prize, feenschach");
        let a: Value = serde_yaml::from_str("tourney: ditto\ndistinction: 2nd HM\n").unwrap();
        assert_eq!(
            render_award(&a, Some("Die Schwalbe".into())).unwrap(),
            "2nd HM, Die Schwalbe"
        );
    }
}
