//! Named AI policies for every `hardboiled` decision (target, weapon or fists, called shots,
//! cover, Second Wind, closing in), the legality of actions, and a scripted decider for tests.

use super::attack;
use super::options::SecondWindPolicy;
use super::setup::{Setup, Weapon};
use super::{Act, Choice, HardBoiled, Part, Request, State};
use fray_engine::{CombatantId, Decider, Pending, Pos};

pub use super::setup::POLICIES;

/// The request for `who`'s next action at its step. Inlined into the step, which reads it.
#[inline]
pub fn act_request(setup: &Setup, state: &State, who: CombatantId) -> Request {
    let options = &setup.options;
    let x = state.fighter(who);
    let done_any = x.moved || x.attacks > 0 || x.acted;
    let single_done = options.single_action && done_any;
    let lost = x.lose_action_turn == state.turn;
    let can_move = !x.moved && !single_done && !x.steady_shot;
    // Under `single_action` a turn is one Move, one Attack (of up to N rolls, USR-ACT-3) or one
    // Other activity: attack rolls end only with a Move or an Other (USR-ACT-2).
    let attacks_blocked = options.single_action && (x.moved || x.acted);
    let attacks_left = if lost || x.acted || attacks_blocked || (!options.free_disengage && x.disengaged) {
        0
    } else {
        options.max_attacks.saturating_sub(x.attacks)
    };
    let can_act = !lost && !x.acted && x.attacks == 0 && !single_done;
    Request::Act { can_move, attacks_left, can_act }
}

/// The wielded weapon or fists an attack uses.
pub(super) fn weapon<'a>(setup: &'a Setup, state: &State, who: CombatantId, fists: bool) -> &'a Weapon {
    let sheet = &setup.combatants[who.index()];
    if fists || state.fighter(who).dropped { unarmed() } else { &sheet.weapon }
}

/// The unarmed attack.
pub fn unarmed() -> &'static Weapon {
    static UNARMED: std::sync::LazyLock<Weapon> =
        std::sync::LazyLock::new(|| super::setup::weapon_table()[0].1.clone());
    &UNARMED
}

/// The "weapon" of an Other activity whose margin is damage (`other_activity_damage = margin`):
/// no bonus, not brawling.
pub fn activity_weapon() -> &'static Weapon {
    static ACTIVITY: std::sync::LazyLock<Weapon> = std::sync::LazyLock::new(|| Weapon {
        name: "activity".to_owned(),
        brawling: false,
        ..super::setup::weapon_table()[0].1.clone()
    });
    &ACTIVITY
}

/// Whether `who` can attack `target` with `weapon` from where it stands (no message built).
#[inline]
pub fn in_reach(setup: &Setup, state: &State, who: CombatantId, target: CombatantId, weapon: &Weapon) -> bool {
    let d = state.distance(who, target);
    if weapon.ranged {
        attack::band(&setup.options, d, weapon.range_m).is_some()
    } else {
        d <= setup.options.melee_reach_m + 1e-9
    }
}

/// Why `who` cannot attack `target` with `weapon` from where it stands, if it cannot.
pub fn out_of_reach(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    target: CombatantId,
    weapon: &Weapon,
) -> Option<String> {
    if in_reach(setup, state, who, target, weapon) {
        return None;
    }
    let d = state.distance(who, target);
    Some(if weapon.ranged {
        format!("{:.1} m is beyond the {}'s reach (2 × {} m)", d, weapon.name, weapon.range_m)
    } else {
        format!("{d:.1} m is out of melee reach")
    })
}

/// Why a declared intent can no longer be carried out (USR-ROUND-4), if it cannot.
pub fn illegal_target(setup: &Setup, state: &State, who: CombatantId, intent: &Act) -> Option<String> {
    let target = intent.target()?;
    let w = match intent {
        Act::Attack { fists, .. } => weapon(setup, state, who, *fists),
        _ => unarmed(),
    };
    let reach = if w.ranged { 2.0 * w.range_m } else { setup.options.melee_reach_m };
    let d = state.distance(who, target);
    // A Move can close the gap only if one is left this turn: not after moving, and not under
    // `single_action`, where the turn is the attack alone (USR-ACT-2).
    let x = state.fighter(who);
    let allowance =
        if x.moved || x.steady_shot || setup.options.single_action { 0.0 } else { move_m(setup, state, who) };
    // (`>` → `>=` differs only at exactly `reach + allowance + 1e-9`: an equivalent mutant.)
    (d > reach + allowance + 1e-9 && !(w.ranged && setup.options.beyond_extreme))
        .then(|| "out of reach this turn".to_owned())
}

