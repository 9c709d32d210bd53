//! The `fluid` options: every DEFAULT of the catalogue that this ruleset implements so far, with
//! its alternatives and the clauses it affects.

use crate::OptionInfo;

/// Which way checks read (FLUID-DICE-1, FLUID-DICE-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckDirection {
    /// total ≥ TN succeeds.
    RollHigh,
    /// margin = 20 + bonuses − TN − e.
    RollUnder,
}

/// How crit and blunder naturals become effective rolls (FLUID-DICE-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CritLadder {
    /// 16 → 21, 17 → 26, 18 → 31, 5 → 0, 4 → −5, 3 → −10.
    Step5,
    /// 16 → 25, 17 → 26, 18 → 27, 5 → −4, 4 → −5, 3 → −6.
    Shift9,
    /// Face value.
    None,
}

/// How Superior and Inferior work (FLUID-DICE-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeMode {
    /// Roll 3 + N dice, keep the three best.
    KeepBest,
    /// Roll 3d6 plus N extra dice: the natural is the first three, and the highest extra die is
    /// added (Superior) or subtracted (Inferior).
    ExtraDie,
    /// ±3 per level.
    Flat,
}

/// The normal tactics split for an odd value (FLUID-TAC-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormalSplit {
    /// oT = ⌊T/2⌋.
    OtFloor,
    /// oT = ⌈T/2⌉.
    OtCeil,
}

/// The multi-action penalty (FLUID-ACT-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiActionPenalty {
    /// −N when N ≥ 2.
    NIfMultiple,
    /// −(N − 1).
    NMinusOne,
    /// −N always.
    NAlways,
}

/// When a side is out (FLUID-ROUND-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideOutWhen {
    /// Dead, unconscious or dying combatants are out.
    Incapacitated,
    /// Only the dead are out.
    Dead,
}

/// Initiative ties (FLUID-INIT-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitiativeTie {
    /// Higher Tactics, then higher FIN, then a d6 roll-off.
    TacticsFinRoll,
    /// A d6 roll-off only.
    Roll,
    /// Roster order.
    Roster,
}

/// Which armour sizes reduce rather than convert (FLUID-ARM-2, FLUID-ARM-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArmorSizeTest {
    /// A weapon not larger than the armour is reduced.
    NotLarger,
    /// Only a strictly smaller weapon is reduced.
    Smaller,
}

