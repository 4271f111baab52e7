//! Command-line interface (clap derive structs only).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "chainmate",
    version,
    about = "Chess problem solver and checker for fairy conditions"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve problems (YAML, Popeye .inp, .fen files or directories of them).
    Solve(SolveArgs),
    /// Validate problem files and print each problem's diagram and stipulation.
    Show(ShowArgs),
    /// Count leaf nodes of the legal move tree (move generator test).
    Perft(PerftArgs),
    /// Solve problems and judge them against their stated solutions.
    Check(CheckArgs),
    /// Convert a Popeye input file to YAML, or a YAML file to Popeye input (stdout).
    Convert(ConvertArgs),
    /// Replay a game or a move sequence and print each position's FEN.
    Replay(ReplayArgs),
    /// Check a stalemate claim: is the side not in check, with no legal move?
    Claim(ClaimArgs),
    /// Re-check a claim proof written by `claim --format json` (Combo: replays every combo
    /// and every king capture step by step), independently of the solver's search.
    VerifyClaim(VerifyClaimArgs),
    /// Write publication diagrams (SVG, PNG or LaTeX) of every problem and twin of the files.
    Diagram(DiagramArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) to stdout: `chainmate man > chainmate.1`.
    Man,
}

#[derive(Args, Debug, Clone)]
pub struct DiagramArgs {
    /// Problem files or directories; - reads standard input (format sniffed).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// SVG (the default, unless -o names a .png or .tex file).
    #[arg(long, conflicts_with_all = ["png", "latex"])]
    pub svg: bool,
    /// PNG, rendered from the SVG with the bundled font (needs -o when there are several
    /// diagrams).
    #[arg(long, conflicts_with = "latex")]
    pub png: bool,
    /// LaTeX for the `diagram` package, as Popeye writes it: one document, one diagram
    /// environment per problem, its twins in `\twins`.
    #[arg(long)]
    pub latex: bool,
    /// Output file (default: standard output). With several SVG or PNG diagrams, OUT gets a
    /// number per diagram before its extension: name.svg -> name-1.svg, name-2.svg, ...
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Print the files a-h and ranks 1-8 around the board (SVG, PNG).
    #[arg(long)]
    pub coordinates: bool,
}

#[derive(Args, Debug, Clone)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Args, Debug, Clone)]
pub struct VerifyClaimArgs {
    /// The proof (JSON from `claim --format json`): a file, or - for stdin.
    pub proof: PathBuf,
}

#[derive(Args, Debug, Clone)]
pub struct ClaimArgs {
    /// A problem file (its first problem's diagram), unless --fen is given.
    pub file: Option<PathBuf>,
    /// The position in FEN.
    #[arg(long)]
    pub fen: Option<String>,
    /// The claimant (default: the side to move in the FEN, White for a file).
    #[arg(long, value_enum)]
    pub side: Option<Side>,
    /// Condition (default: the file's, or orthodox).
    #[arg(long)]
    pub condition: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
}

#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The moves (long or short notation, move numbers allowed): a file, or - for stdin.
    pub game: PathBuf,
    /// Condition (default orthodox).
    #[arg(long, default_value = "orthodox")]
    pub condition: String,
    /// Start position (default: the initial array, with the game-start rules).
    #[arg(long)]
    pub fen: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Problem files or directories; - reads standard input (format sniffed).
    pub files: Vec<PathBuf>,
    /// Output: text, or json (one JSON object per problem and line).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Report duals (direct play: several attacker continuations after a defence; help
    /// play: several solutions that differ in one move only).
    #[arg(long)]
    pub duals: bool,
    /// Report short variations (defences answered faster than the full length).
    #[arg(long)]
    pub short_variations: bool,
    /// Check only shard K of N (1-based): the problems whose run index (counted over all
    /// files, in input order, from 0) leaves K-1 when divided by N. Shards 1/N .. N/N
    /// together check every problem once.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Read more problem files from FILE (one path a line; `-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub files_from: Option<PathBuf>,
    /// Skip the problems already decided in an earlier `--format json` output (JSON lines):
    /// those whose every twin has a verdict other than `unknown`.
    #[arg(long, value_name = "OUT.jsonl")]
    pub resume: Option<PathBuf>,
}

