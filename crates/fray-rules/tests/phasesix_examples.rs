//! The `phasesix` catalogue's worked examples WE-1 to WE-13 with scripted dice.

use fray_engine::{CombatantId, Fight, FightError, FightResult, Pos, Record, Ruleset, Scripted, replay};
use fray_rules::phasesix::policy::Script;
use fray_rules::phasesix::setup::Mode;
use fray_rules::phasesix::{Act, Choice, Cond, Event, Hand, PhaseSix, Reaction, Setup, Special, State, dice, scenario};

const A: CombatantId = CombatantId(0);
const B: CombatantId = CombatantId(1);

fn setup(text: &str, sets: &[(&str, &str)]) -> Setup {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("example.toml", text, &sets).unwrap_or_else(|e| panic!("{e}"))
}

fn run(setup: &Setup, faces: &[u32], script: Script) -> (Vec<Event>, State, Result<FightResult, FightError>) {
    let mut fight = Fight::<PhaseSix, _, _, _>::new(setup, Scripted::faces(faces), script, Record::default());
    let result = fight.run();
    let (state, record) = fight.into_parts();
    (record.0, state, result)
}

fn script(entries: &[(usize, Choice)]) -> Script {
    let mut s = Script::new(4);
    for (w, c) in entries {
        s.push(*w, *c);
    }
    s
}

fn attack(target: CombatantId, mode: Mode) -> Choice {
    Choice::Act(Act::Attack { target, hand: Hand::Main, mode, special: Special::None, walk: None, from_behind: false })
}

const END: Choice = Choice::Act(Act::End);

/// An attack roll as (dice, M, C, totals, normal hits, crit levels, ammo).
type Roll = (i32, i32, i32, Vec<u8>, u8, Vec<u8>, i32);

fn rolls(log: &[Event]) -> Vec<Roll> {
    log.iter()
        .filter_map(|e| match e {
            Event::AttackRoll { dice, m, c, totals, normals, crits, ammo, .. } => {
                Some((*dice, *m, *c, totals.to_vec(), *normals, crits.to_vec(), i32::from(*ammo)))
            }
            _ => None,
        })
        .collect()
}

fn wounds(log: &[Event]) -> Vec<i32> {
    log.iter()
        .filter_map(|e| match e {
            Event::Wounded { wounds, .. } => Some(*wounds),
            _ => None,
        })
        .collect()
}

const ARCHER: &str = r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 1

[[combatants]]
name = "Archer"
side = "a"
shooting = 3
position = 0

[[combatants.weapons]]
name = "bow"
class = "ranged"
modes = ["single"]
damage_potential = 2
range_m = 60
recoil = false
capacity = 12

[[combatants]]
name = "Target"
side = "b"
position = 20
armour = [{ name = "leather armour", protection = 1 }]
policy = { move = "hold" }
"#;

#[test]
fn we1_bow_shot_two_crits_three_normal_hits() {
    // rule: P6-CRIT-1, P6-MODE-2, P6-DMG-1, P6-DMG-3, P6-ATK-1, P6-ATK-2, P6-ATK-3, P6-DICE-1, P6-DICE-2, P6-DICE-3, P6-ACT-5
    let s = setup(ARCHER, &[]);
    let faces = [5, 1, 6, 5, 6, 6, 1, 5, 6, 2, 5];
    let (log, state, result) = run(&s, &faces, script(&[(0, attack(B, Mode::Single)), (0, END)]));
    result.unwrap();
    assert_eq!(rolls(&log), [(5, 5, 11, vec![11, 13, 5, 8, 5], 3, vec![0, 0], 1)]);
    assert!(!log.iter().any(|e| matches!(e, Event::Reacted { .. } | Event::CoverRoll { .. })));
    assert_eq!(wounds(&log), [4]);
    assert_eq!(state.fighter(B).wounds, 4);
    assert_eq!(state.fighter(A).actions, 1);
    assert_eq!(state.fighter(A).ammo[0], Some(11));
    assert_eq!(replay::<PhaseSix>(&s, &log), state);
}

