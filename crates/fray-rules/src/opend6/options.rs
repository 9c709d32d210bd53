//! The `opend6` options: every DEFAULT and OPTION of the catalogue, with its alternatives and the
//! clauses it affects.

use crate::OptionInfo;

/// Every option, as `fray rules opend6` lists it.
pub const OPTIONS: &[OptionInfo] = &[
    OptionInfo::new(
        "wild_die_failure",
        "cancel_highest",
        "complication",
        "OD6-DICE-5",
        "What a Wild Die showing 1 on its first toss does: cancels itself and the highest die, or counts as 1 (complication).",
    ),
    OptionInfo::new(
        "wild_die_failure_on_damage",
        "true",
        "false",
        "OD6-DICE-6",
        "Whether that Wild Die failure also applies to damage and resistance rolls.",
    ),
    OptionInfo::new(
        "zero_dice",
        "forbid",
        "pips_only",
        "OD6-DICE-7",
        "Whether a roll reduced to 0 dice by penalties is impossible (forbid) or rolls its pips alone.",
    ),
    OptionInfo::new(
        "cancel_cp_dice",
        "false",
        "true",
        "OD6-DICE-9, OD6-DICE-5",
        "Whether a Wild Die failure may also cancel a Character Point die.",
    ),
    OptionInfo::new(
        "damage_timing",
        "immediate",
        "end_of_round",
        "OD6-ROUND-3",
        "Whether a hit's damage applies at once or all hits are resolved at the end of the round.",
    ),
    OptionInfo::new(
        "out_of_fight",
        "unconscious_or_worse",
        "incapacitated_or_worse",
        "OD6-ROUND-4, OD6-COND-1",
        "Who counts as out of the fight: the unconscious or worse, or also the Incapacitated.",
    ),
    OptionInfo::new(
        "initiative_method",
        "reroll_each_round",
        "roll_once, fixed_order",
        "OD6-INIT-2",
        "How initiative is set: rerolled every round, rolled once, or a fixed order from the scenario.",
    ),
    OptionInfo::new(
        "npc_group_initiative",
        "true",
        "false",
        "OD6-INIT-3",
        "Whether combatants sharing a group roll initiative once for the whole group.",
    ),
    OptionInfo::new(
        "initiative_ties",
        "simultaneous",
        "parent_order",
        "OD6-INIT-4",
        "Whether tied initiative acts simultaneously or is broken by the rulebook's order.",
    ),
    OptionInfo::new(
        "initiative_bonus",
        "sum",
        "max, off",
        "OD6-INIT-7",
        "The initiative bonus from search and Agility: their sum, the larger, or none.",
    ),
    OptionInfo::new(
        "wound_penalty_on_initiative",
        "false",
        "true",
        "OD6-INIT-8, OD6-TRACK-4",
        "Whether wound and stun penalties also reduce initiative rolls.",
    ),
    OptionInfo::new(
        "surprise_effect",
        "act_first",
        "bonus_1d",
        "OD6-INIT-9",
        "What surprise gives in round 1: acting first, or +1D on the first roll.",
    ),
    OptionInfo::new(
        "interrupted_action",
        "resolves",
        "void_if_unable",
        "OD6-ACT-10, OD6-ACT-6",
        "Whether an interrupted action still resolves if its actor was taken out by the interrupt.",
    ),
    OptionInfo::new(
        "position_model",
        "line",
        "bands",
        "OD6-MOVE-1, OD6-MOVE-2, OD6-MOVE-3, OD6-SPECIAL-7",
        "Whether combatants stand on a line in whole metres, or the scenario gives range bands per pair.",
    ),
    OptionInfo::new(
        "melee_range_modifier",
        "true",
        "false",
        "OD6-MOVE-4",
        "Whether the range modifier also applies to punches and melee attacks.",
    ),
    OptionInfo::new(
        "difficulty_modifiers",
        "fixed",
        "rolled",
        "OD6-DIFF-3",
        "Whether dice modifiers to a difficulty use their fixed value (1D = 3) or are rolled.",
    ),
    OptionInfo::new(
        "passive_defense_bonus",
        "false",
        "true",
        "OD6-DIFF-7",
        "Whether a high Agility or dodge raises passive defence (the parent game's optional rule).",
    ),
    OptionInfo::new(
        "aim_interrupted_by",
        "injury_or_move",
        "any_attack",
        "OD6-ATK-4",
        "What spoils an aim: an injury or a move, or any attack on the aimer.",
    ),
    OptionInfo::new(
        "defense_ends_when_helpless",
        "true",
        "false",
        "OD6-DEF-3",
        "Whether an active defence ends when its defender is knocked out.",
    ),
    OptionInfo::new(
        "block_vs_ranged",
        "false",
        "true",
        "OD6-DEF-5",
        "Whether a block or parry also counts against ranged attacks.",
    ),
    OptionInfo::new(
        "parry_success",
        "attack_missed",
        "below_active_value",
        "OD6-DEF-6, OD6-DEF-7",
        "When a parry hurts the attacker with the parrying weapon: when the attack misses, or below the parry value.",
    ),
    OptionInfo::new(
        "free_partial_defense",
        "false",
        "true",
        "OD6-DEF-10",
        "Whether a target attacked before its first turn gets a free dodge roll.",
    ),
    OptionInfo::new(
        "strength_damage_source",
        "lifting_or_strength",
        "strength",
        "OD6-DMG-3",
        "Whether Strength Damage comes from the lifting skill when there is one, or always Strength.",
    ),
    OptionInfo::new(
        "damage_bonus",
        "all",
        "heroes_only, off",
        "OD6-DMG-4, OD6-SPECIAL-12",
        "Who gets the damage bonus for beating the difficulty by a margin: everyone, heroes only, or nobody.",
    ),
    OptionInfo::new(
        "zero_damage_dice",
        "pips_only",
        "min_1d",
        "OD6-DMG-5",
        "Whether a damage code reduced to 0 dice rolls its pips alone or at least 1D.",
    ),
    OptionInfo::new(
        "negative_resistance",
        "add_to_injury",
        "zero, difficulty_penalty",
        "OD6-DMG-8",
        "What a negative resistance total does: adds to the injury, counts as 0, or penalises later rolls.",
    ),
    OptionInfo::new(
        "killing_blow",
        "true",
        "false",
        "OD6-DMG-9",
        "Whether a single Mortally Wounded hit kills outright.",
    ),
    OptionInfo::new(
        "armor_damage_types",
        "split",
        "single",
        "OD6-ARM-2, OD6-DEF-7",
        "Whether armour protects separately against physical and energy damage, or one value for all.",
    ),
    OptionInfo::new(
        "wound_stacking",
        "ladder",
        "or_equal, strict",
        "OD6-TRACK-2",
        "How a new wound adds to an old one: the ladder, or stricter readings.",
    ),
    OptionInfo::new(
        "level_arithmetic",
        "full_ladder",
        "result_bands",
        "OD6-TRACK-3, OD6-DMG-10, OD6-SPECIAL-13",
        "How \"moving N wound levels\" is counted: on the full ladder, or on the five result bands.",
    ),
    OptionInfo::new(
        "stunned_effect",
        "penalty",
        "defend_only",
        "OD6-TRACK-5",
        "What Stunned does: −1D on actions, or defence only.",
    ),
    OptionInfo::new(
        "mortal_check",
        "per_minute",
        "per_round, off",
        "OD6-TRACK-7",
        "How often a Mortally Wounded character rolls to stay alive: per minute, per round, or never.",
    ),
    OptionInfo::new(
        "massive_damage",
        "false",
        "true",
        "OD6-TRACK-9",
        "Whether a big hit forces defence-only rounds (the parent game's optional rule).",
    ),
    OptionInfo::new(
        "damage_track",
        "wound_levels",
        "body_points",
        "OD6-TRACK-10, OD6-TRACK-11, OD6-DMG-6",
        "Whether damage is tracked as wound levels or Body Points.",
    ),
    OptionInfo::new(
        "roll_unconscious_duration",
        "false",
        "true",
        "OD6-COND-2, OD6-TRACK-6",
        "Whether unconsciousness lasts a rolled number of rounds, or the rest of the fight.",
    ),
    OptionInfo::new(
        "hold_restricts",
        "escape_only",
        "no_move",
        "OD6-COND-3, OD6-SPECIAL-10",
        "What a hold does to the held: only escape attempts, or no moving.",
    ),
    OptionInfo::new(
        "maneuver_stacking",
        "one_each",
        "free",
        "OD6-SPECIAL-1",
        "Whether an attack may combine one fire mode or manoeuvre and one called shot, or anything.",
    ),
    OptionInfo::new(
        "full_auto_defense",
        "none",
        "no_active_defense",
        "OD6-SPECIAL-3",
        "Whether firing full auto costs the firer its active defence for the round.",
    ),
    OptionInfo::new(
        "hit_location_effects",
        "false",
        "true",
        "OD6-SPECIAL-12",
        "Whether hits on head, heart, arms, legs and hands change difficulty and damage.",
    ),
    OptionInfo::new(
        "knockout_head_bonus",
        "false",
        "true",
        "OD6-SPECIAL-13",
        "Whether a knockout blow also gets the head shot's +12 damage.",
    ),
    OptionInfo::new(
        "ammo_tracking",
        "true",
        "false",
        "OD6-GEAR-1",
        "Whether ammunition is counted (a weapon with none left cannot fire).",
    ),
    OptionInfo::new(
        "cp_cap_per_roll",
        "5",
        "2, unlimited",
        "OD6-RES-2",
        "The most Character Points spent on one roll: 5, 2 or unlimited.",
    ),
    OptionInfo::new(
        "ai_point_spending",
        "none",
        "threshold",
        "OD6-RES-5",
        "Whether the AI spends Character Points (threshold: while it could change the result) or none.",
    ),
];

