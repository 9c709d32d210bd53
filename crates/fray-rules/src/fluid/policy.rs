//! Named AI policies for every `fluid` choice this ruleset asks for so far, chosen per combatant
//! in the scenario (`policy = { tactics = "aggressive", … }`), and a scripted decider for tests.

use super::setup::ItemKind;
use super::setup::Setup;
use super::{Choice, DeclaredAttack, Destination, Fluid, Intent, List, MoveMode, Movement, Plan, Request, State};
use fray_engine::{CombatantId, Decider, Pending};
use std::collections::VecDeque;

/// Names accepted for each policy field, the first being the default.
pub const POLICIES: &[(&str, &[&str])] = &[
    ("tactics", &["normal", "aggressive", "defensive", "answer"]),
    ("target", &["nearest", "weakest", "first"]),
    ("intent", &["lethal", "stunning"]),
    ("attacks", &["one", "max", "full_defense"]),
    ("pain", &["expected", "always", "never"]),
    ("sunder", &["never", "superior"]),
    ("fire", &["single", "burst", "spray"]),
    ("move", &["close", "hold"]),
    ("area", &["never", "safe"]),
    ("brawl", &["never", "when_unarmed"]),
    ("heal", &["allies", "never"]),
    ("shield", &["never", "allies"]),
];

crate::policy_values!(pub(super) POLICIES;
    TACTICS_ANSWER = 0 "answer",
    TARGET_WEAKEST = 1 "weakest",
    TARGET_FIRST = 1 "first",
    INTENT_STUNNING = 2 "stunning",
    ATTACKS_MAX = 3 "max",
    ATTACKS_FULL_DEFENSE = 3 "full_defense",
    PAIN_ALWAYS = 4 "always",
    PAIN_NEVER = 4 "never",
    SUNDER_SUPERIOR = 5 "superior",
    FIRE_BURST = 6 "burst",
    FIRE_SPRAY = 6 "spray",
    MOVE_CLOSE = 7 "close",
    AREA_SAFE = 8 "safe",
    BRAWL_WHEN_UNARMED = 9 "when_unarmed",
    HEAL_ALLIES = 10 "allies",
    SHIELD_ALLIES = 11 "allies",
);

/// The AI: answers every request from the combatant's named policies.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai;

impl Decider<Fluid> for Ai {
    const CHECKED: bool = false;

    // Inlined into every request, whose kind is then known: only its own arm is left.
    #[inline(always)]
    fn decide(&mut self, setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Result<Choice, Pending> {
        Ok(ai_choice(setup, state, who, request))
    }

    /// The AI never revises a plan mid-round; in revision passes its declaration depends on the
    /// others' plans only for a `safe` area thrower, and its tactics split only under the
    /// `answer` policy.
    fn passes_optional(&self, setup: &Setup, who: CombatantId, request: &Request) -> bool {
        ai_passes(setup, who, request)
    }
}

/// Whether the AI answers a revision request of `who` (a tactics or declaration revision pass,
/// a plan revision at a step) with no change. A `safe` thrower of an area weapon takes the
/// declaration revision pass, to see the moves its allies declared after it (FLUID-ACT-1).
pub(crate) fn ai_passes(setup: &Setup, who: CombatantId, request: &Request) -> bool {
    let sheet = &setup.combatants[who.index()];
    match request {
        Request::Declare { .. } => {
            sheet.policy.area != AREA_SAFE || !sheet.items.iter().any(|i| i.kind == ItemKind::Area)
        }
        Request::Revise { .. } => true,
        Request::Tactics { .. } => sheet.policy.tactics != TACTICS_ANSWER,
        _ => false,
    }
}

/// Whether a blast centred on `target` would reach no one on `who`'s side (itself included),
/// where they stand or anywhere along a move they have declared this round (FLUID-MOVE-11).
fn blast_spares_friends(setup: &Setup, state: &State, who: CombatantId, target: CombatantId, base: usize) -> bool {
    let side = setup.combatants[who.index()].side;
    let blast = state.fighter(target).pos;
    setup.combatants.iter().enumerate().all(|(i, c)| {
        let band = super::attack::band(setup, closest_approach(setup, state, CombatantId(i as u16), blast));
        c.side != side || super::attack::area_edge(base, band).is_none()
    })
}

/// The least distance from `point` of `who` this round: where it stands, or any point of the
/// straight line its declared move follows, up to where it would stop (FLUID-MOVE-11).
fn closest_approach(setup: &Setup, state: &State, who: CombatantId, point: fray_engine::Pos) -> f64 {
    let fighter = state.fighter(who);
    let from = fighter.pos;
    let Some(movement) = fighter.plan.movement else { return from.distance(point) };
    let (goal, gap) = match movement.to {
        Destination::Point(p) => (p, 0.0),
        Destination::Toward(c) => (state.fighter(c).pos, setup.options.approach_gap),
    };
    let length = from.distance(goal);
    let travel = (length - gap).max(0.0);
    if length <= 0.0 || travel <= 0.0 {
        return from.distance(point);
    }
    let (dx, dy) = ((goal.x - from.x) / length, (goal.y - from.y) / length);
    // The projection of `point` on the path, clamped to the part walked.
    let along = ((point.x - from.x) * dx + (point.y - from.y) * dy).clamp(0.0, travel);
    fray_engine::Pos::new(from.x + dx * along, from.y + dy * along).distance(point)
}

/// Ways 3d6 rolls each natural 3 to 18, out of 216.
const WAYS_3D6: [i32; 16] = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];

