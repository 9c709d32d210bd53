//! `hardboiled` clauses, one test or more each, and the catalogue's reference numbers.

use fray_dice::{BigRational, fraction};
use fray_engine::{CombatantId, Fight, FightError, FightResult, Outcome, Pos, Record, Ruleset, Scripted};
use fray_rules::hardboiled::attack;
use fray_rules::hardboiled::odds;
use fray_rules::hardboiled::options::Options;
use fray_rules::hardboiled::policy::Script;
use fray_rules::hardboiled::{Act, Activity, Choice, Event, HardBoiled, Part, Setup, State, scenario};

const A: CombatantId = CombatantId(0);
const B: CombatantId = CombatantId(1);

fn setup(text: &str, sets: &[(&str, &str)]) -> Setup {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("test.toml", text, &sets).unwrap_or_else(|e| panic!("{e}"))
}

fn run(setup: &Setup, faces: &[u32], script: Script) -> (Vec<Event>, State, Result<FightResult, FightError>) {
    let mut fight = Fight::<HardBoiled, _, _, _>::new(setup, Scripted::faces(faces), script, Record::default());
    let result = fight.run();
    let (state, record) = fight.into_parts();
    (record.0, state, result)
}

/// Two combatants 1 m apart, one turn; `a` and `b` are extra lines.
fn duel(a: &str, b: &str) -> String {
    format!(
        r#"
[rules]
ruleset = "hardboiled"
max_turns = 1

[[combatants]]
name = "A"
side = "a"
action = 10
wits = 8
ego = 6
hp_max = 30
{a}

[[combatants]]
name = "B"
side = "b"
action = 8
wits = 10
ego = 6
hp_max = 30
{b}
"#
    )
}

fn script(entries: &[(usize, Choice)]) -> Script {
    let mut s = Script::new(8);
    for (who, c) in entries {
        s.push(*who, *c);
    }
    s
}

fn attack_b(fists: bool, called: Option<Part>) -> Choice {
    Choice::Act(Act::Attack { target: B, fists, called, off_balance: false })
}

fn start(setup: &Setup) -> State {
    let mut state = HardBoiled::initial_state(setup);
    state.turn = 1;
    state
}

fn hit_p(setup: &Setup, act: Act) -> String {
    fraction(&odds::odds_of(setup, &start(setup), A, &act).unwrap().hit)
}

// --- DICE ---------------------------------------------------------------------------------

#[test]
fn attribute_dice_are_d6_d8_d10_unless_free() {
    // rule: USR-DICE-1, USR-DICE-2
    let bad = duel("", "").replacen("wits = 8", "wits = 10", 1);
    let e = scenario::load("t.toml", &bad, &[]).unwrap_err();
    assert!(e.message.contains("d6, d8 and d10"), "{}", e.message);
    let free = vec![("attribute_dice_check".to_owned(), "free".to_owned())];
    assert!(scenario::load("t.toml", &bad, &free).is_ok());
    let d12 = duel("", "").replacen("action = 10", "action = 12", 1);
    assert!(scenario::load("t.toml", &d12, &[]).is_err());
    assert!(scenario::load("t.toml", &d12, &free).is_ok());
}

#[test]
fn specialisms_add_two_where_their_tags_fit() {
    // rule: USR-DICE-3, USR-ATK-2
    let s = setup(
        &duel(
            "specialisms = [{ name = \"Boxing\", attribute = \"action\", tags = [\"brawling\"] }, { name = \"Street\", attribute = \"action\", tags = [\"melee\"] }]",
            "",
        ),
        &[],
    );
    let sheet = &s.combatants[0];
    assert_eq!(sheet.specialism_bonus(fray_rules::hardboiled::setup::Attr::Action, &["melee", "brawling"]), 4);
    assert_eq!(sheet.specialism_bonus(fray_rules::hardboiled::setup::Attr::Action, &["shooting"]), 0);
    assert_eq!(sheet.specialism_bonus(fray_rules::hardboiled::setup::Attr::Wits, &["brawling"]), 0);
}

