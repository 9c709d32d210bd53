//! The `ticks` catalogue's worked examples T-EX-1 to T-EX-9, with scripted dice and choices.

use fray_engine::{CombatantId, Dice, Fight, FightError, FightResult, Reason, Record, replay};
use fray_rules::ticks::policy::Script;
use fray_rules::ticks::{
    Action, Blow, Choice, Event, Setup, State, Ticks, printed_table, recover, recover_ticks, scenario,
};

const SAM: CombatantId = CombatantId(0);
const TIA: CombatantId = CombatantId(1);

/// Scripted faces for the fight's dice; the announcement order (its own stream) keeps the roster.
struct Faces(Vec<u32>, usize);

impl Dice for Faces {
    fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, fray_dice::SourceError> {
        if reason.what == "announcement order" {
            return Ok(sides);
        }
        let face =
            *self.0.get(self.1).ok_or_else(|| fray_dice::SourceError(format!("no face left for {}", reason.what)))?;
        self.1 += 1;
        assert!(face >= 1 && face <= sides, "face {face} for a d{sides} ({})", reason.what);
        Ok(face)
    }
}

fn setup(text: &str, sets: &[(&str, &str)]) -> Setup {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("t.toml", text, &sets).unwrap_or_else(|e| panic!("{e}"))
}

fn run(setup: &Setup, faces: &[u32], script: Script) -> (Vec<Event>, State, Result<FightResult, FightError>) {
    let mut fight = Fight::<Ticks, _, _, _>::new(setup, Faces(faces.to_vec(), 0), script, Record::default());
    let result = fight.run();
    let (state, record) = fight.into_parts();
    (record.0, state, result)
}

fn script(entries: &[(usize, Choice)]) -> Script {
    let mut s = Script::new(3);
    for (w, c) in entries {
        s.push(*w, *c);
    }
    s
}

/// The state at the end of each tick (index 0: tick 1).
fn tick_ends(setup: &Setup, log: &[Event]) -> Vec<State> {
    let mut out = Vec::new();
    for (i, e) in log.iter().enumerate() {
        if matches!(e, Event::TickStarted { tick } if *tick > 1) || matches!(e, Event::Ended { .. }) {
            out.push(replay::<Ticks>(setup, &log[..i]));
        }
    }
    out
}

fn pe(s: &State, who: CombatantId) -> (i32, i32) {
    (s.fighter(who).p, s.fighter(who).effort)
}

/// Sam (shoot 5, a pistol) and Tia (evade 5, melee 5), 6 m apart; `sam`, `tia` extra lines.
fn cast(sam: &str, tia: &str, cap: u32) -> String {
    format!(
        r#"
[rules]
ruleset = "ticks"
[rules.options]
tick_cap = {cap}

[[combatants]]
name = "Sam"
side = "a"
skills = {{ shoot = 5, melee = 5, evade = 5 }}
position = [0, 0]
{sam}

[[combatants]]
name = "Tia"
side = "b"
skills = {{ shoot = 5, melee = 5, evade = 5 }}
{tia}
"#
    )
}

const FIRE: Choice = Choice::Announce(Action::fire(TIA, 1, false));
const NOTHING: Choice = Choice::Announce(Action::Nothing);
const PULL: Choice = Choice::Yes(false);

#[test]
fn t_ex_1_the_recovery_table() {
    // rule: TICK-STAB-2, TICK-STAB-3, TICK-STAB-5
    assert_eq!(recover(14), 11);
    assert_eq!(recover_ticks(14, 2), 8);
    assert_eq!(printed_table(14, 2), 9);
    assert_eq!(recover(11), 8);
    assert_eq!(recover_ticks(20, 6), 2);
    assert_eq!(recover(1), 0);
    assert_eq!((0..=30).find(|&k| recover_ticks(30, k) == 0), Some(10));
    // The printed table literally, under `stability_recovery = printed_table`: 14 after 2 idle ticks.
    let s = setup(
        &cast("stability = 14", "position = [30, 0]\nstability = 14", 2),
        &[("stability_recovery", "printed_table")],
    );
    let (log, state, fought) = run(&s, &[], script(&[(0, NOTHING), (0, NOTHING), (1, NOTHING), (1, NOTHING)]));
    fought.unwrap();
    assert_eq!(state.fighter(SAM).p, 9);
    let formula = setup(&cast("stability = 14", "position = [30, 0]\nstability = 14", 2), &[]);
    let (_, state2, fought) = run(&formula, &[], script(&[(0, NOTHING), (0, NOTHING), (1, NOTHING), (1, NOTHING)]));
    fought.unwrap();
    assert_eq!(state2.fighter(SAM).p, 8);
    assert!(log.contains(&Event::Recovered { who: SAM, from: 14, to: 11 }));
    // Only idle ticks read the printed table: acting in tick 1 (aiming) and idle in tick 2 gives
    // 14 → 11 → 8 (a new idle streak from 11), never the printed 9.
    let busy = setup(
        &cast("stability = 14\ngun = \"pistol\"\ngun_ready = true", "position = [30, 0]", 2),
        &[("stability_recovery", "printed_table")],
    );
    let (_, state, fought) =
        run(&busy, &[], script(&[(0, Choice::Announce(Action::Aim(TIA))), (0, NOTHING), (1, NOTHING), (1, NOTHING)]));
    fought.unwrap();
    assert_eq!(state.fighter(SAM).p, 8);
}

