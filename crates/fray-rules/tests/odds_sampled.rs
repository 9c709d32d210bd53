//! Odds in context checked against the fight: for every shipped example and every attacker and
//! defender whose opening attack the odds give (`fray odds --scenario FILE --attacker A
//! --defender D`), the fight plays that attack from the opening state in at least 100,000
//! sampled fights, and the exact odds of a hit and of taking the defender out must lie inside the
//! sample's 99.9% (Wilson) interval, widened by the odds' residual.
//!
//! Each sampled fight is the real fight, every decision by the combatants' AI policies, except
//! that the attacker's opening attack is aimed at the defender as the odds assume it (its weapon,
//! mode and aim as its policies choose them against that defender; under `phasesix` an attacker
//! whose `throw` policy throws first throws at the defender, and a hit is the blast reaching
//! him). A fight is followed only up
//! to the end of that attack: from the first attack any combatant makes to the next attack, or
//! the next round (tick, turn). A fight in which someone else attacks first is not counted (the
//! odds are those of the opening attack), and the sampler plays on with new fights until 100,000
//! have counted. Under `fluid`, where an attack's actions count from its declaration, an attack
//! by another on a third combatant is passed over (the fight is then not counted if anyone goes
//! down before the opening attack); a melee attacker whose run fell short of reach is a miss once
//! its step is over; and of a blast's victims the defender's roll is the one followed. What the defender decides after the roll (a defence, a reaction, Second Wind, a
//! sunder, a stay-up roll) is the fight's own, by the policies: the odds must follow them.
//!
//! `FRAY_ODDS_SAMPLES=N` changes the number of counted fights per pair (e.g. a million for a
//! closer look); the default is 100,000. `FRAY_ODDS_VERBOSE=1` prints every pair's counts.
//!
//! An attacker who never attacks first in the fight (the troopers of `mixed-group.toml`, who share
//! a step and act one after another) has his pairs sampled with those who attack before him held
//! back ([`AHEAD`]): they attack no one before his opening attack (under `opend6`, a full dodge),
//! which is the fight the odds of the start describe.

mod common;

use fray_dice::BigRational;
use fray_engine::{CombatantId, Decider, Dice, Fight, FightError, Pending, Reason, Ruleset, Sink, Tally};
use num_traits::ToPrimitive;
use std::cell::{Cell, RefCell};

/// What a ruleset tells the sampler.
trait Case: Ruleset {
    /// The combatants' names, as the odds take them.
    fn names(setup: &Self::Setup) -> Vec<String>;
    /// The exact odds of `a`'s opening attack on `d`, or why there are none.
    fn odds(setup: &Self::Setup, a: &str, d: &str) -> Result<fray_rules::AttackOdds, String>;
    /// The attacker's answer to `request` before its opening attack, when it is not its AI's:
    /// the opening attack aimed at the defender as the odds assume it.
    fn force(
        setup: &Self::Setup,
        state: &Self::State,
        a: CombatantId,
        d: CombatantId,
        request: &Self::Request,
    ) -> Option<Self::Choice>;
    /// Whether the attacker's forced `choice` can be made in `state`: when it cannot, someone
    /// has moved since the opening (the fight is then not counted).
    fn legal(_setup: &Self::Setup, _state: &Self::State, _a: CombatantId, _choice: &Self::Choice) -> bool {
        true
    }
    /// Whether `event` calls off `a`'s attack once rolled (it then neither hits nor is tallied).
    fn called_off(_event: &Self::Event, _a: CombatantId) -> bool {
        false
    }
    /// Whether `event` is `a`'s attack on another victim than `d` of the blast aimed at `d`
    /// (the odds give `d`'s roll; the others are passed over).
    fn other_victim(_setup: &Self::Setup, _event: &Self::Event, _a: CombatantId, _d: CombatantId) -> bool {
        false
    }
    /// Whether `event` is an attack before `a`'s opening attack that leaves `a`'s attack on `d`
    /// as it was: made by another than `a` on a third combatant, in a ruleset where neither that
    /// attack's making nor its hits change `a`'s attack on `d` while no one goes down. It is
    /// passed over, and the fight is not counted if anyone goes down before `a`'s attack.
    fn aside(_setup: &Self::Setup, _event: &Self::Event, _a: CombatantId, _d: CombatantId) -> bool {
        false
    }
    /// Whether `a`'s opening attack on `d` did not come in its step, which is over in `state` when
    /// `by` attacks (a melee attacker whose run fell short of reach, and `by` acting after it): it
    /// is then a miss, whatever the others do after.
    fn fell_short(
        _setup: &Self::Setup,
        _state: &Self::State,
        _a: CombatantId,
        _d: CombatantId,
        _by: CombatantId,
    ) -> bool {
        false
    }
    /// Whether `event` starts a new round (tick, turn).
    fn new_round(event: &Self::Event) -> bool;
    /// Who makes the attack `event` begins when the tally does not count it as one (a thrown
    /// blast), and whether it reaches the defender `d` in `state` (the state before `event`): it
    /// ends the attack being followed as a tallied attack does, and the attacker's own is his
    /// opening attack (a hit when it reaches `d`).
    fn untallied_attack(
        _setup: &Self::Setup,
        _state: &Self::State,
        _event: &Self::Event,
        _d: CombatantId,
    ) -> Option<(CombatantId, bool)> {
        None
    }
    /// Whether `event`, before `a`'s opening attack, is a turn of the defender `d` that comes
    /// before `a`'s: the odds give the attack on a defender who has not acted yet in the round
    /// (the fight is then not counted).
    fn acted_before(
        _setup: &Self::Setup,
        _state: &Self::State,
        _event: &Self::Event,
        _a: CombatantId,
        _d: CombatantId,
    ) -> bool {
        false
    }
    /// Whether a hit by `a` in `state` is held back to the end of a simultaneous step or of the
    /// round (it then lands after the other attacks of the step).
    fn held(_setup: &Self::Setup, _state: &Self::State, _a: CombatantId) -> bool {
        false
    }
    /// Whether `event` ends the step (or round) whose held hits by `a` land before it.
    fn step_over(_setup: &Self::Setup, _state: &Self::State, _event: &Self::Event, _a: CombatantId) -> bool {
        false
    }
    /// Whether `d` is out of the fight, as the odds count it.
    fn out(setup: &Self::Setup, state: &Self::State, d: CombatantId) -> bool;
    /// The ruleset's AI.
    fn ai(setup: &Self::Setup, state: &Self::State, who: CombatantId, request: &Self::Request) -> Self::Choice;
    /// The answer to `request` of one held back before the opening attack ([`AHEAD`]): a choice
    /// that attacks no one and leaves the defender as he was, or the AI's when `None`.
    fn idle(_setup: &Self::Setup, _state: &Self::State, _request: &Self::Request) -> Option<Self::Choice> {
        None
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before any attack.
    Waiting,
    /// The attacker's opening attack is being resolved.
    Resolving,
    /// It is resolved: the fight stops.
    Done,
    /// Someone else attacked first: the fight stops and is not counted.
    Discarded,
}

struct Probe<R: Ruleset> {
    phase: Phase,
    /// An attack on a third combatant was passed over before the opening attack.
    aside: bool,
    hit: bool,
    /// The attacker's hits are held back to the end of the step or round.
    held: bool,
    out: bool,
    /// Rounds (ticks, turns) begun.
    rounds: u32,
    /// The fight's state, kept beside it from its events.
    shadow: R::State,
}

/// Stops the fight (a dice error) once the probe is done with it.
struct StopDice<'p, D> {
    inner: D,
    stop: &'p Cell<bool>,
}

