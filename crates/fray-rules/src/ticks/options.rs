//! The `ticks` options: every DEFAULT and OPTION of the catalogue (the draft's invented
//! placeholders among them), with its alternatives and the clauses it affects.

use crate::OptionInfo;

/// Every option, as `fray rules ticks` lists it.
pub const OPTIONS: &[OptionInfo] = &[
    OptionInfo::new(
        "delta_die",
        "d20",
        "2d10, 3d6",
        "TICK-DICE-2, TICK-DEF-7",
        "The die each side rolls in an opposed roll: d20, or the bell curves 2d10 or 3d6.",
    ),
    OptionInfo::new(
        "delta_tie",
        "defender",
        "reroll",
        "TICK-DICE-3",
        "Whether a tied opposed roll goes to the defender or is rerolled.",
    ),
    OptionInfo::new(
        "skill_model",
        "shoot_melee_evade",
        "single_skill",
        "TICK-DICE-4",
        "Whether combatants have separate shoot, melee and evade skills, or one skill for everything.",
    ),
    OptionInfo::new(
        "default_skill",
        "5",
        "an integer from 0 to 15",
        "TICK-DICE-4",
        "The skill of a combatant who does not give one.",
    ),
    OptionInfo::new(
        "rounding",
        "floor",
        "nearest",
        "TICK-DICE-5",
        "Whether halves and fractions round down or to the nearest.",
    ),
    OptionInfo::new(
        "simultaneity",
        "end_of_tick",
        "immediate",
        "TICK-TIME-4, TICK-TIME-13",
        "Whether damage and effort from a tick apply at its end (everyone acts on the tick's start values) or at once.",
    ),
    OptionInfo::new(
        "announce_order",
        "random",
        "roster",
        "TICK-TIME-6",
        "The order in which combatants announce their actions each tick: random (seeded) or the roster's.",
    ),
    OptionInfo::new(
        "same_tick_reactions",
        "basic",
        "none",
        "TICK-TIME-7, TICK-TIME-12",
        "Whether a reaction strike or a follow may answer a move in the same tick (basic) or not at all.",
    ),
    OptionInfo::new(
        "defence_costs_action",
        "false",
        "true",
        "TICK-TIME-9",
        "Whether defending uses up the defender's action for the tick.",
    ),
    OptionInfo::new(
        "tick_order",
        "standard",
        "moves_last",
        "TICK-TIME-10",
        "The order of a tick's resolution steps: the standard one, or moves last.",
    ),
    OptionInfo::new(
        "firearm_initiative",
        "off",
        "low_stability_first",
        "TICK-TIME-11, TICK-TIME-13",
        "Whether shots in a tick resolve by lowest stability penalty first (guns keep a kind of initiative) or together.",
    ),
    OptionInfo::new(
        "lower_gun_cost",
        "free",
        "action",
        "TICK-TIME-12",
        "Whether lowering a gun is free or takes the tick's action.",
    ),
    OptionInfo::new(
        "resolve_order",
        "announcement",
        "roster",
        "TICK-TIME-13, TICK-TIME-4",
        "The order actions within one step of a tick resolve in: announcement or roster order.",
    ),
    OptionInfo::new("square_m", "1", "any number of metres", "TICK-MOVE-2", "The size of a map square, in metres."),
    OptionInfo::new(
        "running_shot_penalty",
        "10",
        "an integer from 0 to 100",
        "TICK-MOVE-4",
        "The penalty to a shot fired while running.",
    ),
    OptionInfo::new(
        "running_melee",
        "forbidden",
        "penalty",
        "TICK-MOVE-4",
        "Whether a runner may not attack in melee, or may at the running penalty.",
    ),
    OptionInfo::new(
        "square_occupancy",
        "exclusive",
        "shared",
        "TICK-MOVE-5",
        "Whether a square holds one character (exclusive) or several.",
    ),
    OptionInfo::new("follow_squares", "1", "2", "TICK-MOVE-6, TICK-TIME-7", "How many squares a follow may move."),
    OptionInfo::new(
        "cover_pen_source",
        "base",
        "with_weak_point",
        "TICK-COVER-7",
        "Whether weak-point aim's penetration bonus counts when a shot meets cover.",
    ),
    OptionInfo::new(
        "cover_vs_melee",
        "false",
        "true",
        "TICK-COVER-8",
        "Whether cover also counts against melee attacks.",
    ),
    OptionInfo::new(
        "slowed_threshold",
        "full_bonus",
        "halved_bonus",
        "TICK-COVER-6, TICK-COVER-9",
        "Which cover bonus a winning shot must beat to pass through cover slowed: the full or the halved one.",
    ),
    OptionInfo::new(
        "cover_model",
        "square",
        "fixed",
        "TICK-COVER-10, TICK-DEF-3",
        "Whether cover belongs to map squares (and is kept by moving into them) or is fixed per combatant.",
    ),
    OptionInfo::new(
        "cover_effort_base",
        "15",
        "10",
        "TICK-DEF-1, TICK-DEF-3",
        "The effort a defender in cover spends to avoid a shot, before subtracting its margin.",
    ),
    OptionInfo::new(
        "dodge_effort_base",
        "20",
        "an integer from 0 to 100",
        "TICK-DEF-2",
        "The effort a defender with no cover nearby spends to dodge a shot, before subtracting its margin.",
    ),
    OptionInfo::new(
        "dive_range_m",
        "3",
        "any number; 0 disables",
        "TICK-DEF-3",
        "How far, in metres, a defender may dive to reach cover (0: no diving).",
    ),
    OptionInfo::new(
        "effort_on_loss",
        "base",
        "zero",
        "TICK-DEF-4",
        "What a defender who loses the roll still spends in effort: the full base, or nothing.",
    ),
    OptionInfo::new(
        "effort_shortfall",
        "graze",
        "ignore",
        "TICK-DEF-5",
        "What happens when a defender lacks the effort to avoid a shot it beat: a graze, or nothing.",
    ),
    OptionInfo::new(
        "effort_stability_scope",
        "all_defence",
        "aiming_only",
        "TICK-DEF-6",
        "Whether every point of effort spent defending raises the stability penalty, or only while aiming.",
    ),
    OptionInfo::new(
        "effort_tally",
        "running",
        "start_of_tick",
        "TICK-DEF-5, TICK-DEF-8",
        "Whether several defences in a tick draw on the effort left after each (running) or on the tick's start.",
    ),
    OptionInfo::new(
        "graze_source",
        "weapon_damage",
        "fixed",
        "TICK-DMG-2",
        "Where a weapon's graze (damage on a bare win) comes from: its damage value, or a fixed number.",
    ),
    OptionInfo::new(
        "graze_fixed",
        "2",
        "an integer from 0 to 100",
        "TICK-DMG-2",
        "The graze of every weapon under graze_source = fixed.",
    ),
    OptionInfo::new(
        "hit_locations",
        "d10_standard",
        "torso_only",
        "TICK-DMG-4",
        "Whether hits land on a d10 location (head, torso, arms, legs) or always on the torso.",
    ),
    OptionInfo::new(
        "limb_halving_scope",
        "body_hit",
        "all",
        "TICK-DMG-5",
        "Whether halving damage to a limb applies only to damage reaching the body, or to all of it.",
    ),
    OptionInfo::new(
        "wound_threshold",
        "1/4",
        "any fraction of Body max",
        "TICK-DMG-6",
        "The share of Body max one hit must cost to inflict a wound.",
    ),
    OptionInfo::new(
        "wound_penalty",
        "2",
        "an integer from 0 to 100",
        "TICK-DMG-7",
        "The penalty per wound to all of that character's rolls.",
    ),
    OptionInfo::new(
        "soft_block_wound_chance",
        "1/10",
        "any probability",
        "TICK-ARM-4",
        "The chance that a shot stopped by soft armour still wounds.",
    ),
    OptionInfo::new(
        "hard_block_wound_chance",
        "0",
        "any probability",
        "TICK-ARM-5",
        "The chance that a shot stopped by hard armour still wounds.",
    ),
    OptionInfo::new(
        "soft_penetrated",
        "full",
        "pierce_delta",
        "TICK-ARM-7",
        "Whether a shot through soft armour does full damage or is reduced as through hard armour.",
    ),
    OptionInfo::new(
        "armour_encumbrance",
        "ignored",
        "stability",
        "TICK-ARM-8",
        "Whether heavy armour adds to the wearer's stability costs, or has no effect.",
    ),
    OptionInfo::new(
        "weak_point_odd_point",
        "damage",
        "penetration",
        "TICK-ARM-9",
        "Where the odd point of a weak-point shot's margin goes: damage or penetration.",
    ),
    OptionInfo::new(
        "weak_point_policy",
        "armour_holds",
        "never, always",
        "TICK-ARM-10",
        "When the AI aims for weak points: when the target's armour would hold, never, or always.",
    ),
    OptionInfo::new(
        "gear_tables",
        "placeholder",
        "custom",
        "TICK-GEAR-3, TICK-GUN-10, TICK-COVER-3",
        "Where gun, ammunition, armour, cover and melee values come from: the built-in tables by id, or the scenario.",
    ),
    OptionInfo::new(
        "snap_shot",
        "allowed",
        "separate_action",
        "TICK-GUN-3",
        "Whether a lowered gun may be readied and fired in one tick (a snap shot), or readying is its own action.",
    ),
    OptionInfo::new(
        "string_penalty_scope",
        "string",
        "tick",
        "TICK-GUN-5",
        "Whether the extra penalty after a firing string comes once per string, or every tick.",
    ),
    OptionInfo::new(
        "deferral_release",
        "third_shot",
        "string_end",
        "TICK-GUN-7",
        "When an assault rifle's held-back recoil penalties apply: after the third shot, or at the string's end.",
    ),
    OptionInfo::new(
        "recoil_rule",
        "strength_gap",
        "off",
        "TICK-GUN-9",
        "Whether a shooter weaker than the gun's minimum strength gains extra stability penalty per shot.",
    ),
    OptionInfo::new(
        "decline_policy",
        "hopeless",
        "never, below_one_third",
        "TICK-GUN-11, TICK-GUN-8",
        "When the AI declines a shot after seeing its roll: only when hopeless, never, or below a third.",
    ),
    OptionInfo::new(
        "default_strength",
        "5",
        "an integer from 1 to 10",
        "TICK-GUN-9",
        "The strength of a combatant who does not give one.",
    ),
    OptionInfo::new(
        "range_mode",
        "sliding",
        "pb_only",
        "TICK-RANGE-2",
        "How range changes a shot: a sliding bonus and penalty with distance, or the point-blank bonus only when adjacent.",
    ),
    OptionInfo::new(
        "aimed_shooting_cap",
        "full",
        "half",
        "TICK-AIM-3",
        "The most an aimed shot (more than 4 ticks of aim) gains: the full range penalty, or half.",
    ),
    OptionInfo::new(
        "aim_spoil",
        "any_attack",
        "shots_only",
        "TICK-AIM-4",
        "What spoils an aim: any attack on the aimer, or only shots.",
    ),
    OptionInfo::new(
        "aim_after_shot",
        "reset",
        "keep",
        "TICK-AIM-5",
        "Whether aiming ends with the shot it served (reset) or carries on to the next shot at the same target.",
    ),
    OptionInfo::new(
        "stability_applies_to",
        "all_rolls",
        "attacks_only",
        "TICK-STAB-1",
        "Whether the stability penalty applies to all of a character's rolls, or only its attacks.",
    ),
    OptionInfo::new(
        "stability_recovery",
        "formula",
        "printed_table",
        "TICK-STAB-3, TICK-STAB-5",
        "How the stability penalty recovers each tick: by the formula, or by the draft's printed table.",
    ),
    OptionInfo::new(
        "recovery_timing",
        "every_tick",
        "skip_cost_tick",
        "TICK-STAB-4",
        "Whether stability recovers every tick, or not in a tick in which it rose.",
    ),
    OptionInfo::new(
        "melee_costs",
        "placeholder",
        "custom",
        "TICK-MELEE-3",
        "Where the stability and effort costs of melee attacks come from: the built-in table, or the scenario.",
    ),
    OptionInfo::new(
        "abort_rounding",
        "ceil",
        "floor",
        "TICK-MELEE-5",
        "Whether the half costs of an aborted attack round up or down.",
    ),
    OptionInfo::new(
        "melee_damage",
        "as_bullet",
        "no_location",
        "TICK-MELEE-6",
        "Whether melee damage goes through hit location and armour like a bullet, or skips the location.",
    ),
    OptionInfo::new(
        "melee_defence_base",
        "10",
        "an integer from 0 to 100",
        "TICK-MELEE-7",
        "The effort a defender spends against a melee attack, before subtracting its margin.",
    ),
    OptionInfo::new(
        "melee_reach_squares",
        "1",
        "an integer from 1 to 10",
        "TICK-MELEE-8",
        "How many squares away a melee attack reaches.",
    ),
    OptionInfo::new(
        "unarmed_nonlethal",
        "true",
        "false",
        "TICK-MELEE-9",
        "Whether unarmed blows cause Trauma instead of Body damage.",
    ),
    OptionInfo::new(
        "abort_decision_seconds",
        "0",
        "any number of seconds",
        "TICK-MELEE-10",
        "Time a player has to decide on an abort at the table (0: no limit).",
    ),
    OptionInfo::new(
        "abort_policy",
        "below_one_third",
        "never, below_half",
        "TICK-MELEE-10",
        "When the AI aborts a melee attack after its roll: below a third chance to win, never, or below a half.",
    ),
    OptionInfo::new(
        "out_of_reach_attack",
        "lost",
        "pay_abort",
        "TICK-MELEE-11, TICK-MELEE-8",
        "What a melee attack on a target that moved away costs: just the action, or the abort costs.",
    ),
    OptionInfo::new(
        "body_max",
        "30",
        "an integer from 1 to 10,000",
        "TICK-TRACK-1, TICK-DMG-6, TICK-TRACK-3",
        "Body max of a combatant who does not give one (at 0 Body it is Down).",
    ),
    OptionInfo::new(
        "effort_max",
        "60",
        "an integer from 0 to 10,000",
        "TICK-TRACK-2",
        "Effort max of a combatant who does not give one.",
    ),
    OptionInfo::new(
        "effort_regen",
        "1",
        "an integer from 0 to 1,000",
        "TICK-TRACK-2",
        "Effort regained in each tick without attacking, defending or running.",
    ),
    OptionInfo::new(
        "trauma_ko",
        "vs_body_max",
        "vs_current_body",
        "TICK-TRACK-3",
        "Whether Trauma knocks out when it reaches Body max or the current Body.",
    ),
    OptionInfo::new(
        "effort_gate",
        "strict",
        "allow",
        "TICK-TRACK-4",
        "Whether an action costing more effort than is left is refused, or goes ahead at 0 effort.",
    ),
    OptionInfo::new(
        "out_targetable",
        "false",
        "true",
        "TICK-TRACK-5",
        "Whether Down and KnockedOut characters may still be targeted.",
    ),
    OptionInfo::new(
        "tick_cap",
        "600",
        "an integer from 1 to 1,000,000",
        "TICK-TRACK-6",
        "The most ticks (half a second each) a fight runs before it ends as a stalemate.",
    ),
];

