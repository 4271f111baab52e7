//! Popeye input files (`.inp`, `.pop`): the English keywords of Popeye's input language,
//! case-insensitive, with Popeye's unique-prefix abbreviations (`stip`, `opt`, `endp`).
//!
//! Supported: `BeginProblem` / `EndProblem` / `NextProblem`, `Author`, `Origin`, `Title`,
//! `Award`, `Remark` (free text to the end of the line), `Protocol FILE`, `Pieces`,
//! `Forsyth`, `InitialGameArray`, `Stipulation`, `Condition`, `Option`, `Twin` and
//! `ZeroPosition` with the twinning commands `Move`, `Exchange`, `Remove`, `Add`,
//! `Substitute`, `Rotate`, `Mirror`, `Shift`, `Stipulation`, `Condition`, `PolishType` and
//! `Continued`. The lexer, the option / condition / twin parsers and the piece-list parser
//! are shared with the YAML reader (YACPDB fields hold Popeye syntax).

use super::{
    CondAt, Draft, EpSpec, Mirror, PiecePlacement, Problem, ProblemError, Twin, TwinCommand,
};
use super::{known_conditions, parse_piece_code, parse_square_text, twin_label};
use crate::core::square::square;
use crate::core::{Color, Piece, Square, parse_square, square_name};
use crate::position::{BLACK_KINGSIDE, BLACK_QUEENSIDE, WHITE_KINGSIDE, WHITE_QUEENSIDE};
use crate::rules::Condition;
use crate::search::Stipulation;

// ---------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------

/// Popeye's token separators (blank, tab, newline, `;` and `,`).
const SEPARATORS: [char; 6] = [' ', '\t', '\n', '\r', ';', ','];

/// A token and where it starts (1-based; line 0 means "unknown").
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok<'a> {
    pub text: &'a str,
    pub line: usize,
    pub col: usize,
}

/// Splits text into Popeye tokens, tracking lines and columns.
#[derive(Clone, Debug)]
pub(crate) struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    line: usize,
    col: usize,
}

impl<'a> Lexer<'a> {
    /// `line`/`col`: where `src` starts in its file (line 0: unknown).
    pub fn new(src: &'a str, line: usize, col: usize) -> Lexer<'a> {
        Lexer {
            src,
            pos: 0,
            line,
            col,
        }
    }

    fn peek_char(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek_char() {
            self.pos += c.len_utf8();
            if c == '\n' {
                if self.line > 0 {
                    self.line += 1;
                }
                self.col = 1;
            } else {
                self.col += 1;
            }
        }
    }

    /// The next token, or `None` at the end of the text.
    pub fn next_tok(&mut self) -> Option<Tok<'a>> {
        while self.peek_char().is_some_and(|c| SEPARATORS.contains(&c)) {
            self.bump();
        }
        let (start, line, col) = (self.pos, self.line, self.col);
        while self.peek_char().is_some_and(|c| !SEPARATORS.contains(&c)) {
            self.bump();
        }
        (self.pos > start).then(|| Tok {
            text: &self.src[start..self.pos],
            line,
            col,
        })
    }

    pub fn peek_tok(&self) -> Option<Tok<'a>> {
        self.clone().next_tok()
    }

    /// The rest of the current line (free text after `Author` and the like), trimmed.
    pub fn rest_of_line(&mut self) -> String {
        while self
            .peek_char()
            .is_some_and(|c| matches!(c, ' ' | '\t' | ';' | '.' | ','))
        {
            self.bump();
        }
        let start = self.pos;
        while self.peek_char().is_some_and(|c| c != '\n') {
            self.bump();
        }
        self.src[start..self.pos].trim().to_string()
    }

    /// The rest of the line with only blanks skipped before it (a file name: `./x`).
    pub fn rest_of_line_raw(&mut self) -> String {
        while self.peek_char().is_some_and(|c| matches!(c, ' ' | '\t')) {
            self.bump();
        }
        let start = self.pos;
        while self.peek_char().is_some_and(|c| c != '\n') {
            self.bump();
        }
        self.src[start..self.pos].trim().to_string()
    }
}

/// Where a reader's errors are: the file and, for one problem (a Popeye problem, a YAML
/// document), the prefix naming it; builds the [`ProblemError`]s.
pub(crate) struct ErrorSite<'f> {
    pub file: &'f str,
    /// Put before every message, e.g. "problem 2: ".
    pub prefix: String,
}

impl ErrorSite<'_> {
    pub fn err(&self, line: usize, col: usize, message: impl AsRef<str>) -> ProblemError {
        ProblemError {
            file: self.file.to_string(),
            line: (line > 0).then_some(line),
            column: (line > 0 && col > 0).then_some(col),
            message: format!("{}{}", self.prefix, message.as_ref()),
        }
    }

    pub fn at(&self, t: &Tok, message: impl AsRef<str>) -> ProblemError {
        self.err(t.line, t.col, message)
    }
}

// ---------------------------------------------------------------------------------------
// Keywords
// ---------------------------------------------------------------------------------------