impl<D: Dice> Dice for StopDice<'_, D> {
    fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, fray_dice::SourceError> {
        if self.stop.get() {
            return Err(fray_dice::SourceError("the sampled attack is over".to_owned()));
        }
        self.inner.roll(sides, reason)
    }
}

struct Watch<'p, R: Case> {
    setup: &'p R::Setup,
    probe: &'p RefCell<Probe<R>>,
    stop: &'p Cell<bool>,
    a: CombatantId,
    d: CombatantId,
}

impl<R: Case> Sink<R::Event> for Watch<'_, R> {
    fn event(&mut self, event: &R::Event) {
        let mut p = self.probe.borrow_mut();
        let tally = R::tally(event);
        let attack = match tally {
            Some(Tally::Attack { by, hit, .. }) => Some((by, hit)),
            _ => R::untallied_attack(self.setup, &p.shadow, event, self.d),
        };
        match p.phase {
            Phase::Waiting => match attack {
                Some((by, _)) if by != self.a && R::fell_short(self.setup, &p.shadow, self.a, self.d, by) => {
                    p.out = R::out(self.setup, &p.shadow, self.d);
                    p.phase = Phase::Done;
                    self.stop.set(true);
                }
                Some((by, _)) if by == self.a && R::other_victim(self.setup, event, self.a, self.d) => {}
                Some((by, hit)) if by == self.a => {
                    p.phase = Phase::Resolving;
                    p.hit = hit;
                    p.held = R::held(self.setup, &p.shadow, self.a);
                }
                Some(_) if R::aside(self.setup, event, self.a, self.d) => p.aside = true,
                Some(_) => {
                    p.phase = Phase::Discarded;
                    self.stop.set(true);
                }
                _ if p.aside && matches!(tally, Some(Tally::Downed { .. })) => {
                    p.phase = Phase::Discarded;
                    self.stop.set(true);
                }
                _ if R::called_off(event, self.a) => {
                    p.phase = Phase::Resolving;
                    p.hit = false;
                }
                _ if R::acted_before(self.setup, &p.shadow, event, self.a, self.d) => {
                    p.phase = Phase::Discarded;
                    self.stop.set(true);
                }
                // A second round began and the attacker has not attacked: its opening attack did
                // not come (a melee attacker fell short of its target), a miss.
                _ if R::new_round(event) && p.rounds >= 1 => {
                    p.out = R::out(self.setup, &p.shadow, self.d);
                    p.phase = Phase::Done;
                    self.stop.set(true);
                }
                _ => {}
            },
            // A held hit lands at the step's (or round's) end, after the step's other attacks: the
            // attack is over then, or when another's held hit on the defender lands (held hits
            // land in the order they were made, the opening attack's first).
            // The attacker's own second attack in the step lands after the first: the fight is
            // not counted (whether it comes does not hang on the first's roll: the step was
            // tied before either was rolled).
            Phase::Resolving if p.held && matches!(attack, Some((by, _)) if by == self.a) => {
                p.phase = Phase::Discarded;
                self.stop.set(true);
            }
            Phase::Resolving if p.held => {
                let others = matches!(tally, Some(Tally::Damage { by, to, .. }) if to == self.d && by != Some(self.a));
                if others || R::new_round(event) || R::step_over(self.setup, &p.shadow, event, self.a) {
                    p.out = R::out(self.setup, &p.shadow, self.d);
                    p.phase = Phase::Done;
                    self.stop.set(true);
                }
            }
            Phase::Resolving if attack.is_some() || R::new_round(event) => {
                p.out = R::out(self.setup, &p.shadow, self.d);
                p.phase = Phase::Done;
                self.stop.set(true);
            }
            _ => {}
        }
        if R::new_round(event) {
            p.rounds += 1;
        }
        R::apply(self.setup, &mut p.shadow, event);
    }
}

struct Play<'p, R: Case> {
    probe: &'p RefCell<Probe<R>>,
    a: CombatantId,
    d: CombatantId,
    /// Held back before the opening attack ([`Case::idle`]).
    idle: &'p [CombatantId],
}

impl<R: Case> Decider<R> for Play<'_, R> {
    const CHECKED: bool = true;

    fn decide(
        &mut self,
        setup: &R::Setup,
        state: &R::State,
        who: CombatantId,
        request: &R::Request,
    ) -> Result<R::Choice, Pending> {
        let phase = self.probe.borrow().phase;
        match phase {
            Phase::Done | Phase::Discarded => Err(Pending),
            Phase::Waiting if who == self.a => match R::force(setup, state, self.a, self.d, request) {
                Some(choice) if !R::legal(setup, state, self.a, &choice) => {
                    self.probe.borrow_mut().phase = Phase::Discarded;
                    Err(Pending)
                }
                Some(choice) => Ok(choice),
                None => Ok(R::ai(setup, state, who, request)),
            },
            Phase::Waiting if self.idle.contains(&who) => {
                Ok(R::idle(setup, state, request).unwrap_or_else(|| R::ai(setup, state, who, request)))
            }
            _ => Ok(R::ai(setup, state, who, request)),
        }
    }
}

