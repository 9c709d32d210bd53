//! The `fluid` check: 3d6 (with Superior/Inferior dice), the crit ladder, bonuses against a TN.
//! One definition serves the fight (which rolls it) and the odds (which take the exact
//! distribution of the natural from fray-dice and pass every natural through the same code).

use super::options::{CheckDirection, CritLadder, EdgeMode, Options};
use fray_dice::{BigRational, Options as DiceOptions, Program, Value};
use fray_engine::{Dice, FightError, Reason};
use std::collections::BTreeMap;

/// The most Superior or Inferior levels any check of the rules nets: an area attack on a target
/// in contact with a blast whose base band is Long is Superior +5 (FLUID-SPECIAL-2); a melee
/// attack on an unconscious target Superior +2 (FLUID-DEF-12); every other source adds one. So an
/// `edge_cap` of 6 or more never binds, and a check never rolls more than 3 + 6 dice, which
/// [`Faces`] holds inline.
pub const MAX_EDGE: i32 = 6;

/// The faces of one check, up to 3 + [`MAX_EDGE`] edge dice, stored inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Faces {
    len: u8,
    faces: [u8; 9],
}

impl serde::Serialize for Faces {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

fray_engine::fixed_schema!(Faces, "Faces", {
    "type": "array",
    "description": "The faces rolled: three d6 and any edge dice.",
    "items": { "type": "integer", "minimum": 1, "maximum": 6 },
    "maxItems": 9
});

impl Faces {
    /// The faces from a slice (at most nine).
    pub fn from_slice(faces: &[u8]) -> Faces {
        let mut out = Faces { len: faces.len().min(9) as u8, faces: [0; 9] };
        out.faces[..usize::from(out.len)].copy_from_slice(&faces[..usize::from(out.len)]);
        out
    }

    /// The faces in rolling order.
    pub fn as_slice(&self) -> &[u8] {
        &self.faces[..usize::from(self.len)]
    }
}

/// A check: net edge (Superior > 0, Inferior < 0), the sum of bonuses, and the TN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Check {
    /// Net Superior (+) or Inferior (−) levels, before the cap.
    pub edge: i32,
    /// Every bonus and penalty summed.
    pub bonus: i32,
    /// The target number.
    pub tn: i32,
}

/// A rolled check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct CheckRoll {
    /// Every die rolled, kept or not.
    pub faces: Faces,
    /// The sum of the three dice that count.
    pub natural: i32,
    /// The natural after the crit ladder.
    pub effective: i32,
    /// Under `edge_mode = extra_die`, the highest extra die, signed: added to the margin for
    /// Superior, subtracted for Inferior (FLUID-DICE-7, FLUID-DICE-9); 0 otherwise.
    pub extra: i32,
    /// Crit level (1–3), blunder level (−1 to −3), or 0.
    pub crit: i32,
    /// margin ≥ 0: success of margin; < 0: failure of −margin.
    pub margin: i32,
}

/// The effective roll of a natural under a ladder (FLUID-DICE-5); symmetric: e(21 − n) = 21 − e(n).
pub fn effective(ladder: CritLadder, natural: i32) -> i32 {
    match (ladder, natural) {
        (CritLadder::None, n) => n,
        (CritLadder::Step5, n @ 16..=18) => 21 + 5 * (n - 16),
        (CritLadder::Step5, n @ 3..=5) => -5 * (5 - n),
        (CritLadder::Shift9, n @ 16..=18) => n + 9,
        (CritLadder::Shift9, n @ 3..=5) => n - 9,
        (_, n) => n,
    }
}

impl Check {
    /// The net edge after the cap (FLUID-DICE-8). A cap above [`MAX_EDGE`] binds at it: no check
    /// of the rules nets more, so only a check built by hand can tell the difference.
    pub fn capped_edge(&self, options: &Options) -> i32 {
        let cap = options.edge_cap.clamp(1, MAX_EDGE);
        self.edge.clamp(-cap, cap)
    }

    /// How many d6 the check rolls.
    pub fn dice_count(&self, options: &Options) -> usize {
        match options.edge_mode {
            EdgeMode::KeepBest | EdgeMode::ExtraDie => 3 + self.capped_edge(options).unsigned_abs() as usize,
            EdgeMode::Flat => 3,
        }
    }

    /// Rolls the check.
    pub fn roll<D: Dice>(&self, options: &Options, dice: &mut D, reason: Reason) -> Result<CheckRoll, FightError> {
        debug_assert!(self.edge.abs() <= MAX_EDGE, "a check of the rules nets at most {MAX_EDGE} levels: {self:?}");
        let mut faces = [0u8; 9];
        let n = self.dice_count(options);
        let reason = reason.of(n as u8);
        for face in faces.iter_mut().take(n) {
            *face = dice.roll(6, reason).map_err(|e| FightError::Dice { what: reason.what, message: e.0 })? as u8;
        }
        Ok(self.resolve(options, Faces::from_slice(&faces[..n])))
    }

