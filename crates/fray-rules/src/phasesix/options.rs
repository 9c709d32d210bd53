//! The `phasesix` options: every DEFAULT and OPTION of the catalogue, with its alternatives and
//! the clauses it affects.

use crate::OptionInfo;

/// Every option, as `fray rules phasesix` lists it.
pub const OPTIONS: &[OptionInfo] = &[
    OptionInfo::new(
        "explode_policy",
        "always",
        "when_needed",
        "P6-DICE-3",
        "Whether every 6 is re-rolled even when the outcome can no longer change (always) or only when it can.",
    ),
    OptionInfo::new(
        "min_roll_floor",
        "2",
        "accurate_only",
        "P6-DICE-4, P6-SPECIAL-1",
        "Whether the number a die needs never drops below 2 (2) or only for accurate attacks.",
    ),
    OptionInfo::new(
        "check_crit_successes",
        "on",
        "off",
        "P6-DICE-5",
        "Whether very high dice on checks count extra successes (11+ counts 2, 17+ counts 3, …).",
    ),
    OptionInfo::new(
        "initiative_tie",
        "random",
        "reroll",
        "P6-INIT-2",
        "How initiative still tied after Deftness is broken: a random draw or a reroll.",
    ),
    OptionInfo::new(
        "initiative_roll",
        "d6_plus_quickness",
        "quickness_d6_sum",
        "P6-INIT-1, P6-INIT-3",
        "How initiative is rolled: one exploding d6 plus Quickness, or Quickness-many d6 summed.",
    ),
    OptionInfo::new(
        "act_cost.<act>",
        "1 for walk, run, crawl, use, first_aid, stabilise, extinguish; 0 for lower_shield",
        "any integer ≥ 0",
        "P6-ACT-6",
        "The actions an act costs from the pool (act_cost.walk, act_cost.run, …).",
    ),
    OptionInfo::new(
        "reaction_order",
        "initiative",
        "declaration",
        "P6-REACT-2",
        "The order several reactions to one act resolve in: initiative or as declared.",
    ),
    OptionInfo::new(
        "reaction_menu",
        "defensive",
        "any",
        "P6-REACT-3",
        "Which reactions are offered: the target's dodge and parries only, or any act of one action by anyone.",
    ),
    OptionInfo::new(
        "awareness",
        "all",
        "scenario",
        "P6-REACT-4",
        "Who perceives whom: everyone, or only the pairs the scenario lists (the unseen cannot react).",
    ),
    OptionInfo::new(
        "destiny_steal",
        "next_turn",
        "saved_first",
        "P6-RES-2, P6-RES-3",
        "When a destiny die stealing an action takes effect on a character who is not acting.",
    ),
    OptionInfo::new(
        "walk_combine",
        "on",
        "off",
        "P6-MOVE-2, P6-MOVE-3",
        "Whether a walk may be combined with one's own act on the same action (on) or is an act of its own.",
    ),
    OptionInfo::new(
        "hunkered_movement",
        "crawl_only",
        "any",
        "P6-MOVE-5",
        "Whether a hunkered character may only crawl, or move any way.",
    ),
    OptionInfo::new(
        "melee_reach",
        "weapon_range",
        "ignore",
        "P6-ATK-4",
        "Whether a melee attack needs its target within the weapon's range, or ignores distance.",
    ),
    OptionInfo::new("thrown_aim", "allowed", "forbidden", "P6-MODE-4, P6-AIM-1", "Whether a throw may be aimed."),
    OptionInfo::new(
        "burst_ammo",
        "require_3",
        "allow_partial",
        "P6-MODE-5",
        "Whether a burst needs 3 rounds loaded, or may empty a weapon holding fewer.",
    ),
    OptionInfo::new(
        "combined_walk_breaks_recoil",
        "false",
        "true",
        "P6-RCL-3",
        "Whether a walk combined with an attack breaks the recoil chain.",
    ),
    OptionInfo::new(
        "megacrit_ladder",
        "shifted",
        "fixed",
        "P6-CRIT-2, P6-CRIT-3",
        "Whether megacrit thresholds move when recoil or aim moves the crit threshold (shifted) or stay fixed.",
    ),
    OptionInfo::new(
        "crit_floor",
        "none",
        "min_roll_plus_6",
        "P6-CRIT-4",
        "Whether a crit may need less than 6 above the hit number (none) or never (min_roll_plus_6).",
    ),
    OptionInfo::new(
        "aim_lost_on",
        "hit",
        "wound",
        "P6-AIM-2, P6-AIM-3, P6-SPECIAL-2",
        "What spoils an aim: being hit, or only being wounded.",
    ),
    OptionInfo::new(
        "aim_persists",
        "true",
        "false",
        "P6-AIM-4",
        "Whether the aim bonus lasts until the next attack whatever else is done, or any other act cancels it.",
    ),
    OptionInfo::new(
        "range_rule",
        "max_range",
        "wrong_distance, ignore",
        "P6-RANGE-1, P6-RANGE-2",
        "What range means: a hard maximum, the optional wrong-distance penalty, or no limit.",
    ),
    OptionInfo::new(
        "cover_crit_removal",
        "highest_first",
        "roll_order",
        "P6-COVER-3",
        "Which crits a cover success removes: the highest first, or in roll order.",
    ),
    OptionInfo::new(
        "cover_stacking",
        "best_only",
        "sequential",
        "P6-COVER-4",
        "Whether an attack gets one cover roll at the best value, or one roll per source of cover.",
    ),
    OptionInfo::new(
        "cover_roll_modifiers",
        "none",
        "defender_conditions",
        "P6-COVER-5",
        "Whether the defender's conditions change its cover roll.",
    ),
    OptionInfo::new(
        "shield_block_start",
        "next_round",
        "immediately",
        "P6-SHLD-2, P6-SHLD-4",
        "Whether a raised shield covers from the next round or at once.",
    ),
    OptionInfo::new(
        "move_halving_round",
        "up",
        "down",
        "P6-SHLD-4",
        "Whether a halved movement distance rounds up or down.",
    ),
    OptionInfo::new(
        "shield_cover_min",
        "2",
        "any value 2 … 6",
        "P6-SHLD-4",
        "The best cover value a shield can give (2 means 2+).",
    ),
    OptionInfo::new(
        "unarmed_parry",
        "false",
        "true",
        "P6-DEF-4",
        "Whether an unarmed character may parry with Hand-to-hand combat.",
    ),
    OptionInfo::new(
        "parry_vs_crits",
        "never",
        "crit_successes",
        "P6-DEF-3, P6-DEF-5",
        "Whether a parry can remove crits, with dice that are crits themselves, or never.",
    ),
    OptionInfo::new(
        "armour_stacking",
        "sum",
        "highest",
        "P6-DMG-2",
        "Whether several armour pieces add their protection or only the highest counts.",
    ),
    OptionInfo::new(
        "weapon_condition_per",
        "attack",
        "wounding_hit",
        "P6-DMG-5",
        "Whether a weapon's condition (Bleeding X, …) is added once per wounding attack or per wounding hit.",
    ),
    OptionInfo::new(
        "armor_damage",
        "off",
        "track, degrade",
        "P6-ARM-1, P6-ARM-2",
        "Whether armour wears out from the hits it stops (track, degrade) or never (off).",
    ),
    OptionInfo::new(
        "base_max_wounds",
        "6",
        "10",
        "P6-TRACK-1",
        "Hearts (the wounds a character can take) when the scenario gives none.",
    ),
    OptionInfo::new(
        "wounds_while_dying",
        "ignore",
        "add_to_dying",
        "P6-TRACK-4",
        "Whether wounds to a Dying character are ignored or raise Dying.",
    ),
    OptionInfo::new(
        "stabilised_state",
        "fainted",
        "awake",
        "P6-TRACK-7",
        "Whether a stabilised character stays fainted, or wakes to act with a boost.",
    ),
    OptionInfo::new(
        "out_when",
        "incapacitated",
        "dead",
        "P6-TRACK-8",
        "Who counts as out of the fight: the incapacitated (dying, unconscious, …) or only the dead.",
    ),
    OptionInfo::new(
        "round_cap",
        "100",
        "any integer ≥ 1",
        "P6-TRACK-8",
        "The most rounds a fight runs before it ends as a stalemate.",
    ),
    OptionInfo::new(
        "round_start_order",
        "dying_first",
        "bleeding_first",
        "P6-COND-7",
        "The order of round-start condition checks: Dying first, or Bleeding first.",
    ),
    OptionInfo::new(
        "accurate_attack",
        "exclusive",
        "combined_cap",
        "P6-SPECIAL-2",
        "Whether aiming for crits and for accuracy are separate choices or share one cap.",
    ),
    OptionInfo::new(
        "ko_depth",
        "margin",
        "hits",
        "P6-SPECIAL-4",
        "How long a knock-out lasts: the hits' margin over Resistance, or all the hits.",
    ),
    OptionInfo::new(
        "ko_unarmed",
        "true",
        "false",
        "P6-SPECIAL-3, P6-SPECIAL-4",
        "Whether unarmed strikes can knock out (as blunt weapons).",
    ),
    OptionInfo::new(
        "massive_cap",
        "added_dice",
        "extra_actions, total_dice",
        "P6-SPECIAL-5, P6-SPECIAL-6",
        "What Strength caps in a massive attack: the added dice, the extra actions, or the whole pool.",
    ),
    OptionInfo::new(
        "massive_melee_only",
        "true",
        "false",
        "P6-SPECIAL-6",
        "Whether only melee attacks can be massive.",
    ),
    OptionInfo::new(
        "disarm_resist",
        "best_of",
        "strength, deftness",
        "P6-SPECIAL-8",
        "What the target of a disarm rolls: the better of Strength and Deftness, or one of them.",
    ),
    OptionInfo::new(
        "disarm_hits_stage",
        "after_cover",
        "raw, after_protection",
        "P6-SPECIAL-8",
        "Which hits count for a disarm: after cover, raw, or after protection.",
    ),
    OptionInfo::new(
        "coup_de_grace",
        "dying_level",
        "dead, dying_plus_wounds",
        "P6-SPECIAL-11, P6-SPECIAL-12",
        "What a successful coup de grâce does: Dying by its successes, death, or Dying plus the wounds.",
    ),
    OptionInfo::new(
        "sleeper_wakes",
        "on_attack",
        "on_failed_coup_only",
        "P6-SPECIAL-12",
        "Whether any attack wakes a sleeper or only a failed coup de grâce.",
    ),
    OptionInfo::new(
        "deviation_geometry",
        "clock_2d",
        "line_1d",
        "P6-THROW-3",
        "Whether a missed throw deviates on a clock face around the target, or along the line.",
    ),
    OptionInfo::new(
        "throw_radius_m",
        "1",
        "any distance ≥ 0",
        "P6-THROW-3, P6-THROW-4",
        "The radius in metres around where a thrown object lands within which it hits everyone.",
    ),
];