/// The catalogue's corrected table: p after 1–6 ticks and ticks to 0, rows 1–30.
const TABLE: [[i32; 7]; 30] = [
    [0, 0, 0, 0, 0, 0, 1],
    [1, 0, 0, 0, 0, 0, 2],
    [2, 1, 0, 0, 0, 0, 3],
    [2, 1, 0, 0, 0, 0, 3],
    [3, 2, 1, 0, 0, 0, 4],
    [4, 2, 1, 0, 0, 0, 4],
    [5, 3, 2, 1, 0, 0, 5],
    [6, 4, 2, 1, 0, 0, 5],
    [6, 4, 2, 1, 0, 0, 5],
    [7, 5, 3, 2, 1, 0, 6],
    [8, 6, 4, 2, 1, 0, 6],
    [9, 6, 4, 2, 1, 0, 6],
    [10, 7, 5, 3, 2, 1, 7],
    [11, 8, 6, 4, 2, 1, 7],
    [12, 9, 6, 4, 2, 1, 7],
    [12, 9, 6, 4, 2, 1, 7],
    [13, 10, 7, 5, 3, 2, 8],
    [14, 11, 8, 6, 4, 2, 8],
    [15, 12, 9, 6, 4, 2, 8],
    [16, 12, 9, 6, 4, 2, 8],
    [17, 13, 10, 7, 5, 3, 9],
    [18, 14, 11, 8, 6, 4, 9],
    [19, 15, 12, 9, 6, 4, 9],
    [20, 16, 12, 9, 6, 4, 9],
    [20, 16, 12, 9, 6, 4, 9],
    [21, 17, 13, 10, 7, 5, 10],
    [22, 18, 14, 11, 8, 6, 10],
    [23, 19, 15, 12, 9, 6, 10],
    [24, 20, 16, 12, 9, 6, 10],
    [25, 20, 16, 12, 9, 6, 10],
];

#[test]
fn the_corrected_and_the_printed_recovery_tables() {
    // rule: TICK-STAB-2, TICK-STAB-3, TICK-STAB-5
    let mut differences = 0;
    for (i, row) in TABLE.iter().enumerate() {
        let p = i as i32 + 1;
        for k in 1..=6u32 {
            assert_eq!(recover_ticks(p, k), row[k as usize - 1], "p {p} after {k}");
            if p <= 20 && printed_table(p, k) != recover_ticks(p, k) {
                differences += 1;
            }
        }
        assert_eq!((1..).find(|&k| recover_ticks(p, k) == 0), Some(row[6] as u32), "p {p} to 0");
    }
    assert_eq!(differences, 1);
    // Rounding √p up or to nearest would break 19 and 12 of the 20 printed rows.
    let printed_rows_broken = |step: fn(i32) -> i32| {
        (1..=20).filter(|&p| (1..=6u32).any(|k| (0..k).fold(p, |x, _| x - step(x)) != printed_table(p, k))).count()
    };
    let up = printed_rows_broken(|x| if x <= 0 { 0 } else { (f64::from(x).sqrt().ceil() as i32).min(x) });
    let nearest = printed_rows_broken(|x| if x <= 0 { 0 } else { (f64::from(x).sqrt().round() as i32).min(x) });
    assert_eq!((up, nearest), (19, 12));
    // `fray check` shows the table a scenario's options give.
    let formula = fray_rules::ticks::front::recovery_table(false);
    let printed = fray_rules::ticks::front::recovery_table(true);
    assert!(formula.contains("    14  11   8   6   4   2   1     7"), "{formula}");
    assert!(printed.contains("    14  11   9   6   4   2   1     7"), "{printed}");
}