/// Attackers who never attack first in the fight, with those who attack before them: (example
/// file, attacker, those ahead of him, why). The odds of his opening attack are those of the
/// fight's start, which the fight plays only when those ahead of him attack no one: they are held
/// back ([`Case::idle`]) in the sampled fights of his pairs, every other decision the AI's.
const AHEAD: &[(&str, &str, &[&str], &str)] = &[
    (
        "mixed-group.toml",
        "Trooper 2",
        &["Trooper 1"],
        "the troopers share one initiative roll (OD6-INIT-3) and Trooper 1 acts before him in their step",
    ),
    ("mixed-group.toml", "Trooper 3", &["Trooper 1", "Trooper 2"], "as Trooper 2"),
];

/// Those held back before `a`'s opening attack in `file` ([`AHEAD`]), by name.
fn ahead(file: &str, a: &str) -> &'static [&'static str] {
    AHEAD.iter().find(|k| k.0 == file && k.1 == a).map_or(&[], |k| k.2)
}

/// Counted fights per pair.
fn samples() -> u32 {
    std::env::var("FRAY_ODDS_SAMPLES").ok().and_then(|n| n.parse().ok()).unwrap_or(100_000)
}

/// What the sample found for one pair.
struct Sampled {
    counted: u32,
    hits: u32,
    downs: u32,
    discarded: u32,
}

fn sample<R: Case>(setup: &R::Setup, a: CombatantId, d: CombatantId, n: u32, seed: u64) -> Sampled {
    sample_idle::<R>(setup, a, d, &[], n, seed)
}

/// [`sample`], with the combatants `idle` held back before the opening attack ([`Case::idle`]).
fn sample_idle<R: Case>(
    setup: &R::Setup,
    a: CombatantId,
    d: CombatantId,
    idle: &[CombatantId],
    n: u32,
    seed: u64,
) -> Sampled {
    let probe = RefCell::new(Probe::<R> {
        phase: Phase::Waiting,
        aside: false,
        hit: false,
        held: false,
        out: false,
        rounds: 0,
        shadow: R::initial_state(setup),
    });
    let stop = Cell::new(false);
    let dice = StopDice { inner: fray_engine::FromSource(fray_dice::seeded(seed)), stop: &stop };
    let watch = Watch::<R> { setup, probe: &probe, stop: &stop, a, d };
    let mut fight = Fight::<R, _, _, _>::new(setup, dice, Play { probe: &probe, a, d, idle }, watch);
    let mut out = Sampled { counted: 0, hits: 0, downs: 0, discarded: 0 };
    let mut fights = 0u32;
    while out.counted < n {
        fights += 1;
        if fights > 20 * n {
            break;
        }
        {
            let mut p = probe.borrow_mut();
            p.phase = Phase::Waiting;
            p.hit = false;
            p.held = false;
            p.out = false;
            p.rounds = 0;
            R::reset_state(setup, &mut p.shadow);
        }
        stop.set(false);
        fight.restart();
        match fight.run() {
            Ok(_) | Err(FightError::Pending(_)) | Err(FightError::Dice { .. }) => {}
            Err(e) => panic!("the sampled fight failed: {e}"),
        }
        let mut p = probe.borrow_mut();
        if p.phase == Phase::Resolving {
            p.out = R::out(setup, &p.shadow, d);
            p.phase = Phase::Done;
        }
        match p.phase {
            Phase::Done => {
                out.counted += 1;
                out.hits += u32::from(p.hit);
                out.downs += u32::from(p.out);
            }
            Phase::Discarded => out.discarded += 1,
            // The fight ended before anyone attacked: not the opening attack either.
            _ => out.discarded += 1,
        }
    }
    out
}

/// The 99.9% Wilson interval of `k` successes in `n`.
fn wilson(k: u32, n: u32) -> (f64, f64) {
    let z = 3.290_526_731_491_926_f64;
    let (k, n) = (f64::from(k), f64::from(n));
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    // At k = 0 or k = n the interval reaches 0 or 1 exactly; the float sum may fall just short.
    let lo = if k == 0.0 { 0.0 } else { centre - half };
    let hi = if k == n { 1.0 } else { centre + half };
    (lo, hi)
}

/// Checks every pair of every example of ruleset `R` in `dir`; returns the report lines of the
/// pairs that disagree.
fn check_examples<R: Case>(dir: &str, load: impl Fn(&str, &str) -> R::Setup) -> Vec<String> {
    let n = samples();
    let mut failures = Vec::new();
    let started = std::time::Instant::now();
    let (mut pairs, mut held_back) = (0, 0);
    for file in common::example_files().into_iter().filter(|f| f.parent().is_some_and(|p| p.ends_with(dir))) {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let setup = load(&name, &text);
        let names = R::names(&setup);
        // Every attacker AHEAD names for this file has an opening attack (a stale entry fails).
        for (_, a, _, _) in AHEAD.iter().filter(|k| k.0 == name) {
            let any = names.iter().any(|d| d != a && R::odds(&setup, a, d).is_ok());
            assert!(any, "{name}: AHEAD names {a}, who has no opening attack");
        }
        for (ai, a) in names.iter().enumerate() {
            for (di, d) in names.iter().enumerate() {
                if ai == di {
                    continue;
                }
                let Ok(odds) = R::odds(&setup, a, d) else { continue };
                let idle: Vec<CombatantId> = ahead(&name, a)
                    .iter()
                    .map(|x| CombatantId(names.iter().position(|n| n == x).expect("a name of AHEAD") as u16))
                    .collect();
                held_back += usize::from(!idle.is_empty());
                pairs += 1;
                let seed = 0x0dd5 + (ai * 64 + di) as u64;
                let s = sample_idle::<R>(&setup, CombatantId(ai as u16), CombatantId(di as u16), &idle, n, seed);
                if std::env::var_os("FRAY_ODDS_VERBOSE").is_some() {
                    eprintln!("{name}: {a} → {d}: {} counted, {} not", s.counted, s.discarded);
                }
                if s.counted < n {
                    failures.push(format!(
                        "{name}: {a} → {d}: someone else attacks first in {} of {} fights",
                        s.discarded,
                        s.discarded + s.counted
                    ));
                    continue;
                }
                let residual = odds.residual.to_f64().unwrap_or(0.0);
                let mut check = |what: &str, exact: &BigRational, k: u32| {
                    let (lo, hi) = wilson(k, s.counted);
                    let p = exact.to_f64().unwrap();
                    if p < lo - residual || p > hi + residual {
                        failures.push(format!(
                            "{name}: {a} → {d}: {what} exact {} ≈ {p:.5}, sampled {k}/{} = {:.5}, 99.9% interval \
                             [{lo:.5}, {hi:.5}] ({} fights not counted)",
                            fray_dice::fraction(exact),
                            s.counted,
                            f64::from(k) / f64::from(s.counted),
                            s.discarded
                        ));
                    }
                };
                check("hit", &odds.hit, s.hits);
                check("down", &odds.down, s.downs);
            }
        }
    }
    eprintln!(
        "{dir}: {pairs} pairs ({held_back} with someone held back), {n} counted fights each, in {:.1?}",
        started.elapsed()
    );
    assert!(pairs > 0, "no pair in {dir}");
    failures
}

