//! Parser and comparator for solutions written in Popeye's text output format.
//!
//! The solver prints its solutions in the format Popeye uses, and the tests
//! compare that output with the output of the real Popeye "as sets after
//! notation normalisation".  This module turns such a text into a [`Parsed`]
//! structure, flattens it into a set of path strings with [`paths`] and
//! lists the differences between two texts with [`diff`].
//!
//! Two kinds of solution are recognised:
//!
//! * **Tree lines** (direct, self and reflex play): one move per line, with at
//!   least three leading spaces, e.g. `   1.Ba8-h1 ! threat:` or
//!   `      1...Sb5-d6`.  The ply depth comes from the move numbering
//!   (`N.` is ply `2N-2`, `N...` is ply `2N-1`).  A line `    but` starts the
//!   refutations of the try above it.
//! * **Line solutions** (help and series play): exactly two leading spaces,
//!   a whole solution on one line, e.g.
//!   `  1.Rh2-f2 0-0-0 +   2.Kd3-e2 Rh1-e1 #`.
//!
//! Everything else (blank lines, `solution finished.`, the echoed `Remark`,
//! a problem's header: its name, author, source and title lines, the board and the
//! stipulation line with the piece count (`  #2   6 + 3`) with the condition lines
//! under it, `Time = ...`) is skipped; twin headers such as `a) ...`
//! are recorded.
//!
//! Normalisation: whitespace is collapsed, a stand-alone check / mate /
//! stalemate suffix (`+`, `#`, `=`) is attached to its move without the
//! space (`Qa4-a8 #` becomes `Qa4-a8#`), ` ep.` stays separated by one space
//! (`d5*c6 ep.`), and the markers `!`, `?` (and Popeye's `?!?`) are appended
//! to the move they follow (`1.Qg1-f2 + !` becomes `1.Qg1-f2+!`).  The move
//! text itself is kept exactly (`Qd1-d5`, `Qd1*d5`, `e7-e8=Q`, `0-0-0`).

use std::collections::BTreeSet;

/// Role of a tree node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// An ordinary move (defence, continuation, dual, set play).
    Plain,
    /// A first move marked `!`.
    Key,
    /// A first move marked `?`.
    Try,
    /// A defence printed after `but` (refutes the try above it).
    Refutation,
    /// The first move of a threat line (its parent line ends in `threat:`).
    Threat,
}

/// One move line of a tree solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeNode {
    /// Ply depth: 0 for `1.` (White's first move), 1 for `1...`, 2 for `2.`,
    /// and so on.
    pub depth: usize,
    /// Normalised move text with its number and suffix, without the marker,
    /// e.g. `1.Qg1-f2+` or `1...g4*f3 ep.`.
    pub mv: String,
    /// The marker after the move: `!`, `?`, `?!?`, or empty.
    pub mark: String,
    /// Role of the node.
    pub kind: Kind,
    /// The line ends with `threat:` (threat lines are children of kind
    /// [`Kind::Threat`]).
    pub threat: bool,
    /// The line ends with `zugzwang.`.
    pub zugzwang: bool,
    /// The node belongs to set play (it has no first-move ancestor).
    pub set_play: bool,
    /// Index of the parent node in [`Parsed::nodes`].
    pub parent: Option<usize>,
    /// Index into [`Parsed::twins`] of the twin this node belongs to.
    pub twin: Option<usize>,
}

impl TreeNode {
    /// The move with its marker, as used in paths (`1.Ba8-h1!`).
    pub fn text(&self) -> String {
        format!("{}{}", self.mv, self.mark)
    }
}

/// A parsed Popeye solution text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    /// Tree nodes in the order of the text; a parent always precedes its
    /// children.
    pub nodes: Vec<TreeNode>,
    /// Help / series solutions, each a list of normalised half-moves as
    /// printed (a half-move that starts a numbered move keeps its number:
    /// `["1.Rh2-f2", "0-0-0+", "2.Kd3-e2", "Rh1-e1#"]`).
    pub lines: Vec<Vec<String>>,
    /// For each entry of `lines`, the index into `twins` of its twin.
    pub line_twins: Vec<Option<usize>>,
    /// Twin labels in order of appearance (`a)`, `b)`, ...).
    pub twins: Vec<String>,
    /// Non-blank lines that were not recognised as solution lines (remarks,
    /// `solution finished.`, diagrams, timing lines, ...).
    pub ignored: Vec<String>,
}