#[test]
fn contests_use_the_matching_attribute() {
    // rule: USR-DICE-7, USR-ACT-4
    let o = Options::default();
    let trick = Act::Other { activity: Activity::Trick, target: Some(B), difficulty: 0 };
    assert_eq!(attack::contest_attribute(&o, &trick), fray_rules::hardboiled::setup::Attr::Wits);
    assert_eq!(attack::contest_attribute(&o, &Act::Power(B)), fray_rules::hardboiled::setup::Attr::Ego);
    let only = Options { action_only: true, ..Options::default() };
    assert_eq!(attack::contest_attribute(&only, &trick), fray_rules::hardboiled::setup::Attr::Action);
    // A trick: A's Wits d8 against B's Wits d10: 8 vs 2 → success, margin 6, no damage.
    let s = setup(&duel("", ""), &[]);
    let sc = script(&[(0, Choice::Act(trick)), (1, Choice::Act(Act::End))]);
    let (log, state, _) = run(&s, &[5, 1, 8, 2], sc);
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, roll, against: Some(d), margin: 6, success: true, .. } if roll.die == 8 && d.die == 10)));
    assert!(!log.iter().any(|e| matches!(e, Event::Hit { .. })));
    assert_eq!(state.fighter(B).hp, 30);
}

// --- ROUND, INIT --------------------------------------------------------------------------

#[test]
fn turns_run_declare_initiative_resolve() {
    // rule: USR-ROUND-1, USR-ROUND-5, USR-INIT-5, USR-ACT-1
    let s = setup(&duel("", "").replace("max_turns = 1", "max_turns = 2"), &[]);
    let faces = [5, 1, 1, 1, 1, 1, 2, 3, 1, 1, 1, 1];
    let (log, _, _) = run(&s, &faces, Script::new(2));
    let kinds: Vec<&str> = log
        .iter()
        .filter_map(|e| match e {
            Event::TurnStarted { .. } => Some("turn"),
            Event::Declared { .. } => Some("declare"),
            Event::Initiative { .. } => Some("initiative"),
            Event::Contest { .. } => Some("contest"),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "turn",
            "declare",
            "declare",
            "initiative",
            "initiative",
            "contest",
            "contest",
            "turn",
            "declare",
            "declare",
            "initiative",
            "initiative",
            "contest",
            "contest"
        ]
    );
    // The defender rolls in the attacker's contest without using its turn.
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: B, .. })));
    // A knocked-out combatant takes no action.
    let mut st = start(&s);
    st.fighters[1].ko_until = u32::MAX;
    assert!(!st.fighter(B).able(1));
}

#[test]
fn declared_targets_gone_are_retargeted_or_lost() {
    // rule: USR-ROUND-4
    let text = duel("", "").replace("max_turns = 1", "max_turns = 1")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 1\n";
    // A declares against B; B is down before A acts (hp 0 at the start of A's step is simulated
    // by a declared target out of reach: B at 50 m).
    let text =
        text.replacen("hp_max = 30\n\n[[combatants]]\nname = \"B\"", "hp_max = 30\n\n[[combatants]]\nname = \"B\"", 1);
    let far = text.replace(
        "name = \"B\"\nside = \"b\"\naction = 8\nwits = 10\nego = 6\nhp_max = 30\n",
        "name = \"B\"\nside = \"b\"\naction = 8\nwits = 10\nego = 6\nhp_max = 30\nposition = 50\n",
    );
    let declare_b = Choice::Intent(Some(Act::Attack { target: B, fists: false, called: None, off_balance: false }));
    let hit_c = Choice::Act(Act::Attack { target: CombatantId(2), fists: false, called: None, off_balance: false });
    let sc = || script(&[(0, declare_b), (0, hit_c), (0, Choice::Act(Act::End))]);
    let (log, _, _) = run(&setup(&far, &[]), &[9, 2, 1, 5, 1, 1, 1, 1, 1, 1, 1], sc());
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, declared: true, .. })));
    let (log, _, result) = run(&setup(&far, &[("declared_retarget", "lost")]), &[9, 2, 1, 1, 1, 1, 1, 1], sc());
    assert!(log.iter().any(|e| matches!(e, Event::Failed { who: A, .. })), "{result:?} {log:#?}");
}

#[test]
fn undeclared_actions_resolve_or_may_fail() {
    // rule: USR-ROUND-3
    let text = duel("", "")
        + "\n[[combatants]]\nname = \"C\"\nside = \"a\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 1\n";
    // A (first) punches B; C (undeclared) then punches B too.
    let sc = || script(&[(2, Choice::Intent(None)), (2, attack_b(true, None)), (2, Choice::Act(Act::End))]);
    let faces = [9, 2, 1, 1, 2, 1, 1, 1, 2, 1, 1];
    let (log, _, _) = run(&setup(&text, &[]), &faces, sc());
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: CombatantId(2), declared: false, .. })));
    let (log, _, _) = run(&setup(&text, &[("undeclared_action", "fail_if_target_acted_on")]), &faces, sc());
    assert!(log.iter().any(|e| matches!(e, Event::Failed { who: CombatantId(2), .. })));
    // `gm_prompt`: the GM's ruling decides.
    let ask = script(&[(2, Choice::Intent(None)), (2, attack_b(true, None)), (2, Choice::Yes(false))]);
    let (log, _, _) = run(&setup(&text, &[("undeclared_action", "gm_prompt")]), &faces, ask);
    assert!(log.iter().any(|e| matches!(e, Event::Failed { who: CombatantId(2), why, .. } if why.contains("GM"))));
}