const MEGA: &str = r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 2

[[combatants]]
name = "Knight"
side = "a"
hand_to_hand = 2
position = 0

[[combatants.weapons]]
name = "longsword"
class = "melee"
damage_potential = 1

[[combatants]]
name = "Target"
side = "b"
resistance = 1
position = 1
innate_protection = 3
policy = { move = "hold" }

[[combatants]]
name = "Friend"
side = "b"
position = 500
policy = { move = "hold" }
"#;

#[test]
fn we2_megacrits_and_dying() {
    // rule: P6-CRIT-2, P6-DMG-1, P6-TRACK-3, P6-TRACK-5, P6-ACT-1, P6-COND-7
    let s = setup(MEGA, &[]);
    let faces = [5, 1, 2, 6, 6, 5, 6, 6, 6, 6, 5, 3, 3];
    let (log, state, fought) = run(&s, &faces, script(&[(0, attack(B, Mode::Melee)), (0, END), (0, END)]));
    fought.unwrap();
    assert_eq!(rolls(&log), [(3, 5, 11, vec![17, 29, 3], 0, vec![1, 3], 0)]);
    assert_eq!(wounds(&log), [6]);
    assert!(log.contains(&Event::Condition { who: B, cond: Cond::Dying, value: 1 }));
    // Round 2 start: a Resistance check of 1 die, 3: no success → Dying 2.
    assert!(log.contains(&Event::Condition { who: B, cond: Cond::Dying, value: 2 }));
    assert_eq!(state.fighter(B).condition(Cond::Dying), 2);
    assert_eq!(state.fighter(B).actions, 0);
}

const SOLDIER: &str = r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 1

[[combatants]]
name = "Soldier"
side = "a"
shooting = 3
bonus_dice = 1
position = 0

[[combatants.weapons]]
name = "assault rifle"
class = "ranged"
modes = ["single", "burst"]
damage_potential = 2
range_m = 100
recoil = true
recoil_compensation = COMP
capacity = 30

[[combatants]]
name = "Target"
side = "b"
position = 30
policy = { move = "hold" }
"#;

#[test]
fn we3_recoil_chain() {
    // rule: P6-RCL-1, P6-RCL-2, P6-RES-1, P6-MODE-3, P6-ACT-4, P6-RES-4
    let chain = |comp: &str, acts: &[Choice]| {
        let s = setup(&SOLDIER.replace("COMP", comp), &[]);
        let mut entries: Vec<(usize, Choice)> = acts.iter().map(|c| (0, *c)).collect();
        entries.push((0, END));
        let (log, state, fought) =
            run(&s, &[5, 1].iter().copied().chain(std::iter::repeat_n(1, 40)).collect::<Vec<_>>(), script(&entries));
        fought.unwrap();
        (rolls(&log).iter().map(|r| (r.0, r.1, r.2, r.6)).collect::<Vec<_>>(), state)
    };
    let three =
        [Choice::Act(Act::SpendBonus), attack(B, Mode::Single), attack(B, Mode::Single), attack(B, Mode::Burst)];
    let (r, state) = chain("0", &three);
    assert_eq!(r, [(5, 5, 11, 1), (5, 7, 13, 1), (7, 9, 0, 3)]);
    assert_eq!((state.fighter(A).ammo[0], state.fighter(A).bonus_dice), (Some(25), 0));
    let (r, _) = chain("1", &three);
    assert_eq!(r.iter().map(|x| (x.1, x.2)).collect::<Vec<_>>(), [(5, 11), (6, 12), (7, 0)]);
    let (r, _) = chain("2", &three);
    assert_eq!(r.iter().map(|x| x.1).collect::<Vec<_>>(), [5, 5, 5]);
    // Attack, reload, attack: back at M 5, C 11.
    let (r, _) = chain(
        "0",
        &[Choice::Act(Act::SpendBonus), attack(B, Mode::Single), Choice::Act(Act::Reload), attack(B, Mode::Single)],
    );
    assert_eq!(r.iter().map(|x| (x.1, x.2)).collect::<Vec<_>>(), [(5, 11), (5, 11)]);
}