impl Parsed {
    /// True when neither tree nodes nor line solutions were found.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.lines.is_empty()
    }
}

/// Splits a leading move number off a token: `"12.Qa1-a2"` gives
/// `Some((12, false, "Qa1-a2"))`, `"1...e7-e5"` gives `Some((1, true, ...))`.
/// The rest must look like a move (contain `-` or `*`).
fn split_number(token: &str) -> Option<(usize, bool, &str)> {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let number: usize = token[..digits].parse().ok()?;
    let rest = token[digits..].strip_prefix('.')?;
    let (black, mv) = match rest.strip_prefix("..") {
        Some(mv) => (true, mv),
        None => (false, rest),
    };
    if number == 0 || mv.is_empty() || !mv.contains(['-', '*']) {
        return None;
    }
    Some((number, black, mv))
}

/// A token to be glued to the preceding move without a space.
fn is_suffix(token: &str) -> bool {
    !token.is_empty() && token.chars().all(|c| matches!(c, '+' | '#' | '='))
}

/// A marker token (`!`, `?`, `?!?`, ...).
fn is_mark(token: &str) -> bool {
    !token.is_empty() && token.chars().all(|c| matches!(c, '!' | '?'))
}

/// The twin header lines of a solution text (`a) diagram`, `+b) wKe1-->e2`), blanks
/// collapsed.
pub fn twin_headers(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| twin_label(l).is_some())
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// Recognises a twin header such as `a) diagram` or `+b) bSe4-->f5` and
/// returns its label (`a)`, `+b)`).
fn twin_label(line: &str) -> Option<String> {
    let label = line.split_whitespace().next()?;
    let body = label.strip_prefix('+').unwrap_or(label);
    let body = body.strip_suffix(')')?;
    let mut chars = body.chars();
    let first = chars.next()?;
    if !first.is_ascii_lowercase() || !chars.all(|c| c.is_ascii_digit()) {
        return None;
    }
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    Some(label.to_string())
}

/// Normalises the tokens of a help / series line into half-moves.
fn parse_line_solution(tokens: &[&str]) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for &token in tokens {
        match moves.last_mut() {
            Some(last) if is_suffix(token) || is_mark(token) => last.push_str(token),
            Some(last) if token == "ep." => {
                last.push(' ');
                last.push_str(token);
            }
            _ => moves.push(token.to_string()),
        }
    }
    moves
}

/// What one tree line says besides its move.
struct TreeLine {
    depth: usize,
    mv: String,
    mark: String,
    threat: bool,
    zugzwang: bool,
}

fn parse_tree_line(tokens: &[&str]) -> Option<TreeLine> {
    let (number, black, _) = split_number(tokens.first()?)?;
    let mut line = TreeLine {
        depth: 2 * (number - 1) + usize::from(black),
        mv: tokens[0].to_string(),
        mark: String::new(),
        threat: false,
        zugzwang: false,
    };
    for &token in &tokens[1..] {
        if token == "threat:" {
            line.threat = true;
        } else if token == "zugzwang." {
            line.zugzwang = true;
        } else if is_mark(token) {
            line.mark.push_str(token);
        } else if is_suffix(token) {
            line.mv.push_str(token);
        } else {
            // ` ep.` and anything unknown (fairy notation) stay in the move.
            line.mv.push(' ');
            line.mv.push_str(token);
        }
    }
    Some(line)
}

/// An entry of the parser's ancestor stack.
#[derive(Clone, Copy)]
struct Frame {
    depth: usize,
    node: usize,
    /// The virtual `threat` level below `node`.
    threat_marker: bool,
}

