//! The `hardboiled` catalogue's worked examples WE-1 to WE-5 with scripted dice, and variants.

use fray_engine::{CombatantId, Fight, FightError, FightResult, Outcome, Record, Scripted, SideId, replay};
use fray_rules::hardboiled::policy::Script;
use fray_rules::hardboiled::{Act, Choice, Event, HardBoiled, Setup, State, scenario};

fn setup(text: &str, sets: &[(&str, &str)]) -> Setup {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("example.toml", text, &sets).unwrap_or_else(|e| panic!("{e}"))
}

fn run(setup: &Setup, faces: &[u32], script: Script) -> (Vec<Event>, State, Result<FightResult, FightError>) {
    let mut fight = Fight::<HardBoiled, _, _, _>::new(setup, Scripted::faces(faces), script, Record::default());
    let result = fight.run();
    let (state, record) = fight.into_parts();
    (record.0, state, result)
}

fn hits(log: &[Event]) -> Vec<(usize, u8, i32, i32, i32, i32)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Hit { target, face, base, recorded, hp_loss, hp, .. } => {
                Some((target.index(), *face, *base, *recorded, *hp_loss, *hp))
            }
            _ => None,
        })
        .collect()
}

const A: CombatantId = CombatantId(0);
const B: CombatantId = CombatantId(1);

const WE1: &str = r#"
[rules]
ruleset = "hardboiled"
max_turns = 1

[[combatants]]
name = "Joe Bruno"
side = "joe"
action = 10
wits = 8
ego = 6
specialisms = [{ name = "Brawling", attribute = "action", tags = ["brawling"] }]
hp_max = 20
position = 0

[[combatants]]
name = "Paulie Newman"
side = "paulie"
action = 8
wits = 10
ego = 6
hp_max = 18
position = 1
"#;

fn paulie_silent() -> Script {
    let mut s = Script::new(2);
    s.push(1, Choice::Intent(None));
    s
}

#[test]
fn we1_the_haymaker() {
    // rule: USR-INIT-1, USR-INIT-3, USR-ATK-1, USR-ATK-2, USR-ATK-4, USR-DMG-1, USR-DMG-3, USR-DMG-4, USR-TRACK-5, USR-TRACK-6, USR-ROUND-2, USR-ROUND-3, USR-RES-8, USR-LOC-2, USR-DICE-4, USR-DICE-5, USR-CRIT-1
    let setup = setup(WE1, &[]);
    // Paulie's undeclared punch afterwards: d8 1 vs Joe's d10 6 + 2.
    let (log, state, result) = run(&setup, &[7, 2, 9, 3, 3, 1, 6], paulie_silent());
    result.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Declared { who: A, intent: Act::Attack { target: B, .. } })));
    assert!(!log.iter().any(|e| matches!(e, Event::Declared { who: B, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 1)])));
    let joe = log.iter().find_map(|e| match e {
        Event::Contest { who: A, roll, against: Some(d), margin, declared, .. } => {
            Some((roll.total, d.total, *margin, *declared))
        }
        _ => None,
    });
    assert_eq!(joe, Some((11, 3, 8, true)));
    assert_eq!(hits(&log), [(1, 3, 8, 8, 4, 14)]);
    assert_eq!(state.fighter(B).hp, 14);
    assert_eq!(state.fighter(B).tally, 8);
    assert!(!state.fighter(B).knocked_out(1));
    assert!(!log.iter().any(|e| matches!(e, Event::SecondWind { .. } | Event::Confirm { .. })));
    // Paulie's action is logged undeclared.
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: B, declared: false, .. })));
    assert_eq!(replay::<HardBoiled>(&setup, &log), state);
}

#[test]
fn we1_variants() {
    // rule: USR-TRACK-4, USR-TRACK-5, USR-TRACK-6
    let sixteen = setup(&WE1.replace("hp_max = 18", "hp_max = 16"), &[]);
    let (log, _, result) = run(&sixteen, &[7, 2, 9, 3, 3], paulie_silent());
    assert!(log.contains(&Event::KnockedOut { who: B, until: u32::MAX }));
    assert_eq!(result.unwrap().outcome, Outcome::Side(SideId(0)));
    let lost = setup(&WE1.replace("hp_max = 18", "hp_max = 16"), &[("ko_damage_basis", "hp_lost")]);
    let (log, state, fought) = run(&lost, &[7, 2, 9, 3, 3, 1, 6], paulie_silent());
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::KnockedOut { .. })));
    assert_eq!(state.fighter(B).tally, 4);
}

const WE2: &str = r#"
[rules]
ruleset = "hardboiled"
max_turns = 1

[[combatants]]
name = "Joe Bruno"
side = "joe"
action = 10
wits = 8
ego = 6
specialisms = [{ name = "Shooting", attribute = "action", tags = ["shooting"] }]
hp_max = 20
weapon = "automatic_45"
position = 0

