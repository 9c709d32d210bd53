//! `ticks` odds in context as the fight plays them: a blow the attacker's AI aborts once rolled
//! and a shot it declines do not land and meet no defence (TICK-MELEE-5/10, TICK-GUN-8/11), so
//! the odds follow `abort_policy` and `decline_policy`; the roll alone is given beside them.

use fray_engine::{CombatantId, Decider, Fight, FnSink, Pending, Ruleset};
use fray_rules::ticks::odds::{odds_in_state, roll_odds_of};
use fray_rules::ticks::setup::{Blow, Setup};
use fray_rules::ticks::{Action, Choice, Event, Kind, Request, State, Ticks};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ticks");
const MAX: CombatantId = CombatantId(0);
const TIA: CombatantId = CombatantId(1);

/// The knife fight with Tia one square from Max, and `sets`.
fn knife(sets: &[(&str, &str)]) -> Setup {
    let text = std::fs::read_to_string(format!("{EXAMPLES}/knife-fight.toml")).unwrap();
    let text = text.replace("position = [2, 0]", "position = [1, 0]");
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    fray_rules::ticks::scenario::load("knife-fight.toml", &text, &sets).unwrap()
}

fn q(p: &fray_dice::BigRational) -> String {
    fray_dice::fraction(p)
}

#[test]
fn the_odds_of_a_blow_follow_the_abort_policy() {
    // rule: TICK-MELEE-10
    // Max (melee 7, knife) strikes Tia (melee 6, effort 60: never short): A = d20 + 7 against
    // d20 + 6. Rolled x on his d20, the blow wins on Tia's y ≤ x: x/20. Aborted below a third,
    // x ≤ 6 (3/10 of the time): P(hit) = (7 + … + 20)/400 = 189/400; below a half, x ≤ 9:
    // (10 + … + 20)/400 = 33/80; never: (1 + … + 20)/400 = 21/40, the roll alone.
    for (policy, hit) in [("below_one_third", "189/400"), ("below_half", "33/80"), ("never", "21/40")] {
        let s = knife(&[("abort_policy", policy)]);
        let state = Ticks::initial_state(&s);
        let odds = odds_in_state(&s, &state, MAX, TIA);
        assert_eq!(q(&odds.hit), hit, "{policy}");
        let alone = roll_odds_of(&s, &state, MAX, TIA, Kind::Melee(Blow::Strike), None);
        assert_eq!(q(&alone.hit), "21/40", "{policy}");
        assert!(odds.assumptions.iter().any(|a| a.contains(&format!("abort_policy = {policy}"))), "{odds:?}");
    }
    // The expected effort Tia spends counts only the blows carried through.
    let effort = |policy: &str| {
        let s = knife(&[("abort_policy", policy)]);
        let text = fray_rules::ticks::odds::attack_odds_at(&s, "Max", "Tia", None).unwrap().assumptions.join("\n");
        text.lines().find(|l| l.starts_with("expected effort")).unwrap().to_owned()
    };
    assert_eq!(effort("below_one_third"), "expected effort Tia spends on this defence: 61/10");
    assert_eq!(effort("never"), "expected effort Tia spends on this defence: 149/20");
}

#[test]
fn the_odds_of_a_shot_follow_the_decline_policy() {
    // rule: TICK-GUN-11, TICK-GUN-8
    // The pistol duel: Sam's snap shot at Vic, 10 m: d20 − 4 (shoot 6, PB +5, −5 for range, −10
    // ready) against d20 + 6. Rolled x, the shot wins on Vic's y ≤ x − 11. Hopeless for x ≤ 11
    // (11/20 of the time): declined, and P(hit) = (1 + … + 9)/400 = 9/80 as if fired, but Vic spends
    // less effort; below a third, x ≤ 17 is declined: (7 + 8 + 9)/400 = 3/50.
    let text = std::fs::read_to_string(format!("{EXAMPLES}/pistol-duel.toml")).unwrap();
    let odds = |policy: &str| {
        let sets = [("decline_policy".to_owned(), policy.to_owned())];
        let s = fray_rules::ticks::scenario::load("pistol-duel.toml", &text, &sets).unwrap();
        fray_rules::ticks::odds::attack_odds_at(&s, "Sam", "Vic", None).unwrap()
    };
    let effort = |o: &fray_rules::AttackOdds| o.assumptions.iter().find(|a| a.starts_with("expected effort")).cloned();
    let (hopeless, never, third) = (odds("hopeless"), odds("never"), odds("below_one_third"));
    assert_eq!((q(&hopeless.hit), q(&never.hit), q(&third.hit)), ("9/80".into(), "9/80".into(), "3/50".into()));
    assert!(hopeless.assumptions.iter().any(|a| a.contains("11/20 of the time")), "{hopeless:?}");
    assert_eq!(effort(&never).unwrap(), "expected effort Vic spends on this defence: 10/1");
    assert_eq!(effort(&hopeless).unwrap(), "expected effort Vic spends on this defence: 105/16");
    assert!(
        third
            .assumptions
            .iter()
            .any(|a| a == "the roll alone, every roll carried through: hit 9/80, takes Vic out 0/1")
    );
}

