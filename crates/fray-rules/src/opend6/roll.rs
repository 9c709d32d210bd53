//! Die codes rolled with the Wild Die (OD6-DICE-1..9), Character Point dice (OD6-RES-1), Fate
//! Point doubling (OD6-RES-3), Strength Damage (OD6-DMG-3) and the rule arithmetic the fight and
//! the odds share: damage bonus, injury bands, stacking, level reductions.

use super::options::{Options, Stacking};
use super::setup::{DieCode, Level, Sheet, SkillId};
use super::{List, Rolled};
use fray_engine::{CombatantId, Dice, FightError, Reason};

/// How a Wild-Die first toss of 1 reads on this roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneReads {
    /// Critical Failure: the Wild Die and the highest regular die are discarded (OD6-DICE-5).
    Cancel,
    /// The 1 is added and a complication logged (`wild_die_failure = complication`).
    Complication,
    /// An ordinary 1 (damage and resistance under `wild_die_failure_on_damage = false`).
    Plain,
}

impl OneReads {
    /// The reading for a skill, attribute or initiative roll.
    pub fn skill(options: &Options) -> OneReads {
        if options.cancel_highest { OneReads::Cancel } else { OneReads::Complication }
    }

    /// The reading for a damage or resistance roll (OD6-DICE-6).
    pub fn damage(options: &Options) -> OneReads {
        if !options.failure_on_damage { OneReads::Plain } else { OneReads::skill(options) }
    }
}

/// Most tosses of one exploding die (a script of endless sixes must end).
const EXPLODE_CAP: usize = 64;

fn toss<D: Dice>(dice: &mut D, reason: Reason) -> Result<u8, FightError> {
    dice.roll(6, reason).map(|f| f as u8).map_err(|e| FightError::Dice { what: reason.what, message: e.0 })
}

/// Rolls `code` (OD6-DICE-3/4) with `cp` Character Point Wild Dice; a code with no dice rolls
/// only its pips (and any CP dice).
pub fn roll<D: Dice>(
    dice: &mut D,
    who: CombatantId,
    what: &'static str,
    code: DieCode,
    cp: u32,
    one: OneReads,
    options: &Options,
) -> Result<Rolled, FightError> {
    // A person rolling physical dice is told which die is the Wild Die (OD6-DICE-4): the regular
    // dice are numbered, then the Wild Die and its explosions asked for by name.
    let reason = Reason::new(who, what).of(u8::try_from(code.dice.max(1) - 1).unwrap_or(0));
    let (wild_reason, again) = (Reason::new(who, "Wild Die"), Reason::new(who, "Wild Die again (a 6 explodes)"));
    let mut rolled = Rolled { code, ..Rolled::default() };
    if code.dice < 1 {
        rolled.total = code.pips.max(0);
    } else {
        let (mut sum, mut high) = (0, 0);
        for _ in 0..code.dice - 1 {
            let face = toss(dice, reason)?;
            rolled.faces.push(face);
            sum += i32::from(face);
            high = high.max(i32::from(face));
        }
        rolled.regular = (code.dice - 1) as u8;
        let first = toss(dice, wild_reason)?;
        rolled.faces.push(first);
        rolled.wild = 1;
        let mut wild = i32::from(first);
        if first == 6 {
            while rolled.wild < EXPLODE_CAP as u8 {
                let next = toss(dice, again)?;
                rolled.faces.push(next);
                rolled.wild += 1;
                wild += i32::from(next);
                if next != 6 {
                    break;
                }
            }
        }
        if first == 1 {
            match one {
                OneReads::Cancel => rolled.critical_failure = true,
                OneReads::Complication => rolled.complication = true,
                OneReads::Plain => {}
            }
        }
        // The same as `total` for a roll without Character Point dice.
        rolled.total = if rolled.critical_failure { sum - high } else { sum + wild } + code.pips;
    }
    // `cp >= 0` would be the same: adding no Character Point die totals the roll as above (an
    // equivalent mutant of the audit).
    if cp > 0 {
        add_cp(dice, who, &mut rolled, cp, options)?;
    }
    Ok(rolled)
}

/// Adds `cp` Character Point dice to a roll (OD6-RES-1) and totals it again.
pub fn add_cp<D: Dice>(
    dice: &mut D,
    who: CombatantId,
    rolled: &mut Rolled,
    cp: u32,
    options: &Options,
) -> Result<(), FightError> {
    let reason = Reason::new(who, "Character Point die (explodes on a 6)");
    for _ in 0..cp {
        let mut tosses = 0;
        loop {
            let face = toss(dice, reason)?;
            rolled.faces.push(face);
            tosses += 1;
            if face != 6 || tosses >= EXPLODE_CAP {
                break;
            }
        }
        rolled.cp += 1;
    }
    rolled.total = total(rolled, options);
    Ok(())
}

