//! A validated `hardboiled` scenario: combatants with attribute dice, specialisms, weapons,
//! armour, cover and policies, and the catalogue's placeholder tables.

use super::options::Options;
use fray_engine::{Pos, SideId};

/// The three attributes (USR-DICE-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attr {
    /// Physical deeds, fighting, shooting, initiative.
    Action,
    /// Perception, cunning.
    Wits,
    /// Willpower, psionics, magic.
    Ego,
}

/// A specialism: +2 to a roll of its attribute whose tags it matches (USR-DICE-3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Specialism {
    /// Its name.
    pub name: String,
    /// Its attribute.
    pub attribute: Attr,
    /// The tags it fits (`melee`, `brawling`, `shooting`, `dodge`, `grapple`, `psionics`, …).
    pub tags: Vec<String>,
    /// The same tags as a set, for the rolls' tests ([`Specialism::new`]).
    pub(crate) set: super::attack::Tags,
}

impl Specialism {
    /// A specialism of `attribute` fitting `tags`.
    pub fn new(name: String, attribute: Attr, tags: Vec<String>) -> Specialism {
        let set = super::attack::Tags::of(&tags);
        Specialism { name, attribute, tags, set }
    }
}

/// Weapon damage: a constant or `NdS+K` (USR-RNG-8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Damage {
    /// Dice.
    pub dice: u8,
    /// Sides per die.
    pub sides: u8,
    /// Added.
    pub plus: i32,
}

impl Damage {
    /// The largest value (USR-RNG-9).
    pub fn max(self) -> i32 {
        i32::from(self.dice) * i32::from(self.sides) + self.plus
    }

    /// Reads `6`, `2d6`, `1d6+2`, `d8-1`.
    pub fn parse(text: &str) -> Result<Damage, String> {
        let expected = || format!("expected a constant or dice like `2d6+1`, found `{text}`");
        let t = text.trim().to_ascii_lowercase();
        if let Ok(k) = t.parse::<i32>() {
            return if (-100..=100).contains(&k) { Ok(Damage { dice: 0, sides: 0, plus: k }) } else { Err(expected()) };
        }
        let (dice, rest) = t.split_once('d').ok_or_else(expected)?;
        let dice: u8 = if dice.is_empty() { 1 } else { dice.parse().map_err(|_| expected())? };
        let (sides, plus) = match rest.find(['+', '-']) {
            Some(i) => (&rest[..i], rest[i..].parse::<i32>().map_err(|_| expected())?),
            None => (rest, 0),
        };
        let sides: u8 = sides.parse().map_err(|_| expected())?;
        if dice == 0 || dice > 20 || !(2..=100).contains(&sides) || !(-100..=100).contains(&plus) {
            return Err(expected());
        }
        Ok(Damage { dice, sides, plus })
    }
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.dice, self.plus) {
            (0, k) => write!(f, "{k}"),
            (n, 0) => write!(f, "{n}d{}", self.sides),
            (n, k) => write!(f, "{n}d{}{k:+}", self.sides),
        }
    }
}

/// A weapon (USR-ATK-3, USR-ATK-7, USR-RNG-8).
#[derive(Clone, Debug, PartialEq)]
pub struct Weapon {
    /// Its name.
    pub name: String,
    /// Ranged (else melee).
    pub ranged: bool,
    /// Added to the wielder's melee contest total.
    pub bonus: i32,
    /// Damage of a ranged hit.
    pub damage: Damage,
    /// Listed range R in metres (ranged).
    pub range_m: f64,
    /// Brawling: half damage comes off HP (USR-DMG-3).
    pub brawling: bool,
    /// Reach (0 unarmed … 3 spear, USR-INIT-6).
    pub reach: i32,
    /// Penetration against cover (USR-COVER-3).
    pub penetration: i32,
}

/// The placeholder weapon table (`weapon_table = pulp_placeholder`): id and weapon.
pub fn weapon_table() -> Vec<(&'static str, Weapon)> {
    let melee = |name: &str, bonus, brawling, reach| Weapon {
        name: name.to_owned(),
        ranged: false,
        bonus,
        damage: Damage::default(),
        range_m: 0.0,
        brawling,
        reach,
        penetration: 0,
    };
    let gun = |name: &str, damage, range_m, penetration| Weapon {
        name: name.to_owned(),
        ranged: true,
        bonus: 0,
        damage: Damage { dice: 0, sides: 0, plus: damage },
        range_m,
        brawling: false,
        reach: 0,
        penetration,
    };
    vec![
        ("unarmed", melee("unarmed", 0, true, 0)),
        ("brass_knuckles", melee("brass knuckles", 1, true, 0)),
        ("blackjack", melee("blackjack", 1, true, 1)),
        ("knife", melee("knife", 1, false, 1)),
        ("club", melee("club", 1, false, 2)),
        ("sword", melee("sword", 2, false, 2)),
        ("spear", melee("spear", 2, false, 3)),
        ("walther_ppk", gun("Walther PPK", 4, 15.0, 1)),
        ("revolver_38", gun(".38 revolver", 5, 20.0, 1)),
        ("automatic_45", gun(".45 automatic", 6, 20.0, 1)),
        ("shotgun", gun("shotgun", 8, 20.0, 1)),
        ("tommy_gun", gun("tommy gun", 6, 40.0, 2)),
        ("hunting_rifle", gun("hunting rifle", 8, 100.0, 2)),
    ]
}

/// Faces of the location d10 as a bit set (bit f for face f).
pub type Locations = u16;

