//! The rule arithmetic of one attack, shared by the fight, the AI and the odds: range bands and
//! difficulties, specialism tags, what a hit does after location, cover, armour and ward, the
//! knock-out threshold and the Second Wind value.

use super::options::{ArmourMode, Options};
use super::setup::{Attr, Setup, Sheet, Weapon};
use super::{Act, Fighter, State};
use fray_engine::CombatantId;

/// Range band index and difficulty (USR-RNG-2/3/4): 0 Point Blank 2, 1 Close 4, 2 Medium 7,
/// 3 Long 10, 4 Extreme 14; `None` beyond reach.
pub fn band(options: &Options, d: f64, range_m: f64) -> Option<(u8, i32)> {
    let eps = 1e-9;
    let b = if d <= options.point_blank_m + eps {
        0
    } else if d <= range_m / 4.0 + eps {
        1
    } else if d <= range_m / 2.0 + eps {
        2
    } else if d <= range_m + eps {
        3
    } else if d <= 2.0 * range_m + eps || options.beyond_extreme {
        4
    } else {
        return None;
    };
    Some((b, BAND_DIFFICULTY[b as usize]))
}

/// The difficulty of each range band (USR-RNG-2/3/4).
pub const BAND_DIFFICULTY: [i32; 5] = [2, 4, 7, 10, 14];

/// The name of each range band (USR-RNG-2).
pub const BAND_NAMES: [&str; 5] = ["point blank", "close", "medium", "long", "extreme"];

/// The modifiers one side of a roll adds to its die, one small integer per term; the total is the
/// die plus their sum. Carried by the contest event so that the log can itemise the totals. Each
/// term is kept in 16 bits, which hold every term a scenario can give (penalties of at most
/// 1,000 an attack, 20 attacks a turn), so the sum is the rules' total exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms(pub [i16; 4]);

impl Terms {
    /// The names of the actor's terms: specialism (USR-DICE-6), the melee weapon's bonus
    /// (USR-ATK-3), the multiple-attack penalty (USR-ACT-3), the moving-shot penalty (USR-RNG-7).
    pub const ACTOR: [&'static str; 4] = ["specialism", "weapon", "multiple attacks", "moving"];
    /// The names of the opponent's terms (added to its die, or to a difficulty): specialism, the
    /// melee weapon's bonus, armour in the total (USR-ARM-2), the called shot (USR-LOC-4).
    pub const OPPONENT: [&'static str; 4] = ["specialism", "weapon", "armour", "called shot"];

    /// The terms, each kept in 16 bits.
    #[inline]
    pub fn new(terms: [i32; 4]) -> Terms {
        debug_assert!(terms.iter().all(|&t| i16::try_from(t).is_ok()), "a term beyond 16 bits: {terms:?}");
        Terms(terms.map(|t| t.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16))
    }

    /// Their sum: what the side adds to its die.
    #[inline]
    pub fn sum(&self) -> i32 {
        self.0.iter().map(|&t| i32::from(t)).sum()
    }

    /// The actor's terms as the events write them ([`crate::events::serialize_terms`]).
    fn actor_json<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::events::serialize_terms(self.named(&Terms::ACTOR), serializer)
    }

    /// The opponent's terms as the events write them.
    fn opponent_json<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::events::serialize_terms(self.named(&Terms::OPPONENT), serializer)
    }

    /// Each term with its name from `names`, zeros included.
    pub fn named<'a>(&'a self, names: &'a [&'static str; 4]) -> impl Iterator<Item = (&'static str, i32)> + 'a {
        names.iter().copied().zip(self.0.iter().map(|&t| i32::from(t)))
    }
}

/// The itemised totals of a roll: the actor's terms, the opponent's (its die's, or a shot's
/// difficulty's beyond the range band's: the band is the one whose difficulty is the rest, see
/// [`shot_band`]), and a shot's distance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct ContestTerms {
    /// What the actor adds to its die.
    #[serde(serialize_with = "Terms::actor_json")]
    #[schemars(schema_with = "crate::events::terms_schema")]
    pub actor: Terms,
    /// What the opponent adds to its die, or what a shot's difficulty adds to the band's.
    #[serde(serialize_with = "Terms::opponent_json")]
    #[schemars(schema_with = "crate::events::terms_schema")]
    pub opponent: Terms,
    /// A shot's distance in decimetres (saturating); 0 for a contest.
    pub distance_dm: u16,
}