/// Max strikes Tia (weak point as the policy declares it); Tia does nothing; the abort is the AI's.
struct OneBlow;

impl Decider<Ticks> for OneBlow {
    fn decide(&mut self, setup: &Setup, state: &State, who: CombatantId, request: &Request) -> Result<Choice, Pending> {
        Ok(match request {
            Request::Announce { .. } if who == MAX => {
                let pen = setup.combatants[MAX.index()].melee_weapon.penetration;
                let weak_point = fray_rules::ticks::policy::wants_weak_point(setup, TIA, pen);
                Choice::Announce(Action::Melee { target: TIA, blow: Blow::Strike, weak_point })
            }
            Request::Announce { .. } => Choice::Announce(Action::Nothing),
            _ => fray_rules::ticks::policy::ai_choice(setup, state, who, request),
        })
    }
}

#[test]
fn the_fight_lands_the_blow_as_often_as_the_odds_say() {
    // rule: TICK-MELEE-10
    // 40,000 one-tick fights of Max's opening blow: the blow lands as often as the odds as played
    // say, and not as often as the roll alone.
    let s = knife(&[("tick_cap", "1")]);
    let state = Ticks::initial_state(&s);
    let exact = odds_in_state(&s, &state, MAX, TIA);
    let alone = roll_odds_of(&s, &state, MAX, TIA, Kind::Melee(Blow::Strike), None);
    let n = 40_000u32;
    let (mut hits, mut aborts) = (0u32, 0u32);
    let sink = FnSink(|e: &Event| match e {
        Event::Exchange { attacker: MAX, hit: true, .. } => hits += 1,
        Event::Aborted { who: MAX } => aborts += 1,
        _ => {}
    });
    let mut fight = Fight::<Ticks, _, _, _>::new(&s, fray_engine::FromSource(fray_dice::seeded(3)), OneBlow, sink);
    for _ in 0..n {
        fight.restart();
        fight.run().unwrap();
    }
    drop(fight);
    use num_traits::ToPrimitive;
    let observed = f64::from(hits) / f64::from(n);
    let within = |p: f64| (observed - p).abs() < 4.5 * (p * (1.0 - p) / f64::from(n)).sqrt();
    assert!(within(exact.hit.to_f64().unwrap()), "exact {}, sampled {observed}", q(&exact.hit));
    assert!(!within(alone.hit.to_f64().unwrap()), "the roll alone {}, sampled {observed}", q(&alone.hit));
    let aborted = f64::from(aborts) / f64::from(n);
    assert!((aborted - 0.3).abs() < 4.5 * (0.3f64 * 0.7 / f64::from(n)).sqrt(), "aborted {aborted}");
}

#[test]
fn the_odds_measure_the_straight_line_off_the_axis() {
    // rule: TICK-MOVE-2
    // Vic 6 squares across and 8 up from Sam: 10 squares apart, the centres' straight line.
    let text = std::fs::read_to_string(format!("{EXAMPLES}/pistol-duel.toml")).unwrap();
    let text = text.replace("position = [10, 0]", "position = [6, 8]");
    let s = fray_rules::ticks::scenario::load("pistol-duel.toml", &text, &[]).unwrap();
    let odds = fray_rules::ticks::odds::attack_odds_at(&s, "Sam", "Vic", None).unwrap();
    assert_eq!(odds.distance, Some(10.0));
    // On the 10-square line from the file's pistol duel, the same odds as at 10 squares along x.
    let along = fray_rules::ticks::odds::attack_odds_at(&shipped_pistol_duel(), "Sam", "Vic", None).unwrap();
    assert_eq!(q(&odds.hit), q(&along.hit));
    // Asked at 5 squares, Sam stands at [3, 4], 5 squares off.
    let at = fray_rules::ticks::odds::attack_odds_at(&s, "Sam", "Vic", Some(5.0)).unwrap();
    assert_eq!(at.distance, Some(5.0));
    assert!(at.assumptions[0].contains("(3, 4)"), "{:?}", at.assumptions);
}

/// The shipped pistol duel, unchanged.
fn shipped_pistol_duel() -> Setup {
    let text = std::fs::read_to_string(format!("{EXAMPLES}/pistol-duel.toml")).unwrap();
    fray_rules::ticks::scenario::load("pistol-duel.toml", &text, &[]).unwrap()
}