fn report(failures: Vec<String>) {
    assert!(failures.is_empty(), "the odds and the fight disagree:\n{}", failures.join("\n"));
}

mod ticks {
    use super::*;
    use fray_rules::ticks::{Action, Event, Request, Ticks};

    impl Case for Ticks {
        fn names(setup: &Self::Setup) -> Vec<String> {
            setup.combatants.iter().map(|c| c.name.clone()).collect()
        }
        fn odds(setup: &Self::Setup, a: &str, d: &str) -> Result<fray_rules::AttackOdds, String> {
            fray_rules::ticks::odds::attack_odds(setup, a, d)
        }
        fn force(
            setup: &Self::Setup,
            _state: &Self::State,
            _a: CombatantId,
            d: CombatantId,
            request: &Self::Request,
        ) -> Option<Self::Choice> {
            let Request::Announce { .. } = request else { return None };
            let sheet = &setup.combatants[_a.index()];
            Some(fray_rules::ticks::Choice::Announce(match &sheet.gun {
                Some(gun) => {
                    let pen = fray_rules::ticks::attack::Weapon::gun(gun).penetration;
                    Action::fire(d, 1, fray_rules::ticks::policy::wants_weak_point(setup, d, pen))
                }
                None => {
                    let blow = fray_rules::ticks::setup::Blow::Strike;
                    let pen = fray_rules::ticks::attack::Weapon::melee(setup, sheet, blow).penetration;
                    Action::Melee {
                        target: d,
                        blow,
                        weak_point: fray_rules::ticks::policy::wants_weak_point(setup, d, pen),
                    }
                }
            }))
        }
        fn called_off(event: &Self::Event, a: CombatantId) -> bool {
            matches!(event, Event::Declined { who, .. } | Event::Aborted { who } if *who == a)
        }
        fn new_round(event: &Self::Event) -> bool {
            matches!(event, Event::TickStarted { .. })
        }
        fn out(_setup: &Self::Setup, state: &Self::State, d: CombatantId) -> bool {
            state.fighter(d).out()
        }
        fn ai(setup: &Self::Setup, state: &Self::State, who: CombatantId, request: &Self::Request) -> Self::Choice {
            fray_rules::ticks::policy::ai_choice(setup, state, who, request)
        }
    }

    #[test]
    fn the_fight_plays_the_odds_of_every_opening_attack() {
        report(check_examples::<Ticks>("ticks", |name, text| {
            fray_rules::ticks::scenario::load(name, text, &[]).unwrap()
        }));
    }
}

mod hardboiled {
    use super::*;
    use fray_rules::hardboiled::{Act, Choice, Event, HardBoiled, Request};

    impl Case for HardBoiled {
        fn names(setup: &Self::Setup) -> Vec<String> {
            setup.combatants.iter().map(|c| c.name.clone()).collect()
        }
        fn odds(setup: &Self::Setup, a: &str, d: &str) -> Result<fray_rules::AttackOdds, String> {
            fray_rules::hardboiled::odds::attack_odds(setup, a, d)
        }
        fn force(
            setup: &Self::Setup,
            state: &Self::State,
            a: CombatantId,
            d: CombatantId,
            request: &Self::Request,
        ) -> Option<Self::Choice> {
            use fray_rules::hardboiled::policy;
            let fists = policy::fists(setup, state, a, d);
            let weapon = if fists { policy::unarmed() } else { &setup.combatants[a.index()].weapon };
            let act = Act::Attack {
                target: d,
                fists,
                called: policy::called(setup, state, a, d, weapon),
                off_balance: false,
            };
            match request {
                Request::Declare => Some(Choice::Intent(Some(act))),
                Request::Act { .. } => Some(Choice::Act(act)),
                _ => None,
            }
        }
        fn new_round(event: &Self::Event) -> bool {
            matches!(event, Event::TurnStarted { .. })
        }
        fn out(setup: &Self::Setup, state: &Self::State, d: CombatantId) -> bool {
            state.fighter(d).out(&setup.options, state.turn)
        }
        fn ai(setup: &Self::Setup, state: &Self::State, who: CombatantId, request: &Self::Request) -> Self::Choice {
            fray_rules::hardboiled::policy::ai_choice(setup, state, who, request)
        }
    }

    #[test]
    fn the_fight_plays_the_odds_of_every_opening_attack() {
        report(check_examples::<HardBoiled>("hardboiled", |name, text| {
            fray_rules::hardboiled::scenario::load(name, text, &[]).unwrap()
        }));
    }
}

mod fluid {
    use super::*;
    use fray_rules::fluid::{Event, Fluid, Request};

