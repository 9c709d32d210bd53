//! Exact weights and dense distributions over integers: the arithmetic under [`crate::exact`].
//!
//! A distribution is a run of integer weights over consecutive values with one common
//! denominator; the weights may sum to less than the denominator, the difference being the
//! *residual*: mass whose value is not tracked (an explosion chain longer than the truncation
//! depth). Weights are `u128` where they fit and [`BigUint`] where they do not: every operation
//! is checked, and an overflow makes the caller start again with big integers.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::Zero;
use std::fmt::Debug;

/// Why an exact computation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fail {
    /// A weight left the range of the weight type; try again with big integers.
    Overflow,
    /// A typed error to report (limit, size).
    Error(crate::error::ErrorKind, crate::error::Span),
}

/// Non-negative exact integer weights.
pub(crate) trait Weight: Clone + PartialEq + Debug {
    fn zero() -> Self;
    fn from_u64(v: u64) -> Self;
    fn is_zero(&self) -> bool;
    fn checked_add(&self, other: &Self) -> Option<Self>;
    fn checked_mul(&self, other: &Self) -> Option<Self>;
    /// `self += a * b` where the caller has shown the result cannot overflow (every weight of a
    /// distribution is at most its denominator, which was computed with checked arithmetic).
    fn add_product_unchecked(&mut self, a: &Self, b: &Self);
    /// `self += a`, unchecked in the same sense.
    fn add_unchecked(&mut self, a: &Self);
    /// `self −= a`, with `a ≤ self`.
    fn sub_unchecked(&mut self, a: &Self);
    fn gcd(&self, other: &Self) -> Self;
    fn div_exact(&self, other: &Self) -> Self;
    fn to_big(&self) -> BigUint;
    /// Relative cost of one multiply-add with weights of this size (1 for `u128`).
    fn cost(&self) -> u64;

    fn one() -> Self {
        Self::from_u64(1)
    }

    fn pow(&self, exp: u32) -> Option<Self> {
        let mut result = Self::one();
        for _ in 0..exp {
            result = result.checked_mul(self)?;
        }
        Some(result)
    }
}

impl Weight for u128 {
    fn zero() -> Self {
        0
    }
    fn from_u64(v: u64) -> Self {
        u128::from(v)
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
    fn checked_add(&self, other: &Self) -> Option<Self> {
        u128::checked_add(*self, *other)
    }
    fn checked_mul(&self, other: &Self) -> Option<Self> {
        u128::checked_mul(*self, *other)
    }
    fn add_product_unchecked(&mut self, a: &Self, b: &Self) {
        *self = self.wrapping_add(a.wrapping_mul(*b));
    }
    fn add_unchecked(&mut self, a: &Self) {
        *self = self.wrapping_add(*a);
    }
    fn sub_unchecked(&mut self, a: &Self) {
        *self = self.wrapping_sub(*a);
    }
    fn gcd(&self, other: &Self) -> Self {
        Integer::gcd(self, other)
    }
    fn div_exact(&self, other: &Self) -> Self {
        self / other
    }
    fn to_big(&self) -> BigUint {
        BigUint::from(*self)
    }
    fn cost(&self) -> u64 {
        1
    }
}

impl Weight for BigUint {
    fn zero() -> Self {
        Zero::zero()
    }
    fn from_u64(v: u64) -> Self {
        BigUint::from(v)
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn checked_add(&self, other: &Self) -> Option<Self> {
        Some(self + other)
    }
    fn checked_mul(&self, other: &Self) -> Option<Self> {
        Some(self * other)
    }
    fn add_product_unchecked(&mut self, a: &Self, b: &Self) {
        if !Zero::is_zero(a) && !Zero::is_zero(b) {
            *self += a * b;
        }
    }
    fn add_unchecked(&mut self, a: &Self) {
        *self += a;
    }
    fn sub_unchecked(&mut self, a: &Self) {
        *self -= a;
    }
    fn gcd(&self, other: &Self) -> Self {
        Integer::gcd(self, other)
    }
    fn div_exact(&self, other: &Self) -> Self {
        self / other
    }
    fn to_big(&self) -> BigUint {
        self.clone()
    }
    fn cost(&self) -> u64 {
        // A big multiply-add costs about an allocation plus a pass over the limbs.
        8 + self.bits() / 32
    }
}

pub(crate) fn overflow<T>(v: Option<T>) -> Result<T, Fail> {
    v.ok_or(Fail::Overflow)
}

/// Weights over the consecutive values `min, min + 1, …`, out of `denom`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Dist<W> {
    pub min: i64,
    pub w: Vec<W>,
    pub denom: W,
}

impl<W: Weight> Dist<W> {
    /// Certainty of one value.
    pub fn point(v: i64) -> Dist<W> {
        Dist { min: v, w: vec![W::one()], denom: W::one() }
    }

    /// The largest value with a slot (may carry zero weight only if the support is empty).
    pub fn max(&self) -> i64 {
        self.min + self.w.len() as i64 - 1
    }