#[test]
fn t_ex_2_pistol_snap_shots_and_a_firing_string() {
    // rule: TICK-GUN-3, TICK-GUN-4, TICK-GUN-5, TICK-DEF-2, TICK-DEF-4, TICK-DEF-6, TICK-DMG-1, TICK-DMG-3, TICK-DMG-6
    // rule: TICK-TIME-4, TICK-TIME-10, TICK-TRACK-2, TICK-STAB-4, TICK-DICE-2, TICK-DICE-4
    let s = setup(&cast("gun = \"pistol\"", "position = [6, 0]", 4), &[]);
    let entries = [
        (0, FIRE),
        (0, PULL),
        (0, FIRE),
        (0, PULL),
        (0, NOTHING),
        (0, NOTHING),
        (1, NOTHING),
        (1, NOTHING),
        (1, NOTHING),
        (1, NOTHING),
    ];
    let (log, state, result) = run(&s, &[15, 8, 17, 6, 7], script(&entries));
    result.unwrap();
    // Tick 1: ready 0 → 10 before the roll; A = 15 + 5 + 2 − 10 = 12, D = 13: Tia wins by 1, spends 19.
    assert!(log.contains(&Event::Readied { who: SAM, penalty: 10 }));
    assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { who: SAM, a: 12, range: 2, p: 10, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: TIA, d: 13, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Exchange { delta: -1, effort: 19, hit: false, .. })));
    let ends = tick_ends(&s, &log);
    assert_eq!(pe(&ends[0], TIA), (15, 41));
    assert_eq!(pe(&ends[0], SAM), (10, 60));
    assert!(ends[0].fighter(SAM).string_open);
    // Tick 2: A = 17 + 5 + 2 − 10 = 14; D = 6 + 5 − 15 = −4; delta 18; 22 damage to the right leg: 11 Body, a wound.
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: TIA, d: -4, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Hit { face: 7, raw: 22, body: 11, wounds: 1, .. })));
    let t2 = &ends[1];
    assert_eq!((t2.fighter(TIA).body, t2.fighter(TIA).wounds), (19, 1));
    assert_eq!(pe(t2, TIA), (30, 21));
    assert_eq!(pe(t2, SAM).0, 10);
    // Tick 3: the string closes, 10 + 7 = 17 → 13; Tia 30 → 25, effort 22. Tick 4: 13 → 10, 25 → 20, 23.
    assert_eq!(pe(&ends[2], SAM).0, 13);
    assert_eq!(pe(&ends[2], TIA), (25, 22));
    assert_eq!(pe(&ends[3], SAM).0, 10);
    assert_eq!(pe(&ends[3], TIA), (20, 23));
    assert_eq!(state, replay::<Ticks>(&s, &log));
    // `string_penalty_scope = tick`: tick 1 ends 13 + 7 = 20 → 16, and the tick-2 shot rolls at −16.
    // (A deferring gun's string still runs over consecutive ticks: see T-EX-9.)
    let per_tick = setup(&cast("gun = \"pistol\"", "position = [6, 0]", 2), &[("string_penalty_scope", "tick")]);
    let (log, _, fought) = run(&per_tick, &[15, 8, 17, 6, 7], script(&entries));
    fought.unwrap();
    assert_eq!(pe(&tick_ends(&per_tick, &log)[0], SAM).0, 16);
    assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { who: SAM, p: 16, .. })));
}

