//! Exact distributions: walks a checked expression and builds the distribution of its value as
//! fractions.
//!
//! Pools are aggregated outcome by outcome, not die by die: sums by repeated convolution,
//! keep/drop by a dynamic program over (dice placed, kept sum) with binomial weights per outcome
//! value (the method of icepool), counts as sums of per-die indicators.
//!
//! **Windows make exploding dice exact.** Each node is evaluated under a window `[lo, hi]` and
//! returns the distribution of `clamp(value, lo, hi)`; a parent derives its children's windows
//! from their static bounds so that clamping the children does not change the clamped result
//! (for `a + b`: `a` in `[lo − max b, hi − min b]`). A question like P(X ≥ T) evaluates the root
//! under `[T − 1, T]`; an unlimited explosion under a finite upper window stops as soon as its
//! value reaches the window and lumps the exact remaining mass there, so the answer is exact.
//! Only where no finite window reaches an unlimited explosion (a full distribution, a difference
//! of two explosions) is the chain cut after [`Options::depth`] extra tosses; the mass of longer
//! chains is reported as the residual.

use crate::dist::{Dist, Fail, Limits, Weight, overflow, pascal, to_big};
use crate::error::{Error, ErrorKind, Span};
use crate::program::{Counts, Program, Value, constant, tuple_pool};
use crate::syntax::{
    BinOp, CmpOp, CountRule, ExplodeMode, Func, KeepKind, Node, NodeKind, Pool, WildCode, WildReading,
};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Most explosions one die's chain is followed to reach a finite window before it is truncated.
const MAX_CHAIN_LEVELS: u32 = 2000;

/// Largest truncation depth [`Options::depth`] may take.
pub const MAX_TRUNCATION_DEPTH: u32 = 1000;

/// Options of an exact computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Extra tosses followed per die for explosions without a written depth, where no window
    /// bounds them; longer chains become the residual. At most [`MAX_TRUNCATION_DEPTH`].
    pub depth: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { depth: 10 }
    }
}

/// An event about a numeric expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The value is at least this.
    AtLeast(i64),
    /// The value is at most this.
    AtMost(i64),
}

/// The probability of an event. Exact when `residual` is zero; otherwise the true value lies in
/// `[p, p + residual]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probability {
    /// The probability (a lower bound when `residual` is not zero).
    pub p: BigRational,
    /// Mass that could not be placed on either side of the event.
    pub residual: BigRational,
}

/// The exact distribution of an expression's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    values: Vec<Value>,
    weights: Weights,
}

/// Weights of the outcomes and their common denominator, as machine integers where they fit.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Weights {
    Small(Vec<u128>, u128),
    Big(Vec<BigUint>, BigUint),
}

impl Distribution {
    fn from_dist<W: Weight>(d: Dist<W>, wrap: fn(Vec<W>, W) -> Weights) -> Distribution {
        let (values, w): (Vec<Value>, Vec<W>) = d.iter().map(|(v, w)| (Value::Int(v), w.clone())).unzip();
        Distribution { values, weights: wrap(w, d.denom) }
    }

    fn from_tuple<W: Weight>((outcomes, denom): (Vec<(Value, W)>, W), wrap: fn(Vec<W>, W) -> Weights) -> Distribution {
        let (values, w): (Vec<Value>, Vec<W>) = outcomes.into_iter().unzip();
        Distribution { values, weights: wrap(w, denom) }
    }

    fn weight(&self, i: usize) -> BigUint {
        match &self.weights {
            Weights::Small(w, _) => BigUint::from(w[i]),
            Weights::Big(w, _) => w[i].clone(),
        }
    }

    /// The outcomes in increasing order, each with its probability.
    pub fn outcomes(&self) -> impl Iterator<Item = (Value, BigRational)> + '_ {
        self.values.iter().enumerate().map(|(i, v)| (*v, self.ratio(self.weight(i))))
    }

    /// Number of distinct outcomes.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no outcome is tracked (everything is residual).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The probability of one outcome (zero if absent).
    pub fn probability(&self, value: &Value) -> BigRational {
        match self.values.binary_search(value) {
            Ok(i) => self.ratio(self.weight(i)),
            Err(_) => BigRational::zero(),
        }
    }

    /// The common denominator of all weights.
    pub fn denominator(&self) -> BigUint {
        match &self.weights {
            Weights::Small(_, d) => BigUint::from(*d),
            Weights::Big(_, d) => d.clone(),
        }
    }

    /// The mass not placed on any outcome (explosion chains longer than the truncation depth).
    pub fn residual(&self) -> BigRational {
        let placed: BigUint = (0..self.len()).map(|i| self.weight(i)).sum();
        self.ratio(self.denominator() - placed)
    }

    /// The mean over the listed outcomes, per component (one for a number). It is the exact mean
    /// when the residual is zero; [`Program::mean`] gives the exact mean of more expressions.
    pub fn mean_of_outcomes(&self) -> Vec<BigRational> {
        let components = match self.values.first() {
            Some(Value::Counts(c)) => c.as_slice().len(),
            _ => 1,
        };
        let mut sums = vec![BigInt::zero(); components];
        for (i, value) in self.values.iter().enumerate() {
            let w = BigInt::from(self.weight(i));
            match value {
                Value::Int(v) => sums[0] += &w * BigInt::from(*v),
                Value::Counts(c) => {
                    for (sum, v) in sums.iter_mut().zip(c.as_slice()) {
                        *sum += &w * BigInt::from(*v);
                    }
                }
            }
        }
        let denom = BigInt::from(self.denominator());
        sums.into_iter().map(|s| BigRational::new(s, denom.clone())).collect()
    }

    fn ratio(&self, w: BigUint) -> BigRational {
        BigRational::new(BigInt::from(w), BigInt::from(self.denominator()))
    }
}

