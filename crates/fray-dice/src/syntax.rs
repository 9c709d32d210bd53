//! The dice expression language: the syntax tree, the parser that builds it, and a printer.
//!
//! The grammar (loosest binding first):
//!
//! ```text
//! expr     := contest (cmp contest)?          cmp: >= <= > < == != (= is ==)
//! contest  := additive ("vs" additive)?       left minus right
//! additive := term (("+" | "-") term)*
//! term     := unary (("*" | "/") unary)*      "/" is floor division by a constant
//! unary    := "-" unary | primary
//! primary  := INT | pool | wild | "(" expr ")" | func "(" expr ("," expr)* ")"
//! pool     := INT? "d" (INT | "%") explode? keep? count*     (modifiers in any order)
//! explode  := ("!!" | "!") ("{" INT "}")?     compounding / ordinary, optional depth limit
//! keep     := ("kh" | "k" | "kl" | "dh" | "dl") INT
//! count    := "cs" cmp INT                     one count: a number; two to four: a tuple
//! wild     := INT "D" "c"? ("{" INT "}")?      OpenD6 die code with a Wild Die
//! func     := "max" | "min" | "abs"
//! ```

use crate::error::{Error, ErrorKind, Span};
use std::fmt;

/// Longest expression accepted, in bytes.
pub const MAX_INPUT_LEN: usize = 1000;
/// Deepest nesting of parentheses, negations and calls.
pub const MAX_NESTING: usize = 64;
/// Largest integer literal.
pub const MAX_INT: i64 = 1_000_000_000;
/// Most dice in one pool or die code.
pub const MAX_DICE: u32 = 1000;
/// Most faces on one die.
pub const MAX_SIDES: u32 = 10_000;
/// Largest explicit explosion depth (extra tosses of one die).
pub const MAX_EXPLODE_DEPTH: u32 = 100;
/// Most `cs` counts on one pool.
pub const MAX_COUNTS: usize = 4;

/// A node of the syntax tree with the span of text it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// What the node is.
    pub kind: NodeKind,
    /// Where it is in the expression.
    pub span: Span,
}

/// The kinds of node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// An integer constant.
    Int(i64),
    /// A pool of like dice, e.g. `4d6kh3` or `6d6!!cs>=5`.
    Pool(Pool),
    /// An OpenD6 die code with its Wild Die, e.g. `4D`.
    Wild(WildCode),
    /// Negation.
    Neg(Box<Node>),
    /// Arithmetic on two operands.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        lhs: Box<Node>,
        /// Right operand.
        rhs: Box<Node>,
    },
    /// A comparison, valued 1 when it holds and 0 otherwise.
    Compare {
        /// The comparison.
        op: CmpOp,
        /// Left side.
        lhs: Box<Node>,
        /// Right side.
        rhs: Box<Node>,
    },
    /// A contest `a vs b`, valued a − b.
    Contest {
        /// The first contestant.
        lhs: Box<Node>,
        /// The second contestant.
        rhs: Box<Node>,
    },
    /// A function call.
    Call {
        /// The function.
        func: Func,
        /// Its arguments.
        args: Vec<Node>,
    },
    /// Parentheses, kept so that printing round-trips.
    Group(Box<Node>),
}

/// Binary arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`, floor division (rounds down, as the rulesets round).
    Div,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `<`
    Lt,
    /// `==` (also `=`)
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    /// Whether `a op b` holds.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Ge => a >= b,
            CmpOp::Gt => a > b,
            CmpOp::Le => a <= b,
            CmpOp::Lt => a < b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            CmpOp::Ge => ">=",
            CmpOp::Gt => ">",
            CmpOp::Le => "<=",
            CmpOp::Lt => "<",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }
}

/// Built-in functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    /// Largest argument.
    Max,
    /// Smallest argument.
    Min,
    /// Absolute value.
    Abs,
}

