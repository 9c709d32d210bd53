//! The validated `ticks` scenario: stat blocks, gear, the cover map and the placeholder tables
//! (TICK-GEAR-3).

use super::options::Options;
use fray_engine::SideId;

/// A square of the map (TICK-MOVE-2): integer coordinates, `square_m` metres a side.
pub type Square = (i32, i32);

/// A gun (TICK-GEAR-1, TICK-GUN-*), its ammunition already applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Gun {
    /// Its name.
    pub name: String,
    /// The p added by readying it (TICK-GUN-2).
    pub ready_penalty: i32,
    /// Point-blank bonus (TICK-RANGE-1).
    pub pb_bonus: i32,
    /// Metres per −1 of range (TICK-RANGE-1).
    pub range_step_m: f64,
    /// The graze (TICK-DMG-2).
    pub damage: i32,
    /// Damage per point of delta.
    pub delta_damage: i32,
    /// Penetration.
    pub penetration: i32,
    /// p per shot (TICK-GUN-4/6).
    pub shot_penalty: i32,
    /// p at the end of a firing string (TICK-GUN-5/6).
    pub string_penalty: i32,
    /// Shots per tick (TICK-GUN-10).
    pub rate: i32,
    /// Shots whose penalty is held back (TICK-GUN-7).
    pub deferred_shots: i32,
    /// Strength below which recoil adds to p (TICK-GUN-9).
    pub min_strength: i32,
}

/// A melee weapon (TICK-MELEE-6).
#[derive(Clone, Debug, PartialEq)]
pub struct MeleeWeapon {
    /// Its name.
    pub name: String,
    /// The graze.
    pub damage: i32,
    /// Damage per point of delta.
    pub delta_damage: i32,
    /// Penetration.
    pub penetration: i32,
    /// Fists: non-lethal under `unarmed_nonlethal` (TICK-MELEE-9).
    pub unarmed: bool,
}

/// A melee attack type (TICK-MELEE-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackType {
    /// p added when the attack goes ahead.
    pub stability: i32,
    /// Effort spent.
    pub effort: i32,
    /// Added to the weapon's graze.
    pub graze: i32,
}

/// The three attack types (TICK-MELEE-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, schemars::JsonSchema)]
pub enum Blow {
    /// A jab.
    Jab,
    /// A strike.
    Strike,
    /// A heavy blow.
    Heavy,
}

impl Blow {
    /// Every attack type, in table order.
    pub const ALL: [Blow; 3] = [Blow::Jab, Blow::Strike, Blow::Heavy];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Blow::Jab => "jab",
            Blow::Strike => "strike",
            Blow::Heavy => "heavy",
        }
    }

    /// What a person reads for it: `jab`, `strike`, `heavy blow`.
    pub fn label(self) -> &'static str {
        match self {
            Blow::Heavy => "heavy blow",
            b => b.name(),
        }
    }
}

/// Soft or hard armour (TICK-ARM-1).
#[derive(Clone, Debug, PartialEq)]
pub struct Armour {
    /// Its name.
    pub name: String,
    /// Hard (plates) or soft (vests).
    pub hard: bool,
    /// Resistance.
    pub resistance: i32,
    /// Covered locations: bit `f` for d10 face `f`.
    pub locations: u16,
    /// Encumbrance (TICK-ARM-8).
    pub encumbrance: i32,
}

/// Cover: a rating 0–90 and a resistance (TICK-COVER-1/4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cover {
    /// 0, 10, …, 90.
    pub rating: i32,
    /// Resistance.
    pub resistance: i32,
}

impl Cover {
    /// The defence bonus, +2 per 10 % (TICK-COVER-2).
    pub fn bonus(self) -> i32 {
        self.rating / 5
    }
}

/// The placeholder gun table (TICK-GEAR-3): (id, gun).
pub fn gun_table() -> Vec<(&'static str, Gun)> {
    let g = |name: &str, ready, pb, step, damage, dd, pen, rate, deferred, min_strength| Gun {
        name: name.to_owned(),
        ready_penalty: ready,
        pb_bonus: pb,
        range_step_m: step,
        damage,
        delta_damage: dd,
        penetration: pen,
        shot_penalty: 3,
        string_penalty: 7,
        rate,
        deferred_shots: deferred,
        min_strength,
    };
    vec![
        ("pistol", g("pistol", 10, 5, 2.0, 4, 1, 4, 1, 0, 2)),
        ("carbine", g("carbine", 13, 4, 2.0, 6, 1, 9, 1, 0, 3)),
        ("assault_rifle", g("assault rifle", 17, 3, 3.0, 6, 1, 10, 3, 3, 4)),
        ("rifle", g("rifle", 20, 1, 4.0, 8, 2, 14, 1, 0, 5)),
    ]
}