impl ContestTerms {
    /// The terms of a shot at `distance` metres.
    pub fn shot(actor: Terms, opponent: Terms, distance: f64) -> ContestTerms {
        ContestTerms { actor, opponent, distance_dm: (distance * 10.0).round().clamp(0.0, f64::from(u16::MAX)) as u16 }
    }

    /// A shot's distance in metres.
    pub fn distance(&self) -> f64 {
        f64::from(self.distance_dm) / 10.0
    }
}

/// The range band (index into [`BAND_DIFFICULTY`] and [`BAND_NAMES`]) of a shot whose
/// difficulty is `difficulty` with these terms: the band whose difficulty is the difficulty less
/// the opponent's terms.
pub fn shot_band(difficulty: i32, terms: &ContestTerms) -> Option<usize> {
    BAND_DIFFICULTY.iter().position(|&b| b == difficulty - terms.opponent.sum())
}

/// The terms of a shot (USR-RNG-1, -7, USR-ACT-3, USR-LOC-4): the shooter's specialism, the
/// multiple-attack and moving-shot penalties; the difficulty's called-shot penalty.
pub fn shot_terms(options: &Options, sheet: &Sheet, attacks: u8, moving: bool, called: bool) -> (Terms, Terms) {
    let multi = options.multi_attack_penalty * i32::from(attacks);
    let moving = if moving { options.moving_shot_penalty } else { 0 };
    let actor = Terms::new([sheet.specialism_bonus_of(Attr::Action, SHOOTING), 0, -multi, -moving]);
    let opponent = Terms::new([0, 0, 0, if called { options.called_shot_penalty } else { 0 }]);
    (actor, opponent)
}

/// The terms of a melee (or Ego) contest of `attr` (USR-ATK-1..6, USR-DICE-6, USR-ACT-3, USR-ARM-2,
/// USR-LOC-4): each side's specialism and melee weapon bonus (none for a gun or a power), the
/// attacker's multiple-attack penalty, the defender's armour and the called-shot penalty.
#[allow(clippy::too_many_arguments, reason = "each is one input of the contest's totals")]
pub fn contest_terms(
    options: &Options,
    act: &Act,
    attr: Attr,
    sheet: &Sheet,
    target_sheet: &Sheet,
    weapon: &Weapon,
    def_weapon: &Weapon,
    attacks: u8,
    called: bool,
) -> (Terms, Terms) {
    let power = matches!(act, Act::Power(_));
    let melee_bonus = |w: &Weapon| if w.ranged || power { 0 } else { w.bonus };
    let multi = options.multi_attack_penalty * i32::from(attacks);
    let armour =
        if matches!(act, Act::Attack { .. } | Act::Power(_)) { defence_armour(options, target_sheet) } else { 0 };
    let actor =
        Terms::new([sheet.specialism_bonus_of(attr, attacker_tags(act, weapon)), melee_bonus(weapon), -multi, 0]);
    let opponent = Terms::new([
        target_sheet.specialism_bonus_of(attr, defender_tags(act, weapon)),
        melee_bonus(def_weapon),
        armour,
        if called { options.called_shot_penalty } else { 0 },
    ]);
    (actor, opponent)
}

/// The weapon an attack uses: fists, or the wielded weapon unless it lies on the floor.
pub fn weapon_of<'a>(sheet: &'a Sheet, fighter: &Fighter, fists: bool, unarmed: &'a Weapon) -> &'a Weapon {
    if fists || fighter.dropped { unarmed } else { &sheet.weapon }
}

/// The attribute of a contest for an action (USR-DICE-7).
pub fn contest_attribute(options: &Options, act: &Act) -> Attr {
    if options.action_only {
        return Attr::Action;
    }
    match act {
        Act::Power(_) => Attr::Ego,
        Act::Other { activity, .. } => activity.attribute(),
        _ => Attr::Action,
    }
}

/// Every tag a roll of the rules fits ([`attacker_tags`], [`defender_tags`], the shooting roll).
pub const TAGS: &[&str] = &[
    "shooting",
    "melee",
    "brawling",
    "dodge",
    "psionics",
    "magic",
    "willpower",
    "grapple",
    "shove",
    "trip",
    "intimidate",
    "trick",
    "task",
    "perception",
];

