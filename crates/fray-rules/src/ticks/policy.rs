//! The numbers behind each roll, the legality of announcements, the named AI policies and a
//! scripted decider.

use super::attack::{aim_bonus, cover_bonus, range_modifier};
use super::setup::{Blow, Cover, Setup, Square, chebyshev};
use super::{Action, Choice, Kind, Request, State, Ticks};
use fray_engine::{CombatantId, Decider, Pending};

/// The attacker's side of a shot, without the dice (TICK-DICE-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackNumbers {
    /// Everything added to the dice.
    pub total: i32,
    /// The range modifier.
    pub range: i32,
    /// The aim bonus.
    pub aim: i32,
    /// Own p counted.
    pub p: i32,
}

fn wound_penalty(setup: &Setup, state: &State, who: CombatantId) -> i32 {
    state.fighter(who).wounds * setup.options.wound_penalty
}

/// A shot's numbers from `who` at `target` in the current state; the gun's ready penalty is
/// counted when the gun is down (a snap shot).
pub fn shot_numbers(
    setup: &Setup,
    state: &State,
    who: CombatantId,
    target: CombatantId,
    running: bool,
) -> AttackNumbers {
    let sheet = &setup.combatants[who.index()];
    let f = state.fighter(who);
    let Some(gun) = sheet.gun.as_ref() else {
        return AttackNumbers { total: 0, range: 0, aim: 0, p: f.p };
    };
    let (a, b) = (f.pos, state.fighter(target).pos);
    let (range, penalty) = range_modifier(&setup.options, gun, setup.distance_m(a, b), chebyshev(a, b) <= 1);
    // Running ends the aim (TICK-AIM-5): a running shot has no aim bonus.
    let aim =
        if f.aim_target == Some(target) && !running { aim_bonus(&setup.options, f.aim_ticks, penalty) } else { 0 };
    let p = f.p + if f.ready { 0 } else { gun.ready_penalty };
    let run = if running { setup.options.running_shot_penalty } else { 0 };
    AttackNumbers { total: sheet.shoot + range + aim - p - wound_penalty(setup, state, who) - run, range, aim, p }
}

/// A blow's numbers (TICK-DICE-4, TICK-MOVE-4).
pub fn melee_numbers(setup: &Setup, state: &State, who: CombatantId, running: bool) -> AttackNumbers {
    let sheet = &setup.combatants[who.index()];
    let p = state.fighter(who).p;
    let run = if running { setup.options.running_shot_penalty } else { 0 };
    AttackNumbers { total: sheet.melee - p - wound_penalty(setup, state, who) - run, range: 0, aim: 0, p }
}

/// The defender's side, without the dice (TICK-DICE-4, TICK-COVER-*, TICK-DEF-*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefenceNumbers {
    /// Everything added to the dice: `skill + cover_bonus − p − wounds`.
    pub total: i32,
    /// The defence skill (Evade or Melee; 0 when busy under `defence_costs_action`).
    pub skill: i32,
    /// The stability penalty p counted.
    pub p: i32,
    /// The wound penalty.
    pub wounds: i32,
    /// The cover bonus counted.
    pub cover_bonus: i32,
    /// The cover the defender has this tick.
    pub cover: Option<Cover>,
    /// The square it dives to.
    pub dive: Option<Square>,
    /// Its effort base.
    pub effort_base: i32,
}

/// The cover `who` has this tick: its start-of-tick square's (TICK-COVER-10).
pub fn cover_of(setup: &Setup, state: &State, who: CombatantId) -> Option<Cover> {
    if setup.options.cover_fixed {
        setup.combatants[who.index()].cover
    } else {
        setup.cover_at(state.fighter(who).square0)
    }
}

/// Whether the king steps of a move from `who`'s square toward `to` (TICK-MOVE-1/5) cross no
/// occupied square now: a gunman does not run at cover behind someone who stays put.
fn path_clear(setup: &Setup, state: &State, who: CombatantId, to: Square) -> bool {
    let mut at = state.fighter(who).pos;
    while at != to {
        at = (at.0 + (to.0 - at.0).signum(), at.1 + (to.1 - at.1).signum());
        if !setup.options.shared_squares && state.occupant(at).is_some_and(|o| o != who) {
            return false;
        }
    }
    true
}

