//! Rolling an expression with a caller's dice source, keeping the provenance of every die.

use crate::error::{Error, ErrorKind, Span};
use crate::program::{Counts, Program, Value, arith, call};
use crate::source::DiceSource;
use crate::syntax::{BinOp, CountRule, ExplodeMode, KeepKind, Node, NodeKind, Pool, WildCode, WildReading};

/// An explosion without a written depth stops after this many extra tosses when rolled
/// (a chance of at most 2^-1000; exact odds treat it as unlimited).
pub const ROLL_EXPLODE_CAP: u32 = 1000;

/// The result of rolling an expression: its value and every die behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roll {
    /// The value of the whole expression.
    pub value: Value,
    /// One group per pool or die code, in the order they were rolled.
    pub groups: Vec<DiceGroup>,
}

/// The dice of one pool or die code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceGroup {
    /// Where the pool is in the expression.
    pub span: Span,
    /// The pool's notation, e.g. `4d6kh3`.
    pub notation: String,
    /// Every die, kept or dropped.
    pub dice: Vec<DieRoll>,
    /// The pool's value.
    pub value: Value,
    /// What became of the Wild Die, for a die code.
    pub wild: Option<WildFate>,
}

/// One die of a pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DieRoll {
    /// Faces of the die.
    pub sides: u32,
    /// Every toss, in order: one, or several when the die compounds (`!!`, the Wild Die).
    pub tosses: Vec<u32>,
    /// The die's value (the sum of its tosses).
    pub value: i64,
    /// Whether the die counts towards the pool's value (false when dropped or cancelled).
    pub kept: bool,
    /// What the die is.
    pub role: DieRole,
}

/// The part a die plays in its pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DieRole {
    /// An ordinary die of the pool.
    Regular,
    /// An extra die added by an ordinary explosion (`!`).
    Explosion,
    /// The Wild Die of an OpenD6 die code.
    Wild,
}

/// The fate of a Wild Die (OD6-DICE-4, OD6-DICE-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WildFate {
    /// Its first toss was 2 to 5.
    Plain,
    /// Its first toss was 6: it was tossed again until a non-6 (Critical Success).
    Exploded,
    /// Its first toss was 1 under `cancel_highest`: it and the highest regular die (index into
    /// the group's dice, `None` when there was none) were discarded (Critical Failure).
    CriticalFailure {
        /// Index of the cancelled regular die.
        cancelled: Option<usize>,
    },
    /// Its first toss was 1 under `complication`: it counts as 1 and a complication is noted.
    Complication,
}

impl Program {
    /// Rolls the expression, recording every die.
    pub fn roll<S: DiceSource + ?Sized>(&self, source: &mut S) -> Result<Roll, Error> {
        let mut groups = Vec::new();
        let mut roller = Roller { program: self, source, groups: Some(&mut groups), scratch: Scratch::new() };
        let value = roller.node(self.root())?;
        Ok(Roll { value, groups })
    }

    /// Rolls the expression for its value only, without allocating for pools of up to
    /// 32 dice (a fight's damage dice, rolled on the simulator's hot path).
    pub fn sample<S: DiceSource + ?Sized>(&self, source: &mut S) -> Result<Value, Error> {
        Roller { program: self, source, groups: None, scratch: Scratch::new() }.node(self.root())
    }
}

struct Roller<'a, S: ?Sized> {
    program: &'a Program,
    source: &'a mut S,
    groups: Option<&'a mut Vec<DiceGroup>>,
    scratch: Scratch,
}

/// Pools of up to this many die values are rolled by [`Program::sample`] without allocating: one
/// value per die, or per toss under an ordinary explosion (`!`), which adds a die per toss.
pub const INLINE_DICE: usize = 32;

/// A pool's die values while it is rolled.
type Scratch = smallvec::SmallVec<[i64; INLINE_DICE]>;