    impl Case for Fluid {
        fn names(setup: &Self::Setup) -> Vec<String> {
            setup.combatants.iter().map(|c| c.id.clone()).collect()
        }
        fn odds(setup: &Self::Setup, a: &str, d: &str) -> Result<fray_rules::AttackOdds, String> {
            fray_rules::fluid::odds::attack_odds(setup, a, d)
        }
        fn force(
            setup: &Self::Setup,
            state: &Self::State,
            a: CombatantId,
            d: CombatantId,
            request: &Self::Request,
        ) -> Option<Self::Choice> {
            // The declaration its policy makes with the defender as its only target, as the odds
            // take it.
            let Request::Declare { .. } = request else { return None };
            let mut request = request.clone();
            if let Request::Declare { options, .. } = &mut request {
                options.retain(|(t, _)| *t == d);
            }
            Some(fray_rules::fluid::policy::ai_choice(setup, state, a, &request))
        }
        fn other_victim(setup: &Self::Setup, event: &Self::Event, a: CombatantId, d: CombatantId) -> bool {
            matches!(event, Event::Attack { attacker, target, item, .. } if *attacker == a && *target != d
                && setup.combatants[a.index()].items[*item].kind == fray_rules::fluid::setup::ItemKind::Area)
        }
        fn fell_short(
            setup: &Self::Setup,
            state: &Self::State,
            a: CombatantId,
            d: CombatantId,
            by: CombatantId,
        ) -> bool {
            // Under simultaneous movement everyone has moved before the first step (FLUID-MOVE-8):
            // a melee attacker out of reach makes no attack in its step, which is over once one
            // after it in the order attacks.
            let items = &setup.combatants[a.index()].items;
            let place = |w: CombatantId| state.order.iter().position(|x| *x == w);
            setup.options.movement_simultaneous
                && place(by) > place(a)
                && state
                    .fighter(a)
                    .plan
                    .attacks
                    .iter()
                    .any(|x| x.target == d && items[x.weapon()].kind == fray_rules::fluid::setup::ItemKind::Melee)
                && state.distance(a, d) > setup.options.reach_m + 1e-9
        }
        fn aside(_setup: &Self::Setup, event: &Self::Event, a: CombatantId, d: CombatantId) -> bool {
            // Under `fluid` an attack's actions are counted when declared (FLUID-ACT-4, -5), so the
            // defender's shots at a third combatant leave his defence as it was.
            matches!(event, Event::Attack { attacker, target, .. } if *attacker != a && *target != a && *target != d)
        }
        fn new_round(event: &Self::Event) -> bool {
            matches!(event, Event::RoundStarted { .. })
        }
        fn out(setup: &Self::Setup, state: &Self::State, d: CombatantId) -> bool {
            state.fighter(d).out(&setup.options)
        }
        fn ai(setup: &Self::Setup, state: &Self::State, who: CombatantId, request: &Self::Request) -> Self::Choice {
            fray_rules::fluid::policy::ai_choice(setup, state, who, request)
        }
    }

    #[test]
    fn the_odds_follow_a_run_that_may_fall_short() {
        // rule: FLUID-MOVE-2, FLUID-MOVE-10
        // The marauder stands far enough that the barbarian must run to reach him, and his Run
        // check decides whether he arrives: the odds are the mixture over where he arrives, and a
        // run that falls short is no attack (a miss). Before, the odds took the full distance as
        // covered and overstated the hit.
        let text = std::fs::read_to_string(format!("{}/fluid/barbarian-vs-marauder.toml", common::EXAMPLES)).unwrap();
        let at = |m: u32| {
            // The marauder holds his ground: only the barbarian's run decides the distance.
            let text = text.replace("position = 1.0", &format!("position = {m}.0")).replace(
                "policy = { tactics = \"aggressive\" }",
                "policy = { tactics = \"aggressive\", move = \"hold\" }",
            );
            fray_rules::fluid::scenario::load("barbarian-vs-marauder.toml", &text, &[]).unwrap()
        };
        let short = |o: &fray_rules::AttackOdds| o.assumptions.iter().find(|a| a.contains("falls short")).cloned();
        // How likely the run falls short, as the odds say it ("… with probability 5/108: …").
        let chance = |said: &str| {
            let fraction = said.split("with probability ").nth(1).unwrap().split(':').next().unwrap();
            let (a, b) = fraction.split_once('/').unwrap();
            a.parse::<f64>().unwrap() / b.parse::<f64>().unwrap()
        };
        // The distance where it is likeliest, short of hopeless.
        let (setup, odds, likely) = (2..40)
            .map(at)
            .filter_map(|setup| {
                fray_rules::fluid::odds::attack_odds(&setup, "barbarian", "marauder").ok().map(|o| (setup, o))
            })
            .filter_map(|(setup, o)| short(&o).map(|said| (setup, o.clone(), chance(&said))))
            .filter(|(_, o, _)| o.hit.to_f64().unwrap() > 0.05)
            .max_by(|x, y| x.2.total_cmp(&y.2))
            .expect("a distance a run may fall short of");
        assert!(likely > 0.2, "a run short in {likely} of fights at most");
        let said = short(&odds).unwrap();
        assert!(said.contains("with probability") && said.contains("FLUID-MOVE-2"), "{said}");
        let s = sample::<Fluid>(&setup, CombatantId(0), CombatantId(1), 20_000, 11);
        for (what, exact, k) in [("hit", &odds.hit, s.hits), ("down", &odds.down, s.downs)] {
            let (lo, hi) = wilson(k, s.counted);
            let p = exact.to_f64().unwrap();
            assert!(lo <= p && p <= hi, "{what}: exact {p}, sampled {k}/{} [{lo}, {hi}]: {said}", s.counted);
        }
    }

    /// The firefight, with raider_3 holding his ground when `hold`, and the guards back to back
    /// (guard_2 on guard_1's spot) when `together`, guard_1 then the better dodger (16, not 12).
    fn firefight(hold: bool, together: bool) -> fray_rules::fluid::Setup {
        let mut text = std::fs::read_to_string(format!("{}/fluid/firefight.toml", common::EXAMPLES)).unwrap();
        if hold {
            text = text.replace("policy = { attacks = \"max\" }", "policy = { attacks = \"max\", move = \"hold\" }");
        }
        if together {
            text = text.replace("position = [0.0, 3.0]", "position = [0.0, 0.0]").replacen(
                "dodge = { value = 12 }",
                "dodge = { value = 16 }",
                1,
            );
        }
        fray_rules::fluid::scenario::load("firefight.toml", &text, &[]).unwrap()
    }

    #[test]
    fn the_odds_follow_a_plan_revised_on_seeing_an_allys_move() {
        // rule: FLUID-ACT-1
        // raider_1 (`area = safe`) first declares his grenade at a guard; in the revision pass he
        // sees raider_3's declared sprint toward guard_1, which would bring him into the blast,
        // and takes his pistol instead. The odds are the pistol's, as the fight plays it; before,
        // they were the grenade's (hit 145/162).
        let setup = firefight(false, false);
        let odds = fray_rules::fluid::odds::attack_odds(&setup, "raider_1", "guard_1").unwrap();
        assert_eq!(fray_dice::fraction(&odds.hit), "5/8");
        assert!(
            odds.assumptions.iter().any(|x| x.contains("first declares grenade, then changes its plan to pistol")),
            "{:?}",
            odds.assumptions
        );
        // With raider_3 holding back, the grenade flies.
        let held = firefight(true, false);
        let odds = fray_rules::fluid::odds::attack_odds(&held, "raider_1", "guard_1").unwrap();
        assert_eq!(fray_dice::fraction(&odds.hit), "145/162");
        assert!(!odds.assumptions.iter().any(|x| x.contains("changes its plan")), "{:?}", odds.assumptions);
    }

