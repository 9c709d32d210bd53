//! The `opend6` catalogue's worked examples 1–3 with scripted dice, and their variants.

use fray_engine::{CombatantId, Fight, FightError, FightResult, Outcome, Record, Scripted, SideId, replay};
use fray_rules::opend6::policy::Script;
use fray_rules::opend6::setup::Level;
use fray_rules::opend6::{Action, Choice, DamageCause, DefKind, Event, OpenD6, Setup, State, scenario};

fn setup(text: &str, sets: &[(&str, &str)]) -> Setup {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("example.toml", text, &sets).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs a fight with scripted faces and a script (the AI for anything not scripted).
fn run(setup: &Setup, faces: &[u32], script: Script) -> (Vec<Event>, State, Result<FightResult, FightError>) {
    let mut fight = Fight::<OpenD6, _, _, _>::new(setup, Scripted::faces(faces), script, Record::default());
    let result = fight.run();
    let (state, record) = fight.into_parts();
    (record.0, state, result)
}

fn totals(log: &[Event]) -> Vec<(&'static str, i32)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Initiative { total, .. } => Some(("initiative", *total)),
            Event::Attack { roll, .. } => Some(("attack", roll.total)),
            Event::Defence { value, .. } => Some(("defence", *value)),
            Event::Damage { total, .. } => Some(("damage", *total)),
            Event::Resist { total, .. } => Some(("resist", *total)),
            Event::StayUp { roll, .. } => Some(("stay-up", roll.total)),
            _ => None,
        })
        .collect()
}

fn difficulty(log: &[Event]) -> (i32, bool) {
    log.iter()
        .find_map(|e| match e {
            Event::Attack { difficulty, hit, .. } => Some((*difficulty, *hit)),
            _ => None,
        })
        .expect("an attack")
}

const EXAMPLE_1: &str = r#"
[rules]
ruleset = "opend6"
max_rounds = 1

[[combatants]]
name = "Mira"
side = "A"
perception = "3D"
agility = "3D"
strength = "2D+2"
skills = { dodge = "4D", brawling = "3D+1" }
surprise = true
position = 0

[[combatants]]
name = "Thug"
side = "B"
perception = "2D+1"
agility = "3D"
strength = "3D+1"
skills = { brawling = "3D+2" }
position = 2
"#;

const MIRA: CombatantId = CombatantId(0);
const THUG: CombatantId = CombatantId(1);

fn mira_waits() -> Script {
    let mut script = Script::new(2);
    script
        .push(0, Choice::Count(2))
        .push(0, Choice::Act(Action::Wait))
        .push(0, Choice::Interrupt(Some(Action::Defend { kind: DefKind::Dodge, full: false })));
    script
}

#[test]
fn example_1_wait_and_dodge() {
    // rule: OD6-INIT-9, OD6-INIT-7, OD6-ACT-1, OD6-ACT-2, OD6-ACT-5, OD6-ACT-6, OD6-MOVE-3, OD6-MOVE-5, OD6-DICE-4, OD6-DEF-9, OD6-DEF-1, OD6-DIFF-1, OD6-DIFF-2, OD6-MOVE-4, OD6-DICE-8, OD6-DMG-2, OD6-DMG-3, OD6-DMG-4, OD6-ACT-3, OD6-DMG-6, OD6-DMG-7, OD6-TRACK-2, OD6-TRACK-5
    let setup = setup(EXAMPLE_1, &[]);
    let faces = [3, 4, 4, 2, 5, 5, 4, 6, 3, 4, 3, 1, 2];
    let (log, state, result) = run(&setup, &faces, mira_waits());
    result.unwrap();
    // 1. Mira surprised the thug: she acts first without rolling; the thug rolls 8 (bonus 0).
    let rolls: Vec<CombatantId> = log
        .iter()
        .filter_map(|e| match e {
            Event::Initiative { who, .. } => Some(*who),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, [THUG]);
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(MIRA, 0), (THUG, 1)])));
    // 2. N = 2, so her dodge is 4D − 1D = 3D; the punch 13, the dodge 18 (an explosion).
    assert!(log.contains(&Event::Declared { who: MIRA, n: 2 }));
    // The interrupt comes after the punch's roll and before its result (the attack's line).
    assert!(log.contains(&Event::Resumed { who: MIRA, interrupting: Some((THUG, 13)) }));
    assert_eq!(totals(&log), [("initiative", 8), ("defence", 18), ("attack", 13), ("damage", 7), ("resist", 5)]);
    let dodge = log.iter().find_map(|e| match e {
        Event::Defence { roll, .. } => Some(roll.clone()),
        _ => None,
    });
    assert_eq!(dodge.map(|r| (r.code.dice, r.wild)), Some((3, 2)));
    // 5. Difficulty max(3, 18 − 5) = 13: 13 ≥ 13 is a hit.
    assert_eq!(difficulty(&log), (13, true));
    // 8. D = 2 → Stunned; the window runs through round 2.
    assert!(log.iter().any(|e| matches!(e, Event::Wound { who: MIRA, margin: 2, to: Level::Stunned, .. })));
    assert!(log.contains(&Event::StunWindow { who: MIRA, until: 2 }));
    assert_eq!(state.fighter(MIRA).level, Level::Stunned);
    // Her round-2 actions would be at −1D.
    let mut next = state.clone();
    next.round = 2;
    assert_eq!(fray_rules::opend6::level_penalty(&setup.options, next.fighter(MIRA), 2), 1);
    // Replay of the log gives the same state.
    assert_eq!(replay::<OpenD6>(&setup, &log), state);
}

