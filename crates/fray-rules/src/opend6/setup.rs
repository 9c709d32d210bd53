//! A validated `opend6` scenario: combatants with their die codes, gear, cover and policies.

use super::options::Options;
use fray_engine::SideId;
use std::fmt;

/// A die code `XD+Y` (OD6-DICE-1): dice and pips, never renormalised (OD6-DICE-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DieCode {
    /// Six-sided dice, the Wild Die included.
    pub dice: i32,
    /// Pips added to the total.
    pub pips: i32,
}

impl DieCode {
    /// `dice`D+`pips`.
    pub const fn new(dice: i32, pips: i32) -> DieCode {
        DieCode { dice, pips }
    }

    /// The code as one number for comparisons: `3*dice + pips` (OD6-DICE-2).
    pub fn pips_value(self) -> i32 {
        3 * self.dice + self.pips
    }

    /// The sum of two codes, dice with dice and pips with pips (OD6-DICE-2).
    pub fn plus(self, other: DieCode) -> DieCode {
        DieCode { dice: self.dice + other.dice, pips: self.pips + other.pips }
    }

    /// The code with `n` more dice.
    pub fn add_dice(self, n: i32) -> DieCode {
        DieCode { dice: self.dice + n, pips: self.pips }
    }

    /// Reads `3D`, `3D+1`, `+1D`, `2D-1`, `0D` or a bare number of pips.
    pub fn parse(text: &str) -> Result<DieCode, String> {
        let expected = || format!("expected a die code like `3D+1` or `+1D`, found `{text}`");
        let t = text.trim();
        let t = t.strip_prefix('+').unwrap_or(t);
        let upper = t.to_ascii_uppercase();
        let Some((dice, rest)) = upper.split_once('D') else {
            return upper.parse::<i32>().map(|pips| DieCode::new(0, pips)).map_err(|_| expected());
        };
        let dice: i32 = dice.trim().parse().map_err(|_| expected())?;
        let rest = rest.trim();
        let pips = if rest.is_empty() {
            0
        } else if let Some(p) = rest.strip_prefix('+') {
            p.trim().parse::<i32>().map_err(|_| expected())?
        } else if let Some(p) = rest.strip_prefix('-') {
            -p.trim().parse::<i32>().map_err(|_| expected())?
        } else {
            return Err(expected());
        };
        if !(-30..=30).contains(&dice) || !(-30..=30).contains(&pips) {
            return Err(format!("expected −30 to 30 dice and −30 to +30 pips, found `{text}`"));
        }
        Ok(DieCode::new(dice, pips))
    }
}

/// A die code in the events: its text, `3D+1`.
impl serde::Serialize for DieCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

fray_engine::fixed_schema!(DieCode, "DieCode", {
    "type": "string",
    "description": "A die code: dice and pips, e.g. `3D+1`."
});

impl fmt::Display for DieCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pips {
            0 => write!(f, "{}D", self.dice),
            p if p > 0 => write!(f, "{}D+{p}", self.dice),
            p => write!(f, "{}D{p}", self.dice),
        }
    }
}

/// The six D6 Space attributes.
pub const ATTRIBUTES: [&str; 6] = ["agility", "mechanical", "strength", "knowledge", "perception", "technical"];

/// Skills the ruleset uses, with their governing attribute (index into [`ATTRIBUTES`]).
pub const SKILLS: [(&str, usize); 13] = [
    ("brawling", 0),
    ("dodge", 0),
    ("firearms", 0),
    ("melee_combat", 0),
    ("missile_weapons", 0),
    ("throwing", 0),
    ("running", 0),
    ("gunnery", 1),
    ("lifting", 2),
    ("stamina", 2),
    ("willpower", 3),
    ("search", 4),
    ("medicine", 5),
];

/// A skill, by index into [`SKILLS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SkillId(pub u8);

impl SkillId {
    /// Brawling.
    pub const BRAWLING: SkillId = SkillId(0);
    /// Dodge.
    pub const DODGE: SkillId = SkillId(1);
    /// Firearms.
    pub const FIREARMS: SkillId = SkillId(2);
    /// Melee combat.
    pub const MELEE: SkillId = SkillId(3);
    /// Missile weapons.
    pub const MISSILE: SkillId = SkillId(4);
    /// Throwing.
    pub const THROWING: SkillId = SkillId(5);
    /// Gunnery.
    pub const GUNNERY: SkillId = SkillId(7);
    /// Lifting.
    pub const LIFTING: SkillId = SkillId(8);
    /// Stamina.
    pub const STAMINA: SkillId = SkillId(9);
    /// Willpower.
    pub const WILLPOWER: SkillId = SkillId(10);
    /// Search.
    pub const SEARCH: SkillId = SkillId(11);
    /// Medicine.
    pub const MEDICINE: SkillId = SkillId(12);