/// A set of [`TAGS`], one bit each: what a roll fits, or what a specialism fits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tags(pub u32);

impl Tags {
    /// The set of these tags; a name not in [`TAGS`] fits no roll and adds nothing.
    pub fn of(names: &[impl AsRef<str>]) -> Tags {
        Tags(names.iter().filter_map(|n| TAGS.iter().position(|t| *t == n.as_ref())).fold(0, |m, i| m | 1 << i))
    }

    /// Whether the two sets share a tag.
    pub fn meet(self, other: Tags) -> bool {
        self.0 & other.0 != 0
    }
}

/// The bit of each tag in [`TAGS`] order.
mod tag {
    // `1 << 0` and `1 >> 0` are both 1: cargo-mutants' `<<` → `>>` here is equivalent (TESTING.md).
    pub const SHOOTING: u32 = 1 << 0;
    pub const MELEE: u32 = 1 << 1;
    pub const BRAWLING: u32 = 1 << 2;
    pub const DODGE: u32 = 1 << 3;
    pub const PSIONICS: u32 = 1 << 4;
    pub const MAGIC: u32 = 1 << 5;
    pub const WILLPOWER: u32 = 1 << 6;
    pub const GRAPPLE: u32 = 1 << 7;
    pub const SHOVE: u32 = 1 << 8;
    pub const TRIP: u32 = 1 << 9;
    pub const INTIMIDATE: u32 = 1 << 10;
    pub const TRICK: u32 = 1 << 11;
    pub const TASK: u32 = 1 << 12;
    pub const PERCEPTION: u32 = 1 << 13;
}

/// The tags of the shooting roll.
pub const SHOOTING: Tags = Tags(tag::SHOOTING);

/// The tags an attacker's specialisms may fit.
pub fn attacker_tags(act: &Act, weapon: &Weapon) -> Tags {
    use tag::*;
    // Each tag is its own bit, so `A | B` here equals `A ^ B`: cargo-mutants' `|` → `^` mutants
    // of this function and of `defender_tags` are equivalent (TESTING.md).
    Tags(match act {
        Act::Attack { .. } if weapon.ranged => SHOOTING,
        Act::Attack { .. } if weapon.brawling => MELEE | BRAWLING,
        Act::Attack { .. } => MELEE,
        Act::Power(_) => PSIONICS | MAGIC,
        Act::Other { activity, .. } => match activity {
            super::Activity::Grapple => GRAPPLE,
            super::Activity::Shove => SHOVE,
            super::Activity::Trip => TRIP,
            super::Activity::Intimidate => INTIMIDATE,
            super::Activity::Trick => TRICK,
            super::Activity::Task => TASK,
        },
        _ => 0,
    })
}

/// The tags a defender's specialisms may fit.
pub fn defender_tags(act: &Act, weapon: &Weapon) -> Tags {
    use tag::*;
    // Distinct bits: `|` → `^` mutants are equivalent, as in `attacker_tags`.
    Tags(match act {
        Act::Attack { .. } if weapon.brawling => MELEE | DODGE | BRAWLING,
        Act::Attack { .. } => MELEE | DODGE,
        Act::Power(_) => PSIONICS | MAGIC | WILLPOWER,
        Act::Other { activity, .. } => match activity {
            super::Activity::Grapple => GRAPPLE | DODGE,
            super::Activity::Shove | super::Activity::Trip => DODGE | GRAPPLE,
            super::Activity::Intimidate => WILLPOWER | INTIMIDATE,
            super::Activity::Trick => PERCEPTION | TRICK,
            super::Activity::Task => 0,
        },
        _ => 0,
    })
}

/// What one hit does (USR-DMG-1 steps 3–6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Stopped by cover: no damage, not struck.
    pub cover_stopped: bool,
    /// Stopping power subtracted.
    pub stop: i32,
    /// Ward subtracted.
    pub ward: i32,
    /// Recorded damage.
    pub recorded: i32,
    /// HP lost.
    pub hp_loss: i32,
}

/// What delivered a hit: it decides whether cover counts and whether the location's armour still
/// applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitKind {
    /// A ranged attack: cover counts, and armour by location.
    Ranged,
    /// A melee attack or power: armour by location, unless it was added to the defender's total
    /// under `armour_mode = defence_total` (USR-ARM-2).
    Melee,
    /// An Other activity whose margin is damage: its contest added no armour to the defender's
    /// total, so the location's armour applies under every `armour_mode` (USR-ACT-5).
    Activity,
}