const HAGEN: &str = r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 1

[[combatants]]
name = "Hagen"
side = "a"
quickness = 2
deftness = 3
hand_to_hand = 1
position = 0
shield = { name = "round shield", protection = 2, encumbrance = 1 }

[[combatants.weapons]]
name = "short sword"
class = "melee"
damage_potential = 1

[[combatants]]
name = "Robber"
side = "b"
hand_to_hand = 2
position = 1

[[combatants.weapons]]
name = "club"
class = "melee"
damage_potential = 2
blunt = true
"#;

#[test]
fn we4_shield_parry() {
    // rule: P6-SHLD-1, P6-SHLD-3, P6-COVER-1, P6-COVER-2, P6-REACT-1, P6-REACT-2, P6-DEF-1, P6-ACT-4
    let s = setup(HAGEN, &[]);
    // Initiative Hagen 5 + 2, Robber 1 + 1; Hagen's 2 dice miss; the robber's 4 dice; cover 3 dice.
    let faces = [5, 1, 1, 1, 5, 6, 1, 2, 5, 5, 5, 3];
    let parry = Choice::React { reaction: Some(Reaction::ShieldParry), buy: 0 };
    let (log, state, fought) = run(
        &s,
        &faces,
        script(&[(0, attack(B, Mode::Melee)), (0, END), (0, parry), (1, attack(A, Mode::Melee)), (1, END)]),
    );
    fought.unwrap();
    assert_eq!(rolls(&log)[1], (4, 5, 11, vec![5, 7, 2, 5], 3, vec![], 0));
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::CoverRoll { who: A, value: 5, crits_removed: 0, normals_removed: 2, .. }))
    );
    assert_eq!(wounds(&log), [1]);
    assert_eq!((state.fighter(A).wounds, state.fighter(A).actions), (1, 0));
    // Had he dodged: Evasion ⌈(2 + 3)/2⌉ − 1 = 2 dice.
    assert_eq!(s.combatants[0].evasion(), 2);
}

const DODGER: &str = r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 1

[[combatants]]
name = "Defender"
side = "a"
quickness = 3
deftness = 2
perception = 1
position = 0

[[combatants]]
name = "Attacker"
side = "b"
hand_to_hand = 1
position = 1

[[combatants.weapons]]
name = "sword"
class = "melee"
damage_potential = 1
"#;

#[test]
fn we5_dodge() {
    // rule: P6-DEF-1, P6-DEF-2, P6-REACT-1
    let s = setup(DODGER, &[]);
    let faces = [5, 1, 6, 5, 5, 4, 6, 1, 2];
    let dodge = Choice::React { reaction: Some(Reaction::Dodge), buy: 0 };
    let entries =
        [(0, Choice::Act(Act::Aim { accurate: false })), (0, END), (0, dodge), (1, attack(A, Mode::Melee)), (1, END)];
    let (log, state, fought) = run(&s, &faces, script(&entries));
    fought.unwrap();
    assert_eq!(rolls(&log), [(2, 5, 11, vec![11, 5], 1, vec![0], 0)]);
    assert!(
        log.iter().any(|e| matches!(
            e,
            Event::Reacted { who: A, reaction: Reaction::Dodge, dice: 3, m: 7, successes: 1, .. }
        ))
    );
    assert!(wounds(&log).iter().all(|&w| w == 0));
    assert_eq!(state.fighter(A).actions, 0);
}

const GRENADE: &str = r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 1

[[combatants]]
name = "Thrower"
side = "a"
throwing = 2
position = 0
items = [{ name = "grenade", hits = 3, wounds_per_hit = 2 }]

[[combatants]]
name = "Target"
side = "b"
position = 10
hunkered = true
armour = [{ name = "jacket", protection = 1 }]
policy = { move = "hold" }
"#;