/// Popeye's stipulation line under the board: two spaces, the stipulation, and the
/// piece count (`  #2                          6 + 3`, `... 2 + 2 + 1n`).
fn is_piece_count_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("  ") else {
        return false;
    };
    let tokens: Vec<&str> = rest.split_whitespace().collect();
    if rest.starts_with(' ') || tokens.len() < 4 || split_number(tokens[0]).is_some() {
        return false;
    }
    let n = tokens.len();
    let num = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let neutral = |t: &str| t.strip_suffix('n').is_some_and(num);
    (num(tokens[n - 3]) && tokens[n - 2] == "+" && num(tokens[n - 1]))
        || (n >= 6
            && num(tokens[n - 5])
            && tokens[n - 4] == "+"
            && num(tokens[n - 3])
            && tokens[n - 2] == "+"
            && neutral(tokens[n - 1]))
}

/// Which lines belong to a problem's header (its name, author, source, award and title
/// lines, the board, the stipulation line with the piece count and the condition lines
/// under it): everything from the start of the problem (the text's start, or the line
/// after `solution finished.` / `Partial solution`) to the piece-count line, and the
/// lines up to the next blank line or twin label (`a) diagram`). A problem printed without the header (Popeye's
/// `NoBoard`) has no piece-count line and nothing of it is taken for a header.
fn header_lines(lines: &[&str]) -> Vec<bool> {
    let mut header = vec![false; lines.len()];
    let mut start = 0;
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        if t == "solution finished." || t == "Partial solution" {
            start = i + 1;
        } else if is_piece_count_line(lines[i].trim_end()) {
            let mut end = i + 1;
            while end < lines.len()
                && !lines[end].trim().is_empty()
                && twin_label(lines[end].trim_end()).is_none()
            {
                end += 1;
            }
            header[start..end].iter_mut().for_each(|h| *h = true);
            start = end;
            i = end;
            continue;
        }
        i += 1;
    }
    header
}

/// Parses a text in Popeye's output format.  Never fails: unrecognised lines
/// end up in [`Parsed::ignored`].
pub fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut in_but = false;
    let mut twin: Option<usize> = None;

    let all: Vec<&str> = text.lines().collect();
    let header = header_lines(&all);
    for (i, raw) in all.iter().enumerate() {
        let line = raw.trim_end();
        if header[i] {
            parsed.ignored.push(line.to_string());
            continue;
        }
        if line.trim().is_empty() {
            stack.clear();
            in_but = false;
            continue;
        }
        if let Some(label) = twin_label(line) {
            parsed.twins.push(label);
            twin = Some(parsed.twins.len() - 1);
            stack.clear();
            in_but = false;
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if indent >= 3 && tokens == ["but"] {
            in_but = true;
            continue;
        }
        let numbered = tokens.first().and_then(|t| split_number(t)).is_some();
        if indent == 2 && numbered {
            parsed.lines.push(parse_line_solution(&tokens));
            parsed.line_twins.push(twin);
            continue;
        }
        let tree_line = if indent >= 3 {
            parse_tree_line(&tokens)
        } else {
            None
        };
        let Some(tl) = tree_line else {
            parsed.ignored.push(line.to_string());
            continue;
        };

        while stack.last().is_some_and(|f| f.depth >= tl.depth) {
            stack.pop();
        }
        if tl.depth == 0 {
            in_but = false;
        }
        let mut kind = match (tl.depth, tl.mark.as_str()) {
            (0, "!") => Kind::Key,
            (0, "?") => Kind::Try,
            _ => Kind::Plain,
        };
        if let Some(&top) = stack.last()
            && !top.threat_marker
            && parsed.nodes[top.node].threat
            && tl.depth == top.depth + 2
        {
            stack.push(Frame {
                depth: top.depth + 1,
                node: top.node,
                threat_marker: true,
            });
        }
        let parent = stack.last().copied();
        if let Some(p) = parent
            && p.threat_marker
            && tl.depth == p.depth + 1
        {
            kind = Kind::Threat;
        } else if in_but && tl.depth == 1 && parent.is_some() {
            kind = Kind::Refutation;
        }
        let set_play = match parent {
            Some(p) => parsed.nodes[p.node].set_play,
            None => tl.depth > 0,
        };
        parsed.nodes.push(TreeNode {
            depth: tl.depth,
            mv: tl.mv,
            mark: tl.mark,
            kind,
            threat: tl.threat,
            zugzwang: tl.zugzwang,
            set_play,
            parent: parent.map(|p| p.node),
            twin,
        });
        stack.push(Frame {
            depth: tl.depth,
            node: parsed.nodes.len() - 1,
            threat_marker: false,
        });
    }
    parsed
}