/// Result of matching a token against a keyword list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kw {
    One(&'static str),
    No,
    Ambiguous(Vec<&'static str>),
}

/// Popeye's keyword matching: case-insensitive; a keyword written out in full wins,
/// otherwise the token must be the start of exactly one keyword.
pub(crate) fn kw(token: &str, list: &[&'static str]) -> Kw {
    if token.is_empty() {
        return Kw::No;
    }
    if let Some(k) = list.iter().find(|k| k.eq_ignore_ascii_case(token)) {
        return Kw::One(k);
    }
    let t = token.to_ascii_lowercase();
    let m: Vec<&'static str> = list
        .iter()
        .copied()
        .filter(|k| k.to_ascii_lowercase().starts_with(&t))
        .collect();
    match m.len() {
        0 => Kw::No,
        1 => Kw::One(m[0]),
        _ => Kw::Ambiguous(m),
    }
}

/// Commands of a problem (Popeye's "initial twin" tokens).
const BODY: &[&str] = &[
    "Remark",
    "SStipulation",
    "Author",
    "Origin",
    "Pieces",
    "Condition",
    "Option",
    "Stipulation",
    "Protocol",
    "Title",
    "LaTeX",
    "LaTeXPieces",
    "Award",
    "InitialGameArray",
    "Forsyth",
];

/// Tokens that end a problem or a twin.
const ENDS: &[&str] = &["EndProblem", "NextProblem", "Twin", "ZeroPosition"];

const BEGIN: &[&str] = &["BeginProblem"];

/// Twinning commands.
const TWIN_COMMANDS: &[&str] = &[
    "Move",
    "Exchange",
    "Stipulation",
    "SStipulation",
    "Add",
    "Remove",
    "Continued",
    "Rotate",
    "Condition",
    "PolishType",
    "Mirror",
    "Shift",
    "Substitute",
];

/// Popeye's options (English), plus chainmate's `ShortVariations`.
pub(crate) const OPTIONS: &[&str] = &[
    "Defence",
    "SetPlay",
    "WhiteToPlay",
    "Variations",
    "MoveNumbers",
    "StartMoveNumber",
    "NoWk",
    "Duplex",
    "NoBk",
    "Threat",
    "NoThreat",
    "Try",
    "MaxSolutions",
    "MaxFlightsquares",
    "Search",
    "MultiSolutions",
    "NoSymmetry",
    "NonTrivial",
    "KeepMatingPiece",
    "EnPassant",
    "NoBoard",
    "NoShortVariations",
    "HalfDuplex",
    "PostKeyPlay",
    "Intelligent",
    "MaxTime",
    "NoCastling",
    "Quodlibet",
    "StopOnShortSolutions",
    "Beep",
    "SuppressGrid",
    "WriteGrid",
    "CastlingMutuallyExclusive",
    "GoalIsEnd",
    "unpublishedoption",
    "NullMoves",
    "UpToMoveNumber",
    "TrivialTriesAvoid",
    "MatesIn1",
    "ShortVariations",
];

const COLOURS: &[&str] = &["White", "Black", "Neutral", "TotalInvisible"];

/// Popeye's piece attributes (none is supported).
const ATTRIBUTES: &[&str] = &[
    "Royal",
    "Kamikaze",
    "Paralysing",
    "Chameleon",
    "Jigger",
    "Volage",
    "Functionary",
    "HalfNeutral",
    "HurdleColourChanging",
    "Protean",
    "Magic",
    "Uncapturable",
    "Patrol",
    "Frischauf",
    "Bul",
    "Dob",
    "Anda",
    "AndaInverse",
    "AliceA",
    "AliceB",
];

/// What a token is at the level of a problem's commands.
enum Class {
    Body(&'static str),
    End(&'static str),
    Begin,
    Ambiguous(Vec<&'static str>),
    Unknown,
}

/// `BeginProblem` written out far enough not to be mistaken for anything else.
fn is_begin(text: &str) -> bool {
    text.len() >= 5 && matches!(kw(text, BEGIN), Kw::One(_))
}

fn classify(text: &str) -> Class {
    match kw(text, BODY) {
        Kw::One(k) => return Class::Body(k),
        Kw::Ambiguous(v) => return Class::Ambiguous(v),
        Kw::No => {}
    }
    match kw(text, ENDS) {
        Kw::One(k) => Class::End(k),
        Kw::Ambiguous(v) => Class::Ambiguous(v),
        Kw::No if is_begin(text) => Class::Begin,
        Kw::No => Class::Unknown,
    }
}

/// Does the token start a new command of the problem (so it ends a list)?
fn is_section_keyword(text: &str) -> bool {
    matches!(
        classify(text),
        Class::Body(_) | Class::End(_) | Class::Begin
    )
}

fn is_twin_command(text: &str) -> bool {
    matches!(kw(text, TWIN_COMMANDS), Kw::One(_))
}

// ---------------------------------------------------------------------------------------
// Small parsers shared with the YAML reader
// ---------------------------------------------------------------------------------------

/// A run of squares such as `b5e5f4`.
pub(crate) fn square_list(site: &ErrorSite, t: &Tok) -> Result<Vec<Square>, ProblemError> {
    let text = t.text;
    if !text.is_ascii() || text.is_empty() || text.len() % 2 != 0 {
        return Err(site.at(
            t,
            format!("bad square list '{text}' (expected squares such as e4 or b5e5f4)"),
        ));
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            parse_square(&text[i..i + 2]).ok_or_else(|| {
                site.err(
                    t.line,
                    t.col + i,
                    format!(
                        "bad square '{}' in '{text}' (squares are a1 to h8)",
                        &text[i..i + 2]
                    ),
                )
            })
        })
        .collect()
}

/// `n` squares from the next tokens (each token a square or a run of squares).
fn squares<'a>(
    lx: &mut Lexer<'a>,
    site: &ErrorSite,
    after: &Tok,
    n: usize,
) -> Result<Vec<Square>, ProblemError> {
    let mut out = Vec::new();
    while out.len() < n {
        let Some(t) = lx.next_tok() else {
            return Err(site.at(after, format!("'{}' needs {n} squares", after.text)));
        };
        out.extend(square_list(site, &t)?);
    }
    if out.len() > n {
        return Err(site.at(
            after,
            format!("'{}' takes {n} squares, found {}", after.text, out.len()),
        ));
    }
    Ok(out)
}

fn number(lx: &mut Lexer, site: &ErrorSite, after: &Tok, what: &str) -> Result<u32, ProblemError> {
    match lx.next_tok() {
        Some(t) => t
            .text
            .parse::<u32>()
            .map_err(|_| site.at(&t, format!("{what} needs a number, found '{}'", t.text))),
        None => Err(site.at(after, format!("{what} needs a number"))),
    }
}

fn optional_number(lx: &mut Lexer) -> Option<u32> {
    let n = lx.peek_tok()?.text.parse::<u32>().ok()?;
    lx.next_tok();
    Some(n)
}

/// A token of a piece list.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum PieceTok<'a> {
    /// A code followed by something shaped like squares: `Kc3`, `Pb5e5f4`, `AMa1`.
    Piece {
        code: &'a str,
        squares: &'a str,
    },
    /// A code alone (its squares are the next token): `K c3`.
    Code(&'a str),
    Other,
}

fn looks_like_squares(s: &str) -> bool {
    !s.is_empty()
        && s.len() % 2 == 0
        && s.as_bytes()
            .chunks(2)
            .all(|p| p[0].is_ascii_alphabetic() && p[1].is_ascii_digit())
}

/// Popeye's rule: a token of odd length starts with a one-letter code, one of even length
/// with a two-letter code; the rest are squares.
pub(crate) fn classify_piece_token(text: &str) -> PieceTok<'_> {
    if text.is_empty() || !text.is_ascii() {
        return PieceTok::Other;
    }
    let n = if text.len() % 2 == 1 { 1 } else { 2 };
    let (code, rest) = text.split_at(n);
    if !code.chars().all(|c| c.is_ascii_alphanumeric()) {
        return PieceTok::Other;
    }
    if rest.is_empty() {
        PieceTok::Code(code)
    } else if looks_like_squares(rest) {
        PieceTok::Piece {
            code,
            squares: rest,
        }
    } else {
        PieceTok::Other
    }
}

/// Placements for `code` on each square of `squares`; `col` is where the piece token
/// starts and `first` where its first square starts (the first square's errors point at
/// the piece, the others' at their square).
fn push_squares(
    out: &mut Vec<PiecePlacement>,
    color: Color,
    code: &str,
    squares: &str,
    line: usize,
    col: usize,
    first: usize,
) {
    for i in (0..squares.len()).step_by(2) {
        out.push(PiecePlacement {
            color,
            code: code.to_ascii_uppercase(),
            square: squares[i..i + 2].to_string(),
            line: (line > 0).then_some(line),
            column: (line > 0).then_some(if i == 0 { col } else { first + i }),
        });
    }
}

/// Parses a piece list `White Kc3 Rf5 Pb5e5f4 Black Ke8 ...` (Popeye's `Pieces`, a
/// twin's `Add`) up to the first token that is not part of it, which is returned. In a
/// file the list ends at a keyword (and, in a twin, at a twinning command); elsewhere
/// (YAML) it runs to the end of the text.
pub(crate) fn parse_piece_list<'a>(
    lx: &mut Lexer<'a>,
    site: &ErrorSite,
    out: &mut Vec<PiecePlacement>,
    in_file: bool,
    in_twin: bool,
    keyword: &Tok,
) -> Result<Option<Tok<'a>>, ProblemError> {
    let mut color: Option<Color> = None;
    let mut tok = lx.next_tok();
    while let Some(t) = tok {
        match classify_piece_token(t.text) {
            PieceTok::Piece { code, squares } => {
                let Some(c) = color else {
                    return Err(site.at(
                        &t,
                        format!(
                            "'{}' has no colour: write White or Black before the pieces",
                            t.text
                        ),
                    ));
                };
                push_squares(out, c, code, squares, t.line, t.col, t.col + code.len());
                tok = lx.next_tok();
                continue;
            }
            PieceTok::Code(code) => {
                if let (Some(c), Some(n)) = (color, lx.peek_tok())
                    && looks_like_squares(n.text)
                {
                    lx.next_tok();
                    push_squares(out, c, code, n.text, t.line, t.col, n.col);
                    tok = lx.next_tok();
                    continue;
                }
            }
            PieceTok::Other => {}
        }
        if let Kw::One(c) = kw(t.text, COLOURS) {
            color = Some(match c {
                "White" => Color::White,
                "Black" => Color::Black,
                "Neutral" => return Err(site.at(&t, "neutral pieces are not supported")),
                _ => return Err(site.at(&t, "total invisible pieces are not supported")),
            });
            tok = lx.next_tok();
            continue;
        }
        if color.is_some()
            && ((in_file && is_section_keyword(t.text)) || (in_twin && is_twin_command(t.text)))
        {
            return Ok(Some(t));
        }
        if t.text.len() >= 3
            && let Kw::One(a) = kw(t.text, ATTRIBUTES)
        {
            return Err(site.at(
                &t,
                format!(
                    "piece attribute '{a}' is not supported (chainmate has no piece attributes)"
                ),
            ));
        }
        return Err(bad_piece_token(site, &t, color.is_none()));
    }
    if color.is_none() {
        return Err(site.at(
            keyword,
            format!(
                "'{}' needs pieces, e.g. White Ke1 Qd1 Black Ke8",
                keyword.text
            ),
        ));
    }
    Ok(None)
}