#[test]
fn t_ex_3_declining_a_shot() {
    // rule: TICK-GUN-8, TICK-GUN-11, TICK-GUN-5
    let s = setup(&cast("gun = \"pistol\"", "position = [6, 0]", 2), &[]);
    // Sam's d20 shows 2: A = −1; the default policy declines (Tia's least D is 6).
    let (log, _, fought) = run(&s, &[2], script(&[(0, FIRE), (0, NOTHING), (1, NOTHING), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.contains(&Event::Declined { who: SAM }));
    assert!(!log.iter().any(|e| matches!(e, Event::Defence { .. })));
    let ends = tick_ends(&s, &log);
    assert_eq!(pe(&ends[0], SAM).0, 7);
    assert_eq!(pe(&ends[0], TIA), (0, 60));
    assert_eq!(pe(&ends[1], SAM).0, 11);
    // Had he fired: 13 → 10, then 10 + 7 = 17 → 13 (Tia's d20 20).
    let (log, _, fought) = run(&s, &[2, 20], script(&[(0, FIRE), (0, PULL), (0, NOTHING), (1, NOTHING), (1, NOTHING)]));
    fought.unwrap();
    let ends = tick_ends(&s, &log);
    assert_eq!((pe(&ends[0], SAM).0, pe(&ends[1], SAM).0), (10, 13));
}

#[test]
fn t_ex_4_shooting_through_cover() {
    // rule: TICK-COVER-2, TICK-COVER-4, TICK-COVER-5, TICK-COVER-6, TICK-COVER-9, TICK-DEF-1, TICK-DMG-6
    let table = "position = [6, 0]\ncover = { preset = \"crouch_wall\", material = \"table\" }";
    let s = setup(&cast("gun = \"pistol\"\ngun_ready = true", table, 1), &[]);
    let entries = [(0, FIRE), (0, PULL), (1, NOTHING)];
    // Dice 17, 9, 2: A = 24, D = 9 + 5 + 5 = 19: delta 5, not slowed: 9 to the torso, a wound.
    let (log, state, fought) = run(&s, &[17, 9, 2], script(&entries));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: TIA, d: 19, cover: 5, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 9, slowed: false, body: 9, wounds: 1, .. })));
    assert_eq!((state.fighter(TIA).body, state.fighter(TIA).wounds), (21, 1));
    assert_eq!(pe(&state, TIA), (12, 45));
    assert_eq!(pe(&state, SAM).0, 2);
    // Dice 15, 9, 2: delta 3 < 5: slowed, ⌊7 / 2⌋ = 3, no wound.
    let (log, state, fought) = run(&s, &[15, 9, 2], script(&entries));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 7, slowed: true, body: 3, wounds: 0, .. })));
    assert_eq!(state.fighter(TIA).body, 27);
    // Behind a brick wall (resistance 16) the bonus stays +10: 17, 9 → D = 24, delta 0: Tia pays 15.
    let brick = "position = [6, 0]\ncover = { preset = \"crouch_wall\", material = \"brick_wall\" }";
    let b = setup(&cast("gun = \"pistol\"\ngun_ready = true", brick, 1), &[]);
    let (log, _, fought) = run(&b, &[17, 9], script(&entries));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Exchange { delta: 0, effort: 15, hit: false, .. })));
}

fn rhea_tom(gun: &str, face_a: u32, weak: bool, location: u32) -> (Vec<Event>, State) {
    let text = cast(&format!("gun = {gun}\ngun_ready = true"), "position = [8, 0]\narmour = [\"hard_plate\"]", 1);
    let s = setup(&text, &[]);
    let fire = Choice::Announce(Action::fire(TIA, 1, weak));
    let (log, state, fought) = run(&s, &[face_a, 8, location], script(&[(0, fire), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    (log, state)
}

#[test]
fn t_ex_5_hard_armour_and_weak_point_aim() {
    // rule: TICK-ARM-1, TICK-ARM-2, TICK-ARM-5, TICK-ARM-6, TICK-ARM-9, TICK-RANGE-2, TICK-DMG-5
    // Rifle (8, 2/delta, pen 14) at 8 m: −1. Dice 16, 8, 3: A = 20, D = 13, delta 7, torso.
    let (log, state) = rhea_tom("\"rifle\"", 16, false, 3);
    assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { a: 20, range: -1, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 22, body: 11, wounds: 1, .. })));
    assert_eq!(pe(&state, TIA).1, 40);
    // Weak point: pen 17, pierce delta 5 → full: 8 + (7 − 3) × 2 = 16.
    let (log, _) = rhea_tom("\"rifle\"", 16, true, 3);
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 16, body: 16, wounds: 1, .. })));
    // Location 8 (right leg, unarmoured): 22 → 11.
    let (log, _) = rhea_tom("\"rifle\"", 16, false, 8);
    assert!(log.iter().any(|e| matches!(e, Event::Hit { face: 8, raw: 22, body: 11, armour: None, .. })));
    // Assault rifle (6, 1/delta, pen 10; +1 at 8 m), d20 14: the plate holds: Trauma 1, no wound (no check die).
    let (log, state) = rhea_tom("\"assault_rifle\"", 14, false, 3);
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 13, body: 0, trauma: 1, wounds: 0, .. })));
    assert!(!log.iter().any(|e| matches!(e, Event::WoundCheck { .. })));
    assert_eq!(state.fighter(TIA).trauma, 1);
    // With weak-point aim: pen 13, pierce delta 1 → half of 6 + 4 = 10 → 5, no wound.
    let (log, _) = rhea_tom("\"assault_rifle\"", 14, true, 3);
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 10, body: 5, wounds: 0, .. })));
    // Tom lost in the open: 20 effort every time.
    assert!(log.iter().any(|e| matches!(e, Event::Exchange { effort: 20, hit: true, .. })));
}