impl<S: DiceSource + ?Sized> Roller<'_, S> {
    fn int(&mut self, node: &Node) -> Result<i64, Error> {
        match self.node(node)? {
            Value::Int(v) => Ok(v),
            // The checker lets tuples stand only at the root.
            Value::Counts(_) => Err(self.program.error(ErrorKind::Meaning("a tuple of counts here".into()), node.span)),
        }
    }

    fn node(&mut self, node: &Node) -> Result<Value, Error> {
        let at = |kind| self.program.error(kind, node.span);
        let v = match &node.kind {
            NodeKind::Int(v) => *v,
            NodeKind::Group(inner) => return self.node(inner),
            NodeKind::Pool(pool) => return self.pool(pool, node.span),
            NodeKind::Wild(code) => self.wild(code, node.span)?,
            NodeKind::Neg(inner) => {
                let v = self.int(inner)?;
                v.checked_neg().ok_or_else(|| at(ErrorKind::Overflow))?
            }
            NodeKind::Binary { op, lhs, rhs } => {
                let (a, b) = (self.int(lhs)?, self.int(rhs)?);
                arith(*op, a, b).map_err(at)?
            }
            NodeKind::Contest { lhs, rhs } => {
                let (a, b) = (self.int(lhs)?, self.int(rhs)?);
                arith(BinOp::Sub, a, b).map_err(at)?
            }
            NodeKind::Compare { op, lhs, rhs } => {
                let (a, b) = (self.int(lhs)?, self.int(rhs)?);
                i64::from(op.holds(a, b))
            }
            NodeKind::Call { func, args } => {
                let mut best: Option<i64> = None;
                for arg in args {
                    let v = self.int(arg)?;
                    best = Some(match best {
                        None => v,
                        Some(b) => call(*func, &[b, v]).map_err(at)?,
                    });
                }
                let v = best.unwrap_or(0);
                if args.len() == 1 { call(*func, &[v]).map_err(at)? } else { v }
            }
        };
        Ok(Value::Int(v))
    }

    fn toss(&mut self, sides: u32, span: Span) -> Result<u32, Error> {
        self.source.face(sides).map_err(|e| self.program.error(ErrorKind::Source(e.0), span))
    }

    /// Tosses one die with its explosion; calls `on_toss` for every toss.
    fn die(&mut self, pool: &Pool, span: Span, mut on_toss: impl FnMut(u32)) -> Result<(), Error> {
        let first = self.toss(pool.sides, span)?;
        on_toss(first);
        if let Some(explode) = pool.explode {
            let cap = explode.depth.unwrap_or(ROLL_EXPLODE_CAP);
            let mut last = first;
            let mut extra = 0;
            while last == pool.sides && extra < cap {
                last = self.toss(pool.sides, span)?;
                on_toss(last);
                extra += 1;
            }
        }
        Ok(())
    }

    fn pool(&mut self, pool: &Pool, span: Span) -> Result<Value, Error> {
        let overflow = || self.program.error(ErrorKind::Overflow, span);
        let compound = pool.explode.is_none_or(|e| e.mode == ExplodeMode::Compound);
        let recording = self.groups.is_some();
        let mut dice: Vec<DieRoll> = Vec::new();
        let mut values = std::mem::take(&mut self.scratch);
        values.clear();
        // Every die value (one per toss under ordinary `!`, which adds a die per explosion).
        for _ in 0..pool.count {
            let mut tosses: Vec<u32> = Vec::new();
            let mut total = 0i64;
            let mut first = true;
            self.die(pool, span, |face| {
                if compound {
                    total += i64::from(face);
                } else {
                    values.push(i64::from(face));
                    if recording {
                        dice.push(DieRoll {
                            sides: pool.sides,
                            tosses: vec![face],
                            value: i64::from(face),
                            kept: true,
                            role: if first { DieRole::Regular } else { DieRole::Explosion },
                        });
                    }
                    first = false;
                }
                if recording && compound {
                    tosses.push(face);
                }
            })?;
            if compound {
                values.push(total);
                if recording {
                    dice.push(DieRoll { sides: pool.sides, tosses, value: total, kept: true, role: DieRole::Regular });
                }
            }
        }
        let value = if !pool.counts.is_empty() {
            let count = |rule: &CountRule| values.iter().filter(|&&v| rule.op.holds(v, rule.value)).count() as i64;
            if pool.counts.len() == 1 {
                Value::Int(count(&pool.counts[0]))
            } else {
                let mut counts = [0i64; crate::syntax::MAX_COUNTS];
                for (slot, rule) in counts.iter_mut().zip(&pool.counts) {
                    *slot = count(rule);
                }
                Value::Counts(Counts::from_slice(&counts[..pool.counts.len()]))
            }
        } else if let Some(keep) = pool.keep {
            let n = values.len();
            let (take, highest) = match keep.kind {
                KeepKind::Highest => (keep.n as usize, true),
                KeepKind::Lowest => (keep.n as usize, false),
                KeepKind::DropHighest => (n - keep.n as usize, false),
                KeepKind::DropLowest => (n - keep.n as usize, true),
            };
            // Rank dice by value; among equal values the earlier die ranks first (stable).
            let mut order: smallvec::SmallVec<[usize; INLINE_DICE]> = (0..n).collect();
            if highest {
                order.sort_by(|&a, &b| values[b].cmp(&values[a]));
            } else {
                order.sort_by(|&a, &b| values[a].cmp(&values[b]));
            }
            let mut sum = 0i64;
            for (rank, &i) in order.iter().enumerate() {
                if rank < take {
                    sum = sum.checked_add(values[i]).ok_or_else(overflow)?;
                } else if let Some(die) = dice.get_mut(i) {
                    die.kept = false;
                }
            }
            Value::Int(sum)
        } else {
            let mut sum = 0i64;
            for &v in &values {
                sum = sum.checked_add(v).ok_or_else(overflow)?;
            }
            Value::Int(sum)
        };
        self.scratch = values;
        if let Some(groups) = self.groups.as_deref_mut() {
            groups.push(DiceGroup { span, notation: pool.to_string(), dice, value, wild: None });
        }
        Ok(value)
    }

    fn wild(&mut self, code: &WildCode, span: Span) -> Result<i64, Error> {
        let mut dice = Vec::new();
        let mut regular_sum = 0i64;
        let mut highest: Option<(usize, i64)> = None;
        for i in 0..code.count.saturating_sub(1) as usize {
            let face = self.toss(6, span)?;
            let v = i64::from(face);
            regular_sum += v;
            if highest.is_none_or(|(_, h)| v > h) {
                highest = Some((i, v));
            }
            dice.push(DieRoll { sides: 6, tosses: vec![face], value: v, kept: true, role: DieRole::Regular });
        }
        let (total, fate) = if code.count == 0 {
            (0, None)
        } else {
            let first = self.toss(6, span)?;
            let mut tosses = vec![first];
            let mut wild_value = i64::from(first);
            let mut last = first;
            let cap = code.depth.unwrap_or(ROLL_EXPLODE_CAP);
            let mut extra = 0;
            while last == 6 && extra < cap {
                last = self.toss(6, span)?;
                tosses.push(last);
                wild_value += i64::from(last);
                extra += 1;
            }
            let (total, fate, wild_kept) = match (first, code.reading) {
                (1, WildReading::CancelHighest) => {
                    let cancelled = highest.map(|(i, _)| i);
                    if let Some(i) = cancelled {
                        dice[i].kept = false;
                    }
                    let total = regular_sum - highest.map_or(0, |(_, v)| v);
                    (total, WildFate::CriticalFailure { cancelled }, false)
                }
                (1, WildReading::Complication) => (regular_sum + 1, WildFate::Complication, true),
                (6, _) => (regular_sum + wild_value, WildFate::Exploded, true),
                _ => (regular_sum + wild_value, WildFate::Plain, true),
            };
            dice.push(DieRoll { sides: 6, tosses, value: wild_value, kept: wild_kept, role: DieRole::Wild });
            (total, Some(fate))
        };
        if let Some(groups) = self.groups.as_deref_mut() {
            groups.push(DiceGroup { span, notation: code.to_string(), dice, value: Value::Int(total), wild: fate });
        }
        Ok(total)
    }
}