/// Initiative methods (OD6-INIT-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitiativeMethod {
    /// Perception every round.
    Reroll,
    /// Round 1's order for the whole fight.
    RollOnce,
    /// The scenario's order, no dice.
    Fixed,
}

/// Initiative bonus (OD6-INIT-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitiativeBonus {
    /// Both terms.
    Sum,
    /// The larger term.
    Max,
    /// None.
    Off,
}

/// Damage bonus (OD6-DMG-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DamageBonus {
    /// Every attacker.
    All,
    /// Heroes only.
    HeroesOnly,
    /// None.
    Off,
}

/// Negative resistance totals (OD6-DMG-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NegativeResistance {
    /// Plain subtraction.
    AddToInjury,
    /// Treated as 0.
    Zero,
    /// 0, and a difficulty penalty until healed.
    DifficultyPenalty,
}

/// Wound stacking (OD6-TRACK-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stacking {
    /// The catalogue's table.
    Ladder,
    /// Any `inc ≤ cur` moves up one.
    OrEqual,
    /// Only `inc < cur` moves up one (and Wounded on Wounded).
    Strict,
}

/// Mortal survival checks (OD6-TRACK-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MortalCheck {
    /// Every 12th round.
    PerMinute,
    /// Every round.
    PerRound,
    /// None.
    Off,
}