impl Program {
    /// The exact distribution of the expression's value. Unlimited explosions are followed
    /// [`Options::depth`] extra tosses; see [`Distribution::residual`].
    pub fn distribution(&self, options: &Options) -> Result<Distribution, Error> {
        self.check_options(options)?;
        if let Some(pool) = tuple_pool(self.root()) {
            return self.with_retry(
                options,
                |eval| Ok(Distribution::from_tuple(eval.tuple::<u128>(pool)?, Weights::Small)),
                |eval| Ok(Distribution::from_tuple(eval.tuple::<BigUint>(pool)?, Weights::Big)),
            );
        }
        let root = self.root();
        if let (Some(lo), Some(hi)) = bounds(root)
            && hi - lo >= i128::from(crate::dist::MAX_SUPPORT as u32)
        {
            let message = format!("values over a range of {} (the limit is {})", hi - lo + 1, crate::dist::MAX_SUPPORT);
            return Err(self.error(ErrorKind::TooLarge(message), root.span));
        }
        let full = Window::default();
        self.with_retry(
            options,
            |eval| Ok(Distribution::from_dist(eval.node::<u128>(root, full)?, Weights::Small)),
            |eval| Ok(Distribution::from_dist(eval.node::<BigUint>(root, full)?, Weights::Big)),
        )
    }

    /// The probability of an event, exact wherever the expression bounds its explosions (sums,
    /// keep/drop, counts, comparisons of explosions with constants); otherwise bounded.
    pub fn probability(&self, event: Event, options: &Options) -> Result<Probability, Error> {
        self.check_options(options)?;
        if self.is_tuple() {
            let message = "an event needs a single-number expression, not a tuple of counts";
            return Err(self.error(ErrorKind::Meaning(message.into()), self.root().span));
        }
        let (window, at) = match event {
            Event::AtLeast(t) => (Window { lo: Some(t.saturating_sub(1)), hi: Some(t) }, t),
            Event::AtMost(t) => (Window { lo: Some(t), hi: Some(t.saturating_add(1)) }, t),
        };
        let root = self.root();
        let dist = self.with_retry(
            options,
            |eval| eval.node::<u128>(root, window).map(|d| to_big(&d)),
            |eval| eval.node::<BigUint>(root, window),
        )?;
        let denom = BigInt::from(dist.denom.clone());
        let hit: BigUint = dist.iter().filter(|(v, _)| *v == at).map(|(_, w)| w.clone()).sum();
        let placed: BigUint = dist.w.iter().sum();
        Ok(Probability {
            p: BigRational::new(BigInt::from(hit), denom.clone()),
            residual: BigRational::new(BigInt::from(&dist.denom - placed), denom),
        })
    }

    /// The exact mean of a numeric expression where fray can derive it: always when nothing is
    /// truncated, and through linearity for sums and die codes of unlimited explosions.
    /// `None` for tuples and for non-linear uses of unlimited explosions (e.g. `4d6!!kh3`).
    pub fn mean(&self, options: &Options) -> Result<Option<BigRational>, Error> {
        self.check_options(options)?;
        if self.is_tuple() {
            return Ok(None);
        }
        self.mean_of(self.root(), options)
    }

    fn mean_of(&self, node: &Node, options: &Options) -> Result<Option<BigRational>, Error> {
        let full = self.with_retry(
            options,
            |eval| eval.node::<u128>(node, Window::default()).map(|d| to_big(&d)),
            |eval| eval.node::<BigUint>(node, Window::default()),
        );
        // Too large to compute in full: linearity may still give the mean.
        let dist = match full {
            Err(e) if matches!(e.kind(), ErrorKind::TooLarge(_)) => {
                Dist { min: 0, w: Vec::new(), denom: BigUint::from(1u8) }
            }
            other => other?,
        };
        let placed: BigUint = dist.w.iter().sum();
        if placed == dist.denom {
            let total: BigInt = dist.iter().map(|(v, w)| BigInt::from(v) * BigInt::from(w.clone())).sum();
            return Ok(Some(BigRational::new(total, BigInt::from(dist.denom))));
        }
        let int = |v: i64| BigRational::from_integer(BigInt::from(v));
        let both = |a: Option<BigRational>, b: Option<BigRational>, f: fn(BigRational, BigRational) -> BigRational| {
            a.zip(b).map(|(a, b)| f(a, b))
        };
        Ok(match &node.kind {
            NodeKind::Group(inner) => self.mean_of(inner, options)?,
            NodeKind::Neg(inner) => self.mean_of(inner, options)?.map(|m| -m),
            NodeKind::Binary { op: BinOp::Add, lhs, rhs } => {
                both(self.mean_of(lhs, options)?, self.mean_of(rhs, options)?, |a, b| a + b)
            }
            NodeKind::Binary { op: BinOp::Sub, lhs, rhs } | NodeKind::Contest { lhs, rhs } => {
                both(self.mean_of(lhs, options)?, self.mean_of(rhs, options)?, |a, b| a - b)
            }
            // Operands use distinct dice, so they are independent and E[ab] = E[a]E[b].
            NodeKind::Binary { op: BinOp::Mul, lhs, rhs } => {
                both(self.mean_of(lhs, options)?, self.mean_of(rhs, options)?, |a, b| a * b)
            }
            NodeKind::Pool(pool) if pool.keep.is_none() => {
                let x = i64::from(pool.sides);
                let n = i64::from(pool.count);
                match pool.counts.first() {
                    // Per chain of ordinary `!`: E[tosses] = x/(x−1) and each toss is a fresh
                    // uniform face, so by Wald's identity E[count] = (faces satisfying)/(x − 1).
                    Some(rule) if pool.explode.is_some_and(|e| e.mode == ExplodeMode::Add) => {
                        let ok = (1..=x).filter(|&f| rule.op.holds(f, rule.value)).count() as i64;
                        Some(int(n * ok) / int(x - 1))
                    }
                    Some(_) => None,
                    // E[d x!!] = (x + 1)/2 · x/(x − 1).
                    None => Some(int(n * x * (x + 1)) / int(2 * (x - 1))),
                }
            }
            NodeKind::Wild(code) => {
                let k = i64::from(code.count);
                let regular = int(7 * (k - 1)) / int(2);
                // E[Wild | first toss ≠ 1] weighted by its probability: (2+3+4+5)/6 + (6 + 21/5)/6.
                let wild = int(14) / int(6) + (int(6) + int(21) / int(5)) / int(6);
                let on_one = match code.reading {
                    WildReading::Complication => int(1) + regular.clone(),
                    WildReading::CancelHighest => {
                        let keep = Pool {
                            count: code.count.saturating_sub(1),
                            sides: 6,
                            explode: None,
                            keep: Some(crate::syntax::Keep { kind: KeepKind::Lowest, n: code.count.saturating_sub(2) }),
                            counts: Vec::new(),
                        };
                        let node = Node { kind: NodeKind::Pool(keep), span: node.span };
                        match self.mean_of(&node, options)? {
                            Some(m) => m,
                            None => return Ok(None),
                        }
                    }
                };
                Some(on_one / int(6) + regular * int(5) / int(6) + wild)
            }
            _ => None,
        })
    }