/// The outcome of a hit of `base` damage on `target` at location `face`: cover (ranged, or melee
/// under `melee_cover`), armour unless critical (and unless counted in the melee total under
/// `armour_mode = defence_total`), ward, brawling halving.
#[allow(clippy::too_many_arguments, reason = "the hit's whole description")]
pub fn outcome(
    setup: &Setup,
    state: &State,
    target: CombatantId,
    base: i32,
    face: u8,
    critical: bool,
    kind: HitKind,
    weapon: &Weapon,
) -> Outcome {
    let ranged = kind == HitKind::Ranged;
    let options = &setup.options;
    let sheet = &setup.combatants[target.index()];
    let x = state.fighter(target);
    if let Some(cover) = sheet.cover.filter(|_| x.in_cover && (ranged || options.melee_cover))
        && cover.locations & (1 << face) != 0
    {
        let through = !options.cover_never && weapon.penetration >= cover.hardness;
        if !through {
            return Outcome { cover_stopped: true, stop: 0, ward: 0, recorded: 0, hp_loss: 0 };
        }
    }
    let location_armour = kind != HitKind::Melee || options.armour_mode != ArmourMode::DefenceTotal;
    let stop = if critical || !location_armour { 0 } else { sheet.stop(face, options.armour_best) };
    let ward = sheet.ward;
    let recorded = (base - stop - ward).max(0);
    let hp_loss = if !weapon.brawling {
        recorded
    } else if options.armour_before_halving {
        halve(options, recorded)
    } else {
        (halve(options, base) - stop - ward).max(0)
    };
    Outcome { cover_stopped: false, stop, ward, recorded, hp_loss }
}

/// Half of a brawling amount (USR-DMG-4).
pub fn halve(options: &Options, n: i32) -> i32 {
    if options.brawl_ceil { (n + 1).div_euclid(2) } else { n.div_euclid(2) }
}

/// The armour added to a defender's melee total (`armour_mode = defence_total` or `both`).
pub fn defence_armour(options: &Options, sheet: &Sheet) -> i32 {
    match options.armour_mode {
        ArmourMode::Location => 0,
        _ => sheet.armour.iter().map(|a| a.stop).max().unwrap_or(0),
    }
}

/// The KO threshold: recorded damage in one turn that knocks out (USR-TRACK-5).
pub fn ko_threshold(options: &Options, hp_max: i32) -> i32 {
    if options.ko_floor_half { hp_max / 2 } else { (hp_max + 1) / 2 }
}

/// The Second Wind value (USR-RES-1/2).
pub fn second_wind(options: &Options, hp_max: i32) -> i32 {
    if options.second_wind_ceil { (hp_max + 3) / 4 } else { hp_max / 4 }
}

#[cfg(test)]
mod tests {
    use super::{TAGS, Tags, tag};

    // rule: USR-DICE-3 — the tag bits the rolls test are the named tags, in TAGS order.
    #[test]
    fn tag_bits_follow_the_names() {
        for (i, name) in TAGS.iter().enumerate() {
            assert_eq!(Tags::of(&[name]), Tags(1 << i), "{name}");
        }
        let named = [
            (tag::SHOOTING, "shooting"),
            (tag::MELEE, "melee"),
            (tag::BRAWLING, "brawling"),
            (tag::DODGE, "dodge"),
            (tag::PSIONICS, "psionics"),
            (tag::MAGIC, "magic"),
            (tag::WILLPOWER, "willpower"),
            (tag::GRAPPLE, "grapple"),
            (tag::SHOVE, "shove"),
            (tag::TRIP, "trip"),
            (tag::INTIMIDATE, "intimidate"),
            (tag::TRICK, "trick"),
            (tag::TASK, "task"),
            (tag::PERCEPTION, "perception"),
        ];
        assert_eq!(named.len(), TAGS.len());
        for (bit, name) in named {
            assert_eq!(Tags(bit), Tags::of(&[name]), "{name}");
        }
        assert_eq!(Tags::of(&["boxing"]), Tags(0), "a name no roll has fits nothing");
    }
}
