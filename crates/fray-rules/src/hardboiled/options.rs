//! The `hardboiled` options: every DEFAULT and OPTION of the catalogue, with its alternatives and
//! the clauses it affects.

use crate::OptionInfo;

/// Every option, as `fray rules hardboiled` lists it.
pub const OPTIONS: &[OptionInfo] = &[
    OptionInfo::new(
        "attribute_dice_check",
        "strict",
        "free",
        "USR-DICE-1, USR-DICE-2",
        "Whether Action, Wits and Ego must be d6, d8 and d10 one each (strict) or any dice (free).",
    ),
    OptionInfo::new(
        "contest_attribute",
        "matching",
        "action_only",
        "USR-DICE-7, USR-ACT-4",
        "Which attribute both sides roll in a contest: the one matching the action, or always Action.",
    ),
    OptionInfo::new(
        "undeclared_action",
        "resolve",
        "fail_if_target_acted_on, gm_prompt",
        "USR-ROUND-3",
        "What happens to an action nobody declared: it goes ahead, fails if its target was already acted on, or the GM decides.",
    ),
    OptionInfo::new(
        "declared_retarget",
        "allowed",
        "lost",
        "USR-ROUND-4",
        "Whether a declared action whose target is gone may switch target (allowed) or is lost.",
    ),
    OptionInfo::new(
        "out_of_fight",
        "down_or_knocked_out",
        "down_only",
        "USR-ROUND-6, USR-TRACK-3, USR-TRACK-4",
        "Who counts as out of the fight: the Down and the KnockedOut, or only the Down.",
    ),
    OptionInfo::new(
        "ego_initiative",
        "for_ego_actions",
        "never",
        "USR-INIT-2",
        "Whether a combatant using an Ego power rolls its Ego die for initiative instead of Action.",
    ),
    OptionInfo::new(
        "initiative_tie",
        "reroll",
        "larger_die, simultaneous",
        "USR-INIT-4",
        "How tied initiative is broken: reroll, the larger die first, or both act at once.",
    ),
    OptionInfo::new(
        "reach_initiative_bonus",
        "0",
        "any integer ≥ 1",
        "USR-INIT-6",
        "Initiative bonus for the longer melee weapon in the first turn of melee (0: none).",
    ),
    OptionInfo::new(
        "turn_economy",
        "move_and_action",
        "single_action",
        "USR-ACT-2",
        "What a turn allows: a Move and an Attack or Other activity, or just one of them.",
    ),
    OptionInfo::new(
        "max_attacks_per_turn",
        "1",
        "integer N > 1",
        "USR-ACT-3",
        "The most attack rolls one combatant may make in a turn.",
    ),
    OptionInfo::new(
        "multi_attack_penalty",
        "2",
        "any integer ≥ 0",
        "USR-ACT-3",
        "The penalty per extra attack roll in a turn (the k-th attack is at −penalty × (k−1)).",
    ),
    OptionInfo::new(
        "other_activity_damage",
        "none",
        "margin",
        "USR-ACT-5",
        "Whether a won non-attack contest deals its margin as damage (margin) or none.",
    ),
    OptionInfo::new(
        "move_m",
        "10",
        "any number of metres",
        "USR-MOVE-1, USR-LOC-5",
        "How far one Move goes, in metres.",
    ),
    OptionInfo::new(
        "melee_reach_m",
        "2",
        "any number of metres",
        "USR-MOVE-1, USR-INIT-6",
        "The distance in metres within which two combatants can fight hand to hand.",
    ),
    OptionInfo::new(
        "free_disengage",
        "true",
        "false",
        "USR-MOVE-2",
        "Whether stepping out of an enemy's reach is free (true) or costs the turn's attack (false).",
    ),
    OptionInfo::new(
        "contest_tie",
        "no_effect",
        "reroll",
        "USR-ATK-5, USR-ATK-6",
        "What a tied melee contest does: nothing, or both sides reroll.",
    ),
    OptionInfo::new(
        "weapon_table",
        "pulp_placeholder",
        "custom",
        "USR-ATK-3, USR-ATK-7, USR-RNG-8",
        "Where weapon values come from: the built-in placeholder table by id, or given in full by the scenario.",
    ),
    OptionInfo::new(
        "point_blank_m",
        "2",
        "any number of metres",
        "USR-RNG-3",
        "The distance in metres within which a shot is at Point Blank range.",
    ),
    OptionInfo::new(
        "beyond_extreme",
        "impossible",
        "extreme",
        "USR-RNG-4",
        "Whether a shot past twice the weapon's range is impossible or still allowed at Extreme difficulty.",
    ),
    OptionInfo::new(
        "ranged_hit_test",
        "at_least",
        "greater_than",
        "USR-RNG-5",
        "Whether a shot hits when its total equals the difficulty (at_least) or only above it (greater_than).",
    ),
    OptionInfo::new(
        "moving_shot_penalty",
        "2",
        "any integer ≥ 0",
        "USR-RNG-7",
        "Penalty to a shot by someone who moves in the same turn.",
    ),
    OptionInfo::new(
        "point_blank_max_damage",
        "true",
        "false",
        "USR-RNG-9",
        "Whether a Point Blank shot does its weapon's maximum damage.",
    ),
    OptionInfo::new(
        "crit_forces_hit",
        "true",
        "false",
        "USR-CRIT-5, USR-CRIT-6",
        "Whether a confirmed critical always hits.",
    ),
    OptionInfo::new(
        "ranged_crits",
        "natural_only",
        "off",
        "USR-CRIT-7",
        "Whether rolls with no opposing die (shots) can be criticals and fumbles on their natural die alone.",
    ),
    OptionInfo::new("fumble_forces_miss", "true", "false", "USR-FUM-3", "Whether a confirmed fumble always misses."),
    OptionInfo::new(
        "fumble_effect",
        "lose_next_action",
        "drop_weapon, none, gm_table",
        "USR-FUM-4",
        "What a fumble costs: the next turn's action, the weapon (dropped), nothing, or the GM's call.",
    ),
    OptionInfo::new(
        "debilitating_effects",
        "off",
        "on",
        "USR-LOC-3, USR-LOC-5",
        "Whether a heavy hit to an arm drops the weapon and to a leg halves movement.",
    ),
    OptionInfo::new(
        "called_shot_penalty",
        "2",
        "any integer ≥ 0",
        "USR-LOC-4",
        "The penalty for aiming at a chosen hit location.",
    ),
    OptionInfo::new(
        "cover_penetration",
        "hardness",
        "never",
        "USR-COVER-2, USR-COVER-3",
        "Whether a gun can shoot through cover no harder than its penetration (hardness) or never.",
    ),
    OptionInfo::new(
        "cover_presets",
        "placeholder",
        "custom",
        "USR-COVER-4",
        "Whether cover is named by preset (low, counter, corner, full) or given as locations by the scenario.",
    ),
    OptionInfo::new(
        "melee_cover",
        "false",
        "true",
        "USR-COVER-5",
        "Whether cover also protects against melee attacks.",
    ),
    OptionInfo::new(
        "armour_mode",
        "location",
        "defence_total, both",
        "USR-ARM-1, USR-ARM-2, USR-CRIT-3",
        "How armour works: it stops damage on the locations it covers, adds to the melee defence total, or both.",
    ),
    OptionInfo::new(
        "armour_layering",
        "add",
        "best",
        "USR-ARM-3",
        "Whether several armour pieces on one location add up or only the best counts.",
    ),
    OptionInfo::new(
        "armour_table",
        "pulp_placeholder",
        "custom",
        "USR-ARM-3",
        "Where armour values come from: the built-in placeholder table by id, or given in full.",
    ),
    OptionInfo::new(
        "armour_before_halving",
        "true",
        "false",
        "USR-DMG-1, USR-DMG-3",
        "Whether armour comes off a brawling hit before it is halved (true) or after.",
    ),
    OptionInfo::new("brawl_rounding", "floor", "ceil", "USR-DMG-4", "Whether a halved brawling hit rounds down or up."),
    OptionInfo::new(
        "hp_generation",
        "rolled",
        "maximum",
        "USR-TRACK-1, USR-TRACK-2",
        "Maximum HP when the scenario gives none: rolled (Action die + Wits die) or the dice's maximum.",
    ),
    OptionInfo::new(
        "ko_threshold",
        "exact_half",
        "floor_half",
        "USR-TRACK-5",
        "The knock-out threshold: half the maximum HP rounded up (exact_half) or down (floor_half).",
    ),
    OptionInfo::new(
        "ko_damage_basis",
        "recorded",
        "hp_lost",
        "USR-TRACK-6",
        "What counts toward a knock-out: damage as recorded (before brawling halving) or HP actually lost.",
    ),
    OptionInfo::new(
        "ko_duration",
        "fight",
        "turns:N",
        "USR-TRACK-7",
        "How long a knock-out lasts: the rest of the fight, or N turns (turns:N).",
    ),
    OptionInfo::new(
        "second_wind_rounding",
        "floor",
        "ceil",
        "USR-RES-2",
        "Whether Second Wind's HP (a quarter of the maximum) rounds down or up.",
    ),
    OptionInfo::new(
        "second_wind_cap",
        "max",
        "none",
        "USR-RES-4",
        "Whether Second Wind can raise HP above the maximum (none: it can).",
    ),
    OptionInfo::new(
        "second_wind_scope",
        "game",
        "fight",
        "USR-RES-5",
        "Whether Second Wind is once per game (carried between fights) or once per fight.",
    ),
    OptionInfo::new(
        "second_wind_trigger",
        "on_hit",
        "on_damage",
        "USR-RES-7",
        "When Second Wind may be used: after any hit, or only after one that cost HP.",
    ),
    OptionInfo::new(
        "second_wind_policy",
        "half_hp",
        "first_hit, when_down, never",
        "USR-RES-8",
        "When the AI uses Second Wind: at half HP, at the first hit, only to avoid going Down, or never.",
    ),
    OptionInfo::new(
        "second_wind_holders",
        "all",
        "heroes",
        "USR-RES-10, USR-RES-1",
        "Who has a Second Wind: every combatant or only heroes (hero = true).",
    ),
];