    fn check_options(&self, options: &Options) -> Result<(), Error> {
        if options.depth > MAX_TRUNCATION_DEPTH {
            let kind = ErrorKind::Limit {
                what: "truncation depth",
                value: u64::from(options.depth),
                limit: u64::from(MAX_TRUNCATION_DEPTH),
            };
            return Err(self.error(kind, self.root().span));
        }
        Ok(())
    }

    /// Runs a computation with `u128` weights, and again with big integers if they overflow.
    fn with_retry<T>(
        &self,
        options: &Options,
        small: impl Fn(&mut Eval) -> Result<T, Fail>,
        big: impl Fn(&mut Eval) -> Result<T, Fail>,
    ) -> Result<T, Error> {
        let mut eval = Eval::new(self, options);
        let result = match small(&mut eval) {
            Err(Fail::Overflow) => big(&mut Eval::new(self, options)),
            other => other,
        };
        result.map_err(|fail| match fail {
            Fail::Error(kind, span) => self.error(kind, span),
            Fail::Overflow => self.error(ErrorKind::Overflow, self.root().span),
        })
    }
}

/// An evaluation window: values outside are clamped to its ends. `None` is unbounded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Window {
    lo: Option<i64>,
    hi: Option<i64>,
}

/// Static bounds of a value; `None` is −∞ (low) or +∞ (high).
type Bounds = (Option<i128>, Option<i128>);