/// The total of a roll from its faces (OD6-DICE-5, OD6-DICE-9).
pub fn total(rolled: &Rolled, options: &Options) -> i32 {
    if rolled.code.dice < 1 {
        let cp: i32 = rolled.faces.iter().map(|&f| i32::from(f)).sum();
        return (rolled.code.pips.max(0)) + cp;
    }
    let r = rolled.regular as usize;
    let w = rolled.wild as usize;
    let regular = &rolled.faces[..r];
    let wild: i32 = rolled.faces[r..r + w].iter().map(|&f| i32::from(f)).sum();
    let cp_dice = cp_dice(&rolled.faces[r + w..]);
    let sum_regular: i32 = regular.iter().map(|&f| i32::from(f)).sum();
    let sum_cp: i32 = cp_dice.iter().sum();
    let pips = rolled.code.pips;
    if rolled.critical_failure {
        // The Wild Die and the highest die go; CP dice only under `cancel_cp_dice = true`.
        let high_regular = regular.iter().map(|&f| i32::from(f)).max().unwrap_or(0);
        let high = if options.cancel_cp_dice {
            high_regular.max(cp_dice.iter().copied().max().unwrap_or(0))
        } else {
            high_regular
        };
        sum_regular + sum_cp - high + pips
    } else {
        sum_regular + wild + sum_cp + pips
    }
}

/// The stay-up roll's difficulty on reaching Incapacitated, before the roller's difficulty
/// penalty (OD6-TRACK-6, OD6-DMG-8): the fight's and the odds' both.
pub const STAY_UP_DIFFICULTY: i32 = 15;

/// Each CP die's value, explosions included.
fn cp_dice(faces: &[u8]) -> List<i32, 8> {
    let mut out = List::new();
    let mut current = 0;
    for &f in faces {
        current += i32::from(f);
        if f != 6 {
            out.push(current);
            current = 0;
        }
    }
    if current > 0 {
        out.push(current);
    }
    out
}

/// A code doubled by a Fate Point (OD6-RES-3): dice and pips.
pub fn doubled(code: DieCode) -> DieCode {
    DieCode::new(code.dice * 2, code.pips * 2)
}

/// Strength Damage in dice (OD6-DMG-3): ⌈dice/2⌉ of lifting (if listed) or Strength, plus the
/// sheet's modifier.
pub fn strength_damage(sheet: &Sheet, options: &Options) -> i32 {
    let source = if !options.strength_damage_strength_only && sheet.has_skill(SkillId::LIFTING) {
        sheet.skill(SkillId::LIFTING)
    } else {
        sheet.strength()
    };
    (source.dice + 1).div_euclid(2).max(0) + sheet.strength_damage_mod
}

/// The damage bonus for a margin (OD6-DMG-4): ⌈margin/5⌉.
pub fn damage_bonus(margin: i32) -> i32 {
    if margin <= 0 { 0 } else { (margin + 4) / 5 }
}

/// The incoming level of an injury margin D (OD6-DMG-7); `None` for D ≤ 0.
pub fn band(d: i32) -> Option<Level> {
    match d {
        i32::MIN..=0 => None,
        1..=3 => Some(Level::Stunned),
        4..=8 => Some(Level::Wounded),
        9..=12 => Some(Level::Incapacitated),
        13..=15 => Some(Level::MortallyWounded),
        _ => Some(Level::Dead),
    }
}

/// The band number (1..=5) of a D-band level under `level_arithmetic = result_bands`.
fn band_number(level: Level) -> i32 {
    match level {
        Level::Healthy => 0,
        Level::Stunned => 1,
        Level::Wounded | Level::SeverelyWounded => 2,
        Level::Incapacitated => 3,
        Level::MortallyWounded => 4,
        Level::Dead => 5,
    }
}

fn from_band_number(b: i32) -> Level {
    [Level::Healthy, Level::Stunned, Level::Wounded, Level::Incapacitated, Level::MortallyWounded, Level::Dead]
        [b.clamp(0, 5) as usize]
}

/// A stun weapon's two-level reduction, never below Stunned (OD6-DMG-10, OD6-TRACK-3).
pub fn stun_reduced(level: Level, options: &Options) -> Level {
    if options.result_bands {
        from_band_number((band_number(level) - 2).max(1))
    } else {
        Level::from_index((level.index() - 2).max(1))
    }
}