/// The dice behind a delta roll (TICK-DICE-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaDie {
    /// 1d20.
    D20,
    /// 2d10.
    TwoD10,
    /// 3d6.
    ThreeD6,
}

impl DeltaDie {
    /// The dice as (count, sides).
    pub fn dice(self) -> (u32, u32) {
        match self {
            DeltaDie::D20 => (1, 20),
            DeltaDie::TwoD10 => (2, 10),
            DeltaDie::ThreeD6 => (3, 6),
        }
    }
}

/// A probability as a fraction `num / den` (TICK-ARM-4/5, TICK-DMG-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    /// Numerator.
    pub num: u32,
    /// Denominator (≥ 1).
    pub den: u32,
}

impl Ratio {
    fn parse(value: &str, max_one: bool) -> Result<Ratio, String> {
        let bad = || format!("expected a fraction such as 1/4 or a whole number, found `{value}`");
        let (num, den) = match value.split_once('/') {
            Some((n, d)) => (n.trim().parse::<u32>().map_err(|_| bad())?, d.trim().parse::<u32>().map_err(|_| bad())?),
            None => (value.trim().parse::<u32>().map_err(|_| bad())?, 1),
        };
        if den == 0 || den > 1000 || num > 1000 || (max_one && num > den) {
            return Err(if max_one {
                format!("expected a probability from 0 to 1 (denominator up to 1000), found `{value}`")
            } else {
                bad()
            });
        }
        Ok(Ratio { num, den })
    }
}