/// Prefix of a path for the given twin (empty without twins).
fn twin_prefix(parsed: &Parsed, twin: Option<usize>) -> String {
    match twin.and_then(|t| parsed.twins.get(t)) {
        Some(label) => format!("{label} "),
        None => String::new(),
    }
}

/// Every root-to-node path of the tree (set play included), plus one string
/// per help / series line.
///
/// Tree path components are joined by ` > `; a threat line is entered
/// through a `threat` component and a refutation is written `but <move>`:
///
/// * `1.Ba8-h1! > threat > 2.Qa4-a8#`
/// * `1.Ba8-h1! > 1...Sb5-d6 > 2.Qa4-a8+ > 2...Sd6-c8 > 3.Qa8*c8#`
/// * `1.Bh4*g5? > but 1...Rf8-e8!`
/// * set play: `1...Se8-c7+ > 2.Se6*c7#`
///
/// A node whose line ends in `threat:` / `zugzwang.` also yields
/// `<path> > threat` / `<path> > zugzwang`.  A help / series line is its
/// half-moves joined by single spaces (`1.Rh2-f2 0-0-0+ 2.Kd3-e2 Rh1-e1#`).
/// With twins every path starts with the twin label (`a) 1.Qd1-d5!`).
pub fn paths(p: &Parsed) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut node_paths: Vec<String> = Vec::with_capacity(p.nodes.len());
    for node in &p.nodes {
        let mut path = match node.parent.and_then(|i| node_paths.get(i)) {
            Some(parent) => format!("{parent} > "),
            None => twin_prefix(p, node.twin),
        };
        match node.kind {
            Kind::Threat => path.push_str("threat > "),
            Kind::Refutation => path.push_str("but "),
            _ => {}
        }
        path.push_str(&node.text());
        if node.threat {
            out.insert(format!("{path} > threat"));
        }
        if node.zugzwang {
            out.insert(format!("{path} > zugzwang"));
        }
        out.insert(path.clone());
        node_paths.push(path);
    }
    for (i, line) in p.lines.iter().enumerate() {
        let twin = p.line_twins.get(i).copied().flatten();
        out.insert(format!("{}{}", twin_prefix(p, twin), line.join(" ")));
    }
    out
}

/// Paths of `expected` missing from `actual` (prefixed `- `), then paths of
/// `actual` not in `expected` (prefixed `+ `).  Empty when both give the
/// same set of paths.
pub fn diff(expected: &Parsed, actual: &Parsed) -> Vec<String> {
    let want = paths(expected);
    let got = paths(actual);
    let mut out: Vec<String> = want.difference(&got).map(|s| format!("- {s}")).collect();
    out.extend(got.difference(&want).map(|s| format!("+ {s}")));
    out
}