#[test]
fn t_ex_6_soft_armour_and_ammunition() {
    // rule: TICK-ARM-3, TICK-ARM-4, TICK-ARM-7, TICK-GEAR-1, TICK-GEAR-2, TICK-ARM-10, TICK-TRACK-3
    let shoot = |gun: &str, weak: bool, faces: &[u32]| {
        let text = cast(&format!("gun = {gun}\ngun_ready = true"), "position = [6, 0]\narmour = [\"soft_vest\"]", 1);
        let s = setup(&text, &[]);
        let fire = Choice::Announce(Action::fire(TIA, 1, weak));
        run(&s, faces, script(&[(0, fire), (0, PULL), (1, NOTHING)]))
    };
    // Dice 15, 10, 4: delta 7, torso: the vest holds: 11 → Trauma 5; the wound check d10 1: a wound.
    let (log, state, _) = shoot("\"pistol\"", false, &[15, 10, 4, 1]);
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 11, body: 0, trauma: 5, .. })));
    assert!(log.contains(&Event::WoundCheck { who: TIA, face: 1, sides: 10, wound: true }));
    assert_eq!((state.fighter(TIA).body, state.fighter(TIA).trauma, state.fighter(TIA).wounds), (30, 5, 1));
    let (_, state, _) = shoot("\"pistol\"", false, &[15, 10, 4, 2]);
    assert_eq!(state.fighter(TIA).wounds, 0);
    // Hollow points (6, pen 1): 13 → Trauma 6.
    let (log, _, _) = shoot("{ base = \"pistol\", ammo = \"hollow_point\" }", false, &[15, 10, 4, 5]);
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 13, trauma: 6, .. })));
    // Armour-piercing (3, pen 8): 8 ≥ 8 penetrates soft armour: full 10 Body, a wound.
    let (log, _, _) = shoot("{ base = \"pistol\", ammo = \"armour_piercing\" }", false, &[15, 10, 4]);
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 10, body: 10, wounds: 1, .. })));
    // FMJ with weak-point aim: pen 7 < 8 still holds: 4 + 4 = 8 → Trauma 4.
    let (log, _, _) = shoot("\"pistol\"", true, &[15, 10, 4, 5]);
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 8, trauma: 4, body: 0, .. })));
    // And that is what the default policy declares against a vest (TICK-ARM-10).
    let text = cast("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\narmour = [\"soft_vest\"]", 1);
    let s = setup(&text, &[]);
    assert!(fray_rules::ticks::policy::wants_weak_point(&s, TIA, 4));
    assert!(!fray_rules::ticks::policy::wants_weak_point(&s, TIA, 8));
}