/// The `ticks` options. Field comments name the clauses.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// TICK-DICE-2.
    pub delta_die: DeltaDie,
    /// TICK-DICE-3: ties are rerolled instead of going to the defender.
    pub tie_reroll: bool,
    /// TICK-DICE-4: one `combat` skill for every roll.
    pub single_skill: bool,
    /// TICK-DICE-4.
    pub default_skill: i32,
    /// TICK-DICE-5: halves round up.
    pub round_nearest: bool,
    /// TICK-TIME-4: effects apply as soon as each action resolves.
    pub immediate: bool,
    /// TICK-TIME-6: announcements in roster order.
    pub announce_roster: bool,
    /// TICK-TIME-7: reaction strikes and follows allowed.
    pub reactions: bool,
    /// TICK-TIME-9.
    pub defence_costs_action: bool,
    /// TICK-TIME-10: moves complete at the end of the tick.
    pub moves_last: bool,
    /// TICK-TIME-11.
    pub low_stability_first: bool,
    /// TICK-TIME-12: lowering a gun is the tick's announcement.
    pub lower_is_action: bool,
    /// TICK-TIME-13: resolution in roster order.
    pub resolve_roster: bool,
    /// TICK-MOVE-2.
    pub square_m: f64,
    /// TICK-MOVE-4.
    pub running_shot_penalty: i32,
    /// TICK-MOVE-4: melee allowed while running, at the penalty.
    pub running_melee: bool,
    /// TICK-MOVE-5: squares may be shared.
    pub shared_squares: bool,
    /// TICK-MOVE-6.
    pub follow_squares: i32,
    /// TICK-COVER-7: the weak-point bonus counts for slowing.
    pub cover_pen_weak_point: bool,
    /// TICK-COVER-8.
    pub cover_vs_melee: bool,
    /// TICK-COVER-9: the slowing threshold is half the halved bonus, rounded up.
    pub slowed_halved: bool,
    /// TICK-COVER-10: each combatant keeps its stat-block cover, nobody dives.
    pub cover_fixed: bool,
    /// TICK-DEF-1.
    pub cover_effort_base: i32,
    /// TICK-DEF-2.
    pub dodge_effort_base: i32,
    /// TICK-DEF-3.
    pub dive_range_m: f64,
    /// TICK-DEF-4: a losing defender pays nothing.
    pub effort_on_loss_zero: bool,
    /// TICK-DEF-5: a shortfall still avoids the shot.
    pub shortfall_ignore: bool,
    /// TICK-DEF-6: effort turns into p only while aiming.
    pub effort_stability_aiming_only: bool,
    /// TICK-DEF-8: every shortfall test uses the start-of-tick effort.
    pub effort_tally_start: bool,
    /// TICK-DMG-2: every graze is `graze_fixed` and `damage` is the per-delta rate.
    pub graze_fixed_source: bool,
    /// TICK-DMG-2.
    pub graze_fixed: i32,
    /// TICK-DMG-4: every hit on the torso.
    pub torso_only: bool,
    /// TICK-DMG-5: limb halving also for Trauma from a stopped shot.
    pub limb_halving_all: bool,
    /// TICK-DMG-6.
    pub wound_threshold: Ratio,
    /// TICK-DMG-7.
    pub wound_penalty: i32,
    /// TICK-ARM-4.
    pub soft_block_wound: Ratio,
    /// TICK-ARM-5.
    pub hard_block_wound: Ratio,
    /// TICK-ARM-7: penetrated soft armour halves like hard armour.
    pub soft_pierce_delta: bool,
    /// TICK-ARM-8: encumbrance adds to melee and running stability costs.
    pub encumbrance_stability: bool,
    /// TICK-ARM-9: the odd point of delta goes to penetration.
    pub odd_point_penetration: bool,
    /// TICK-ARM-10: 0 armour_holds, 1 never, 2 always.
    pub weak_point_policy: u8,
    /// TICK-GEAR-3: the scenario supplies every gear value.
    pub custom_gear: bool,
    /// TICK-GUN-3: a lowered gun must be readied in an earlier tick.
    pub ready_separate: bool,
    /// TICK-GUN-5: +7 at the end of every tick with a shot or decline.
    pub string_per_tick: bool,
    /// TICK-GUN-7: deferred penalties held until the string closes.
    pub deferral_string_end: bool,
    /// TICK-GUN-9.
    pub recoil: bool,
    /// TICK-GUN-11: 0 hopeless, 1 never, 2 below one third.
    pub decline_policy: u8,
    /// TICK-GUN-9.
    pub default_strength: i32,
    /// TICK-RANGE-2: the PB bonus only against an adjacent target.
    pub pb_only: bool,
    /// TICK-AIM-3: aimed shots keep the point-shooting cap.
    pub aimed_half: bool,
    /// TICK-AIM-4: only shots spoil an aim.
    pub spoil_shots_only: bool,
    /// TICK-AIM-5: the aim survives a shot at the same target.
    pub aim_keep: bool,
    /// TICK-STAB-1: p counts against attack rolls only.
    pub p_attacks_only: bool,
    /// TICK-STAB-5.
    pub printed_table: bool,
    /// TICK-STAB-4: no recovery in a tick in which p rose.
    pub skip_cost_tick: bool,
    /// TICK-MELEE-3: the scenario supplies the attack types.
    pub custom_melee: bool,
    /// TICK-MELEE-5: abort halves round down.
    pub abort_floor: bool,
    /// TICK-MELEE-6: melee hits land on the torso.
    pub melee_no_location: bool,
    /// TICK-MELEE-7.
    pub melee_defence_base: i32,
    /// TICK-MELEE-8.
    pub melee_reach: i32,
    /// TICK-MELEE-9.
    pub unarmed_nonlethal: bool,
    /// TICK-MELEE-10 (the live tracker's limit; 0 = none).
    pub abort_decision_seconds: f64,
    /// TICK-MELEE-10: 0 below one third, 1 never, 2 below half.
    pub abort_policy: u8,
    /// TICK-MELEE-11: an attack out of reach pays the abort costs.
    pub out_of_reach_pays: bool,
    /// TICK-TRACK-1.
    pub body_max: i32,
    /// TICK-TRACK-2.
    pub effort_max: i32,
    /// TICK-TRACK-2.
    pub effort_regen: i32,
    /// TICK-TRACK-3: KnockedOut when Trauma ≥ current Body.
    pub trauma_vs_current: bool,
    /// TICK-TRACK-4: actions may exceed the effort left.
    pub effort_allow: bool,
    /// TICK-TRACK-5.
    pub out_targetable: bool,
    /// TICK-TRACK-6.
    pub tick_cap: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            delta_die: DeltaDie::D20,
            tie_reroll: false,
            single_skill: false,
            default_skill: 5,
            round_nearest: false,
            immediate: false,
            announce_roster: false,
            reactions: true,
            defence_costs_action: false,
            moves_last: false,
            low_stability_first: false,
            lower_is_action: false,
            resolve_roster: false,
            square_m: 1.0,
            running_shot_penalty: 10,
            running_melee: false,
            shared_squares: false,
            follow_squares: 1,
            cover_pen_weak_point: false,
            cover_vs_melee: false,
            slowed_halved: false,
            cover_fixed: false,
            cover_effort_base: 15,
            dodge_effort_base: 20,
            dive_range_m: 3.0,
            effort_on_loss_zero: false,
            shortfall_ignore: false,
            effort_stability_aiming_only: false,
            effort_tally_start: false,
            graze_fixed_source: false,
            graze_fixed: 2,
            torso_only: false,
            limb_halving_all: false,
            wound_threshold: Ratio { num: 1, den: 4 },
            wound_penalty: 2,
            soft_block_wound: Ratio { num: 1, den: 10 },
            hard_block_wound: Ratio { num: 0, den: 1 },
            soft_pierce_delta: false,
            encumbrance_stability: false,
            odd_point_penetration: false,
            weak_point_policy: 0,
            custom_gear: false,
            ready_separate: false,
            string_per_tick: false,
            deferral_string_end: false,
            recoil: true,
            decline_policy: 0,
            default_strength: 5,
            pb_only: false,
            aimed_half: false,
            spoil_shots_only: false,
            aim_keep: false,
            p_attacks_only: false,
            printed_table: false,
            skip_cost_tick: false,
            custom_melee: false,
            abort_floor: false,
            melee_no_location: false,
            melee_defence_base: 10,
            melee_reach: 1,
            unarmed_nonlethal: true,
            abort_decision_seconds: 0.0,
            abort_policy: 0,
            out_of_reach_pays: false,
            body_max: 30,
            effort_max: 60,
            effort_regen: 1,
            trauma_vs_current: false,
            effort_allow: false,
            out_targetable: false,
            tick_cap: 600,
        }
    }
}