fn sat(v: i128) -> i64 {
    v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// The window of `a` in `a + b`, given the window of the sum, the bounds of `a` and those of `b`.
///
/// `a` may be clamped to `[lo − max b, hi − min b]`, but never inside its own range: when both
/// operands are clamped at once, a clamped `a` must still push the sum past the window's end,
/// which needs every other operand to stay at or above its own minimum (below its maximum).
fn child_window(win: Window, (alo, ahi): Bounds, (blo, bhi): Bounds) -> Window {
    let lo = win.lo.zip(bhi).map(|(l, b)| i128::from(l) - b);
    let hi = win.hi.zip(blo).map(|(h, b)| i128::from(h) - b);
    Window {
        lo: lo.map(|l| sat(ahi.map_or(l, |own| l.min(own)))),
        hi: hi.map(|h| sat(alo.map_or(h, |own| h.max(own)))),
    }
}

fn neg_window(win: Window) -> Window {
    Window { lo: win.hi.map(|h| h.saturating_neg()), hi: win.lo.map(|l| l.saturating_neg()) }
}

fn neg_bounds((lo, hi): Bounds) -> Bounds {
    (hi.and_then(i128::checked_neg), lo.and_then(i128::checked_neg))
}

/// Bounds of one die of a pool: its value, or its per-die count.
fn die_bounds(pool: &Pool) -> Bounds {
    let x = i128::from(pool.sides);
    let chain_max = match pool.explode {
        None => Some(1),
        Some(e) => e.depth.map(|d| i128::from(d) + 1),
    };
    match pool.counts.first() {
        None => (Some(1), chain_max.map(|tosses| tosses * x)),
        Some(rule) => match pool.explode {
            Some(e) if e.mode == ExplodeMode::Add && rule.op.holds(i64::from(pool.sides), rule.value) => {
                (Some(0), chain_max)
            }
            _ => (Some(0), Some(1)),
        },
    }
}

fn kept(pool: &Pool) -> u32 {
    match pool.keep {
        None => pool.count,
        Some(keep) => match keep.kind {
            KeepKind::Highest | KeepKind::Lowest => keep.n,
            KeepKind::DropHighest | KeepKind::DropLowest => pool.count - keep.n,
        },
    }
}

/// Bounds times a non-negative factor; a side that leaves the i128 range becomes unbounded.
fn scale_bounds((lo, hi): Bounds, k: i128) -> Bounds {
    (lo.and_then(|v| v.checked_mul(k)), hi.and_then(|v| v.checked_mul(k)))
}

fn bounds(node: &Node) -> Bounds {
    match &node.kind {
        NodeKind::Int(v) => (Some(i128::from(*v)), Some(i128::from(*v))),
        NodeKind::Group(inner) => bounds(inner),
        NodeKind::Neg(inner) => neg_bounds(bounds(inner)),
        NodeKind::Pool(pool) => scale_bounds(die_bounds(pool), i128::from(kept(pool))),
        NodeKind::Wild(code) => {
            let k = i128::from(code.count);
            let hi = if code.count == 0 { Some(0) } else { code.depth.map(|d| 6 * (k - 1) + 6 * (i128::from(d) + 1)) };
            (Some(0), hi)
        }
        NodeKind::Binary { op, lhs, rhs } => {
            let (a, b) = (bounds(lhs), bounds(rhs));
            match op {
                BinOp::Add => {
                    (a.0.zip(b.0).and_then(|(x, y)| x.checked_add(y)), a.1.zip(b.1).and_then(|(x, y)| x.checked_add(y)))
                }
                BinOp::Sub => sub_bounds(a, b),
                BinOp::Mul => {
                    let corners = match (a.0, a.1, b.0, b.1) {
                        (Some(a0), Some(a1), Some(b0), Some(b1)) => {
                            [a0.checked_mul(b0), a0.checked_mul(b1), a1.checked_mul(b0), a1.checked_mul(b1)]
                                .into_iter()
                                .collect::<Option<Vec<i128>>>()
                        }
                        _ => None,
                    };
                    if let Some(corners) = corners {
                        (corners.iter().min().copied(), corners.iter().max().copied())
                    } else if let Some(Ok(c)) = constant(rhs) {
                        mul_bounds(a, c)
                    } else if let Some(Ok(c)) = constant(lhs) {
                        mul_bounds(b, c)
                    } else {
                        (None, None)
                    }
                }
                BinOp::Div => match constant(rhs) {
                    Some(Ok(c)) if c != 0 => {
                        let c = i128::from(c);
                        let q =
                            |v: Option<i128>| v.map(|v| v.div_euclid(c) - i128::from(v.rem_euclid(c) != 0 && c < 0));
                        if c > 0 { (q(a.0), q(a.1)) } else { (q(a.1), q(a.0)) }
                    }
                    _ => (None, None),
                },
            }
        }
        NodeKind::Contest { lhs, rhs } => sub_bounds(bounds(lhs), bounds(rhs)),
        NodeKind::Compare { .. } => (Some(0), Some(1)),
        NodeKind::Call { func, args } => {
            let all: Vec<Bounds> = args.iter().map(bounds).collect();
            match func {
                Func::Max => (
                    all.iter().filter_map(|b| b.0).max(),
                    all.iter().map(|b| b.1).collect::<Option<Vec<_>>>().and_then(|v| v.into_iter().max()),
                ),
                Func::Min => (
                    all.iter().map(|b| b.0).collect::<Option<Vec<_>>>().and_then(|v| v.into_iter().min()),
                    all.iter().filter_map(|b| b.1).min(),
                ),
                Func::Abs => {
                    let (lo, hi) = all[0];
                    match (lo, hi) {
                        (Some(l), _) if l >= 0 => (lo, hi),
                        (_, Some(h)) if h <= 0 => (h.checked_neg(), lo.and_then(i128::checked_neg)),
                        _ => (Some(0), lo.zip(hi).and_then(|(l, h)| l.checked_neg().map(|l| l.max(h)))),
                    }
                }
            }
        }
    }
}

fn sub_bounds(a: Bounds, b: Bounds) -> Bounds {
    let nb = neg_bounds(b);
    (a.0.zip(nb.0).and_then(|(x, y)| x.checked_add(y)), a.1.zip(nb.1).and_then(|(x, y)| x.checked_add(y)))
}

fn mul_bounds(a: Bounds, c: i64) -> Bounds {
    let c = i128::from(c);
    match c.cmp(&0) {
        std::cmp::Ordering::Greater => scale_bounds(a, c),
        std::cmp::Ordering::Less => scale_bounds(neg_bounds(a), -c),
        std::cmp::Ordering::Equal => (Some(0), Some(0)),
    }
}

fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    -div_floor(-a, b)
}

/// The evaluator of one exact computation.
pub(crate) struct Eval {
    depth: u32,
    limits: Limits,
}

impl Eval {
    fn new(program: &Program, options: &Options) -> Eval {
        Eval { depth: options.depth, limits: Limits { span: program.root().span, work: 0 } }
    }

    fn fail(kind: ErrorKind, span: Span) -> Fail {
        Fail::Error(kind, span)
    }

    fn node<W: Weight>(&mut self, node: &Node, win: Window) -> Result<Dist<W>, Fail> {
        let outer = self.limits.span;
        self.limits.span = node.span;
        let result = self.node_inner(node, win);
        self.limits.span = outer;
        result?.clamp(win.lo, win.hi, &mut self.limits)
    }