fn bad_piece_token(site: &ErrorSite, t: &Tok, no_colour: bool) -> ProblemError {
    if no_colour {
        return site.at(
            t,
            format!(
                "expected a colour (White or Black) before the pieces, found '{}'",
                t.text
            ),
        );
    }
    if t.text.contains('/') {
        return site.at(t, format!("hunters such as '{}' are not supported", t.text));
    }
    if let PieceTok::Code(code) = classify_piece_token(t.text) {
        return site.at(
            t,
            format!("piece code '{code}' must be followed by its squares, e.g. {code}e4"),
        );
    }
    site.at(
        t,
        format!(
            "cannot read '{}' as a piece: write a piece code and its squares, e.g. Ke1, Sf3 or Pb5e5f4 \
             (the knight is S, N is the nightrider)",
            t.text
        ),
    )
}

/// Resolves a placement for a twin's `Add`.
fn resolve(site: &ErrorSite, p: &PiecePlacement) -> Result<(Piece, Square), ProblemError> {
    let e = |m: String| site.err(p.line.unwrap_or(0), p.column.unwrap_or(0), m);
    let kind = parse_piece_code(&p.code).map_err(e)?;
    let sq = parse_square_text(&p.square).map_err(e)?;
    Ok((Piece::new(p.color, kind), sq))
}

/// Conditions named by tokens: the whole text as one name first (names with blanks),
/// else each token as one condition.
pub(crate) fn resolve_conditions(
    site: &ErrorSite,
    at: &Tok,
    toks: &[Tok],
) -> Result<Vec<CondAt>, ProblemError> {
    let Some(first) = toks.first() else {
        return Err(site.at(
            at,
            format!(
                "'{}' needs a condition (chainmate knows: {})",
                at.text,
                known_conditions()
            ),
        ));
    };
    let loc = |t: &Tok| {
        (
            (t.line > 0).then_some(t.line),
            (t.line > 0).then_some(t.col),
        )
    };
    let joined = toks.iter().map(|t| t.text).collect::<Vec<_>>().join(" ");
    if let Some(c) = Condition::parse(&joined) {
        let (l, col) = loc(first);
        return Ok(vec![(c, l, col)]);
    }
    toks.iter()
        .map(|t| {
            let (l, col) = loc(t);
            Condition::parse(t.text)
                .map(|c| (c, l, col))
                .ok_or_else(|| {
                    site.at(
                        t,
                        format!(
                            "unknown condition '{}' (chainmate knows: {})",
                            t.text,
                            known_conditions()
                        ),
                    )
                })
        })
        .collect()
}

/// The tokens of a `Condition` command, up to the next keyword.
fn parse_condition_list<'a>(
    lx: &mut Lexer<'a>,
    site: &ErrorSite,
    keyword: &Tok,
    in_file: bool,
    in_twin: bool,
) -> Result<(Vec<CondAt>, Option<Tok<'a>>), ProblemError> {
    let mut toks = Vec::new();
    let mut tok = lx.next_tok();
    while let Some(t) = tok {
        if (in_file && is_section_keyword(t.text)) || (in_twin && is_twin_command(t.text)) {
            break;
        }
        toks.push(t);
        tok = lx.next_tok();
    }
    Ok((resolve_conditions(site, keyword, &toks)?, tok))
}