/// [`diff`] of two whole texts (Popeye's codes already mapped to chainmate's), and a line
/// naming both lists of twin header lines ([`twin_headers`]) where they differ.
pub fn diff_texts(expected: &str, actual: &str) -> Vec<String> {
    let mut d = diff(&parse(expected), &parse(actual));
    let (want, have) = (twin_headers(expected), twin_headers(actual));
    if want != have {
        d.push(format!("twin headers: Popeye {want:?}, chainmate {have:?}"));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// d4_0166.out (#4, threats nested in variations), abridged.
    const TREE_THREAT: &str = "
   1.Ba8-h1 ! threat:
          2.Qa4-a8 #
      1...Sb5-d6
          2.Qa4-a8 +
              2...Sd6-c8
                  3.Qa8*c8 #
      1...Sb5-a7
          2.Qa4-c6 threat:
                  3.Qc6-a8 +
                      3...Sa7-c8
                          4.Qa8*c8 #
              2...Sa7*c6
                  3.Ra1-a8 +
                      3...Sc6-d8
                          4.Ra8*d8 #
                      3...Sc6-b8
                          4.Ra8*b8 #
              2...d7*c6
                  3.0-0-0 threat:
                          4.Rd1-d8 #
                      3...0-0
                          4.Rd1-g1 #


solution finished.


";

    /// d2_0335.out (#2 with tries), abridged.
    const TREE_TRIES: &str = "
   1.f2-f4 ! threat:
          2.f4*e5 #
      1...Rf1*f4
          2.Rh1-d1 #
      1...g4*f3 ep.
          2.Sc5-b7 #
      1...Rf8-b8 +
          2.c7*b8=Q #
          2.c7*b8=B #

   1.Sg6*f8 ? threat:
          2.c7-c8=S #
          2.Sc5-b7 #
      1...Bb5-d7
          2.Sc5-b7 #
    but
      1...Bb5-a6 !

   1.c7-c8=S + ?
    but
      1...Rf8*c8 !


solution finished.


";

    /// d3_2407.out (#3 with set play), abridged.
    const TREE_SET_PLAY: &str = "
      1...Se8-c7 +
          2.Se6*c7 #
      1...Se8-d6
          2.Se6-c7 #

   1.b2*c3 ! zugzwang.
      1...c6-c5
          2.c3-c4 zugzwang.
              2...Se8-c7 +
                  3.Se6*c7 #
      1...Se8-c7 +
          2.Se6*c7 #


solution finished.


";

    /// h2_0174.out (h#2 with set play).
    const HELP_SET_PLAY: &str = "
  1...Bg4-e2   2.0-0-0 Be2-a6 #

  1.Ra8-d8 Bg3-d6   2.e7-e5 Bg4-h5 #

solution finished.


";

    /// h1_2288.out (remark echoed, e.p. capture).
    const HELP_REMARK: &str = "reduced to the minimum by Thomas Maeder

  1.c7-c5 d5*c6 ep. #

solution finished.


";

    /// h2h_2536.out (h#2.5).
    const HELP_HALF: &str = "
  1...e7-e8=B   2.Kd3-e2 Be8-h5   3.Bh7-d3 Rg4-e4 #

solution finished.


";

    /// ser10_0611.out (ser-h=10, two-digit move numbers).
    const SERIES: &str = "
  1.Qg7-g3   2.Qg3-b8   3.Bd8-c7   4.Bc7-e5   5.Be5*c3   6.Bc3-e5   7.Be5-c7   8.Bc7-d8   9.Qb8-g3  10.Qg3-g7 Bb2*g7 =

solution finished.


";

    /// r2_1232.out (Popeye's `?!?` marker).
    const ODD_MARK: &str = "
   1.c7-c8=Q # ?!?
   1.c7-c8=R # ?!?

solution finished.


";

    fn has(set: &BTreeSet<String>, path: &str) {
        assert!(set.contains(path), "missing {path:?} in {set:#?}");
    }

    #[test]
    fn tree_with_threats() {
        let p = parse(TREE_THREAT);
        assert!(p.lines.is_empty());
        assert_eq!(p.nodes[0].kind, Kind::Key);
        assert!(p.nodes[0].threat);
        assert_eq!(p.nodes[1].kind, Kind::Threat);
        assert_eq!(p.nodes[1].depth, 2);
        assert_eq!(p.nodes[1].parent, Some(0));
        let s = paths(&p);
        has(&s, "1.Ba8-h1!");
        has(&s, "1.Ba8-h1! > threat");
        has(&s, "1.Ba8-h1! > threat > 2.Qa4-a8#");
        has(
            &s,
            "1.Ba8-h1! > 1...Sb5-d6 > 2.Qa4-a8+ > 2...Sd6-c8 > 3.Qa8*c8#",
        );
        has(
            &s,
            "1.Ba8-h1! > 1...Sb5-a7 > 2.Qa4-c6 > threat > 3.Qc6-a8+ > 3...Sa7-c8 > 4.Qa8*c8#",
        );
        has(
            &s,
            "1.Ba8-h1! > 1...Sb5-a7 > 2.Qa4-c6 > 2...Sa7*c6 > 3.Ra1-a8+ > 3...Sc6-b8 > 4.Ra8*b8#",
        );
        has(
            &s,
            "1.Ba8-h1! > 1...Sb5-a7 > 2.Qa4-c6 > 2...d7*c6 > 3.0-0-0 > threat > 4.Rd1-d8#",
        );
        has(
            &s,
            "1.Ba8-h1! > 1...Sb5-a7 > 2.Qa4-c6 > 2...d7*c6 > 3.0-0-0 > 3...0-0 > 4.Rd1-g1#",
        );
        // The defence after a threat line is not part of the threat.
        assert!(
            !s.iter()
                .any(|x| x.contains("threat > 3.Qc6-a8+ > 3...Sa7-c8 > 4.Qa8*c8# >"))
        );
        assert!(!s.iter().any(|x| x.contains("threat > 2...")));
        assert_eq!(s.len(), p.nodes.len() + 3);
    }

    #[test]
    fn tree_with_tries() {
        let p = parse(TREE_TRIES);
        let s = paths(&p);
        has(&s, "1.f2-f4! > 1...g4*f3 ep. > 2.Sc5-b7#");
        has(&s, "1.f2-f4! > 1...Rf8-b8+ > 2.c7*b8=Q#");
        has(&s, "1.f2-f4! > 1...Rf8-b8+ > 2.c7*b8=B#");
        has(&s, "1.Sg6*f8? > threat > 2.c7-c8=S#");
        has(&s, "1.Sg6*f8? > threat > 2.Sc5-b7#");
        has(&s, "1.Sg6*f8? > 1...Bb5-d7 > 2.Sc5-b7#");
        has(&s, "1.Sg6*f8? > but 1...Bb5-a6!");
        has(&s, "1.c7-c8=S+?");
        has(&s, "1.c7-c8=S+? > but 1...Rf8*c8!");
        let kinds: Vec<Kind> = p
            .nodes
            .iter()
            .filter(|n| n.depth == 0)
            .map(|n| n.kind)
            .collect();
        assert_eq!(kinds, [Kind::Key, Kind::Try, Kind::Try]);
        let refutations = p
            .nodes
            .iter()
            .filter(|n| n.kind == Kind::Refutation)
            .count();
        assert_eq!(refutations, 2);
        // Defences of the key are not refutations.
        assert!(!s.iter().any(|x| x.starts_with("1.f2-f4! > but")));
    }

    #[test]
    fn tree_set_play_and_zugzwang() {
        let p = parse(TREE_SET_PLAY);
        let s = paths(&p);
        has(&s, "1...Se8-c7+");
        has(&s, "1...Se8-c7+ > 2.Se6*c7#");
        has(&s, "1...Se8-d6 > 2.Se6-c7#");
        has(&s, "1.b2*c3! > zugzwang");
        has(&s, "1.b2*c3! > 1...c6-c5 > 2.c3-c4 > zugzwang");
        has(
            &s,
            "1.b2*c3! > 1...c6-c5 > 2.c3-c4 > 2...Se8-c7+ > 3.Se6*c7#",
        );
        has(&s, "1.b2*c3! > 1...Se8-c7+ > 2.Se6*c7#");
        assert!(p.nodes[0].set_play && p.nodes[1].set_play);
        assert!(p.nodes.iter().filter(|n| n.set_play).count() == 4);
        assert!(p.nodes.iter().skip(4).all(|n| !n.set_play));
        assert!(p.nodes[4].zugzwang && p.nodes[4].kind == Kind::Key);
    }

    #[test]
    fn help_lines() {
        let p = parse(HELP_SET_PLAY);
        assert!(p.nodes.is_empty());
        assert_eq!(
            p.lines,
            vec![
                vec!["1...Bg4-e2", "2.0-0-0", "Be2-a6#"],
                vec!["1.Ra8-d8", "Bg3-d6", "2.e7-e5", "Bg4-h5#"],
            ]
        );
        let s = paths(&p);
        has(&s, "1...Bg4-e2 2.0-0-0 Be2-a6#");
        has(&s, "1.Ra8-d8 Bg3-d6 2.e7-e5 Bg4-h5#");
        assert_eq!(s.len(), 2);

        let p = parse(HELP_REMARK);
        assert_eq!(p.lines, vec![vec!["1.c7-c5", "d5*c6 ep.#"]]);
        assert!(p.ignored.iter().any(|l| l.starts_with("reduced to")));
        has(&paths(&p), "1.c7-c5 d5*c6 ep.#");

        let p = parse(HELP_HALF);
        has(&paths(&p), "1...e7-e8=B 2.Kd3-e2 Be8-h5 3.Bh7-d3 Rg4-e4#");
    }

    #[test]
    fn series_two_digit_numbers() {
        let p = parse(SERIES);
        assert_eq!(p.lines.len(), 1);
        let line = &p.lines[0];
        assert_eq!(line.len(), 11);
        assert_eq!(line[8], "9.Qb8-g3");
        assert_eq!(line[9], "10.Qg3-g7");
        assert_eq!(line[10], "Bb2*g7=");
        has(
            &paths(&p),
            "1.Qg7-g3 2.Qg3-b8 3.Bd8-c7 4.Bc7-e5 5.Be5*c3 6.Bc3-e5 7.Be5-c7 8.Bc7-d8 \
             9.Qb8-g3 10.Qg3-g7 Bb2*g7=",
        );
    }

    #[test]
    fn odd_marker_and_checking_key() {
        let p = parse(ODD_MARK);
        let s = paths(&p);
        has(&s, "1.c7-c8=Q#?!?");
        has(&s, "1.c7-c8=R#?!?");
        let p = parse("\n   1.Qg1-f2 + !\n      1...Ke1-d1\n");
        has(&paths(&p), "1.Qg1-f2+!");
        has(&paths(&p), "1.Qg1-f2+! > 1...Ke1-d1");
    }

    #[test]
    fn ignores_noise_and_records_twins() {
        let text = "Popeye Linux-6.1 v4.104 (512 MB)\n\
                    \n  #2                          3 + 2\n\
                    a) diagram\n\n   1.Qd1-d5 !\n\nb) bKe8-->f8\n\n   1.Qd1-d6 !\n\n\
                    Time = 0.01 s\n\nsolution finished.\n";
        let p = parse(text);
        assert_eq!(p.twins, ["a)", "b)"]);
        let s = paths(&p);
        has(&s, "a) 1.Qd1-d5!");
        has(&s, "b) 1.Qd1-d6!");
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn skips_problem_headers() {
        // chainmate's header: the name line, Popeye's author/source lines (a source that
        // reads like a move), the board, the piece count and the condition.
        let text = "d4  problems/d4.inp\n\n           A. Author\n    2.FIDE-Turnier, 1959\n\n\
                    +---a---b---c---d---e---f---g---h---+\n8   K   .   .   .   .   .   .   .   8\n\
                    +---a---b---c---d---e---f---g---h---+\n  #2                          3 + 2\n\
                                 teleport\n\n   1.Qd1-d5 !\n\nsolution finished.\n\n\n\
                    e2  problems/e2.inp\n    3.-4. Preis, 1.1.2000\n  h#2                         2 + 1\n\n\
                    \x20 1.Kh7-g6 Kf8-e8   2.Rg6-g8 #\n\nsolution finished.\n";
        let p = parse(text);
        let s = paths(&p);
        has(&s, "1.Qd1-d5!");
        has(&s, "1.Kh7-g6 Kf8-e8 2.Rg6-g8#");
        assert_eq!(s.len(), 2, "{s:?}");
        // Without a piece-count line (Popeye's NoBoard) nothing is a header.
        assert_eq!(
            paths(&parse("\n   1.Qd1-d5 !\n\nsolution finished.\n")).len(),
            1
        );
    }

    #[test]
    fn diff_detects_changes() {
        for text in [
            TREE_THREAT,
            TREE_TRIES,
            TREE_SET_PLAY,
            HELP_SET_PLAY,
            SERIES,
        ] {
            let p = parse(text);
            assert!(diff(&p, &p).is_empty());
        }
        // Whitespace and order do not matter.
        let reordered = "  1.Ra8-d8 Bg3-d6 2.e7-e5   Bg4-h5 #\n\n  1...Bg4-e2  2.0-0-0 Be2-a6 #\n";
        assert!(diff(&parse(HELP_SET_PLAY), &parse(reordered)).is_empty());

        let changed = TREE_TRIES.replace("2.Sc5-b7 #\n    but", "2.Sc5-b8 #\n    but");
        assert_ne!(changed, TREE_TRIES);
        let d = diff(&parse(TREE_TRIES), &parse(&changed));
        assert_eq!(
            d,
            [
                "- 1.Sg6*f8? > 1...Bb5-d7 > 2.Sc5-b7#",
                "+ 1.Sg6*f8? > 1...Bb5-d7 > 2.Sc5-b8#",
            ]
        );
        let changed = TREE_TRIES.replace("1...Bb5-a6 !", "1...Bb5-a6 + !");
        assert_eq!(diff(&parse(TREE_TRIES), &parse(&changed)).len(), 2);
        let changed = SERIES.replace("Bb2*g7 =", "Bb2*g7 #");
        assert_eq!(diff(&parse(SERIES), &parse(&changed)).len(), 2);
    }

    /// Directory of the Popeye corpus; `SOLUTION_TEXT_DATA_DIR` overrides it.
    fn corpus_dir() -> std::path::PathBuf {
        match std::env::var_os("SOLUTION_TEXT_DATA_DIR") {
            Some(dir) => dir.into(),
            None => concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/popeye").into(),
        }
    }

    fn is_move_line(line: &str) -> bool {
        let rest = line.trim_start();
        line.len() > rest.len()
            && rest
                .split_whitespace()
                .next()
                .is_some_and(|t| split_number(t).is_some())
    }

    #[test]
    fn parses_whole_corpus() {
        let dir = corpus_dir();
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        let bench = dir.join("bench");
        if let Ok(entries) = std::fs::read_dir(&bench) {
            files.extend(entries.map(|e| e.unwrap().path()));
        }
        files.retain(|f| f.extension().is_some_and(|x| x == "out"));
        files.sort();
        assert!(files.len() >= 199, "only {} .out files", files.len());
        let mut without_solution = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            let p = parse(&text);
            let name = file.display();
            let s = paths(&p);
            assert_eq!(p.is_empty(), s.is_empty(), "{name}");
            if p.is_empty() {
                without_solution.push(file.file_name().unwrap().to_string_lossy().into_owned());
            }
            assert!(diff(&p, &p).is_empty());
            // Every numbered line became a node or a line solution.
            let move_lines = text.lines().filter(|l| is_move_line(l)).count();
            assert_eq!(move_lines, p.nodes.len() + p.lines.len(), "{name}");
            for ignored in &p.ignored {
                assert!(!is_move_line(ignored), "{name}: ignored {ignored:?}");
            }
            // Tree invariants: parents come first and are one or two plies up
            // (two for threat lines); only tries have refutations.
            for (i, n) in p.nodes.iter().enumerate() {
                if let Some(pi) = n.parent {
                    assert!(pi < i);
                    let parent = &p.nodes[pi];
                    let step = if n.kind == Kind::Threat { 2 } else { 1 };
                    assert_eq!(parent.depth + step, n.depth, "{name}: {}", n.mv);
                    if n.kind == Kind::Refutation {
                        assert_eq!(parent.kind, Kind::Try, "{name}: {}", n.mv);
                    }
                    if n.kind == Kind::Threat {
                        assert!(parent.threat, "{name}: {}", n.mv);
                    }
                } else {
                    assert!(n.depth == 0 || n.set_play, "{name}: orphan {}", n.mv);
                }
            }
        }
        // d3_2255 (Popeye bug report 181) has no solution: Popeye prints
        // nothing but `solution finished.`.  Every other file yields paths.
        assert_eq!(without_solution, ["d3_2255.out"]);
    }
}