/// The cover square `who` would dive to (TICK-DEF-3, TICK-COVER-10): the nearest free one within
/// `dive_range_m`, then the higher rating, then the lowest (x, y).
///
/// A dive and a run announced for the same tick: the run clears first. A dive is a move of
/// TICK-MOVE-5, resolved square by square against the positions left by the moves before it, and
/// it comes in the end-of-tick step, after every move, run and follow (TICK-TIME-10, steps 3, 4
/// and 6c). So a dive never blocks or displaces a runner, and "free" in TICK-DEF-3 means free
/// after the tick's runs: a cover square is in reach only if it is empty and the king steps to it
/// cross no one, the runner's new square included. A defender whose only cover is cut off that
/// way dodges in the open at the dodge base (TICK-DEF-2) rather than paying the cover base for a
/// dive that would stop short beside the runner. Under `tick_order = moves_last` the shot and the
/// dive choice see the start of the tick; a runner that then takes the square or its path sends
/// the diver, in step 6c, to the nearest cover it can still reach (see [`dive_reachable`]).
pub fn dive_square(setup: &Setup, state: &State, who: CombatantId) -> Option<Square> {
    let o = &setup.options;
    if o.cover_fixed || o.dive_range_m <= 0.0 {
        return None;
    }
    // The dive replaces any move announced for the tick (TICK-DEF-3): its reach is measured
    // from the square held at the tick's start, the one whose cover the defender has.
    let at = state.fighter(who).square0;
    setup
        .cover
        .iter()
        // The square it stepped into this tick counts, if it is cover (it has that cover only
        // from the next tick, TICK-COVER-10).
        .filter(|(_, c)| c.rating > 0)
        .map(|(sq, c)| (setup.distance_m(at, *sq), -c.rating, *sq))
        .filter(|(d, _, _)| *d <= o.dive_range_m + 1e-9)
        .filter(|(_, _, sq)| dive_reachable(setup, state, who, *sq))
        .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)))
        .map(|x| x.2)
}

/// Whether `who` can dive into `square` now (TICK-DEF-3, TICK-MOVE-5): nobody else stands there
/// and the king steps from its square to it cross no one.
pub fn dive_reachable(setup: &Setup, state: &State, who: CombatantId, square: Square) -> bool {
    setup.options.shared_squares
        || (state.occupant(square).is_none_or(|o| o == who) && path_clear(setup, state, who, square))
}

/// The defender's numbers against an attack of `kind` with `penetration`.
pub fn defence_numbers(setup: &Setup, state: &State, who: CombatantId, kind: Kind, penetration: i32) -> DefenceNumbers {
    let o = &setup.options;
    let sheet = &setup.combatants[who.index()];
    let f = state.fighter(who);
    let busy = o.defence_costs_action && f.announced.is_some_and(|a| a != Action::Nothing);
    let skill = if busy {
        0
    } else if kind == Kind::Shot {
        sheet.evade
    } else {
        sheet.melee
    };
    // Its own costs this tick never count against its defence (TICK-TIME-4/13).
    let p = if o.p_attacks_only {
        0
    } else if o.immediate {
        f.p - f.own_p
    } else {
        f.p0
    };
    let cover = cover_of(setup, state, who).filter(|c| c.rating > 0);
    let (bonus, dive, base) = match kind {
        Kind::Shot => match cover {
            Some(c) if f.dive.is_none() => (cover_bonus(c, penetration), None, o.cover_effort_base),
            _ => match f.dive.or_else(|| dive_square(setup, state, who)) {
                Some(sq) => (0, Some(sq), o.cover_effort_base),
                None => (0, None, o.dodge_effort_base),
            },
        },
        Kind::Melee(_) => (
            if o.cover_vs_melee { cover.map_or(0, |c| cover_bonus(c, penetration)) } else { 0 },
            None,
            o.melee_defence_base,
        ),
    };
    let wounds = wound_penalty(setup, state, who);
    DefenceNumbers {
        total: skill + bonus - p - wounds,
        skill,
        p,
        wounds,
        cover_bonus: bonus,
        cover,
        dive,
        effort_base: base,
    }
}