[[combatants]]
name = "Intruder"
side = "intruder"
action = 6
wits = 8
ego = 10
hp_max = 10
armour = ["bulletproof_vest"]
position = 5
"#;

#[test]
fn we2_the_45() {
    // rule: USR-RNG-1, USR-RNG-2, USR-RNG-3, USR-RNG-5, USR-RNG-6, USR-RNG-8, USR-ARM-1, USR-TRACK-4, USR-TRACK-5, USR-LOC-1, USR-CRIT-7, USR-ROUND-6, USR-RES-7
    let setup = setup(WE2, &[]);
    let (log, state, result) = run(&setup, &[8, 4, 6, 2], Script::new(2));
    assert_eq!(result.unwrap(), FightResult { outcome: Outcome::Side(SideId(0)), length: 1 });
    let shot = log.iter().find_map(|e| match e {
        Event::Contest { who: A, roll, difficulty, margin, success, .. } => {
            Some((roll.total, *difficulty, *margin, *success))
        }
        _ => None,
    });
    assert_eq!(shot, Some((8, Some(4), 4, true)));
    assert_eq!(hits(&log), [(1, 2, 10, 7, 7, 3)]);
    assert!(log.iter().any(|e| matches!(e, Event::Hit { stop: 3, weapon_damage: Some(6), .. })));
    assert!(log.contains(&Event::KnockedOut { who: B, until: u32::MAX }));
    assert!(!log.iter().any(|e| matches!(e, Event::Down { .. } | Event::SecondWind { .. })));
    assert_eq!(state.fighter(B).hp, 3);
    // Location 7: the right leg, unarmoured: recorded 10, HP 0, knocked out and down.
    let (log, state, fought) = run(&setup, &[8, 4, 6, 7], Script::new(2));
    fought.unwrap();
    assert_eq!(hits(&log), [(1, 7, 10, 10, 10, 0)]);
    assert!(log.contains(&Event::KnockedOut { who: B, until: u32::MAX }) && log.contains(&Event::Down { who: B }));
    assert!(state.fighter(B).down());
}

const WE3: &str = r#"
[rules]
ruleset = "hardboiled"
max_turns = 1

[[combatants]]
name = "Lou"
side = "lou"
action = 8
wits = 10
ego = 6
specialisms = [{ name = "Shooting", attribute = "action", tags = ["shooting"] }]
hp_max = 20
weapon = "walther_ppk"
position = 0

[[combatants]]
name = "Target"
side = "target"
action = 6
wits = 8
ego = 10
hp_max = 20
position = 3
policy = { move = "hold" }
"#;

#[test]
fn we3_the_walther_ppk() {
    // rule: USR-RNG-3, USR-RNG-5, USR-RNG-7, USR-RNG-8, USR-ACT-3
    let setup = setup(WE3, &[]);
    let shoot = |off_balance| {
        let mut s = Script::new(2);
        s.push(0, Choice::Act(Act::Attack { target: B, fists: false, called: None, off_balance }));
        s.push(0, Choice::Act(Act::End));
        s
    };
    // Leaning on the bar: d8 2 + 2 = 4 against Close 4: a hit of margin 0; damage 0 + 4.
    let (log, _, fought) = run(&setup, &[5, 1, 2, 3, 1, 1], shoot(false));
    fought.unwrap();
    assert_eq!(hits(&log), [(1, 3, 4, 4, 4, 16)]);
    // Diving for cover: the same 2 → total 2, a miss.
    let (log, _, fought) = run(&setup, &[5, 1, 2, 1, 1], shoot(true));
    fought.unwrap();
    assert!(hits(&log).is_empty());
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, roll, success: false, .. } if roll.total == 2)));
    // `ranged_hit_test = greater_than`: 4 against 4 misses too.
    let strict = self::setup(WE3, &[("ranged_hit_test", "greater_than")]);
    let (log, _, fought) = run(&strict, &[5, 1, 2, 1, 1], shoot(false));
    fought.unwrap();
    assert!(hits(&log).is_empty());
    // One shot a turn by default; three with `max_attacks_per_turn = 3`, at −2 and −4 more.
    let (_, state, fought) = run(&setup, &[5, 1, 1, 1, 1], shoot(false));
    fought.unwrap();
    assert_eq!(state.fighter(A).attacks, 1);
    let tough = WE3.replace("hp_max = 20\nposition = 3", "hp_max = 60\nposition = 3");
    let three = self::setup(&tough, &[("max_attacks_per_turn", "3")]);
    let mut s = Script::new(2);
    for _ in 0..3 {
        s.push(0, Choice::Act(Act::Attack { target: B, fists: false, called: None, off_balance: true }));
    }
    let (log, _, fought) = run(&three, &[5, 1, 8, 1, 4, 8, 8, 1, 8, 1, 1], s);
    fought.unwrap();
    let totals: Vec<i32> = log
        .iter()
        .filter_map(|e| match e {
            Event::Contest { who: A, roll, .. } => Some(roll.total),
            _ => None,
        })
        .collect();
    assert_eq!(totals, [8, 6, 4]);
}