#[test]
fn example_1_variants() {
    // rule: OD6-MOVE-4, OD6-TRACK-5, OD6-DEF-2
    // Without the range modifier on a punch the difficulty is 18: a miss, no damage rolled.
    let exempt = setup(EXAMPLE_1, &[("melee_range_modifier", "false")]);
    let (log, _, result) = run(&exempt, &[3, 4, 4, 2, 5, 5, 4, 6, 3], mira_waits());
    result.unwrap();
    assert_eq!(difficulty(&log), (18, false));
    assert!(!log.iter().any(|e| matches!(e, Event::Damage { .. })));
    // `stunned_effect = defend_only`: no −1D, but round 2 allows only defence or moving away.
    let defend_only = setup(EXAMPLE_1, &[("stunned_effect", "defend_only")]);
    let (_, state, result) = run(&defend_only, &[3, 4, 4, 2, 5, 5, 4, 6, 3, 4, 3, 1, 2], mira_waits());
    result.unwrap();
    let mut next = state.clone();
    next.round = 2;
    assert_eq!(fray_rules::opend6::level_penalty(&defend_only.options, next.fighter(MIRA), 2), 0);
    assert!(fray_rules::opend6::policy::restricted(&defend_only, &next, MIRA));
    // Without the wait she cannot react: the punch is against 10 − 5 = 5.
    let mut script = Script::new(2);
    script.push(0, Choice::Count(1)).push(0, Choice::Act(Action::Pass));
    let plain = setup(EXAMPLE_1, &[]);
    let (log, _, result) = run(&plain, &[3, 4, 4, 2, 5, 4, 3, 1, 2], script);
    result.unwrap();
    assert_eq!(difficulty(&log), (5, true));
}

const EXAMPLE_2: &str = r#"
[rules]
ruleset = "opend6"
max_rounds = 1
order = ["Kara", "Merc"]

[rules.options]
initiative_method = "fixed_order"

[[combatants]]
name = "Kara"
side = "A"
skills = { firearms = "5D" }
position = 0

[[combatants.weapons]]
name = "blaster pistol"
skill = "firearms"
damage = "4D"
damage_type = "energy"
ranges = [10, 30, 120]

[[combatants]]
name = "Merc"
side = "B"
strength = "3D"
knowledge = "2D"
skills = { stamina = "3D+1" }
armor = { physical = "2D", energy = "1D" }
wound_level = "wounded"
position = 20
"#;

const MERC: CombatantId = CombatantId(1);