    fn node_inner<W: Weight>(&mut self, node: &Node, win: Window) -> Result<Dist<W>, Fail> {
        match &node.kind {
            NodeKind::Int(v) => Ok(Dist::point(*v)),
            NodeKind::Group(inner) => self.node(inner, win),
            NodeKind::Neg(inner) => self.node::<W>(inner, neg_window(win))?.neg(&self.limits),
            NodeKind::Binary { op: BinOp::Add, lhs, rhs } => self.sum(lhs, rhs, false, win),
            NodeKind::Binary { op: BinOp::Sub, lhs, rhs } | NodeKind::Contest { lhs, rhs } => {
                self.sum(lhs, rhs, true, win)
            }
            NodeKind::Binary { op: BinOp::Mul, lhs, rhs } => {
                if let Some(Ok(c)) = constant(rhs) {
                    self.scaled(lhs, c, win, node.span)
                } else if let Some(Ok(c)) = constant(lhs) {
                    self.scaled(rhs, c, win, node.span)
                } else {
                    let a = self.node::<W>(lhs, Window::default())?;
                    let b = self.node::<W>(rhs, Window::default())?;
                    let extremes =
                        [a.min, a.max()].into_iter().flat_map(|x| [b.min, b.max()].map(|y| x.checked_mul(y)));
                    if extremes.into_iter().any(|p| p.is_none()) {
                        return Err(Self::fail(ErrorKind::Overflow, node.span));
                    }
                    a.combine(&b, &mut self.limits, |x, y| x * y)
                }
            }
            NodeKind::Binary { op: BinOp::Div, lhs, rhs } => {
                let Some(Ok(c)) = constant(rhs) else {
                    return Err(Self::fail(ErrorKind::Meaning("the divisor must be a constant".into()), rhs.span));
                };
                let (c, abs) = (i128::from(c), i128::from(c).abs());
                // For y = ±x: clamp(y / |c|) is kept when y is clamped to [lo·|c| + |c| − 1, hi·|c|].
                let y_win = Window {
                    lo: win.lo.map(|l| sat(i128::from(l) * abs + abs - 1)),
                    hi: win.hi.map(|h| sat(i128::from(h) * abs)),
                };
                let x_win = if c > 0 { y_win } else { neg_window(y_win) };
                let x = self.node::<W>(lhs, x_win)?;
                x.map(&mut self.limits, |v| sat(div_floor(i128::from(v), c)))
            }
            NodeKind::Compare { op, lhs, rhs } => {
                // The difference lhs − rhs, clamped just around the decisive point.
                let (lo, hi) = match op {
                    CmpOp::Ge | CmpOp::Lt => (-1, 0),
                    CmpOp::Gt | CmpOp::Le => (0, 1),
                    CmpOp::Eq | CmpOp::Ne => (-1, 1),
                };
                let diff = self.sum::<W>(lhs, rhs, true, Window { lo: Some(lo), hi: Some(hi) })?;
                let diff = diff.clamp(Some(lo), Some(hi), &mut self.limits)?;
                let op = *op;
                diff.map(&mut self.limits, |d| i64::from(op.holds(d, 0)))
            }
            NodeKind::Call { func: Func::Abs, args } => {
                let inner_win = match win.hi {
                    Some(h) if h >= 0 => Window { lo: Some(-h), hi: Some(h) },
                    _ => Window::default(),
                };
                let a = self.node::<W>(&args[0], inner_win)?;
                a.map(&mut self.limits, |v| v.saturating_abs())
            }
            NodeKind::Call { func, args } => {
                // clamp commutes with max and min, so every argument takes the same window.
                let mut acc = self.node::<W>(&args[0], win)?;
                for arg in &args[1..] {
                    let next = self.node::<W>(arg, win)?;
                    let pick: fn(i64, i64) -> i64 = if *func == Func::Max { i64::max } else { i64::min };
                    acc = acc.combine(&next, &mut self.limits, pick)?;
                    acc.reduce();
                }
                Ok(acc)
            }
            NodeKind::Pool(pool) => self.pool(pool, win),
            NodeKind::Wild(code) => self.wild(code, win),
        }
    }

    /// `lhs + rhs`, or `lhs − rhs` when `negate` is set.
    fn sum<W: Weight>(&mut self, lhs: &Node, rhs: &Node, negate: bool, win: Window) -> Result<Dist<W>, Fail> {
        let (a_bounds, b_bounds) = (bounds(lhs), bounds(rhs));
        let b_signed = if negate { neg_bounds(b_bounds) } else { b_bounds };
        let a = self.node::<W>(lhs, child_window(win, a_bounds, b_signed))?;
        let b_win = child_window(win, b_signed, a_bounds);
        let b = if negate {
            self.node::<W>(rhs, neg_window(b_win))?.neg(&self.limits)?
        } else {
            self.node::<W>(rhs, b_win)?
        };
        let mut out = a.convolve(&b, &mut self.limits)?;
        out.reduce();
        Ok(out)
    }

    /// `x · c` for a constant `c`.
    fn scaled<W: Weight>(&mut self, x: &Node, c: i64, win: Window, span: Span) -> Result<Dist<W>, Fail> {
        if c == 0 {
            // The operand's dice are still rolled; evaluate it for its errors (e.g. overflow).
            self.node::<W>(x, Window::default())?;
            return Ok(Dist::point(0));
        }
        let abs = i128::from(c).abs();
        // x·c = y·|c| for y = ±x; clamp(y·|c|) is kept when y is clamped to [⌊lo/|c|⌋, ⌈hi/|c|⌉].
        let y_win = Window {
            lo: win.lo.map(|l| sat(div_floor(i128::from(l), abs))),
            hi: win.hi.map(|h| sat(div_ceil(i128::from(h), abs))),
        };
        let x_win = if c > 0 { y_win } else { neg_window(y_win) };
        let d = self.node::<W>(x, x_win)?;
        if d.min.checked_mul(c).is_none() || d.max().checked_mul(c).is_none() {
            return Err(Self::fail(ErrorKind::Overflow, span));
        }
        d.map(&mut self.limits, |v| v * c)
    }

    fn pool<W: Weight>(&mut self, pool: &Pool, win: Window) -> Result<Dist<W>, Fail> {
        let (dmin, dmax) = die_bounds(pool);
        let take = kept(pool);
        if pool.count == 0 || take == 0 {
            return Ok(Dist::point(0));
        }
        // A window for one die, given that `others` more dice join it in the total.
        let die_window = |others: u32| {
            let others = i128::from(others);
            child_window(win, (dmin, dmax), (dmin.map(|m| m * others), dmax.map(|m| m * others)))
        };
        let mut die = match pool.counts.first() {
            Some(rule) => self.count_die::<W>(pool, rule, die_window(pool.count - 1))?,
            None => self.value_die::<W>(pool, die_window(take - 1))?,
        };
        die.reduce();
        match pool.keep {
            None => self.sum_iid(&die, pool.count, win, (dmin, dmax)),
            Some(keep) => {
                let highest = matches!(keep.kind, KeepKind::Highest | KeepKind::DropLowest);
                self.keep(&die, pool.count, take, highest)
            }
        }
    }