/// Whether a Move of `who` to `to` takes it out of the melee reach of an enemy within whose
/// reach it stands: moving from one enemy to another still leaves the first (USR-MOVE-2).
pub fn disengages(setup: &Setup, state: &State, who: CombatantId, to: Pos) -> bool {
    let reach = setup.options.melee_reach_m + 1e-9;
    let from = state.fighter(who).pos;
    (0..state.fighters.len()).any(|j| {
        let enemy = &state.fighters[j];
        j != who.index()
            && setup.combatants[j].side != setup.combatants[who.index()].side
            && !enemy.down()
            && from.distance(enemy.pos) <= reach
            && to.distance(enemy.pos) > reach
    })
}

/// How far `who` may move (USR-MOVE-1, USR-LOC-5).
pub fn move_m(setup: &Setup, state: &State, who: CombatantId) -> f64 {
    let m = setup.options.move_m;
    if state.fighter(who).lame { m / 2.0 } else { m }
}

/// Why an action is not allowed now, if it is not.
pub fn illegal(setup: &Setup, state: &State, who: CombatantId, request: &Request, act: &Act) -> Option<String> {
    let Request::Act { can_move, attacks_left, can_act } = *request else {
        return Some("not an action request".into());
    };
    let x = state.fighter(who);
    let valid = |t: CombatantId| t != who && t.index() < setup.combatants.len();
    match *act {
        Act::Move(to) => {
            if !can_move {
                return Some("no Move left this turn (or a steady shot was already fired)".into());
            }
            let d = x.pos.distance(to);
            // (`>` → `>=` differs only at exactly `move_m + 1e-9`: an equivalent mutant.)
            if !d.is_finite() || d > move_m(setup, state, who) + 1e-9 {
                return Some(format!("a move of {d:.1} m is longer than {} m", move_m(setup, state, who)));
            }
            // Under `free_disengage = false` one who leaves an enemy's reach may not Attack this
            // turn, so not after attacking either (USR-MOVE-2, USR-ACT-2: either order).
            (!setup.options.free_disengage && x.attacks > 0 && disengages(setup, state, who, to))
                .then(|| "moving out of an enemy's reach after attacking (free_disengage = false)".into())
        }
        Act::Attack { target, fists, .. } => {
            if attacks_left == 0 {
                return Some("no attack left this turn".into());
            }
            if !valid(target) {
                return Some("no such target".into());
            }
            out_of_reach(setup, state, who, target, weapon(setup, state, who, fists))
        }
        Act::Power(target) => {
            if attacks_left == 0 || !valid(target) {
                return Some("no attack left this turn, or no such target".into());
            }
            None
        }
        Act::Other { activity, target, difficulty } => {
            if !can_act {
                return Some("no Other activity left this turn".into());
            }
            match target {
                Some(t) if !valid(t) => Some("no such target".into()),
                Some(t)
                    if matches!(
                        activity,
                        super::Activity::Grapple | super::Activity::Shove | super::Activity::Trip
                    ) =>
                {
                    out_of_reach(setup, state, who, t, unarmed())
                }
                Some(_) => None,
                None => (!(2..=14).contains(&difficulty)).then(|| "an unopposed difficulty runs from 2 to 14".into()),
            }
        }
        Act::PickUp => (!can_act || !x.dropped).then(|| "nothing to pick up, or no action left".into()),
        Act::End => None,
    }
}

/// Whether a choice has the shape its request asks for.
pub fn check(_setup: &Setup, request: &Request, choice: &Choice) -> Result<(), String> {
    match (request, choice) {
        (Request::Declare, Choice::Intent(_))
        | (Request::Act { .. }, Choice::Act(_))
        | (Request::SecondWind { .. } | Request::GmRuling { .. }, Choice::Yes(_)) => Ok(()),
        // The GM's table gives an effect, not another table.
        (Request::GmFumble, Choice::Fumble(effect)) if *effect != super::options::FumbleEffect::GmTable => Ok(()),
        (request, choice) => Err(format!("{choice:?} does not answer {request:?}")),
    }
}