    /// Pairs of (value, weight) with non-zero weight.
    pub fn iter(&self) -> impl Iterator<Item = (i64, &W)> + Clone {
        let min = self.min;
        self.w.iter().enumerate().filter(|(_, w)| !w.is_zero()).map(move |(i, w)| (min + i as i64, w))
    }

    /// Drops zero weights at both ends.
    pub fn trim(&mut self) {
        let lead = self.w.iter().take_while(|w| w.is_zero()).count();
        if lead == self.w.len() {
            self.w.clear();
            return;
        }
        self.w.drain(..lead);
        self.min += lead as i64;
        while self.w.last().is_some_and(W::is_zero) {
            self.w.pop();
        }
    }

    /// Divides weights and denominator by their common factor.
    pub fn reduce(&mut self) {
        let mut g = self.denom.clone();
        for w in &self.w {
            if g == W::one() {
                return;
            }
            if !w.is_zero() {
                g = g.gcd(w);
            }
        }
        if g.is_zero() || g == W::one() {
            return;
        }
        for w in &mut self.w {
            *w = w.div_exact(&g);
        }
        self.denom = self.denom.div_exact(&g);
    }

    /// Builds a distribution from arbitrary (value, weight) pairs.
    pub fn from_pairs(
        pairs: impl Iterator<Item = (i64, W)> + Clone,
        denom: W,
        limits: &mut Limits,
    ) -> Result<Dist<W>, Fail> {
        let mut range: Option<(i64, i64)> = None;
        for (v, w) in pairs.clone() {
            if !w.is_zero() {
                range = Some(range.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))));
            }
        }
        let Some((lo, hi)) = range else {
            return Ok(Dist { min: 0, w: Vec::new(), denom });
        };
        let width = limits.width(i128::from(hi) - i128::from(lo) + 1)?;
        let mut w = vec![W::zero(); width];
        for (v, weight) in pairs {
            if !weight.is_zero() {
                let slot = &mut w[(v - lo) as usize];
                *slot = overflow(slot.checked_add(&weight))?;
            }
        }
        Ok(Dist { min: lo, w, denom })
    }

    /// The distribution of `f(x)`.
    pub fn map(&self, limits: &mut Limits, f: impl Fn(i64) -> i64) -> Result<Dist<W>, Fail> {
        limits.work(self.w.len() as u64)?;
        let f = &f;
        Dist::from_pairs(self.iter().map(move |(v, w)| (f(v), w.clone())), self.denom.clone(), limits)
    }

    /// The distribution of `max(lo, min(x, hi))` for the bounds given.
    pub fn clamp(self, lo: Option<i64>, hi: Option<i64>, limits: &mut Limits) -> Result<Dist<W>, Fail> {
        let needs_lo = lo.is_some_and(|lo| lo > self.min);
        let needs_hi = hi.is_some_and(|hi| hi < self.max());
        if self.w.is_empty() || (!needs_lo && !needs_hi) {
            return Ok(self);
        }
        let (lo, hi) = (lo.unwrap_or(i64::MIN), hi.unwrap_or(i64::MAX));
        if lo > hi {
            // An empty window cannot arise from the evaluator's arithmetic; keep the mass at lo.
            return self.map(limits, |_| lo);
        }
        self.map(limits, |v| v.clamp(lo, hi))
    }

    /// The distribution of `−x`.
    pub fn neg(mut self, limits: &Limits) -> Result<Dist<W>, Fail> {
        if self.w.is_empty() {
            return Ok(self);
        }
        let max = self.max();
        limits.value(self.min.checked_neg())?;
        self.w.reverse();
        self.min = limits.value(max.checked_neg())?;
        Ok(self)
    }

    /// The distribution of `x + y` for independent `x` (self) and `y`.
    pub fn convolve(&self, other: &Dist<W>, limits: &mut Limits) -> Result<Dist<W>, Fail> {
        let mut out = Dist { min: 0, w: Vec::new(), denom: W::zero() };
        self.convolve_into(other, &mut out, limits)?;
        Ok(out)
    }

    /// [`Dist::convolve`] into `out`, reusing its storage.
    pub fn convolve_into(&self, other: &Dist<W>, out: &mut Dist<W>, limits: &mut Limits) -> Result<(), Fail> {
        out.denom = overflow(self.denom.checked_mul(&other.denom))?;
        out.w.clear();
        out.min = 0;
        if !self.w.is_empty() && !other.w.is_empty() {
            out.min = limits.value(self.min.checked_add(other.min))?;
            limits.value(self.max().checked_add(other.max()))?;
        }
        if self.w.is_empty() || other.w.is_empty() {
            out.min = 0;
            return Ok(());
        }
        let width = limits.width(self.w.len() as i128 + other.w.len() as i128 - 1)?;
        // A sliding window costs a step per value of the result; otherwise every pair multiplies.
        let steps = match other.uniform() {
            Some(_) => width as u64 * 2,
            None => self.w.len() as u64 * other.w.len() as u64,
        };
        limits.work(steps * out.denom.cost())?;
        out.w.resize(width, W::zero());
        if let Some(step) = other.uniform() {
            // Every weight of `other` is `step`: a sliding window sum, additions only.
            let m = other.w.len();
            let mut window = W::zero();
            for (i, slot) in out.w.iter_mut().enumerate() {
                if let Some(a) = self.w.get(i) {
                    window.add_unchecked(a);
                }
                if i >= m {
                    window.sub_unchecked(&self.w[i - m]);
                }
                slot.add_product_unchecked(&window, step);
            }
        } else {
            // No weight can exceed the denominator, whose product was checked above.
            for (i, a) in self.w.iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                for (j, b) in other.w.iter().enumerate() {
                    out.w[i + j].add_product_unchecked(a, b);
                }
            }
        }
        out.trim();
        Ok(())
    }

    /// The common weight, when every value in the range carries the same non-zero weight.
    pub fn uniform(&self) -> Option<&W> {
        let first = self.w.first()?;
        (!first.is_zero() && self.w.len() > 1 && self.w.iter().all(|w| w == first)).then_some(first)
    }

    /// The distribution of `f(x, y)` for independent `x` (self) and `y`.
    pub fn combine(&self, other: &Dist<W>, limits: &mut Limits, f: impl Fn(i64, i64) -> i64) -> Result<Dist<W>, Fail> {
        let denom = overflow(self.denom.checked_mul(&other.denom))?;
        limits.work(self.w.len() as u64 * other.w.len() as u64 * denom.cost())?;
        let mut pairs = Vec::new();
        for (a, wa) in self.iter() {
            for (b, wb) in other.iter() {
                pairs.push((f(a, b), overflow(wa.checked_mul(wb))?));
            }
        }
        Dist::from_pairs(pairs.into_iter(), denom, limits)
    }

    /// The sum of two sub-distributions (disjoint cases of one experiment).
    pub fn mix(&self, other: &Dist<W>, limits: &mut Limits) -> Result<Dist<W>, Fail> {
        let denom = overflow(self.denom.checked_mul(&other.denom))?;
        let scaled = |d: &Dist<W>, by: &W| -> Result<Vec<(i64, W)>, Fail> {
            d.iter().map(|(v, w)| Ok((v, overflow(w.checked_mul(by))?))).collect()
        };
        let mut pairs = scaled(self, &other.denom)?;
        pairs.extend(scaled(other, &self.denom)?);
        Dist::from_pairs(pairs.into_iter(), denom, limits)
    }

    /// Multiplies every weight by `num` and the denominator by `den` (a sub-case of probability num/den).
    pub fn scale(&self, num: u64, den: u64) -> Result<Dist<W>, Fail> {
        let (num, den) = (W::from_u64(num), W::from_u64(den));
        let w = self.w.iter().map(|w| overflow(w.checked_mul(&num))).collect::<Result<_, _>>()?;
        Ok(Dist { min: self.min, w, denom: overflow(self.denom.checked_mul(&den))? })
    }
}