/// Parses options starting with `first` (Popeye's `Option` list, a YACPDB `options`
/// entry). In a file the list ends at the first keyword, which is returned.
pub(crate) fn parse_option_list<'a>(
    lx: &mut Lexer<'a>,
    site: &ErrorSite,
    d: &mut Draft,
    first: Option<Tok<'a>>,
    in_file: bool,
    keyword: &Tok,
) -> Result<Option<Tok<'a>>, ProblemError> {
    let mut count = 0;
    let mut tok = first;
    while let Some(t) = tok {
        let Some(name) = option_name(site, &t, in_file)? else {
            break;
        };
        count += 1;
        apply_option(lx, site, d, name, &t)?;
        tok = lx.next_tok();
    }
    if count == 0 {
        return Err(site.at(
            keyword,
            format!("'{}' needs at least one option", keyword.text),
        ));
    }
    Ok(tok)
}

/// The option token `t` names; `None` for the keyword that ends the list in a file.
fn option_name(
    site: &ErrorSite,
    t: &Tok,
    in_file: bool,
) -> Result<Option<&'static str>, ProblemError> {
    match kw(t.text, OPTIONS) {
        Kw::One(k) => Ok(Some(k)),
        Kw::Ambiguous(v) => Err(site.at(
            t,
            format!("ambiguous option '{}' (could be {})", t.text, v.join(", ")),
        )),
        Kw::No => {
            if in_file && is_section_keyword(t.text) {
                return Ok(None);
            }
            let hint = if Condition::parse(t.text).is_some() {
                " (that is a condition: give it with Condition)"
            } else {
                ""
            };
            Err(site.at(t, format!("unknown option '{}'{hint}", t.text)))
        }
    }
}

/// Option `name` (its token `t`), with the arguments it reads from `lx`, into the draft.
fn apply_option(
    lx: &mut Lexer,
    site: &ErrorSite,
    d: &mut Draft,
    name: &str,
    t: &Tok,
) -> Result<(), ProblemError> {
    let o = &mut d.options;
    match name {
        "Try" => {
            o.tries = true;
            o.defence = 1;
        }
        "Defence" => {
            o.defence = number(lx, site, t, "Defence")?;
            o.tries = true;
        }
        "SetPlay" => o.set_play = true,
        "Variations" => o.variations = true,
        "Threat" => o.threat = Some(number(lx, site, t, "Threat")?),
        "NoThreat" => o.no_threat = true,
        "MaxSolutions" => o.max_solutions = Some(number(lx, site, t, "MaxSolutions")?),
        "NoShortVariations" => o.short_variations_off = true,
        "ShortVariations" => o.short_variations_off = false,
        "NoBoard" => o.no_board = true,
        "Intelligent" => {
            o.intelligent = true;
            optional_number(lx);
        }
        "MoveNumbers" => o.move_numbers = true,
        "Duplex" | "HalfDuplex" => {
            let d = if name == "Duplex" {
                super::Duplex::Full
            } else {
                super::Duplex::Half
            };
            if o.duplex != super::Duplex::Off && o.duplex != d {
                return Err(site.at(t, "options Duplex and HalfDuplex exclude each other"));
            }
            o.duplex = d;
        }
        "WhiteToPlay" => o.white_to_play = true,
        // Accepted without effect, for a documented reason: chainmate prints no grid
        // (it has no grid chess, where Popeye draws one), and makes no sound.
        "SuppressGrid" => {}
        "Beep" => {
            optional_number(lx);
        }
        "MaxTime" => o.max_time = Some(number(lx, site, t, "MaxTime")?),
        "EnPassant" => d.ep = Some(en_passant_option(lx, site, t)?),
        "NoCastling" => d.no_castling |= no_castling_option(lx, site, t)?,
        other => {
            return Err(site.at(t, format!("option '{other}' is not supported by chainmate")));
        }
    }
    Ok(())
}

/// The squares after `EnPassant` (its token `t`).
fn en_passant_option(lx: &mut Lexer, site: &ErrorSite, t: &Tok) -> Result<EpSpec, ProblemError> {
    let Some(s) = lx.next_tok() else {
        return Err(site.at(
            t,
            "EnPassant needs the squares of the double step, e.g. EnPassant e7e6e5",
        ));
    };
    Ok(EpSpec {
        squares: square_list(site, &s)?,
        text: s.text.to_string(),
        line: (s.line > 0).then_some(s.line),
        column: (s.line > 0).then_some(s.col),
    })
}

/// The castling rights the squares after `NoCastling` (its token `t`) take away.
fn no_castling_option(lx: &mut Lexer, site: &ErrorSite, t: &Tok) -> Result<u8, ProblemError> {
    let Some(s) = lx.next_tok() else {
        return Err(site.at(t, "NoCastling needs squares, e.g. NoCastling a1e8"));
    };
    let mut rights = 0;
    for (i, sq) in square_list(site, &s)?.into_iter().enumerate() {
        rights |= match square_name(sq).as_str() {
            "a1" => WHITE_QUEENSIDE,
            "e1" => WHITE_KINGSIDE | WHITE_QUEENSIDE,
            "h1" => WHITE_KINGSIDE,
            "a8" => BLACK_QUEENSIDE,
            "e8" => BLACK_KINGSIDE | BLACK_QUEENSIDE,
            "h8" => BLACK_KINGSIDE,
            other => {
                return Err(site.err(
                    s.line,
                    s.col + 2 * i,
                    format!(
                        "NoCastling: {other} is not a castling square (a1, e1, h1, a8, e8, h8)"
                    ),
                ));
            }
        };
    }
    Ok(rights)
}

/// One YACPDB-style `options` entry (also the extra fields of a `.fen` line): Popeye
/// options such as `SetPlay` or `Defence 1`, or a condition such as `Teleport`.
pub(crate) fn apply_entry(
    site: &ErrorSite,
    d: &mut Draft,
    text: &str,
    line: usize,
    col: usize,
) -> Result<(), ProblemError> {
    let mut lx = Lexer::new(text, line, col);
    let Some(first) = lx.next_tok() else {
        return Ok(());
    };
    if !matches!(kw(first.text, OPTIONS), Kw::No) {
        parse_option_list(&mut lx, site, d, Some(first), false, &first)?;
        return Ok(());
    }
    let mut toks = vec![first];
    toks.extend(std::iter::from_fn(|| lx.next_tok()));
    let joined = toks.iter().map(|t| t.text).collect::<Vec<_>>().join(" ");
    if Condition::parse(&joined).is_none() && Condition::parse(first.text).is_none() {
        return Err(site.at(
            &first,
            format!(
                "unknown option or condition '{}' (options are Popeye's, e.g. SetPlay, Defence 1; \
                 chainmate's conditions: {})",
                text.trim(),
                known_conditions()
            ),
        ));
    }
    d.conditions
        .extend(resolve_conditions(site, &first, &toks)?);
    Ok(())
}