    /// Its name.
    pub fn name(self) -> &'static str {
        SKILLS[self.0 as usize].0
    }

    /// By name.
    pub fn from_name(name: &str) -> Option<SkillId> {
        SKILLS.iter().position(|(n, _)| *n == name).map(|i| SkillId(i as u8))
    }

    /// Close-combat skills (brawling, melee combat): block and parry apply (OD6-DEF-5).
    pub fn close(self) -> bool {
        self == SkillId::BRAWLING || self == SkillId::MELEE
    }

    /// Whether aiming helps it (OD6-ATK-4).
    pub fn aimable(self) -> bool {
        matches!(self, SkillId::FIREARMS | SkillId::GUNNERY | SkillId::MISSILE | SkillId::THROWING)
    }

    /// Agility-based by default (a character's overrides: [`Sheet::agility_based`]).
    pub fn agility_based(self) -> bool {
        SKILLS[self.0 as usize].1 == 0
    }
}

/// Physical or energy damage (OD6-ARM-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DamageType {
    /// Physical.
    Physical,
    /// Energy.
    Energy,
}

/// A weapon (the implicit unarmed attack is the last weapon of every sheet).
#[derive(Clone, Debug, PartialEq)]
pub struct Weapon {
    /// Its name.
    pub name: String,
    /// The skill it uses (OD6-ATK-3).
    pub skill: SkillId,
    /// Listed damage.
    pub damage: DieCode,
    /// A "+" weapon: added to Strength Damage (OD6-DMG-2).
    pub strength_plus: bool,
    /// Physical or energy.
    pub damage_type: DamageType,
    /// Upper bounds of Short, Medium and Long in metres; `None` for close combat only.
    pub ranges: Option<[u32; 3]>,
    /// A melee weapon longer than 2 m (OD6-MOVE-5).
    pub long: bool,
    /// How far a long weapon reaches.
    pub reach_short_m: u32,
    /// Sharp, bladed or energised (OD6-DEF-6/7).
    pub sharp: bool,
    /// Allows knockdown, push and trip (OD6-SPECIAL-9).
    pub blunt: bool,
    /// Has a stun setting.
    pub stun_capable: bool,
    /// Starts on the stun setting (OD6-DMG-10).
    pub stun: bool,
    /// Uses per round (OD6-ACT-8).
    pub rate: u8,
    /// No per-round limit (OD6-ACT-8).
    pub quick: bool,
    /// Listed damage is for a burst (OD6-SPECIAL-2).
    pub burst: bool,
    /// Can fire full auto (OD6-SPECIAL-3).
    pub full_auto: bool,
    /// Most extra shots in single fire as multi (OD6-SPECIAL-4).
    pub multi_fire_max: u8,
    /// Magazine size; `None` is unlimited (OD6-GEAR-1).
    pub ammo_max: Option<u32>,
    /// Rounds at the start.
    pub ammo: Option<u32>,
    /// Rounds a burst uses.
    pub burst_ammo: u32,
    /// Rounds full auto or a sweep uses.
    pub auto_ammo: u32,
    /// The weapon's own difficulty modifier (OD6-DIFF-6).
    pub difficulty_mod: i32,
    /// Drawn at the start (OD6-GEAR-2).
    pub drawn: bool,
}

impl Weapon {
    /// The implicit unarmed attack: brawling, `+0D`, quick.
    pub fn unarmed() -> Weapon {
        Weapon {
            name: "fists".to_owned(),
            skill: SkillId::BRAWLING,
            damage: DieCode::new(0, 0),
            strength_plus: true,
            damage_type: DamageType::Physical,
            ranges: None,
            long: false,
            reach_short_m: 5,
            sharp: false,
            blunt: false,
            stun_capable: false,
            stun: false,
            rate: 1,
            quick: true,
            burst: false,
            full_auto: false,
            multi_fire_max: 0,
            ammo_max: None,
            ammo: None,
            burst_ammo: 3,
            auto_ammo: 10,
            difficulty_mod: 0,
            drawn: true,
        }
    }

    /// A close-combat weapon (brawling or melee combat).
    pub fn close(&self) -> bool {
        self.skill.close()
    }
}

/// Armour codes (OD6-ARM-1/2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Armor {
    /// Against physical damage.
    pub physical: DieCode,
    /// Against energy damage.
    pub energy: DieCode,
}