const WE4: &str = r#"
[rules]
ruleset = "hardboiled"
max_turns = 1

[[combatants]]
name = "Vinnie"
side = "vinnie"
action = 10
wits = 8
ego = 6
specialisms = [{ name = "Knife-fighting", attribute = "action", tags = ["melee"] }]
hp_max = 20
weapon = "knife"
position = 0

[[combatants]]
name = "Rocco"
side = "rocco"
action = 8
wits = 10
ego = 6
hp_max = 12
weapon = "club"
armour = ["leather_jacket"]
position = 1
"#;

#[test]
fn we4_melee_critical() {
    // rule: USR-CRIT-1, USR-CRIT-2, USR-CRIT-3, USR-CRIT-4, USR-ATK-3, USR-ARM-1, USR-TRACK-4
    let setup = setup(WE4, &[]);
    let (log, state, fought) = run(&setup, &[9, 2, 10, 1, 10, 3], Script::new(2));
    fought.unwrap();
    let contest = log.iter().find_map(|e| match e {
        Event::Contest { who: A, roll, against: Some(d), margin, critical, .. } => {
            Some((roll.total, d.total, *margin, *critical))
        }
        _ => None,
    });
    assert_eq!(contest, Some((13, 2, 11, true)));
    assert!(log.contains(&Event::Confirm {
        who: A,
        kind: fray_rules::hardboiled::Opportunity::Critical,
        face: 10,
        confirmed: true
    }));
    assert_eq!(hits(&log), [(1, 3, 11, 11, 11, 1)]);
    assert!(log.contains(&Event::KnockedOut { who: B, until: u32::MAX }));
    assert_eq!(state.fighter(B).hp, 1);
    // Confirm d10 4: no critical; the jacket counts: recorded 10, HP 2, still knocked out.
    let (log, state, fought) = run(&setup, &[9, 2, 10, 1, 4, 3], Script::new(2));
    fought.unwrap();
    assert_eq!(hits(&log), [(1, 3, 11, 10, 10, 2)]);
    assert!(state.fighter(B).knocked_out(1));
}

const WE5: &str = r#"
[rules]
ruleset = "hardboiled"
max_turns = 2

[[combatants]]
name = "Shooter"
side = "shooter"
action = 10
wits = 8
ego = 6
hp_max = 20
weapon = "revolver_38"
position = 0

[[combatants]]
name = "Paulie"
side = "paulie"
action = 8
wits = 10
ego = 6
hp_max = 14
hp = 6
position = 5
policy = { move = "hold" }
"#;

#[test]
fn we5_second_wind() {
    // rule: USR-RES-1, USR-RES-2, USR-RES-3, USR-RES-4, USR-RES-5, USR-RES-6, USR-RES-7, USR-RES-8, USR-RES-9, USR-TRACK-3
    let setup = setup(WE5, &[]);
    // Turn 1: initiative 9 / 2; the shot: d10 4 against Close 4, margin 0; torso; .38's 5.
    // Turn 2: initiative 9 / 2; d10 5, margin 1; torso; 6.
    let (log, state, result) = run(&setup, &[9, 2, 4, 3, 9, 2, 5, 3], Script::new(2));
    assert_eq!(result.unwrap().outcome, Outcome::Side(SideId(0)));
    assert_eq!(hits(&log), [(1, 3, 5, 5, 5, 1), (1, 3, 6, 6, 6, -2)]);
    let wind = log.iter().find_map(|e| match e {
        Event::SecondWind { who: B, gained, hp, line } => Some((*gained, *hp, line.clone())),
        _ => None,
    });
    // The simulation fills in the stock line, which the log acts out; a person's own words
    // replace it.
    assert_eq!(wind, Some((3, 4, None)));
    let front = fray_rules::hardboiled::HardBoiledScenario(setup.clone());
    let name = &setup.combatants[1].name;
    let shown = |line: Option<String>| {
        front.line(&Event::SecondWind { who: B, gained: 3, hp: 4, line }).text.expect("a line of the log")
    };
    assert_eq!(
        shown(None),
        format!("{name} catches a Second Wind: +3 HP (HP 4) — \"{name} grits their teeth and catches a second wind\"")
    );
    assert_eq!(
        shown(Some("Not today.".into())),
        format!("{name} catches a Second Wind: +3 HP (HP 4) — \"Not today.\"")
    );
    assert_eq!(log.iter().filter(|e| matches!(e, Event::SecondWind { .. })).count(), 1);
    assert!(log.contains(&Event::Down { who: B }));
    assert!(state.fighter(B).second_wind_used);
    assert!(!state.fighter(B).knocked_out(2));
}
