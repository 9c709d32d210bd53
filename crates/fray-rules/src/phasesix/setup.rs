//! A validated `phasesix` scenario: combatants with attributes, skills, gear and policies.

use super::options::Options;
use fray_engine::{Pos, SideId};

/// A weapon's class (P6-ATK-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Hand-to-hand combat.
    Melee,
    /// Shooting.
    Ranged,
    /// Throwing.
    Thrown,
}

/// An attack mode (P6-MODE-1..4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum Mode {
    /// Melee: parried, dodged, crits, aimed.
    Melee,
    /// Single shot.
    Single,
    /// Burst: +2 dice, 3 rounds, no crits, no aim.
    Burst,
    /// Thrown.
    Thrown,
}

impl Mode {
    /// Its bit in [`Weapon::modes`].
    pub fn bit(self) -> u8 {
        1 << self as u8
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        ["melee", "single", "burst", "thrown"][self as usize]
    }
}

/// Weapon condition values: bleeding, poisoned, shocked, burning (P6-DMG-5).
pub type Conditions = [i32; 4];

/// A weapon.
#[derive(Clone, Debug, PartialEq)]
pub struct Weapon {
    /// Its name.
    pub name: String,
    /// Its class.
    pub class: Class,
    /// Modes (bits of [`Mode`]).
    pub modes: u8,
    /// Damage potential.
    pub dp: i32,
    /// Piercing.
    pub piercing: i32,
    /// Wounds per hit.
    pub wounds_per_hit: i32,
    /// Range in metres.
    pub range_m: f64,
    /// Hands.
    pub hands: u8,
    /// Type (for two-weapon fighting).
    pub weapon_type: String,
    /// Blunt (K.O.).
    pub blunt: bool,
    /// Recoil.
    pub recoil: bool,
    /// Recoil compensation.
    pub recoil_compensation: i32,
    /// Capacity (`None`: no ammunition counted).
    pub capacity: Option<i32>,
    /// Loaded at the start.
    pub ammo: Option<i32>,
    /// Actions to reload.
    pub reload_actions: u8,
    /// Actions to ready.
    pub ready_actions: u8,
    /// Encumbrance.
    pub encumbrance: i32,
    /// Can be braced.
    pub supportable: bool,
    /// Conditions caused.
    pub conditions: Conditions,
}

impl Weapon {
    /// The built-in unarmed attack (P6-ATK-5): the combatant's piercing is set when used.
    pub fn unarmed() -> Weapon {
        Weapon {
            name: "unarmed".to_owned(),
            class: Class::Melee,
            modes: Mode::Melee.bit(),
            dp: 0,
            piercing: 0,
            wounds_per_hit: 1,
            range_m: 1.0,
            hands: 1,
            weapon_type: "unarmed".to_owned(),
            blunt: true,
            recoil: false,
            recoil_compensation: 0,
            capacity: None,
            ammo: None,
            reload_actions: 1,
            ready_actions: 0,
            encumbrance: 0,
            supportable: false,
            conditions: [0; 4],
        }
    }
}

/// Worn armour (P6-DMG-1, P6-ARM-*).
#[derive(Clone, Debug, PartialEq)]
pub struct Armour {
    /// Its name.
    pub name: String,
    /// Protection.
    pub protection: i32,
    /// Encumbrance.
    pub encumbrance: i32,
    /// Condition in percent.
    pub condition_pct: i32,
}

/// A shield (P6-SHLD-*).
#[derive(Clone, Debug, PartialEq)]
pub struct Shield {
    /// Its name.
    pub name: String,
    /// Protection (cover 7 − protection).
    pub protection: i32,
    /// Encumbrance.
    pub encumbrance: i32,
}

/// A throwable object such as a grenade (P6-THROW-*, P6-DMG-4).
#[derive(Clone, Debug, PartialEq)]
pub struct Throwable {
    /// Its name.
    pub name: String,
    /// Hits dealt.
    pub hits: i32,
    /// Wounds per hit.
    pub wounds_per_hit: i32,
    /// Piercing.
    pub piercing: i32,
    /// Conditions caused.
    pub conditions: Conditions,
    /// How many are carried.
    pub count: u8,
}

/// Names accepted for each policy field, the default first.
pub const POLICIES: &[(&str, &[&str])] = &[
    ("target", &["nearest", "weakest", "first"]),
    ("keep", &["one", "none", "all"]),
    ("defend", &["best", "dodge", "parry", "shield", "never"]),
    ("fire", &["single", "burst"]),
    ("aim", &["never", "ranged", "always"]),
    ("hunker", &["never", "under_fire"]),
    ("spend", &["never", "to_defend", "to_hit", "always"]),
    ("move", &["close", "hold"]),
    ("throw", &["never", "first"]),
];

/// A combatant's named AI policies (indices into [`POLICIES`]' names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Policy(pub [u8; 9]);

impl Policy {
    /// The name of a field's value.
    pub fn name(&self, field: usize) -> &'static str {
        POLICIES[field].1[self.0[field] as usize]
    }
}