fn mirror_kind(spec: &str) -> Option<Mirror> {
    match spec.to_ascii_lowercase().as_str() {
        "a1<-->h1" | "h1<-->a1" => Some(Mirror::Files),
        "a1<-->a8" | "a8<-->a1" => Some(Mirror::Ranks),
        "a1<-->h8" | "h8<-->a1" => Some(Mirror::A1H8),
        "a8<-->h1" | "h1<-->a8" => Some(Mirror::H1A8),
        _ => None,
    }
}

/// Parses twinning commands (after `Twin`, or a YACPDB twin's text). Returns whether the
/// twin is continued, its commands and, in a file, the keyword that ended it.
pub(crate) fn parse_twin_commands<'a>(
    lx: &mut Lexer<'a>,
    site: &ErrorSite,
    in_file: bool,
) -> Result<(bool, Vec<TwinCommand>, Option<Tok<'a>>), ProblemError> {
    let mut st = TwinParse {
        continued: false,
        cmds: Vec::new(),
        first: true,
    };
    let mut tok = lx.next_tok();
    while let Some(t) = tok {
        let name = match kw(t.text, TWIN_COMMANDS) {
            Kw::One(k) => k,
            Kw::Ambiguous(v) => {
                return Err(site.at(
                    &t,
                    format!(
                        "ambiguous twin command '{}' (could be {})",
                        t.text,
                        v.join(", ")
                    ),
                ));
            }
            Kw::No => {
                if in_file && is_section_keyword(t.text) {
                    break;
                }
                return Err(site.at(
                    &t,
                    format!(
                        "unknown twin command '{}' (expected Move, Exchange, Remove, Add, Substitute, Rotate, \
                         Mirror, Shift, Stipulation, Condition, PolishType or Continued)",
                        t.text
                    ),
                ));
            }
        };
        tok = twin_command(lx, site, name, &t, in_file, &mut st)?;
        st.first = false;
    }
    Ok((st.continued, st.cmds, tok))
}

struct TwinParse {
    continued: bool,
    cmds: Vec<TwinCommand>,
    first: bool,
}

/// One twinning command `name` (its keyword is `t`); returns the token after it.
fn twin_command<'a>(
    lx: &mut Lexer<'a>,
    site: &ErrorSite,
    name: &str,
    t: &Tok,
    in_file: bool,
    st: &mut TwinParse,
) -> Result<Option<Tok<'a>>, ProblemError> {
    match name {
        "Continued" => {
            if !st.first {
                return Err(site.at(t, "Continued must come first in a twin"));
            }
            st.continued = true;
        }
        "Move" | "Exchange" | "Shift" => {
            let s = squares(lx, site, t, 2)?;
            st.cmds.push(match name {
                "Move" => TwinCommand::Move(s[0], s[1]),
                "Exchange" => TwinCommand::Exchange(s[0], s[1]),
                _ => TwinCommand::Shift(s[0], s[1]),
            });
        }
        "Remove" => {
            let Some(s) = lx.next_tok() else {
                return Err(site.at(t, "Remove needs a square"));
            };
            st.cmds
                .extend(square_list(site, &s)?.into_iter().map(TwinCommand::Remove));
        }
        "Add" => {
            let mut placed = Vec::new();
            let next = parse_piece_list(lx, site, &mut placed, in_file, true, t)?;
            for p in &placed {
                let (piece, sq) = resolve(site, p)?;
                st.cmds.push(TwinCommand::Add(piece, sq));
            }
            return Ok(next);
        }
        "Substitute" => st.cmds.push(substitute_command(lx, site, t)?),
        "Rotate" => st.cmds.push(rotate_command(lx, site, t)?),
        "Mirror" => st.cmds.push(mirror_command(lx, site, t)?),
        "Stipulation" => {
            let Some(s) = lx.next_tok() else {
                return Err(site.at(t, "Stipulation needs a stipulation such as #2"));
            };
            st.cmds.push(TwinCommand::Stipulation(
                Stipulation::parse(s.text).map_err(|m| site.at(&s, m))?,
            ));
        }
        "SStipulation" => {
            return Err(site.at(
                t,
                "structured stipulations (SStipulation) are not supported; use Stipulation",
            ));
        }
        "Condition" => {
            let (cmd, next) = condition_command(lx, site, t, in_file)?;
            st.cmds.push(cmd);
            return Ok(next);
        }
        _ => st.cmds.push(TwinCommand::PolishType),
    }
    Ok(lx.next_tok())
}

/// `Substitute` (its token `t`) with its two piece codes.
fn substitute_command(
    lx: &mut Lexer,
    site: &ErrorSite,
    t: &Tok,
) -> Result<TwinCommand, ProblemError> {
    let mut kinds = Vec::new();
    for _ in 0..2 {
        let Some(c) = lx.next_tok() else {
            return Err(site.at(t, "Substitute needs two piece codes, e.g. Substitute R B"));
        };
        kinds.push(parse_piece_code(c.text).map_err(|m| site.at(&c, m))?);
    }
    Ok(TwinCommand::Substitute(kinds[0], kinds[1]))
}

/// `Rotate` (its token `t`) with its angle.
fn rotate_command(lx: &mut Lexer, site: &ErrorSite, t: &Tok) -> Result<TwinCommand, ProblemError> {
    let Some(a) = lx.next_tok() else {
        return Err(site.at(t, "Rotate needs an angle: 90, 180 or 270"));
    };
    match a.text {
        "90" | "180" | "270" => Ok(TwinCommand::Rotate(a.text.parse().unwrap_or(180))),
        _ => Err(site.at(
            &a,
            format!("cannot rotate by '{}': use 90, 180 or 270", a.text),
        )),
    }
}

/// `Mirror` (its token `t`) with its axis, written `a1<-->h1` or `a1 <--> h1`.
fn mirror_command(lx: &mut Lexer, site: &ErrorSite, t: &Tok) -> Result<TwinCommand, ProblemError> {
    let Some(a) = lx.next_tok() else {
        return Err(site.at(t, "Mirror needs an axis such as a1<-->h1"));
    };
    let mut spec = a.text.to_string();
    if !spec.contains("<-->")
        && let Some(arrow) = lx.peek_tok()
        && arrow.text == "<-->"
    {
        lx.next_tok();
        if let Some(b) = lx.next_tok() {
            spec = format!("{}<-->{}", a.text, b.text);
        }
    }
    let m = mirror_kind(&spec).ok_or_else(|| {
        site.at(
            &a,
            format!("unknown mirror '{spec}' (use a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1)"),
        )
    })?;
    Ok(TwinCommand::Mirror(m))
}