#[test]
fn we6_grenade_on_a_hunkered_target() {
    // rule: P6-THROW-1, P6-DMG-4, P6-COVER-1, P6-COND-6, P6-THROW-4
    let s = setup(GRENADE, &[]);
    let throw = Choice::Act(Act::Throw { item: 0, target: B });
    let (log, state, fought) = run(&s, &[5, 1, 3, 5, 6, 2, 1, 4], script(&[(0, throw), (0, END)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Landed { deviation: None, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::CoverRoll { who: B, value: 6, normals_removed: 1, .. })));
    assert_eq!(wounds(&log), [2]);
    assert_eq!(state.fighter(B).wounds, 2);
}

#[test]
fn we7_throw_deviation() {
    // rule: P6-THROW-2, P6-THROW-3, P6-THROW-4, P6-DICE-3
    let s = setup(GRENADE, &[]);
    let throw = Choice::Act(Act::Throw { item: 0, target: B });
    let (log, state, fought) = run(&s, &[5, 1, 2, 4, 3, 4], script(&[(0, throw), (0, END)]));
    fought.unwrap();
    let at = log.iter().find_map(|e| match e {
        Event::Landed { at, deviation, .. } => Some((*at, *deviation)),
        _ => None,
    });
    let (at, dev) = at.unwrap();
    assert_eq!(dev, Some((3, 4)));
    // 4 m to the right of the target (beyond 0): 4 m from it, at right angles to the line.
    assert!((at.distance(Pos { x: 10.0, y: 0.0 }) - 4.0).abs() < 1e-9 && (at.x - 10.0).abs() < 1e-9);
    assert_eq!(state.fighter(B).wounds, 0);
    let o = fray_rules::phasesix::Options::default();
    let from = Pos { x: 0.0, y: 0.0 };
    let target = Pos { x: 10.0, y: 0.0 };
    let beyond = fray_rules::phasesix::deviate(&o, from, target, 12, 2);
    assert!((beyond.x - 12.0).abs() < 1e-9 && beyond.y.abs() < 1e-9);
    let back = fray_rules::phasesix::deviate(&o, from, target, 6, 3);
    assert!((back.x - 7.0).abs() < 1e-9);
    let line = fray_rules::phasesix::Options { deviation_line: true, ..o };
    let p = fray_rules::phasesix::deviate(&line, from, target, 3, 4);
    assert!((p.x - 10.0).abs() < 1e-9 && p.y.abs() < 1e-9);
}

const VEST: &str = r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 1

[[combatants]]
name = "Brute"
side = "a"
hand_to_hand = 5
position = 0

[[combatants]]
name = "Target"
side = "b"
position = 1
armour = [{ name = "kevlar vest", protection = 4 }]
policy = { move = "hold" }
"#;

#[test]
fn we8_armour_damage() {
    // rule: P6-ARM-1, P6-ARM-2, P6-DMG-1, P6-DMG-2
    let go = |sets: &[(&str, &str)]| {
        let s = setup(VEST, sets);
        let (log, state, fought) = run(
            &s,
            &[5, 1, 5, 5, 5, 5, 5],
            script(&[
                (
                    0,
                    Choice::Act(Act::Attack {
                        target: B,
                        hand: Hand::Unarmed,
                        mode: Mode::Melee,
                        special: Special::None,
                        walk: None,
                        from_behind: false,
                    }),
                ),
                (0, END),
            ]),
        );
        fought.unwrap();
        (log, state, s)
    };
    let (log, state, _) = go(&[]);
    assert_eq!(wounds(&log), [1]);
    assert_eq!(state.fighter(B).armour_pct[0], 100);
    let (log, state, _) = go(&[("armor_damage", "track")]);
    assert!(log.contains(&Event::ArmourWorn { who: B, piece: 0, pct: 80 }));
    assert_eq!(state.fighter(B).armour_pct[0], 80);
    let (_, state, s) = go(&[("armor_damage", "degrade")]);
    assert_eq!(s.combatants[1].protection(&s.options, &state.fighter(B).armour_pct), 3);
}

#[test]
fn we9_unarmed_strike() {
    // rule: P6-ATK-5, P6-DMG-1, P6-ATK-4
    let text = VEST.replace("hand_to_hand = 5", "hand_to_hand = 2\nstrength = 3\nquickness = 3");
    let s = setup(&text, &[]);
    let state = PhaseSix::initial_state(&s);
    let fists = Act::Attack {
        target: B,
        hand: Hand::Unarmed,
        mode: Mode::Melee,
        special: Special::None,
        walk: None,
        from_behind: false,
    };
    assert_eq!(fray_rules::phasesix::policy::attack_numbers(&s, &state, A, &fists), (3, 5, 11));
    assert_eq!(s.combatants[0].unarmed().piercing, 1);
    let weak = setup(&VEST.replace("hand_to_hand = 5", "hand_to_hand = 2\nstrength = 2\nquickness = 2"), &[]);
    assert_eq!(fray_rules::phasesix::policy::attack_numbers(&weak, &state, A, &fists).0, 2);
    assert_eq!(weak.combatants[0].unarmed().piercing, 0);
    let mut far = state.clone();
    far.fighters[1].pos = Pos { x: 2.0, y: 0.0 };
    let mut st = far.clone();
    st.fighters[0].actions = 2;
    assert!(fray_rules::phasesix::policy::illegal(&s, &st, A, &fists).is_some());
}

const COUP: &str = r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 1

[[combatants]]
name = "Killer"
side = "a"
hand_to_hand = 2
position = 0

[[combatants.weapons]]
name = "dagger"
class = "melee"
damage_potential = 1

[[combatants]]
name = "Victim"
side = "b"
position = 1
STATE

[[combatants]]
name = "Friend"
side = "b"
position = 500
policy = { move = "hold" }
"#;

#[test]
fn we10_coup_de_grace() {
    // rule: P6-SPECIAL-11, P6-SPECIAL-12, P6-TRACK-5
    let coup = Choice::Act(Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Coup,
        walk: None,
        from_behind: false,
    });
    let go = |state: &str, sets: &[(&str, &str)], dice3: &[u32]| {
        let s = setup(&COUP.replace("STATE", state), sets);
        // Initiative, then the victim's round-start check (1 die: no success changes nothing).
        let check: &[u32] = if state.contains("unconscious") {
            &[1]
        } else if state.contains("dying") {
            &[5]
        } else {
            &[]
        };
        let mut faces = vec![5, 1, 2];
        faces.extend_from_slice(check);
        faces.extend_from_slice(dice3);
        let (log, st, fought) = run(&s, &faces, script(&[(0, coup), (0, END)]));
        fought.unwrap();
        (log, st)
    };
    let (log, st) = go("unconscious = 2", &[], &[5, 6, 3, 1]);
    assert!(!log.iter().any(|e| matches!(e, Event::Reacted { .. } | Event::CoverRoll { .. })));
    assert_eq!((st.fighter(B).condition(Cond::Dying), st.fighter(B).condition(Cond::Unconscious)), (2, 2));
    let (_, st) = go("unconscious = 2", &[("coup_de_grace", "dead")], &[5, 6, 3, 1]);
    assert!(st.fighter(B).dead);
    let (_, st) = go("dying = 3", &[], &[5, 6, 3, 1]);
    assert_eq!(st.fighter(B).condition(Cond::Dying), 5);
    let (_, st) = go("dying = 3", &[], &[5, 6, 3, 5]);
    assert!(st.fighter(B).dead);
    // `dying_plus_wounds`: an already-Dying target gains the attack's wounds, a megacrit's extra
    // wound included (6 + 6 + 5 = 17 is a megacrit of level 1): 3 + 1 + (1 + 1) = 6, dead.
    let (_, st) = go("dying = 3", &[("coup_de_grace", "dying_plus_wounds")], &[5, 6, 6, 5, 1]);
    assert_eq!(st.fighter(B).condition(Cond::Dying), 6);
    assert!(st.fighter(B).dead);
    let (_, st) = go("dying = 3", &[("coup_de_grace", "dying_plus_wounds")], &[5, 6, 3, 1]);
    assert_eq!(st.fighter(B).condition(Cond::Dying), 5);
    let (log, st) = go("sleeping = true", &[], &[2, 3, 1, 1]);
    assert!(log.contains(&Event::Woke { who: B }));
    assert!(!st.fighter(B).sleeping);
}