/// Acts whose cost `act_cost.<act>` may set (P6-ACT-6).
pub const ACTS: [&str; 8] = ["walk", "run", "crawl", "use", "first_aid", "stabilise", "extinguish", "lower_shield"];

/// A three-way choice, by index into the option's values.
pub type Pick = u8;

/// The options of a `phasesix` scenario.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::struct_excessive_bools, reason = "one field per catalogue option")]
pub struct Options {
    /// `explode_policy = when_needed`.
    pub explode_when_needed: bool,
    /// `min_roll_floor = accurate_only`.
    pub floor_accurate_only: bool,
    /// `check_crit_successes`.
    pub check_crits: bool,
    /// `initiative_tie = reroll`.
    pub tie_reroll: bool,
    /// `initiative_roll = quickness_d6_sum`.
    pub initiative_sum: bool,
    /// `act_cost.<act>`, in [`ACTS`] order.
    pub act_cost: [u8; 8],
    /// `reaction_order = declaration`.
    pub reaction_declaration: bool,
    /// `reaction_menu = any`.
    pub reaction_any: bool,
    /// `awareness = scenario`.
    pub awareness_scenario: bool,
    /// `destiny_steal = saved_first`.
    pub steal_saved_first: bool,
    /// `walk_combine`.
    pub walk_combine: bool,
    /// `hunkered_movement = any`.
    pub hunkered_any_move: bool,
    /// `melee_reach = ignore`.
    pub melee_reach_ignore: bool,
    /// `thrown_aim = forbidden`.
    pub thrown_aim_forbidden: bool,
    /// `burst_ammo = allow_partial`.
    pub burst_partial: bool,
    /// `combined_walk_breaks_recoil`.
    pub walk_breaks_recoil: bool,
    /// `megacrit_ladder = fixed`.
    pub ladder_fixed: bool,
    /// `crit_floor = min_roll_plus_6`.
    pub crit_floor: bool,
    /// `aim_lost_on = wound`.
    pub aim_lost_on_wound: bool,
    /// `aim_persists`.
    pub aim_persists: bool,
    /// `range_rule`: 0 max_range, 1 wrong_distance, 2 ignore.
    pub range_rule: Pick,
    /// `cover_crit_removal = roll_order`.
    pub cover_roll_order: bool,
    /// `cover_stacking = sequential`.
    pub cover_sequential: bool,
    /// `cover_roll_modifiers = defender_conditions`.
    pub cover_modifiers: bool,
    /// `shield_block_start = immediately`.
    pub block_immediately: bool,
    /// `move_halving_round = down`.
    pub halving_down: bool,
    /// `shield_cover_min`.
    pub shield_cover_min: i32,
    /// `unarmed_parry`.
    pub unarmed_parry: bool,
    /// `parry_vs_crits = crit_successes`.
    pub parry_crits: bool,
    /// `armour_stacking = highest`.
    pub armour_highest: bool,
    /// `weapon_condition_per = wounding_hit`.
    pub condition_per_hit: bool,
    /// `armor_damage`: 0 off, 1 track, 2 degrade.
    pub armor_damage: Pick,
    /// `base_max_wounds`.
    pub base_max_wounds: i32,
    /// `wounds_while_dying = add_to_dying`.
    pub add_to_dying: bool,
    /// `stabilised_state = awake`.
    pub stabilised_awake: bool,
    /// `out_when = dead`.
    pub out_when_dead: bool,
    /// `round_cap`.
    pub round_cap: u32,
    /// `round_start_order = bleeding_first`.
    pub bleeding_first: bool,
    /// `accurate_attack = combined_cap`.
    pub combined_cap: bool,
    /// `ko_depth = hits`.
    pub ko_depth_hits: bool,
    /// `ko_unarmed`.
    pub ko_unarmed: bool,
    /// `massive_cap`: 0 added_dice, 1 extra_actions, 2 total_dice.
    pub massive_cap: Pick,
    /// `massive_melee_only`.
    pub massive_melee_only: bool,
    /// `disarm_resist`: 0 best_of, 1 strength, 2 deftness.
    pub disarm_resist: Pick,
    /// `disarm_hits_stage`: 0 after_cover, 1 raw, 2 after_protection.
    pub disarm_stage: Pick,
    /// `coup_de_grace`: 0 dying_level, 1 dead, 2 dying_plus_wounds.
    pub coup: Pick,
    /// `sleeper_wakes = on_failed_coup_only`.
    pub sleeper_failed_coup_only: bool,
    /// `deviation_geometry = line_1d`.
    pub deviation_line: bool,
    /// `throw_radius_m`.
    pub throw_radius_m: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            explode_when_needed: false,
            floor_accurate_only: false,
            check_crits: true,
            tie_reroll: false,
            initiative_sum: false,
            act_cost: [1, 1, 1, 1, 1, 1, 1, 0],
            reaction_declaration: false,
            reaction_any: false,
            awareness_scenario: false,
            steal_saved_first: false,
            walk_combine: true,
            hunkered_any_move: false,
            melee_reach_ignore: false,
            thrown_aim_forbidden: false,
            burst_partial: false,
            walk_breaks_recoil: false,
            ladder_fixed: false,
            crit_floor: false,
            aim_lost_on_wound: false,
            aim_persists: true,
            range_rule: 0,
            cover_roll_order: false,
            cover_sequential: false,
            cover_modifiers: false,
            block_immediately: false,
            halving_down: false,
            shield_cover_min: 2,
            unarmed_parry: false,
            parry_crits: false,
            armour_highest: false,
            condition_per_hit: false,
            armor_damage: 0,
            base_max_wounds: 6,
            add_to_dying: false,
            stabilised_awake: false,
            out_when_dead: false,
            round_cap: 100,
            bleeding_first: false,
            combined_cap: false,
            ko_depth_hits: false,
            ko_unarmed: true,
            massive_cap: 0,
            massive_melee_only: true,
            disarm_resist: 0,
            disarm_stage: 0,
            coup: 0,
            sleeper_failed_coup_only: false,
            deviation_line: false,
            throw_radius_m: 1.0,
        }
    }
}