/// The AI.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai;

impl Decider<HardBoiled> for Ai {
    const CHECKED: bool = false;

    // Inlined into every request, whose kind is then known: only its own arm is left.
    #[inline(always)]
    fn decide(&mut self, setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Result<Choice, Pending> {
        Ok(ai_choice(setup, state, who, request))
    }
}

/// `who`'s value of policy `field`.
fn policy(setup: &Setup, who: CombatantId, field: usize) -> u8 {
    setup.combatants[who.index()].policy.value(field)
}

crate::policy_values!(POLICIES;
    TARGET_WEAKEST = 0 "weakest",
    TARGET_FIRST = 0 "first",
    ATTACK_WEAPON = 1 "weapon",
    ATTACK_BRAWL = 1 "brawl",
    CALLED_HEAD = 2 "head",
    CALLED_UNCOVERED = 2 "uncovered",
    COVER_STAY = 3 "stay",
    SECOND_WIND_HALF_HP = 4 "half_hp",
    SECOND_WIND_FIRST_HIT = 4 "first_hit",
    SECOND_WIND_WHEN_DOWN = 4 "when_down",
    SECOND_WIND_NEVER = 4 "never",
    MOVE_CLOSE = 5 "close",
    MOVE_HOLD = 5 "hold",
);

/// Whether `target`'s cover makes him unhurtable by `w` wherever it lands: cover that counts
/// against `w` (ranged, or any under `melee_cover`), hides every location, and stops `w` (too
/// hard for its penetration, or `cover_never`) (USR-COVER-1..4). No location is left to call a
/// shot at, and a critical hit meets cover before armour.
pub fn shielded(setup: &Setup, state: &State, target: CombatantId, w: &Weapon) -> bool {
    let options = &setup.options;
    setup.combatants[target.index()].cover.is_some_and(|cover| {
        state.fighter(target).in_cover
            && (w.ranged || options.melee_cover)
            && cover.locations & super::setup::ALL == super::setup::ALL
            && (options.cover_never || w.penetration < cover.hardness)
    })
}

/// The enemy `who` goes for (`target` policy): not out of the fight (USR-ROUND-6), and one its
/// weapon (or fists, by the `attack` policy) can hurt when there is such an enemy.
pub fn choose_target(setup: &Setup, state: &State, who: CombatantId) -> Option<CombatantId> {
    let target = pick_target(setup, state, who, |_| true)?;
    if state.fighter(target).in_cover { Some(target_past_cover(setup, state, who, target)) } else { Some(target) }
}

/// One behind cover that stops the weapon everywhere is passed over for another open to it.
/// Kept out of line: few targets are in cover.
#[cold]
#[inline(never)]
fn target_past_cover(setup: &Setup, state: &State, who: CombatantId, target: CombatantId) -> CombatantId {
    let w = weapon(setup, state, who, own_fists(setup, state, who));
    if shielded(setup, state, target, w) {
        return pick_target(setup, state, who, |c| !shielded(setup, state, c, w)).unwrap_or(target);
    }
    target
}

/// The enemy the `target` policy picks among those standing that `admit` admits.
fn pick_target(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    admit: impl Fn(CombatantId) -> bool,
) -> Option<CombatantId> {
    let side = setup.combatants[who.index()].side;
    let turn = state.turn.max(1);
    let enemies = (0..setup.combatants.len())
        .filter(|&i| setup.combatants[i].side != side && !state.fighters[i].out(&setup.options, turn))
        .map(|i| CombatantId(i as u16))
        .filter(|&c| admit(c));
    match policy(setup, who, 0) {
        TARGET_WEAKEST => enemies.min_by_key(|&c| (state.fighter(c).hp, c.index())),
        TARGET_FIRST => enemies.min_by_key(|c| c.index()),
        _ => enemies.min_by(|&a, &b| state.distance(who, a).total_cmp(&state.distance(who, b)).then(a.cmp(&b))),
    }
}

/// Whether `who` attacks `target` with fists (`attack` policy): `brawl` always, `weapon` never,
/// `best` when its wielded weapon is a melee weapon worse than bare hands, or when `target`'s
/// cover stops the weapon everywhere but not the fists ([`shielded`]).
#[inline(always)]
pub fn fists(setup: &Setup, state: &State, who: CombatantId, target: CombatantId) -> bool {
    own_fists(setup, state, who) || state.fighter(target).in_cover && fists_against_cover(setup, state, who, target)
}

/// Whether fists can hurt `target` behind cover that stops `who`'s weapon everywhere, under an
/// `attack` policy other than `weapon`. Kept out of line: few targets are in cover.
#[cold]
#[inline(never)]
fn fists_against_cover(setup: &Setup, state: &State, who: CombatantId, target: CombatantId) -> bool {
    policy(setup, who, 1) != ATTACK_WEAPON
        && shielded(setup, state, target, weapon(setup, state, who, false))
        && !shielded(setup, state, target, unarmed())
}

/// Fists or weapon by the `attack` policy, whoever the target.
#[inline(always)]
fn own_fists(setup: &Setup, state: &State, who: CombatantId) -> bool {
    let w = weapon(setup, state, who, false);
    match policy(setup, who, 1) {
        ATTACK_BRAWL => true,
        ATTACK_WEAPON => false,
        _ => !w.ranged && w.bonus < 0,
    }
}

/// The called shot (`called_shot` policy): the body part `who` calls a shot at against `target`
/// with weapon `w`, if any. `uncovered` calls one only when `target`'s cover counts against `w`
/// and stops it (too hard for its penetration, or `cover_never`): a shot that goes through the
/// cover anyway gains nothing from the call but its penalty (USR-LOC-4, USR-COVER-1..3).
#[inline]
pub fn called(setup: &Setup, state: &State, who: CombatantId, target: CombatantId, w: &Weapon) -> Option<Part> {
    match policy(setup, who, 2) {
        CALLED_HEAD => Some(Part::Head),
        CALLED_UNCOVERED => {
            let t = state.fighter(target);
            let options = &setup.options;
            let cover = setup.combatants[target.index()]
                .cover
                .filter(|_| t.in_cover && (w.ranged || options.melee_cover))
                .filter(|c| options.cover_never || w.penetration < c.hardness)?;
            Part::ALL.into_iter().find(|p| cover.locations & (1 << p.face()) == 0)
        }
        _ => None,
    }
}

/// The AI's answer.
#[inline(always)]
pub fn ai_choice(setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Choice {
    match request {
        Request::Declare => Choice::Intent(plan(setup, state, who)),
        Request::Act { .. } => Choice::Act(act(setup, state, who, request)),
        Request::SecondWind { hp, max } => {
            let policy = match policy(setup, who, 4) {
                SECOND_WIND_HALF_HP => SecondWindPolicy::HalfHp,
                SECOND_WIND_FIRST_HIT => SecondWindPolicy::FirstHit,
                SECOND_WIND_WHEN_DOWN => SecondWindPolicy::WhenDown,
                SECOND_WIND_NEVER => SecondWindPolicy::Never,
                _ => setup.options.second_wind_policy,
            };
            Choice::Yes(super::run::wants_second_wind(policy, *hp, *max))
        }
        Request::GmRuling { .. } => Choice::Yes(true),
        // Without a GM, the default effect (USR-FUM-4).
        Request::GmFumble => Choice::Fumble(super::options::FumbleEffect::LoseNextAction),
    }
}

/// The AI's intent for the turn: attack its target (closing in first if need be), or move.
fn plan(setup: &Setup, state: &State, who: CombatantId) -> Option<Act> {
    let target = choose_target(setup, state, who)?;
    let fists = fists(setup, state, who, target);
    let w = weapon(setup, state, who, fists);
    let attack = Act::Attack { target, fists, called: called(setup, state, who, target, w), off_balance: false };
    if in_reach(setup, state, who, target, w) {
        return Some(attack);
    }
    let staying = policy(setup, who, 3) == COVER_STAY && state.fighter(who).in_cover;
    if staying || policy(setup, who, 5) == MOVE_HOLD {
        return None;
    }
    if setup.options.single_action || illegal_target(setup, state, who, &attack).is_some() {
        return Some(Act::Move(toward(setup, state, who, target, w)));
    }
    Some(attack)
}

/// The point `who` moves to, closing on `target` to strike with `w`.
pub(super) fn toward(setup: &Setup, state: &State, who: CombatantId, target: CombatantId, w: &Weapon) -> Pos {
    let from = state.fighter(who).pos;
    let to = state.fighter(target).pos;
    let d = from.distance(to);
    let want = if w.ranged { w.range_m } else { setup.options.melee_reach_m * 0.5 };
    let step = (d - want).clamp(0.0, move_m(setup, state, who));
    if d <= 0.0 {
        return from;
    }
    Pos { x: from.x + (to.x - from.x) * step / d, y: from.y + (to.y - from.y) * step / d }
}

/// The point one Move away toward `target` that puts the shot with ranged `w` in the best band
/// short of Point Blank, when that band is better than the present one by at least the
/// moving-shot penalty (USR-RNG-2/3/7); `None` when no such step exists.
pub(super) fn better_band(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    target: CombatantId,
    w: &Weapon,
) -> Option<Pos> {
    let options = &setup.options;
    let from = state.fighter(who).pos;
    let at = state.fighter(target).pos;
    let d = from.distance(at);
    let (band, difficulty) = attack::band(options, d, w.range_m)?;
    if band < 2 || d <= 0.0 {
        return None;
    }
    let reach = move_m(setup, state, who);
    // Close (a quarter of the range), then Medium (half of it): the first reachable one.
    [w.range_m / 4.0, w.range_m / 2.0].into_iter().find_map(|edge| {
        let step = d - edge;
        if step <= 0.0 || step > reach {
            return None;
        }
        let to = Pos { x: from.x + (at.x - from.x) * step / d, y: from.y + (at.y - from.y) * step / d };
        let (b, diff) = attack::band(options, to.distance(at), w.range_m)?;
        (b >= 1 && b < band && difficulty - diff >= options.moving_shot_penalty).then_some(to)
    })
}

/// The AI's next action at its step.
fn act(setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Act {
    let Request::Act { can_move, attacks_left, can_act } = *request else { return Act::End };
    let x = state.fighter(who);
    let Some(target) = choose_target(setup, state, who) else { return Act::End };
    let fists = fists(setup, state, who, target);
    // A dropped weapon is picked up first (unless the policy is to brawl) (USR-FUM-4).
    if x.dropped && can_act && !fists && policy(setup, who, 1) != ATTACK_BRAWL {
        return Act::PickUp;
    }
    let w = weapon(setup, state, who, fists);
    let staying = policy(setup, who, 3) == COVER_STAY && x.in_cover;
    // From the Extreme band (difficulty 14) a closing gunman first moves into range: a moving
    // shot at Long (10 + the moving penalty) is the better one (USR-RNG-2/3/7).
    let extreme = w.ranged
        && attack::band(&setup.options, state.distance(who, target), w.range_m).is_some_and(|(band, _)| band == 4);
    // (Even when one Move does not reach Long: from Extreme only a critical hits, so the turns
    // after the move gain more than this turn's shot loses.)
    let close_first = extreme && can_move && !staying && policy(setup, who, 5) == MOVE_CLOSE;
    if attacks_left > 0 && in_reach(setup, state, who, target, w) && !close_first {
        // From Long or Medium, a step into a better band (not Point Blank) that gains at least the
        // moving-shot penalty this turn, and the whole band the turns after (USR-RNG-2/3/7).
        if w.ranged
            && can_move
            && !staying
            && policy(setup, who, 5) == MOVE_CLOSE
            && let Some(to) = better_band(setup, state, who, target, w)
            && illegal(setup, state, who, request, &Act::Move(to)).is_none()
        {
            return Act::Move(to);
        }
        return Act::Attack { target, fists, called: called(setup, state, who, target, w), off_balance: false };
    }
    if can_move
        && !staying
        && policy(setup, who, 5) == MOVE_CLOSE
        && (close_first || !in_reach(setup, state, who, target, w))
    {
        let to = toward(setup, state, who, target, w);
        if to.distance(x.pos) > 1e-9 && illegal(setup, state, who, request, &Act::Move(to)).is_none() {
            return Act::Move(to);
        }
    }
    if x.dropped && can_act {
        return Act::PickUp;
    }
    Act::End
}

/// A scripted decider for tests and worked examples: each combatant's queued answers first, the
/// AI after them.
pub type Script = crate::Script<HardBoiled, Ai>;