    #[test]
    fn a_blasts_odds_are_the_defenders_roll_among_its_victims() {
        // rule: FLUID-SPECIAL-1, FLUID-SPECIAL-2
        // The two guards stand on one spot and raider_3 holds back, so raider_1's grenade flies at
        // either guard and catches both, each with its own roll, nearest first and by roster order
        // on a tie: aimed at guard_2, guard_1's roll comes first. The odds are the aimed-at
        // guard's, at the blast point (Superior +1 at Nearby's centre); the sampler follows that
        // guard's roll among the blast's victims (guard_1 dodges better, so taking his roll for
        // guard_2's would fail).
        let setup = firefight(true, true);
        for (d, seed) in [(0, 3), (1, 5)] {
            let name = &setup.combatants[d].id;
            let odds = fray_rules::fluid::odds::attack_odds(&setup, "raider_1", name).unwrap();
            assert!(odds.assumptions.iter().any(|x| x == "edge +1 (Superior)"), "{:?}", odds.assumptions);
            let s = sample::<Fluid>(&setup, CombatantId(2), CombatantId(d as u16), 20_000, seed);
            for (what, exact, k) in [("hit", &odds.hit, s.hits), ("down", &odds.down, s.downs)] {
                let (lo, hi) = wilson(k, s.counted);
                let p = exact.to_f64().unwrap();
                assert!(lo <= p && p <= hi, "{name} {what}: exact {p}, sampled {k}/{} [{lo}, {hi}]", s.counted);
            }
        }
    }

    fn tiered_duel(sunder: &str) -> fray_rules::fluid::Setup {
        let text = std::fs::read_to_string(format!("{}/fluid/tiered-duel.toml", common::EXAMPLES)).unwrap();
        let text = text.replace("sunder = \"superior\"", &format!("sunder = \"{sunder}\""));
        fray_rules::fluid::scenario::load("tiered-duel.toml", &text, &[]).unwrap()
    }

    #[test]
    fn the_odds_follow_the_sunder_policy() {
        // rule: FLUID-SUNDER-7, FLUID-ATK-11
        // The knight's fine sword (T4) meets the militiaman's Block with a primitive buckler
        // (T1): under `sunder = superior` his AI puts every hit into the buckler, so the odds (as
        // the fight plays it) give no damage and no chance of taking the militiaman out; under
        // `never` the hits do their damage. The roll alone is the same under both.
        let superior = fray_rules::fluid::odds::attack_odds(&tiered_duel("superior"), "knight", "militiaman").unwrap();
        let never = fray_rules::fluid::odds::attack_odds(&tiered_duel("never"), "knight", "militiaman").unwrap();
        assert_eq!(superior.hit, never.hit);
        assert_eq!(fray_dice::fraction(&superior.down), "0/1");
        assert_eq!(fray_dice::fraction(&never.down), "5/108");
        assert_eq!(superior.damage_given_hit.len(), 1, "{:?}", superior.damage_given_hit);
        assert_eq!(superior.damage_given_hit[0].0, "0W 0S");
        let alone = format!(
            "the roll alone, every hit doing its damage: hit {}, takes militiaman out 5/108",
            fray_dice::fraction(&never.hit)
        );
        assert!(superior.assumptions.contains(&alone), "{:?}", superior.assumptions);
        assert!(superior.assumptions.iter().any(|a| a.contains("sunder = superior")), "{:?}", superior.assumptions);
        assert!(!never.assumptions.iter().any(|a| a.contains("roll alone")), "{:?}", never.assumptions);
        // And the fight plays it so: no take-down in 20,000 opening attacks under `superior`, the
        // odds' rate under `never`.
        for (sunder, odds) in [("superior", &superior), ("never", &never)] {
            let setup = tiered_duel(sunder);
            let s = sample::<Fluid>(&setup, CombatantId(0), CombatantId(1), 20_000, 7);
            let (lo, hi) = wilson(s.downs, s.counted);
            let p = odds.down.to_f64().unwrap();
            assert!(lo <= p && p <= hi, "{sunder}: exact {p}, sampled [{lo}, {hi}]");
        }
    }

    #[test]
    fn the_fight_plays_the_odds_of_every_opening_attack() {
        report(check_examples::<Fluid>("fluid", |name, text| {
            fray_rules::fluid::scenario::load(name, text, &[]).unwrap()
        }));
    }
}

mod phasesix {
    use super::*;
    use fray_rules::phasesix::{Choice, Event, PhaseSix, Request};

    impl Case for PhaseSix {
        fn names(setup: &Self::Setup) -> Vec<String> {
            setup.combatants.iter().map(|c| c.name.clone()).collect()
        }
        fn odds(setup: &Self::Setup, a: &str, d: &str) -> Result<fray_rules::AttackOdds, String> {
            fray_rules::phasesix::odds::attack_odds(setup, a, d)
        }
        fn force(
            setup: &Self::Setup,
            state: &Self::State,
            a: CombatantId,
            d: CombatantId,
            request: &Self::Request,
        ) -> Option<Self::Choice> {
            // The weapon attack, or the throw at the defender when the attacker's `throw` policy
            // throws first (as the odds take it).
            let Request::Act { .. } = request else { return None };
            Some(Choice::Act(fray_rules::phasesix::odds::opening_act(setup, state, a, d)))
        }
        fn legal(setup: &Self::Setup, state: &Self::State, a: CombatantId, choice: &Self::Choice) -> bool {
            let Choice::Act(act) = choice else { return true };
            fray_rules::phasesix::policy::illegal(setup, state, a, act).is_none()
        }
        fn new_round(event: &Self::Event) -> bool {
            matches!(event, Event::RoundStarted { .. })
        }
        fn untallied_attack(
            setup: &Self::Setup,
            state: &Self::State,
            event: &Self::Event,
            d: CombatantId,
        ) -> Option<(CombatantId, bool)> {
            // A thrown object's blast (P6-THROW-*) rolls no attack. The sampled throw is aimed at
            // the defender: one that does not deviate lands on him; one that deviates reaches him
            // when he stands within `throw_radius_m` of where it lands (P6-THROW-4).
            let Event::Landed { who, at, deviation, .. } = event else { return None };
            let v = state.fighter(d);
            let reaches =
                !v.dead && (deviation.is_none() || v.pos.distance(*at) <= setup.options.throw_radius_m + 1e-9);
            Some((*who, reaches))
        }
        fn out(setup: &Self::Setup, state: &Self::State, d: CombatantId) -> bool {
            state.fighter(d).out(&setup.options)
        }
        fn acted_before(
            _setup: &Self::Setup,
            _state: &Self::State,
            event: &Self::Event,
            _a: CombatantId,
            d: CombatantId,
        ) -> bool {
            // The odds give the attack before the defender's first turn (no actions yet to react
            // with, P6-ACT-1).
            matches!(event, Event::Refreshed { who, .. } if *who == d)
        }
        fn ai(setup: &Self::Setup, state: &Self::State, who: CombatantId, request: &Self::Request) -> Self::Choice {
            fray_rules::phasesix::policy::ai_choice(setup, state, who, request)
        }
    }