impl Options {
    /// Sets one option from its text value; an error names what was expected.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        use crate::option_value::{flag, pick, two};
        let int = |value: &str, min: i32, max: i32| -> Result<i32, String> {
            match value.parse::<i32>() {
                Ok(n) if n >= min && n <= max => Ok(n),
                _ => Err(format!("expected an integer from {min} to {max}, found `{value}`")),
            }
        };
        let number = |value: &str, what: &str| -> Result<f64, String> {
            match value.parse::<f64>() {
                Ok(m) if m.is_finite() && (0.0..=10_000.0).contains(&m) => Ok(m),
                _ => Err(format!("expected a number of {what} from 0 to 10000, found `{value}`")),
            }
        };
        match name {
            "delta_die" => {
                self.delta_die =
                    pick(value, &[("d20", DeltaDie::D20), ("2d10", DeltaDie::TwoD10), ("3d6", DeltaDie::ThreeD6)])?
            }
            "delta_tie" => self.tie_reroll = two(value, "defender", "reroll")?,
            "skill_model" => self.single_skill = two(value, "shoot_melee_evade", "single_skill")?,
            "default_skill" => self.default_skill = int(value, 0, 15)?,
            "rounding" => self.round_nearest = two(value, "floor", "nearest")?,
            "simultaneity" => self.immediate = two(value, "end_of_tick", "immediate")?,
            "announce_order" => self.announce_roster = two(value, "random", "roster")?,
            "same_tick_reactions" => self.reactions = !two(value, "basic", "none")?,
            "defence_costs_action" => self.defence_costs_action = flag(value)?,
            "tick_order" => self.moves_last = two(value, "standard", "moves_last")?,
            "firearm_initiative" => self.low_stability_first = two(value, "off", "low_stability_first")?,
            "lower_gun_cost" => self.lower_is_action = two(value, "free", "action")?,
            "resolve_order" => self.resolve_roster = two(value, "announcement", "roster")?,
            "square_m" => {
                let m = number(value, "metres")?;
                if m <= 0.0 {
                    return Err(format!("expected a square larger than 0 m, found `{value}`"));
                }
                self.square_m = m;
            }
            "running_shot_penalty" => self.running_shot_penalty = int(value, 0, 100)?,
            "running_melee" => self.running_melee = two(value, "forbidden", "penalty")?,
            "square_occupancy" => self.shared_squares = two(value, "exclusive", "shared")?,
            "follow_squares" => self.follow_squares = int(value, 1, 2)?,
            "cover_pen_source" => self.cover_pen_weak_point = two(value, "base", "with_weak_point")?,
            "cover_vs_melee" => self.cover_vs_melee = flag(value)?,
            "slowed_threshold" => self.slowed_halved = two(value, "full_bonus", "halved_bonus")?,
            "cover_model" => self.cover_fixed = two(value, "square", "fixed")?,
            "cover_effort_base" => self.cover_effort_base = int(value, 0, 100)?,
            "dodge_effort_base" => self.dodge_effort_base = int(value, 0, 100)?,
            "dive_range_m" => self.dive_range_m = number(value, "metres")?,
            "effort_on_loss" => self.effort_on_loss_zero = two(value, "base", "zero")?,
            "effort_shortfall" => self.shortfall_ignore = two(value, "graze", "ignore")?,
            "effort_stability_scope" => self.effort_stability_aiming_only = two(value, "all_defence", "aiming_only")?,
            "effort_tally" => self.effort_tally_start = two(value, "running", "start_of_tick")?,
            "graze_source" => self.graze_fixed_source = two(value, "weapon_damage", "fixed")?,
            "graze_fixed" => self.graze_fixed = int(value, 0, 100)?,
            "hit_locations" => self.torso_only = two(value, "d10_standard", "torso_only")?,
            "limb_halving_scope" => self.limb_halving_all = two(value, "body_hit", "all")?,
            "wound_threshold" => self.wound_threshold = Ratio::parse(value, false)?,
            "wound_penalty" => self.wound_penalty = int(value, 0, 100)?,
            "soft_block_wound_chance" => self.soft_block_wound = Ratio::parse(value, true)?,
            "hard_block_wound_chance" => self.hard_block_wound = Ratio::parse(value, true)?,
            "soft_penetrated" => self.soft_pierce_delta = two(value, "full", "pierce_delta")?,
            "armour_encumbrance" => self.encumbrance_stability = two(value, "ignored", "stability")?,
            "weak_point_odd_point" => self.odd_point_penetration = two(value, "damage", "penetration")?,
            "weak_point_policy" => {
                self.weak_point_policy = pick(value, &[("armour_holds", 0), ("never", 1), ("always", 2)])?
            }
            "gear_tables" => self.custom_gear = two(value, "placeholder", "custom")?,
            "snap_shot" => self.ready_separate = two(value, "allowed", "separate_action")?,
            "string_penalty_scope" => self.string_per_tick = two(value, "string", "tick")?,
            "deferral_release" => self.deferral_string_end = two(value, "third_shot", "string_end")?,
            "recoil_rule" => self.recoil = !two(value, "strength_gap", "off")?,
            "decline_policy" => {
                self.decline_policy = pick(value, &[("hopeless", 0), ("never", 1), ("below_one_third", 2)])?
            }
            "default_strength" => self.default_strength = int(value, 1, 10)?,
            "range_mode" => self.pb_only = two(value, "sliding", "pb_only")?,
            "aimed_shooting_cap" => self.aimed_half = two(value, "full", "half")?,
            "aim_spoil" => self.spoil_shots_only = two(value, "any_attack", "shots_only")?,
            "aim_after_shot" => self.aim_keep = two(value, "reset", "keep")?,
            "stability_applies_to" => self.p_attacks_only = two(value, "all_rolls", "attacks_only")?,
            "stability_recovery" => self.printed_table = two(value, "formula", "printed_table")?,
            "recovery_timing" => self.skip_cost_tick = two(value, "every_tick", "skip_cost_tick")?,
            "melee_costs" => self.custom_melee = two(value, "placeholder", "custom")?,
            "abort_rounding" => self.abort_floor = two(value, "ceil", "floor")?,
            "melee_damage" => self.melee_no_location = two(value, "as_bullet", "no_location")?,
            "melee_defence_base" => self.melee_defence_base = int(value, 0, 100)?,
            "melee_reach_squares" => self.melee_reach = int(value, 1, 10)?,
            "unarmed_nonlethal" => self.unarmed_nonlethal = flag(value)?,
            "abort_decision_seconds" => self.abort_decision_seconds = number(value, "seconds")?,
            "abort_policy" => {
                self.abort_policy = pick(value, &[("below_one_third", 0), ("never", 1), ("below_half", 2)])?
            }
            "out_of_reach_attack" => self.out_of_reach_pays = two(value, "lost", "pay_abort")?,
            "body_max" => self.body_max = int(value, 1, 10_000)?,
            "effort_max" => self.effort_max = int(value, 0, 10_000)?,
            "effort_regen" => self.effort_regen = int(value, 0, 1000)?,
            "trauma_ko" => self.trauma_vs_current = two(value, "vs_body_max", "vs_current_body")?,
            "effort_gate" => self.effort_allow = two(value, "strict", "allow")?,
            "out_targetable" => self.out_targetable = flag(value)?,
            "tick_cap" => self.tick_cap = int(value, 1, 1_000_000)? as u32,
            _ => return Err(crate::unknown_option(name, OPTIONS)),
        }
        Ok(())
    }

    /// `x / 2` under TICK-DICE-5 (down, or halves up under `rounding = nearest`).
    pub fn half(&self, x: i32) -> i32 {
        self.div(x, 2)
    }

    /// `x / d` for `x ≥ 0` under TICK-DICE-5.
    pub fn div(&self, x: i32, d: i32) -> i32 {
        if self.round_nearest { (2 * x + d).div_euclid(2 * d) } else { x.div_euclid(d) }
    }
}