#[test]
fn t_ex_7_a_melee_strike_and_an_abort() {
    // rule: TICK-MELEE-1, TICK-MELEE-2, TICK-MELEE-3, TICK-MELEE-4, TICK-MELEE-5, TICK-MELEE-6, TICK-MELEE-7
    // rule: TICK-MELEE-9, TICK-MELEE-10, TICK-TIME-8
    let s = setup(&cast("", "position = [1, 0]", 1), &[]);
    let strike = Choice::Announce(Action::Melee { target: TIA, blow: Blow::Strike, weak_point: false });
    // d20 4: A = 9, P(win) = 3/20 < 1/3: the policy aborts; 3 stability, 2 effort; Tia does not roll.
    let (log, state, fought) = run(&s, &[4], script(&[(0, strike), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.contains(&Event::Aborted { who: SAM }));
    assert!(!log.iter().any(|e| matches!(e, Event::Defence { .. })));
    assert_eq!(pe(&state, SAM), (2, 58));
    // d20 16: A = 21 goes ahead; Tia's 9: D = 14, delta 7, torso: fists 1 + 0 + 7 = 8 Trauma.
    let (log, state, fought) = run(&s, &[16, 9, 4], script(&[(0, strike), (1, NOTHING)]));
    fought.unwrap();
    let hit = log.iter().find(|e| matches!(e, Event::Hit { raw: 8, body: 0, trauma: 8, wounds: 0, .. })).unwrap();
    // `fray sim` counts it as 8 damage (Body and Trauma together).
    let tally = <Ticks as fray_engine::Ruleset>::tally(hit);
    assert_eq!(tally, Some(fray_engine::Tally::Damage { by: Some(SAM), to: TIA, amount: 8 }));
    let ends = tick_ends(&s, &log);
    assert_eq!(pe(&ends[0], SAM), (4, 56));
    assert_eq!(pe(&state, TIA), (7, 50));
    assert_eq!(state.fighter(TIA).trauma, 8);
}

#[test]
fn melee_damage_no_location_lands_every_blow_on_the_torso() {
    // rule: TICK-MELEE-6
    let strike = Choice::Announce(Action::Melee { target: TIA, blow: Blow::Strike, weak_point: false });
    let blow = |sets: &[(&str, &str)], faces: &[u32]| {
        let s = setup(&cast("", "position = [1, 0]", 1), sets);
        let (log, _, fought) = run(&s, faces, script(&[(0, strike), (1, NOTHING)]));
        (log, fought)
    };
    let hit = |log: &[Event]| {
        log.iter()
            .find_map(|e| match e {
                Event::Hit { face, trauma, .. } => Some((*face, *trauma)),
                _ => None,
            })
            .unwrap()
    };
    // As a bullet (the default): the location d10 comes up 5, a limb, and the 8 Trauma is halved.
    let (log, fought) = blow(&[], &[16, 9, 5]);
    fought.unwrap();
    assert_eq!(hit(&log), (5, 4));
    // `melee_damage = no_location`: no location die at all (the fight asks for no third face),
    // the torso, the whole 8.
    let (log, fought) = blow(&[("melee_damage", "no_location")], &[16, 9]);
    fought.unwrap();
    assert_eq!(hit(&log), (0, 8));
    // The log names the blow announced.
    let front = fray_rules::ticks::front::TicksScenario(setup(&cast("", "position = [1, 0]", 1), &[]));
    let line = front.line(&Event::Announced {
        who: SAM,
        action: Action::Melee { target: TIA, blow: Blow::Heavy, weak_point: false },
    });
    assert_eq!(line.text.as_deref(), Some("Sam announces: heavy blow at Tia"));
    // The odds agree: one outcome, on the torso, for the blow; a shot still has ten locations.
    let s = setup(&cast("gun = \"pistol\"", "position = [1, 0]", 1), &[("melee_damage", "no_location")]);
    let fists =
        fray_rules::ticks::attack::Weapon { graze: 1, graze_mod: 0, delta_damage: 1, penetration: 0, lethal: false };
    let outcomes = fray_rules::ticks::odds::harm_outcomes(&s, fists, 7, false, None, 1, true);
    assert_eq!(outcomes.len(), 1);
    assert_eq!(outcomes[0].0.1, 8);
    let pistol = fray_rules::ticks::attack::Weapon::gun(s.combatants[0].gun.as_ref().unwrap());
    assert!(fray_rules::ticks::odds::harm_outcomes(&s, pistol, 7, false, None, 1, false).len() > 1);
}

#[test]
fn t_ex_8_aiming() {
    // rule: TICK-AIM-1, TICK-AIM-2, TICK-AIM-3, TICK-AIM-4, TICK-AIM-5, TICK-GUN-1
    let o = fray_rules::ticks::Options::default();
    let bonus: Vec<i32> =
        [1, 2, 3, 4, 5, 10].iter().map(|&t| fray_rules::ticks::attack::aim_bonus(&o, t, 10)).collect();
    assert_eq!(bonus, [1, 2, 3, 4, 5, 10]);
    let half = fray_rules::ticks::Options { aimed_half: true, ..Default::default() };
    assert_eq!(fray_rules::ticks::attack::aim_bonus(&half, 10, 10), 5);
    // In a fight: ten aim ticks at 20 m, then the shot at −5 + 10 = +5.
    let s = setup(&cast("gun = \"pistol\"\ngun_ready = true", "position = [20, 0]", 11), &[]);
    let mut entries: Vec<(usize, Choice)> = (0..10).map(|_| (0, Choice::Announce(Action::Aim(TIA)))).collect();
    entries.extend([(0, FIRE), (0, PULL)]);
    entries.extend((0..11).map(|_| (1, NOTHING)));
    let (log, state, fought) = run(&s, &[1, 20], script(&entries));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { range: -5, aim: 10, a: 11, .. })));
    // The aim serves one shot.
    assert_eq!(state.fighter(SAM).aim_ticks, 0);
    // Tia shoots at Sam during aim tick 3: bonus and count are 0 at the end of that tick.
    let both = setup(
        &cast("gun = \"pistol\"\ngun_ready = true", "position = [20, 0]\ngun = \"pistol\"\ngun_ready = true", 3),
        &[],
    );
    let at_sam = Choice::Announce(Action::fire(SAM, 1, false));
    let aim = (0, Choice::Announce(Action::Aim(TIA)));
    let entries = [aim, aim, aim, (1, NOTHING), (1, NOTHING), (1, at_sam), (1, PULL)];
    let (log, _, fought) = run(&both, &[1, 20], script(&entries));
    fought.unwrap();
    let ends = tick_ends(&both, &log);
    assert_eq!(ends[1].fighter(SAM).aim_ticks, 2);
    assert_eq!(ends[2].fighter(SAM).aim_ticks, 0);
    assert!(log.contains(&Event::AimEnded { who: SAM, spoiled: true }));
    // A declined shot does not spoil it (TICK-GUN-8): Tia's d20 1 is hopeless and she declines.
    let (_, state, fought) = run(&both, &[1], script(&[aim, aim, aim, (1, NOTHING), (1, NOTHING), (1, at_sam)]));
    fought.unwrap();
    assert_eq!(state.fighter(SAM).aim_ticks, 3);
    // Aim ticks are consecutive: a tick not aiming ends the aim (TICK-AIM-1).
    let gap = setup(&cast("gun = \"pistol\"\ngun_ready = true", "position = [20, 0]", 3), &[]);
    let (_, state, fought) =
        run(&gap, &[], script(&[aim, (0, NOTHING), aim, (1, NOTHING), (1, NOTHING), (1, NOTHING)]));
    fought.unwrap();
    assert_eq!(state.fighter(SAM).aim_ticks, 1);
    // A running shot has no aim bonus (running ends the aim, TICK-AIM-5).
    let run_shot = Choice::Announce(Action::Run { to: (0, 5), attack: Some((TIA, None, false)) });
    let (log, _, fought) =
        run(&gap, &[1, 20], script(&[aim, aim, (0, run_shot), (0, PULL), (1, NOTHING), (1, NOTHING), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { who: SAM, aim: 0, .. })));
    // An aborted blow was an attack roll at the aimer: it spoils the aim.
    let close = setup(&cast("gun = \"pistol\"\ngun_ready = true", "position = [1, 0]", 1), &[]);
    let jab = Choice::Announce(Action::Melee { target: SAM, blow: Blow::Jab, weak_point: false });
    let (log, _, fought) = run(&close, &[1], script(&[aim, (1, jab), (1, Choice::Yes(true))]));
    fought.unwrap();
    assert!(log.contains(&Event::Aborted { who: TIA }));
    assert!(log.contains(&Event::AimEnded { who: SAM, spoiled: true }));
    // `aim_spoil = shots_only`: a blow does not spoil it.
    let melee =
        setup(&cast("gun = \"pistol\"\ngun_ready = true", "position = [1, 0]", 1), &[("aim_spoil", "shots_only")]);
    let blow = Choice::Announce(Action::Melee { target: SAM, blow: Blow::Jab, weak_point: false });
    let (_, state, fought) = run(&melee, &[20, 1, 3], script(&[aim, (1, blow), (1, PULL)]));
    fought.unwrap();
    assert_eq!(state.fighter(SAM).aim_ticks, 1);
    let any = setup(&cast("gun = \"pistol\"\ngun_ready = true", "position = [1, 0]", 1), &[]);
    let (_, state, fought) = run(&any, &[20, 1, 3], script(&[aim, (1, blow), (1, PULL)]));
    fought.unwrap();
    assert_eq!(state.fighter(SAM).aim_ticks, 0);
}