/// Whether `who`'s `pain` policy makes the NER check to ignore a condition penalty `cp` < 0
/// (FLUID-TRACK-4): `always` does, `never` does not, and `expected` (the default) does only when
/// the check's expected penalty (0 on a success, CP − f on a failure of f, summed exactly over
/// the 3d6 naturals) is smaller than CP's.
pub fn tries_pain_check(setup: &Setup, who: CombatantId, cp: i32) -> bool {
    let sheet = &setup.combatants[who.index()];
    match sheet.policy.pain {
        PAIN_ALWAYS => true,
        PAIN_NEVER => false,
        _ => {
            let check = super::check::Check { edge: 0, bonus: sheet.bonus(super::setup::NER) + cp, tn: 10 };
            let with: i32 = (3..=18)
                .zip(WAYS_3D6)
                .map(|(natural, ways)| {
                    let margin = check.from_natural(&setup.options, natural, 0).margin;
                    ways * if margin >= 0 { 0 } else { cp + margin }
                })
                .sum();
            with > 216 * cp
        }
    }
}

/// The move towards `target` with which `who` closes to strike it with a melee weapon, making
/// `attacks` attacks this round (FLUID-MOVE-2 … FLUID-MOVE-11): none when already within reach
/// (`reach_m`, by its base distance; the move itself stops `approach_gap` short, nearer still),
/// a walk when a walk reaches, and otherwise a move with a Run check:
///
/// - under `melee_run_penalty = none` a sprint. The Run check is the same for every pace, and a
///   faster one goes farther, charges harder (+multiplier W, FLUID-MOVE-7) and is harder to shoot
///   (FLUID-MOVE-5), while the melee attack pays nothing for it (FLUID-MOVE-6);
/// - under a melee running penalty, the slowest pace that arrives at least as often as not,
///   counting the Run check's margin (+1 m per success, −1 m per failure, exactly over 3d6 with
///   the check's bonus as the fight will give it), or a sprint if none does.
pub fn closing_move(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    target: CombatantId,
    attacks: i32,
) -> Option<Movement> {
    let sheet = &setup.combatants[who.index()];
    let need = state.distance(who, target) - setup.options.reach_m;
    if need <= 0.0 || sheet.move_m <= 0.0 {
        return None;
    }
    let to = Destination::Toward(target);
    if sheet.move_m >= need {
        return Some(Movement { mode: MoveMode::Walk, to });
    }
    if setup.options.melee_run_penalty == super::options::MeleeRunPenalty::None {
        return Some(Movement { mode: MoveMode::Sprint, to });
    }
    // The Run check as `run_check` makes it: the Run skill, the multiple-action penalty of the
    // attacks and the check itself, and the condition penalty (FLUID-ACT-4, FLUID-TRACK-4).
    let bonus = sheet.skill_value("run", &setup.options) - 10
        + super::attack::multi_action_penalty(setup, attacks + 1)
        + super::condition_penalty(setup, state, who);
    let check = super::check::Check { edge: 0, bonus, tn: 10 };
    let arrives = |mode: MoveMode| {
        let base = sheet.move_m * f64::from(mode.multiplier());
        let ways: i32 = (3..=18)
            .zip(WAYS_3D6)
            .filter(|&(natural, _)| base + f64::from(check.from_natural(&setup.options, natural, 0).margin) >= need)
            .map(|(_, ways)| ways)
            .sum();
        2 * ways >= 216
    };
    let mode = [MoveMode::Jog, MoveMode::Run].into_iter().find(|&m| arrives(m)).unwrap_or(MoveMode::Sprint);
    Some(Movement { mode, to })
}