/// Knockout halving (OD6-SPECIAL-13, OD6-TRACK-3): `None` when nothing is applied.
pub fn knockout_halved(level: Level, options: &Options) -> Option<Level> {
    let halved = if options.result_bands {
        from_band_number(band_number(level) / 2)
    } else {
        Level::from_index(level.index() / 2)
    };
    (halved != Level::Healthy).then_some(halved)
}

/// Stacking an incoming level on the current one (OD6-TRACK-2).
pub fn stack(current: Level, incoming: Level, stacking: Stacking) -> Level {
    let up = Level::from_index(current.index() + 1);
    if incoming > current {
        return incoming;
    }
    match stacking {
        Stacking::Ladder => {
            if incoming >= Level::Wounded || current >= Level::Wounded {
                up
            } else {
                Level::Stunned
            }
        }
        Stacking::OrEqual => up,
        Stacking::Strict => {
            // Here `incoming <= current`: below it the first test holds, and when equal "either is
            // Wounded" is "both are", so `||` for the `&&` below would change nothing.
            if incoming < current || (incoming == Level::Wounded && current == Level::Wounded) { up } else { current }
        }
    }
}

/// The level of a Body Points total (OD6-TRACK-11).
pub fn body_level(bp: i32, max: i32) -> Level {
    if bp <= 0 {
        return Level::Dead;
    }
    let p = 100 * bp / max.max(1);
    match p {
        81.. => Level::Healthy,
        60..=80 => Level::Stunned,
        40..=59 => Level::Wounded,
        20..=39 => Level::SeverelyWounded,
        10..=19 => Level::Incapacitated,
        _ => Level::MortallyWounded,
    }
}

/// The Body Points killing-blow threshold: ⌈91·max/100⌉ (OD6-TRACK-11).
pub fn body_killing_blow(max: i32) -> i32 {
    (91 * max + 99) / 100
}

/// The fixed value of a difficulty modifier given in dice (OD6-DIFF-3): 1D 3, 2D 6, 3D 10, 4D 12,
/// 8D 24, negative dice symmetric.
pub fn dice_value(dice: i32) -> i32 {
    let v = match dice.abs() {
        0 => 0,
        1 => 3,
        2 => 6,
        3 => 10,
        4 => 12,
        8 => 24,
        n => 3 * n,
    };
    v * dice.signum()
}

/// The initiative bonus (OD6-INIT-7).
pub fn initiative_bonus(sheet: &Sheet, options: &Options) -> i32 {
    use super::options::InitiativeBonus;
    let search = sheet.skill(SkillId::SEARCH).dice;
    let from_search = ((search - sheet.perception().dice) / 2).max(0);
    let from_agility = sheet.agility().dice / 4;
    match options.initiative_bonus {
        InitiativeBonus::Sum => from_search + from_agility,
        InitiativeBonus::Max => from_search.max(from_agility),
        InitiativeBonus::Off => 0,
    }
}

/// What one injury margin does to a combatant (OD6-DMG-7..10, OD6-TRACK-2/3/10/11,
/// OD6-SPECIAL-13): the fight and the odds share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Injury {
    /// The incoming level after the killing blow, stun and knockout reductions.
    pub incoming: Level,
    /// The level after stacking.
    pub to: Level,
    /// Rounds unconscious from the end of this round (`u32::MAX`: the rest of the fight; 0 none).
    pub unconscious_rounds: u32,
    /// Body Points after (Body Points track).
    pub bp: i32,
}

/// The injury from margin `d` on a combatant at level `from` with `bp` of `bp_max` Body Points;
/// `None` when nothing happens.
pub fn injury(
    options: &Options,
    from: Level,
    bp: i32,
    bp_max: i32,
    d: i32,
    stun: bool,
    knockout: bool,
) -> Option<Injury> {
    if d <= 0 {
        return None;
    }
    if options.body_points {
        let bp = bp - d;
        let mut to = body_level(bp, bp_max).max(from);
        if options.killing_blow && !stun && !knockout && d >= body_killing_blow(bp_max) {
            to = Level::Dead;
        }
        let unconscious_rounds = if stun { 12 * d as u32 } else { 0 };
        return Some(Injury { incoming: to, to, unconscious_rounds, bp });
    }
    let mut incoming = band(d)?;
    let mut unconscious_rounds = 0;
    if stun {
        incoming = stun_reduced(incoming, options);
        unconscious_rounds = 12 * d as u32;
    } else if knockout {
        if incoming < Level::Wounded {
            return None;
        }
        incoming = knockout_halved(incoming, options)?;
        unconscious_rounds = u32::MAX;
    } else if options.killing_blow && incoming == Level::MortallyWounded {
        incoming = Level::Dead;
    }
    Some(Injury { incoming, to: stack(from, incoming, options.stacking), unconscious_rounds, bp })
}