/// The widest range of values one distribution may span (distributions are dense over their range).
pub const MAX_SUPPORT: u64 = 1 << 20;
/// Most elementary weight operations one computation may take.
pub const MAX_WORK: u64 = 200_000_000;

/// The resource guard of one exact computation.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    pub span: crate::error::Span,
    pub work: u64,
}

impl Limits {
    pub fn width(&self, width: i128) -> Result<usize, Fail> {
        if width > MAX_SUPPORT as i128 {
            let message = format!("values over a range of {width} (the limit is {MAX_SUPPORT})");
            return Err(Fail::Error(crate::error::ErrorKind::TooLarge(message), self.span));
        }
        Ok(width.max(0) as usize)
    }

    /// A value, or the overflow error when an operation left the 64-bit range.
    pub fn value(&self, v: Option<i64>) -> Result<i64, Fail> {
        v.ok_or(Fail::Error(crate::error::ErrorKind::Overflow, self.span))
    }

    pub fn work(&mut self, ops: u64) -> Result<(), Fail> {
        self.work = self.work.saturating_add(ops);
        if self.work > MAX_WORK {
            let message = format!("more than {MAX_WORK} operations");
            return Err(Fail::Error(crate::error::ErrorKind::TooLarge(message), self.span));
        }
        Ok(())
    }
}

/// Pascal's triangle: `rows[m][k]` is `m choose k`, for `m = 0..=n`.
pub(crate) fn pascal<W: Weight>(n: u32) -> Result<Vec<Vec<W>>, Fail> {
    let mut rows: Vec<Vec<W>> = vec![vec![W::one()]];
    for m in 0..n as usize {
        let row = &rows[m];
        let mut next = Vec::with_capacity(row.len() + 1);
        next.push(W::one());
        for pair in row.windows(2) {
            next.push(overflow(pair[0].checked_add(&pair[1]))?);
        }
        next.push(W::one());
        rows.push(next);
    }
    Ok(rows)
}

/// Converts weights to big integers.
pub(crate) fn to_big<W: Weight>(d: &Dist<W>) -> Dist<BigUint> {
    Dist { min: d.min, w: d.w.iter().map(W::to_big).collect(), denom: d.denom.to_big() }
}