/// Ammunition (TICK-GEAR-2): (id, damage, penetration).
pub const AMMO: &[(&str, i32, i32)] = &[("fmj", 0, 0), ("hollow_point", 2, -3), ("armour_piercing", -1, 4)];

/// The placeholder melee weapons (TICK-GEAR-3).
pub fn melee_table() -> Vec<(&'static str, MeleeWeapon)> {
    let m = |name: &str, damage, dd, pen, unarmed| MeleeWeapon {
        name: name.to_owned(),
        damage,
        delta_damage: dd,
        penetration: pen,
        unarmed,
    };
    vec![
        ("fists", m("fists", 1, 1, 0, true)),
        ("club", m("club", 3, 1, 2, false)),
        ("knife", m("knife", 3, 1, 6, false)),
    ]
}

/// The placeholder attack types (TICK-MELEE-3), in [`Blow::ALL`] order.
pub const ATTACK_TYPES: [AttackType; 3] = [
    AttackType { stability: 3, effort: 2, graze: -1 },
    AttackType { stability: 6, effort: 4, graze: 0 },
    AttackType { stability: 9, effort: 6, graze: 2 },
];

/// Bits of d10 faces: the torso, 2–4.
pub const TORSO: u16 = 0b1_1100;

/// The placeholder armour (TICK-GEAR-3).
pub fn armour_table() -> Vec<(&'static str, Armour)> {
    let a = |name: &str, hard, resistance, locations, encumbrance| Armour {
        name: name.to_owned(),
        hard,
        resistance,
        locations,
        encumbrance,
    };
    vec![
        ("soft_vest", a("soft vest", false, 8, TORSO, 1)),
        ("hard_plate", a("hard plate", true, 12, TORSO, 3)),
        ("helmet", a("helmet", true, 6, 0b10, 1)),
    ]
}

/// Cover materials (TICK-GEAR-3): (id, resistance).
pub const MATERIALS: &[(&str, i32)] = &[
    ("curtain", 0),
    ("bush", 0),
    ("thin_wood", 3),
    ("table", 3),
    ("door", 3),
    ("interior_wall", 5),
    ("car_body", 6),
    ("telephone_pole", 12),
    ("brick_wall", 16),
    ("concrete", 24),
];

/// Cover presets (TICK-COVER-3): (id, rating).
pub const COVER_PRESETS: &[(&str, i32)] =
    &[("crouch_wall", 50), ("window", 80), ("slit_window", 90), ("pole", 10), ("thick_pole", 20)];

/// The named AI policies: field and accepted names (default first).
pub const POLICIES: &[(&str, &[&str])] = &[
    ("target", &["nearest", "weakest"]),
    ("fire", &["steady", "snap", "aimed"]),
    ("shots", &["max", "one"]),
    ("blow", &["strike", "jab", "heavy", "by_effort"]),
    ("cover", &["seek", "stay"]),
    ("move", &["close", "hold"]),
];

/// A combatant's named AI policies (indices into [`POLICIES`]' names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Policy(pub [u8; 6]);

impl Policy {
    /// The name of a field's value.
    pub fn name(&self, field: usize) -> &'static str {
        POLICIES[field].1[self.0[field] as usize]
    }

    /// Target choice: 0 nearest, 1 weakest.
    pub fn target(&self) -> u8 {
        self.0[0]
    }
    /// When to fire: 0 steady (aim while p is high, fire once it has recovered, once the shot
    /// wins a third of the time, or under fire once it can win at all), 1 snap (fire every tick
    /// it can), 2 aimed (aim five ticks, then fire).
    pub fn fire(&self) -> u8 {
        self.0[1]
    }
    /// Shots per tick: 0 the gun's rate, 1 one.
    pub fn shots(&self) -> u8 {
        self.0[2]
    }
    /// Melee attack type: 0 strike, 1 jab, 2 heavy, 3 by effort left.
    pub fn blow(&self) -> u8 {
        self.0[3]
    }
    /// Cover: 0 seek (go to a free cover square in reach first), 1 stay.
    pub fn cover(&self) -> u8 {
        self.0[4]
    }
    /// Movement: 0 close in, 1 hold. Closing in, a fighter without a gun runs at its target
    /// until within reach; a gunman whose best shot from where it stands would win less than a
    /// third of the time runs at its target (under `cover = seek` to a free cover square on the
    /// way) until the shot is worth making, staying put once in cover while the shot can win at
    /// all ([`super::policy::worth_shooting`]), and waiting, aiming, for an enemy without a gun
    /// who closes in itself.
    pub fn movement(&self) -> u8 {
        self.0[5]
    }
}