/// `K/N` with 1 <= K <= N.
fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("'{text}': a shard is written K/N, e.g. 2/8"))?;
    let k: usize = k
        .trim()
        .parse()
        .map_err(|_| format!("'{k}' is not a number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("'{n}' is not a number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("'{text}': K/N needs 1 <= K <= N"));
    }
    Ok((k, n))
}

#[derive(Args, Debug, Clone)]
pub struct ConvertArgs {
    /// A Popeye input file (.inp) or a YAML file; - reads standard input (format sniffed).
    pub file: PathBuf,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Yaml,
}

/// Search settings shared by `solve` and `check`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Worker threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Transposition table size in MB: the upper bound of a table that starts at 256 KB and
    /// doubles while a table twice its size would have saved work. The default is Popeye's
    /// 1 GB.
    #[arg(long, default_value_t = 1024)]
    pub hash: usize,
    /// Stop after this many seconds and print what is proven so far (`solve`: the whole
    /// run; `check`: each twin).
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// The plain exhaustive search, without the help-play cuts (final-position and
    /// immobility cut, stalemate landing filter, check candidates): slower, for
    /// cross-checking. The output is the same.
    #[arg(long)]
    pub exhaustive: bool,
}

#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    /// Problem files or directories; - reads standard input (format sniffed).
    pub files: Vec<PathBuf>,
    /// Solve a position given as FEN instead of a file (needs --stipulation).
    #[arg(long)]
    pub fen: Option<String>,
    /// Stipulation for --fen, e.g. "#2", "h#3", "ser-s#4" (a file states its own).
    #[arg(long, requires = "fen")]
    pub stipulation: Option<String>,
    /// Condition for --fen (default orthodox; a file states its own).
    #[arg(long, requires = "fen")]
    pub condition: Option<String>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Short algebraic notation (Qxd5+) instead of Popeye's long notation (Qd1*d5 +).
    #[arg(long)]
    pub short: bool,
    /// Print tries with their refutations.
    #[arg(long)]
    pub tries: bool,
    /// A first move with at most N refutations is a try.
    #[arg(long)]
    pub defence: Option<u32>,
    /// Print set play.
    #[arg(long)]
    pub setplay: bool,
    /// Print threats and variations.
    #[arg(long)]
    pub variations: bool,
    /// Do not look for threats.
    #[arg(long)]
    pub nothreat: bool,
    /// Do not print variations shorter than the full length.
    #[arg(long)]
    pub no_short_variations: bool,
    /// Stop after this many solutions (help and series play).
    #[arg(long)]
    pub max_solutions: Option<u32>,
    /// Do not print diagrams.
    #[arg(long)]
    pub no_board: bool,
    /// Draw the board with Unicode chess glyphs and box-drawing lines.
    #[arg(long)]
    pub unicode: bool,
}

#[derive(Args, Debug, Clone)]
pub struct ShowArgs {
    /// Problem files or directories; - reads standard input (format sniffed).
    pub files: Vec<PathBuf>,
    /// Output: text, json or yaml.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Draw the board with Unicode chess glyphs and box-drawing lines.
    #[arg(long)]
    pub unicode: bool,
}

#[derive(Args, Debug, Clone)]
pub struct PerftArgs {
    /// Position in FEN (fairy pieces in parentheses, pockets in brackets).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    /// Print the count below each first move.
    #[arg(long)]
    pub divide: bool,
    /// Condition (default orthodox).
    #[arg(long, default_value = "orthodox")]
    pub condition: String,
    /// Count from the start of a game: game-only rules apply (Pocket Mutation: White may not
    /// use the pocket on the first move).
    #[arg(long)]
    pub game_start: bool,
    /// Output: text, json or yaml.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}