    /// The value of one die of the pool (its whole chain when it explodes).
    fn value_die<W: Weight>(&mut self, pool: &Pool, win: Window) -> Result<Dist<W>, Fail> {
        let x = pool.sides;
        let die = match pool.explode {
            None => Dist { min: 1, w: vec![W::one(); x as usize], denom: W::from_u64(u64::from(x)) },
            Some(e) => {
                let xi = i64::from(x);
                self.chain(x, e.depth, win.hi, |k, r| xi * i64::from(k) + i64::from(r), |k| xi * i64::from(k) + 1)?
            }
        };
        die.clamp(win.lo, win.hi, &mut self.limits)
    }

    /// How many tosses of one die (its whole chain) meet the rule.
    fn count_die<W: Weight>(&mut self, pool: &Pool, rule: &CountRule, win: Window) -> Result<Dist<W>, Fail> {
        let x = pool.sides;
        let holds = |v: i64| i64::from(rule.op.holds(v, rule.value));
        match pool.explode {
            Some(e) if e.mode == ExplodeMode::Add => {
                let on_top = holds(i64::from(x));
                if on_top == 0 && e.depth.is_none() {
                    // The chain's last toss is uniform on 1..x−1 and only it can count.
                    let ok = (1..i64::from(x)).filter(|&f| holds(f) == 1).count() as u64;
                    let miss = u64::from(x) - 1 - ok;
                    let denom = W::from_u64(u64::from(x) - 1);
                    return Ok(Dist { min: 0, w: vec![W::from_u64(miss), W::from_u64(ok)], denom });
                }
                let d = self.chain(
                    x,
                    e.depth,
                    win.hi,
                    |k, r| i64::from(k) * on_top + holds(i64::from(r)),
                    |k| i64::from(k) * on_top,
                )?;
                d.clamp(win.lo, win.hi, &mut self.limits)
            }
            _ => {
                // Values above the threshold all count alike: clamp the die just above it.
                let cap = Window { lo: None, hi: Some(rule.value.saturating_add(1)) };
                let die = self.value_die::<W>(pool, cap)?;
                die.map(&mut self.limits, holds)
            }
        }
    }

    /// One die's chain of explosions: after `k` explosions the final toss `r` gives `value(k, r)`.
    /// Stops where the chain's least value reaches `hi` (lumping the rest there), at an explicit
    /// depth (whose last toss stands even on the top face), or at the truncation depth (residual).
    fn chain<W: Weight>(
        &mut self,
        sides: u32,
        explicit: Option<u32>,
        hi: Option<i64>,
        value: impl Fn(u32, u32) -> i64,
        level_min: impl Fn(u32) -> i64,
    ) -> Result<Dist<W>, Fail> {
        enum End {
            Lump,
            Last,
            Truncate,
        }
        let mut k = 0u32;
        let end = loop {
            if hi.is_some_and(|h| level_min(k) >= h) {
                break End::Lump;
            }
            if explicit == Some(k) {
                break End::Last;
            }
            // Under a finite window the chain runs on to the lump, unless that is absurdly far.
            if explicit.is_none() && k > self.depth && (hi.is_none() || k >= MAX_CHAIN_LEVELS) {
                break End::Truncate;
            }
            k += 1;
        };
        self.limits.work(u64::from(k + 1) * u64::from(sides))?;
        let x = W::from_u64(u64::from(sides));
        let denom_exp = if matches!(end, End::Last) { k + 1 } else { k };
        let mut powers = vec![W::one()];
        for _ in 0..denom_exp {
            let next = overflow(powers.last().expect("non-empty").checked_mul(&x))?;
            powers.push(next);
        }
        let mut pairs: Vec<(i64, W)> = Vec::with_capacity((k as usize + 1) * sides as usize);
        for level in 0..k {
            let weight = &powers[(denom_exp - level - 1) as usize];
            for r in 1..sides {
                pairs.push((value(level, r), weight.clone()));
            }
        }
        match end {
            End::Lump => pairs.push((hi.unwrap_or(0), W::one())),
            End::Last => pairs.extend((1..=sides).map(|r| (value(k, r), W::one()))),
            End::Truncate => {}
        }
        let denom = powers[denom_exp as usize].clone();
        Dist::from_pairs(pairs.into_iter(), denom, &mut self.limits)
    }

    /// The sum of `n` independent copies of `die`, clamping partial sums as the window allows.
    fn sum_iid<W: Weight>(
        &mut self,
        die: &Dist<W>,
        n: u32,
        win: Window,
        (dmin, dmax): Bounds,
    ) -> Result<Dist<W>, Fail> {
        let window_after = |placed: u32| {
            let (placed, others) = (i128::from(placed), i128::from(n - placed));
            let own = (dmin.map(|m| m * placed), dmax.map(|m| m * placed));
            child_window(win, own, (dmin.map(|m| m * others), dmax.map(|m| m * others)))
        };
        let first = window_after(1);
        let mut acc = die.clone().clamp(first.lo, first.hi, &mut self.limits)?;
        let mut spare = Dist { min: 0, w: Vec::new(), denom: W::zero() };
        for placed in 2..=n {
            let w = window_after(placed);
            acc.convolve_into(die, &mut spare, &mut self.limits)?;
            std::mem::swap(&mut acc, &mut spare);
            acc = acc.clamp(w.lo, w.hi, &mut self.limits)?;
        }
        acc.reduce();
        Ok(acc)
    }