impl Options {
    /// Sets one option from its text value; the error says what was expected.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        fn pick(value: &str, choices: &[&str]) -> Result<u8, String> {
            choices
                .iter()
                .position(|c| *c == value)
                .map(|i| i as u8)
                .ok_or_else(|| format!("expected one of {}, found `{value}`", choices.join(", ")))
        }
        use crate::option_value::{flag, two};
        if let Some(act) = name.strip_prefix("act_cost.") {
            let i = ACTS.iter().position(|a| *a == act).ok_or_else(|| {
                format!("unknown act `{act}` in `act_cost.<act>`, expected one of {}", ACTS.join(", "))
            })?;
            self.act_cost[i] = match value.parse::<u8>() {
                Ok(n) if n <= 10 => n,
                _ => return Err(format!("expected an action cost from 0 to 10, found `{value}`")),
            };
            return Ok(());
        }
        match name {
            "explode_policy" => self.explode_when_needed = two(value, "always", "when_needed")?,
            "min_roll_floor" => self.floor_accurate_only = two(value, "2", "accurate_only")?,
            "check_crit_successes" => self.check_crits = !two(value, "on", "off")?,
            "initiative_tie" => self.tie_reroll = two(value, "random", "reroll")?,
            "initiative_roll" => self.initiative_sum = two(value, "d6_plus_quickness", "quickness_d6_sum")?,
            "reaction_order" => self.reaction_declaration = two(value, "initiative", "declaration")?,
            "reaction_menu" => self.reaction_any = two(value, "defensive", "any")?,
            "awareness" => self.awareness_scenario = two(value, "all", "scenario")?,
            "destiny_steal" => self.steal_saved_first = two(value, "next_turn", "saved_first")?,
            "walk_combine" => self.walk_combine = !two(value, "on", "off")?,
            "hunkered_movement" => self.hunkered_any_move = two(value, "crawl_only", "any")?,
            "melee_reach" => self.melee_reach_ignore = two(value, "weapon_range", "ignore")?,
            "thrown_aim" => self.thrown_aim_forbidden = two(value, "allowed", "forbidden")?,
            "burst_ammo" => self.burst_partial = two(value, "require_3", "allow_partial")?,
            "combined_walk_breaks_recoil" => self.walk_breaks_recoil = flag(value)?,
            "megacrit_ladder" => self.ladder_fixed = two(value, "shifted", "fixed")?,
            "crit_floor" => self.crit_floor = two(value, "none", "min_roll_plus_6")?,
            "aim_lost_on" => self.aim_lost_on_wound = two(value, "hit", "wound")?,
            "aim_persists" => self.aim_persists = flag(value)?,
            "range_rule" => self.range_rule = pick(value, &["max_range", "wrong_distance", "ignore"])?,
            "cover_crit_removal" => self.cover_roll_order = two(value, "highest_first", "roll_order")?,
            "cover_stacking" => self.cover_sequential = two(value, "best_only", "sequential")?,
            "cover_roll_modifiers" => self.cover_modifiers = two(value, "none", "defender_conditions")?,
            "shield_block_start" => self.block_immediately = two(value, "next_round", "immediately")?,
            "move_halving_round" => self.halving_down = two(value, "up", "down")?,
            "shield_cover_min" => {
                self.shield_cover_min = match value.parse::<i32>() {
                    Ok(n) if (2..=6).contains(&n) => n,
                    _ => return Err(format!("expected a cover value from 2 to 6, found `{value}`")),
                }
            }
            "unarmed_parry" => self.unarmed_parry = flag(value)?,
            "parry_vs_crits" => self.parry_crits = two(value, "never", "crit_successes")?,
            "armour_stacking" => self.armour_highest = two(value, "sum", "highest")?,
            "weapon_condition_per" => self.condition_per_hit = two(value, "attack", "wounding_hit")?,
            "armor_damage" => self.armor_damage = pick(value, &["off", "track", "degrade"])?,
            "base_max_wounds" => self.base_max_wounds = if two(value, "6", "10")? { 10 } else { 6 },
            "wounds_while_dying" => self.add_to_dying = two(value, "ignore", "add_to_dying")?,
            "stabilised_state" => self.stabilised_awake = two(value, "fainted", "awake")?,
            "out_when" => self.out_when_dead = two(value, "incapacitated", "dead")?,
            "round_cap" => {
                self.round_cap = match value.parse::<u32>() {
                    Ok(n) if (1..=100_000).contains(&n) => n,
                    _ => return Err(format!("expected a round cap from 1 to 100000, found `{value}`")),
                }
            }
            "round_start_order" => self.bleeding_first = two(value, "dying_first", "bleeding_first")?,
            "accurate_attack" => self.combined_cap = two(value, "exclusive", "combined_cap")?,
            "ko_depth" => self.ko_depth_hits = two(value, "margin", "hits")?,
            "ko_unarmed" => self.ko_unarmed = flag(value)?,
            "massive_cap" => self.massive_cap = pick(value, &["added_dice", "extra_actions", "total_dice"])?,
            "massive_melee_only" => self.massive_melee_only = flag(value)?,
            "disarm_resist" => self.disarm_resist = pick(value, &["best_of", "strength", "deftness"])?,
            "disarm_hits_stage" => self.disarm_stage = pick(value, &["after_cover", "raw", "after_protection"])?,
            "coup_de_grace" => self.coup = pick(value, &["dying_level", "dead", "dying_plus_wounds"])?,
            "sleeper_wakes" => self.sleeper_failed_coup_only = two(value, "on_attack", "on_failed_coup_only")?,
            "deviation_geometry" => self.deviation_line = two(value, "clock_2d", "line_1d")?,
            "throw_radius_m" => {
                self.throw_radius_m = match value.parse::<f64>() {
                    Ok(m) if m.is_finite() && (0.0..=1000.0).contains(&m) => m,
                    _ => return Err(format!("expected a radius from 0 to 1000 m, found `{value}`")),
                }
            }
            other => return Err(crate::unknown_option(other, OPTIONS)),
        }
        Ok(())
    }
}