/// The options of an `opend6` scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools, reason = "one field per catalogue option")]
pub struct Options {
    /// `wild_die_failure = cancel_highest` (else `complication`).
    pub cancel_highest: bool,
    /// `wild_die_failure_on_damage`.
    pub failure_on_damage: bool,
    /// `zero_dice = pips_only` (else `forbid`).
    pub zero_dice_pips_only: bool,
    /// `cancel_cp_dice`.
    pub cancel_cp_dice: bool,
    /// `damage_timing = end_of_round`.
    pub damage_end_of_round: bool,
    /// `out_of_fight = incapacitated_or_worse`.
    pub out_incapacitated: bool,
    /// `initiative_method`.
    pub initiative_method: InitiativeMethod,
    /// `npc_group_initiative`.
    pub group_initiative: bool,
    /// `initiative_ties = simultaneous` (else `parent_order`).
    pub ties_simultaneous: bool,
    /// `initiative_bonus`.
    pub initiative_bonus: InitiativeBonus,
    /// `wound_penalty_on_initiative`.
    pub wound_penalty_on_initiative: bool,
    /// `surprise_effect = bonus_1d` (else `act_first`).
    pub surprise_bonus: bool,
    /// `interrupted_action = void_if_unable`.
    pub void_if_unable: bool,
    /// `position_model = bands` (else `line`).
    pub bands: bool,
    /// `melee_range_modifier`.
    pub melee_range_modifier: bool,
    /// `difficulty_modifiers = rolled` (else `fixed`).
    pub rolled_modifiers: bool,
    /// `passive_defense_bonus`.
    pub passive_defense_bonus: bool,
    /// `aim_interrupted_by = any_attack`.
    pub aim_any_attack: bool,
    /// `defense_ends_when_helpless`.
    pub defense_ends_when_helpless: bool,
    /// `block_vs_ranged`.
    pub block_vs_ranged: bool,
    /// `parry_success = below_active_value` (else `attack_missed`).
    pub parry_below_value: bool,
    /// `free_partial_defense`.
    pub free_partial_defense: bool,
    /// `strength_damage_source = strength` (else `lifting_or_strength`).
    pub strength_damage_strength_only: bool,
    /// `damage_bonus`.
    pub damage_bonus: DamageBonus,
    /// `zero_damage_dice = min_1d` (else `pips_only`).
    pub zero_damage_min_1d: bool,
    /// `negative_resistance`.
    pub negative_resistance: NegativeResistance,
    /// `killing_blow`.
    pub killing_blow: bool,
    /// `armor_damage_types = single` (else `split`).
    pub armor_single: bool,
    /// `wound_stacking`.
    pub stacking: Stacking,
    /// `level_arithmetic = result_bands` (else `full_ladder`).
    pub result_bands: bool,
    /// `stunned_effect = defend_only` (else `penalty`).
    pub stunned_defend_only: bool,
    /// `mortal_check`.
    pub mortal_check: MortalCheck,
    /// `massive_damage`.
    pub massive_damage: bool,
    /// `damage_track = body_points` (else `wound_levels`).
    pub body_points: bool,
    /// `roll_unconscious_duration`.
    pub roll_unconscious_duration: bool,
    /// `hold_restricts = no_move` (else `escape_only`).
    pub hold_no_move: bool,
    /// `maneuver_stacking = free` (else `one_each`).
    pub stacking_free: bool,
    /// `full_auto_defense = no_active_defense` (else `none`).
    pub full_auto_no_defense: bool,
    /// `hit_location_effects`.
    pub hit_location_effects: bool,
    /// `knockout_head_bonus`.
    pub knockout_head_bonus: bool,
    /// `ammo_tracking`.
    pub ammo_tracking: bool,
    /// `cp_cap_per_roll` (`u32::MAX` for unlimited).
    pub cp_cap: u32,
    /// `ai_point_spending = threshold` (else `none`).
    pub ai_threshold: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            cancel_highest: true,
            failure_on_damage: true,
            zero_dice_pips_only: false,
            cancel_cp_dice: false,
            damage_end_of_round: false,
            out_incapacitated: false,
            initiative_method: InitiativeMethod::Reroll,
            group_initiative: true,
            ties_simultaneous: true,
            initiative_bonus: InitiativeBonus::Sum,
            wound_penalty_on_initiative: false,
            surprise_bonus: false,
            void_if_unable: false,
            bands: false,
            melee_range_modifier: true,
            rolled_modifiers: false,
            passive_defense_bonus: false,
            aim_any_attack: false,
            defense_ends_when_helpless: true,
            block_vs_ranged: false,
            parry_below_value: false,
            free_partial_defense: false,
            strength_damage_strength_only: false,
            damage_bonus: DamageBonus::All,
            zero_damage_min_1d: false,
            negative_resistance: NegativeResistance::AddToInjury,
            killing_blow: true,
            armor_single: false,
            stacking: Stacking::Ladder,
            result_bands: false,
            stunned_defend_only: false,
            mortal_check: MortalCheck::PerMinute,
            massive_damage: false,
            body_points: false,
            roll_unconscious_duration: false,
            hold_no_move: false,
            stacking_free: false,
            full_auto_no_defense: false,
            hit_location_effects: false,
            knockout_head_bonus: false,
            ammo_tracking: true,
            cp_cap: 5,
            ai_threshold: false,
        }
    }
}