/// Initiative ties (USR-INIT-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitiativeTie {
    /// The tied reroll among themselves.
    Reroll,
    /// The larger die first, then reroll.
    LargerDie,
    /// Tied combatants resolve at the same step.
    Simultaneous,
}

/// Undeclared actions (USR-ROUND-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undeclared {
    /// Resolve normally.
    Resolve,
    /// Fail if the target was acted on earlier this turn.
    FailIfTargetActedOn,
    /// Ask the GM (a live tracker); in a fight, a `Request::GmRuling` to the acting side.
    GmPrompt,
}

/// Fumble effects (USR-FUM-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub enum FumbleEffect {
    /// Lose the next Attack or Other activity.
    LoseNextAction,
    /// The wielded weapon falls.
    DropWeapon,
    /// Nothing.
    None,
    /// The GM decides (logged; no mechanical effect in a simulation).
    GmTable,
}

impl FumbleEffect {
    /// The option value that names it (`fumble_effect = …`).
    pub fn name(self) -> &'static str {
        match self {
            FumbleEffect::LoseNextAction => "lose_next_action",
            FumbleEffect::DropWeapon => "drop_weapon",
            FumbleEffect::None => "none",
            FumbleEffect::GmTable => "gm_table",
        }
    }
}

/// Armour in melee (USR-ARM-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArmourMode {
    /// By location only.
    Location,
    /// Added to the melee defence total; no location reduction in melee.
    DefenceTotal,
    /// Both.
    Both,
}