/// The options of one `fluid` fight.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// FLUID-DICE-1, FLUID-DICE-9.
    pub check_direction: CheckDirection,
    /// FLUID-DICE-5.
    pub crit_ladder: CritLadder,
    /// FLUID-DICE-6.
    pub crit_auto: bool,
    /// FLUID-DICE-7.
    pub edge_mode: EdgeMode,
    /// FLUID-DICE-8. Any integer ≥ 1; above [`crate::fluid::check::MAX_EDGE`] it never binds.
    pub edge_cap: i32,
    /// FLUID-TAC-4.
    pub normal_split: NormalSplit,
    /// FLUID-ACT-4.
    pub multi_action_penalty: MultiActionPenalty,
    /// FLUID-ACT-7: at most rank + 1 attacks per skill per round when true.
    pub max_attacks_rank_plus_one: bool,
    /// FLUID-ACT-11.
    pub untrained_penalty: i32,
    /// FLUID-ROUND-4.
    pub side_out_when: SideOutWhen,
    /// FLUID-INIT-4.
    pub initiative_tie: InitiativeTie,
    /// FLUID-TRACK-2: T = min(10, PC) when true, 10 when false (`fixed10`).
    pub cp_threshold_min10_pc: bool,
    /// FLUID-TRACK-2: the two terms summed when true, the worse one when false (`worst`).
    pub cp_combine_sum: bool,
    /// FLUID-ARM-2, FLUID-ARM-3.
    pub armor_size_test: ArmorSizeTest,
    /// FLUID-ARM-2.
    pub armor_spill: bool,
    /// FLUID-MOVE-10.
    pub reach_m: f64,
    /// FLUID-INIT-3: CP is added to initiative when true.
    pub initiative_cp: bool,
    /// FLUID-ACT-10: Full Defense lasts to the end of the round (false: until the next step).
    pub full_defense_round: bool,
    /// FLUID-ATK-8: the largest parried failure count is the bonus (false: the last).
    pub counter_largest: bool,
    /// FLUID-DEF-8: a failed unarmed defence adds stress (false: `convert`).
    pub unarmed_fail_extra_stress: bool,
    /// FLUID-DEF-13: a dying target that passed its act test defends (false: `never`).
    pub dying_defends_when_acting: bool,
    /// FLUID-TRACK-3: CP lowers the combatant's defence TNs.
    pub cp_on_defense: bool,
    /// FLUID-TRACK-12: one that falls dying before its step tests at its step (false: `lose_round`).
    pub dying_midround_test: bool,
    /// FLUID-SUNDER-13: sunder checks are made at all.
    pub sunder_checks: bool,
    /// FLUID-SUNDER-2: a parry that makes a melee attack fail is contact too.
    pub sunder_on_parry: bool,
    /// FLUID-SUNDER-8: a hit on higher-tier armour makes the weapon check its OQ.
    pub sunder_weapon_on_armor: bool,
    /// FLUID-SUNDER-10: what triggers the armour check.
    pub armor_sunder_trigger: ArmorSunderTrigger,
    /// FLUID-GEAR-4.
    pub ammo_tracking: bool,
    /// FLUID-SPECIAL-9: a spray counts once (false: each shot counts).
    pub spray_counts_once: bool,
    /// FLUID-SPECIAL-10: a pump-action weapon may also burst.
    pub pump_burst: bool,
    /// FLUID-SPECIAL-11: the maximum burst caps each attack (false: each round, `per_round`).
    pub burst_cap_per_attack: bool,
    /// FLUID-MOVE-8: all movement at the start of resolution (false: at each step, `own_step`).
    pub movement_simultaneous: bool,
    /// FLUID-MOVE-11: metres a move towards a combatant stops short.
    pub approach_gap: f64,
    /// FLUID-MOVE-6: melee after using the Run skill.
    pub melee_run_penalty: MeleeRunPenalty,
    /// FLUID-MOVE-7: a ≥ 4 m straight walk gives +1W.
    pub charge_walk: bool,
    /// FLUID-DMG-5: the charge bonus is added before armour (false: after, `after_armor`).
    pub charge_before_armor: bool,
    /// FLUID-MOVE-9: upper limits of Nearby, Close, Short, Medium, Long, Extreme in metres.
    pub range_bands: [f64; 6],
    /// FLUID-ATK-9: the flank bonus (0 = none).
    pub flank_bonus: i32,
    /// FLUID-SPECIAL-3: the defences against an area attack.
    pub area_defense: AreaDefense,
    /// FLUID-SPECIAL-4: the blast point must be a combatant's position (false: anywhere).
    pub blast_on_combatant: bool,
    /// FLUID-ATK-5: skill values exclude the item (false: they include its original quality).
    pub skill_values_exclude_item: bool,
    /// FLUID-GEAR-5: the unarmed pseudo-item's base damage (W, S).
    pub unarmed_damage: (super::setup::Amount, super::setup::Amount),
    /// FLUID-ROUND-5: a hidden combatant is revealed by its first attack (false: `scripted`).
    pub reveal_on_attack: bool,
    /// FLUID-ATK-10: an unaware target still adds its dT to TN 10.
    pub unaware_dt: bool,
    /// FLUID-TAC-3: revision passes after the first splits.
    pub tactics_passes: u32,
    /// FLUID-ACT-5: N is fixed by the declaration (false: recounted from the current plan).
    pub multi_action_declared: bool,
    /// FLUID-TAC-5: a negative Tactics value is split too (false: oT = dT = 0, `zero_split`).
    pub negative_tactics_split: bool,
    /// FLUID-INIT-7: incapacitated combatants roll initiative (their step is empty).
    pub incapacitated_roll: bool,
    /// FLUID-ACT-1: declaration revision passes.
    pub declare_passes: u32,
    /// FLUID-ATK-11: a sunder attack is named with the attack, before the defence (`with_attack`).
    pub sunder_with_attack: bool,
    /// FLUID-ARM-4: a Block's DQ always reduces W damage (`always_reduce`).
    pub block_always_reduces: bool,
    /// FLUID-SIZE-1: the sizes of the words light, medium and heavy.
    pub weight_sizes: [i32; 3],
    /// FLUID-SIZE-3: an attacking weapon counts as its first size (false: its smallest).
    pub attack_size_first: bool,
    /// FLUID-TRACK-1: S is capped by the sheet's `s_max` (false: by PC).
    pub stress_max_sheet: bool,
    /// FLUID-TRACK-9: S ≤ 0 gates acting like dying (false: unconscious).
    pub stress_zero_gate: bool,
    /// FLUID-TRACK-11: the dead stay in play as bodies.
    pub dead_bodies_kept: bool,
    /// FLUID-DEF-4: one defence named with the declarations serves all round (`per_round`).
    pub defense_per_round: bool,
    /// FLUID-DICE-10: each combatant draws from its own stream (`per_combatant`).
    pub dice_per_combatant: bool,
}