#[test]
fn t_ex_9_assault_rifle_burst() {
    // rule: TICK-GUN-6, TICK-GUN-7, TICK-GUN-10, TICK-GUN-2, TICK-GUN-5
    let ana = "gun = \"assault_rifle\"";
    let s = setup(&cast(ana, "position = [30, 0]", 3), &[]);
    let burst = Choice::Announce(Action::fire(TIA, 3, false));
    let one = Choice::Announce(Action::fire(TIA, 1, false));
    let entries = [
        (0, burst),
        (0, PULL),
        (0, PULL),
        (0, PULL),
        (0, one),
        (0, PULL),
        (0, NOTHING),
        (1, NOTHING),
        (1, NOTHING),
        (1, NOTHING),
    ];
    let faces = [1, 20, 1, 20, 1, 20, 1, 20];
    let (log, _, fought) = run(&s, &faces, script(&entries));
    fought.unwrap();
    let ps: Vec<i32> = log
        .iter()
        .filter_map(|e| match e {
            Event::AttackRoll { p, .. } => Some(*p),
            _ => None,
        })
        .collect();
    assert_eq!(ps, [17, 17, 17, 21]);
    assert!(log.contains(&Event::Released { who: SAM, p: 9 }));
    let ends = tick_ends(&s, &log);
    assert_eq!([0, 1, 2].map(|i| pe(&ends[i], SAM).0), [21, 20, 22]);
    // `deferral_release = string_end`: 17 → 13; the tick-2 shot at −13 → 16 → 12; 12 + 9 + 7 = 28 → 23.
    let late = setup(&cast(ana, "position = [30, 0]", 3), &[("deferral_release", "string_end")]);
    let (log, _, fought) = run(&late, &faces, script(&entries));
    fought.unwrap();
    let ends = tick_ends(&late, &log);
    assert_eq!([0, 1, 2].map(|i| pe(&ends[i], SAM).0), [13, 12, 23]);
    // `string_penalty_scope = tick` too: +7 at the end of each tick with a shot, the string still
    // running over both ticks: 17 + 7 = 24 → 20; the tick-2 shot (the string's fourth, not held
    // back) at −20 → 23, + 7 = 30 → 25; tick 3 closes the string with the 9 held back: 34 → 29.
    let (rule, tick) = (("deferral_release", "string_end"), ("string_penalty_scope", "tick"));
    let per_tick = setup(&cast(ana, "position = [30, 0]", 3), &[rule, tick]);
    let (log, _, fought) = run(&per_tick, &faces, script(&entries));
    fought.unwrap();
    let ends = tick_ends(&per_tick, &log);
    assert_eq!([0, 1, 2].map(|i| pe(&ends[i], SAM).0), [20, 25, 29], "{log:#?}");
    assert!(log.contains(&Event::StringClosed { who: SAM, p: 9 }));
    // Without deferral the three tick-1 shots roll at −17, −20, −23.
    let plain = ana.replace("\"assault_rifle\"", "{ base = \"assault_rifle\", deferred_shots = 0 }");
    let p = setup(&cast(&plain, "position = [30, 0]", 1), &[]);
    let (log, _, fought) = run(&p, &faces, script(&entries));
    fought.unwrap();
    let ps: Vec<i32> = log
        .iter()
        .filter_map(|e| match e {
            Event::AttackRoll { p, .. } => Some(*p),
            _ => None,
        })
        .collect();
    assert_eq!(ps, [17, 20, 23]);
}