/// The Second Wind policy of the simulation (USR-RES-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondWindPolicy {
    /// At HP ≤ ½ max right after a hit.
    HalfHp,
    /// After the first hit.
    FirstHit,
    /// Only to avoid Down.
    WhenDown,
    /// Never.
    Never,
}

/// The options of a `hardboiled` scenario.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::struct_excessive_bools, reason = "one field per catalogue option")]
pub struct Options {
    /// `attribute_dice_check = free`.
    pub free_dice: bool,
    /// `contest_attribute = action_only`.
    pub action_only: bool,
    /// `undeclared_action`.
    pub undeclared: Undeclared,
    /// `declared_retarget = lost`.
    pub retarget_lost: bool,
    /// `out_of_fight = down_only`.
    pub down_only: bool,
    /// `ego_initiative = never`.
    pub ego_initiative_never: bool,
    /// `initiative_tie`.
    pub initiative_tie: InitiativeTie,
    /// `reach_initiative_bonus`.
    pub reach_bonus: i32,
    /// `turn_economy = single_action`.
    pub single_action: bool,
    /// `max_attacks_per_turn`.
    pub max_attacks: u8,
    /// `multi_attack_penalty`.
    pub multi_attack_penalty: i32,
    /// `other_activity_damage = margin`.
    pub other_damage: bool,
    /// `move_m`.
    pub move_m: f64,
    /// `melee_reach_m`.
    pub melee_reach_m: f64,
    /// `free_disengage`.
    pub free_disengage: bool,
    /// `contest_tie = reroll`.
    pub tie_reroll: bool,
    /// `weapon_table = custom`.
    pub custom_weapons: bool,
    /// `point_blank_m`.
    pub point_blank_m: f64,
    /// `beyond_extreme = extreme`.
    pub beyond_extreme: bool,
    /// `ranged_hit_test = greater_than`.
    pub greater_than: bool,
    /// `moving_shot_penalty`.
    pub moving_shot_penalty: i32,
    /// `point_blank_max_damage`.
    pub point_blank_max: bool,
    /// `crit_forces_hit`.
    pub crit_forces_hit: bool,
    /// `ranged_crits = natural_only` (else `off`).
    pub ranged_crits: bool,
    /// `fumble_forces_miss`.
    pub fumble_forces_miss: bool,
    /// `fumble_effect`.
    pub fumble_effect: FumbleEffect,
    /// `debilitating_effects = on`.
    pub debilitating: bool,
    /// `called_shot_penalty`.
    pub called_shot_penalty: i32,
    /// `cover_penetration = never`.
    pub cover_never: bool,
    /// `cover_presets = custom`.
    pub custom_cover: bool,
    /// `melee_cover`.
    pub melee_cover: bool,
    /// `armour_mode`.
    pub armour_mode: ArmourMode,
    /// `armour_layering = best`.
    pub armour_best: bool,
    /// `armour_table = custom`.
    pub custom_armour: bool,
    /// `armour_before_halving`.
    pub armour_before_halving: bool,
    /// `brawl_rounding = ceil`.
    pub brawl_ceil: bool,
    /// `hp_generation = maximum`.
    pub hp_maximum: bool,
    /// `ko_threshold = floor_half`.
    pub ko_floor_half: bool,
    /// `ko_damage_basis = hp_lost`.
    pub ko_hp_lost: bool,
    /// `ko_duration`: `None` for the whole fight, else N turns.
    pub ko_turns: Option<u32>,
    /// `second_wind_rounding = ceil`.
    pub second_wind_ceil: bool,
    /// `second_wind_cap = none`.
    pub second_wind_uncapped: bool,
    /// `second_wind_scope = fight`.
    pub second_wind_per_fight: bool,
    /// `second_wind_trigger = on_damage`.
    pub second_wind_on_damage: bool,
    /// `second_wind_policy`.
    pub second_wind_policy: SecondWindPolicy,
    /// `second_wind_holders = heroes`.
    pub second_wind_heroes: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            free_dice: false,
            action_only: false,
            undeclared: Undeclared::Resolve,
            retarget_lost: false,
            down_only: false,
            ego_initiative_never: false,
            initiative_tie: InitiativeTie::Reroll,
            reach_bonus: 0,
            single_action: false,
            max_attacks: 1,
            multi_attack_penalty: 2,
            other_damage: false,
            move_m: 10.0,
            melee_reach_m: 2.0,
            free_disengage: true,
            tie_reroll: false,
            custom_weapons: false,
            point_blank_m: 2.0,
            beyond_extreme: false,
            greater_than: false,
            moving_shot_penalty: 2,
            point_blank_max: true,
            crit_forces_hit: true,
            ranged_crits: true,
            fumble_forces_miss: true,
            fumble_effect: FumbleEffect::LoseNextAction,
            debilitating: false,
            called_shot_penalty: 2,
            cover_never: false,
            custom_cover: false,
            melee_cover: false,
            armour_mode: ArmourMode::Location,
            armour_best: false,
            custom_armour: false,
            armour_before_halving: true,
            brawl_ceil: false,
            hp_maximum: false,
            ko_floor_half: false,
            ko_hp_lost: false,
            ko_turns: None,
            second_wind_ceil: false,
            second_wind_uncapped: false,
            second_wind_per_fight: false,
            second_wind_on_damage: false,
            second_wind_policy: SecondWindPolicy::HalfHp,
            second_wind_heroes: false,
        }
    }
}