impl Func {
    fn name(self) -> &'static str {
        match self {
            Func::Max => "max",
            Func::Min => "min",
            Func::Abs => "abs",
        }
    }
}

/// A pool of like dice with its modifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    /// Number of dice.
    pub count: u32,
    /// Faces per die (1 to sides).
    pub sides: u32,
    /// Explosion, if any.
    pub explode: Option<Explode>,
    /// Keep or drop, if any.
    pub keep: Option<Keep>,
    /// Success counts; empty for a sum.
    pub counts: Vec<CountRule>,
}

/// How a die explodes on its highest face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explode {
    /// Compounding (`!!`) or ordinary (`!`).
    pub mode: ExplodeMode,
    /// At most this many extra tosses; the last toss stands even if it shows the highest face.
    /// `None` explodes without limit (exact odds then truncate or clamp, see [`crate::Options`]).
    pub depth: Option<u32>,
}

/// The two kinds of explosion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplodeMode {
    /// `!`: each extra toss is a die of its own (it counts separately under `cs`).
    Add,
    /// `!!`: extra tosses add to the same die (Phase Six dice, the Wild Die).
    Compound,
}

/// Keep or drop some dice of a pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// Which dice.
    pub kind: KeepKind,
    /// How many.
    pub n: u32,
}

/// Which dice a keep/drop selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeepKind {
    /// `khN` (or `kN`): keep the N highest.
    Highest,
    /// `klN`: keep the N lowest.
    Lowest,
    /// `dhN`: drop the N highest.
    DropHighest,
    /// `dlN`: drop the N lowest.
    DropLowest,
}

/// A success count: the number of dice whose value satisfies `op value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountRule {
    /// The comparison.
    pub op: CmpOp,
    /// The threshold.
    pub value: i64,
}

/// An OpenD6 die code `kD`: k − 1 regular d6 and one Wild Die.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WildCode {
    /// Dice in the code, the Wild Die included.
    pub count: u32,
    /// What a first-toss 1 on the Wild Die does.
    pub reading: WildReading,
    /// At most this many extra tosses of the Wild Die; `None` is unlimited.
    pub depth: Option<u32>,
}

/// Readings of a Wild-Die 1 (OD6-DICE-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WildReading {
    /// The default: the Wild Die and the highest regular die are discarded.
    CancelHighest,
    /// `c`: the 1 counts as 1 (a complication is noted, no mechanical effect).
    Complication,
}