/// A twin's `Condition` (its token `t`): at most one besides orthodox; with the token
/// after its list.
fn condition_command<'a>(
    lx: &mut Lexer<'a>,
    site: &ErrorSite,
    t: &Tok,
    in_file: bool,
) -> Result<(TwinCommand, Option<Tok<'a>>), ProblemError> {
    let (conds, next) = parse_condition_list(lx, site, t, in_file, true)?;
    let mut chosen: Option<Condition> = None;
    for (c, _, _) in conds {
        if c == Condition::Orthodox || Some(c) == chosen {
            continue;
        }
        if let Some(prev) = chosen {
            return Err(site.at(
                t,
                format!(
                    "more than one condition ({} and {}): chainmate solves one condition per problem",
                    prev.name(),
                    c.name()
                ),
            ));
        }
        chosen = Some(c);
    }
    let cmd = TwinCommand::Condition(chosen.unwrap_or(Condition::Orthodox));
    Ok((cmd, next))
}

// ---------------------------------------------------------------------------------------
// Popeye's Forsyth and the game array
// ---------------------------------------------------------------------------------------

/// Popeye's Forsyth notation: Popeye's one-letter codes (`s` is the knight), `.xy` for a
/// two-letter code, an optional colour prefix `+`/`-`, digits for empty squares (two digits
/// allowed), `/` optional; squares run a8..h8, a7..h1 and trailing empties may be left out.
fn parse_forsyth(site: &ErrorSite, t: &Tok) -> Result<Vec<PiecePlacement>, ProblemError> {
    let text = t.text;
    if !text.is_ascii() {
        return Err(site.at(t, format!("cannot read Forsyth '{text}'")));
    }
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut idx = 0usize;
    let mut i = 0usize;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            let mut n = (c - b'0') as usize;
            i += 1;
            if i < b.len() && b[i].is_ascii_digit() {
                n = n * 10 + (b[i] - b'0') as usize;
                i += 1;
            }
            idx += n;
            continue;
        }
        if c == b'/' {
            i += 1;
            continue;
        }
        let col = t.col + i;
        let mut color = None;
        match c {
            b'+' => {
                color = Some(Color::White);
                i += 1;
            }
            b'-' => {
                color = Some(Color::Black);
                i += 1;
            }
            b'=' => return Err(site.err(t.line, col, "neutral pieces are not supported")),
            _ => {}
        }
        let code = if b.get(i) == Some(&b'.') {
            i += 3;
            text.get(i - 2..i)
        } else {
            i += 1;
            text.get(i - 1..i)
        };
        let Some(code) = code.filter(|c| c.chars().all(|ch| ch.is_ascii_alphanumeric())) else {
            return Err(site.err(
                t.line,
                col,
                format!("cannot read Forsyth '{text}' at column {}", i.min(b.len())),
            ));
        };
        let color = color.unwrap_or(if code.starts_with(|ch: char| ch.is_ascii_lowercase()) {
            Color::Black
        } else {
            Color::White
        });
        if idx >= 64 {
            return Err(site.err(
                t.line,
                col,
                format!("Forsyth '{text}' describes more than 64 squares"),
            ));
        }
        let sq = square((idx % 8) as u8, 7 - (idx / 8) as u8);
        out.push(PiecePlacement {
            color,
            code: code.to_ascii_uppercase(),
            square: square_name(sq),
            line: (t.line > 0).then_some(t.line),
            column: (t.line > 0).then_some(col),
        });
        idx += 1;
    }
    Ok(out)
}