impl Options {
    /// Sets one option from its text value; the error says what was expected.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        use crate::option_value::{flag, pick, two};
        let int = |value: &str, min: i32| -> Result<i32, String> {
            match value.parse::<i32>() {
                Ok(n) if n >= min && n <= 1000 => Ok(n),
                _ => Err(format!("expected an integer from {min} to 1000, found `{value}`")),
            }
        };
        let metres = |value: &str| -> Result<f64, String> {
            match value.parse::<f64>() {
                Ok(m) if m.is_finite() && (0.0..=10_000.0).contains(&m) => Ok(m),
                _ => Err(format!("expected a number of metres from 0 to 10000, found `{value}`")),
            }
        };
        match name {
            "attribute_dice_check" => self.free_dice = two(value, "strict", "free")?,
            "contest_attribute" => self.action_only = two(value, "matching", "action_only")?,
            "undeclared_action" => {
                self.undeclared = pick(
                    value,
                    &[
                        ("resolve", Undeclared::Resolve),
                        ("fail_if_target_acted_on", Undeclared::FailIfTargetActedOn),
                        ("gm_prompt", Undeclared::GmPrompt),
                    ],
                )?
            }
            "declared_retarget" => self.retarget_lost = two(value, "allowed", "lost")?,
            "out_of_fight" => self.down_only = two(value, "down_or_knocked_out", "down_only")?,
            "ego_initiative" => self.ego_initiative_never = two(value, "for_ego_actions", "never")?,
            "initiative_tie" => {
                self.initiative_tie = pick(
                    value,
                    &[
                        ("reroll", InitiativeTie::Reroll),
                        ("larger_die", InitiativeTie::LargerDie),
                        ("simultaneous", InitiativeTie::Simultaneous),
                    ],
                )?
            }
            "reach_initiative_bonus" => self.reach_bonus = int(value, 0)?,
            "turn_economy" => self.single_action = two(value, "move_and_action", "single_action")?,
            "max_attacks_per_turn" => {
                self.max_attacks = match value.parse::<u8>() {
                    Ok(n @ 1..=20) => n,
                    _ => return Err(format!("expected an integer from 1 to 20, found `{value}`")),
                }
            }
            "multi_attack_penalty" => self.multi_attack_penalty = int(value, 0)?,
            "other_activity_damage" => self.other_damage = two(value, "none", "margin")?,
            "move_m" => self.move_m = metres(value)?,
            "melee_reach_m" => self.melee_reach_m = metres(value)?,
            "free_disengage" => self.free_disengage = flag(value)?,
            "contest_tie" => self.tie_reroll = two(value, "no_effect", "reroll")?,
            "weapon_table" => self.custom_weapons = two(value, "pulp_placeholder", "custom")?,
            "point_blank_m" => self.point_blank_m = metres(value)?,
            "beyond_extreme" => self.beyond_extreme = two(value, "impossible", "extreme")?,
            "ranged_hit_test" => self.greater_than = two(value, "at_least", "greater_than")?,
            "moving_shot_penalty" => self.moving_shot_penalty = int(value, 0)?,
            "point_blank_max_damage" => self.point_blank_max = flag(value)?,
            "crit_forces_hit" => self.crit_forces_hit = flag(value)?,
            "ranged_crits" => self.ranged_crits = !two(value, "natural_only", "off")?,
            "fumble_forces_miss" => self.fumble_forces_miss = flag(value)?,
            "fumble_effect" => {
                self.fumble_effect = pick(
                    value,
                    &[
                        ("lose_next_action", FumbleEffect::LoseNextAction),
                        ("drop_weapon", FumbleEffect::DropWeapon),
                        ("none", FumbleEffect::None),
                        ("gm_table", FumbleEffect::GmTable),
                    ],
                )?
            }
            "debilitating_effects" => self.debilitating = two(value, "off", "on")?,
            "called_shot_penalty" => self.called_shot_penalty = int(value, 0)?,
            "cover_penetration" => self.cover_never = two(value, "hardness", "never")?,
            "cover_presets" => self.custom_cover = two(value, "placeholder", "custom")?,
            "melee_cover" => self.melee_cover = flag(value)?,
            "armour_mode" => {
                self.armour_mode = pick(
                    value,
                    &[
                        ("location", ArmourMode::Location),
                        ("defence_total", ArmourMode::DefenceTotal),
                        ("both", ArmourMode::Both),
                    ],
                )?
            }
            "armour_layering" => self.armour_best = two(value, "add", "best")?,
            "armour_table" => self.custom_armour = two(value, "pulp_placeholder", "custom")?,
            "armour_before_halving" => self.armour_before_halving = flag(value)?,
            "brawl_rounding" => self.brawl_ceil = two(value, "floor", "ceil")?,
            "hp_generation" => self.hp_maximum = two(value, "rolled", "maximum")?,
            "ko_threshold" => self.ko_floor_half = two(value, "exact_half", "floor_half")?,
            "ko_damage_basis" => self.ko_hp_lost = two(value, "recorded", "hp_lost")?,
            "ko_duration" => {
                self.ko_turns = match value {
                    "fight" => None,
                    v => match v.strip_prefix("turns:").and_then(|n| n.parse::<u32>().ok()) {
                        Some(n) if (1..=1000).contains(&n) => Some(n),
                        _ => return Err(format!("expected `fight` or `turns:N` (N from 1 to 1000), found `{v}`")),
                    },
                }
            }
            "second_wind_rounding" => self.second_wind_ceil = two(value, "floor", "ceil")?,
            "second_wind_cap" => self.second_wind_uncapped = two(value, "max", "none")?,
            "second_wind_scope" => self.second_wind_per_fight = two(value, "game", "fight")?,
            "second_wind_trigger" => self.second_wind_on_damage = two(value, "on_hit", "on_damage")?,
            "second_wind_policy" => {
                self.second_wind_policy = pick(
                    value,
                    &[
                        ("half_hp", SecondWindPolicy::HalfHp),
                        ("first_hit", SecondWindPolicy::FirstHit),
                        ("when_down", SecondWindPolicy::WhenDown),
                        ("never", SecondWindPolicy::Never),
                    ],
                )?
            }
            "second_wind_holders" => self.second_wind_heroes = two(value, "all", "heroes")?,
            other => return Err(crate::unknown_option(other, OPTIONS)),
        }
        Ok(())
    }
}
