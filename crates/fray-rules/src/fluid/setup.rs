//! A validated `fluid` scenario: combatants with their stat blocks, gear and policies.

use super::options::Options;
use fray_engine::{Pos, SideId};

/// The seven stats, in the catalogue's order.
pub const STATS: [&str; 7] = ["FIN", "ALL", "BOD", "STR", "INS", "MEN", "NER"];
/// Index of FIN in [`Sheet::stats`].
pub const FIN: usize = 0;
/// Index of BOD in [`Sheet::stats`].
pub const BOD: usize = 2;
/// Index of NER in [`Sheet::stats`].
pub const NER: usize = 6;

/// The three defence skills (FLUID-DEF-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
pub enum DefenceSkill {
    /// Dodge: no item.
    Dodge,
    /// Parry with a weapon (or unarmed).
    Parry,
    /// Block with a weapon or shield (or unarmed).
    Block,
}

/// A trained skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    /// Its name, e.g. `long_sword`.
    pub name: String,
    /// Trained rank (FLUID-ACT-7).
    pub rank: i32,
    /// Skill value: 10 + stat bonus + rank, or as given.
    pub value: i32,
}

/// Where a skill's value comes from, resolved once when the scenario is read so that a fight
/// never looks a skill up by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkillRef {
    /// A trained skill: its index in [`Sheet::skills`].
    Trained(u32),
    /// An untrained defence skill, common to all: value 10 (FLUID-DEF-2).
    Common,
    /// Any other untrained skill: 10 + the untrained penalty (FLUID-ACT-11).
    Untrained,
}

/// What an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// A melee weapon.
    Melee,
    /// A ranged weapon.
    Ranged,
    /// A shield.
    Shield,
    /// An area weapon (a grenade): a blast around a point (FLUID-SPECIAL-1).
    Area,
}

/// A firearm's fire mode and its maximum burst (FLUID-SPECIAL-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fire {
    /// Single shots (max 1).
    Single,
    /// Pump-action (max 2, sprays only by default: FLUID-SPECIAL-10).
    Pump,
    /// Semi-automatic (max 4).
    Semi,
    /// Burst-fire (max 6).
    Burst,
    /// Full-auto (max 8).
    Auto,
}

impl Fire {
    /// The maximum rounds in one burst or shots in one spray.
    pub fn max_rounds(self) -> u32 {
        match self {
            Fire::Single => 1,
            Fire::Pump => 2,
            Fire::Semi => 4,
            Fire::Burst => 6,
            Fire::Auto => 8,
        }
    }
}

/// What a ranged weapon shoots (FLUID-DEF-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projectile {
    /// Bullets.
    Bullet,
    /// Arrows, bolts and thrown weapons.
    Arrow,
}

/// Base damage: constant or dice (FLUID-DMG-1, FLUID-DICE-11).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Amount {
    /// A fixed amount.
    Fixed(i32),
    /// Dice, as a fray-dice program (e.g. `2d6`).
    Dice(fray_dice::Program),
}

/// A weapon or shield.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Its id in the scenario.
    pub id: String,
    /// What it is.
    pub kind: ItemKind,
    /// The skill it attacks with (index into [`Sheet::skills`]); `None` for shields and items
    /// that cannot attack.
    pub skill: Option<String>,
    /// Base W damage.
    pub damage_w: Amount,
    /// Base S damage.
    pub damage_s: Amount,
    /// Offense quality.
    pub oq: i32,
    /// Defense quality.
    pub dq: i32,
    /// Sizes; the first is the normal size (FLUID-SIZE-2).
    pub sizes: Vec<i32>,
    /// Quality tier T1–T5; `None` never sunders (FLUID-GEAR-3, FLUID-SUNDER-13).
    pub tier: Option<i32>,
    /// Fire mode (ranged weapons).
    pub fire: Fire,
    /// A good recoil suppressor halves the burst penalty (FLUID-SPECIAL-6).
    pub half_recoil: bool,
    /// Ammunition counts, if tracked (FLUID-GEAR-4).
    pub ammo: Option<i32>,
    /// What it shoots.
    pub projectile: Projectile,
    /// The base range band of an area weapon (1 = Nearby) (FLUID-SPECIAL-1).
    pub blast_band: usize,
    /// The unarmed pseudo-item every combatant has (FLUID-GEAR-5).
    pub unarmed: bool,
}

impl Item {
    /// The smallest listed size (FLUID-SIZE-3, FLUID-ARM-2).
    pub fn smallest_size(&self) -> i32 {
        self.sizes.iter().copied().min().unwrap_or(3)
    }

    /// Whether it can Parry or Block (FLUID-GEAR-2: any melee weapon or shield; unarmed defence
    /// is its own option, FLUID-DEF-7).
    pub fn defends(&self) -> bool {
        matches!(self.kind, ItemKind::Melee | ItemKind::Shield) && !self.unarmed
    }
}