fn initial_game_array(t: &Tok) -> Vec<PiecePlacement> {
    let mut out = Vec::new();
    let back = ["R", "S", "B", "Q", "K", "B", "S", "R"];
    for (color, back_rank, pawn_rank) in [(Color::White, 0u8, 1u8), (Color::Black, 7, 6)] {
        for f in 0..8u8 {
            for (code, r) in [(back[f as usize], back_rank), ("P", pawn_rank)] {
                out.push(PiecePlacement {
                    color,
                    code: code.to_string(),
                    square: square_name(square(f, r)),
                    line: Some(t.line),
                    column: Some(t.col),
                });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------

enum End {
    /// `EndProblem`.
    End,
    /// `NextProblem`.
    Next,
}

/// Reads every problem of a Popeye input file. `file` names it in errors. The first bad
/// problem's error is returned; [`parse_inp_all`] reads the other problems too.
pub fn parse_inp(file: &str, text: &str) -> Result<Vec<Problem>, ProblemError> {
    let (problems, mut errors) = parse_inp_all(file, text);
    if errors.is_empty() {
        Ok(problems)
    } else {
        Err(errors.swap_remove(0))
    }
}

/// Reads every problem of a Popeye input file: the good problems, and one error for each
/// problem that cannot be read (reading goes on after its `NextProblem` / `EndProblem`).
/// When the file holds more than one problem, messages say which ("problem 2: ..."). A
/// problem's `index` counts the bad problems before it too.
pub fn parse_inp_all(file: &str, text: &str) -> (Vec<Problem>, Vec<ProblemError>) {
    let site = ErrorSite {
        file,
        prefix: String::new(),
    };
    let mut lx = Lexer::new(text, 1, 1);
    let mut problems = Vec::new();
    // (index of the problem in the file, its error)
    let mut errors: Vec<(usize, ProblemError)> = Vec::new();
    let first = match begin_problem(&mut lx, &site) {
        Ok(t) => t,
        Err(e) => return (problems, vec![e]),
    };
    let mut start_line = Some(first.line);
    let mut count = 0usize;
    while let Some(line) = start_line {
        let index = count;
        count += 1;
        let end = match parse_problem(&mut lx, &site, line, index) {
            Ok((draft, end)) => {
                match draft.build(file, "", " (add e.g. `Stipulation #2`)") {
                    Ok(p) => problems.push(p),
                    Err(e) => errors.push((index, e)),
                }
                Some(end)
            }
            Err(e) => {
                errors.push((index, e));
                skip_to_end(&mut lx)
            }
        };
        start_line = end.and_then(|end| next_problem_line(&mut lx, end));
    }
    let errors = errors
        .into_iter()
        .map(|(i, mut e)| {
            if count > 1 {
                e.message = format!("problem {}: {}", i + 1, e.message);
            }
            e
        })
        .collect();
    (problems, errors)
}

/// The file's first token, which must be `BeginProblem`.
fn begin_problem<'a>(lx: &mut Lexer<'a>, site: &ErrorSite) -> Result<Tok<'a>, ProblemError> {
    let Some(first) = lx.next_tok() else {
        return Err(site.err(
            0,
            0,
            "the file is empty (a Popeye file starts with BeginProblem)",
        ));
    };
    if matches!(kw(first.text, BEGIN), Kw::One(_)) {
        return Ok(first);
    }
    let lower = first.text.to_ascii_lowercase();
    let translated = lower.len() >= 4
        && ("anfangproblem".starts_with(&lower) || "debutprobleme".starts_with(&lower));
    let message = if translated {
        format!(
            "'{}': only Popeye's English keywords are supported (BeginProblem, Pieces, ...)",
            first.text
        )
    } else {
        format!(
            "a Popeye file starts with BeginProblem, found '{}'",
            first.text
        )
    };
    Err(site.at(&first, message))
}

/// After a problem that ended with `end`: the line the next problem starts on, or `None`
/// at the end of the file.
fn next_problem_line(lx: &mut Lexer, end: End) -> Option<usize> {
    match end {
        End::Next => {
            if lx.peek_tok().is_some_and(|n| is_begin(n.text)) {
                lx.next_tok();
            }
            lx.peek_tok().map(|n| n.line)
        }
        End::End => {
            // Popeye stops at EndProblem; chainmate also reads a further BeginProblem.
            while let Some(t) = lx.next_tok() {
                if is_begin(t.text) {
                    return Some(t.line);
                }
            }
            None
        }
    }
}

/// After an error inside a problem: skips to its end (`NextProblem`, `EndProblem`, or the
/// `BeginProblem` of the next one). `None` at the end of the file.
fn skip_to_end(lx: &mut Lexer) -> Option<End> {
    loop {
        if lx.peek_tok().is_some_and(|t| is_begin(t.text)) {
            return Some(End::Next);
        }
        let t = lx.next_tok()?;
        match classify(t.text) {
            Class::End("EndProblem") => return Some(End::End),
            Class::End("NextProblem") => return Some(End::Next),
            _ => {}
        }
    }
}

fn unknown_keyword(site: &ErrorSite, t: &Tok, class: Class) -> ProblemError {
    match class {
        Class::Ambiguous(v) => site.at(t, format!("ambiguous keyword '{}' (could be {})", t.text, v.join(", "))),
        Class::Begin => site.at(t, "BeginProblem inside a problem: end the previous one with EndProblem or NextProblem"),
        _ => site.at(
            t,
            format!(
                "unknown keyword '{}' (expected Pieces, Stipulation, Option, Condition, Twin, Author, Origin, \
                 Title, Award, Remark, Forsyth or EndProblem)",
                t.text
            ),
        ),
    }
}

fn parse_problem<'a>(
    lx: &mut Lexer<'a>,
    site: &ErrorSite,
    line: usize,
    index: usize,
) -> Result<(Draft, End), ProblemError> {
    let mut d = Draft::new(line, index);
    let mut tok = lx.next_tok();
    loop {
        let Some(t) = tok else {
            return Err(site.err(
                line,
                0,
                format!("the problem starting at line {line} has no EndProblem"),
            ));
        };
        tok = match classify(t.text) {
            Class::Body(name) => body_command(lx, site, &mut d, name, &t)?,
            Class::End("EndProblem") => return Ok((d, End::End)),
            Class::End("NextProblem") => return Ok((d, End::Next)),
            Class::End(_) => return parse_twins(lx, site, d, t),
            other => return Err(unknown_keyword(site, &t, other)),
        };
    }
}

fn body_command<'a>(
    lx: &mut Lexer<'a>,
    site: &ErrorSite,
    d: &mut Draft,
    name: &str,
    t: &Tok<'a>,
) -> Result<Option<Tok<'a>>, ProblemError> {
    match name {
        "Remark" => d.remark.push(lx.rest_of_line()),
        "Author" => d.authors.push(lx.rest_of_line()),
        "Origin" => d.source.push(lx.rest_of_line()),
        "Title" => d.title.push(lx.rest_of_line()),
        "Award" => d.award = Some(lx.rest_of_line()),
        "Protocol" => {
            let file = lx.rest_of_line_raw();
            if file.is_empty() {
                return Err(site.at(t, "Protocol needs a file name"));
            }
            d.protocol = Some(file);
        }
        "Pieces" => return parse_piece_list(lx, site, &mut d.placements, true, false, t),
        "Condition" => {
            let (conds, next) = parse_condition_list(lx, site, t, true, false)?;
            d.conditions.extend(conds);
            return Ok(next);
        }
        "Option" => {
            let first = lx.next_tok();
            return parse_option_list(lx, site, d, first, true, t);
        }
        "Stipulation" => {
            let Some(s) = lx.next_tok() else {
                return Err(site.at(t, "Stipulation needs a stipulation such as #2"));
            };
            d.stipulation = Some(Stipulation::parse(s.text).map_err(|m| site.at(&s, m))?);
        }
        "SStipulation" => {
            return Err(site.at(
                t,
                "structured stipulations (SStipulation) are not supported; use Stipulation",
            ));
        }
        "LaTeX" | "LaTeXPieces" => return Err(site.at(t, format!("'{name}' is not supported"))),
        "InitialGameArray" => d.placements.extend(initial_game_array(t)),
        _ => {
            // Forsyth
            let Some(f) = lx.next_tok() else {
                return Err(site.at(t, "Forsyth needs a position"));
            };
            d.placements.extend(parse_forsyth(site, &f)?);
        }
    }
    Ok(lx.next_tok())
}