/// One combatant's stat block.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Its name, unique in the scenario.
    pub name: String,
    /// Its side.
    pub side: SideId,
    /// Shooting skill (TICK-DICE-4).
    pub shoot: i32,
    /// Melee skill.
    pub melee: i32,
    /// Evasion skill (defence against shots).
    pub evade: i32,
    /// Strength (recoil, TICK-GUN-9).
    pub strength: i32,
    /// Body max (TICK-TRACK-1).
    pub body_max: i32,
    /// Body at the start.
    pub body: i32,
    /// Trauma at the start.
    pub trauma: i32,
    /// Wounds at the start.
    pub wounds: i32,
    /// Effort max (TICK-TRACK-2).
    pub effort_max: i32,
    /// Effort at the start.
    pub effort: i32,
    /// p at the start.
    pub stability: i32,
    /// Its starting square.
    pub position: Square,
    /// Its gun, if any.
    pub gun: Option<Gun>,
    /// Whether the gun starts ready.
    pub gun_ready: bool,
    /// Its melee weapon.
    pub melee_weapon: MeleeWeapon,
    /// Its armour.
    pub armour: Vec<Armour>,
    /// The cover of its starting square (or all fight under `cover_model = fixed`).
    pub cover: Option<Cover>,
    /// Its AI policies.
    pub policy: Policy,
}

impl Sheet {
    /// The armour piece on d10 face `face` with the highest resistance, if any.
    pub fn armour_at(&self, face: u32) -> Option<&Armour> {
        self.armour.iter().filter(|a| a.locations & (1 << face) != 0).max_by_key(|a| a.resistance)
    }

    /// Total encumbrance (TICK-ARM-8).
    pub fn encumbrance(&self) -> i32 {
        self.armour.iter().map(|a| a.encumbrance).sum()
    }
}

/// A validated `ticks` scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The rules options.
    pub options: Options,
    /// Side names, by `SideId`.
    pub sides: Vec<String>,
    /// The combatants, by `CombatantId`.
    pub combatants: Vec<Sheet>,
    /// Cover squares (TICK-COVER-10), sorted by square.
    pub cover: Vec<(Square, Cover)>,
    /// Melee attack types (TICK-MELEE-3), in [`Blow::ALL`] order.
    pub blows: [AttackType; 3],
    /// How many combatants at the end of the roster join mid-fight (added by the game master):
    /// absent until their join ([`crate::Scenario::join_late`]).
    pub joins_late: usize,
}

impl Setup {
    /// Whether the combatant at `i` joins mid-fight, absent at the start.
    pub fn joins_late(&self, i: usize) -> bool {
        i + self.joins_late >= self.combatants.len()
    }

    /// The cover of a square under `cover_model = square`.
    pub fn cover_at(&self, square: Square) -> Option<Cover> {
        self.cover.binary_search_by_key(&square, |c| c.0).ok().map(|i| self.cover[i].1)
    }

    /// The distance between two squares in metres (TICK-MOVE-2).
    pub fn distance_m(&self, a: Square, b: Square) -> f64 {
        let (dx, dy) = (f64::from(a.0 - b.0), f64::from(a.1 - b.1));
        (dx * dx + dy * dy).sqrt() * self.options.square_m
    }

    /// The attack type of a blow.
    pub fn blow(&self, blow: Blow) -> AttackType {
        self.blows[blow as usize]
    }
}

/// Squares apart, counting diagonals as one (adjacency, TICK-MOVE-2).
pub fn chebyshev(a: Square, b: Square) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}