/// One combatant's stat block.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: SideId,
    /// Quickness, Deftness, Strength, Endurance, Resistance, Willpower.
    pub quickness: i32,
    /// Deftness.
    pub deftness: i32,
    /// Strength.
    pub strength: i32,
    /// Endurance.
    pub endurance: i32,
    /// Resistance.
    pub resistance: i32,
    /// Willpower.
    pub willpower: i32,
    /// Hand-to-hand combat.
    pub hand_to_hand: i32,
    /// Shooting.
    pub shooting: i32,
    /// Throwing.
    pub throwing: i32,
    /// Perception.
    pub perception: i32,
    /// First aid.
    pub first_aid: i32,
    /// Medicine.
    pub medicine: i32,
    /// Minimum roll.
    pub min_roll: i32,
    /// Maximum actions.
    pub actions: i32,
    /// Lineage evasion.
    pub lineage_evasion: i32,
    /// Template evasion modifier.
    pub evasion_mod: i32,
    /// Innate protection.
    pub innate_protection: i32,
    /// Hearts.
    pub max_wounds: i32,
    /// Wounds at the start.
    pub wounds: i32,
    /// Boosts at the start.
    pub boosts: i32,
    /// Bonus dice, destiny dice, rerolls.
    pub bonus_dice: i32,
    /// Destiny dice.
    pub destiny_dice: i32,
    /// Rerolls.
    pub rerolls: i32,
    /// Dying, Unconscious, Shocked, Burning, Bleeding, Poisoned at the start.
    pub conditions: [i32; 6],
    /// Hunkered at the start.
    pub hunkered: bool,
    /// Sleeping at the start.
    pub sleeping: bool,
    /// Dead at the start.
    pub dead: bool,
    /// Skilled at two weapons.
    pub two_weapon_skilled: bool,
    /// Terrain cover value (4, 5 or 6), if any.
    pub cover: Option<i32>,
    /// Position.
    pub position: Pos,
    /// Weapons.
    pub weapons: Vec<Weapon>,
    /// Main-hand weapon (index), if any.
    pub main_hand: Option<usize>,
    /// Off-hand weapon, if any.
    pub off_hand: Option<usize>,
    /// Armour.
    pub armour: Vec<Armour>,
    /// Shield.
    pub shield: Option<Shield>,
    /// Throwables.
    pub items: Vec<Throwable>,
    /// Who it perceives under `awareness = scenario` (indices).
    pub perceives: Vec<usize>,
    /// AI policies.
    pub policy: Policy,
    /// Its bare hands ([`Sheet::unarmed`]), kept so that an attack need not build them.
    pub fists: Weapon,
    /// What the rest fixes for the whole fight, worked out once ([`Derived::of`]).
    pub derived: Derived,
}

/// What a stat block and its gear fix for the whole fight, worked out once when the scenario is
/// loaded ([`Derived::of`]), so that the fight and the AI, which ask them at every turn, attack
/// and decision, need not work them out again. A sheet changed after loading must be derived
/// again (a fight checks it in debug builds).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Derived {
    /// Fighting with two one-handed weapons of one type, with the skill (P6-SPECIAL-9).
    pub two_weapons: bool,
    /// The actions a turn's pool is refilled with, before steals (P6-ACT-3, P6-SPECIAL-9).
    pub max_actions: i32,
    /// [`Sheet::evasion`].
    pub evasion: i32,
    /// It attacks in melee: a melee weapon in either hand, or bare hands.
    pub melee: bool,
    /// Its longest melee reach in metres, main and off hand (bare hands where a hand holds no
    /// weapon); 0 with no melee weapon.
    pub reach: f64,
}

impl Derived {
    /// The values `s` fixes.
    pub fn of(s: &Sheet) -> Derived {
        let two_weapons = match (s.main_hand, s.off_hand) {
            (Some(a), Some(b)) => {
                let (a, b) = (&s.weapons[a], &s.weapons[b]);
                s.two_weapon_skilled && a.hands == 1 && b.hands == 1 && a.weapon_type == b.weapon_type
            }
            _ => false,
        };
        let held = |hand: Option<usize>| hand.map_or(&s.fists, |i| &s.weapons[i]);
        let melee = s.main_hand.is_none_or(|i| s.weapons[i].class == Class::Melee)
            || s.off_hand.is_some_and(|i| s.weapons[i].class == Class::Melee);
        let reach = [held(s.main_hand), held(s.off_hand)]
            .into_iter()
            .filter(|w| w.class == Class::Melee)
            .map(|w| w.range_m)
            .fold(0.0, f64::max);
        Derived { two_weapons, max_actions: s.actions + i32::from(two_weapons), evasion: s.evasion(), melee, reach }
    }
}

impl Sheet {
    /// The unarmed attack with its piercing and dice (P6-ATK-5).
    pub fn unarmed(&self) -> Weapon {
        Weapon { piercing: i32::from(self.strength > 2), ..Weapon::unarmed() }
    }

    /// Evasion (P6-DEF-1).
    pub fn evasion(&self) -> i32 {
        let encumbrance: i32 = self.armour.iter().map(|a| a.encumbrance).sum::<i32>()
            + self.shield.as_ref().map_or(0, |s| s.encumbrance)
            + self.weapons.iter().map(|w| w.encumbrance).sum::<i32>();
        self.lineage_evasion + (self.quickness + self.deftness + 1).div_euclid(2) - encumbrance + self.evasion_mod
    }

    /// The shield's cover value (P6-SHLD-1, P6-SHLD-4), if it gives any.
    pub fn shield_cover(&self, options: &Options) -> Option<i32> {
        let s = self.shield.as_ref()?;
        (s.protection > 0).then(|| (7 - s.protection).max(options.shield_cover_min))
    }

    /// Protection from armour (P6-DMG-1/2, P6-ARM-2 `degrade`).
    pub fn protection(&self, options: &Options, conditions: &[i32]) -> i32 {
        let pieces = self.armour.iter().enumerate().map(|(i, a)| {
            if options.armor_damage == 2 {
                a.protection * conditions.get(i).copied().unwrap_or(100) / 100
            } else {
                a.protection
            }
        });
        let armour = if options.armour_highest { pieces.max().unwrap_or(0) } else { pieces.sum() };
        self.innate_protection + armour
    }
}

/// A validated scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// Options.
    pub options: Options,
    /// Side names.
    pub sides: Vec<String>,
    /// Combatants in scenario order.
    pub combatants: Vec<Sheet>,
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