/// Reads the twins (`Twin` / `ZeroPosition` sections) up to the end of the problem.
fn parse_twins<'a>(
    lx: &mut Lexer<'a>,
    site: &ErrorSite,
    mut d: Draft,
    first: Tok<'a>,
) -> Result<(Draft, End), ProblemError> {
    let mut t = first;
    loop {
        let zero = matches!(kw(t.text, ENDS), Kw::One("ZeroPosition"));
        if zero && !d.twins.is_empty() {
            return Err(site.at(&t, "ZeroPosition must come before the first Twin"));
        }
        let zero_problem = if zero {
            true
        } else {
            d.twins.first().is_some_and(|tw| tw.label == "a")
        };
        let label = twin_label(d.twins.len() + usize::from(!zero_problem));
        let (continued, commands, mut tok) = parse_twin_commands(lx, site, true)?;
        if zero && continued {
            return Err(site.at(&t, "ZeroPosition cannot be Continued"));
        }
        d.twins.push(Twin {
            label,
            continued,
            commands,
            line: t.line,
        });
        loop {
            let Some(n) = tok else {
                return Err(site.err(
                    d.line,
                    0,
                    format!("the problem starting at line {} has no EndProblem", d.line),
                ));
            };
            match classify(n.text) {
                Class::Body("Remark") => {
                    // A remark between twins: Popeye prints it as it reads it, before
                    // solving the twin whose commands it follows.
                    let text = lx.rest_of_line();
                    let label = d
                        .twins
                        .last()
                        .map(|tw| tw.label.clone())
                        .unwrap_or_default();
                    d.twin_remarks.push((label, text.trim().to_string()));
                    tok = lx.next_tok();
                }
                Class::End("EndProblem") => return Ok((d, End::End)),
                Class::End("NextProblem") => return Ok((d, End::Next)),
                Class::End(_) => {
                    t = n;
                    break;
                }
                Class::Body(other) => {
                    return Err(site.at(
                        &n,
                        format!("{other} cannot follow a Twin: put it before the first Twin"),
                    ));
                }
                other => return Err(unknown_keyword(site, &n, other)),
            }
        }
    }
}

/// Problems written as a Popeye input file. Popeye input has no field for a stated
/// solution, keywords or comments; those are written as `Remark` lines only when there is
/// no remark, otherwise left out.
pub fn problems_to_inp(problems: &[super::Problem]) -> String {
    use crate::core::Color;
    let mut out = String::new();
    for (i, p) in problems.iter().enumerate() {
        out.push_str(if i == 0 {
            "BeginProblem\n"
        } else {
            "NextProblem\n"
        });
        for a in &p.authors {
            out.push_str(&format!("Author {a}\n"));
        }
        if let Some(x) = &p.source {
            for line in x.lines() {
                out.push_str(&format!("Origin {line}\n"));
            }
        }
        if let Some(x) = &p.award {
            for line in x.lines() {
                out.push_str(&format!("Award {line}\n"));
            }
        }
        if let Some(x) = &p.title {
            for line in x.lines() {
                out.push_str(&format!("Title {line}\n"));
            }
        }
        if let Some(x) = &p.remark {
            for line in x.lines() {
                out.push_str(&format!("Remark {line}\n"));
            }
        }
        if p.condition != crate::rules::Condition::Orthodox {
            out.push_str(&format!("Condition {}\n", p.condition.name()));
        }
        let mut options = p.option_words();
        let nc = p.no_castling_squares();
        if !nc.is_empty() {
            options.push(format!("NoCastling {}", nc.join("")));
        }
        if p.position.ep != crate::core::NO_SQUARE {
            options.push(format!(
                "EnPassant {}",
                crate::core::square_name(p.position.ep)
            ));
        }
        if !options.is_empty() {
            out.push_str(&format!("Option {}\n", options.join(" ")));
        }
        out.push_str(&format!("Stipulation {}\n", p.stipulation));
        out.push_str("Pieces\n");
        for (name, c) in [("White", Color::White), ("Black", Color::Black)] {
            let w = p.piece_words(c);
            if !w.is_empty() {
                out.push_str(&format!("  {name} {}\n", w.join(" ")));
            }
        }
        for t in &p.twins {
            let cmds: Vec<String> = t.commands.iter().map(super::command_text).collect();
            let cont = if t.continued { "Continued " } else { "" };
            out.push_str(&format!("Twin {cont}{}\n", cmds.join(" ")));
        }
    }
    if !problems.is_empty() {
        out.push_str("EndProblem\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_prefixes() {
        assert_eq!(kw("stip", BODY), Kw::One("Stipulation"));
        assert_eq!(kw("opt", BODY), Kw::One("Option"));
        assert_eq!(kw("endp", ENDS), Kw::One("EndProblem"));
        assert_eq!(kw("beginpr", BEGIN), Kw::One("BeginProblem"));
        assert!(matches!(kw("s", BODY), Kw::Ambiguous(_)));
        assert_eq!(kw("Try", OPTIONS), Kw::One("Try"));
        assert_eq!(kw("set", OPTIONS), Kw::One("SetPlay"));
        assert_eq!(kw("LATEX", BODY), Kw::One("LaTeX"));
        assert_eq!(kw("rem", TWIN_COMMANDS), Kw::One("Remove"));
    }

    #[test]
    fn piece_tokens() {
        assert_eq!(
            classify_piece_token("Kc3"),
            PieceTok::Piece {
                code: "K",
                squares: "c3"
            }
        );
        assert_eq!(
            classify_piece_token("Pb5e5f4"),
            PieceTok::Piece {
                code: "P",
                squares: "b5e5f4"
            }
        );
        assert_eq!(
            classify_piece_token("AMa1"),
            PieceTok::Piece {
                code: "AM",
                squares: "a1"
            }
        );
        assert_eq!(classify_piece_token("K"), PieceTok::Code("K"));
        assert_eq!(classify_piece_token("Black"), PieceTok::Other);
        assert_eq!(classify_piece_token("Twin"), PieceTok::Other);
        assert_eq!(
            classify_piece_token("Kj9"),
            PieceTok::Piece {
                code: "K",
                squares: "j9"
            }
        );
    }

    #[test]
    fn lexer_tracks_lines() {
        let mut lx = Lexer::new("a b\n  c;d\nAuthor  Some One \nx", 1, 1);
        let t: Vec<(String, usize, usize)> = std::iter::from_fn(|| lx.next_tok())
            .take(4)
            .map(|t| (t.text.to_string(), t.line, t.col))
            .collect();
        assert_eq!(t[2], ("c".to_string(), 2, 3));
        assert_eq!(t[3], ("d".to_string(), 2, 5));
        let a = lx.next_tok().unwrap();
        assert_eq!(a.text, "Author");
        assert_eq!(lx.rest_of_line(), "Some One");
        assert_eq!(lx.next_tok().unwrap().line, 4);
    }

    #[test]
    fn forsyth() {
        let site = ErrorSite {
            file: "t",
            prefix: String::new(),
        };
        let t = Tok {
            text: "4k3/8/8/8/8/8/.AM7/4K3",
            line: 1,
            col: 1,
        };
        let p = parse_forsyth(&site, &t).unwrap();
        let got: Vec<String> = p
            .iter()
            .map(|p| format!("{}{}{}", p.color, p.code, p.square))
            .collect();
        assert_eq!(got, ["blackKe8", "whiteAMa2", "whiteKe1"]);
    }
}