/// A wound level (OD6-TRACK-1), ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, schemars::JsonSchema)]
pub enum Level {
    /// 0.
    #[default]
    Healthy,
    /// 1.
    Stunned,
    /// 2.
    Wounded,
    /// 3.
    SeverelyWounded,
    /// 4.
    Incapacitated,
    /// 5.
    MortallyWounded,
    /// 6.
    Dead,
}

/// Every level, by index.
pub const LEVELS: [Level; 7] = [
    Level::Healthy,
    Level::Stunned,
    Level::Wounded,
    Level::SeverelyWounded,
    Level::Incapacitated,
    Level::MortallyWounded,
    Level::Dead,
];

impl Level {
    /// Its index on the ladder.
    pub fn index(self) -> i32 {
        self as i32
    }

    /// The level of an index, capped at Dead.
    pub fn from_index(i: i32) -> Level {
        LEVELS[i.clamp(0, 6) as usize]
    }

    /// Its name as scenario files write it.
    pub fn name(self) -> &'static str {
        ["healthy", "stunned", "wounded", "severely_wounded", "incapacitated", "mortally_wounded", "dead"]
            [self as usize]
    }
}

/// Standing, crouching or prone (OD6-DIFF-5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Posture {
    /// Standing.
    #[default]
    Standing,
    /// Crouching: +1D to be hit.
    Crouching,
    /// Prone: −2D close, +2D far.
    Prone,
}

/// Cover of a target against an attacker (OD6-DIFF-4): smoke, light and object steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cover {
    /// Smoke or fog: 0 none, 1 light, 2 thick, 3 very thick.
    pub smoke: u8,
    /// Light: 0 normal, 1 poor, 2 moonlit, 3 dark.
    pub light: u8,
    /// Percentage of the target hidden by an object: 0, 25, 50, 75 or 100.
    pub object: u8,
}

/// Gravity (OD6-DIFF-6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Gravity {
    /// No modifier.
    #[default]
    Normal,
    /// −1D.
    Low,
    /// −2D.
    Zero,
    /// +3D.
    Heavy,
}

/// Names accepted for each policy field, the default first.
pub const POLICIES: &[(&str, &[&str])] = &[
    ("actions", &["single", "double", "dodge_and_attack", "wait_and_dodge", "full_defense", "cautious", "aim"]),
    ("target", &["nearest", "weakest", "first"]),
    ("option", &["normal", "all_out", "full_auto", "head", "knockout", "lunge", "grab", "knockdown"]),
    ("points", &["scenario", "none", "threshold"]),
    ("move", &["close", "hold"]),
];

/// A combatant's named AI policies (indices into [`POLICIES`]' names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// How many actions, and which defence (`actions`).
    pub actions: u8,
    /// Whom to attack (`target`).
    pub target: u8,
    /// Which combat option (`option`).
    pub option: u8,
    /// Character Point spending (`points`): 0 follows `ai_point_spending`.
    pub points: u8,
    /// Whether to close in (`move`): 0 `close` moves toward a target out of every weapon's
    /// reach (the free move, then move actions), and spends the free move (OD6-MOVE-2) closing on a
    /// target in the weapon's Long band to the Medium band's edge before shooting; 1 `hold` stays.
    pub movement: u8,
}

impl Policy {
    /// The name of a field's value.
    pub fn name(&self, field: usize) -> &'static str {
        POLICIES[field].1[self.value(field) as usize]
    }

    /// A field's value (an index into its names).
    pub fn value(&self, field: usize) -> u8 {
        [self.actions, self.target, self.option, self.points, self.movement][field]
    }
}

