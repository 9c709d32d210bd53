//! The checked form of an expression: parsed, validated against the limits, ready to roll or to analyse.

use crate::error::{Error, ErrorKind, Span};
use crate::syntax::{self, BinOp, ExplodeMode, Func, KeepKind, Node, NodeKind, Pool};
use std::fmt;

/// The value of a roll: a number, or a tuple of success counts (a pool with two to four `cs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// A single number.
    Int(i64),
    /// Counts of dice meeting each `cs` threshold, in the order written.
    Counts(Counts),
}

/// Up to four success counts, stored inline so that rolling does not allocate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Counts {
    len: u8,
    values: [i64; syntax::MAX_COUNTS],
}

impl Counts {
    /// Counts from a slice of at most four values.
    ///
    /// # Panics
    /// If the slice is longer than four.
    pub fn from_slice(values: &[i64]) -> Counts {
        let mut counts = Counts { len: values.len() as u8, values: [0; syntax::MAX_COUNTS] };
        counts.values[..values.len()].copy_from_slice(values);
        counts
    }

    /// Adds `times` to every count whose bit is set in `mask`.
    pub(crate) fn add_mask(&mut self, mask: u8, times: i64) {
        for (i, v) in self.values[..usize::from(self.len)].iter_mut().enumerate() {
            if (mask >> i) & 1 == 1 {
                *v += times;
            }
        }
    }

    /// The counts, in the order the `cs` were written.
    pub fn as_slice(&self) -> &[i64] {
        &self.values[..usize::from(self.len)]
    }
}

impl Value {
    /// The number, if the value is one.
    pub fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(v),
            Value::Counts(_) => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Counts(counts) => {
                f.write_str("[")?;
                for (i, v) in counts.as_slice().iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// A checked dice expression.
///
/// Built once with [`Program::parse`], then rolled ([`Program::roll`]) or analysed exactly
/// ([`Program::distribution`], [`Program::probability`]) as often as needed.
/// Invariants, established by the checker: every limit in [`crate::syntax`] holds; divisors are
/// non-zero constants; keep/drop selects no more dice than the pool has and is not combined with
/// `cs` or with ordinary `!`; an exploding die has at least two sides; a tuple-valued pool (two or
/// more `cs`) stands alone, with nothing but parentheses around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    source: String,
    root: Node,
}

impl Program {
    /// Parses and checks an expression.
    pub fn parse(source: &str) -> Result<Program, Error> {
        let root = syntax::parse(source)?;
        let checker = Checker { source };
        checker.node(&root, true)?;
        Ok(Program { source: source.to_owned(), root })
    }

    /// The text the program was parsed from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The syntax tree.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// Whether the value is a tuple of counts rather than a number.
    pub fn is_tuple(&self) -> bool {
        tuple_pool(&self.root).is_some()
    }

    pub(crate) fn error(&self, kind: ErrorKind, span: Span) -> Error {
        Error::new(kind, span, &self.source)
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.root)
    }
}

/// The tuple-valued pool at the root (through parentheses), if the expression is one.
pub(crate) fn tuple_pool(node: &Node) -> Option<&Pool> {
    match &node.kind {
        NodeKind::Group(inner) => tuple_pool(inner),
        NodeKind::Pool(pool) if pool.counts.len() >= 2 => Some(pool),
        _ => None,
    }
}

/// Evaluates a subtree without dice; `None` if it has dice.
pub(crate) fn constant(node: &Node) -> Option<Result<i64, ErrorKind>> {
    Some(match &node.kind {
        NodeKind::Int(v) => Ok(*v),
        NodeKind::Pool(_) | NodeKind::Wild(_) => return None,
        NodeKind::Group(inner) => return constant(inner),
        NodeKind::Neg(inner) => constant(inner)?.and_then(|v| v.checked_neg().ok_or(ErrorKind::Overflow)),
        NodeKind::Binary { op, lhs, rhs } => {
            let (a, b) = (constant(lhs)?, constant(rhs)?);
            a.and_then(|a| b.and_then(|b| arith(*op, a, b)))
        }
        NodeKind::Contest { lhs, rhs } => {
            let (a, b) = (constant(lhs)?, constant(rhs)?);
            a.and_then(|a| b.and_then(|b| arith(BinOp::Sub, a, b)))
        }
        NodeKind::Compare { op, lhs, rhs } => {
            let (a, b) = (constant(lhs)?, constant(rhs)?);
            a.and_then(|a| b.map(|b| i64::from(op.holds(a, b))))
        }
        NodeKind::Call { func, args } => {
            let mut values = Vec::with_capacity(args.len());
            for arg in args {
                match constant(arg)? {
                    Ok(v) => values.push(v),
                    Err(e) => return Some(Err(e)),
                }
            }
            call(*func, &values)
        }
    })
}