    /// The sum of the `take` best of `n` dice (highest or lowest), outcome by outcome.
    ///
    /// Outcomes are visited from best to worst; a state is (dice placed so far, kept sum so far).
    /// Once `take` dice are placed the kept sum is settled and each remaining die may show any
    /// worse outcome, so the state closes at once with weight `C(left, j)·w^j·below^(left − j)`:
    /// only states with fewer than `take` dice placed are carried.
    fn keep<W: Weight>(&mut self, die: &Dist<W>, n: u32, take: u32, highest: bool) -> Result<Dist<W>, Fail> {
        let mut outcomes: Vec<(i64, W)> = die.iter().map(|(v, w)| (v, w.clone())).collect();
        let denom = overflow(die.denom.pow(n))?;
        if outcomes.is_empty() {
            return Ok(Dist { min: 0, w: Vec::new(), denom });
        }
        if highest {
            outcomes.reverse();
        }
        let (n, take) = (n as usize, take as usize);
        let vmin = die.min;
        let spread = (die.max() - die.min) as u64;
        let sums = self.limits.width(take as i128 * i128::from(spread) + 1)?;
        let cells = self.limits.width(take as i128 * sums as i128)?;
        let ops = outcomes.len() as u64 * take as u64 * ((take as u64 + 1) * sums as u64 + n as u64 + 1);
        self.limits.work(ops.saturating_mul(denom.cost()))?;
        let pascal = pascal::<W>(n as u32)?;
        // Total weight of the outcomes worse than the current one.
        let mut below = W::zero();
        for (_, w) in &outcomes {
            below = overflow(below.checked_add(w))?;
        }
        let fill_powers = |powers: &mut Vec<W>, base: &W| -> Result<(), Fail> {
            powers.clear();
            powers.push(W::one());
            for _ in 0..n {
                let next = overflow(powers.last().expect("non-empty").checked_mul(base))?;
                powers.push(next);
            }
            Ok(())
        };
        let (mut at, mut under) = (Vec::with_capacity(n + 1), Vec::with_capacity(n + 1));
        let mut coefficients = vec![W::zero(); take * (take + 1)];
        let mut open = vec![W::zero(); cells];
        let mut next = vec![W::zero(); cells];
        let mut done = vec![W::zero(); sums];
        open[0] = W::one();
        for (v, w) in &outcomes {
            below.sub_unchecked(w);
            fill_powers(&mut at, w)?;
            fill_powers(&mut under, &below)?;
            // Per state row `placed`: the coefficient of moving to placed + j (j < take − placed),
            // and the summed coefficient of every way to close (j ≥ take − placed). Each is a
            // weight of a sub-event of n dice, at most denom^n, which was checked.
            for placed in 0..take {
                let left = n - placed;
                let row = &mut coefficients[placed * (take + 1)..(placed + 1) * (take + 1)];
                let mut closing = W::zero();
                for jj in 0..=left {
                    let mut c = W::zero();
                    c.add_product_unchecked(&pascal[left][jj], &at[jj]);
                    if placed + jj < take {
                        row[jj] = c;
                    } else {
                        closing.add_product_unchecked(&c, &under[left - jj]);
                    }
                }
                row[take] = closing;
            }
            let step = (v - vmin) as usize;
            next.iter_mut().for_each(|x| *x = W::zero());
            for placed in 0..take {
                let row = &coefficients[placed * (take + 1)..(placed + 1) * (take + 1)];
                for s in 0..sums {
                    let here = &open[placed * sums + s];
                    if here.is_zero() {
                        continue;
                    }
                    for (jj, c) in row[..take - placed].iter().enumerate() {
                        next[(placed + jj) * sums + s + jj * step].add_product_unchecked(here, c);
                    }
                    done[s + (take - placed) * step].add_product_unchecked(here, &row[take]);
                }
            }
            std::mem::swap(&mut open, &mut next);
        }
        let mut out = Dist { min: take as i64 * vmin, w: done, denom };
        out.trim();
        out.reduce();
        Ok(out)
    }

    /// An OpenD6 die code: k − 1 regular d6 plus the Wild Die (OD6-DICE-3/4/5).
    fn wild<W: Weight>(&mut self, code: &WildCode, win: Window) -> Result<Dist<W>, Fail> {
        if code.count == 0 {
            return Ok(Dist::point(0));
        }
        let n = code.count - 1;
        let plain = Pool { count: n, sides: 6, explode: None, keep: None, counts: Vec::new() };
        let regular = self.pool::<W>(&plain, Window::default())?;
        // First toss 1 (probability 1/6).
        let on_one = match code.reading {
            WildReading::Complication => regular.convolve(&Dist::point(1), &mut self.limits)?,
            WildReading::CancelHighest => {
                let keep = crate::syntax::Keep { kind: KeepKind::Lowest, n: n.saturating_sub(1) };
                let rest = Pool { count: n, sides: 6, explode: None, keep: Some(keep), counts: Vec::new() };
                self.pool::<W>(&rest, Window::default())?
            }
        };
        // First toss 2..5, or 6 and the chain that follows it.
        let wild_bounds: Bounds = (Some(2), code.depth.map(|d| 6 * (i128::from(d) + 1)));
        let regular_bounds: Bounds = (Some(i128::from(n)), Some(6 * i128::from(n)));
        let wild_win = child_window(win, wild_bounds, regular_bounds);
        let next = match code.depth {
            Some(0) => Dist::point(0),
            depth => {
                let chain_bounds = (Some(1), wild_bounds.1.map(|hi| hi - 6));
                let chain_win = child_window(wild_win, chain_bounds, (Some(6), Some(6)));
                let die = Pool {
                    count: 1,
                    sides: 6,
                    explode: Some(crate::syntax::Explode { mode: ExplodeMode::Compound, depth: depth.map(|d| d - 1) }),
                    keep: None,
                    counts: Vec::new(),
                };
                self.value_die::<W>(&die, chain_win)?
            }
        };
        let mut pairs: Vec<(i64, W)> = (2..=5).map(|f| (f, next.denom.clone())).collect();
        pairs.extend(next.iter().map(|(v, w)| (6 + v, w.clone())));
        let denom = overflow(next.denom.checked_mul(&W::from_u64(6)))?;
        let wild = Dist::from_pairs(pairs.into_iter(), denom, &mut self.limits)?.clamp(
            wild_win.lo,
            wild_win.hi,
            &mut self.limits,
        )?;
        let regular_win = child_window(win, regular_bounds, wild_bounds);
        let regular = regular.clamp(regular_win.lo, regular_win.hi, &mut self.limits)?;
        let otherwise = regular.convolve(&wild, &mut self.limits)?;
        let mut out = on_one.scale(1, 6)?.mix(&otherwise, &mut self.limits)?;
        out.reduce();
        Ok(out)
    }