impl Options {
    /// Sets one option from its text value; the error says what was expected.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        use crate::option_value::{flag, pick, two};
        match name {
            "wild_die_failure" => self.cancel_highest = !two(value, "cancel_highest", "complication")?,
            "wild_die_failure_on_damage" => self.failure_on_damage = flag(value)?,
            "zero_dice" => self.zero_dice_pips_only = two(value, "forbid", "pips_only")?,
            "cancel_cp_dice" => self.cancel_cp_dice = flag(value)?,
            "damage_timing" => self.damage_end_of_round = two(value, "immediate", "end_of_round")?,
            "out_of_fight" => self.out_incapacitated = two(value, "unconscious_or_worse", "incapacitated_or_worse")?,
            "initiative_method" => {
                self.initiative_method = pick(
                    value,
                    &[
                        ("reroll_each_round", InitiativeMethod::Reroll),
                        ("roll_once", InitiativeMethod::RollOnce),
                        ("fixed_order", InitiativeMethod::Fixed),
                    ],
                )?
            }
            "npc_group_initiative" => self.group_initiative = flag(value)?,
            "initiative_ties" => self.ties_simultaneous = !two(value, "simultaneous", "parent_order")?,
            "initiative_bonus" => {
                self.initiative_bonus = pick(
                    value,
                    &[("sum", InitiativeBonus::Sum), ("max", InitiativeBonus::Max), ("off", InitiativeBonus::Off)],
                )?
            }
            "wound_penalty_on_initiative" => self.wound_penalty_on_initiative = flag(value)?,
            "surprise_effect" => self.surprise_bonus = two(value, "act_first", "bonus_1d")?,
            "interrupted_action" => self.void_if_unable = two(value, "resolves", "void_if_unable")?,
            "position_model" => self.bands = two(value, "line", "bands")?,
            "melee_range_modifier" => self.melee_range_modifier = flag(value)?,
            "difficulty_modifiers" => self.rolled_modifiers = two(value, "fixed", "rolled")?,
            "passive_defense_bonus" => self.passive_defense_bonus = flag(value)?,
            "aim_interrupted_by" => self.aim_any_attack = two(value, "injury_or_move", "any_attack")?,
            "defense_ends_when_helpless" => self.defense_ends_when_helpless = flag(value)?,
            "block_vs_ranged" => self.block_vs_ranged = flag(value)?,
            "parry_success" => self.parry_below_value = two(value, "attack_missed", "below_active_value")?,
            "free_partial_defense" => self.free_partial_defense = flag(value)?,
            "strength_damage_source" => {
                self.strength_damage_strength_only = two(value, "lifting_or_strength", "strength")?
            }
            "damage_bonus" => {
                self.damage_bonus = pick(
                    value,
                    &[("all", DamageBonus::All), ("heroes_only", DamageBonus::HeroesOnly), ("off", DamageBonus::Off)],
                )?
            }
            "zero_damage_dice" => self.zero_damage_min_1d = two(value, "pips_only", "min_1d")?,
            "negative_resistance" => {
                self.negative_resistance = pick(
                    value,
                    &[
                        ("add_to_injury", NegativeResistance::AddToInjury),
                        ("zero", NegativeResistance::Zero),
                        ("difficulty_penalty", NegativeResistance::DifficultyPenalty),
                    ],
                )?
            }
            "killing_blow" => self.killing_blow = flag(value)?,
            "armor_damage_types" => self.armor_single = two(value, "split", "single")?,
            "wound_stacking" => {
                self.stacking = pick(
                    value,
                    &[("ladder", Stacking::Ladder), ("or_equal", Stacking::OrEqual), ("strict", Stacking::Strict)],
                )?
            }
            "level_arithmetic" => self.result_bands = two(value, "full_ladder", "result_bands")?,
            "stunned_effect" => self.stunned_defend_only = two(value, "penalty", "defend_only")?,
            "mortal_check" => {
                self.mortal_check = pick(
                    value,
                    &[
                        ("per_minute", MortalCheck::PerMinute),
                        ("per_round", MortalCheck::PerRound),
                        ("off", MortalCheck::Off),
                    ],
                )?
            }
            "massive_damage" => self.massive_damage = flag(value)?,
            "damage_track" => self.body_points = two(value, "wound_levels", "body_points")?,
            "roll_unconscious_duration" => self.roll_unconscious_duration = flag(value)?,
            "hold_restricts" => self.hold_no_move = two(value, "escape_only", "no_move")?,
            "maneuver_stacking" => self.stacking_free = two(value, "one_each", "free")?,
            "full_auto_defense" => self.full_auto_no_defense = two(value, "none", "no_active_defense")?,
            "hit_location_effects" => self.hit_location_effects = flag(value)?,
            "knockout_head_bonus" => self.knockout_head_bonus = flag(value)?,
            "ammo_tracking" => self.ammo_tracking = flag(value)?,
            "cp_cap_per_roll" => {
                self.cp_cap = pick(value, &[("5", 5), ("2", 2), ("unlimited", u32::MAX)])?;
            }
            "ai_point_spending" => self.ai_threshold = two(value, "none", "threshold")?,
            other => return Err(crate::unknown_option(other, OPTIONS)),
        }
        Ok(())
    }
}