#[test]
fn we11_initiative_and_the_empty_first_round() {
    // rule: P6-INIT-1, P6-ACT-1, P6-ROUND-1
    let text = r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 1
[[combatants]]
name = "A"
side = "x"
quickness = 3
deftness = 2
[[combatants]]
name = "B"
side = "y"
quickness = 2
deftness = 4
[[combatants]]
name = "C"
side = "x"
quickness = 3
deftness = 3
[[combatants]]
name = "D"
side = "y"
quickness = 1
deftness = 1
"#;
    let s = setup(
        &text.replace(
            "quickness = 1\ndeftness = 1",
            "quickness = 1\ndeftness = 1\nposition = 900\npolicy = { move = \"hold\" }",
        ),
        &[],
    );
    let (log, state, fought) = run(&s, &[4, 5, 4, 6, 3], Script::new(4));
    assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 5 dice");
    let order = log.iter().find_map(|e| match e {
        Event::Order { order } => Some(order.iter().map(|c| c.index()).collect::<Vec<_>>()),
        _ => None,
    });
    assert_eq!(order, Some(vec![3, 2, 0, 1]));
    // Before its first turn a participant has no actions.
    let fresh = PhaseSix::initial_state(&s);
    assert!(fresh.fighters.iter().all(|x| x.actions == 0));
    let _ = state;
}