    /// A pool with several counts: the joint distribution of the counts.
    ///
    /// Each die falls into one pattern (which counts it meets); the pool is multinomial over the
    /// P patterns, so every way of sharing the n dice among them, C(n + P − 1, P − 1) in all,
    /// is weighed directly as C(n, k₁)·C(n − k₁, k₂)·…·w₁^k₁·w₂^k₂·… — no dynamic program, and the
    /// size is known before any work starts.
    fn tuple<W: Weight>(&mut self, pool: &Pool) -> Result<(Vec<(Value, W)>, W), Fail> {
        let cap = pool.counts.iter().map(|r| r.value.saturating_add(1)).max().unwrap_or(0);
        let mut die = self.value_die::<W>(pool, Window { lo: None, hi: Some(cap) })?;
        die.reduce();
        let rules = &pool.counts;
        let mut by_mask: BTreeMap<u8, W> = BTreeMap::new();
        for (v, w) in die.iter() {
            let mask = rules.iter().enumerate().fold(0u8, |m, (i, r)| m | (u8::from(r.op.holds(v, r.value)) << i));
            let slot = by_mask.entry(mask).or_insert_with(W::zero);
            *slot = overflow(slot.checked_add(w))?;
        }
        let patterns: Vec<(u8, W)> = by_mask.into_iter().collect();
        let n = pool.count as usize;
        // Compositions of n into P parts: C(n + P − 1, P − 1), computed in floating point only
        // to refuse early.
        let parts = patterns.len().max(1);
        let compositions = (1..parts).fold(1.0f64, |acc, i| acc * (n + i) as f64 / i as f64);
        if compositions > crate::dist::MAX_SUPPORT as f64 {
            let message = format!("about {compositions:.0} ways to share {n} dice among {parts} patterns");
            return Err(Fail::Error(ErrorKind::TooLarge(message), self.limits.span));
        }
        let denom = overflow(die.denom.pow(pool.count))?;
        self.limits.work((compositions as u64 + 1) * parts as u64 * 2 * denom.cost())?;
        let pascal = pascal::<W>(pool.count)?;
        let powers: Vec<Vec<W>> = patterns
            .iter()
            .map(|(_, w)| {
                let mut row = vec![W::one()];
                for _ in 0..n {
                    row.push(overflow(row.last().expect("non-empty").checked_mul(w))?);
                }
                Ok(row)
            })
            .collect::<Result<_, Fail>>()?;
        let mut joint: BTreeMap<Counts, W> = BTreeMap::new();
        let start = Counts::from_slice(&[0; crate::syntax::MAX_COUNTS][..rules.len()]);
        share(&patterns, &powers, &pascal, 0, n, W::one(), start, &mut joint)?;
        let outcomes = joint.into_iter().filter(|(_, w)| !w.is_zero()).map(|(c, w)| (Value::Counts(c), w)).collect();
        Ok((outcomes, denom))
    }
}

/// Shares `left` dice among the patterns from `index` on, adding each complete sharing's weight.
#[allow(clippy::too_many_arguments, reason = "the recursion's state, passed down unchanged but for three")]
fn share<W: Weight>(
    patterns: &[(u8, W)],
    powers: &[Vec<W>],
    pascal: &[Vec<W>],
    index: usize,
    left: usize,
    weight: W,
    counts: Counts,
    joint: &mut BTreeMap<Counts, W>,
) -> Result<(), Fail> {
    let Some(((mask, _), rest)) = patterns[index..].split_first().map(|(p, r)| (p, r.len())) else {
        return Ok(());
    };
    // The last pattern takes every die left.
    let choices = if rest == 0 { left..=left } else { 0..=left };
    for k in choices {
        let factor = overflow(pascal[left][k].checked_mul(&powers[index][k]))?;
        let weight = overflow(weight.checked_mul(&factor))?;
        let mut counts = counts;
        counts.add_mask(*mask, k as i64);
        if rest == 0 {
            let slot = joint.entry(counts).or_insert_with(W::zero);
            *slot = overflow(slot.checked_add(&weight))?;
        } else {
            share(patterns, powers, pascal, index + 1, left - k, weight, counts, joint)?;
        }
    }
    Ok(())
}

/// Formats a fraction as `num/den` in lowest terms (`0/1` and `1/1` included).
pub fn fraction(r: &BigRational) -> String {
    format!("{}/{}", r.numer(), r.denom())
}

/// True when `r` is exactly one.
pub fn is_one(r: &BigRational) -> bool {
    r.is_one()
}