#[test]
fn example_2_ranged_hit_bonus_armour_critical_failure_stay_up() {
    // rule: OD6-INIT-2, OD6-MOVE-3, OD6-ATK-1, OD6-ATK-2, OD6-DMG-4, OD6-DMG-1, OD6-DICE-5, OD6-DICE-6, OD6-ARM-1, OD6-ARM-2, OD6-DMG-9, OD6-TRACK-2, OD6-TRACK-6, OD6-COND-2, OD6-ROUND-4
    let setup = setup(EXAMPLE_2, &[]);
    let faces = [6, 5, 4, 2, 6, 3, 5, 3, 2, 4, 4, 3, 2, 1, 2, 2, 3];
    let (log, state, result) = run(&setup, &faces, Script::new(2));
    // Side A wins in round 1: the merc is knocked out.
    assert_eq!(result.unwrap(), FightResult { outcome: Outcome::Side(SideId(0)), length: 1 });
    assert_eq!(difficulty(&log), (15, true));
    assert_eq!(totals(&log), [("attack", 26), ("damage", 17), ("resist", 5), ("stay-up", 8)]);
    // The stay-up roll's difficulty, 15 plus any difficulty penalty, is in the event and the log.
    let stay_up = log.iter().find(|e| matches!(e, Event::StayUp { .. })).cloned().unwrap();
    assert!(matches!(stay_up, Event::StayUp { difficulty: 15, ok: false, .. }));
    let Event::StayUp { who, roll, .. } = stay_up else { unreachable!() };
    let scenario = fray_rules::opend6::OpenD6Scenario(setup.clone());
    let line = scenario.line(&Event::StayUp { who, roll, difficulty: 19, ok: false }).text.unwrap();
    assert!(line.contains("vs 19"), "{line}");
    assert!(log.iter().any(|e| matches!(e, Event::Damage { bonus: 3, .. })));
    let resist = log.iter().find_map(|e| match e {
        Event::Resist { roll: Some(r), .. } => Some(r.clone()),
        _ => None,
    });
    assert!(resist.is_some_and(|r| r.critical_failure && r.code.dice == 4));
    assert!(log.iter().any(|e| matches!(
        e,
        Event::Wound {
            who: MERC,
            margin: 12,
            incoming: Level::Incapacitated,
            from: Level::Wounded,
            to: Level::Incapacitated,
            ..
        }
    )));
    assert!(log.contains(&Event::Unconscious { who: MERC, until: u32::MAX }));
    assert!(state.fighter(MERC).out(&setup.options));
}

#[test]
fn example_2_variants() {
    // rule: OD6-DICE-5, OD6-DICE-6, OD6-DMG-4, OD6-ARM-2, OD6-TRACK-2
    let attack_damage = [6, 5, 4, 2, 6, 3, 5, 3, 2, 4];
    let level = |sets: &[(&str, &str)], resist: &[u32]| {
        let setup = setup(EXAMPLE_2, sets);
        let mut faces = attack_damage.to_vec();
        faces.extend_from_slice(resist);
        faces.extend_from_slice(&[2, 2, 3]);
        let (log, state, fought) = run(&setup, &faces, Script::new(2));
        fought.unwrap();
        (totals(&log), state.fighter(MERC).level, log)
    };
    // Complication: 4 + 3 + 2 + 1 = 10, D = 7 → Wounded on Wounded → Severely Wounded, no stay-up.
    let (t, l, log) = level(&[("wild_die_failure", "complication")], &[4, 3, 2, 1]);
    assert_eq!((t[2], l), (("resist", 10), Level::SeverelyWounded));
    assert!(log.iter().any(|e| matches!(e, Event::Resist { roll: Some(r), .. } if r.complication)));
    assert!(!log.iter().any(|e| matches!(e, Event::StayUp { .. })));
    // No failure on damage rolls: the same 10, and no complication logged.
    let (t, l, log) = level(&[("wild_die_failure_on_damage", "false")], &[4, 3, 2, 1]);
    assert_eq!((t[2], l), (("resist", 10), Level::SeverelyWounded));
    assert!(
        !log.iter().any(|e| matches!(e, Event::Resist { roll: Some(r), .. } if r.complication || r.critical_failure))
    );
    // No damage bonus: 14 − 5 = 9 → still Incapacitated.
    let (t, l, _) = level(&[("damage_bonus", "off")], &[4, 3, 2, 1]);
    assert_eq!((t[1], l), (("damage", 14), Level::Incapacitated));
    // Single armour: physical 2D, so 5D; [4,3,2,1] W[1] → 6, D = 11 → Incapacitated.
    let (t, l, _) = level(&[("armor_damage_types", "single")], &[4, 3, 2, 1, 1]);
    assert_eq!((t[2], l), (("resist", 6), Level::Incapacitated));
}

const EXAMPLE_3: &str = r#"
[rules]
ruleset = "opend6"
max_rounds = 1
order = ["Tam", "Rook"]

[rules.options]
initiative_method = "fixed_order"

[[combatants]]
name = "Tam"
side = "A"
strength = "3D"
skills = { brawling = "4D" }
position = 0

[[combatants]]
name = "Rook"
side = "B"
strength = "3D+2"
skills = { melee_combat = "4D" }
position = 1

[[combatants.weapons]]
name = "vibro-knife"
skill = "melee_combat"
damage = "1D"
strength_plus = true
sharp = true
"#;

const TAM: CombatantId = CombatantId(0);