/// Parses an expression into a syntax tree.
pub fn parse(input: &str) -> Result<Node, Error> {
    if input.len() > MAX_INPUT_LEN {
        let limit =
            ErrorKind::Limit { what: "expression length", value: input.len() as u64, limit: MAX_INPUT_LEN as u64 };
        // Point at the first character past the limit.
        let at = (MAX_INPUT_LEN..input.len()).find(|&i| input.is_char_boundary(i)).unwrap_or(0);
        return Err(Error::new(limit, Span::new(at, input.len()), input));
    }
    let mut parser = Parser { src: input, pos: 0, nesting: 0 };
    let node = parser.expr()?;
    parser.skip_ws();
    if parser.pos < input.len() {
        return Err(parser.unexpected());
    }
    Ok(node)
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    nesting: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                break;
            }
            self.pos += c.len_utf8();
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        if self.rest().starts_with(token) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    fn error(&self, message: impl Into<String>, span: Span) -> Error {
        Error::new(ErrorKind::Syntax(message.into()), span, self.src)
    }

    fn here(&self) -> Span {
        let len = self.peek().map_or(1, char::len_utf8);
        Span::new(self.pos, self.pos + len)
    }

    fn unexpected(&self) -> Error {
        let Some(c) = self.peek() else { return self.error("unexpected end of expression", self.here()) };
        // A dice modifier after a space: the modifier must touch its dice.
        let before = self.src[..self.pos].trim_end();
        let modifier = ["kh", "kl", "dh", "dl", "k", "cs", "!"].into_iter().find(|m| self.rest().starts_with(m));
        if let Some(modifier) = modifier
            && before.len() < self.pos
            && before.ends_with(|c: char| c.is_ascii_digit() || c == '%')
        {
            let dice = before.rsplit(|c: char| c.is_whitespace() || "+-*/(,".contains(c)).next().unwrap_or(before);
            let word: String = self.rest().chars().take_while(|c| !c.is_whitespace()).collect();
            return self.error(
                format!(
                    "unexpected `{modifier}`: a dice modifier must touch its dice, with no space: write \
                     `{dice}{word}`"
                ),
                self.here(),
            );
        }
        // Look-alike characters from a word processor or a maths text.
        let hint = match c {
            '≥' => Some(">="),
            '≤' => Some("<="),
            '≠' => Some("!="),
            '×' | '·' => Some("*"),
            '÷' => Some("/"),
            '−' | '–' | '—' => Some("-"),
            _ => None,
        };
        match hint {
            Some(ascii) => self.error(format!("unexpected `{c}`; write `{ascii}` instead"), self.here()),
            None => self.error(format!("unexpected `{c}`"), self.here()),
        }
    }

    fn enter(&mut self, span: Span) -> Result<(), Error> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            let kind =
                ErrorKind::Limit { what: "nesting depth", value: self.nesting as u64, limit: MAX_NESTING as u64 };
            return Err(Error::new(kind, span, self.src));
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Node, Error> {
        let lhs = self.contest()?;
        self.skip_ws();
        let Some(op) = self.cmp_op() else {
            return Ok(lhs);
        };
        let rhs = self.contest()?;
        self.skip_ws();
        let at = self.pos;
        if self.cmp_op().is_some() {
            return Err(self.error("comparisons cannot be chained; use parentheses", Span::new(at, self.pos)));
        }
        let span = lhs.span.to(rhs.span);
        Ok(Node { kind: NodeKind::Compare { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span })
    }

    fn cmp_op(&mut self) -> Option<CmpOp> {
        for (token, op) in [
            (">=", CmpOp::Ge),
            ("<=", CmpOp::Le),
            ("==", CmpOp::Eq),
            ("!=", CmpOp::Ne),
            (">", CmpOp::Gt),
            ("<", CmpOp::Lt),
            ("=", CmpOp::Eq),
        ] {
            if self.eat(token) {
                return Some(op);
            }
        }
        None
    }

    fn keyword_vs(&mut self) -> bool {
        let rest = self.rest();
        let after = rest.get(2..3).and_then(|s| s.chars().next());
        if rest.starts_with("vs") && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            self.pos += 2;
            true
        } else {
            false
        }
    }

    fn contest(&mut self) -> Result<Node, Error> {
        let lhs = self.additive()?;
        self.skip_ws();
        if !self.keyword_vs() {
            return Ok(lhs);
        }
        let rhs = self.additive()?;
        self.skip_ws();
        let at = self.pos;
        if self.keyword_vs() {
            return Err(self.error("contests cannot be chained; use parentheses", Span::new(at, self.pos)));
        }
        let span = lhs.span.to(rhs.span);
        Ok(Node { kind: NodeKind::Contest { lhs: Box::new(lhs), rhs: Box::new(rhs) }, span })
    }

    fn additive(&mut self) -> Result<Node, Error> {
        let mut lhs = self.term()?;
        loop {
            self.skip_ws();
            let op = if self.eat("+") {
                BinOp::Add
            } else if self.eat("-") {
                BinOp::Sub
            } else {
                return Ok(lhs);
            };
            let rhs = self.term()?;
            let span = lhs.span.to(rhs.span);
            lhs = Node { kind: NodeKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span };
        }
    }

    fn term(&mut self) -> Result<Node, Error> {
        let mut lhs = self.unary()?;
        loop {
            self.skip_ws();
            let op = if self.eat("*") {
                BinOp::Mul
            } else if self.eat("/") {
                BinOp::Div
            } else {
                return Ok(lhs);
            };
            let rhs = self.unary()?;
            let span = lhs.span.to(rhs.span);
            lhs = Node { kind: NodeKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span };
        }
    }

    fn unary(&mut self) -> Result<Node, Error> {
        self.skip_ws();
        let start = self.pos;
        if self.eat("-") {
            self.enter(Span::new(start, self.pos))?;
            let inner = self.unary()?;
            self.nesting -= 1;
            let span = Span::new(start, inner.span.end);
            return Ok(Node { kind: NodeKind::Neg(Box::new(inner)), span });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Node, Error> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                let count = self.int()?;
                match self.peek() {
                    Some('d') => self.pool(start, Some(count)),
                    Some('D') => self.wild(start, count),
                    _ => Ok(Node { kind: NodeKind::Int(count), span: Span::new(start, self.pos) }),
                }
            }
            Some('d') => self.pool(start, None),
            Some('(') => {
                self.pos += 1;
                self.enter(Span::new(start, self.pos))?;
                let inner = self.expr()?;
                self.skip_ws();
                if !self.eat(")") {
                    return Err(match self.peek() {
                        Some(_) => self.error("expected `)`", self.here()),
                        None => self.error("expected `)` to close this parenthesis", Span::new(start, start + 1)),
                    });
                }
                self.nesting -= 1;
                Ok(Node { kind: NodeKind::Group(Box::new(inner)), span: Span::new(start, self.pos) })
            }
            Some(c) if c.is_ascii_alphabetic() => self.call(start),
            Some(_) => Err(self.error("expected a number, dice, `(` or a function", self.here())),
            None => Err(self.error("expected a number, dice, `(` or a function", self.here())),
        }
    }

    fn call(&mut self, start: usize) -> Result<Node, Error> {
        let name_len = self.rest().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').count();
        let name = &self.src[start..start + name_len];
        let name_span = Span::new(start, start + name_len);
        let func = match name {
            "max" => Func::Max,
            "min" => Func::Min,
            "abs" => Func::Abs,
            "D" => {
                return Err(self.error("a die code needs a number of dice, e.g. `3D`", name_span));
            }
            _ => {
                return Err(self.error(
                    format!("unknown name `{name}`; expected dice (`3d6`, `4D`) or one of max, min, abs"),
                    name_span,
                ));
            }
        };
        self.pos += name_len;
        self.skip_ws();
        if !self.eat("(") {
            return Err(self.error(format!("expected `(` after `{name}`"), self.here()));
        }
        self.enter(Span::new(start, self.pos))?;
        let mut args = vec![self.expr()?];
        loop {
            self.skip_ws();
            if self.eat(",") {
                args.push(self.expr()?);
            } else if self.eat(")") {
                break;
            } else {
                return Err(self.error("expected `,` or `)`", self.here()));
            }
        }
        self.nesting -= 1;
        let span = Span::new(start, self.pos);
        let arity_ok = match func {
            Func::Abs => args.len() == 1,
            Func::Max | Func::Min => args.len() >= 2,
        };
        if !arity_ok {
            let want = if func == Func::Abs { "exactly one argument" } else { "at least two arguments" };
            let message = format!("`{}` takes {want}, found {}", func.name(), args.len());
            return Err(Error::new(ErrorKind::Meaning(message), span, self.src));
        }
        Ok(Node { kind: NodeKind::Call { func, args }, span })
    }

    /// Reads a non-negative integer literal.
    fn int(&mut self) -> Result<i64, Error> {
        let start = self.pos;
        let digits = self.rest().bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(self.error("expected a number", self.here()));
        }
        self.pos += digits;
        let span = Span::new(start, self.pos);
        let text = &self.src[start..self.pos];
        match text.parse::<i64>() {
            Ok(v) if v <= MAX_INT => Ok(v),
            _ => {
                // A number past 64 bits is named as written, not as the largest u64.
                let kind = match text.parse::<u64>() {
                    Ok(value) => ErrorKind::Limit { what: "number", value, limit: MAX_INT as u64 },
                    Err(_) => ErrorKind::Meaning(format!("number {text} is over the limit of {MAX_INT}")),
                };
                Err(Error::new(kind, span, self.src))
            }
        }
    }

    fn limited(&self, what: &'static str, value: i64, limit: u32, span: Span) -> Result<u32, Error> {
        if value > i64::from(limit) {
            let kind = ErrorKind::Limit { what, value: value as u64, limit: u64::from(limit) };
            return Err(Error::new(kind, span, self.src));
        }
        Ok(value as u32)
    }

    fn pool(&mut self, start: usize, count: Option<i64>) -> Result<Node, Error> {
        let count_span = Span::new(start, self.pos);
        let count = self.limited("number of dice", count.unwrap_or(1), MAX_DICE, count_span)?;
        self.pos += 1; // the `d`
        let sides_start = self.pos;
        let sides = if self.eat("%") {
            100
        } else if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let sides = self.int()?;
            self.limited("number of sides", sides, MAX_SIDES, Span::new(sides_start, self.pos))?
        } else {
            return Err(self.error("expected the number of sides after `d`, e.g. `d6` or `d%`", self.here()));
        };
        if sides == 0 {
            return Err(Error::new(
                ErrorKind::Meaning("a die needs at least one side".into()),
                Span::new(sides_start, self.pos),
                self.src,
            ));
        }
        let mut pool = Pool { count, sides, explode: None, keep: None, counts: Vec::new() };
        loop {
            let mod_start = self.pos;
            if self.rest().starts_with('!') && !self.rest().starts_with("!=") {
                let mode = if self.eat("!!") {
                    ExplodeMode::Compound
                } else {
                    self.pos += 1;
                    ExplodeMode::Add
                };
                let depth = self.braced_depth()?;
                if pool.explode.is_some() {
                    return Err(self.error("the dice already explode", Span::new(mod_start, self.pos)));
                }
                pool.explode = Some(Explode { mode, depth });
            } else if let Some(kind) = self.keep_kind() {
                let n_start = self.pos;
                if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    return Err(self.error("expected how many dice to keep or drop", self.here()));
                }
                let n = self.int()?;
                let n = self.limited("number of dice", n, MAX_DICE, Span::new(n_start, self.pos))?;
                if pool.keep.is_some() {
                    return Err(self.error("only one keep or drop per pool", Span::new(mod_start, self.pos)));
                }
                pool.keep = Some(Keep { kind, n });
            } else if self.eat("cs") {
                let Some(op) = self.cmp_op() else {
                    return Err(self.error("expected a comparison after `cs`, e.g. `cs>=5`", self.here()));
                };
                if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    return Err(self.error("expected the threshold of the count", self.here()));
                }
                let value = self.int()?;
                pool.counts.push(CountRule { op, value });
                if pool.counts.len() > MAX_COUNTS {
                    let kind = ErrorKind::Limit {
                        what: "number of counts",
                        value: pool.counts.len() as u64,
                        limit: MAX_COUNTS as u64,
                    };
                    return Err(Error::new(kind, Span::new(mod_start, self.pos), self.src));
                }
            } else {
                break;
            }
        }
        if self.rest().starts_with("vs") {
            return Err(self.error(
                "unknown dice modifier `vs`: a contest needs spaces around `vs`, e.g. `d6 vs d6`",
                Span::new(self.pos, self.pos + 2),
            ));
        }
        if self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
            return Err(
                self.error("unknown dice modifier; expected `!`, `!!`, `kh`, `kl`, `dh`, `dl` or `cs`", self.here())
            );
        }
        Ok(Node { kind: NodeKind::Pool(pool), span: Span::new(start, self.pos) })
    }

    fn keep_kind(&mut self) -> Option<KeepKind> {
        for (token, kind) in [
            ("kh", KeepKind::Highest),
            ("kl", KeepKind::Lowest),
            ("dh", KeepKind::DropHighest),
            ("dl", KeepKind::DropLowest),
            ("k", KeepKind::Highest),
        ] {
            if self.eat(token) {
                return Some(kind);
            }
        }
        None
    }

    fn braced_depth(&mut self) -> Result<Option<u32>, Error> {
        let start = self.pos;
        if !self.eat("{") {
            return Ok(None);
        }
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error("expected a depth limit, e.g. `{20}`", self.here()));
        }
        let depth = self.int()?;
        if !self.eat("}") {
            return Err(self.error("expected `}`", self.here()));
        }
        let depth = self.limited("explosion depth", depth, MAX_EXPLODE_DEPTH, Span::new(start, self.pos))?;
        Ok(Some(depth))
    }

    fn wild(&mut self, start: usize, count: i64) -> Result<Node, Error> {
        let count = self.limited("number of dice", count, MAX_DICE, Span::new(start, self.pos))?;
        self.pos += 1; // the `D`
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error(
                "`D` writes an OpenD6 die code (`4D` is three d6 and a Wild Die); for plain dice write `4d6`",
                Span::new(start, self.pos),
            ));
        }
        let reading = if self.eat("c") { WildReading::Complication } else { WildReading::CancelHighest };
        let depth = self.braced_depth()?;
        if self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
            return Err(self
                .error("unknown die-code modifier; expected `c` (complication) or a depth like `{20}`", self.here()));
        }
        Ok(Node { kind: NodeKind::Wild(WildCode { count, reading, depth }), span: Span::new(start, self.pos) })
    }
}