    #[test]
    fn the_fight_plays_the_odds_of_a_blast_through_cover_protection_and_boosts() {
        // rule: P6-THROW-1, P6-THROW-2, P6-THROW-4, P6-COVER-4, P6-DMG-4, P6-RES-4, P6-RES-5
        // A thrower spending a bonus die and a reroll on a throw with no success; its target,
        // 8 m off behind 5+ cover and hunkered (6+), both rolled under `cover_stacking =
        // sequential`, spending its own bonus die and reroll on a cover roll with no success,
        // with protection 1 and 4 hearts; a blast of 2 m. The odds follow every one of these, and
        // the fight plays them.
        let text = r#"
[rules]
ruleset = "phasesix"
options = { cover_stacking = "sequential", throw_radius_m = 2 }
[[combatants]]
name = "G"
side = "g"
quickness = 4
throwing = 2
bonus_dice = 1
rerolls = 1
position = 0
items = [{ name = "grenade", hits = 4, wounds_per_hit = 2, count = 1 }]
policy = { throw = "first", keep = "none", spend = "to_hit" }
[[combatants]]
name = "T"
side = "t"
position = 8
cover = 5
hunkered = true
max_wounds = 4
bonus_dice = 1
rerolls = 1
armour = [{ name = "vest", protection = 1 }]
policy = { move = "hold", spend = "to_defend" }
"#;
        let setup = fray_rules::phasesix::scenario::load("blast.toml", text, &[]).unwrap();
        let odds = fray_rules::phasesix::odds::attack_odds(&setup, "G", "T").unwrap();
        assert!(odds.assumptions.iter().any(|a| a.starts_with("the roll alone")), "{:?}", odds.assumptions);
        assert!(odds.hit < BigRational::from_integer(1.into()) && odds.down < odds.hit, "{:?}", odds);
        let s = sample::<PhaseSix>(&setup, CombatantId(0), CombatantId(1), 20_000, 5);
        for (what, exact, k) in [("hit", &odds.hit, s.hits), ("down", &odds.down, s.downs)] {
            let (lo, hi) = wilson(k, s.counted);
            let p = exact.to_f64().unwrap();
            assert!(lo <= p && p <= hi, "{what}: exact {p}, sampled {k}/{} [{lo}, {hi}]", s.counted);
        }
    }

    #[test]
    fn the_fight_plays_the_odds_of_a_weapon_attack_with_boosts_on_both_sides() {
        // rule: P6-RES-1, P6-RES-4, P6-RES-5, P6-DEF-1, P6-DEF-5, P6-COVER-3, P6-COVER-4
        // An attacker spending a bonus die, a reroll and a destiny die on a hit roll with no hit
        // (`spend = to_hit`); its target, before his first turn, buying his reaction with a bonus
        // die (or a destiny die) and spending the rest of his purse on the reaction and on cover
        // rolls with no success (`spend = to_defend`), what one roll leaves carrying to the next:
        // a dodge behind 5+ cover, hunkered (6+, both rolled under `cover_stacking =
        // sequential`); a parry under `parry_vs_crits = crit_successes` and `cover_crit_removal =
        // roll_order`, where a boosted cover roll's added die protects the first crit still
        // unprotected; no reaction, two cover rolls in roll order (5+, then 6+ hunkered), the
        // crit dice's boosts leaving what they do to the normal hits'. The odds follow every one
        // of these, and the fight plays them.
        let text = |options: &str, a: &str, b: &str| {
            format!(
                r#"
[rules]
ruleset = "phasesix"
options = {{ {options} }}
[[combatants]]
name = "A"
side = "a"
quickness = 5
position = 0
bonus_dice = 1
rerolls = 1
destiny_dice = 1
policy = {{ keep = "none", spend = "to_hit" }}
{a}
[[combatants.weapons]]
name = "rapier"
class = "melee"
damage_potential = 1
[[combatants]]
name = "B"
side = "b"
quickness = 1
position = 1
cover = 5
{b}
"#
            )
        };
        let dodge = text(
            "cover_stacking = \"sequential\"",
            "hand_to_hand = 1",
            "deftness = 2\nmax_wounds = 1\nhunkered = true\nbonus_dice = 2\nrerolls = 1\npolicy = { move = \"hold\", defend = \"dodge\", \
             spend = \"to_defend\" }",
        );
        let parry = text(
            "parry_vs_crits = \"crit_successes\", cover_crit_removal = \"roll_order\"",
            "hand_to_hand = 3",
            "hand_to_hand = 1\nmax_wounds = 2\ndestiny_dice = 2\nrerolls = 1\nbonus_dice = 1\npolicy = { move = \"hold\", \
             defend = \"parry\", spend = \"to_defend\" }\n[[combatants.weapons]]\nname = \"sword\"\nclass = \"melee\"\n\
             damage_potential = 1",
        );
        let cover = text(
            "cover_crit_removal = \"roll_order\", cover_stacking = \"sequential\"",
            "hand_to_hand = 3",
            "hunkered = true\nmax_wounds = 2\nbonus_dice = 1\nrerolls = 1\ndestiny_dice = 1\npolicy = { move = \"hold\", \
             defend = \"never\", spend = \"to_defend\" }",
        );
        for (name, text) in [("dodge", dodge), ("parry", parry), ("cover", cover)] {
            let setup = fray_rules::phasesix::scenario::load("boosts.toml", &text, &[]).unwrap();
            let odds = fray_rules::phasesix::odds::attack_odds(&setup, "A", "B").unwrap();
            assert!(odds.assumptions.iter().any(|a| a.starts_with("the roll alone")), "{name}: {:?}", odds.assumptions);
            let s = sample::<PhaseSix>(&setup, CombatantId(0), CombatantId(1), 20_000, 9);
            for (what, exact, k) in [("hit", &odds.hit, s.hits), ("down", &odds.down, s.downs)] {
                let (lo, hi) = wilson(k, s.counted);
                let p = exact.to_f64().unwrap();
                assert!(lo <= p && p <= hi, "{name}: {what}: exact {p}, sampled {k}/{} [{lo}, {hi}]", s.counted);
            }
        }
    }