/// Every location, faces 1–10.
pub const ALL: Locations = 0b111_1111_1110;

/// The set of faces `from..=to`.
pub const fn faces(from: u16, to: u16) -> Locations {
    let mut mask = 0;
    let mut f = from;
    while f <= to {
        mask |= 1 << f;
        f += 1;
    }
    mask
}

/// A piece of armour (USR-ARM-1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Armour {
    /// Its name.
    pub name: String,
    /// Stopping power.
    pub stop: i32,
    /// The locations it covers.
    pub locations: Locations,
    /// Natural armour (hide, shell).
    pub natural: bool,
}

/// The placeholder armour table (`armour_table = pulp_placeholder`).
pub fn armour_table() -> Vec<(&'static str, Armour)> {
    let piece = |name: &str, stop, locations, natural| Armour { name: name.to_owned(), stop, locations, natural };
    vec![
        ("leather_jacket", piece("leather jacket", 1, faces(2, 6), false)),
        ("bulletproof_vest", piece("bulletproof vest", 3, faces(2, 4), false)),
        ("steel_helmet", piece("steel helmet", 2, faces(1, 1), false)),
        ("thick_hide", piece("thick hide", 2, ALL, true)),
    ]
}

/// Cover presets (`cover_presets = placeholder`, USR-COVER-4). The face ranges joined are
/// disjoint, so `|` and `^` give the same set (equivalent mutants, TESTING.md).
pub const COVER_PRESETS: [(&str, Locations); 4] = [
    ("low", faces(7, 10)),
    ("counter", faces(2, 4) | faces(7, 10)),
    ("corner", faces(2, 4) | faces(6, 10)),
    ("full", ALL),
];

/// A combatant's cover (USR-COVER-1..4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cover {
    /// The locations it hides.
    pub locations: Locations,
    /// Hardness 0–3.
    pub hardness: i32,
}

/// Names accepted for each policy field, the default first.
pub const POLICIES: &[(&str, &[&str])] = &[
    ("target", &["nearest", "weakest", "first"]),
    ("attack", &["best", "weapon", "brawl"]),
    ("called_shot", &["never", "head", "uncovered"]),
    ("cover", &["stay", "leave"]),
    ("second_wind", &["scenario", "half_hp", "first_hit", "when_down", "never"]),
    ("move", &["close", "hold"]),
];

/// A combatant's named AI policies (indices into [`POLICIES`]' names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// Whom to attack.
    pub target: u8,
    /// The weapon or fists.
    pub attack: u8,
    /// Called shots.
    pub called_shot: u8,
    /// Staying in cover.
    pub cover: u8,
    /// When to use Second Wind (0: the scenario's `second_wind_policy`).
    pub second_wind: u8,
    /// Closing in.
    pub movement: u8,
}

impl Policy {
    /// The name of a field's value.
    pub fn name(&self, field: usize) -> &'static str {
        POLICIES[field].1[self.value(field) as usize]
    }

    /// A field's value (an index into its names).
    pub fn value(&self, field: usize) -> u8 {
        [self.target, self.attack, self.called_shot, self.cover, self.second_wind, self.movement][field]
    }
}

/// One combatant's stat block.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: SideId,
    /// A hero.
    pub hero: bool,
    /// Action, Wits and Ego dice (sides).
    pub dice: [u8; 3],
    /// Specialisms.
    pub specialisms: Vec<Specialism>,
    /// Maximum HP, if given (else rolled or maximum, USR-TRACK-1/2).
    pub hp_max: Option<i32>,
    /// Starting HP, if given.
    pub hp: Option<i32>,
    /// Second Wind already used in this game.
    pub second_wind_used: bool,
    /// The wielded weapon.
    pub weapon: Weapon,
    /// Armour pieces.
    pub armour: Vec<Armour>,
    /// Ward.
    pub ward: i32,
    /// Position.
    pub position: Pos,
    /// Cover, if any.
    pub cover: Option<Cover>,
    /// Policies.
    pub policy: Policy,
}

impl Sheet {
    /// An attribute's die.
    pub fn die(&self, attr: Attr) -> u8 {
        self.dice[attr as usize]
    }

    /// +2 per specialism of `attr` that fits one of `tags` (USR-DICE-3, USR-ATK-2).
    pub fn specialism_bonus(&self, attr: Attr, tags: &[&str]) -> i32 {
        self.specialism_bonus_of(attr, super::attack::Tags::of(tags))
    }

    /// +2 per specialism of `attr` that fits one of the set `tags` (USR-DICE-3, USR-ATK-2).
    pub fn specialism_bonus_of(&self, attr: Attr, tags: super::attack::Tags) -> i32 {
        debug_assert!(
            self.specialisms.iter().all(|s| s.set == super::attack::Tags::of(&s.tags)),
            "a specialism's tags changed: build it again with `Specialism::new`"
        );
        2 * self.specialisms.iter().filter(|s| s.attribute == attr && s.set.meet(tags)).count() as i32
    }

    /// The stopping power on a location (USR-ARM-1, USR-ARM-3).
    pub fn stop(&self, face: u8, best: bool) -> i32 {
        let covering = self.armour.iter().filter(|a| a.locations & (1 << face) != 0).map(|a| a.stop);
        if best { covering.max().unwrap_or(0) } else { covering.sum() }
    }
}

/// A validated scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The options.
    pub options: Options,
    /// Side names.
    pub sides: Vec<String>,
    /// Combatants in roster order.
    pub combatants: Vec<Sheet>,
    /// The turn cap.
    pub max_turns: u32,
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