#[test]
fn initiative_ego_ties_and_reach() {
    // rule: USR-INIT-2, USR-INIT-4, USR-INIT-6
    let s = setup(&duel("", ""), &[]);
    // A declares a power: its initiative die is its Ego d6.
    let sc = script(&[(0, Choice::Intent(Some(Act::Power(B))))]);
    let (log, _, _) = run(&s, &[3, 2, 1, 1, 1, 1, 1, 1], sc);
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, roll, .. } if roll.die == 6)));
    let never = setup(&duel("", ""), &[("ego_initiative", "never")]);
    let sc = script(&[(0, Choice::Intent(Some(Act::Power(B))))]);
    let (log, _, _) = run(&never, &[3, 2, 1, 1, 1, 1, 1, 1], sc);
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, roll, .. } if roll.die == 10)));
    // Ties reroll among the tied: 4 and 4, then B 6 over A 2.
    let (log, _, _) = run(&s, &[4, 4, 2, 6, 1, 1, 1, 1, 1, 1], Script::new(2));
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(B, 0), (A, 1)])));
    // `larger_die`: A's d10 goes before B's d8 without a reroll.
    let larger = setup(&duel("", ""), &[("initiative_tie", "larger_die")]);
    let (log, _, _) = run(&larger, &[4, 4, 1, 1, 1, 1, 1, 1], Script::new(2));
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 1)])));
    assert!(!log.iter().any(|e| matches!(e, Event::TieBreak { .. })));
    // `simultaneous`: one step.
    let sim = setup(&duel("", ""), &[("initiative_tie", "simultaneous")]);
    let (log, _, _) = run(&sim, &[4, 4, 1, 1, 1, 1, 1, 1], Script::new(2));
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 0)])));
    // Reach: A's spear against B's fists in their first engaged turn: +1.
    let reach = setup(&duel("weapon = \"spear\"", "position = 1"), &[("reach_initiative_bonus", "1")]);
    let (log, _, _) = run(&reach, &[4, 5, 1, 1, 1, 1, 1, 1], Script::new(2));
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, bonus: 1, .. })));
    let (log, _, _) =
        run(&setup(&duel("weapon = \"spear\"", "position = 1"), &[]), &[4, 5, 1, 1, 1, 1, 1, 1], Script::new(2));
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, bonus: 0, .. })));
}

// --- ACT, MOVE ----------------------------------------------------------------------------

#[test]
fn a_move_and_an_action_or_only_one() {
    // rule: USR-ACT-2, USR-MOVE-1, USR-MOVE-2
    let far = duel("", "position = 8");
    let sc = || {
        script(&[
            (0, Choice::Act(Act::Move(Pos { x: 7.0, y: 0.0 }))),
            (0, attack_b(true, None)),
            (1, Choice::Act(Act::End)),
        ])
    };
    let (log, state, _) = run(&setup(&far, &[]), &[9, 1, 1, 1, 1], sc());
    assert_eq!(state.fighter(A).pos.x, 7.0);
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, .. })));
    let (log, _, _) = run(&setup(&far, &[("turn_economy", "single_action")]), &[9, 1, 1, 1], sc());
    assert!(!log.iter().any(|e| matches!(e, Event::Contest { who: A, .. })));
    // A move is at most 10 m.
    let too_far = script(&[(0, Choice::Act(Act::Move(Pos { x: 11.0, y: 0.0 })))]);
    let (_, _, result) = run(&setup(&far, &[]), &[9, 1], too_far);
    assert!(matches!(result, Err(FightError::IllegalChoice { .. })));
    // Disengaging: free by default; under `free_disengage = false` no attack after leaving reach.
    let near = duel("weapon = \"automatic_45\"", "position = 1");
    let leave = || {
        script(&[
            (0, Choice::Act(Act::Move(Pos { x: -5.0, y: 0.0 }))),
            (0, attack_b(false, None)),
            (1, Choice::Act(Act::End)),
        ])
    };
    let (log, _, _) = run(&setup(&near, &[]), &[9, 1, 1, 1, 1], leave());
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, .. })));
    let (_, _, result) = run(&setup(&near, &[("free_disengage", "false")]), &[9, 1], leave());
    assert!(matches!(result, Err(FightError::IllegalChoice { who: A, .. })));
}