fn tam_blocks() -> Script {
    let mut script = Script::new(2);
    script
        .push(0, Choice::Count(2))
        .push(0, Choice::Act(Action::Defend { kind: DefKind::Block(None), full: false }))
        .push(0, Choice::Act(Action::Pass));
    script
}

#[test]
fn example_3_body_block_against_a_blade() {
    // rule: OD6-DEF-5, OD6-DEF-7, OD6-DEF-9, OD6-DMG-2, OD6-ACT-4, OD6-DEF-6
    let setup = setup(EXAMPLE_3, &[]);
    let faces = [5, 4, 5, 3, 2, 1, 2, 6, 5, 3, 1, 2];
    let (log, state, result) = run(&setup, &faces, tam_blocks());
    result.unwrap();
    // The block 14 at −1D; Rook's 8 misses difficulty 9; the knife's listed 1D still cuts: 11.
    assert_eq!(totals(&log), [("defence", 14), ("attack", 8), ("damage", 11), ("resist", 6)]);
    assert_eq!(difficulty(&log), (9, false));
    // The listed damage of a body block, and the log says so.
    assert!(log.iter().any(
        |e| matches!(e, Event::Damage { cause: DamageCause::BodyBlock, roll, bonus: 0, .. } if roll.code.dice == 1)
    ));
    assert_eq!(state.fighter(TAM).level, Level::Wounded);
    // Tam's second declared action was left unused.
    assert_eq!((state.fighter(TAM).declared, state.fighter(TAM).used), (2, 1));
}

#[test]
fn example_3_variants() {
    // rule: OD6-DEF-7, OD6-DEF-6, OD6-DMG-2, OD6-DMG-4
    // Armour with any physical code, or the block_bladed ability, spares him.
    for extra in ["armor = { physical = \"0D+1\" }", "block_bladed = true"] {
        let text = EXAMPLE_3.replacen("position = 0", &format!("position = 0\n{extra}"), 1);
        let setup = setup(&text, &[]);
        let (log, state, fought) = run(&setup, &[5, 4, 5, 3, 2, 1, 2], tam_blocks());
        fought.unwrap();
        assert!(!log.iter().any(|e| matches!(e, Event::Damage { .. })), "{extra}");
        assert_eq!(state.fighter(TAM).level, Level::Healthy);
    }
    // Had Rook hit (total 12 ≥ 9), the damage code is Strength Damage 2D + 1D = 3D plus the bonus.
    let setup = setup(EXAMPLE_3, &[]);
    let (log, _, fought) = run(&setup, &[5, 4, 5, 3, 3, 4, 2, 2, 2, 2, 1, 1, 1], tam_blocks());
    fought.unwrap();
    assert_eq!(difficulty(&log), (9, true));
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::Damage { cause: DamageCause::Hit, roll, bonus: 1, .. } if roll.code.dice == 3))
    );
    // Parried with a sharp weapon against an unarmed Rook: a miss makes Rook take its listed damage.
    let text = EXAMPLE_3
        .replace("skills = { brawling = \"4D\" }", "skills = { brawling = \"4D\", melee_combat = \"4D\" }")
        .replace(
            "[[combatants.weapons]]\nname = \"vibro-knife\"",
            "[[combatants.weapons]]\ndrawn = false\nname = \"vibro-knife\"",
        );
    let text = text.replacen(
        "position = 0\n",
        "position = 0\n\n[[combatants.weapons]]\nname = \"sword\"\nskill = \"melee_combat\"\ndamage = \"2D\"\nstrength_plus = true\nsharp = true\n",
        1,
    );
    let setup = self::setup(&text, &[]);
    let mut script = Script::new(2);
    script
        .push(0, Choice::Count(2))
        .push(0, Choice::Act(Action::Defend { kind: DefKind::Block(Some(0)), full: false }))
        .push(0, Choice::Act(Action::Pass))
        .push(1, Choice::Count(1))
        .push(1, Choice::Act(Action::Attack(fray_rules::opend6::AttackPlan::new(TAM, 1))));
    let (log, state, fought) = run(&setup, &[5, 4, 5, 3, 2, 1, 2, 4, 3, 2, 1, 1], script);
    fought.unwrap();
    assert!(
        log.iter().any(
            |e| matches!(e, Event::Damage { cause: DamageCause::ParryCut, target, roll, .. } if *target == CombatantId(1) && roll.code.dice == 2)
        )
    );
    assert!(state.fighter(CombatantId(1)).level >= Level::Stunned);
}