/// Worn or natural armour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Armor {
    /// Its name.
    pub name: String,
    /// Armour value.
    pub av: i32,
    /// Its size (FLUID-SIZE-1).
    pub size: i32,
    /// Quality tier; `None` never sunders.
    pub tier: Option<i32>,
}

/// Named AI policies for the choices the rules leave to a player: each field the index of its
/// value among the names [`POLICIES`](super::policy::POLICIES) accepts for it (0, the first, is
/// the default), compared with constants fixed at compile time rather than by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PolicySpec {
    /// Tactics split: `normal`, `aggressive`, `defensive`, or `answer` (the opponent's stance decides).
    pub tactics: u8,
    /// Target choice: `nearest`, `weakest` or `first`.
    pub target: u8,
    /// Intent: `lethal` or `stunning`.
    pub intent: u8,
    /// How many attacks to declare: `one`, `max`, or `full_defense` (FLUID-ACT-8).
    pub attacks: u8,
    /// Whether to try the NER pain check (FLUID-TRACK-4): `expected` (when its exact expected
    /// penalty beats CP), `always` or `never`.
    pub pain: u8,
    /// When to make a sunder attack on a blocking item (FLUID-SUNDER-7): `never`, or `superior`
    /// (when its weapon's tier is higher).
    pub sunder: u8,
    /// How to fire a firearm: `single`, `burst` or `spray` (at the weapon's maximum).
    pub fire: u8,
    /// Movement (`move`): `close` (move towards the target when it is out of reach) or `hold`.
    pub movement: u8,
    /// Area weapons: `never`, or `safe` (at the target when no one on the thrower's side is in the
    /// blast, where they stand or along a move they declared this round).
    pub area: u8,
    /// Unarmed attacks: `never`, or `when_unarmed` (when it has no other usable weapon: none, or
    /// all broken or out of ammunition). A fighter whose weapons are all spent and who does not
    /// brawl takes Full Defense (FLUID-ACT-8).
    pub brawl: u8,
    /// Healing: `allies` (a Heal check on a dying ally within Nearby instead of attacking) or `never`.
    pub heal: u8,
    /// Shielding: `never`, or `allies` (shield the body of an incapacitated ally within Nearby
    /// from far shots, FLUID-DEF-15).
    pub shield: u8,
}

impl PolicySpec {
    /// The value of field `field` (its index in [`POLICIES`](super::policy::POLICIES)).
    pub fn value(&self, field: usize) -> u8 {
        match field {
            0 => self.tactics,
            1 => self.target,
            2 => self.intent,
            3 => self.attacks,
            4 => self.pain,
            5 => self.sunder,
            6 => self.fire,
            7 => self.movement,
            8 => self.area,
            9 => self.brawl,
            10 => self.heal,
            11 => self.shield,
            _ => panic!("no policy field {field}"),
        }
    }

    /// The name of field `field`'s value, as a scenario writes it.
    pub fn name(&self, field: usize) -> &'static str {
        super::policy::POLICIES[field].1[usize::from(self.value(field))]
    }

    /// Sets field `field` to its value numbered `value`.
    pub fn set_value(&mut self, field: usize, value: u8) {
        let slot = match field {
            0 => &mut self.tactics,
            1 => &mut self.target,
            2 => &mut self.intent,
            3 => &mut self.attacks,
            4 => &mut self.pain,
            5 => &mut self.sunder,
            6 => &mut self.fire,
            7 => &mut self.movement,
            8 => &mut self.area,
            9 => &mut self.brawl,
            10 => &mut self.heal,
            11 => &mut self.shield,
            _ => panic!("no policy field {field}"),
        };
        *slot = value;
    }

    /// Sets a field by the names a scenario uses (`set("pain", "never")`); `Err` names what is
    /// unknown.
    pub fn set(&mut self, field: &str, value: &str) -> Result<(), String> {
        let table = super::policy::POLICIES;
        let f = table.iter().position(|(k, _)| *k == field).ok_or_else(|| format!("unknown policy `{field}`"))?;
        let v =
            table[f].1.iter().position(|n| *n == value).ok_or_else(|| format!("unknown {field} policy `{value}`"))?;
        self.set_value(f, v as u8);
        Ok(())
    }
}