impl fmt::Display for Node {
    /// Prints the expression in canonical notation; parsing the output gives the same tree shape.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            NodeKind::Int(v) => write!(f, "{v}"),
            NodeKind::Pool(pool) => write!(f, "{pool}"),
            NodeKind::Wild(code) => write!(f, "{code}"),
            NodeKind::Neg(inner) => write!(f, "-{inner}"),
            NodeKind::Binary { op, lhs, rhs } => {
                let op = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    BinOp::Mul => "*",
                    BinOp::Div => "/",
                };
                write!(f, "{lhs} {op} {rhs}")
            }
            NodeKind::Compare { op, lhs, rhs } => write!(f, "{lhs} {} {rhs}", op.as_str()),
            NodeKind::Contest { lhs, rhs } => write!(f, "{lhs} vs {rhs}"),
            NodeKind::Call { func, args } => {
                write!(f, "{}(", func.name())?;
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{arg}")?;
                }
                write!(f, ")")
            }
            NodeKind::Group(inner) => write!(f, "({inner})"),
        }
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        if let Some(explode) = self.explode {
            f.write_str(if explode.mode == ExplodeMode::Compound { "!!" } else { "!" })?;
            if let Some(depth) = explode.depth {
                write!(f, "{{{depth}}}")?;
            }
        }
        if let Some(keep) = self.keep {
            let kind = match keep.kind {
                KeepKind::Highest => "kh",
                KeepKind::Lowest => "kl",
                KeepKind::DropHighest => "dh",
                KeepKind::DropLowest => "dl",
            };
            write!(f, "{kind}{}", keep.n)?;
        }
        for count in &self.counts {
            write!(f, "cs{}{}", count.op.as_str(), count.value)?;
        }
        Ok(())
    }
}

impl fmt::Display for WildCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}D", self.count)?;
        if self.reading == WildReading::Complication {
            f.write_str("c")?;
        }
        if let Some(depth) = self.depth {
            write!(f, "{{{depth}}}")?;
        }
        Ok(())
    }
}