/// Why `who` cannot announce `action` now, if it cannot (TICK-TIME-12, TICK-TRACK-4/5).
pub fn illegal(setup: &Setup, state: &State, who: CombatantId, action: &Action) -> Option<&'static str> {
    let o = &setup.options;
    let sheet = &setup.combatants[who.index()];
    let f = state.fighter(who);
    let n = setup.combatants.len();
    let target_ok = |t: CombatantId| {
        if t.index() >= n || t == who {
            Some("no such target")
        } else if state.fighter(t).out() && (!o.out_targetable || state.fighter(t).removed) {
            Some("the target is out of the fight")
        } else {
            None
        }
    };
    let effort_ok = |blow: Blow| {
        if !o.effort_allow && f.effort < setup.blow(blow).effort {
            Some("not enough effort for that blow")
        } else {
            None
        }
    };
    // A follow is a move for every other rule (TICK-MOVE-6): a follower may be struck at or
    // followed in turn.
    let moving = |t: CombatantId| state.fighter(t).announced.is_some_and(|a| a.moves());
    let gun = sheet.gun.as_ref();
    match *action {
        Action::Nothing => None,
        Action::Move(to) | Action::Run { to, .. } if to == f.pos => Some("already there"),
        Action::Move(_) => None,
        Action::Run { attack: None, .. } => None,
        Action::Run { attack: Some((t, None, _)), .. } => target_ok(t).or(match gun {
            None => Some("no gun"),
            Some(_) if !f.ready && o.ready_separate => Some("the gun is not ready (snap_shot = separate_action)"),
            Some(_) => None,
        }),
        Action::Run { attack: Some((t, Some(blow), _)), .. } => {
            if o.running_melee {
                target_ok(t).or(effort_ok(blow))
            } else {
                Some("no melee attacks while running")
            }
        }
        Action::Ready => match gun {
            None => Some("no gun"),
            Some(_) if f.ready => Some("the gun is already ready"),
            Some(_) => None,
        },
        Action::Lower => {
            if f.ready {
                None
            } else {
                Some("the gun is not up")
            }
        }
        Action::Aim(t) => target_ok(t).or(if gun.is_none() { Some("no gun") } else { None }),
        Action::Fire { targets, shots, .. } => {
            targets[..usize::from(shots).clamp(1, 3)].iter().find_map(|&t| target_ok(t)).or(match gun {
                None => Some("no gun"),
                Some(g) if shots == 0 || i32::from(shots) > g.rate => Some("more shots than the gun's rate"),
                Some(_) if !f.ready && o.ready_separate => Some("the gun is not ready (snap_shot = separate_action)"),
                Some(_) => None,
            })
        }
        Action::Melee { target, blow, .. } => target_ok(target).or(effort_ok(blow)),
        Action::Strike { target, blow, .. } => {
            if !o.reactions {
                Some("no same-tick reactions (same_tick_reactions = none)")
            } else if !moving(target) {
                Some("the target has not announced a move")
            } else if chebyshev(f.pos, state.fighter(target).pos) > o.melee_reach {
                Some("the target is not adjacent")
            } else {
                target_ok(target).or(effort_ok(blow))
            }
        }
        Action::Follow(t) => {
            if !o.reactions {
                Some("no same-tick reactions (same_tick_reactions = none)")
            } else if !moving(t) {
                Some("the target has not announced a move")
            } else {
                target_ok(t)
            }
        }
    }
}

/// The highest total of the delta dice (d20, 2d10, 3d6).
pub const MAX_TOTAL: usize = 20;

/// The counts of each total of the delta dice, indexed by total (no allocation).
pub fn dice_counts(setup: &Setup) -> [u64; MAX_TOTAL + 1] {
    tables(setup).0
}

/// The counts of each total and their prefix sums (`below[k]`: totals under `k`), made once per
/// kind of delta dice.
fn tables(setup: &Setup) -> &'static ([u64; MAX_TOTAL + 1], [u64; MAX_TOTAL + 2]) {
    tables_of(setup.options.delta_die)
}