/// Defences against an area attack (FLUID-SPECIAL-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AreaDefense {
    /// Dodge or Block with a shield.
    DodgeOrShield,
    /// Dodge only.
    DodgeOnly,
    /// None: TN 10 + dT.
    None,
}

/// Melee after using the Run skill (FLUID-MOVE-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeleeRunPenalty {
    /// Nothing beyond the multi-action penalty.
    None,
    /// −⌊multiplier / 2⌋.
    HalfMultiplier,
    /// −multiplier.
    Multiplier,
}

/// What triggers an armour sunder check (FLUID-SUNDER-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArmorSunderTrigger {
    /// Every hit.
    Hit,
    /// Only W damage after armour.
    Wound,
    /// W or S damage after armour.
    Damage,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            check_direction: CheckDirection::RollHigh,
            crit_ladder: CritLadder::Step5,
            crit_auto: false,
            edge_mode: EdgeMode::KeepBest,
            edge_cap: 3,
            normal_split: NormalSplit::OtFloor,
            multi_action_penalty: MultiActionPenalty::NIfMultiple,
            max_attacks_rank_plus_one: true,
            untrained_penalty: -3,
            side_out_when: SideOutWhen::Incapacitated,
            initiative_tie: InitiativeTie::TacticsFinRoll,
            cp_threshold_min10_pc: true,
            cp_combine_sum: true,
            armor_size_test: ArmorSizeTest::NotLarger,
            armor_spill: true,
            reach_m: 2.0,
            initiative_cp: false,
            full_defense_round: true,
            counter_largest: true,
            unarmed_fail_extra_stress: true,
            dying_defends_when_acting: true,
            cp_on_defense: false,
            dying_midround_test: true,
            sunder_checks: true,
            sunder_on_parry: false,
            sunder_weapon_on_armor: false,
            armor_sunder_trigger: ArmorSunderTrigger::Hit,
            ammo_tracking: true,
            spray_counts_once: true,
            pump_burst: false,
            burst_cap_per_attack: true,
            movement_simultaneous: true,
            approach_gap: 1.0,
            melee_run_penalty: MeleeRunPenalty::None,
            charge_walk: false,
            charge_before_armor: true,
            range_bands: [2.0, 4.0, 10.0, 25.0, 50.0, 100.0],
            flank_bonus: 0,
            area_defense: AreaDefense::DodgeOrShield,
            blast_on_combatant: false,
            skill_values_exclude_item: true,
            unarmed_damage: (super::setup::Amount::Fixed(0), super::setup::Amount::Fixed(0)),
            reveal_on_attack: true,
            unaware_dt: false,
            tactics_passes: 1,
            multi_action_declared: true,
            negative_tactics_split: false,
            incapacitated_roll: false,
            declare_passes: 1,
            sunder_with_attack: false,
            block_always_reduces: false,
            weight_sizes: [2, 3, 4],
            attack_size_first: false,
            stress_max_sheet: false,
            stress_zero_gate: false,
            dead_bodies_kept: false,
            defense_per_round: false,
            dice_per_combatant: false,
        }
    }
}