    /// Resolves a check from its faces.
    pub fn resolve(&self, options: &Options, faces: Faces) -> CheckRoll {
        let all = faces.as_slice();
        let edge = self.capped_edge(options);
        let (natural, extra) = if all.len() == 3 {
            // No edge dice: every die counts, whichever way the check reads.
            (all.iter().map(|&f| i32::from(f)).sum(), 0)
        } else if options.edge_mode == EdgeMode::ExtraDie {
            // The first three dice are the natural; the highest extra die moves the result.
            let natural = all.iter().take(3).map(|&f| i32::from(f)).sum();
            let highest = all.iter().skip(3).copied().max().map_or(0, i32::from);
            (natural, edge.signum() * highest)
        } else {
            let mut kept = [0u8; 9];
            kept[..all.len()].copy_from_slice(all);
            let kept = &mut kept[..all.len()];
            kept.sort_unstable();
            // Superior keeps the three best for the roller: highest under roll_high, lowest under roll_under.
            let best_high = (edge >= 0) == (options.check_direction == CheckDirection::RollHigh);
            let natural = if best_high {
                kept.iter().rev().take(3).map(|&f| i32::from(f)).sum()
            } else {
                kept.iter().take(3).map(|&f| i32::from(f)).sum()
            };
            (natural, 0)
        };
        let mut roll = self.from_natural(options, natural, extra);
        roll.faces = faces;
        roll
    }

    /// Everything after the natural: ladder, bonuses, flat edges, the extra die (`extra`, signed,
    /// 0 unless `edge_mode = extra_die`), the automatic results.
    pub fn from_natural(&self, options: &Options, natural: i32, extra: i32) -> CheckRoll {
        let effective = effective(options.crit_ladder, natural);
        let flat = if options.edge_mode == EdgeMode::Flat { 3 * self.capped_edge(options) } else { 0 };
        // Under roll_under the extra die comes off (Superior) or onto (Inferior) e, which moves the
        // margin the same way as adding it under roll_high (FLUID-DICE-9).
        let (margin, crit) = match options.check_direction {
            CheckDirection::RollHigh => (effective + self.bonus + flat + extra - self.tn, crit_level(natural)),
            CheckDirection::RollUnder => (20 + self.bonus + flat + extra - self.tn - effective, -crit_level(natural)),
        };
        let margin = match (options.crit_auto, crit.signum()) {
            (true, 1) => margin.max(0),
            (true, -1) => margin.min(-1),
            _ => margin,
        };
        CheckRoll { faces: Faces::default(), natural, effective, extra, crit, margin }
    }

    /// The exact distribution of the margin: the natural's distribution from fray-dice (the
    /// same dice the fight rolls), each natural passed through [`Check::from_natural`].
    pub fn margin_distribution(&self, options: &Options) -> BTreeMap<i32, BigRational> {
        let n = self.dice_count(options);
        let edge = self.capped_edge(options);
        let distribution = |expr: &str| {
            let program = Program::parse(expr).expect("a valid expression");
            let dist = program.distribution(&DiceOptions::default()).expect("a small distribution");
            dist.outcomes()
                .filter_map(|(v, p)| if let Value::Int(v) = v { Some((v as i32, p)) } else { None })
                .collect::<Vec<_>>()
        };
        // The natural, and the signed extra die under extra_die (independent of the natural).
        let (naturals, extras) = if options.edge_mode == EdgeMode::ExtraDie {
            let extras = if n > 3 {
                distribution(&format!("{}d6kh1", n - 3)).into_iter().map(|(x, p)| (edge.signum() * x, p)).collect()
            } else {
                vec![(0, BigRational::from_integer(1.into()))]
            };
            (distribution("3d6"), extras)
        } else {
            let best_high = (edge >= 0) == (options.check_direction == CheckDirection::RollHigh);
            let naturals = distribution(&format!("{n}d6{}3", if best_high { "kh" } else { "kl" }));
            (naturals, vec![(0, BigRational::from_integer(1.into()))])
        };
        let mut out: BTreeMap<i32, BigRational> = BTreeMap::new();
        for (natural, p) in &naturals {
            for (extra, q) in &extras {
                *out.entry(self.from_natural(options, *natural, *extra).margin).or_default() += p * q;
            }
        }
        out
    }
}

/// Crit (+) or blunder (−) level of a natural, read roll-high (FLUID-DICE-4).
fn crit_level(natural: i32) -> i32 {
    match natural {
        16..=18 => natural - 15,
        3..=5 => natural - 6,
        _ => 0,
    }
}