/// [`tables`] for one kind of delta dice.
fn tables_of(die: super::options::DeltaDie) -> &'static ([u64; MAX_TOTAL + 1], [u64; MAX_TOTAL + 2]) {
    use super::options::DeltaDie;
    type Tables = ([u64; MAX_TOTAL + 1], [u64; MAX_TOTAL + 2]);
    fn make(die: DeltaDie) -> Tables {
        let (count, sides) = die.dice();
        let mut dist = [0u64; MAX_TOTAL + 1];
        dist[0] = 1;
        for _ in 0..count {
            let mut next = [0u64; MAX_TOTAL + 1];
            for (s, &w) in dist.iter().enumerate().filter(|(_, w)| **w > 0) {
                for f in 1..=sides as usize {
                    next[s + f] += w;
                }
            }
            dist = next;
        }
        let mut below = [0u64; MAX_TOTAL + 2];
        for k in 0..=MAX_TOTAL {
            below[k + 1] = below[k] + dist[k];
        }
        (dist, below)
    }
    static TABLES: std::sync::LazyLock<[Tables; 3]> =
        std::sync::LazyLock::new(|| [make(DeltaDie::D20), make(DeltaDie::TwoD10), make(DeltaDie::ThreeD6)]);
    &TABLES[die as usize]
}

/// The least margin (attack total less defence total, before the dice) at which a shot wins at
/// least a third of the time by [`win_odds`], and the least at which it can win at all: made once
/// per kind of delta dice and tie rule, so that the policy weighs no odds per tick.
fn margins(setup: &Setup) -> (i32, i32) {
    type Margins = [[(i32, i32); 2]; 3];
    static MARGINS: std::sync::LazyLock<Margins> = std::sync::LazyLock::new(|| {
        use super::options::DeltaDie;
        let mut out = [[(0, 0); 2]; 3];
        for die in [DeltaDie::D20, DeltaDie::TwoD10, DeltaDie::ThreeD6] {
            for tie_reroll in [false, true] {
                let least = |good: &dyn Fn(u64, u64) -> bool| {
                    (-(MAX_TOTAL as i32) - 1..=MAX_TOTAL as i32 + 1)
                        .find(|&m| {
                            let (win, tie, all) = beats_with(tables_of(die), m, 0);
                            good(win, if tie_reroll { all - tie } else { all })
                        })
                        .unwrap_or(MAX_TOTAL as i32 + 1)
                };
                out[die as usize][usize::from(tie_reroll)] = (least(&|w, a| 3 * w >= a), least(&|w, _| w > 0));
            }
        }
        out
    });
    MARGINS[setup.options.delta_die as usize][usize::from(setup.options.tie_reroll)]
}

/// Outcomes of two delta rolls with `a` and `d` added: (attacker wins, ties, all), as counts of
/// equally likely face pairs.
pub fn beats(setup: &Setup, a: i32, d: i32) -> (u64, u64, u64) {
    beats_with(tables(setup), a, d)
}

/// [`beats`] with the tables of one kind of delta dice.
fn beats_with(tables: &([u64; MAX_TOTAL + 1], [u64; MAX_TOTAL + 2]), a: i32, d: i32) -> (u64, u64, u64) {
    let (counts, below) = tables;
    let total = below[MAX_TOTAL + 1];
    let (mut win, mut tie) = (0, 0);
    for (x, &wx) in counts.iter().enumerate().filter(|(_, w)| **w > 0) {
        // The defender's y wins for the attacker when y + d < x + a, i.e. y < x + a − d.
        let y = i64::from(x as i32) + i64::from(a) - i64::from(d);
        win += wx * below[y.clamp(0, MAX_TOTAL as i64 + 1) as usize];
        if (0..=MAX_TOTAL as i64).contains(&y) {
            tie += wx * counts[y as usize];
        }
    }
    (win, tie, total * total)
}

/// P(an attack with `a` added to its dice beats a defence with `d`) before either rolls, as
/// (wins, outcomes): counts of equally likely face pairs (TICK-DICE-1). Under
/// `delta_tie = reroll` (TICK-DICE-3) a tie is rolled again from scratch and decides nothing, so
/// the pairs that tie are left out of the outcomes: with W and T the chances of a win and of a
/// tie, the chance is W / (1 − T). Under `delta_tie = defender` a tie is a loss. The AI's
/// "a third of the time" tests use it ([`strikes`], [`shot_odds`]).
pub fn win_odds(setup: &Setup, a: i32, d: i32) -> (u64, u64) {
    let (win, tie, all) = beats(setup, a, d);
    (win, if setup.options.tie_reroll { all - tie } else { all })
}