#[test]
fn other_activities_deal_no_damage_unless_margin() {
    // rule: USR-ACT-4, USR-ACT-5, USR-CRIT-6
    let s = setup(&duel("", ""), &[]);
    let shove = Choice::Act(Act::Other { activity: Activity::Shove, target: Some(B), difficulty: 0 });
    let (log, state, _) = run(&s, &[9, 1, 9, 2, 1, 1, 1], script(&[(0, shove), (1, Choice::Act(Act::End))]));
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 7, success: true, .. })));
    assert_eq!(state.fighter(B).hp, 30);
    let dmg = setup(&duel("", ""), &[("other_activity_damage", "margin")]);
    let (log, state, _) = run(&dmg, &[9, 1, 9, 2, 3, 1, 1], script(&[(0, shove), (1, Choice::Act(Act::End))]));
    assert!(log.iter().any(|e| matches!(e, Event::Hit { recorded: 7, .. })));
    assert_eq!(state.fighter(B).hp, 23);
    // A critical success: natural high against a 1, confirmed.
    let (log, _, _) = run(&s, &[9, 1, 10, 1, 10, 1, 1, 1], script(&[(0, shove), (1, Choice::Act(Act::End))]));
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, critical: true, success: true, .. })));
    // An unopposed task against a difficulty.
    let task = Choice::Act(Act::Other { activity: Activity::Task, target: None, difficulty: 7 });
    let (log, _, _) = run(&s, &[9, 1, 7, 1, 1, 1], script(&[(0, task), (1, Choice::Act(Act::End))]));
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, difficulty: Some(7), success: true, .. })));
}

// --- ATK, RNG, CRIT, FUM ------------------------------------------------------------------

#[test]
fn ties_do_nothing_or_reroll() {
    // rule: USR-ATK-5, USR-ATK-6
    let s = setup(&duel("", ""), &[]);
    let (log, state, _) =
        run(&s, &[9, 1, 5, 5, 1, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 0, success: false, .. })));
    assert_eq!((state.fighter(A).hp, state.fighter(B).hp), (30, 30));
    let reroll = setup(&duel("", ""), &[("contest_tie", "reroll")]);
    let (log, _, _) =
        run(&reroll, &[9, 1, 5, 5, 7, 3, 3], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 4, success: true, .. })));
}

#[test]
fn weapons_come_from_the_placeholder_table_or_the_scenario() {
    // rule: USR-ATK-7, USR-ATK-3
    let s = setup(&duel("weapon = \"sword\"", "weapon = \"club\""), &[]);
    assert_eq!((s.combatants[0].weapon.bonus, s.combatants[0].weapon.reach), (2, 2));
    assert_eq!(s.combatants[1].weapon.bonus, 1);
    let t = fray_rules::hardboiled::setup::weapon_table();
    let find = |id: &str| t.iter().find(|(i, _)| *i == id).unwrap().1.clone();
    assert_eq!(find("automatic_45").damage.max(), 6);
    assert_eq!(find("walther_ppk").range_m, 15.0);
    let custom = duel("weapon = { name = \"ray gun\", kind = \"ranged\", damage = \"2d6\", range_m = 30 }", "");
    let c = setup(&custom, &[("weapon_table", "custom")]);
    assert_eq!(c.combatants[0].weapon.damage.max(), 12);
    assert!(
        scenario::load("t.toml", &duel("weapon = \"sword\"", ""), &[("weapon_table".into(), "custom".into())]).is_err()
    );
    // The defender's weapon counts in its total: 7 + 2 against 5 + 1.
    let (log, _, _) = run(&s, &[9, 1, 7, 5, 3], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 3, .. })));
}

#[test]
fn range_bands_and_beyond() {
    // rule: USR-RNG-2, USR-RNG-3, USR-RNG-4
    let o = Options::default();
    let bands: Vec<Option<i32>> = [1.0, 2.0, 4.0, 5.0, 9.0, 10.0, 20.0, 40.0, 41.0]
        .iter()
        .map(|&d| attack::band(&o, d, 20.0).map(|b| b.1))
        .collect();
    assert_eq!(bands, [Some(2), Some(2), Some(4), Some(4), Some(7), Some(7), Some(10), Some(14), None]);
    let extreme = Options { beyond_extreme: true, ..Options::default() };
    assert_eq!(attack::band(&extreme, 500.0, 20.0).map(|b| b.1), Some(14));
}