/// Integer arithmetic with the language's semantics: checked, floor division.
pub(crate) fn arith(op: BinOp, a: i64, b: i64) -> Result<i64, ErrorKind> {
    match op {
        BinOp::Add => a.checked_add(b).ok_or(ErrorKind::Overflow),
        BinOp::Sub => a.checked_sub(b).ok_or(ErrorKind::Overflow),
        BinOp::Mul => a.checked_mul(b).ok_or(ErrorKind::Overflow),
        BinOp::Div => {
            if b == 0 {
                return Err(ErrorKind::DivisionByZero);
            }
            let q = a.checked_div(b).ok_or(ErrorKind::Overflow)?;
            // Round toward negative infinity.
            Ok(if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q })
        }
    }
}

/// A function applied to values.
pub(crate) fn call(func: Func, values: &[i64]) -> Result<i64, ErrorKind> {
    match func {
        Func::Max => Ok(values.iter().copied().max().unwrap_or(0)),
        Func::Min => Ok(values.iter().copied().min().unwrap_or(0)),
        Func::Abs => values[0].checked_abs().ok_or(ErrorKind::Overflow),
    }
}

struct Checker<'a> {
    source: &'a str,
}

impl Checker<'_> {
    fn meaning(&self, message: impl Into<String>, span: Span) -> Error {
        Error::new(ErrorKind::Meaning(message.into()), span, self.source)
    }

    /// Checks a node; `root` is true while only parentheses separate it from the top.
    fn node(&self, node: &Node, root: bool) -> Result<(), Error> {
        match &node.kind {
            NodeKind::Int(_) | NodeKind::Wild(_) => Ok(()),
            NodeKind::Pool(pool) => self.pool(pool, node.span, root),
            NodeKind::Group(inner) => self.node(inner, root),
            NodeKind::Neg(inner) => self.node(inner, false),
            NodeKind::Binary { op, lhs, rhs } => {
                self.node(lhs, false)?;
                self.node(rhs, false)?;
                if *op == BinOp::Div {
                    match constant(rhs) {
                        None => {
                            return Err(self.meaning("the divisor must be a constant (no dice)", rhs.span));
                        }
                        Some(Err(kind)) => return Err(Error::new(kind, rhs.span, self.source)),
                        Some(Ok(0)) => {
                            return Err(Error::new(ErrorKind::DivisionByZero, rhs.span, self.source));
                        }
                        Some(Ok(_)) => {}
                    }
                }
                Ok(())
            }
            NodeKind::Compare { lhs, rhs, .. } | NodeKind::Contest { lhs, rhs } => {
                self.node(lhs, false)?;
                self.node(rhs, false)
            }
            NodeKind::Call { args, .. } => args.iter().try_for_each(|arg| self.node(arg, false)),
        }
    }

    fn pool(&self, pool: &Pool, span: Span, root: bool) -> Result<(), Error> {
        if pool.explode.is_some() && pool.sides < 2 {
            return Err(self.meaning("a one-sided die cannot explode: it would never stop", span));
        }
        if let Some(keep) = pool.keep {
            if keep.n > pool.count {
                let verb = match keep.kind {
                    KeepKind::Highest | KeepKind::Lowest => "keep",
                    KeepKind::DropHighest | KeepKind::DropLowest => "drop",
                };
                return Err(self.meaning(format!("cannot {verb} {} of {} dice", keep.n, pool.count), span));
            }
            if !pool.counts.is_empty() {
                return Err(self.meaning("keep/drop and `cs` cannot be combined in one pool", span));
            }
            if pool.explode.is_some_and(|e| e.mode == ExplodeMode::Add) {
                return Err(self.meaning(
                    "keep/drop with `!` is ambiguous (each explosion adds a die); use compounding `!!`",
                    span,
                ));
            }
        }
        if pool.counts.len() >= 2 {
            if !root {
                return Err(self
                    .meaning("a pool with several `cs` counts gives a tuple; it must be the whole expression", span));
            }
            if pool.explode.is_some_and(|e| e.mode == ExplodeMode::Add) {
                return Err(self.meaning("several `cs` counts need compounding `!!`, not `!`", span));
            }
        }
        Ok(())
    }
}