#[test]
fn abort_decision_seconds_is_shown_in_the_abort_prompt() {
    // rule: TICK-MELEE-10
    // The live fight asks Sam right after his roll; a time limit set is said in the question.
    let request = fray_rules::ticks::Request::Abort { target: TIA, a: 9, base: 5 };
    let question = |sets: &[(&str, &str)]| {
        let s = setup(&cast("", "position = [1, 0]", 1), sets);
        let state = <Ticks as fray_engine::Ruleset>::initial_state(&s);
        let (text, choices) = fray_rules::ticks::front::TicksScenario(s).prompt_for(&state, SAM, &request, None);
        assert_eq!(choices.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(), ["go ahead", "abort"]);
        text
    };
    assert_eq!(question(&[]), "your roll 9: you win with chance 3/20. Abort (half the costs)?");
    assert_eq!(
        question(&[("abort_decision_seconds", "2")]),
        "your roll 9: you win with chance 3/20. Abort (half the costs)? (decide within 2 s)"
    );
}

#[test]
fn a_tick_with_a_defence_is_not_idle_for_the_printed_table() {
    // rule: TICK-STAB-5
    // Tia (p 14) is idle in tick 1 (14 → 11, an idle streak from 14); in tick 2 Sam strikes and
    // she defends. Under `aim_spoil = shots_only` a melee defence does not count as being
    // attacked upon, but a defence is still not idle: her recovery is the formula's on her p
    // then, never the printed table's second idle tick from 14 (9).
    let s = setup(
        &cast("", "position = [1, 0]\nstability = 14", 2),
        &[("stability_recovery", "printed_table"), ("aim_spoil", "shots_only")],
    );
    let strike = Choice::Announce(Action::Melee { target: TIA, blow: Blow::Strike, weak_point: false });
    let entries = [(0, NOTHING), (1, NOTHING), (0, strike), (0, PULL), (1, NOTHING)];
    let (log, state, fought) = run(&s, &[1, 20, 3], script(&entries));
    fought.unwrap();
    assert!(log.contains(&Event::Recovered { who: TIA, from: 14, to: 11 }), "{log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: TIA, .. })), "{log:#?}");
    let from = log
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Recovered { who: TIA, from, .. } => Some(*from),
            _ => None,
        })
        .unwrap();
    assert_eq!(state.fighter(TIA).p, recover(from), "{log:#?}");
}