/// The chance, as [`win_odds`], that a shot from `who` at `target` would win if fired now, with
/// no roll made yet (TICK-DICE-4): what the `steady` and `aimed` gunmen weigh against a third.
pub fn shot_odds(setup: &Setup, state: &State, who: CombatantId, target: CombatantId) -> (u64, u64) {
    let penetration = setup.combatants[who.index()].gun.as_ref().map_or(0, |g| g.penetration);
    let a = shot_numbers(setup, state, who, target, false).total;
    let d = defence_numbers(setup, state, target, Kind::Shot, penetration).total;
    win_odds(setup, a, d)
}

/// The effort `who` has for its next defence: what the shortfall test of TICK-DEF-5 compares
/// a defence's cost with. Under `effort_tally = running` that is its effort less what it already
/// owes for this tick's earlier defences; under `start_of_tick`, its effort at the tick's start
/// (TICK-DEF-8). Never below 0. The fight, the AI and the odds all use it.
pub fn effort_available(setup: &Setup, state: &State, who: CombatantId) -> i32 {
    let f = state.fighter(who);
    let effort = if setup.options.effort_tally_start { f.effort0 } else { f.effort - f.pend_effort };
    effort.max(0)
}

/// P(the attacker's `a` lands) as (favourable, total), exact (TICK-MELEE-10,
/// TICK-GUN-11): the defender's total is below `a`, or it wins but is short of the effort its
/// defence costs — the effort it has left this tick ([`effort_available`]) — and the attack lands
/// as a graze (TICK-DEF-5).
///
/// `base` is everything added to the attacker's dice. Under `delta_tie = reroll` (TICK-DICE-3) a
/// tie rolls both sides again, the attacker with `base` and the defender with its same numbers,
/// as the fight does: with W and T the chances that this `a` wins or ties, and W′ and T′ those of
/// a fresh contest, P = W + T · W′ / (1 − T′), reduced. (The fight stops rerolling after 100
/// ties in a row; a chance below 10⁻¹⁰⁰ is left out.)
///
/// A target that is out of the fight, attackable only under `out_targetable = true`, does not
/// defend: the attack always lands (TICK-TRACK-5).
#[allow(clippy::too_many_arguments, reason = "one attack's inputs")]
pub fn p_win(
    setup: &Setup,
    state: &State,
    target: CombatantId,
    kind: Kind,
    penetration: i32,
    a: i32,
    base: i32,
) -> (u64, u64) {
    if state.fighter(target).out() {
        return (1, 1);
    }
    let o = &setup.options;
    let dn = defence_numbers(setup, state, target, kind, penetration);
    let d = dn.total;
    let effort = effort_available(setup, state, target);
    // A decided exchange with this delta lands: a win, or a shortfall graze.
    let lands = |delta: i32| {
        delta >= 1 || (!o.shortfall_ignore && effort < super::attack::effort_cost(o, dn.effort_base, delta))
    };
    let tie = |delta: i32| o.tie_reroll && delta == 0;
    let counts = dice_counts(setup);
    let faces = || counts.iter().enumerate().filter(|(_, w)| **w > 0).map(|(s, &w)| (s as i32, w));
    let n: u64 = counts.iter().sum();
    let (mut win, mut ties) = (0u64, 0u64);
    for (y, w) in faces() {
        let delta = a - (y + d);
        if tie(delta) {
            ties += w;
        } else if lands(delta) {
            win += w;
        }
    }
    if ties == 0 {
        return (win, n);
    }
    // The reroll: a fresh contest, both sides' dice, until it is decided.
    let (mut win2, mut ties2) = (0u64, 0u64);
    for (x, wx) in faces() {
        for (y, wy) in faces() {
            let delta = base + x - (y + d);
            if tie(delta) {
                ties2 += wx * wy;
            } else if lands(delta) {
                win2 += wx * wy;
            }
        }
    }
    let decided = n * n - ties2;
    reduced(win * decided + ties * win2, n * decided)
}

fn reduced(num: u64, den: u64) -> (u64, u64) {
    let (mut x, mut y) = (num, den);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    num.checked_div(x).zip(den.checked_div(x)).unwrap_or((num, den))
}

/// The AI policies' decider.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai;

impl Decider<Ticks> for Ai {
    const CHECKED: bool = false;