#[test]
fn point_blank_shots_do_maximum_damage() {
    // rule: USR-RNG-9, USR-RNG-8
    let gun = duel("weapon = { base = \"automatic_45\", damage = \"2d6\" }", "position = 1");
    let shoot = || script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]);
    // d10 5 against 2: margin 3 + 12 (2d6 at its maximum) = 15; location torso.
    let (log, _, _) = run(&setup(&gun, &[]), &[9, 1, 5, 3, 1, 1, 1], shoot());
    assert!(log.iter().any(|e| matches!(e, Event::Hit { base: 15, weapon_damage: Some(12), .. })));
    let (log, _, _) = run(&setup(&gun, &[("point_blank_max_damage", "false")]), &[9, 1, 5, 3, 4, 2, 1, 1, 1], shoot());
    assert!(log.iter().any(|e| matches!(e, Event::Hit { base: 9, weapon_damage: Some(6), .. })));
}

#[test]
fn crits_force_hits_and_fumbles_misses() {
    // rule: USR-CRIT-5, USR-FUM-1, USR-FUM-2, USR-FUM-3, USR-FUM-4
    let s = setup(
        &duel(
            "",
            "specialisms = [{ name = \"Guard\", attribute = \"action\", tags = [\"dodge\"] }, { name = \"Guard2\", attribute = \"action\", tags = [\"melee\"] }, { name = \"Guard3\", attribute = \"action\", tags = [\"brawling\"] }, { name = \"Guard4\", attribute = \"action\", tags = [\"dodge\"] }, { name = \"Guard5\", attribute = \"action\", tags = [\"dodge\"] }]",
        ),
        &[],
    );
    // A rolls 10 (its natural high) against B's 1 + 10: margin −1; confirmed: a hit of margin 1.
    let (log, _, _) =
        run(&s, &[9, 1, 10, 1, 10, 3, 1, 1, 1, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 1, success: true, critical: true, .. })));
    let no_force = setup(
        &duel(
            "",
            "specialisms = [{ name = \"Guard\", attribute = \"action\", tags = [\"dodge\"] }, { name = \"G2\", attribute = \"action\", tags = [\"melee\"] }, { name = \"G3\", attribute = \"action\", tags = [\"brawling\"] }, { name = \"G4\", attribute = \"action\", tags = [\"dodge\"] }, { name = \"G5\", attribute = \"action\", tags = [\"dodge\"] }]",
        ),
        &[("crit_forces_hit", "false")],
    );
    let (log, _, _) =
        run(&no_force, &[9, 1, 10, 1, 10, 1, 1, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, success: false, .. })));
    // A fumble: A's 1 against B's 8 (its natural high), confirm 1: a miss, and A loses its next action.
    let plain = setup(&duel("", "").replace("max_turns = 1", "max_turns = 2"), &[]);
    let (log, state, _) =
        run(&plain, &[9, 1, 1, 8, 1, 1, 1, 1, 9, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    assert!(
        log.contains(&Event::Fumbled { who: A, effect: fray_rules::hardboiled::options::FumbleEffect::LoseNextAction })
    );
    assert_eq!(state.fighter(A).lose_action_turn, 2);
    let req = fray_rules::hardboiled::policy::act_request(
        &plain,
        &{
            let mut s = state.clone();
            s.turn = 2;
            s.fighters[0].moved = false;
            s.fighters[0].attacks = 0;
            s.fighters[0].acted = false;
            s
        },
        A,
    );
    assert!(matches!(req, fray_rules::hardboiled::Request::Act { attacks_left: 0, can_move: true, .. }));
    // `drop_weapon`: the weapon falls.
    let drop = setup(&duel("weapon = \"knife\"", ""), &[("fumble_effect", "drop_weapon")]);
    let (_, state, _) =
        run(&drop, &[9, 1, 1, 8, 1, 1, 1, 1], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
    assert!(state.fighter(A).dropped);
    // `fumble_forces_miss = false`: a fumbling hit still lands (A 1 + 10 against 8).
    let lands = setup(
        &duel(
            "specialisms = [{ name = \"S\", attribute = \"action\", tags = [\"brawling\"] }, { name = \"S2\", attribute = \"action\", tags = [\"melee\"] }, { name = \"S3\", attribute = \"action\", tags = [\"brawling\"] }, { name = \"S4\", attribute = \"action\", tags = [\"melee\"] }, { name = \"S5\", attribute = \"action\", tags = [\"brawling\"] }]",
            "",
        ),
        &[("fumble_forces_miss", "false")],
    );
    let (log, _, _) =
        run(&lands, &[9, 1, 1, 8, 1, 3, 1, 1, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, success: true, .. })));
}