#[test]
fn we12_aimed_melee_attack() {
    // rule: P6-AIM-1, P6-AIM-4, P6-CRIT-3
    let text = r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 2
[[combatants]]
name = "Fencer"
side = "a"
hand_to_hand = 3
perception = 2
position = 0
[[combatants.weapons]]
name = "rapier"
class = "melee"
damage_potential = 1
[[combatants]]
name = "Target"
side = "b"
position = 1
policy = { move = "hold", defend = "never" }
max_wounds = 20
"#;
    let s = setup(text, &[]);
    let aim = Choice::Act(Act::Aim { accurate: false });
    let entries = [(0, aim), (0, aim), (0, END), (1, END), (0, attack(B, Mode::Melee)), (0, END), (1, END)];
    let (log, state, fought) = run(&s, &[5, 1, 6, 3, 5, 2, 1], script(&entries));
    fought.unwrap();
    assert_eq!(rolls(&log), [(4, 5, 9, vec![9, 5, 2, 1], 1, vec![0], 0)]);
    assert_eq!(state.fighter(A).aim, 0);
    assert_eq!(fray_rules::phasesix::dice::tier(&s.options, 15, 5, 9), fray_rules::phasesix::dice::Tier::Crit(1));
}

#[test]
fn we13_exploding_check() {
    // rule: P6-DICE-2, P6-DICE-5, P6-RES-5
    let o = fray_rules::phasesix::Options::default();
    let totals = [4, 2, 13, 7, 1];
    assert_eq!(totals.iter().map(|&t| dice::check_successes(&o, t, 14)).sum::<i32>(), 0);
    assert_eq!(dice::check_successes(&o, 13, 5), 2);
    assert_eq!(dice::check_successes(&o, 17, 5), 3);
    assert_eq!(dice::check_successes(&fray_rules::phasesix::Options { check_crits: false, ..o.clone() }, 17, 5), 1);
    // A destiny die as a bonus die: first toss ≥ 4 succeeds whatever M: 1/2.
    assert_eq!(dice::at_least(4), (3, 6));
}