    // Inlined into every request, whose kind is then known: only its own arm is left.
    #[inline(always)]
    fn decide(&mut self, setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Result<Choice, Pending> {
        Ok(ai_choice(setup, state, who, request))
    }
}

/// The enemy `who` goes for (`target` policy), if any is standing.
pub fn target(setup: &Setup, state: &State, who: CombatantId) -> Option<CombatantId> {
    let me = &setup.combatants[who.index()];
    let at = state.fighter(who).pos;
    let weakest = me.policy.target() == 1;
    (0..setup.combatants.len())
        .map(|i| CombatantId(i as u16))
        .filter(|&t| setup.combatants[t.index()].side != me.side && !state.fighter(t).out())
        .min_by_key(|&t| {
            let f = state.fighter(t);
            let d = chebyshev(at, f.pos);
            if weakest { (f.body, d, t.0) } else { (d, f.body, t.0) }
        })
}

/// Whether an attack with `penetration` declares weak-point aim against `target` (TICK-ARM-10).
pub fn wants_weak_point(setup: &Setup, target: CombatantId, penetration: i32) -> bool {
    match setup.options.weak_point_policy {
        1 => false,
        2 => true,
        _ => setup.combatants[target.index()].armour.iter().any(|a| a.resistance > penetration),
    }
}

/// The p at or below which a `steady` shooter fires.
pub const STEADY_P: i32 = 5;

/// The AI's answer to any request.
#[inline(always)]
pub fn ai_choice(setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Choice {
    match *request {
        Request::Announce { .. } => Choice::Announce(announce(setup, state, who)),
        Request::Abort { target, a, base } => {
            let pen = setup.combatants[who.index()].melee_weapon.penetration;
            let (win, total) = p_win(setup, state, target, Kind::Melee(Blow::Strike), pen, a, base);
            let abort = match setup.options.abort_policy {
                1 => false,
                2 => 2 * win < total,
                _ => 3 * win < total,
            };
            Choice::Yes(abort)
        }
        Request::Decline { target, a, base } => {
            let pen = setup.combatants[who.index()].gun.as_ref().map_or(0, |g| g.penetration);
            let decline = match setup.options.decline_policy {
                1 => false,
                2 => {
                    let (win, total) = p_win(setup, state, target, Kind::Shot, pen, a, base);
                    3 * win < total
                }
                // Hopeless: the shot cannot land, whatever the defender rolls — not even as a
                // graze, through an effort shortfall (TICK-DEF-5). (A result above the defender's
                // least total lands on that roll: the count is needed only below it.)
                _ => {
                    let least = setup.options.delta_die.dice().0 as i32;
                    a <= least + defence_numbers(setup, state, target, Kind::Shot, pen).total
                        && p_win(setup, state, target, Kind::Shot, pen, a, base).0 == 0
                }
            };
            Choice::Yes(decline)
        }
    }
}

/// The blow `who` announces by its `blow` policy. Under `effort_gate = strict` a `heavy` or
/// `strike` fighter short of that blow's effort falls back to the dearest cheaper blow it can
/// afford (TICK-MELEE-2/3), rather than wait for effort that never comes back under attack.
fn blow_for(setup: &Setup, state: &State, who: CombatantId) -> Blow {
    let effort = state.fighter(who).effort;
    let affordable = |blow: Blow| setup.options.effort_allow || effort >= setup.blow(blow).effort;
    let fall_back = |want: Blow| {
        if affordable(want) {
            return want;
        }
        let cheaper: &[Blow] = if want == Blow::Heavy { &[Blow::Strike, Blow::Jab] } else { &[Blow::Jab] };
        cheaper.iter().copied().find(|&b| affordable(b)).unwrap_or(want)
    };
    match setup.combatants[who.index()].policy.blow() {
        1 => Blow::Jab,
        2 => fall_back(Blow::Heavy),
        3 => {
            if effort >= 40 {
                Blow::Heavy
            } else if effort >= 15 {
                Blow::Strike
            } else {
                Blow::Jab
            }
        }
        _ => fall_back(Blow::Strike),
    }
}

/// The p at or below which a melee fighter strikes whatever its odds.
pub const STRIKE_P: i32 = 6;

/// Whether a melee fighter strikes `target` with `blow` now rather than wait for its p to
/// recover: once p is down to [`STRIKE_P`], once the blow wins at least a third of the time, or,
/// when it was attacked last tick, whenever the blow can win at all. A fighter under attack
/// gains as much p from the effort it spends defending (TICK-DEF-6) as it recovers
/// (TICK-STAB-2), so waiting would never bring it back to [`STRIKE_P`]; and a blow that loses
/// still costs the defender effort and stability, and is aborted at half cost when its roll is
/// poor (TICK-MELEE-5, TICK-MELEE-10).
pub fn strikes(setup: &Setup, state: &State, who: CombatantId, target: CombatantId, blow: Blow) -> bool {
    let f = state.fighter(who);
    if f.p <= STRIKE_P {
        return true;
    }
    let a = melee_numbers(setup, state, who, false).total;
    let pen = setup.combatants[who.index()].melee_weapon.penetration;
    let d = defence_numbers(setup, state, target, Kind::Melee(blow), pen).total;
    let (win, all) = win_odds(setup, a, d);
    3 * win >= all || (f.pressed && win > 0)
}

/// Whether a shot of `who` at `target` from where it stands is worth making: the best shot it
/// can build up here — gun ready, stability recovered (p = 0), five ticks of aim (TICK-AIM-1/3),
/// its wounds counted — wins at least a third of the time (the abort policy's threshold,
/// TICK-MELEE-10) against the target's Evade, the bonus of the cover it stands in
/// (TICK-COVER-2/5) and its wounds, its passing stability not counted.
pub fn worth_shooting(setup: &Setup, state: &State, who: CombatantId, target: CombatantId) -> bool {
    best_shot_margin(setup, state, who, target) >= margins(setup).0
}

/// [`worth_shooting`]'s best shot's total less the defence's.
fn best_shot_margin(setup: &Setup, state: &State, who: CombatantId, target: CombatantId) -> i32 {
    let sheet = &setup.combatants[who.index()];
    let Some(gun) = sheet.gun.as_ref() else { return i32::MIN / 2 };
    let (a_at, b_at) = (state.fighter(who).pos, state.fighter(target).pos);
    let (range, penalty) =
        range_modifier(&setup.options, gun, setup.distance_m(a_at, b_at), chebyshev(a_at, b_at) <= 1);
    let a = sheet.shoot + range + aim_bonus(&setup.options, 5, penalty) - wound_penalty(setup, state, who);
    let cover = cover_of(setup, state, target).filter(|c| c.rating > 0).map_or(0, |c| cover_bonus(c, gun.penetration));
    let d = setup.combatants[target.index()].evade + cover - wound_penalty(setup, state, target);
    a - d
}

/// How a gunman under `move = close` closes on `target` when the shot from where it stands is
/// not worth making ([`worth_shooting`]); `None` when it stays and shoots. It waits for a target
/// without a gun that closes in itself (`move = close`), and in cover it stays while its shot
/// can win at all. Otherwise it runs (TICK-MOVE-3) toward the target, or, under
/// `cover = seek`, to a free cover square on the way: nearer the target than it stands now, at
/// most two squares out of its way, the nearest such (ties to the lowest (x, y)), reachable
/// without crossing anyone. The catalogue gives the draft's movement rules but no policy for
/// when to move: this is what a sensible gunman does, so that two gunmen out of useful range
/// do not stand and aim until the tick cap.
fn close_in(setup: &Setup, state: &State, who: CombatantId, target: CombatantId) -> Option<Action> {
    // An enemy without a gun who closes in itself is awaited, aiming.
    let them = &setup.combatants[target.index()];
    if them.gun.is_none() && them.policy.movement() == 0 {
        return None;
    }
    let margin = best_shot_margin(setup, state, who, target);
    let (worth, any) = margins(setup);
    if margin >= worth || margin >= any && cover_of(setup, state, who).is_some_and(|c| c.rating > 0) {
        return None;
    }
    let f = state.fighter(who);
    let there = state.fighter(target).pos;
    let distance = chebyshev(f.pos, there);
    let seek = setup.combatants[who.index()].policy.cover() == 0;
    let on_the_way = seek
        .then(|| {
            setup
                .cover
                .iter()
                .filter(|(sq, c)| {
                    c.rating > 0
                        && *sq != f.pos
                        && chebyshev(*sq, there) < distance
                        && chebyshev(f.pos, *sq) + chebyshev(*sq, there) <= distance + 2
                        && state.occupant(*sq).is_none()
                        && path_clear(setup, state, who, *sq)
                })
                .map(|(sq, _)| (chebyshev(f.pos, *sq), *sq))
                .min()
                .map(|(_, sq)| sq)
        })
        .flatten();
    let to = on_the_way.unwrap_or(there);
    Some(if chebyshev(f.pos, to) > 1 { Action::Run { to, attack: None } } else { Action::Move(to) })
}

/// One announcement by the named policies.
pub fn announce(setup: &Setup, state: &State, who: CombatantId) -> Action {
    let sheet = &setup.combatants[who.index()];
    let f = state.fighter(who);
    let policy = sheet.policy;
    // Reaction strikes and follows against an adjacent enemy who announced a move.
    if setup.options.reactions && sheet.gun.is_none() {
        for i in 0..setup.combatants.len() {
            let t = CombatantId(i as u16);
            let tf = state.fighter(t);
            if setup.combatants[i].side == sheet.side || tf.out() {
                continue;
            }
            if tf.announced.is_some_and(|a| a.moves()) && chebyshev(f.pos, tf.pos) <= setup.options.melee_reach {
                let blow = blow_for(setup, state, who);
                let weak_point = wants_weak_point(setup, t, sheet.melee_weapon.penetration);
                let strike = Action::Strike { target: t, blow, weak_point };
                if strikes(setup, state, who, t, blow) && illegal(setup, state, who, &strike).is_none() {
                    return strike;
                }
                return Action::Follow(t);
            }
        }
    }
    let Some(t) = target(setup, state, who) else { return Action::Nothing };
    let there = state.fighter(t).pos;
    let distance = chebyshev(f.pos, there);
    match sheet.gun.as_ref() {
        Some(gun) => {
            // Cover first (`cover = seek`): a free cover square within three squares.
            if policy.cover() == 0 && super::policy::cover_of(setup, state, who).is_none_or(|c| c.rating == 0) {
                let near = setup
                    .cover
                    .iter()
                    .filter(|(sq, c)| c.rating > 0 && state.occupant(*sq).is_none())
                    .map(|(sq, _)| (chebyshev(f.pos, *sq), *sq))
                    .filter(|&(d, sq)| d <= 3 && path_clear(setup, state, who, sq))
                    .min();
                if let Some((_, sq)) = near {
                    return if chebyshev(f.pos, sq) > 1 {
                        Action::Run { to: sq, attack: None }
                    } else {
                        Action::Move(sq)
                    };
                }
            }
            // Close in (`move = close`) when the shot from here is not worth making.
            if policy.movement() == 0
                && distance > 1
                && let Some(step) = close_in(setup, state, who, t)
            {
                return step;
            }
            let shots = if policy.shots() == 1 { 1 } else { gun.rate.clamp(1, 3) as u8 };
            let weak_point = wants_weak_point(setup, t, gun.penetration);
            let fire = Action::fire(t, shots, weak_point);
            let aim = Action::Aim(t);
            let aimed = f.aim_target == Some(t);
            let ready_ok = f.ready || !setup.options.ready_separate;
            // `steady`: fire once p has recovered, or once the shot wins at least a third of the
            // time (a tie rerolled is no outcome, TICK-DICE-3); under fire (an attack roll at it
            // last tick, which spoils any aim, TICK-AIM-4), aiming gains nothing, so it fires
            // whenever the shot can win at all.
            let good = || {
                let (win, all) = shot_odds(setup, state, who, t);
                3 * win >= all || (f.under_fire && win > 0)
            };
            match policy.fire() {
                1 if ready_ok => fire,
                1 => Action::Ready,
                2 if f.ready && ((aimed && f.aim_ticks >= 5 && f.p <= STEADY_P) || good()) => fire,
                2 => aim,
                _ if f.ready && (f.p <= STEADY_P || good()) => fire,
                _ => aim,
            }
        }
        None => {
            if distance <= setup.options.melee_reach {
                let blow = blow_for(setup, state, who);
                let melee = Action::Melee {
                    target: t,
                    blow,
                    weak_point: wants_weak_point(setup, t, sheet.melee_weapon.penetration),
                };
                if strikes(setup, state, who, t, blow) && illegal(setup, state, who, &melee).is_none() {
                    melee
                } else {
                    Action::Nothing
                }
            } else if policy.movement() == 1 {
                Action::Nothing
            } else if distance > 2 {
                Action::Run { to: there, attack: None }
            } else {
                Action::Move(there)
            }
        }
    }
}

/// A scripted decider for tests and worked examples: each combatant's queued answers first, the
/// AI after them.
pub type Script = crate::Script<Ticks, Ai>;
