//! Errors of the dice layer: what went wrong, where in the expression, and a display fit for a terminal.

use std::fmt;

/// A byte range in the expression text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (exclusive).
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// What went wrong. Syntax errors come from the parser, meaning and limit errors from the checker,
/// the rest from rolling or from computing a distribution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text does not follow the grammar.
    #[error("{0}")]
    Syntax(String),
    /// The text parses but means nothing fray can roll.
    #[error("{0}")]
    Meaning(String),
    /// The expression would need more resources than fray allows.
    #[error("{what} {value} is over the limit of {limit}")]
    Limit {
        /// The quantity that is too large (e.g. "number of dice").
        what: &'static str,
        /// The value asked for.
        value: u64,
        /// The largest value allowed.
        limit: u64,
    },
    /// An intermediate value left the 64-bit integer range.
    #[error("arithmetic overflow: a value leaves the 64-bit range")]
    Overflow,
    /// Division by zero while rolling.
    #[error("division by zero")]
    DivisionByZero,
    /// The exact distribution would hold too many distinct values or cost too much work.
    #[error("the exact distribution is too large to compute: {0}")]
    TooLarge(String),
    /// The dice source could not give a face (a script ran out, or a face was out of range).
    #[error("dice source: {0}")]
    Source(String),
}

/// An error with the expression it concerns and the span of the offending part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    span: Span,
    input: String,
}

impl Error {
    /// A new error about `span` of `input`.
    pub fn new(kind: ErrorKind, span: Span, input: &str) -> Error {
        Error { kind, span, input: input.to_owned() }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Where in the expression.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The whole expression.
    pub fn input(&self) -> &str {
        &self.input
    }
}

/// The most characters of the input an error shows: a longer input is cut around the caret.
const SHOWN: usize = 80;

impl fmt::Display for Error {
    /// Renders `error: MESSAGE`, then the expression, then a caret line under the span.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "error: {}", self.kind)?;
        // Work in characters so the caret lines up under multi-byte text.
        let line: String = self.input.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let chars_before = |at: usize| self.input.get(..at).map_or(0, |s| s.chars().count());
        let start = chars_before(self.span.start.min(self.input.len()));
        let end = chars_before(self.span.end.min(self.input.len()));
        let width = end.saturating_sub(start).max(1);
        // A long input is shown cut to a window around the caret, marked with `…`.
        let chars: Vec<char> = line.chars().collect();
        let (from, to) = if chars.len() <= SHOWN {
            (0, chars.len())
        } else {
            let from = start.saturating_sub(SHOWN / 2).min(chars.len() - SHOWN);
            (from, from + SHOWN)
        };
        let head = if from > 0 { "…" } else { "" };
        let tail = if to < chars.len() { "…" } else { "" };
        let shown: String = chars[from..to].iter().collect();
        let caret_at = start - from + head.chars().count();
        let width = width.min(to.saturating_sub(start).max(1));
        writeln!(f, "  {head}{shown}{tail}")?;
        write!(f, "  {}{}", " ".repeat(caret_at), "^".repeat(width))
    }
}

impl std::error::Error for Error {}