/// One combatant's stat block.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: SideId,
    /// Its initiative group (OD6-INIT-3), if any.
    pub group: Option<String>,
    /// A player character or major GM character.
    pub hero: bool,
    /// Attributes, in [`ATTRIBUTES`] order.
    pub attributes: [DieCode; 6],
    /// Skills given (full codes), by [`SkillId`]; `None` uses the attribute.
    pub skills: [Option<DieCode>; 13],
    /// Each skill's governing attribute (index into [`ATTRIBUTES`]); the scenario may override
    /// the defaults of [`SKILLS`].
    pub governing: [usize; 13],
    /// Move in metres.
    pub move_m: i32,
    /// Actions free of penalty (OD6-ACT-1).
    pub allotment: i32,
    /// Character Points.
    pub cp: u32,
    /// Fate Points.
    pub fp: u32,
    /// Starting wound level.
    pub level: Level,
    /// Body Points maximum, if given (OD6-TRACK-10).
    pub body_points_max: Option<u32>,
    /// Extra Strength Damage dice.
    pub strength_damage_mod: i32,
    /// Added to resistance.
    pub resistance_mod: DieCode,
    /// May body-block blades.
    pub block_bladed: bool,
    /// May knock down or push a stronger target.
    pub takedown_training: bool,
    /// Medical kit dice.
    pub medkit: DieCode,
    /// Surprised the opposition in round 1.
    pub surprise: bool,
    /// Position on the line, metres.
    pub position: i32,
    /// Starting posture.
    pub posture: Posture,
    /// Weapons; the last is the implicit unarmed attack.
    pub weapons: Vec<Weapon>,
    /// Armour.
    pub armor: Armor,
    /// Blind.
    pub blind: bool,
    /// Cover against every attacker, unless a pair entry says otherwise.
    pub cover: Cover,
    /// AI policies.
    pub policy: Policy,
    /// Every skill's code as [`Sheet::skill`] gives it, worked out once at load
    /// ([`Sheet::resolve_codes`]): every roll asks for one. Set it again after changing
    /// `skills`, `attributes` or `governing` (debug builds check).
    pub codes: [DieCode; 13],
}

impl Sheet {
    /// Whether `skill` is Agility-based for this character: its governing attribute, with the
    /// scenario's `governing` overrides, is Agility (the knockdown penalty, OD6-SPECIAL-9).
    pub fn agility_based(&self, skill: SkillId) -> bool {
        self.governing[skill.0 as usize] == 0
    }

    /// The code of a skill, or its attribute when the skill is not listed (OD6-ATK-3).
    pub fn skill(&self, skill: SkillId) -> DieCode {
        let i = skill.0 as usize;
        debug_assert_eq!(self.codes[i], self.resolve_code(i), "a sheet's codes are stale");
        self.codes[i]
    }

    /// Every skill's code, for [`Sheet::codes`]: the skill's own when listed, else its governing
    /// attribute's.
    pub fn resolve_codes(&self) -> [DieCode; 13] {
        std::array::from_fn(|i| self.resolve_code(i))
    }

    /// Skill `i`'s code from the listed skills and attributes.
    fn resolve_code(&self, i: usize) -> DieCode {
        self.skills[i].unwrap_or(self.attributes[self.governing[i]])
    }

    /// Whether the skill is listed.
    pub fn has_skill(&self, skill: SkillId) -> bool {
        self.skills[skill.0 as usize].is_some()
    }

    /// Strength.
    pub fn strength(&self) -> DieCode {
        self.attributes[2]
    }

    /// Perception.
    pub fn perception(&self) -> DieCode {
        self.attributes[4]
    }

    /// Agility.
    pub fn agility(&self) -> DieCode {
        self.attributes[0]
    }

    /// The index of the unarmed attack.
    pub fn unarmed(&self) -> usize {
        self.weapons.len() - 1
    }
}

/// A validated scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The options in force.
    pub options: Options,
    /// Side names.
    pub sides: Vec<String>,
    /// Combatants, in scenario order.
    pub combatants: Vec<Sheet>,
    /// Cover of pairs: (attacker, target, cover).
    pub cover_pairs: Vec<(usize, usize, Cover)>,
    /// Range bands of pairs under `position_model = bands`: (attacker, target, band 0..=3).
    pub bands: Vec<(usize, usize, u8)>,
    /// The order under `initiative_method = fixed_order`.
    pub fixed_order: Vec<usize>,
    /// Gravity.
    pub gravity: Gravity,
    /// The round cap.
    pub max_rounds: u32,
    /// How many combatants at the end of the roster join mid-fight (added by the game master):
    /// absent until their join ([`crate::Scenario::join_late`]).
    pub joins_late: usize,
}

impl Setup {
    /// Whether the combatant at `i` joins mid-fight, absent at the start.
    pub fn joins_late(&self, i: usize) -> bool {
        i + self.joins_late >= self.combatants.len()
    }

    /// The cover of `target` against `attacker`.
    pub fn cover(&self, attacker: usize, target: usize) -> Cover {
        self.cover_pairs
            .iter()
            .find(|(a, t, _)| *a == attacker && *t == target)
            .map_or(self.combatants[target].cover, |p| p.2)
    }

    /// The scenario-given band of a pair (`position_model = bands`), Short by default.
    pub fn band(&self, attacker: usize, target: usize) -> u8 {
        self.bands
            .iter()
            .find(|(a, t, _)| (*a == attacker && *t == target) || (*a == target && *t == attacker))
            .map_or(1, |p| p.2)
    }
}