/// Every option this ruleset reads: name, default, alternatives, clauses.
pub const OPTIONS: &[OptionInfo] = &[
    OptionInfo::new(
        "check_direction",
        "roll_high",
        "roll_under",
        "FLUID-DICE-1, FLUID-DICE-4, FLUID-DICE-9, FLUID-GEAR-4, FLUID-INIT-3, FLUID-SUNDER-13",
        "Whether a check succeeds by rolling high (total ≥ TN) or by the mirrored roll-under reading.",
    ),
    OptionInfo::new(
        "crit_ladder",
        "step5",
        "shift9, none",
        "FLUID-DICE-5, FLUID-DICE-6, FLUID-DICE-9",
        "How natural 16–18 and 3–5 on 3d6 become bigger or smaller effective rolls (step5, shift9) or stay as rolled.",
    ),
    OptionInfo::new(
        "crit_auto",
        "false",
        "true",
        "FLUID-DICE-6",
        "Whether a crit always succeeds and a blunder always fails.",
    ),
    OptionInfo::new(
        "edge_mode",
        "keep_best",
        "extra_die, flat",
        "FLUID-DICE-7, FLUID-DICE-9, FLUID-DICE-10",
        "How Superior and Inferior work: roll extra dice and keep the best or worst three, add an extra die, or ±3 per level.",
    ),
    OptionInfo::new(
        "edge_cap",
        "3",
        "any integer ≥ 1",
        "FLUID-DICE-8",
        "The most Superior or Inferior levels one check can have, after netting them.",
    ),
    OptionInfo::new(
        "normal_split",
        "ot_floor",
        "ot_ceil",
        "FLUID-TAC-4",
        "How the normal stance splits an odd Tactics value: the extra point to defence (ot_floor) or attack.",
    ),
    OptionInfo::new(
        "multi_action_penalty",
        "n_if_multiple",
        "n_minus_one, n_always",
        "FLUID-ACT-4",
        "The penalty for declaring N check actions in a round: −N when N ≥ 2, −(N − 1), or −N always.",
    ),
    OptionInfo::new(
        "max_attacks",
        "rank_plus_one",
        "unlimited",
        "FLUID-ACT-7",
        "Whether attacks per round with one skill are limited to its rank + 1, or unlimited.",
    ),
    OptionInfo::new(
        "untrained_penalty",
        "-3",
        "an integer from -100 to 0",
        "FLUID-ACT-11",
        "The penalty for using a skill the combatant does not have.",
    ),
    OptionInfo::new(
        "side_out_when",
        "incapacitated",
        "dead",
        "FLUID-ROUND-4",
        "When a combatant no longer counts for its side: incapacitated (dying, unconscious, stunned) or only dead.",
    ),
    OptionInfo::new(
        "initiative_tie",
        "tactics_fin_roll",
        "roll, roster",
        "FLUID-INIT-4",
        "How tied initiative is broken: Tactics, then FIN, then a roll; a roll only; or roster order.",
    ),
    OptionInfo::new(
        "cp_threshold",
        "min10_pc",
        "fixed10",
        "FLUID-TRACK-2",
        "The damage level below which condition penalties start: 10 or the PC if lower (min10_pc), or always 10.",
    ),
    OptionInfo::new(
        "cp_combine",
        "sum",
        "worst",
        "FLUID-TRACK-2",
        "Whether the condition penalties from wounds and stress add up, or only the worse counts.",
    ),
    OptionInfo::new(
        "armor_size_test",
        "not_larger",
        "smaller",
        "FLUID-ARM-2, FLUID-ARM-3",
        "Whether armour reduces damage from weapons not larger than it, or only from smaller ones.",
    ),
    OptionInfo::new(
        "armor_spill",
        "true",
        "false",
        "FLUID-ARM-2",
        "Whether armour left over after reducing wound damage also reduces stress damage.",
    ),
    OptionInfo::new(
        "reach_m",
        "2",
        "a distance in metres",
        "FLUID-MOVE-10, FLUID-MOVE-11",
        "Melee reach and point-blank range, in metres.",
    ),
    OptionInfo::new(
        "initiative_cp",
        "false",
        "true",
        "FLUID-INIT-3",
        "Whether condition penalties also lower initiative.",
    ),
    OptionInfo::new(
        "full_defense_duration",
        "round",
        "until_next_step",
        "FLUID-ACT-10",
        "How long Full Defense lasts: to the end of the round, or to the defender's next step.",
    ),
    OptionInfo::new(
        "counter_bonus",
        "largest",
        "last",
        "FLUID-ATK-8",
        "Which parried attack gives the counter-attack bonus: the largest failure, or the last.",
    ),
    OptionInfo::new(
        "unarmed_defense_fail",
        "extra_stress",
        "convert",
        "FLUID-DEF-8",
        "What a failed unarmed parry or block does: extra stress damage, or the wound damage becomes stress.",
    ),
    OptionInfo::new(
        "dying_defends",
        "when_acting",
        "never",
        "FLUID-DEF-13",
        "Whether a dying combatant that passed its test this round defends, or never.",
    ),
    OptionInfo::new(
        "cp_on_defense",
        "false",
        "true",
        "FLUID-TRACK-3",
        "Whether condition penalties also lower the combatant's defences.",
    ),
    OptionInfo::new(
        "dying_midround",
        "test_at_step",
        "lose_round",
        "FLUID-TRACK-12",
        "What happens to someone who starts dying mid-round: a test at its step, or it loses the round.",
    ),
    OptionInfo::new(
        "sunder_checks",
        "true",
        "false",
        "FLUID-SUNDER-1 … FLUID-SUNDER-13",
        "Whether weapons, shields and armour can be damaged (sundered) in use.",
    ),
    OptionInfo::new(
        "sunder_on_parry",
        "false",
        "true",
        "FLUID-SUNDER-2",
        "Whether a parry, like a block, can sunder the items involved.",
    ),
    OptionInfo::new(
        "sunder_weapon_on_armor",
        "false",
        "true",
        "FLUID-SUNDER-8",
        "Whether hitting tougher armour can damage the attacking weapon.",
    ),
    OptionInfo::new(
        "armor_sunder_trigger",
        "hit",
        "wound, damage",
        "FLUID-SUNDER-10",
        "What makes armour test for damage: any hit, a wound, or any damage.",
    ),
    OptionInfo::new(
        "ammo_tracking",
        "true",
        "false",
        "FLUID-GEAR-4, FLUID-SPECIAL-3",
        "Whether ammunition is counted (a high natural uses a count; at 0 the weapon cannot fire).",
    ),
    OptionInfo::new(
        "spray_counts",
        "once",
        "per_shot",
        "FLUID-SPECIAL-9",
        "Whether a whole spray counts as one action and one attack, or each shot does.",
    ),
    OptionInfo::new(
        "pump_burst",
        "false",
        "true",
        "FLUID-SPECIAL-10",
        "Whether pump-action weapons may fire 2-round bursts.",
    ),
    OptionInfo::new(
        "burst_cap_scope",
        "per_attack",
        "per_round",
        "FLUID-SPECIAL-11",
        "Whether a weapon's maximum burst limits each attack, or all its shots in a round.",
    ),
    OptionInfo::new(
        "movement_timing",
        "simultaneous",
        "own_step",
        "FLUID-MOVE-8, FLUID-MOVE-11, FLUID-DICE-10",
        "Whether declared movement happens all at once at the start of resolution, or at each mover's step.",
    ),
    OptionInfo::new(
        "approach_gap",
        "1",
        "metres, up to reach_m",
        "FLUID-MOVE-11",
        "How far short of its target, in metres, a move towards a combatant stops.",
    ),
    OptionInfo::new(
        "melee_run_penalty",
        "none",
        "half_multiplier, multiplier",
        "FLUID-MOVE-6",
        "The extra melee penalty after running: none, half the run's multiplier, or the multiplier.",
    ),
    OptionInfo::new(
        "charge_walk",
        "false",
        "true",
        "FLUID-MOVE-7",
        "Whether a straight walk of 4 m or more also gives a charge bonus.",
    ),
    OptionInfo::new(
        "charge_timing",
        "before_armor",
        "after_armor",
        "FLUID-DMG-5",
        "Whether the charge bonus is added before armour or after it.",
    ),
    OptionInfo::new(
        "range_bands",
        "[2, 4, 10, 25, 50, 100]",
        "six increasing distances in metres",
        "FLUID-MOVE-9, FLUID-SPECIAL-2",
        "The upper limits of the range bands Nearby to Extreme, in metres.",
    ),
    OptionInfo::new(
        "flank_bonus",
        "0",
        "an integer k ≥ 0",
        "FLUID-ATK-9",
        "The bonus to a melee attack on a target flanked by the attacker's side (0: none).",
    ),
    OptionInfo::new(
        "area_defense",
        "dodge_or_shield",
        "dodge_only, none",
        "FLUID-SPECIAL-3",
        "Which defences work against area attacks: dodge or a shield block, dodge only, or none.",
    ),
    OptionInfo::new(
        "blast_point",
        "anywhere",
        "on_combatant",
        "FLUID-SPECIAL-4",
        "Whether an area attack may be centred anywhere, or only on a combatant.",
    ),
    OptionInfo::new(
        "skill_values",
        "exclude_item",
        "include_item",
        "FLUID-ATK-5",
        "Whether a scenario's skill values exclude the item's quality (added in play) or already include it.",
    ),
    OptionInfo::new(
        "hidden_reveal",
        "on_attack",
        "scripted",
        "FLUID-ROUND-5, FLUID-ATK-10",
        "When a hidden combatant is revealed: at its first attack, or only by the scenario's script.",
    ),
    OptionInfo::new(
        "unaware_dt",
        "false",
        "true",
        "FLUID-ATK-10",
        "Whether a target unaware of its attacker still adds its defensive Tactics.",
    ),
    OptionInfo::new(
        "tactics_passes",
        "1",
        "any integer 0 to 8",
        "FLUID-TAC-3",
        "How many rounds of revising the tactics split follow the first choice.",
    ),
    OptionInfo::new(
        "multi_action_count",
        "declared",
        "current_plan",
        "FLUID-ACT-5",
        "Whether the multi-action penalty counts the actions declared, or the plan as it stands at each check.",
    ),
    OptionInfo::new(
        "negative_tactics",
        "zero_split",
        "split",
        "FLUID-TAC-5",
        "Whether a negative Tactics value gives no split, or is split into negative attack and defence parts.",
    ),
    OptionInfo::new(
        "incapacitated_initiative",
        "skip",
        "roll",
        "FLUID-INIT-7",
        "Whether incapacitated combatants skip the initiative roll, or roll anyway.",
    ),
    OptionInfo::new(
        "declare_passes",
        "1",
        "any integer 0 to 8",
        "FLUID-ACT-1",
        "How many rounds of revising declarations follow the first.",
    ),
    OptionInfo::new(
        "sunder_declare",
        "after_defense",
        "with_attack",
        "FLUID-ATK-11, FLUID-SUNDER-7",
        "When an attacker chooses to sunder: after seeing the block, or with the attack.",
    ),
    OptionInfo::new(
        "block_absorb",
        "with_armor",
        "always_reduce",
        "FLUID-ARM-4",
        "Whether a block's absorption follows the armour's size test, or always reduces wound damage.",
    ),
    OptionInfo::new(
        "weight_sizes",
        "{ light = 2, medium = 3, heavy = 4 }",
        "any sizes 0 to 5",
        "FLUID-SIZE-1",
        "The sizes the words light, medium and heavy stand for in a scenario.",
    ),
    OptionInfo::new(
        "attack_size",
        "smallest",
        "first",
        "FLUID-SIZE-3",
        "Which of a weapon's sizes counts when it attacks: its smallest, or its first.",
    ),
    OptionInfo::new(
        "stress_max",
        "pc",
        "sheet",
        "FLUID-TRACK-1, FLUID-TRACK-2",
        "Whether stress starts at and is capped by the PC, or by the sheet's s_max.",
    ),
    OptionInfo::new(
        "stress_zero",
        "unconscious",
        "stunned_gate",
        "FLUID-TRACK-9",
        "What zero stress does: unconscious, or a test each round to act, like dying.",
    ),
    OptionInfo::new(
        "dead_bodies",
        "removed",
        "kept",
        "FLUID-TRACK-11",
        "Whether the dead are removed from play, or stay where they fell as targets.",
    ),
    OptionInfo::new(
        "defense_choice",
        "per_attack",
        "per_round",
        "FLUID-DEF-4",
        "Whether the defender picks a defence for each attack, or one for the whole round.",
    ),
    OptionInfo::new(
        "dice_stream",
        "single",
        "per_combatant",
        "FLUID-DICE-10",
        "Whether all dice come from one stream, or each combatant has its own (its rolls stay the same when others change).",
    ),
    OptionInfo::new(
        "unarmed_damage",
        "{ w = 0, s = 0 }",
        "any damage, constant or dice: { s = \"1d3\" }",
        "FLUID-GEAR-5",
        "The damage of an unarmed blow, e.g. { s = \"1d3\" }.",
    ),
];