/// The split a stance gives (FLUID-TAC-4, FLUID-TAC-5).
pub fn stance_split(setup: &Setup, tactics: i32, stance: &str) -> (i32, i32) {
    if tactics < 0 && !setup.options.negative_tactics_split {
        return (0, 0);
    }
    match stance {
        "aggressive" => (tactics, 0),
        "defensive" => (0, tactics),
        _ => {
            // Rounded towards zero so a negative value splits into two non-positive parts.
            let ot = match setup.options.normal_split {
                super::options::NormalSplit::OtFloor => tactics / 2,
                super::options::NormalSplit::OtCeil => tactics / 2 + tactics % 2,
            };
            (ot, tactics - ot)
        }
    }
}

/// What the AI chooses.
#[inline(always)]
pub fn ai_choice(setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Choice {
    let sheet = &setup.combatants[who.index()];
    let policy = &sheet.policy;
    match request {
        Request::Tactics { tactics } => {
            let stance = if policy.tactics == TACTICS_ANSWER {
                // Against a foe that announced all-out offence, defend; against a defensive one,
                // attack; otherwise split (FLUID-TAC-3: NPC stances are announced first).
                let foe = nearest_foe(setup, state, who);
                match foe.map(|f| state.fighter(f)) {
                    Some(f) if f.ot > f.dt => "defensive",
                    Some(f) if f.dt > f.ot => "aggressive",
                    _ => "normal",
                }
            } else {
                policy.name(0)
            };
            let (ot, dt) = stance_split(setup, *tactics, stance);
            Choice::Split { ot, dt }
        }
        Request::Declare { options, max_per_item, rounds, .. } => {
            // Under `defense_choice = per_round` every plan names the policy's best defence (FLUID-DEF-4).
            let defence = setup
                .options
                .defense_per_round
                .then(|| super::attack::nameable_defences(setup, state, who).first().map(|d| d.0))
                .flatten();
            // A dying, unstabilized ally within Nearby comes first under `heal = "allies"` (FLUID-TRACK-10).
            if policy.heal == HEAL_ALLIES {
                let patient = setup.combatants.iter().enumerate().find(|(i, c)| {
                    let ally = CombatantId(*i as u16);
                    let f = state.fighter(ally);
                    ally != who
                        && c.side == sheet.side
                        && f.dying
                        && !f.dead
                        && !f.stabilized
                        && state.distance(who, ally) <= setup.options.reach_m + 1e-9
                });
                if let Some((i, _)) = patient {
                    return Choice::Plan(Plan { heal: Some(CombatantId(i as u16)), defence, ..Plan::default() });
                }
            }
            // Under `shield = "allies"`, the body of the first incapacitated ally within Nearby
            // is shielded from far shots; the plan's actions are its own (FLUID-DEF-15).
            let shield = (policy.shield == SHIELD_ALLIES)
                .then(|| {
                    (0..setup.combatants.len())
                        .map(|i| CombatantId(i as u16))
                        .find(|&ally| super::run::can_shield(setup, state, who, ally))
                })
                .flatten();
            if policy.attacks == ATTACKS_FULL_DEFENSE {
                return Choice::Plan(Plan { full_defense: true, defence, shield, ..Plan::default() });
            }
            let target = pick_target(setup, state, who, options, policy.target);
            let mut attacks: List<DeclaredAttack, 4> = List::new();
            let mut movement = None;
            // Whether the plan closes with the target first (its move is chosen once the number
            // of attacks is known).
            let mut closing = false;
            // Whether every weapon is broken or out of ammunition (see below).
            let mut spent = false;
            if let Some(target) = target {
                let in_reach = state.distance(who, target) <= setup.options.reach_m + 1e-9;
                // An area weapon under `safe`, when no friend stands in the blast; otherwise the
                // first listed weapon that can hit the target now; else, closing with it.
                let safe_area = options.iter().find(|(t, i)| {
                    *t == target
                        && sheet.items[*i].kind == ItemKind::Area
                        && policy.area == AREA_SAFE
                        && blast_spares_friends(setup, state, who, target, sheet.items[*i].blast_band)
                });
                // Unarmed attacks only under `when_unarmed`, and only without another usable
                // weapon: one not broken, with ammunition left (FLUID-GEAR-5), an area weapon
                // only under `area = "safe"`. A fighter whose weapons are all spent or broken and
                // who neither brawls nor moves takes Full Defense (FLUID-ACT-8) rather than nothing.
                let armed = options.iter().any(|&(_, i)| {
                    let item = &sheet.items[i];
                    !item.unarmed && (item.kind != ItemKind::Area || policy.area == AREA_SAFE)
                });
                let brawls = policy.brawl == BRAWL_WHEN_UNARMED && !armed;
                let had_weapon =
                    sheet.items.iter().any(|i| i.skill.is_some() && !i.unarmed && i.kind != ItemKind::Shield);
                spent = !armed && had_weapon;
                let usable = |i: usize| !sheet.items[i].unarmed || brawls;
                let now = safe_area.or_else(|| {
                    options.iter().find(|(t, i)| {
                        let kind = sheet.items[*i].kind;
                        *t == target && usable(*i) && kind != ItemKind::Area && (in_reach || kind == ItemKind::Ranged)
                    })
                });
                let chosen = match now {
                    Some(&(_, item)) => Some(item),
                    None if policy.movement == MOVE_CLOSE => {
                        let melee = options
                            .iter()
                            .find(|(t, i)| *t == target && sheet.items[*i].kind == ItemKind::Melee && usable(*i))
                            .map(|&(_, item)| item);
                        closing = melee.is_some();
                        melee
                    }
                    None => None,
                };
                if let Some(item) = chosen {
                    let limit = max_per_item[item];
                    let intent = if policy.intent == INTENT_STUNNING { Intent::Stunning } else { Intent::Lethal };
                    // Fire mode: the weapon's largest burst or spray when the policy says so. Under
                    // `spray_counts = per_shot` every shot of a spray is one of the skill's attacks
                    // (FLUID-SPECIAL-9, FLUID-ACT-7): the spray fits the limit, or is not fired.
                    let (burst, spray) = rounds.get(item).copied().unwrap_or((1, 0));
                    let per_shot = !setup.options.spray_counts_once;
                    let spray = if per_shot { spray.min(limit) } else { spray };
                    let (r, is_spray) = match policy.fire {
                        FIRE_BURST if burst >= 2 => (burst, false),
                        FIRE_SPRAY if spray >= 2 => (spray, true),
                        _ => (1, false),
                    };
                    let each = if is_spray && per_shot { r } else { 1 };
                    let count = if policy.attacks == ATTACKS_MAX { (limit / each).max(1) } else { 1 };
                    // A `safe` blast is aimed at the point judged safe, where the target stands
                    // now: a target that runs at the thrower this round does not bring the blast
                    // with it (FLUID-SPECIAL-4), unless blasts must centre on a combatant.
                    let fixed = sheet.items[item].kind == ItemKind::Area
                        && policy.area == AREA_SAFE
                        && !setup.options.blast_on_combatant;
                    let blast = fixed.then(|| state.fighter(target).pos);
                    let attack =
                        DeclaredAttack { target, item: item as u8, intent, rounds: r as u8, spray: is_spray, blast };
                    attacks.extend((0..count).map(|_| attack));
                    if closing {
                        movement = closing_move(setup, state, who, target, count as i32);
                    }
                }
            }
            let full_defense = spent && attacks.is_empty() && movement.is_none();
            Choice::Plan(Plan { attacks, full_defense, movement, defence, shield, ..Plan::default() })
        }
        Request::Defend { options, .. } | Request::Guard { options, .. } => {
            // The highest TN after the attacker's bonuses against it; ties prefer Parry, Block,
            // Dodge (FLUID-DEF-4).
            let rank = |skill| match skill {
                super::DefenceSkill::Parry => 2,
                super::DefenceSkill::Block => 1,
                super::DefenceSkill::Dodge => 0,
            };
            let best = options
                .iter()
                .enumerate()
                .max_by_key(|(i, o)| {
                    // What the attacker gains against each: its size bonus, the projectile's flat
                    // bonus, and its Superior levels at about 3 each (FLUID-DEF-5, FLUID-DEF-11).
                    let tn = o.tn - o.size_bonus - o.projectile.0 - 3 * o.projectile.1;
                    (tn, rank(o.skill), std::cmp::Reverse(*i))
                })
                .map(|(i, _)| i);
            Choice::Defence(best)
        }
        Request::Pain { cp } => Choice::Pain(tries_pain_check(setup, who, *cp)),
        // The AI keeps its plans (FLUID-ACT-6 is for scripts and people), and leaves initiative
        // ties among players to FLUID-INIT-4.
        Request::Revise { .. } => Choice::Revise(None),
        Request::TieOrder { .. } => Choice::Order(List::new()),
        Request::SunderAttack { target, weapon, block } => {
            // `superior`: sunder the blocking item when it is of lower tier than the attacking
            // weapon; named before the defence is known, only when every tiered item the target
            // could block with is.
            let weapon_tier = sheet.items[usize::from(*weapon)].tier.unwrap_or(0);
            let items = &setup.combatants[target.index()].items;
            let block_tier = match block {
                Some(b) => items[usize::from(*b)].tier.unwrap_or(0),
                None => items.iter().filter(|i| i.defends()).filter_map(|i| i.tier).max().unwrap_or(0),
            };
            Choice::Sunder(policy.sunder == SUNDER_SUPERIOR && weapon_tier > block_tier)
        }
    }
}

fn nearest_foe(setup: &Setup, state: &State, who: CombatantId) -> Option<CombatantId> {
    let me = &setup.combatants[who.index()];
    setup
        .combatants
        .iter()
        .enumerate()
        .filter(|(i, c)| c.side != me.side && !state.fighters[*i].out(&setup.options) && !state.fighters[*i].hidden)
        .min_by(|(i, _), (j, _)| {
            let (da, db) = (state.distance(who, CombatantId(*i as u16)), state.distance(who, CombatantId(*j as u16)));
            da.total_cmp(&db).then(i.cmp(j))
        })
        .map(|(i, _)| CombatantId(i as u16))
}

fn pick_target(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    options: &[(CombatantId, usize)],
    how: u8,
) -> Option<CombatantId> {
    // The best by the policy's order, which ends on the id: a plain scan, as this is asked for
    // every declaration (a target listed once per weapon compares equal to itself).
    let better = |a: CombatantId, b: CombatantId| match how {
        TARGET_WEAKEST => (state.fighter(a).w, a) < (state.fighter(b).w, b),
        TARGET_FIRST => a < b,
        _ => state.distance(who, a).total_cmp(&state.distance(who, b)).then(a.cmp(&b)).is_lt(),
    };
    let best = |standing_only: bool| {
        let mut best: Option<CombatantId> = None;
        for &(t, _) in options {
            if standing_only && state.fighter(t).out(&setup.options) {
                continue;
            }
            if best.is_none_or(|b| better(t, b)) {
                best = Some(t);
            }
        }
        best
    };
    // Prefer foes still in the fight; fall back to any (a coup de grâce).
    best(true).or_else(|| best(false))
}

/// Answers from a script of choices, in order, falling back to the AI when the script has none
/// for a kind of request (tests and worked examples script only what the example states).
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    /// Remaining scripted choices.
    pub choices: VecDeque<Choice>,
    /// The last scripted split and plan of each combatant, repeated in revision passes
    /// (FLUID-TAC-3, FLUID-ACT-1).
    pub splits: Vec<(CombatantId, Choice)>,
}