    #[test]
    fn the_fight_plays_the_odds_of_every_opening_attack() {
        report(check_examples::<PhaseSix>("phasesix", |name, text| {
            fray_rules::phasesix::scenario::load(name, text, &[]).unwrap()
        }));
    }
}

mod opend6 {
    use super::*;
    use fray_rules::opend6::{Action, Choice, Event, OpenD6, Request};

    impl Case for OpenD6 {
        fn names(setup: &Self::Setup) -> Vec<String> {
            setup.combatants.iter().map(|c| c.name.clone()).collect()
        }
        fn odds(setup: &Self::Setup, a: &str, d: &str) -> Result<fray_rules::AttackOdds, String> {
            fray_rules::opend6::odds::attack_odds(setup, a, d)
        }
        fn force(
            setup: &Self::Setup,
            state: &Self::State,
            a: CombatantId,
            d: CombatantId,
            request: &Self::Request,
        ) -> Option<Self::Choice> {
            let Request::Act { .. } = request else { return None };
            let plan = fray_rules::opend6::odds::opening_attack(setup, state, a, d, request)?;
            Some(Choice::Act(Action::Attack(plan)))
        }
        fn new_round(event: &Self::Event) -> bool {
            matches!(event, Event::RoundStarted { .. })
        }
        fn acted_before(
            _setup: &Self::Setup,
            state: &Self::State,
            event: &Self::Event,
            a: CombatantId,
            d: CombatantId,
        ) -> bool {
            // The defender's turn in an earlier step than the attacker's (in the same step his
            // defence is held back to the step's end, OD6-INIT-4, and does not meet the attack).
            matches!(event, Event::TurnStarted { who, .. } if *who == d && step(state, d) != step(state, a))
        }
        fn held(setup: &Self::Setup, state: &Self::State, a: CombatantId) -> bool {
            // A hit is held to the round's end (`damage_timing = end_of_round`) or to the end of
            // a simultaneous step (OD6-INIT-4: ties, a group's shared initiative).
            setup.options.damage_end_of_round
                || state.order.iter().filter(|(_, s)| Some(*s) == step(state, a)).count() > 1
        }
        fn step_over(setup: &Self::Setup, state: &Self::State, event: &Self::Event, a: CombatantId) -> bool {
            !setup.options.damage_end_of_round
                && matches!(event, Event::TurnStarted { who, .. } if step(state, *who) != step(state, a))
        }
        fn out(setup: &Self::Setup, state: &Self::State, d: CombatantId) -> bool {
            state.fighter(d).out(&setup.options)
        }
        fn ai(setup: &Self::Setup, state: &Self::State, who: CombatantId, request: &Self::Request) -> Self::Choice {
            fray_rules::opend6::policy::ai_choice(setup, state, who, request)
        }
        fn idle(_setup: &Self::Setup, _state: &Self::State, request: &Self::Request) -> Option<Self::Choice> {
            // One action, a full dodge (OD6-DEF-8): his own defence, nothing on the defender.
            match request {
                Request::Declare { .. } => Some(Choice::Count(1)),
                Request::Act { only: true, .. } => {
                    Some(Choice::Act(Action::Defend { kind: fray_rules::opend6::DefKind::Dodge, full: true }))
                }
                _ => None,
            }
        }
    }

    #[test]
    fn the_fight_plays_the_odds_of_character_points_an_opening_1_may_cancel_on_resistance() {
        // rule: OD6-DICE-9, OD6-RES-1, OD6-RES-2
        // Under `cancel_cp_dice = true` and `wild_die_failure_on_damage = true` an opening 1 of
        // B's resistance roll cancels the highest die, a Character Point die spent included. B
        // (Strength 1D: the Wild Die alone) spends his 5 points on a resistance roll short of
        // what he needs, as his `points` policy does: the odds follow it, and the fight plays
        // them.
        let text = |cp: u32| {
            format!(
                "[rules]\nruleset = \"opend6\"\noptions = {{ cancel_cp_dice = true, wild_die_failure_on_damage = true \
                 }}\n[[combatants]]\nname = \"A\"\nside = \"a\"\nskills = {{ firearms = \"5D\" }}\n\
                 [[combatants.weapons]]\nname = \"pistol\"\nskill = \"firearms\"\ndamage = \"3D\"\nranges = [10, 30, \
                 120]\n[[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 8\nstrength = \"1D\"\ncharacter_points = \
                 {cp}\npolicy = {{ points = \"threshold\" }}\n"
            )
        };
        let load = |cp| fray_rules::opend6::scenario::load("cp.toml", &text(cp), &[]).unwrap();
        let setup = load(5);
        let odds = fray_rules::opend6::odds::attack_odds(&setup, "A", "B").unwrap();
        let none = fray_rules::opend6::odds::attack_odds(&load(0), "A", "B").unwrap();
        assert!(odds.down < none.down, "{:?}", odds.assumptions);
        let s = sample::<OpenD6>(&setup, CombatantId(0), CombatantId(1), 40_000, 11);
        for (what, exact, k) in [("hit", &odds.hit, s.hits), ("down", &odds.down, s.downs)] {
            let (lo, hi) = wilson(k, s.counted);
            let p = exact.to_f64().unwrap();
            assert!(lo <= p && p <= hi, "{what}: exact {p}, sampled {k}/{} [{lo}, {hi}]", s.counted);
        }
    }

    /// `who`'s step in the round's order.
    fn step(state: &fray_rules::opend6::State, who: CombatantId) -> Option<u8> {
        state.order.iter().find(|(c, _)| *c == who).map(|(_, s)| *s)
    }

    #[test]
    fn the_fight_plays_the_odds_of_every_opening_attack() {
        report(check_examples::<OpenD6>("opend6", |name, text| {
            fray_rules::opend6::scenario::load(name, text, &[]).unwrap()
        }));
    }
}