impl Options {
    /// Sets one option from its text value; the error says what was expected.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        use crate::option_value::pick;
        let boolean = [("true", true), ("false", false)];
        let int = |value: &str| value.parse::<i32>().map_err(|_| format!("expected an integer, found `{value}`"));
        match name {
            "check_direction" => {
                self.check_direction =
                    pick(value, &[("roll_high", CheckDirection::RollHigh), ("roll_under", CheckDirection::RollUnder)])?
            }
            "crit_ladder" => {
                self.crit_ladder = pick(
                    value,
                    &[("step5", CritLadder::Step5), ("shift9", CritLadder::Shift9), ("none", CritLadder::None)],
                )?
            }
            "crit_auto" => self.crit_auto = pick(value, &boolean)?,
            "edge_mode" => {
                self.edge_mode = pick(
                    value,
                    &[("keep_best", EdgeMode::KeepBest), ("extra_die", EdgeMode::ExtraDie), ("flat", EdgeMode::Flat)],
                )?
            }
            "edge_cap" => {
                let cap = int(value)?;
                if cap < 1 {
                    return Err(format!("expected an integer 1 or more, found {cap}"));
                }
                self.edge_cap = cap;
            }
            "normal_split" => {
                self.normal_split =
                    pick(value, &[("ot_floor", NormalSplit::OtFloor), ("ot_ceil", NormalSplit::OtCeil)])?
            }
            "multi_action_penalty" => {
                self.multi_action_penalty = pick(
                    value,
                    &[
                        ("n_if_multiple", MultiActionPenalty::NIfMultiple),
                        ("n_minus_one", MultiActionPenalty::NMinusOne),
                        ("n_always", MultiActionPenalty::NAlways),
                    ],
                )?
            }
            "max_attacks" => {
                self.max_attacks_rank_plus_one = pick(value, &[("rank_plus_one", true), ("unlimited", false)])?
            }
            "untrained_penalty" => {
                let penalty = int(value)?;
                if !(-100..=0).contains(&penalty) {
                    return Err(format!("expected a penalty from -100 to 0, found {penalty}"));
                }
                self.untrained_penalty = penalty;
            }
            "side_out_when" => {
                self.side_out_when =
                    pick(value, &[("incapacitated", SideOutWhen::Incapacitated), ("dead", SideOutWhen::Dead)])?
            }
            "initiative_tie" => {
                self.initiative_tie = pick(
                    value,
                    &[
                        ("tactics_fin_roll", InitiativeTie::TacticsFinRoll),
                        ("roll", InitiativeTie::Roll),
                        ("roster", InitiativeTie::Roster),
                    ],
                )?
            }
            "cp_threshold" => self.cp_threshold_min10_pc = pick(value, &[("min10_pc", true), ("fixed10", false)])?,
            "cp_combine" => self.cp_combine_sum = pick(value, &[("sum", true), ("worst", false)])?,
            "armor_size_test" => {
                self.armor_size_test =
                    pick(value, &[("not_larger", ArmorSizeTest::NotLarger), ("smaller", ArmorSizeTest::Smaller)])?
            }
            "armor_spill" => self.armor_spill = pick(value, &boolean)?,
            "reach_m" => {
                let reach: f64 =
                    value.parse().map_err(|_| format!("expected a distance in metres, found `{value}`"))?;
                if !(reach.is_finite() && reach >= 0.0) {
                    return Err(format!("expected a distance of 0 or more metres, found {value}"));
                }
                self.reach_m = reach;
            }
            "initiative_cp" => self.initiative_cp = pick(value, &boolean)?,
            "full_defense_duration" => {
                self.full_defense_round = pick(value, &[("round", true), ("until_next_step", false)])?
            }
            "counter_bonus" => self.counter_largest = pick(value, &[("largest", true), ("last", false)])?,
            "unarmed_defense_fail" => {
                self.unarmed_fail_extra_stress = pick(value, &[("extra_stress", true), ("convert", false)])?
            }
            "dying_defends" => {
                self.dying_defends_when_acting = pick(value, &[("when_acting", true), ("never", false)])?
            }
            "cp_on_defense" => self.cp_on_defense = pick(value, &boolean)?,
            "dying_midround" => {
                self.dying_midround_test = pick(value, &[("test_at_step", true), ("lose_round", false)])?
            }
            "sunder_checks" => self.sunder_checks = pick(value, &boolean)?,
            "sunder_on_parry" => self.sunder_on_parry = pick(value, &boolean)?,
            "sunder_weapon_on_armor" => self.sunder_weapon_on_armor = pick(value, &boolean)?,
            "armor_sunder_trigger" => {
                self.armor_sunder_trigger = pick(
                    value,
                    &[
                        ("hit", ArmorSunderTrigger::Hit),
                        ("wound", ArmorSunderTrigger::Wound),
                        ("damage", ArmorSunderTrigger::Damage),
                    ],
                )?
            }
            "ammo_tracking" => self.ammo_tracking = pick(value, &boolean)?,
            "spray_counts" => self.spray_counts_once = pick(value, &[("once", true), ("per_shot", false)])?,
            "pump_burst" => self.pump_burst = pick(value, &boolean)?,
            "burst_cap_scope" => {
                self.burst_cap_per_attack = pick(value, &[("per_attack", true), ("per_round", false)])?
            }
            "movement_timing" => {
                self.movement_simultaneous = pick(value, &[("simultaneous", true), ("own_step", false)])?
            }
            "approach_gap" => {
                let gap: f64 = value.parse().map_err(|_| format!("expected metres, found `{value}`"))?;
                if !(gap.is_finite() && gap >= 0.0) {
                    return Err(format!("expected 0 or more metres, found {value}"));
                }
                self.approach_gap = gap;
            }
            "melee_run_penalty" => {
                self.melee_run_penalty = pick(
                    value,
                    &[
                        ("none", MeleeRunPenalty::None),
                        ("half_multiplier", MeleeRunPenalty::HalfMultiplier),
                        ("multiplier", MeleeRunPenalty::Multiplier),
                    ],
                )?
            }
            "charge_walk" => self.charge_walk = pick(value, &boolean)?,
            "charge_timing" => {
                self.charge_before_armor = pick(value, &[("before_armor", true), ("after_armor", false)])?
            }
            "range_bands" => {
                let list: Vec<f64> = value
                    .trim_matches(|c| c == '[' || c == ']')
                    .split(',')
                    .map(|x| x.trim().parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| format!("expected six distances in metres, found `{value}`"))?;
                let increasing = list.windows(2).all(|w| w[0] < w[1]) && list.first().is_some_and(|x| *x > 0.0);
                if list.len() != 6 || !increasing {
                    return Err(format!("expected six increasing distances in metres, found `{value}`"));
                }
                self.range_bands.copy_from_slice(&list);
            }
            "flank_bonus" => {
                let k = int(value)?;
                if k < 0 {
                    return Err(format!("expected 0 or more, found {k}"));
                }
                self.flank_bonus = k;
            }
            "area_defense" => {
                self.area_defense = pick(
                    value,
                    &[
                        ("dodge_or_shield", AreaDefense::DodgeOrShield),
                        ("dodge_only", AreaDefense::DodgeOnly),
                        ("none", AreaDefense::None),
                    ],
                )?
            }
            "blast_point" => self.blast_on_combatant = pick(value, &[("anywhere", false), ("on_combatant", true)])?,
            "skill_values" => {
                self.skill_values_exclude_item = pick(value, &[("exclude_item", true), ("include_item", false)])?
            }
            "unarmed_damage" => self.unarmed_damage = parse_damage(value)?,
            "negative_tactics" => self.negative_tactics_split = pick(value, &[("zero_split", false), ("split", true)])?,
            "incapacitated_initiative" => self.incapacitated_roll = pick(value, &[("skip", false), ("roll", true)])?,
            "declare_passes" => {
                let passes = int(value)?;
                if !(0..=8).contains(&passes) {
                    return Err(format!("expected 0 to 8 passes, found {passes}"));
                }
                self.declare_passes = passes as u32;
            }
            "sunder_declare" => {
                self.sunder_with_attack = pick(value, &[("after_defense", false), ("with_attack", true)])?
            }
            "block_absorb" => {
                self.block_always_reduces = pick(value, &[("with_armor", false), ("always_reduce", true)])?
            }
            "weight_sizes" => {
                let doc: toml::Table = toml::from_str(&format!("w = {value}"))
                    .map_err(|e| format!("expected {{ light = …, medium = …, heavy = … }}: {}", e.message()))?;
                let Some(toml::Value::Table(table)) = doc.get("w") else {
                    return Err(format!("expected {{ light = …, medium = …, heavy = … }}, found `{value}`"));
                };
                for (i, word) in ["light", "medium", "heavy"].into_iter().enumerate() {
                    match table.get(word) {
                        Some(toml::Value::Integer(n)) if (0..=5).contains(n) => self.weight_sizes[i] = *n as i32,
                        None => {}
                        Some(other) => return Err(format!("{word}: expected a size 0 to 5, found {other}")),
                    }
                }
                if let Some(key) = table.keys().find(|k| !["light", "medium", "heavy"].contains(&k.as_str())) {
                    return Err(format!("unknown word `{key}`, expected light, medium or heavy"));
                }
            }
            "attack_size" => self.attack_size_first = pick(value, &[("smallest", false), ("first", true)])?,
            "stress_max" => self.stress_max_sheet = pick(value, &[("pc", false), ("sheet", true)])?,
            "stress_zero" => self.stress_zero_gate = pick(value, &[("unconscious", false), ("stunned_gate", true)])?,
            "defense_choice" => self.defense_per_round = pick(value, &[("per_attack", false), ("per_round", true)])?,
            "dice_stream" => self.dice_per_combatant = pick(value, &[("single", false), ("per_combatant", true)])?,
            "dead_bodies" => self.dead_bodies_kept = pick(value, &[("removed", false), ("kept", true)])?,
            "multi_action_count" => {
                self.multi_action_declared = pick(value, &[("declared", true), ("current_plan", false)])?
            }
            "hidden_reveal" => self.reveal_on_attack = pick(value, &[("on_attack", true), ("scripted", false)])?,
            "unaware_dt" => self.unaware_dt = pick(value, &boolean)?,
            "tactics_passes" => {
                let passes = int(value)?;
                if !(0..=8).contains(&passes) {
                    return Err(format!("expected 0 to 8 passes, found {passes}"));
                }
                self.tactics_passes = passes as u32;
            }
            _ => return Err(crate::unknown_option(name, OPTIONS)),
        }
        Ok(())
    }
}

/// A damage value `{ w = …, s = … }`, each a number or dice, as TOML.
fn parse_damage(value: &str) -> Result<(super::setup::Amount, super::setup::Amount), String> {
    use super::setup::Amount;
    let doc: toml::Table = toml::from_str(&format!("damage = {value}"))
        .map_err(|e| format!("expected {{ w = …, s = … }}: {}", e.message()))?;
    let Some(toml::Value::Table(table)) = doc.get("damage") else {
        return Err(format!("expected {{ w = …, s = … }}, found `{value}`"));
    };
    let amount = |key: &str| -> Result<Amount, String> {
        match table.get(key) {
            None => Ok(Amount::Fixed(0)),
            Some(toml::Value::Integer(n)) => Ok(Amount::Fixed(*n as i32)),
            Some(toml::Value::String(dice)) => {
                fray_dice::Program::parse(dice).map(Amount::Dice).map_err(|e| format!("{key}: {}", e.kind()))
            }
            Some(other) => Err(format!("{key}: expected a number or dice, found {other}")),
        }
    };
    if let Some(key) = table.keys().find(|k| *k != "w" && *k != "s") {
        return Err(format!("unknown damage key `{key}`, expected w or s"));
    }
    Ok((amount("w")?, amount("s")?))
}