impl Decider<Fluid> for Scripted {
    fn decide(&mut self, setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Result<Choice, Pending> {
        let fits = |choice: &Choice| {
            matches!(
                (request, choice),
                (Request::Tactics { .. }, Choice::Split { .. })
                    | (Request::Declare { .. }, Choice::Plan(_))
                    | (Request::Defend { .. } | Request::Guard { .. }, Choice::Defence(_))
                    | (Request::Pain { .. }, Choice::Pain(_))
                    | (Request::SunderAttack { .. }, Choice::Sunder(_))
                    | (Request::Revise { .. }, Choice::Revise(_))
                    | (Request::TieOrder { .. }, Choice::Order(_))
            )
        };
        if self.choices.front().is_some_and(fits) {
            let choice = self.choices.pop_front().expect("checked");
            if matches!(choice, Choice::Split { .. } | Choice::Plan(_)) {
                let same_kind = |c: &Choice| std::mem::discriminant(c) == std::mem::discriminant(&choice);
                self.splits.retain(|(w, c)| *w != who || !same_kind(c));
                self.splits.push((who, choice.clone()));
            }
            return Ok(choice);
        }
        if let Some((_, again)) = self.splits.iter().find(|(w, c)| *w == who && fits(c)) {
            return Ok(again.clone());
        }
        Ok(ai_choice(setup, state, who, request))
    }
}

/// The declaration request the fight would make (exposed for tests of reach and limits).
pub fn declare_options_for_tests(setup: &Setup, state: &State, who: CombatantId) -> Request {
    super::run::declare_request(setup, state, who)
}
