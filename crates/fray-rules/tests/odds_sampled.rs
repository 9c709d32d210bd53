//! Odds in context checked against the fight: for every shipped example and every attacker and
//! defender whose opening attack the odds give (`fray odds --scenario FILE --attacker A
//! --defender D`), the fight plays that attack from the opening state in at least 100,000
//! sampled fights, and the exact odds of a hit and of taking the defender out must lie inside the
//! sample's 99.9% (Wilson) interval, widened by the odds' residual.
//!
//! Each sampled fight is the real fight, every decision by the combatants' AI policies, except
//! that the attacker's opening attack is aimed at the defender as the odds assume it (its weapon,
//! mode and aim as its policies choose them against that defender). A fight is followed only up
//! to the end of that attack: from the first attack any combatant makes to the next attack, or
//! the next round (tick, turn). A fight in which someone else attacks first is not counted (the
//! odds are those of the opening attack), and the sampler plays on with new fights until 100,000
//! have counted. What the defender decides after the roll (a defence, a reaction, Second Wind, a
//! sunder, a stay-up roll) is the fight's own, by the policies: the odds must follow them.
//!
//! `FRAY_ODDS_SAMPLES=N` changes the number of counted fights per pair (e.g. a million for a
//! closer look); the default is 100,000.

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
    /// Whether `event` calls off `a`'s attack once rolled (it then neither hits nor is tallied).
    fn called_off(_event: &Self::Event, _a: CombatantId) -> bool {
        false
    }
    /// Whether `event` starts a new round (tick, turn).
    fn new_round(event: &Self::Event) -> bool;
    /// Whether `d` is out of the fight, as the odds count it.
    fn out(setup: &Self::Setup, state: &Self::State, d: CombatantId) -> bool;
    /// The ruleset's AI.
    fn ai(setup: &Self::Setup, state: &Self::State, who: CombatantId, request: &Self::Request) -> Self::Choice;
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
    hit: bool,
    out: bool,
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
        let attack = R::tally(event);
        match p.phase {
            Phase::Waiting => match attack {
                Some(Tally::Attack { by, hit, .. }) if by == self.a => {
                    p.phase = Phase::Resolving;
                    p.hit = hit;
                }
                Some(Tally::Attack { .. }) => {
                    p.phase = Phase::Discarded;
                    self.stop.set(true);
                }
                _ if R::called_off(event, self.a) => {
                    p.phase = Phase::Resolving;
                    p.hit = false;
                }
                _ => {}
            },
            Phase::Resolving if matches!(attack, Some(Tally::Attack { .. })) || R::new_round(event) => {
                p.out = R::out(self.setup, &p.shadow, self.d);
                p.phase = Phase::Done;
                self.stop.set(true);
            }
            _ => {}
        }
        R::apply(self.setup, &mut p.shadow, event);
    }
}

struct Play<'p, R: Case> {
    probe: &'p RefCell<Probe<R>>,
    a: CombatantId,
    d: CombatantId,
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
            Phase::Waiting if who == self.a => {
                Ok(R::force(setup, state, self.a, self.d, request).unwrap_or_else(|| R::ai(setup, state, who, request)))
            }
            _ => Ok(R::ai(setup, state, who, request)),
        }
    }
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
    let probe = RefCell::new(Probe::<R> {
        phase: Phase::Waiting,
        hit: false,
        out: false,
        shadow: R::initial_state(setup),
    });
    let stop = Cell::new(false);
    let dice = StopDice { inner: fray_engine::FromSource(fray_dice::seeded(seed)), stop: &stop };
    let watch = Watch::<R> { setup, probe: &probe, stop: &stop, a, d };
    let mut fight = Fight::<R, _, _, _>::new(setup, dice, Play { probe: &probe, a, d }, watch);
    let mut out = Sampled { counted: 0, hits: 0, downs: 0, discarded: 0 };
    let mut fights = 0u32;
    while out.counted < n {
        fights += 1;
        assert!(fights <= 20 * n, "too many fights in which someone else attacks first ({} discarded)", out.discarded);
        {
            let mut p = probe.borrow_mut();
            p.phase = Phase::Waiting;
            p.hit = false;
            p.out = false;
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
    (centre - half, centre + half)
}

/// Checks every pair of every example of ruleset `R` in `dir`; returns the report lines of the
/// pairs that disagree.
fn check_examples<R: Case>(dir: &str, load: impl Fn(&str, &str) -> R::Setup) -> Vec<String> {
    let n = samples();
    let mut failures = Vec::new();
    let started = std::time::Instant::now();
    let mut pairs = 0;
    for file in common::example_files().into_iter().filter(|f| f.parent().is_some_and(|p| p.ends_with(dir))) {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let setup = load(&name, &text);
        let names = R::names(&setup);
        for (ai, a) in names.iter().enumerate() {
            for (di, d) in names.iter().enumerate() {
                if ai == di {
                    continue;
                }
                let Ok(odds) = R::odds(&setup, a, d) else { continue };
                pairs += 1;
                let seed = 0x0dd5 + (ai * 64 + di) as u64;
                let s = sample::<R>(&setup, CombatantId(ai as u16), CombatantId(di as u16), n, seed);
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
    eprintln!("{dir}: {pairs} pairs, {n} counted fights each, in {:.1?}", started.elapsed());
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
            let act = Act::Attack { target: d, fists, called: policy::called(setup, state, a, d, weapon), off_balance: false };
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