/// One combatant's sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Its id (name) in the scenario.
    pub id: String,
    /// Its side.
    pub side: SideId,
    /// A player character (FLUID-TAC-3, FLUID-INIT-5).
    pub player: bool,
    /// FIN, ALL, BOD, STR, INS, MEN, NER scores.
    pub stats: [i32; 7],
    /// Creature size (S0–S5).
    pub size: i32,
    /// Maximum W and S (FLUID-TRACK-1).
    pub pc: i32,
    /// W at the start.
    pub w: i32,
    /// S at the start.
    pub s: i32,
    /// Maximum S under `stress_max = sheet` (FLUID-TRACK-1).
    pub s_max: i32,
    /// Tactics value.
    pub tactics: i32,
    /// Metres walked in one round (FLUID-MOVE-1).
    pub move_m: f64,
    /// Trained skills.
    pub skills: Vec<Skill>,
    /// Weapons and shields.
    pub items: Vec<Item>,
    /// Armour, if any.
    pub armor: Option<Armor>,
    /// Where it stands.
    pub position: Pos,
    /// Its AI policies.
    pub policy: PolicySpec,
    /// Hidden from the other sides at the start (FLUID-ROUND-3).
    pub hidden: bool,
    /// Stabilized at the start (FLUID-TRACK-6).
    pub stabilized: bool,
    /// Dodge, Parry and Block, resolved ([`Sheet::resolve_skills`]).
    pub(crate) defence_skills: [SkillRef; 3],
    /// Per item, the skill it attacks with, resolved ([`Sheet::resolve_skills`]).
    pub(crate) item_skills: Vec<SkillRef>,
    /// Per item, the first item with the same attack skill ([`Sheet::resolve_skills`]).
    pub(crate) item_groups: Vec<u8>,
}

impl Sheet {
    /// A stat's bonus (score − 10).
    pub fn bonus(&self, stat: usize) -> i32 {
        self.stats[stat] - 10
    }

    /// A skill's value: the sheet's, or untrained (FLUID-ACT-11; defences are common, FLUID-DEF-2).
    pub fn skill_value(&self, name: &str, options: &Options) -> i32 {
        self.value_of(self.skill_ref(name), options)
    }

    /// A skill's rank (0 when untrained).
    pub fn skill_rank(&self, name: &str) -> i32 {
        self.rank_of(self.skill_ref(name))
    }

    /// Where a named skill's value comes from: trained, or untrained (FLUID-ACT-11; defences are
    /// common, FLUID-DEF-2).
    fn skill_ref(&self, name: &str) -> SkillRef {
        match self.skills.iter().position(|s| s.name == name) {
            Some(i) => SkillRef::Trained(i as u32),
            None if matches!(name, "dodge" | "parry" | "block") => SkillRef::Common,
            None => SkillRef::Untrained,
        }
    }

    /// Resolves the defence skills and the items' attack skills by name, once; call it again
    /// after changing which skills or items the sheet has.
    pub fn resolve_skills(&mut self) {
        self.defence_skills = [self.skill_ref("dodge"), self.skill_ref("parry"), self.skill_ref("block")];
        self.item_skills = self.items.iter().map(|item| self.skill_ref(item.skill.as_deref().unwrap_or(""))).collect();
        self.item_groups = self
            .items
            .iter()
            .map(|item| self.items.iter().position(|other| other.skill == item.skill).unwrap_or(0) as u8)
            .collect();
    }

    /// A resolved skill's value; the same as [`Sheet::skill_value`] of its name.
    pub fn value_of(&self, skill: SkillRef, options: &Options) -> i32 {
        match skill {
            SkillRef::Trained(i) => self.skills[i as usize].value,
            SkillRef::Common => 10,
            SkillRef::Untrained => 10 + options.untrained_penalty,
        }
    }

    /// A resolved skill's rank (0 when untrained).
    pub fn rank_of(&self, skill: SkillRef) -> i32 {
        match skill {
            SkillRef::Trained(i) => self.skills[i as usize].rank,
            SkillRef::Common | SkillRef::Untrained => 0,
        }
    }

    /// The value of a defence skill.
    pub fn defence_value(&self, skill: DefenceSkill, options: &Options) -> i32 {
        self.value_of(self.defence_skills[skill as usize], options)
    }

    /// The value of the skill item `item` attacks with.
    pub fn attack_value(&self, item: usize, options: &Options) -> i32 {
        self.value_of(self.item_skill(item), options)
    }

    /// Per item, the first item with the same attack skill, whose count the limit of attacks
    /// applies to (FLUID-ACT-7).
    pub fn item_groups(&self) -> &[u8] {
        debug_assert_eq!(self.item_groups.len(), self.items.len(), "items changed: call `resolve_skills`");
        &self.item_groups
    }

    /// The resolved skill item `item` attacks with.
    pub fn item_skill(&self, item: usize) -> SkillRef {
        debug_assert_eq!(self.item_skills.len(), self.items.len(), "items changed: call `resolve_skills`");
        self.item_skills[item]
    }
}

/// A validated `fluid` scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The options in force.
    pub options: Options,
    /// Side names, in order of first appearance.
    pub sides: Vec<String>,
    /// Combatants in roster order.
    pub combatants: Vec<Sheet>,
    /// The round cap (a stalemate when reached).
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
}
