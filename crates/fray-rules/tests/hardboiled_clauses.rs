//! `hardboiled` clauses, one test or more each, and the catalogue's reference numbers.

use fray_dice::{BigRational, fraction};
use fray_engine::{CombatantId, Fight, FightError, FightResult, Outcome, Pos, Record, Ruleset, Scripted};
use fray_rules::hardboiled::attack;
use fray_rules::hardboiled::odds;
use fray_rules::hardboiled::options::Options;
use fray_rules::hardboiled::policy::{self, Script};
use fray_rules::hardboiled::{Act, Activity, Choice, Event, HardBoiled, Opportunity, Part, Setup, State, scenario};

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

/// A scripted fight with a game master at the live table: at each point the fight lets him
/// interject, `interject` gives his adjustments (none, mostly) from the state and the one asked.
struct Gm<F> {
    script: Script,
    interject: F,
}

impl<F: FnMut(&State, CombatantId) -> Vec<Event>> fray_engine::Decider<HardBoiled> for Gm<F> {
    const CHECKED: bool = true;
    const INTERJECTS: bool = true;
    fn decide(
        &mut self,
        setup: &Setup,
        state: &State,
        who: CombatantId,
        request: &fray_rules::hardboiled::Request,
    ) -> Result<Choice, fray_engine::Pending> {
        self.script.decide(setup, state, who, request)
    }
    fn interject(&mut self, _: &Setup, state: &State, who: CombatantId) -> Vec<Event> {
        (self.interject)(state, who)
    }
}

/// [`run`] with a game master's interjections ([`Gm`]).
fn run_gm(
    setup: &Setup,
    faces: &[u32],
    script: Script,
    interject: impl FnMut(&State, CombatantId) -> Vec<Event>,
) -> (Vec<Event>, State, Result<FightResult, FightError>) {
    let gm = Gm { script, interject };
    let mut fight = Fight::<HardBoiled, _, _, _>::new(setup, Scripted::faces(faces), gm, Record::default());
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
fn only_a_melee_weapons_bonus_adds_to_a_total_and_never_to_a_power() {
    // rule: USR-ATK-3
    // Each side adds the bonus of the melee weapon it wields; a gun's `bonus` (the scenario takes
    // one) adds nothing, nor does any weapon to a power's contest.
    let o = Options::default();
    let t = fray_rules::hardboiled::setup::weapon_table();
    let weapon = |id: &str| t.iter().find(|(i, _)| *i == id).unwrap().1.clone();
    let mut sword = weapon("knife");
    sword.bonus = 2;
    let mut gun = weapon("automatic_45");
    gun.bonus = 3;
    let s = setup(&duel("", ""), &[]);
    let (a, b) = (&s.combatants[0], &s.combatants[1]);
    let hit = Act::Attack { target: B, fists: false, called: None, off_balance: false };
    let terms = |act: &Act, w: &fray_rules::hardboiled::setup::Weapon, d: &fray_rules::hardboiled::setup::Weapon| {
        let attr = attack::contest_attribute(&o, act);
        let (actor, opponent) = attack::contest_terms(&o, act, attr, a, b, w, d, 0, false);
        (actor.0[1], opponent.0[1])
    };
    assert_eq!(terms(&hit, &sword, &sword), (2, 2));
    assert_eq!(terms(&hit, &gun, &gun), (0, 0));
    assert_eq!(terms(&hit, &sword, &gun), (2, 0));
    assert_eq!(terms(&Act::Power(B), &sword, &sword), (0, 0));
}

#[test]
fn each_roll_fits_its_own_specialism_tags() {
    // rule: USR-DICE-3, USR-ATK-2
    // Which tags each side's specialisms must carry to add to a roll: the attacker's and the
    // defender's, for every kind of action, with a melee weapon, a brawling one and a gun.
    let t = fray_rules::hardboiled::setup::weapon_table();
    let weapon = |id: &str| t.iter().find(|(i, _)| *i == id).unwrap().1.clone();
    let (knife, knuckles, gun) = (weapon("knife"), weapon("brass_knuckles"), weapon("automatic_45"));
    let tags = |names: &[&str]| attack::Tags::of(names);
    let hit = Act::Attack { target: B, fists: false, called: None, off_balance: false };
    for (act, w, attacker, defender) in [
        (hit, &knife, tags(&["melee"]), tags(&["melee", "dodge"])),
        (hit, &knuckles, tags(&["melee", "brawling"]), tags(&["melee", "dodge", "brawling"])),
        (hit, &gun, tags(&["shooting"]), tags(&["melee", "dodge"])),
        (Act::Power(B), &knife, tags(&["psionics", "magic"]), tags(&["psionics", "magic", "willpower"])),
        (Act::Move(Pos::new(1.0, 0.0)), &knife, tags(&[]), tags(&[])),
    ] {
        assert_eq!(attack::attacker_tags(&act, w), attacker, "{act:?} with {}", w.name);
        assert_eq!(attack::defender_tags(&act, w), defender, "{act:?} with {}", w.name);
    }
    for (activity, attacker, defender) in [
        (Activity::Grapple, tags(&["grapple"]), tags(&["grapple", "dodge"])),
        (Activity::Shove, tags(&["shove"]), tags(&["dodge", "grapple"])),
        (Activity::Trip, tags(&["trip"]), tags(&["dodge", "grapple"])),
        (Activity::Intimidate, tags(&["intimidate"]), tags(&["willpower", "intimidate"])),
        (Activity::Trick, tags(&["trick"]), tags(&["perception", "trick"])),
        (Activity::Task, tags(&["task"]), tags(&[])),
    ] {
        let act = Act::Other { activity, target: Some(B), difficulty: 0 };
        assert_eq!(attack::attacker_tags(&act, &knife), attacker, "{activity:?}");
        assert_eq!(attack::defender_tags(&act, &knife), defender, "{activity:?}");
    }
    // A tag listed twice is still the one tag.
    assert_eq!(tags(&["melee", "melee"]), tags(&["melee"]));
    // Two sets meet when they share a tag.
    assert!(tags(&["melee", "dodge"]).meet(tags(&["dodge"])));
    assert!(!tags(&["melee"]).meet(tags(&["dodge", "shooting"])));
    assert!(!tags(&[]).meet(tags(&[])));
}

#[test]
fn contests_use_the_matching_attribute() {
    // rule: USR-DICE-7, USR-ACT-4
    let o = Options::default();
    let trick = Act::Other { activity: Activity::Trick, target: Some(B), difficulty: 0 };
    let only = Options { action_only: true, ..Options::default() };
    assert_eq!(attack::contest_attribute(&o, &trick), fray_rules::hardboiled::setup::Attr::Wits);
    assert_eq!(attack::contest_attribute(&o, &Act::Power(B)), fray_rules::hardboiled::setup::Attr::Ego);
    use fray_rules::hardboiled::setup::Attr;
    for (activity, attr) in [
        (Activity::Grapple, Attr::Action),
        (Activity::Shove, Attr::Action),
        (Activity::Trip, Attr::Action),
        (Activity::Intimidate, Attr::Ego),
        (Activity::Trick, Attr::Wits),
        (Activity::Task, Attr::Action),
    ] {
        let act = Act::Other { activity, target: Some(B), difficulty: 0 };
        assert_eq!(attack::contest_attribute(&o, &act), attr, "{activity:?}");
        assert_eq!(attack::contest_attribute(&only, &act), Attr::Action, "{activity:?}");
    }
    assert_eq!(attack::contest_attribute(&only, &trick), fray_rules::hardboiled::setup::Attr::Action);
    // A trick: A's Wits d8 against B's Wits d10: 8 vs 2 → success, margin 6, no damage.
    let s = setup(&duel("", ""), &[]);
    let sc = script(&[(0, Choice::Act(trick)), (1, Choice::Act(Act::End))]);
    let (log, state, fought) = run(&s, &[5, 1, 8, 2], sc);
    fought.unwrap();
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
    let (log, _, fought) = run(&s, &faces, Script::new(2));
    fought.unwrap();
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
    let text = duel("", "")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 1\n";
    // A declares against B; B is down before A acts (hp 0 at the start of A's step is simulated
    // by a declared target out of reach: B at 50 m).
    let far = text.replace(
        "name = \"B\"\nside = \"b\"\naction = 8\nwits = 10\nego = 6\nhp_max = 30\n",
        "name = \"B\"\nside = \"b\"\naction = 8\nwits = 10\nego = 6\nhp_max = 30\nposition = 50\n",
    );
    let declare_b = Choice::Intent(Some(Act::Attack { target: B, fists: false, called: None, off_balance: false }));
    let hit_c = Choice::Act(Act::Attack { target: CombatantId(2), fists: false, called: None, off_balance: false });
    let sc = || script(&[(0, declare_b), (0, hit_c), (0, Choice::Act(Act::End))]);
    let (log, _, fought) = run(&setup(&far, &[]), &[9, 2, 1, 5, 1, 1, 1, 1, 1, 1, 1], sc());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, declared: true, .. })));
    let (log, _, result) = run(&setup(&far, &[("declared_retarget", "lost")]), &[9, 2, 1, 1, 1, 1, 1, 1], sc());
    result.as_ref().unwrap();
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
    let (log, _, fought) = run(&setup(&text, &[]), &faces, sc());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: CombatantId(2), declared: false, .. })));
    let failing = setup(&text, &[("undeclared_action", "fail_if_target_acted_on")]);
    let (log, state, fought) = run(&failing, &faces, sc());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Failed { who: CombatantId(2), .. })));
    // The failed attack is C's attack all the same: none is left to it this turn.
    assert!(matches!(
        fray_rules::hardboiled::policy::act_request(&failing, &state, CombatantId(2)),
        fray_rules::hardboiled::Request::Act { attacks_left: 0, can_act: false, .. }
    ));
    // A contest acts on its target too: A shoves B, and C's undeclared punch at B fails.
    let shove_b = Choice::Act(Act::Other { activity: Activity::Shove, target: Some(B), difficulty: 0 });
    let shoved =
        script(&[(0, shove_b), (0, Choice::Act(Act::End)), (2, Choice::Intent(None)), (2, attack_b(true, None))]);
    let (log, _, fought) = run(&failing, &faces, shoved);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, act: Act::Other { .. }, .. })), "{log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::Failed { who: CombatantId(2), .. })), "{log:#?}");
    // `gm_prompt`: the GM's ruling decides.
    let ask = script(&[(2, Choice::Intent(None)), (2, attack_b(true, None)), (2, Choice::Yes(false))]);
    let (log, _, fought) = run(&setup(&text, &[("undeclared_action", "gm_prompt")]), &faces, ask);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Failed { who: CombatantId(2), why, .. } if why.contains("GM"))));
    // An action other than the declared one is undeclared too: C declares a power on B, then
    // punches B (B acted on already): it fails like an undeclared one.
    let switch =
        || script(&[(2, Choice::Intent(Some(Act::Power(B)))), (2, attack_b(true, None)), (2, Choice::Act(Act::End))]);
    let (log, _, fought) = run(&setup(&text, &[("undeclared_action", "fail_if_target_acted_on")]), &faces, switch());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Failed { who: CombatantId(2), .. })), "{log:#?}");
    let (log, _, fought) = run(&setup(&text, &[]), &faces, switch());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: CombatantId(2), declared: false, .. })));
    // Attacking another foe while the declared one still stands is undeclared too (only a
    // declared target gone may be swapped, USR-ROUND-4).
    let foes = duel("", "position = 1")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 1\n";
    let declare_b = Choice::Intent(Some(Act::Attack { target: B, fists: true, called: None, off_balance: false }));
    let hit_c = Choice::Act(Act::Attack { target: CombatantId(2), fists: true, called: None, off_balance: false });
    let sc = script(&[(0, declare_b), (0, hit_c), (0, Choice::Act(Act::End))]);
    let (log, _, result) = run(&setup(&foes, &[]), &[9, 2, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1], sc);
    result.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, declared: false, .. })), "{log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::Contest { who: A, declared: true, .. })), "{log:#?}");
}

#[test]
fn initiative_ego_ties_and_reach() {
    // rule: USR-INIT-2, USR-INIT-4, USR-INIT-6
    let s = setup(&duel("", ""), &[]);
    // A declares a power: its initiative die is its Ego d6.
    let sc = script(&[(0, Choice::Intent(Some(Act::Power(B))))]);
    let (log, _, fought) = run(&s, &[3, 2, 1, 1, 1, 1, 1, 1], sc);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, roll, .. } if roll.die == 6)));
    let never = setup(&duel("", ""), &[("ego_initiative", "never")]);
    let sc = script(&[(0, Choice::Intent(Some(Act::Power(B))))]);
    let (log, _, fought) = run(&never, &[3, 2, 1, 1, 1, 1, 1, 1], sc);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, roll, .. } if roll.die == 10)));
    // Ties reroll among the tied: 4 and 4, then B 6 over A 2.
    let (log, _, fought) = run(&s, &[4, 4, 2, 6, 1, 1, 1, 1, 1, 1], Script::new(2));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(B, 0), (A, 1)])));
    // `larger_die`: A's d10 goes before B's d8 without a reroll.
    let larger = setup(&duel("", ""), &[("initiative_tie", "larger_die")]);
    let (log, _, fought) = run(&larger, &[4, 4, 1, 1, 1, 1, 1, 1], Script::new(2));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 1)])));
    assert!(!log.iter().any(|e| matches!(e, Event::TieBreak { .. })));
    // Whatever the roster order: B's d10 before A's d8 (the actions swapped).
    let swapped = duel("", "")
        .replace("action = 10\n", "action = X\n")
        .replace("action = 8\n", "action = 10\n")
        .replace("action = X\n", "action = 8\n");
    let (log, _, fought) = run(
        &setup(&swapped, &[("initiative_tie", "larger_die"), ("attribute_dice_check", "free")]),
        &[4, 4, 1, 1, 1, 1, 1, 1],
        Script::new(2),
    );
    fought.unwrap();
    assert!(
        log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(B, 0), (A, 1)])),
        "{log:#?}"
    );
    // `simultaneous`: one step.
    let sim = setup(&duel("", ""), &[("initiative_tie", "simultaneous")]);
    let (log, _, fought) = run(&sim, &[4, 4, 1, 1, 1, 1, 1, 1], Script::new(2));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 0)])));
    // Reach: A's spear against B's fists in their first engaged turn: +1.
    let reach = setup(&duel("weapon = \"spear\"", "position = 1"), &[("reach_initiative_bonus", "1")]);
    let (log, state, fought) = run(&reach, &[4, 5, 1, 1, 1, 1, 1, 1], Script::new(2));
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative tie: the script ran out of faces after 8 dice");
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, bonus: 1, .. })));
    // The score the state keeps (and a status shows): A's 4 and the bonus, tied with B's 5.
    assert_eq!((state.fighter(A).init, state.fighter(B).init), (5, 5));
    let (log, _, fought) =
        run(&setup(&duel("weapon = \"spear\"", "position = 1"), &[]), &[4, 5, 1, 1, 1, 1, 1, 1], Script::new(2));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, bonus: 0, .. })));
    // Greater reach than every such enemy's: against B's spear too, A's is not greater.
    let even =
        setup(&duel("weapon = \"spear\"", "position = 1\nweapon = \"spear\""), &[("reach_initiative_bonus", "1")]);
    let (log, _, fought) = run(&even, &[4, 5, 1, 1, 1, 1, 1, 1], Script::new(2));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, bonus: 0, .. })), "{log:#?}");
    // An enemy exactly at the reach (2 m) is within it: his spear takes A's bonus too.
    let edge =
        setup(&duel("weapon = \"spear\"", "position = 2\nweapon = \"spear\""), &[("reach_initiative_bonus", "1")]);
    let (log, _, fought) = run(&edge, &[4, 5, 1, 1, 1, 1, 1, 1], Script::new(2));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, bonus: 0, .. })), "{log:#?}");
    // Only enemies within reach count: C's spear 50 m away does not take A's bonus.
    let far = duel("weapon = \"spear\"", "position = 1")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 50\nweapon = \"spear\"\npolicy = { move = \"hold\" }\n";
    let (log, _, fought) =
        run(&setup(&far, &[("reach_initiative_bonus", "1")]), &[6, 5, 1, 1, 1, 1, 1, 1], Script::new(3));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, bonus: 1, .. })), "{log:#?}");
    // Only one who starts engaged: B 10 m off, A's spear gives nothing.
    let apart = setup(&duel("weapon = \"spear\"", "position = 10"), &[("reach_initiative_bonus", "1")]);
    let (log, _, _) = run(&apart, &[4, 5, 1, 1, 1, 1, 1, 1], Script::new(2));
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, bonus: 0, .. })), "{log:#?}");
    // The first engaged turn only: still engaged in turn 2, A rolls without it.
    let two_turns = duel("weapon = \"spear\"", "position = 1").replace("max_turns = 1", "max_turns = 2");
    let idle =
        [(0, Choice::Intent(None)), (0, Choice::Act(Act::End)), (1, Choice::Intent(None)), (1, Choice::Act(Act::End))];
    let (log, _, fought) =
        run(&setup(&two_turns, &[("reach_initiative_bonus", "1")]), &[6, 5, 6, 5], script(&[idle, idle].concat()));
    fought.unwrap();
    let bonuses: Vec<i32> = log
        .iter()
        .filter_map(|e| match e {
            Event::Initiative { who: A, bonus, .. } => Some(*bonus),
            _ => None,
        })
        .collect();
    assert_eq!(bonuses, [1, 0], "{log:#?}");
}

// --- ACT, MOVE ----------------------------------------------------------------------------

#[test]
fn a_move_and_an_action_or_only_one() {
    // rule: USR-ACT-2, USR-MOVE-1, USR-MOVE-2
    // The kinds of action a turn counts: a Move, an attack (a power too), an Other activity
    // (picking a weapon up too), and the turn's end.
    let kinds = [
        Act::Move(Pos::new(1.0, 0.0)),
        Act::Attack { target: B, fists: true, called: None, off_balance: false },
        Act::Power(B),
        Act::Other { activity: Activity::Shove, target: Some(B), difficulty: 0 },
        Act::PickUp,
        Act::End,
    ]
    .map(|a| a.kind());
    assert_eq!(kinds, [0, 1, 1, 2, 2, 3]);
    let far = duel("", "position = 8");
    let sc = || {
        script(&[
            (0, Choice::Act(Act::Move(Pos { x: 7.0, y: 0.0 }))),
            (0, attack_b(true, None)),
            (1, Choice::Act(Act::End)),
        ])
    };
    let (log, state, fought) = run(&setup(&far, &[]), &[9, 1, 1, 1, 1], sc());
    fought.unwrap();
    assert_eq!(state.fighter(A).pos.x, 7.0);
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, .. })));
    let (log, _, fought) = run(&setup(&far, &[("turn_economy", "single_action")]), &[9, 1, 1, 1], sc());
    fought.unwrap();
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
    let (log, _, fought) = run(&setup(&near, &[]), &[9, 1, 1, 1, 1], leave());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, .. })));
    let (_, _, result) = run(&setup(&near, &[("free_disengage", "false")]), &[9, 1], leave());
    assert!(matches!(result, Err(FightError::IllegalChoice { who: A, .. })));
}

#[test]
fn other_activities_deal_no_damage_unless_margin() {
    // rule: USR-ACT-4, USR-ACT-5, USR-CRIT-6, USR-CRIT-7, USR-DICE-5
    let s = setup(&duel("", ""), &[]);
    let shove = Choice::Act(Act::Other { activity: Activity::Shove, target: Some(B), difficulty: 0 });
    let (log, state, fought) = run(&s, &[9, 1, 9, 2, 1, 1, 1], script(&[(0, shove), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 7, success: true, .. })));
    assert_eq!(state.fighter(B).hp, 30);
    let dmg = setup(&duel("", ""), &[("other_activity_damage", "margin")]);
    let (log, state, fought) = run(&dmg, &[9, 1, 9, 2, 3, 1, 1], script(&[(0, shove), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { recorded: 7, .. })));
    assert_eq!(state.fighter(B).hp, 23);
    // A critical success: natural high against a 1, confirmed.
    let (log, _, fought) = run(&s, &[9, 1, 10, 1, 10, 1, 1, 1], script(&[(0, shove), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, critical: true, success: true, .. })));
    // An unopposed task against a difficulty.
    let task = Choice::Act(Act::Other { activity: Activity::Task, target: None, difficulty: 7 });
    let (log, _, fought) = run(&s, &[9, 1, 7, 1, 1, 1], script(&[(0, task), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, difficulty: Some(7), success: true, .. })));
    // Its difficulty is on the 2–14 scale.
    let request = fray_rules::hardboiled::Request::Act { can_move: true, attacks_left: 1, can_act: true };
    let st = start(&s);
    for (d, legal) in [(1, false), (2, true), (14, true), (15, false)] {
        let act = Act::Other { activity: Activity::Task, target: None, difficulty: d };
        assert_eq!(fray_rules::hardboiled::policy::illegal(&s, &st, A, &request, &act).is_none(), legal, "{d}");
    }
    // A fumbled unopposed task (natural 1, confirmed by a 1) has the fumble's effect too.
    let (log, _, fought) = run(&s, &[9, 1, 1, 1, 1, 1, 1], script(&[(0, task), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Fumbled { who: A, .. })), "{log:#?}");
    // The confirming die is logged after the roll it confirms (USR-DICE-5).
    let at = |f: &dyn Fn(&Event) -> bool| log.iter().position(f).unwrap();
    assert!(at(&|e| matches!(e, Event::Contest { who: A, .. })) < at(&|e| matches!(e, Event::Confirm { .. })));
}

// --- ATK, RNG, CRIT, FUM ------------------------------------------------------------------

#[test]
fn ties_do_nothing_or_reroll() {
    // rule: USR-ATK-5, USR-ATK-6
    let s = setup(&duel("", ""), &[]);
    let (log, state, fought) =
        run(&s, &[9, 1, 5, 5, 1, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 0, success: false, .. })));
    assert_eq!((state.fighter(A).hp, state.fighter(B).hp), (30, 30));
    let reroll = setup(&duel("", ""), &[("contest_tie", "reroll")]);
    let (log, _, fought) =
        run(&reroll, &[9, 1, 5, 5, 7, 3, 3], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 4, success: true, .. })));
    // A shove tied is rerolled the same way.
    let shove = Choice::Act(Act::Other { activity: Activity::Shove, target: Some(B), difficulty: 0 });
    let (log, _, fought) = run(&reroll, &[9, 1, 5, 5, 7, 3, 1, 1], script(&[(0, shove), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 4, success: true, .. })), "{log:#?}");
}

#[test]
fn an_endless_tie_stops_after_a_hundred_rerolls() {
    // Not a clause: a guard. Dice that tie for ever (a script of equal faces) would reroll for
    // ever; after 100 rolls the tie stands (margin 0) and the fight goes on.
    let reroll = setup(&duel("", ""), &[("contest_tie", "reroll")]);
    let shove = Choice::Act(Act::Other { activity: Activity::Shove, target: Some(B), difficulty: 0 });
    let mut faces = vec![9, 1];
    faces.extend([5; 200]);
    let (log, _, fought) = run(&reroll, &faces, script(&[(0, shove), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 0, success: false, .. })), "{log:#?}");
    // So does an attack's.
    let (log, _, fought) = run(&reroll, &faces, script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 0, success: false, .. })), "{log:#?}");
}

#[test]
fn a_tie_of_totals_rerolls_with_the_specialisms_counted() {
    // rule: USR-ATK-6
    // Under `contest_tie = reroll` a tie is one of totals: A's 4 + 2 (his melee and shoving
    // specialisms) against B's 6 ties, and both roll again (8 + 2 against 1).
    let spec = "specialisms = [{ name = \"Brawler\", attribute = \"action\", tags = [\"melee\", \"shove\"] }]";
    let reroll = setup(&duel(spec, ""), &[("contest_tie", "reroll")]);
    let shove = Choice::Act(Act::Other { activity: Activity::Shove, target: Some(B), difficulty: 0 });
    let mut faces = vec![9, 1, 4, 6, 8, 1];
    faces.extend([1; 20]);
    for act in [attack_b(true, None), shove] {
        let (log, _, fought) = run(&reroll, &faces, script(&[(0, act), (1, Choice::Act(Act::End))]));
        fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
        let contest = log.iter().find_map(|e| match e {
            Event::Contest { who: A, roll, against: Some(d), .. } => Some((roll.natural, d.natural)),
            _ => None,
        });
        assert_eq!(contest, Some((8, 1)), "{act:?}: {log:#?}");
    }
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
    // Under the custom table no weapon starts from the placeholder table's.
    let based = duel("weapon = { name = \"big gun\", base = \"automatic_45\" }", "");
    setup(&based, &[]);
    let e = scenario::load("t.toml", &based, &[("weapon_table".into(), "custom".into())]).map(|_| ()).unwrap_err();
    assert!(e.to_string().contains("under `weapon_table = custom` there is no table to start from"), "{e}");
    // A range from 0 (excluded) to 10000 m.
    let ranged =
        |r: &str| duel(&format!("weapon = {{ name = \"r\", kind = \"ranged\", damage = \"2d6\", range_m = {r} }}"), "");
    setup(&ranged("10000"), &[]);
    for bad in ["10001", "0", "-5"] {
        let e = scenario::load("t.toml", &ranged(bad), &[]).map(|_| ()).expect_err(bad);
        assert!(e.to_string().contains("expected a range from 0 to 10000 m"), "{bad}: {e}");
    }
    // A custom gun needs its damage and its range; a custom melee weapon has neither by default.
    let bare = |fields: &str| {
        scenario::load("t.toml", &duel(&format!("weapon = {{ name = \"w\", {fields} }}"), ""), &[])
            .map(|s| s.combatants[0].weapon.clone())
    };
    let e = bare("kind = \"ranged\", range_m = 30").unwrap_err().to_string();
    assert!(e.contains("a custom weapon needs `damage`"), "{e}");
    let e = bare("kind = \"ranged\", damage = \"2d6\"").unwrap_err().to_string();
    assert!(e.contains("a custom weapon needs `range_m`"), "{e}");
    let club = bare("kind = \"melee\"").unwrap();
    assert_eq!((club.damage.max(), club.range_m), (0, 0.0));
    // The defender's weapon counts in its total: 7 + 2 against 5 + 1.
    let (log, _, fought) = run(&s, &[9, 1, 7, 5, 3], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
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
    // rule: USR-RNG-9, USR-RNG-8, USR-DICE-5
    let gun = duel("weapon = { base = \"automatic_45\", damage = \"2d6\" }", "position = 1");
    let shoot = || script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]);
    // d10 5 against 2: margin 3 + 12 (2d6 at its maximum) = 15; location torso.
    let (log, _, fought) = run(&setup(&gun, &[]), &[9, 1, 5, 3, 1, 1, 1], shoot());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { base: 15, weapon_damage: Some(12), .. })));
    let (log, _, fought) =
        run(&setup(&gun, &[("point_blank_max_damage", "false")]), &[9, 1, 5, 3, 4, 2, 1, 1, 1], shoot());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { base: 9, weapon_damage: Some(6), .. })));
    // Every face of the damage dice is logged (USR-DICE-5): 2d6 [4, 2].
    let rolled = log.iter().find_map(|e| match e {
        Event::DamageRoll { who: A, sides: 6, faces, plus: 0 } => Some(faces.to_vec()),
        _ => None,
    });
    assert_eq!(rolled, Some(vec![4, 2]));
    // Only Point Blank: at 3 m (Close, difficulty 4) the dice are rolled: margin 1 + 2d6 [4, 2].
    let close = duel("weapon = { base = \"automatic_45\", damage = \"2d6\" }", "position = 3");
    let (log, _, result) = run(&setup(&close, &[]), &[9, 1, 5, 3, 4, 2, 1, 1, 1], shoot());
    result.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { base: 7, weapon_damage: Some(6), .. })), "{log:#?}");
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
    let (log, _, fought) =
        run(&s, &[9, 1, 10, 1, 10, 3, 1, 1, 1, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, margin: 1, success: true, critical: true, .. })));
    let no_force = setup(
        &duel(
            "",
            "specialisms = [{ name = \"Guard\", attribute = \"action\", tags = [\"dodge\"] }, { name = \"G2\", attribute = \"action\", tags = [\"melee\"] }, { name = \"G3\", attribute = \"action\", tags = [\"brawling\"] }, { name = \"G4\", attribute = \"action\", tags = [\"dodge\"] }, { name = \"G5\", attribute = \"action\", tags = [\"dodge\"] }]",
        ),
        &[("crit_forces_hit", "false")],
    );
    let (log, _, fought) =
        run(&no_force, &[9, 1, 10, 1, 10, 1, 1, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, success: false, .. })));
    // A fumble: A's 1 against B's 8 (its natural high), confirm 1: a miss, and A loses its next action.
    let plain = setup(&duel("", "").replace("max_turns = 1", "max_turns = 2"), &[]);
    let (log, state, fought) =
        run(&plain, &[9, 1, 1, 8, 1, 1, 1, 1, 9, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative tie: scripted face 9 (die 9) does not fit a d8");
    assert!(
        log.contains(&Event::Fumbled { who: A, effect: fray_rules::hardboiled::options::FumbleEffect::LoseNextAction })
    );
    assert_eq!(state.fighter(A).lose_action_turn, 2);
    // Only a 1 confirms: the same opportunity with a confirm 2 is no fumble.
    let (log, unconfirmed, result) = run(
        &setup(&duel("", ""), &[]),
        &[9, 1, 1, 8, 2],
        script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]),
    );
    result.unwrap();
    assert!(log.contains(&Event::Confirm { who: A, kind: Opportunity::Fumble, face: 2, confirmed: false }), "{log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::Fumbled { .. })), "{log:#?}");
    assert_eq!(unconfirmed.fighter(A).lose_action_turn, 0);
    // A shot's natural 1 is an opportunity too, confirmed by its own d10 (USR-CRIT-7).
    let gun = setup(&duel("weapon = \"automatic_45\"", "position = 5"), &[]);
    for (face, fumbled) in [(5, false), (1, true)] {
        let (log, _, result) =
            run(&gun, &[9, 1, 1, face], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
        result.unwrap();
        assert!(
            log.contains(&Event::Confirm { who: A, kind: Opportunity::Fumble, face: face as u8, confirmed: fumbled }),
            "{log:#?}"
        );
        assert_eq!(log.iter().any(|e| matches!(e, Event::Fumbled { who: A, .. })), fumbled, "{log:#?}");
    }
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
    let (_, state, fought) =
        run(&drop, &[9, 1, 1, 8, 1, 1, 1, 1], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(state.fighter(A).dropped);
    // `fumble_forces_miss = false`: a fumbling hit still lands (A 1 + 10 against 8).
    let lands = setup(
        &duel(
            "specialisms = [{ name = \"S\", attribute = \"action\", tags = [\"brawling\"] }, { name = \"S2\", attribute = \"action\", tags = [\"melee\"] }, { name = \"S3\", attribute = \"action\", tags = [\"brawling\"] }, { name = \"S4\", attribute = \"action\", tags = [\"melee\"] }, { name = \"S5\", attribute = \"action\", tags = [\"brawling\"] }]",
            "",
        ),
        &[("fumble_forces_miss", "false")],
    );
    let (log, _, fought) =
        run(&lands, &[9, 1, 1, 8, 1, 3, 1, 1, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, success: true, .. })));
}

// --- LOC, COVER, ARM, DMG -----------------------------------------------------------------

fn outcome(setup: &Setup, base: i32, face: u8, critical: bool, ranged: bool, weapon: &str) -> attack::Outcome {
    let t = fray_rules::hardboiled::setup::weapon_table();
    let w = &t.iter().find(|(i, _)| *i == weapon).unwrap().1;
    let kind = if ranged { attack::HitKind::Ranged } else { attack::HitKind::Melee };
    attack::outcome(setup, &start(setup), B, base, face, critical, kind, w)
}

#[test]
fn locations_and_called_shots() {
    // rule: USR-LOC-2, USR-LOC-3, USR-LOC-4
    let parts: Vec<Part> = (1..=10).map(Part::of).collect();
    assert_eq!(parts[0], Part::Head);
    assert_eq!(&parts[1..4], [Part::Torso; 3]);
    assert_eq!((parts[4], parts[5]), (Part::RightArm, Part::LeftArm));
    assert_eq!(&parts[6..], [Part::RightLeg, Part::RightLeg, Part::LeftLeg, Part::LeftLeg]);
    // The location changes no damage by itself.
    let s = setup(&duel("", ""), &[]);
    let all: Vec<i32> = (1..=10).map(|f| outcome(&s, 7, f, false, true, "automatic_45").recorded).collect();
    assert_eq!(all, [7; 10]);
    // A called shot: +2 to the difficulty of a shot, +2 to the defender's melee total; no die.
    let gun = setup(&duel("weapon = \"automatic_45\"", "position = 5"), &[]);
    assert_eq!(hit_p(&gun, Act::Attack { target: B, fists: false, called: None, off_balance: false }), "7/10");
    assert_eq!(
        hit_p(&gun, Act::Attack { target: B, fists: false, called: Some(Part::Head), off_balance: false }),
        "1/2"
    );
    let melee = setup(&duel("", ""), &[]);
    let plain = hit_p(&melee, Act::Attack { target: B, fists: true, called: None, off_balance: false });
    let called = hit_p(&melee, Act::Attack { target: B, fists: true, called: Some(Part::Head), off_balance: false });
    // d10 vs d8: 44/80; against d8 + 2: 28/80.
    assert_eq!((plain.as_str(), called.as_str()), ("11/20", "7/20"));
    // Each part called lands there, with no location die rolled.
    for part in Part::ALL {
        let sc = script(&[(0, attack_b(true, Some(part))), (1, Choice::Act(Act::End))]);
        let (log, _, fought) = run(&melee, &[9, 1, 10, 2], sc);
        fought.unwrap();
        let face = log.iter().find_map(|e| match e {
            Event::Hit { face, called: true, .. } => Some(*face),
            _ => None,
        });
        assert_eq!(face.map(Part::of), Some(part), "{log:#?}");
    }
}

#[test]
fn debilitating_effects_drop_weapons_and_lame() {
    // rule: USR-LOC-5
    let text = duel("weapon = \"automatic_45\"", "weapon = \"knife\"\nposition = 5");
    // d10 10: a critical opportunity (natural high), not confirmed (4); margin 6 + 6 = 12 on the
    // right arm (5): ≥ ⌈30/4⌉ = 8 → B drops his knife.
    let on = setup(&text, &[("debilitating_effects", "on")]);
    let (log, state, fought) =
        run(&on, &[9, 1, 10, 4, 5, 1, 1, 1, 1], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.contains(&Event::Dropped { who: B }));
    assert!(state.fighter(B).dropped);
    // A smaller loss on the arm, under ⌈30 / 4⌉ = 8: the knife stays in hand.
    let (log, state, fought) =
        run(&on, &[9, 1, 5, 5, 1, 1, 1, 1, 1], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    let loss = log.iter().find_map(|e| match e {
        Event::Hit { target: B, face: 5, hp_loss, .. } => Some(*hp_loss),
        _ => None,
    });
    assert!(loss.is_some_and(|l| (1..8).contains(&l)), "{loss:?}: {log:#?}");
    assert!(!state.fighter(B).dropped && !log.contains(&Event::Dropped { who: B }));
    // In his step B picks the knife up (an Other activity with no roll, USR-FUM-4): in hand again.
    let pick = [(0, attack_b(false, None)), (1, Choice::Act(Act::PickUp)), (1, Choice::Act(Act::End))];
    let (log, state, fought) = run(&on, &[9, 1, 10, 4, 5, 1, 1, 1, 1], script(&pick));
    fought.unwrap();
    assert!(log.contains(&Event::PickedUp { who: B }), "{log:#?}");
    assert!(!state.fighter(B).dropped);
    let (log, _, fought) =
        run(&on, &[9, 1, 10, 4, 8, 1, 1, 1, 1], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.contains(&Event::Lamed { who: B }));
    let off = setup(&text, &[]);
    let (log, _, fought) =
        run(&off, &[9, 1, 10, 4, 5, 1, 1, 1, 1], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Dropped { .. } | Event::Lamed { .. })));
    // A leg hit on one already lame lames no further: two such hits in a turn (two attacks
    // allowed), one Lamed.
    let twice = setup(&text, &[("debilitating_effects", "on"), ("max_attacks_per_turn", "2")]);
    let sc = script(&[(0, attack_b(false, None)), (0, attack_b(false, None)), (1, Choice::Act(Act::End))]);
    let (log, _, fought) = run(&twice, &[9, 1, 10, 4, 8, 10, 4, 8, 1, 1, 1, 1], sc);
    fought.unwrap();
    assert_eq!(log.iter().filter(|e| matches!(e, Event::Hit { target: B, face: 8, .. })).count(), 2, "{log:#?}");
    assert_eq!(log.iter().filter(|e| matches!(e, Event::Lamed { .. })).count(), 1, "{log:#?}");
}

#[test]
fn cover_stops_shots_at_hidden_locations_unless_they_penetrate() {
    // rule: USR-COVER-1, USR-COVER-2, USR-COVER-3, USR-COVER-4, USR-COVER-5
    let behind =
        |hardness: i32| setup(&duel("", &format!("cover = {{ preset = \"counter\", hardness = {hardness} }}")), &[]);
    // The counter hides torso and legs: a leg shot strikes it; the head is open.
    let hard = behind(2);
    assert!(outcome(&hard, 8, 7, false, true, "automatic_45").cover_stopped);
    assert!(!outcome(&hard, 8, 1, false, true, "automatic_45").cover_stopped);
    // Penetration 1 against hardness 1: through, full damage; against 2: stopped.
    let wood = behind(1);
    let through = outcome(&wood, 8, 3, false, true, "automatic_45");
    assert_eq!((through.cover_stopped, through.recorded), (false, 8));
    let never = setup(&duel("", "cover = { preset = \"counter\", hardness = 1 }"), &[("cover_penetration", "never")]);
    assert!(outcome(&never, 8, 3, false, true, "automatic_45").cover_stopped);
    // Presets.
    let preset = |name: &str| fray_rules::hardboiled::setup::COVER_PRESETS.iter().find(|p| p.0 == name).unwrap().1;
    assert_eq!(preset("low"), fray_rules::hardboiled::setup::faces(7, 10));
    // Face by face (USR-LOC-2): the corner hides all but the head (1) and the right arm (5); the
    // counter the torso (2–4) and the legs (7–10).
    for face in 1..=10 {
        assert_eq!(preset("corner") & (1 << face) != 0, face != 1 && face != 5, "corner, face {face}");
        assert_eq!(preset("counter") & (1 << face) != 0, (2..=4).contains(&face) || face >= 7, "counter, face {face}");
    }
    assert_eq!(preset("full"), fray_rules::hardboiled::setup::ALL);
    let custom = setup(&duel("", "cover = { locations = [1], hardness = 3 }"), &[("cover_presets", "custom")]);
    assert!(outcome(&custom, 8, 1, false, true, "automatic_45").cover_stopped);
    assert!(
        scenario::load(
            "t.toml",
            &duel("", "cover = { preset = \"low\" }"),
            &[("cover_presets".into(), "custom".into())]
        )
        .is_err()
    );
    // Cover matters only against shots, unless `melee_cover`.
    assert!(!outcome(&hard, 8, 7, false, false, "knife").cover_stopped);
    let melee = setup(&duel("", "cover = { preset = \"counter\", hardness = 2 }"), &[("melee_cover", "true")]);
    assert!(outcome(&melee, 8, 7, false, false, "knife").cover_stopped);
    // In a fight: a stopped shot is no strike (no Second Wind window).
    let text = duel("weapon = \"automatic_45\"", "cover = { preset = \"full\", hardness = 3 }\nposition = 5");
    let (log, state, fought) = run(
        &setup(&text, &[]),
        &[9, 1, 8, 3, 1, 1, 1],
        script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]),
    );
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { cover_stopped: true, hp_loss: 0, .. })));
    assert_eq!(state.fighter(B).hp, 30);
}

#[test]
fn armour_by_location_in_the_total_or_both_and_layering() {
    // rule: USR-ARM-1, USR-ARM-2, USR-ARM-3, USR-CRIT-3, USR-ACT-5
    let vested = |sets: &[(&str, &str)]| setup(&duel("", "armour = [\"bulletproof_vest\", \"leather_jacket\"]"), sets);
    let s = vested(&[]);
    assert_eq!(outcome(&s, 8, 3, false, false, "knife").stop, 4);
    assert_eq!(outcome(&s, 8, 5, false, false, "knife").stop, 1);
    assert_eq!(outcome(&s, 8, 3, true, false, "knife").stop, 0);
    let best = vested(&[("armour_layering", "best")]);
    assert_eq!(outcome(&best, 8, 3, false, false, "knife").stop, 3);
    // `defence_total`: the best piece adds to the melee total; no location reduction in melee.
    let total = vested(&[("armour_mode", "defence_total")]);
    assert_eq!(attack::defence_armour(&total.options, &total.combatants[1]), 3);
    assert_eq!(outcome(&total, 8, 3, false, false, "knife").stop, 0);
    assert_eq!(outcome(&total, 8, 3, false, true, "automatic_45").stop, 4);
    // A confirmed critical takes that armour out of B's total again: the margin grows by 3.
    // (A's 10 on its d10 against B's 1, confirmed by a 10.)
    let (log, _, fought) = run(
        &total,
        &[9, 1, 10, 1, 10, 5, 1, 1, 1, 1],
        script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]),
    );
    let (roll, against, margin, critical) = log
        .iter()
        .find_map(|e| match e {
            Event::Contest { who: A, roll, against: Some(d), margin, critical, .. } => {
                Some((*roll, *d, *margin, *critical))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("{fought:?}: {log:#?}"));
    assert!(critical, "{log:#?}");
    assert_eq!(margin, roll.total - against.total + 3, "{log:#?}");
    // An Other activity's damage met no armour in the contest: the location's armour applies
    // (USR-ACT-5).
    let activity = fray_rules::hardboiled::policy::activity_weapon();
    let o = attack::outcome(&total, &start(&total), B, 8, 3, false, attack::HitKind::Activity, activity);
    assert_eq!((o.stop, o.recorded), (4, 4));
    let both = vested(&[("armour_mode", "both")]);
    assert_eq!(attack::defence_armour(&both.options, &both.combatants[1]), 3);
    assert_eq!(outcome(&both, 8, 3, false, false, "knife").stop, 4);
    assert_eq!(attack::defence_armour(&s.options, &s.combatants[1]), 0);
    let custom = setup(
        &duel("", "armour = [{ name = \"plates\", stop = 2, locations = [1, 2], natural = true }]"),
        &[("armour_table", "custom")],
    );
    assert_eq!(outcome(&custom, 8, 2, false, false, "knife").stop, 2);
}

#[test]
fn ward_comes_off_every_hit_after_armour_even_a_critical() {
    // rule: USR-DMG-1, USR-CRIT-4
    // B's ward 2 and a leather jacket (stop 1 on the torso, face 3): 9 − 1 − 2 = 6 recorded; a
    // critical skips the armour, never the ward: 9 − 2 = 7; never below 0.
    let s = setup(&duel("", "ward = 2\narmour = [\"leather_jacket\"]"), &[]);
    let o = outcome(&s, 9, 3, false, false, "knife");
    assert_eq!((o.stop, o.ward, o.recorded, o.hp_loss), (1, 2, 6, 6));
    let o = outcome(&s, 9, 3, true, false, "knife");
    assert_eq!((o.stop, o.ward, o.recorded, o.hp_loss), (0, 2, 7, 7));
    assert_eq!(outcome(&s, 2, 3, false, false, "knife").recorded, 0);
    // A punch: recorded 6, half of it lost; halving first, ⌊9/2⌋ − 1 − 2 = 1.
    assert_eq!(outcome(&s, 9, 3, false, false, "unarmed").hp_loss, 3);
    let before = setup(&duel("", "ward = 2\narmour = [\"leather_jacket\"]"), &[("armour_before_halving", "false")]);
    let o = outcome(&before, 9, 3, false, false, "unarmed");
    assert_eq!((o.recorded, o.hp_loss), (6, 1));
    assert_eq!(outcome(&before, 4, 3, false, false, "unarmed").hp_loss, 0);
}

#[test]
fn brawling_halves_and_other_hits_do_not() {
    // rule: USR-DMG-2, USR-DMG-3, USR-DMG-4, USR-DMG-1
    let s = setup(&duel("", "armour = [\"leather_jacket\"]"), &[]);
    assert_eq!(outcome(&s, 9, 8, false, false, "knife").hp_loss, 9);
    assert_eq!(outcome(&s, 9, 8, false, false, "unarmed").hp_loss, 4);
    // Brass knuckles and a blackjack are brawling weapons of the table; a club is not.
    assert_eq!(outcome(&s, 9, 8, false, false, "brass_knuckles").hp_loss, 4);
    assert_eq!(outcome(&s, 9, 8, false, false, "blackjack").hp_loss, 4);
    assert_eq!(outcome(&s, 9, 8, false, false, "club").hp_loss, 9);
    let ceil = setup(&duel("", ""), &[("brawl_rounding", "ceil")]);
    assert_eq!(outcome(&ceil, 9, 8, false, false, "unarmed").hp_loss, 5);
    // Halving before armour: ⌊9/2⌋ − 1 = 3 on the jacketed torso; recorded stays 8.
    let before = setup(&duel("", "armour = [\"leather_jacket\"]"), &[("armour_before_halving", "false")]);
    let o = outcome(&before, 9, 3, false, false, "unarmed");
    assert_eq!((o.recorded, o.hp_loss), (8, 3));
    assert_eq!(outcome(&s, 9, 3, false, false, "unarmed").hp_loss, 4);
}

// --- TRACK, RES ---------------------------------------------------------------------------

#[test]
fn maximum_hp_rolled_or_largest() {
    // rule: USR-TRACK-1, USR-TRACK-2
    let text = duel("", "").replace("hp_max = 30\n", "");
    let (log, state, fought) = run(&setup(&text, &[]), &[7, 5, 2, 9, 1, 1, 1, 1, 1, 1], Script::new(2));
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative tie: the script ran out of faces after 10 dice");
    assert!(log.contains(&Event::HpSet { who: A, faces: [7, 5], max: 12 }));
    assert!(log.contains(&Event::HpSet { who: B, faces: [2, 9], max: 11 }));
    assert_eq!(state.fighter(B).hp_max, 11);
    let (log, _, fought) = run(&setup(&text, &[("hp_generation", "maximum")]), &[1, 1, 1, 1, 1, 1], Script::new(2));
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative tie: the script ran out of faces after 6 dice");
    assert!(log.contains(&Event::HpSet { who: A, faces: [0, 0], max: 18 }));
    assert!(log.contains(&Event::HpSet { who: B, faces: [0, 0], max: 18 }));
}

#[test]
fn thresholds_and_second_wind_values() {
    // rule: USR-TRACK-5, USR-RES-2
    let o = Options::default();
    let ko: Vec<i32> = [8, 9, 10, 12, 13, 14, 18].iter().map(|&m| attack::ko_threshold(&o, m)).collect();
    assert_eq!(ko, [4, 5, 5, 6, 7, 7, 9]);
    assert_eq!(attack::ko_threshold(&Options { ko_floor_half: true, ..Options::default() }, 13), 6);
    let wind: Vec<i32> = [8, 10, 12, 14, 18].iter().map(|&m| attack::second_wind(&o, m)).collect();
    assert_eq!(wind, [2, 2, 3, 3, 4]);
    assert_eq!(attack::second_wind(&Options { second_wind_ceil: true, ..Options::default() }, 14), 4);
}

#[test]
fn knocked_out_for_a_few_turns() {
    // rule: USR-TRACK-7, USR-TRACK-3
    let text = duel("weapon = \"automatic_45\"", "position = 5\npolicy = { move = \"hold\" }")
        .replace("max_turns = 1", "max_turns = 4")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 900\npolicy = { move = \"hold\" }\n";
    let sets = [("ko_duration", "turns:2")];
    // Turn 1: A shoots B: d10 9 vs 4: margin 5 + 6 = 11 on the leg... 11 < 15; a second shot is
    // not allowed; so give B hp 20: threshold 10.
    let text = text.replace(
        "name = \"B\"\nside = \"b\"\naction = 8\nwits = 10\nego = 6\nhp_max = 30",
        "name = \"B\"\nside = \"b\"\naction = 8\nwits = 10\nego = 6\nhp_max = 20",
    );
    let mut faces = vec![9, 2, 1, 9, 7];
    faces.extend([1; 60]);
    let only_once = script(&[(0, attack_b(false, None)), (0, Choice::Act(Act::End))]);
    let (log, state, fought) = run(&setup(&text, &sets), &faces, only_once);
    assert_eq!(fought.unwrap_err().to_string(), "dice for initiative tie: the script ran out of faces after 65 dice");
    assert!(log.contains(&Event::KnockedOut { who: B, until: 3 }));
    // Missing turns 2 and 3, back in turn 4 with HP unchanged.
    assert!(state.fighter(B).able(4) && !state.fighter(B).able(3));
    assert_eq!(state.fighter(B).hp, 9);
}

#[test]
fn second_wind_holders_scope_and_cap() {
    // rule: USR-RES-10, USR-RES-4, USR-RES-5, USR-RES-7
    let text = duel("weapon = \"automatic_45\"", "hp = 4\nposition = 5\npolicy = { move = \"hold\" }");
    // A hit of recorded 1 on B (HP 4 → 3): struck, at ≤ half: Second Wind +7 (cap 30).
    let faces = [9, 1, 1, 1, 1];
    let sc = || script(&[(0, attack_b(false, Some(Part::Torso)))]);
    let _ = faces;
    let s =
        setup(&text.replace("weapon = \"automatic_45\"", "weapon = { base = \"automatic_45\", damage = \"1\" }"), &[]);
    let (log, _, fought) = run(&s, &[9, 1, 8, 1, 1], sc());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::SecondWind { who: B, gained: 7, .. })));
    let heroes = setup(
        &text.replace("weapon = \"automatic_45\"", "weapon = { base = \"automatic_45\", damage = \"1\" }"),
        &[("second_wind_holders", "heroes")],
    );
    let (log, _, fought) = run(&heroes, &[9, 1, 8, 1, 1], sc());
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::SecondWind { .. })));
    // Used in an earlier fight of the game: none left, unless the scope is the fight.
    let used = text
        .replace("hp = 4", "hp = 4\nsecond_wind_used = true")
        .replace("weapon = \"automatic_45\"", "weapon = { base = \"automatic_45\", damage = \"1\" }");
    let (log, _, fought) = run(&setup(&used, &[]), &[9, 1, 8, 1, 1], sc());
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::SecondWind { .. })));
    let (log, _, fought) = run(&setup(&used, &[("second_wind_scope", "fight")]), &[9, 1, 8, 1, 1], sc());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::SecondWind { .. })));
    // The cap: hit for 3 at full HP (a called torso shot, margin 2, policy first_hit), a Second
    // Wind adds only 3 of its 7.
    let full = text
        .replace("hp = 4", "hp = 30\npolicy = { second_wind = \"first_hit\", move = \"hold\" }")
        .replace("\nposition = 5\npolicy = { move = \"hold\" }", "\nposition = 5")
        .replace("weapon = \"automatic_45\"", "weapon = { base = \"automatic_45\", damage = \"1\" }");
    let (log, _, fought) = run(&setup(&full, &[]), &[9, 1, 8, 1, 1], sc());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::SecondWind { who: B, gained: 3, hp: 30, .. })));
    let (log, _, fought) = run(&setup(&full, &[("second_wind_cap", "none")]), &[9, 1, 8, 1, 1], sc());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::SecondWind { who: B, gained: 7, hp: 34, .. })));
}

// --- Reference numbers --------------------------------------------------------------------

fn contest_numbers(a: u8, a_mod: i32, d: u8, d_mod: i32) -> (String, String, String) {
    // A custom melee weapon of bonus 0 that is not brawling: damage = margin, no armour.
    let spec = |n: i32, tag: &str| {
        (0..n / 2)
            .map(|i| format!("{{ name = \"S{i}\", attribute = \"action\", tags = [\"{tag}\"] }}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!(
        r#"
[rules]
ruleset = "hardboiled"
[rules.options]
attribute_dice_check = "free"
[[combatants]]
name = "A"
side = "a"
action = {a}
wits = 6
ego = 6
hp_max = 100
specialisms = [{}]
weapon = {{ name = "stick", kind = "melee", bonus = 0, brawling = false }}
[[combatants]]
name = "B"
side = "b"
action = {d}
wits = 6
ego = 6
hp_max = 100
specialisms = [{}]
position = 1
"#,
        spec(a_mod, "melee"),
        spec(d_mod, "dodge")
    );
    let s = setup(&text, &[]);
    let o =
        odds::odds_of(&s, &start(&s), A, &Act::Attack { target: B, fists: false, called: None, off_balance: false })
            .unwrap();
    let mean: BigRational =
        o.outcomes.iter().map(|((rec, _, _), p)| p * BigRational::from_integer((*rec).into())).sum::<BigRational>()
            * &o.hit;
    // P(tie) from a plain enumeration of the two dice.
    let ties = (1..=i32::from(a))
        .flat_map(|x| (1..=i32::from(d)).map(move |y| (x, y)))
        .filter(|(x, y)| x + a_mod == y + d_mod)
        .count();
    let tie = BigRational::new((ties as i64).into(), (i64::from(a) * i64::from(d)).into());
    (fraction(&o.hit), fraction(&tie), fraction(&mean))
}

#[test]
fn contest_reference_numbers() {
    // rule: USR-ATK-4, USR-ATK-5, USR-CRIT-5
    let cases = [
        ((10, 4, 8, 2), ("59/80", "3/40", "55/16")),
        ((8, 2, 8, 2), ("7/16", "1/8", "21/16")),
        ((10, 2, 6, 0), ("5/6", "1/15", "25/6")),
        ((6, 0, 6, 0), ("5/12", "1/6", "35/36")),
        ((10, 0, 10, 0), ("9/20", "1/10", "33/20")),
        ((6, 0, 10, 0), ("1/4", "1/10", "7/12")),
    ];
    for ((a, am, d, dm), (hit, tie, mean)) in cases {
        let got = contest_numbers(a, am, d, dm);
        assert_eq!((got.0.as_str(), got.1.as_str(), got.2.as_str()), (hit, tie, mean), "d{a}+{am} vs d{d}+{dm}");
    }
}

#[test]
fn ranged_reference_numbers() {
    // rule: USR-RNG-2, USR-RNG-5, USR-CRIT-7, USR-RNG-7, USR-ACT-3
    let p = |die: u8, bonus: i32, d: f64| {
        let spec = if bonus > 0 {
            "specialisms = [{ name = \"Shooting\", attribute = \"action\", tags = [\"shooting\"] }]"
        } else {
            ""
        };
        let text = format!(
            "[rules]\nruleset = \"hardboiled\"\n[rules.options]\nattribute_dice_check = \"free\"\npoint_blank_m = 1\n[[combatants]]\nname = \"A\"\nside = \"a\"\naction = {die}\nwits = 6\nego = 6\nhp_max = 50\n{spec}\nweapon = {{ name = \"gun\", kind = \"ranged\", damage = \"6\", range_m = 100 }}\n[[combatants]]\nname = \"B\"\nside = \"b\"\naction = 6\nwits = 6\nego = 6\nhp_max = 50\nposition = {d}\n"
        );
        let s = setup(&text, &[]);
        hit_p(&s, Act::Attack { target: B, fists: false, called: None, off_balance: false })
    };
    // Distances for 2 / 4 / 7 / 10 / 14 with R = 100 and Point Blank ≤ 1 m.
    let ds = [1.0, 25.0, 50.0, 100.0, 200.0];
    let table = [
        (6, 0, ["5/6", "1/2", "1/60", "1/60", "1/60"]),
        (6, 2, ["59/60", "5/6", "1/3", "1/60", "1/60"]),
        (8, 0, ["7/8", "5/8", "1/4", "1/80", "1/80"]),
        (8, 2, ["79/80", "7/8", "1/2", "1/8", "1/80"]),
        (10, 0, ["9/10", "7/10", "2/5", "1/10", "1/100"]),
        (10, 2, ["99/100", "9/10", "3/5", "3/10", "1/100"]),
    ];
    for (die, bonus, expected) in table {
        for (d, e) in ds.iter().zip(expected) {
            assert_eq!(p(die, bonus, *d), e, "d{die}+{bonus} at {d} m");
        }
    }
    // The .45 at Close, d10 + 2: 9/10, E[damage | hit] = 10.
    let s = setup(
        &duel(
            "weapon = \"automatic_45\"\nspecialisms = [{ name = \"Shooting\", attribute = \"action\", tags = [\"shooting\"] }]",
            "position = 5",
        ),
        &[],
    );
    let o =
        odds::odds_of(&s, &start(&s), A, &Act::Attack { target: B, fists: false, called: None, off_balance: false })
            .unwrap();
    assert_eq!(fraction(&o.hit), "9/10");
    let mean: BigRational =
        o.outcomes.iter().map(|((rec, _, _), p)| p * BigRational::from_integer((*rec).into())).sum();
    assert_eq!(fraction(&mean), "10/1");
    // The PPK: 7/8 steady, 5/8 diving; three diving shots 5/8, 3/8, 1/8.
    let ppk = setup(&duel("weapon = \"walther_ppk\"\naction = 8\nspecialisms = [{ name = \"Shooting\", attribute = \"action\", tags = [\"shooting\"] }]", "position = 3").replacen("action = 10\nwits = 8\nego = 6\nhp_max = 30\nweapon = \"walther_ppk\"\naction = 8", "action = 8\nwits = 10\nego = 6\nhp_max = 30\nweapon = \"walther_ppk\"", 1), &[("max_attacks_per_turn", "3")]);
    let shot = |off| Act::Attack { target: B, fists: false, called: None, off_balance: off };
    assert_eq!(hit_p(&ppk, shot(false)), "7/8");
    let mut st = start(&ppk);
    let diving: Vec<String> = (0..3)
        .map(|k| {
            st.fighters[0].attacks = k;
            fraction(&odds::odds_of(&ppk, &st, A, &shot(true)).unwrap().hit)
        })
        .collect();
    assert_eq!(diving, ["5/8", "3/8", "1/8"]);
}

#[test]
fn location_crit_hp_and_brawl_reference_numbers() {
    // rule: USR-LOC-2, USR-CRIT-1, USR-CRIT-2, USR-FUM-2, USR-TRACK-1, USR-TRACK-6
    // P(location): the faces per part over 10.
    let counts: Vec<usize> = Part::ALL.iter().map(|p| (1..=10).filter(|&f| Part::of(f) == *p).count()).collect();
    assert_eq!(counts, [1, 3, 1, 1, 2, 2]);
    // Critical and fumble chances by plain enumeration: 1/(a·d) for an opportunity, /10 confirmed.
    for (a, d, opp, conf) in
        [(10, 8, "1/80", "1/800"), (6, 6, "1/36", "1/360"), (8, 8, "1/64", "1/640"), (10, 10, "1/100", "1/1000")]
    {
        let n = (1..=a).flat_map(|x| (1..=d).map(move |y| (x, y))).filter(|&(x, y)| x == a && y == 1).count() as i64;
        let p = BigRational::new(n.into(), (i64::from(a) * i64::from(d)).into());
        assert_eq!(fraction(&p), opp);
        assert_eq!(fraction(&(p / BigRational::from_integer(10.into()))), conf);
    }
    // Rolled max HP: mean and range for d10+d8, d10+d6, d8+d6.
    for (a, w, mean, lo, hi) in [(10, 8, 10, 2, 18), (10, 6, 9, 2, 16), (8, 6, 8, 2, 14)] {
        let sums: Vec<i32> = (1..=a).flat_map(|x| (1..=w).map(move |y| x + y)).collect();
        let m = BigRational::new(sums.iter().map(|&s| i64::from(s)).sum::<i64>().into(), (sums.len() as i64).into());
        assert_eq!(fraction(&m), format!("{mean}/1"));
        assert_eq!((*sums.iter().min().unwrap(), *sums.iter().max().unwrap()), (lo, hi));
    }
    // A brawl d10+2 vs d8: P(recorded ≥ 7) = 3/16, P(recorded ≥ 9) = 3/40.
    let s =
        setup(&duel("specialisms = [{ name = \"Brawling\", attribute = \"action\", tags = [\"brawling\"] }]", ""), &[]);
    let o = odds::odds_of(&s, &start(&s), A, &Act::Attack { target: B, fists: true, called: None, off_balance: false })
        .unwrap();
    let at_least = |k: i32| {
        let p: BigRational = o.outcomes.iter().filter(|((rec, _, _), _)| *rec >= k).map(|(_, p)| p.clone()).sum();
        fraction(&(p * &o.hit))
    };
    assert_eq!((at_least(7).as_str(), at_least(9).as_str()), ("3/16", "3/40"));
    let _ = Outcome::Mutual;
}

#[test]
fn a_power_deals_its_margin_through_armour_not_as_a_punch() {
    // rule: USR-DICE-7, USR-DMG-2
    // A mystic's Ego contest: its hits lose HP as recorded, never halved as brawling.
    let text = "[rules]\nruleset = \"hardboiled\"\nmax_turns = 3\n[[combatants]]\nname = \"Mystic\"\nside = \"a\"\naction = 6\nwits = 8\nego = 10\nhp_max = 40\nposition = 0\n[[combatants]]\nname = \"Mook\"\nside = \"b\"\naction = 8\nwits = 10\nego = 6\nhp_max = 60\nposition = 1\npolicy = { move = \"hold\" }\n";
    let s = setup(text, &[]);
    let mut hits = 0;
    for seed in 1..=30 {
        let mut powers = Script::new(2);
        for _ in 0..3 {
            powers.push(0, Choice::Intent(Some(Act::Power(B))));
            powers.push(0, Choice::Act(Act::Power(B)));
        }
        let dice = fray_engine::FromSource(fray_dice::seeded(seed));
        let mut fight = Fight::<HardBoiled, _, _, _>::new(&s, dice, powers, Record::default());
        fight.run().unwrap();
        for e in &fight.into_parts().1.0 {
            if let Event::Hit { by, recorded, hp_loss, .. } = e
                && *by == A
            {
                assert_eq!(hp_loss, recorded, "seed {seed}");
                hits += 1;
            }
        }
    }
    assert!(hits > 5, "{hits} power hits");
}

#[test]
fn simultaneous_combatants_both_act_before_the_fight_can_end() {
    // rule: USR-INIT-4, USR-ROUND-6
    // Tied at 5 under `simultaneous`: A knocks B out (margin 8, 8 of 10 HP in the turn), and B
    // still strikes back in the same step, knocking A out the same way: mutual, not A's win.
    let text = "[rules]\nruleset = \"hardboiled\"\nmax_turns = 3\n[rules.options]\ninitiative_tie = \"simultaneous\"\n[[combatants]]\nname = \"A\"\nside = \"a\"\naction = 10\nwits = 8\nego = 6\nhp_max = 10\nposition = 0\n[[combatants]]\nname = \"B\"\nside = \"b\"\naction = 10\nwits = 8\nego = 6\nhp_max = 10\nposition = 1\n";
    let s = setup(text, &[]);
    let (log, _, result) = run(&s, &[5, 5, 9, 1, 3, 9, 1, 3], Script::new(2));
    let contests: Vec<CombatantId> =
        log.iter().filter_map(|e| if let Event::Contest { who, .. } = e { Some(*who) } else { None }).collect();
    assert_eq!(contests, vec![A, B], "{log:#?}");
    let ended_at = log.iter().position(|e| matches!(e, Event::Ended { .. })).unwrap();
    let b_acted_at = log.iter().rposition(|e| matches!(e, Event::Contest { who, .. } if *who == B)).unwrap();
    assert!(ended_at > b_acted_at);
    assert_eq!(result.unwrap().outcome, Outcome::Mutual);
}

#[test]
fn a_fumble_is_logged_by_its_option_name() {
    // rule: USR-FUM-4
    for name in ["lose_next_action", "drop_weapon", "none", "gm_table"] {
        let s = setup(&duel("", ""), &[("fumble_effect", name)]);
        assert_eq!(s.options.fumble_effect.name(), name);
        let scenario = fray_rules::hardboiled::HardBoiledScenario(s.clone());
        let line = scenario.line(&Event::Fumbled { who: A, effect: s.options.fumble_effect });
        assert_eq!(line.text.as_deref(), Some(format!("A fumbles: {name}").as_str()));
    }
}

#[test]
fn the_ai_closes_from_extreme_range_and_picks_up_a_dropped_gun() {
    // rule: USR-RNG-2, USR-RNG-7, USR-FUM-4
    // Two .45s (Shooting +2) 35 m apart: the Extreme band, difficulty 14. A closing gunman moves into range
    // before he shoots, so such fights end (they were stalemates at the cap).
    let text = "[rules]\nruleset = \"hardboiled\"\nmax_turns = 20\n[[combatants]]\nname = \"Lou\"\nside = \"a\"\naction = 10\nwits = 8\nego = 6\nhp_max = 15\nspecialisms = [{ name = \"Shooting\", attribute = \"action\", tags = [\"shooting\"] }]\nweapon = \"automatic_45\"\nposition = 0\n[[combatants]]\nname = \"Vito\"\nside = \"b\"\naction = 10\nwits = 8\nego = 6\nhp_max = 15\nspecialisms = [{ name = \"Shooting\", attribute = \"action\", tags = [\"shooting\"] }]\nweapon = \"automatic_45\"\nposition = 35\n";
    let s = setup(text, &[]);
    let st = start(&s);
    let request = fray_rules::hardboiled::Request::Act { can_move: true, attacks_left: 1, can_act: true };
    let Choice::Act(first) = fray_rules::hardboiled::policy::ai_choice(&s, &st, A, &request) else { unreachable!() };
    assert!(matches!(first, Act::Move(_)), "{first:?}");
    let stalemates = (1..=20)
        .filter(|&seed| {
            let dice = fray_engine::FromSource(fray_dice::seeded(seed));
            let mut fight =
                Fight::<HardBoiled, _, _, _>::new(&s, dice, fray_rules::hardboiled::policy::Ai, Record::default());
            fight.run().unwrap().outcome == Outcome::Stalemate
        })
        .count();
    assert!(stalemates <= 2, "{stalemates} of 20");
    // A gunman whose .45 lies on the floor picks it up rather than walk over to punch.
    let mut dropped = st.clone();
    dropped.fighters[0].dropped = true;
    let Choice::Act(act) = fray_rules::hardboiled::policy::ai_choice(&s, &dropped, A, &request) else { unreachable!() };
    assert_eq!(act, Act::PickUp);
}

#[test]
fn disengaging_is_judged_from_where_the_step_begins() {
    // rule: USR-MOVE-2
    // A and B start the turn 10 m apart. B closes to 1 m in its step; in A's step A stands
    // within B's reach, and moving away is disengaging (no attack that turn under
    // `free_disengage = false`), though A did not start the turn engaged.
    let s = setup(&duel("position = 0", "position = 10"), &[("free_disengage", "false")]);
    let mut st = start(&s);
    HardBoiled::apply(&s, &mut st, &Event::TurnStarted { turn: 1 });
    assert!(!st.fighter(A).started_engaged);
    let at = |x: f64| Pos { x, y: 0.0 };
    HardBoiled::apply(&s, &mut st, &Event::Moved { who: B, from: at(10.0), to: at(1.0), in_cover: false });
    HardBoiled::apply(&s, &mut st, &Event::Moved { who: A, from: at(0.0), to: at(-5.0), in_cover: false });
    assert!(st.fighter(A).disengaged);
    let request = fray_rules::hardboiled::policy::act_request(&s, &st, A);
    assert!(matches!(request, fray_rules::hardboiled::Request::Act { attacks_left: 0, .. }), "{request:?}");
    // Moving while still within reach is not disengaging.
    let mut st = start(&s);
    HardBoiled::apply(&s, &mut st, &Event::TurnStarted { turn: 1 });
    HardBoiled::apply(&s, &mut st, &Event::Moved { who: B, from: at(10.0), to: at(1.0), in_cover: false });
    HardBoiled::apply(&s, &mut st, &Event::Moved { who: A, from: at(0.0), to: at(0.5), in_cover: false });
    assert!(!st.fighter(A).disengaged);
}

#[test]
fn a_friends_hit_opens_no_second_wind() {
    // rule: USR-RES-7, USR-RES-6
    // B is A's ally: A's shot at B (HP 4 → 3, at ≤ half) is no strike by an enemy, so B gets no
    // Second Wind; C, a foe far off, holds.
    let text = duel(
        "weapon = { base = \"automatic_45\", damage = \"1\" }",
        "hp = 4\nposition = 5\npolicy = { move = \"hold\" }",
    )
    .replace("side = \"b\"", "side = \"a\"")
        + "\n[[combatants]]\nname = \"C\"\nside = \"c\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 900\npolicy = { move = \"hold\" }\n";
    let s = setup(&text, &[]);
    let sc =
        || script(&[(0, attack_b(false, Some(Part::Torso))), (1, Choice::Act(Act::End)), (2, Choice::Act(Act::End))]);
    let (log, _, result) = run(&s, &[9, 2, 1, 8, 1, 1, 1, 1], sc());
    result.as_ref().unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { by: A, target: B, .. })), "{result:?} {log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::SecondWind { .. })), "{log:#?}");
    // The same shot by C, a foe 1 m from B, opens it.
    let foe = setup(
        &text.replace("position = 900", "position = 6\nweapon = { base = \"automatic_45\", damage = \"1\" }"),
        &[],
    );
    let c_shoots = Choice::Act(Act::Attack { target: B, fists: false, called: Some(Part::Torso), off_balance: false });
    let sc = script(&[(0, Choice::Act(Act::End)), (1, Choice::Act(Act::End)), (2, c_shoots)]);
    let (log, _, result) = run(&foe, &[1, 2, 6, 5, 1, 1, 1, 1], sc);
    result.as_ref().unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { by: CombatantId(2), target: B, .. })), "{result:?} {log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::SecondWind { who: B, .. })), "{result:?} {log:#?}");
}

#[test]
fn the_unarmed_drop_nothing() {
    // rule: USR-LOC-5, USR-FUM-4
    // B wields no weapon: a heavy hit on its arm under `debilitating_effects = on` drops nothing,
    // and a fumble under `fumble_effect = drop_weapon` has no effect.
    let text = duel("weapon = \"automatic_45\"", "position = 5");
    let on = setup(&text, &[("debilitating_effects", "on")]);
    let (log, state, fought) =
        run(&on, &[9, 1, 10, 4, 5, 1, 1, 1, 1], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { target: B, .. })), "{log:#?}");
    assert!(!log.contains(&Event::Dropped { who: B }));
    assert!(!state.fighter(B).dropped);
    // The fumble of the `drop_weapon` case above, punching: no weapon falls.
    let drop = setup(&duel("", ""), &[("fumble_effect", "drop_weapon")]);
    let (log, state, fought) =
        run(&drop, &[9, 1, 1, 8, 1, 1, 1, 1], script(&[(0, attack_b(true, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Fumbled { who: A, .. })), "{log:#?}");
    assert!(!state.fighter(A).dropped);
}

#[test]
fn under_single_action_an_attack_keeps_its_rolls() {
    // rule: USR-ACT-2, USR-ACT-3
    // `single_action` with `max_attacks_per_turn = 3`: the turn's one Attack is still up to three
    // attack rolls.
    let text = duel("weapon = \"automatic_45\"", "position = 5\npolicy = { move = \"hold\" }");
    let s = setup(&text, &[("turn_economy", "single_action"), ("max_attacks_per_turn", "3")]);
    let request = fray_rules::hardboiled::policy::act_request(&s, &start(&s), A);
    let mut state = start(&s);
    state.fighters[0].attacks = 1;
    let fray_rules::hardboiled::Request::Act { attacks_left, can_move, .. } =
        fray_rules::hardboiled::policy::act_request(&s, &state, A)
    else {
        unreachable!()
    };
    assert_eq!((attacks_left, can_move), (2, false));
    let fray_rules::hardboiled::Request::Act { attacks_left, .. } = request else { unreachable!() };
    assert_eq!(attacks_left, 3);
    // After a Move, none.
    let mut moved = start(&s);
    moved.fighters[0].moved = true;
    let fray_rules::hardboiled::Request::Act { attacks_left, .. } =
        fray_rules::hardboiled::policy::act_request(&s, &moved, A)
    else {
        unreachable!()
    };
    assert_eq!(attacks_left, 0);
}

#[test]
fn a_declared_target_is_gone_when_no_move_is_left_to_reach_it() {
    // rule: USR-ROUND-4, USR-ACT-2
    // B stands 8 m off, beyond melee reach (2 m) but within reach + a Move (10 m): gone under
    // `single_action` (the turn is the attack alone) or once A has moved, not otherwise.
    let text = duel("", "position = 8");
    let punch = Act::Attack { target: B, fists: true, called: None, off_balance: false };
    let s = setup(&text, &[]);
    assert_eq!(fray_rules::hardboiled::policy::illegal_target(&s, &start(&s), A, &punch), None);
    let mut moved = start(&s);
    moved.fighters[0].moved = true;
    assert!(fray_rules::hardboiled::policy::illegal_target(&s, &moved, A, &punch).is_some());
    let single = setup(&text, &[("turn_economy", "single_action")]);
    assert!(fray_rules::hardboiled::policy::illegal_target(&single, &start(&single), A, &punch).is_some());
}

#[test]
fn no_disengaging_after_an_attack_nor_into_another_enemys_reach() {
    // rule: USR-MOVE-2, USR-ACT-2
    // Under `free_disengage = false`: A punches B, then may not move out of B's reach; and A,
    // moving from B's reach into C's, has still left B's and may not Attack C.
    let near = duel("", "position = 1");
    let hit_and_run = || {
        script(&[
            (0, attack_b(true, None)),
            (0, Choice::Act(Act::Move(Pos { x: -5.0, y: 0.0 }))),
            (1, Choice::Act(Act::End)),
        ])
    };
    let faces = [9, 1, 1, 8, 1, 1, 1, 1, 1, 1];
    let (_, state, result) = run(&setup(&near, &[]), &faces, hit_and_run());
    assert!(result.is_ok() && state.fighter(A).pos.x == -5.0, "{result:?}");
    let (_, _, result) = run(&setup(&near, &[("free_disengage", "false")]), &faces, hit_and_run());
    assert!(matches!(result, Err(FightError::IllegalChoice { who: A, .. })), "{result:?}");
    let three = duel("", "position = -1\npolicy = { move = \"hold\" }").replace("side = \"b\"", "side = \"b\"\n")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 4\npolicy = { move = \"hold\" }\n";
    let switch = || {
        script(&[
            (0, Choice::Act(Act::Move(Pos { x: 3.0, y: 0.0 }))),
            (0, Choice::Act(Act::Attack { target: CombatantId(2), fists: true, called: None, off_balance: false })),
            (1, Choice::Act(Act::End)),
            (2, Choice::Act(Act::End)),
        ])
    };
    let faces = [9, 1, 1, 8, 1, 1, 1, 1, 1, 1];
    let (log, _, result) = run(&setup(&three, &[]), &faces, switch());
    result.as_ref().unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Contest { who: A, .. })), "{result:?}");
    let (_, _, result) = run(&setup(&three, &[("free_disengage", "false")]), &faces, switch());
    assert!(matches!(result, Err(FightError::IllegalChoice { who: A, .. })), "{result:?}");
}

#[test]
fn odds_in_context_call_the_shot_the_policy_calls_at_that_defender() {
    // rule: USR-LOC-4, USR-COVER-1
    // G (`called_shot = uncovered`) against E2 behind a counter: the odds use a called shot at
    // an uncovered part, whether or not a nearer E1 (G's own target) stands in the fight.
    let text = "[rules]\nruleset = \"hardboiled\"\n[[combatants]]\nname = \"G\"\nside = \"a\"\naction = 10\nwits = 8\nego = 6\nhp_max = 20\nweapon = \"automatic_45\"\nposition = 0\npolicy = { called_shot = \"uncovered\" }\n[[combatants]]\nname = \"E2\"\nside = \"b\"\naction = 10\nwits = 8\nego = 6\nhp_max = 20\nposition = [0, 4]\ncover = { preset = \"counter\", hardness = 2 }\n";
    let e1 = "[[combatants]]\nname = \"E1\"\nside = \"b\"\naction = 10\nwits = 8\nego = 6\nhp_max = 20\nposition = 3\n";
    let alone = fray_rules::hardboiled::odds::attack_odds(&setup(text, &[]), "G", "E2").unwrap();
    let with_e1 = fray_rules::hardboiled::odds::attack_odds(&setup(&format!("{text}{e1}"), &[]), "G", "E2").unwrap();
    assert!(alone.assumptions.iter().any(|l| l.contains("called shot")), "{:#?}", alone.assumptions);
    assert_eq!(fraction(&alone.hit), fraction(&with_e1.hit));
    assert_eq!(alone.assumptions, with_e1.assumptions);
}

#[test]
fn out_of_range_weapon_values_and_options_are_refused() {
    // rule: USR-ACT-3, USR-COVER-1, USR-INIT-6
    // Reach 0–3 and penetration 0–3 as the weapon fields give them, a bonus within ±10, and at
    // most 20 attack rolls a turn: beyond, the loader says where and what, instead of clamping.
    for (weapon, says) in [
        ("weapon = { base = \"spear\", reach = 5 }", "`reach` from 0 to 3, found 5"),
        ("weapon = { base = \"automatic_45\", penetration = -1 }", "`penetration` from 0 to 3, found -1"),
        ("weapon = { base = \"knife\", bonus = 11 }", "`bonus` from -10 to 10, found 11"),
    ] {
        let Err(e) = scenario::load("t.toml", &duel(weapon, ""), &[]) else { panic!("{weapon} accepted") };
        let e = e.to_string();
        assert!(e.contains(says) && e.contains("t.toml:"), "{e}");
    }
    let Err(e) = scenario::load("t.toml", &duel("", ""), &[("max_attacks_per_turn".into(), "50".into())]) else {
        panic!("50 attack rolls accepted")
    };
    assert!(e.to_string().contains("from 1 to 20, found `50`"), "{e}");
}

#[test]
fn second_wind_follows_a_hit_that_armour_cut_to_nothing_unless_on_damage() {
    // rule: USR-RES-7
    // A's shot at B (HP 4 of 30) hits; B's plate stops all of it. Under `on_hit` B is struck and
    // takes its Second Wind (USR-RES-8); under `on_damage` no HP was lost and no window opens.
    let text = duel(
        "weapon = { base = \"automatic_45\", damage = \"1\" }",
        "hp = 4\nposition = 5\npolicy = { move = \"hold\" }\narmour = [{ name = \"plate\", stop = 10, locations = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], natural = true }]",
    );
    let wind = |trigger: &str| {
        let s = setup(&text, &[("armour_table", "custom"), ("second_wind_trigger", trigger)]);
        let sc = script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]);
        let (log, _, result) = run(&s, &[9, 2, 8, 3, 1, 1, 1, 1], sc);
        result.unwrap();
        assert!(log.iter().any(|e| matches!(e, Event::Hit { by: A, target: B, hp_loss: 0, .. })), "{log:#?}");
        log.iter().any(|e| matches!(e, Event::SecondWind { who: B, .. }))
    };
    assert!(wind("on_hit"));
    assert!(!wind("on_damage"));
}

#[test]
fn one_already_down_gets_no_second_wind() {
    // rule: USR-RES-6, USR-RES-7, USR-TRACK-3
    // B is Down (HP 0) when a script has A shoot it again: it is out of the fight, so the hit
    // opens no Second Wind window (C, B's friend far off, keeps the fight going).
    let text = duel("weapon = { base = \"automatic_45\", damage = \"1\" }", "hp = 0\nposition = 5")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 900\npolicy = { move = \"hold\" }\n";
    let s = setup(&text, &[]);
    let sc = script(&[(0, attack_b(false, Some(Part::Torso))), (2, Choice::Act(Act::End))]);
    let (log, _, result) = run(&s, &[9, 2, 8, 1, 1, 1, 1], sc);
    result.as_ref().unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { by: A, target: B, .. })), "{result:?} {log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::SecondWind { .. })), "{log:#?}");
}

#[test]
fn the_ai_does_not_shoot_at_cover_its_gun_cannot_pierce() {
    // rule: USR-COVER-1, USR-COVER-3
    // Lou's .45 (penetration 1) against E1 at 5 m behind full, hard (3) cover: no shot can hurt
    // him. The AI shoots E2 in the open instead, though E1 is nearer; with no one else to shoot,
    // it closes in to punch (cover counts against ranged attacks only), unless its `attack`
    // policy is `weapon`.
    let lou = "[rules]\nruleset = \"hardboiled\"\nmax_turns = 20\n[[combatants]]\nname = \"Lou\"\nside = \"a\"\naction = 10\nwits = 8\nego = 6\nhp_max = 15\nweapon = \"automatic_45\"\nposition = 0\n";
    let e1 = "[[combatants]]\nname = \"E1\"\nside = \"b\"\naction = 10\nwits = 8\nego = 6\nhp_max = 15\nposition = 5\ncover = { preset = \"full\", hardness = 3 }\n";
    let e2 = "[[combatants]]\nname = \"E2\"\nside = \"b\"\naction = 10\nwits = 8\nego = 6\nhp_max = 15\nposition = [0, 15]\n";
    let request = fray_rules::hardboiled::Request::Act { can_move: true, attacks_left: 1, can_act: true };
    let ai = |s: &Setup| {
        let Choice::Act(act) = fray_rules::hardboiled::policy::ai_choice(s, &start(s), A, &request) else {
            unreachable!()
        };
        act
    };
    let both = setup(&format!("{lou}{e1}{e2}"), &[]);
    // (E2 stands 15 m off at Medium: Lou goes for him, stepping into Close first, USR-RNG-7.)
    assert!(matches!(ai(&both), Act::Move(to) if to.y > 0.0 && to.x.abs() < 1e-9), "{:?}", ai(&both));
    let alone = setup(&format!("{lou}{e1}"), &[]);
    assert!(matches!(ai(&alone), Act::Move(to) if to.x > 0.0), "{:?}", ai(&alone));
    let Choice::Intent(Some(intent)) =
        fray_rules::hardboiled::policy::ai_choice(&alone, &start(&alone), A, &fray_rules::hardboiled::Request::Declare)
    else {
        unreachable!()
    };
    assert!(matches!(intent, Act::Attack { fists: true, .. } | Act::Move(_)), "{intent:?}");
    // A softer cover (hardness 1) lets the .45 through: Lou shoots E1 as before.
    let soft = setup(&format!("{lou}{}", e1.replace("hardness = 3", "hardness = 1")), &[]);
    assert_eq!(ai(&soft), Act::Attack { target: B, fists: false, called: None, off_balance: false });
    let stubborn = setup(&format!("{}policy = {{ attack = \"weapon\" }}\n{e1}", lou), &[]);
    assert_eq!(ai(&stubborn), Act::Attack { target: B, fists: false, called: None, off_balance: false });
    // The fight ends: Lou walks up and punches, where he used to shoot the counter for 20 turns.
    let stalemates = (1..=10)
        .filter(|&seed| {
            let dice = fray_engine::FromSource(fray_dice::seeded(seed));
            let mut fight =
                Fight::<HardBoiled, _, _, _>::new(&alone, dice, fray_rules::hardboiled::policy::Ai, Record::default());
            fight.run().unwrap().outcome == Outcome::Stalemate
        })
        .count();
    assert!(stalemates <= 2, "{stalemates} of 10");
}

#[test]
fn a_specialism_tag_a_slip_from_a_rules_tag_is_refused() {
    // rule: USR-DICE-3
    // `shootin` would fit no roll and silently drop the +2; a specialism outside combat
    // (`lockpicking`) fits none either, and is accepted.
    let text = |tags: &str| {
        duel(&format!("specialisms = [{{ name = \"Guns\", attribute = \"action\", tags = [{tags}] }}]"), "")
    };
    let Err(e) = scenario::load("t.toml", &text("\"shootin\""), &[]) else { panic!("a typo accepted") };
    let e = e.to_string();
    assert!(e.contains("did you mean `shooting`?") && e.contains("t.toml:"), "{e}");
    assert!(scenario::load("t.toml", &text("\"shooting\""), &[]).is_ok());
    assert!(scenario::load("t.toml", &text("\"lockpicking\""), &[]).is_ok());
}

#[test]
fn uncovered_calls_a_shot_only_when_the_cover_would_stop_the_weapon() {
    // rule: USR-LOC-4, USR-COVER-3
    // G (`called_shot = uncovered`, a .45 of penetration 1) shoots E behind a counter. Of
    // hardness 2 the counter stops the .45, so G calls a shot at an uncovered part; of hardness 1
    // the .45 goes through, so a call would buy nothing but its +2 difficulty, and G calls none.
    let text = |hardness: u8| {
        format!(
            "[rules]\nruleset = \"hardboiled\"\n[[combatants]]\nname = \"G\"\nside = \"a\"\naction = 10\nwits = 8\nego = 6\nhp_max = 20\nweapon = \"automatic_45\"\nposition = 0\npolicy = {{ called_shot = \"uncovered\" }}\n[[combatants]]\nname = \"E\"\nside = \"b\"\naction = 10\nwits = 8\nego = 6\nhp_max = 20\nposition = 4\ncover = {{ preset = \"counter\", hardness = {hardness} }}\n"
        )
    };
    let hard = odds::attack_odds(&setup(&text(2), &[]), "G", "E").unwrap();
    assert!(hard.assumptions.iter().any(|l| l.contains("called shot")), "{:#?}", hard.assumptions);
    let soft = odds::attack_odds(&setup(&text(1), &[]), "G", "E").unwrap();
    assert!(!soft.assumptions.iter().any(|l| l.contains("called shot")), "{:#?}", soft.assumptions);
    // Under `cover_penetration = never` even the soft counter stops the shot: G calls it.
    let never = odds::attack_odds(&setup(&text(1), &[("cover_penetration", "never")]), "G", "E").unwrap();
    assert!(never.assumptions.iter().any(|l| l.contains("called shot")), "{:#?}", never.assumptions);
}

#[test]
fn a_closing_gunman_steps_into_a_better_band_before_he_shoots() {
    // rule: USR-RNG-2, USR-RNG-3, USR-RNG-7
    // A's PPK (range 15 m) 9.2 m from B: Long, difficulty 10. One Move (10 m) reaches Close
    // (3.75 m, difficulty 4): 6 better even with the moving shot's −2, so A steps in first, to
    // Close and not to Point Blank. When the moving penalty (7) outweighs the gain, A shoots from
    // where he stands.
    let text = duel("weapon = \"walther_ppk\"\nposition = 0", "position = 9.2");
    let request = fray_rules::hardboiled::Request::Act { can_move: true, attacks_left: 1, can_act: true };
    let s = setup(&text, &[]);
    let Choice::Act(first) = fray_rules::hardboiled::policy::ai_choice(&s, &start(&s), A, &request) else {
        unreachable!()
    };
    let Act::Move(to) = first else { panic!("{first:?}") };
    let d = to.distance(Pos { x: 9.2, y: 0.0 });
    assert_eq!(attack::band(&s.options, d, 15.0).map(|b| b.0), Some(1), "{to:?}");
    let s = setup(&text, &[("moving_shot_penalty", "7")]);
    let Choice::Act(first) = fray_rules::hardboiled::policy::ai_choice(&s, &start(&s), A, &request) else {
        unreachable!()
    };
    assert!(matches!(first, Act::Attack { .. }), "{first:?}");
}

#[test]
fn under_gm_table_the_gm_rules_the_fumbles_effect() {
    // rule: USR-FUM-4
    use fray_rules::hardboiled::options::FumbleEffect;
    use fray_rules::hardboiled::{Request, policy};
    let s = setup(&duel("", ""), &[("fumble_effect", "gm_table")]);
    // A fumble (A's 1 against B's 8, confirm 1): whoever answers for A reads the table; here "no
    // effect", so A keeps its next action.
    let (log, state, fought) = run(
        &s,
        &[9, 1, 1, 8, 1, 1, 1, 1, 9, 1],
        script(&[(0, attack_b(true, None)), (0, Choice::Fumble(FumbleEffect::None)), (1, Choice::Act(Act::End))]),
    );
    fought.unwrap();
    assert!(log.contains(&Event::Fumbled { who: A, effect: FumbleEffect::None }), "{log:?}");
    assert_eq!(state.fighter(A).lose_action_turn, 0);
    // The AI, with no GM, takes the default effect; the table cannot answer "the table".
    assert_eq!(policy::ai_choice(&s, &start(&s), A, &Request::GmFumble), Choice::Fumble(FumbleEffect::LoseNextAction));
    assert!(policy::check(&s, &Request::GmFumble, &Choice::Fumble(FumbleEffect::GmTable)).is_err());
    assert!(policy::check(&s, &Request::GmFumble, &Choice::Fumble(FumbleEffect::DropWeapon)).is_ok());
}

#[test]
fn out_of_range_values_are_refused() {
    // Not clauses: bad input gets an error naming what was expected, never a value taken as is.
    let mut options = Options::default();
    assert_eq!(
        options.set("multi_attack_penalty", "1001").unwrap_err(),
        "expected an integer from 0 to 1000, found `1001`"
    );
    assert_eq!(
        options.set("multi_attack_penalty", "-1").unwrap_err(),
        "expected an integer from 0 to 1000, found `-1`"
    );
    for turns in ["turns:0", "turns:1001"] {
        assert_eq!(
            options.set("ko_duration", turns).unwrap_err(),
            format!("expected `fight` or `turns:N` (N from 1 to 1000), found `{turns}`")
        );
    }
    options.set("ko_duration", "turns:1000").unwrap();
    // Distances in metres: 0 to 10000, finite.
    for name in ["move_m", "melee_reach_m", "point_blank_m"] {
        for bad in ["-1", "10001", "inf", "NaN"] {
            assert_eq!(
                options.set(name, bad).unwrap_err(),
                format!("expected a number of metres from 0 to 10000, found `{bad}`"),
                "{name} = {bad}"
            );
        }
        options.set(name, "10000").unwrap();
    }
    use fray_rules::hardboiled::setup::Damage;
    for text in ["1d1", "2d101", "0d6", "21d6", "1d6+101"] {
        assert_eq!(
            Damage::parse(text).unwrap_err(),
            format!("expected a constant or dice like `2d6+1`, found `{text}`"),
            "{text}"
        );
    }
    assert_eq!(Damage::parse("20d100-100").unwrap(), Damage { dice: 20, sides: 100, plus: -100 });
    // A combatant's current HP: −1000 to 1000.
    setup(&duel("", "hp = -1000"), &[]);
    for bad in ["1001", "-1001"] {
        let e = scenario::load("t.toml", &duel("", &format!("hp = {bad}")), &[]).map(|_| ()).expect_err(bad);
        assert!(e.to_string().contains("expected hp from −1000 to 1000"), "{bad}: {e}");
    }
}

#[test]
fn a_combatant_joining_late_is_absent_until_it_joins() {
    // Not a clause: the live tracker's combatants added mid-fight (the last `joins_late` of the
    // roster) start absent, and roll no maximum HP.
    let mut s = setup(&duel("", ""), &[]);
    s.joins_late = 1;
    let state = HardBoiled::initial_state(&s);
    assert!(!state.fighter(A).absent && state.fighter(B).absent);
}

#[test]
fn a_simultaneous_step_left_with_one_member_ends_the_fight_at_once() {
    // rule: USR-ROUND-6, USR-INIT-4
    // C (first) knocks B out; A and B tied under `simultaneous`, B no longer able: A alone acts,
    // knocks D out, and the fight ends right after that hit: A's scripted step after it never
    // comes (holding the end for a step of one would let it).
    let text = "[rules]\nruleset = \"hardboiled\"\nmax_turns = 1\n[rules.options]\ninitiative_tie = \"simultaneous\"\n\
        [[combatants]]\nname = \"A\"\nside = \"a\"\naction = 10\nwits = 8\nego = 6\nhp_max = 10\nposition = 0\n\
        [[combatants]]\nname = \"B\"\nside = \"b\"\naction = 10\nwits = 8\nego = 6\nhp_max = 10\nposition = 1\n\
        [[combatants]]\nname = \"C\"\nside = \"a\"\naction = 10\nwits = 8\nego = 6\nhp_max = 10\nposition = 0\n\
        [[combatants]]\nname = \"D\"\nside = \"b\"\naction = 10\nwits = 8\nego = 6\nhp_max = 10\nposition = 1\n";
    let s = setup(text, &[]);
    let d = CombatantId(3);
    let punch = |t| Choice::Act(Act::Attack { target: t, fists: true, called: None, off_balance: false });
    let sc = script(&[
        (2, punch(B)),
        (2, Choice::Act(Act::End)),
        (0, punch(d)),
        (0, Choice::Act(Act::Move(Pos { x: -1.0, y: 0.0 }))),
        (0, Choice::Act(Act::End)),
    ]);
    let (log, _, result) = run(&s, &[5, 5, 9, 1, 9, 1, 3, 9, 1, 3], sc);
    assert_eq!(result.unwrap().outcome, Outcome::Side(fray_engine::SideId(0)), "{log:#?}");
    assert!(log.contains(&Event::KnockedOut { who: B, until: u32::MAX }), "{log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::KnockedOut { who, .. } if *who == d)), "{log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::Moved { who: A, .. })), "{log:#?}");
}

#[test]
fn the_log_writes_each_term_by_name_and_a_shots_distance_in_metres() {
    // Not a clause: how the JSON log itemises a roll's totals (the fight adds the terms up with
    // `Terms::sum`; the log names each one that is not zero).
    let terms = attack::ContestTerms::shot(attack::Terms::new([2, 0, -1, 0]), attack::Terms::new([0, 0, 0, 4]), 12.3);
    assert_eq!(
        serde_json::to_value(terms).unwrap(),
        serde_json::json!({
            "actor": [["specialism", 2], ["multiple attacks", -1]],
            "opponent": [["called shot", 4]],
            "distance_dm": 123
        })
    );
    assert_eq!(terms.distance(), 12.3);
}

// --- Options no test had set (found grepping the tests for each option's name) -----------------

#[test]
fn melee_reach_is_the_option_and_decides_who_starts_engaged() {
    // rule: USR-MOVE-1, USR-INIT-6
    // B 4 m off: out of a punch's reach at the default 2 m, within it at 5 m, and at exactly 4.
    let text = duel("", "position = 4");
    for (reach, reaches) in [(None, false), (Some("5"), true), (Some("4"), true)] {
        let sets: Vec<(&str, &str)> = reach.map(|r| ("melee_reach_m", r)).into_iter().collect();
        let s = setup(&text, &sets);
        let st = start(&s);
        let act = Act::Attack { target: B, fists: true, called: None, off_balance: false };
        let request = policy::act_request(&s, &st, A);
        assert_eq!(policy::illegal(&s, &st, A, &request, &act).is_none(), reaches, "{reach:?}");
        // The same reach says who starts the turn engaged (USR-INIT-6).
        let mut st = HardBoiled::initial_state(&s);
        HardBoiled::apply(&s, &mut st, &Event::TurnStarted { turn: 1 });
        assert_eq!(st.fighter(A).started_engaged, reaches, "{reach:?}");
    }
}

#[test]
fn a_shots_band_is_read_back_through_the_opponents_terms() {
    // rule: USR-RNG-2, USR-LOC-4
    // The log names a shot's band from its difficulty less the opponent's terms: a called shot's
    // +4 on Close's 4 is still Close, and so is armour's in the difficulty.
    use attack::{BAND_DIFFICULTY, ContestTerms, Terms, shot_band};
    for (i, &band) in BAND_DIFFICULTY.iter().enumerate() {
        for opponent in [[0, 0, 0, 0], [0, 0, 0, 4], [2, 0, 3, 4]] {
            let terms = ContestTerms::shot(Terms::new([0; 4]), Terms::new(opponent), 3.0);
            let extra: i32 = opponent.iter().sum();
            assert_eq!(shot_band(band + extra, &terms), Some(i), "{band} + {opponent:?}");
        }
    }
}

#[test]
fn ranged_criticals_may_be_switched_off() {
    // rule: USR-CRIT-7, USR-CRIT-5
    // A shoots B at 3 m (Close, difficulty 4) with a natural 10: under `natural_only` a confirm
    // d10 follows; under `off` none is rolled. A shot that needs more than a 10 hits only by a
    // confirmed critical: 1/100 with a d10 under `natural_only`, never under `off`.
    let gun = duel("weapon = { base = \"automatic_45\", damage = \"2d6\" }", "position = 3");
    let shoot = || script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]);
    let faces = [9, 1, 10, 10, 3, 4, 2, 1, 1, 1, 1, 1];
    let (log, _, fought) = run(&setup(&gun, &[]), &faces, shoot());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Confirm { who: A, .. })), "{log:#?}");
    // A confirmed critical on a shot that hits anyway keeps its margin (only a miss is made a
    // hit at margin 0, USR-CRIT-5).
    let shot = log
        .iter()
        .find_map(|e| match e {
            Event::Contest { who: A, roll, difficulty: Some(d), margin, critical: true, success: true, .. } => {
                Some((roll.total - d, *margin))
            }
            _ => None,
        })
        .expect("a confirmed critical that hits");
    assert!(shot.0 > 0 && shot.1 == shot.0, "{shot:?}");
    let (log, _, fought) = run(&setup(&gun, &[("ranged_crits", "off")]), &faces, shoot());
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Confirm { .. })), "{log:#?}");
    let far = duel("weapon = { base = \"automatic_45\", damage = \"2d6\" }", "position = 40");
    let shot = Act::Attack { target: B, fists: false, called: None, off_balance: false };
    assert_eq!(hit_p(&setup(&far, &[]), shot), "1/100");
    assert_eq!(hit_p(&setup(&far, &[("ranged_crits", "off")]), shot), "0/1");
}

#[test]
fn under_down_only_a_knocked_out_side_is_still_in_the_fight() {
    // rule: USR-ROUND-6, USR-TRACK-3, USR-TRACK-4
    // As in `knocked_out_for_a_few_turns`, A's shot knocks B out. By default that ends the
    // fight (B's side has no one left who can fight); under `out_of_fight = down_only` only
    // the down are out, so the turn plays out to the cap: a stalemate.
    let text = duel("weapon = \"automatic_45\"", "position = 5\npolicy = { move = \"hold\" }\nhp_max = 20")
        .replace("ego = 6\nhp_max = 30\nposition", "ego = 6\nposition");
    let only_once = || script(&[(0, attack_b(false, None)), (0, Choice::Act(Act::End))]);
    let mut faces = vec![9, 2, 9, 7];
    faces.extend([1; 60]);
    let sets = [("ko_duration", "turns:2")];
    let (log, _, fought) = run(&setup(&text, &sets), &faces, only_once());
    assert!(log.iter().any(|e| matches!(e, Event::KnockedOut { who: B, .. })), "{log:#?}");
    assert_eq!(fought.unwrap().outcome, Outcome::Side(fray_engine::SideId(0)));
    let (_, state, fought) =
        run(&setup(&text, &[("ko_duration", "turns:2"), ("out_of_fight", "down_only")]), &faces, only_once());
    assert_eq!(fought.unwrap().outcome, Outcome::Stalemate);
    assert!(!state.fighter(B).out(&setup(&text, &[("out_of_fight", "down_only")]).options, 1));
}

#[test]
fn a_steady_shot_ends_the_shooters_moves_for_the_turn() {
    // rule: USR-RNG-7, USR-ACT-2
    // A shoots B with a PPK from where he stands: a steady shot. A Move after it would make it a
    // moving shot after the fact, so the turn offers A no Move; a punch or an off-balance shot
    // leaves the Move open.
    let text = duel("weapon = \"walther_ppk\"", "position = 5");
    let after = |act: Act| {
        let s = setup(&text, &[]);
        let (log, _, fought) = run(&s, &[9, 2, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5], script(&[(0, Choice::Act(act))]));
        let i = log.iter().position(|e| matches!(e, Event::Contest { who: A, .. })).unwrap_or_else(|| {
            panic!("{fought:?} {log:#?}");
        });
        let state = fray_engine::replay::<HardBoiled>(&s, &log[..=i]);
        match policy::act_request(&s, &state, A) {
            fray_rules::hardboiled::Request::Act { can_move, .. } => can_move,
            other => panic!("{other:?}"),
        }
    };
    let shot = |fists, off_balance| Act::Attack { target: B, fists, called: None, off_balance };
    assert!(!after(shot(false, false)));
    assert!(after(shot(false, true)));
    let close = duel("weapon = \"walther_ppk\"", "");
    let s = setup(&close, &[]);
    let (log, _, _) = run(&s, &[9, 2, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5], script(&[(0, Choice::Act(shot(true, false)))]));
    let i = log.iter().position(|e| matches!(e, Event::Contest { who: A, .. })).unwrap();
    let state = fray_engine::replay::<HardBoiled>(&s, &log[..=i]);
    assert!(matches!(policy::act_request(&s, &state, A), fray_rules::hardboiled::Request::Act { can_move: true, .. }));
}

#[test]
fn a_failed_other_activity_is_the_turns_activity_all_the_same() {
    // rule: USR-ROUND-3, USR-ACT-2
    // As in `undeclared_actions_resolve_or_may_fail`: A shoves B; C's undeclared shove at B then
    // fails under `fail_if_target_acted_on`. It was C's activity: no attack or other is left.
    let text = duel("", "")
        + "\n[[combatants]]\nname = \"C\"\nside = \"a\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 1\n";
    let failing = setup(&text, &[("undeclared_action", "fail_if_target_acted_on")]);
    let shove = Choice::Act(Act::Other { activity: Activity::Shove, target: Some(B), difficulty: 0 });
    let sc = script(&[(0, shove), (0, Choice::Act(Act::End)), (2, Choice::Intent(None)), (2, shove)]);
    let (log, _, fought) = run(&failing, &[9, 2, 1, 1, 2, 1, 1, 1, 2, 1, 1], sc);
    fought.unwrap();
    let i = log.iter().position(|e| matches!(e, Event::Failed { who: CombatantId(2), .. })).expect("C's shove fails");
    let state = fray_engine::replay::<HardBoiled>(&failing, &log[..=i]);
    assert!(matches!(
        policy::act_request(&failing, &state, CombatantId(2)),
        fray_rules::hardboiled::Request::Act { attacks_left: 0, can_act: false, .. }
    ));
    // The log names the activity.
    let line = fray_rules::hardboiled::HardBoiledScenario(failing.clone()).line(&log[i]).text.unwrap();
    assert_eq!(line, "C: shove B — undeclared, and its target was acted on this turn");
}

#[test]
fn the_simulators_tally_counts_attacks_damage_and_the_fallen() {
    // Not a clause: `fray sim`'s hit rate, damage and downs read each event's tally.
    let text = duel("", "position = 1").replace("max_turns = 1", "max_turns = 30");
    let s = setup(&text, &[]);
    let dice = fray_engine::FromSource(fray_dice::seeded(7));
    let mut fight = Fight::<HardBoiled, _, _, _>::new(&s, dice, policy::Ai, Record::default());
    let result = fight.run().unwrap();
    assert_ne!(result.outcome, Outcome::Stalemate);
    let (_, record) = fight.into_parts();
    let (mut attacks, mut hits, mut damage, mut downed) = (0, 0, 0, 0);
    for event in &record.0 {
        match (event, HardBoiled::tally(event)) {
            (
                Event::Contest { who, act: Act::Attack { .. }, success, critical, .. },
                Some(fray_engine::Tally::Attack { by, hit, crit }),
            ) => {
                assert_eq!((by, hit, crit), (*who, *success, *critical));
                attacks += 1;
                hits += usize::from(hit);
            }
            (Event::Hit { by, target, recorded, .. }, Some(fray_engine::Tally::Damage { by: b, to, amount })) => {
                assert_eq!((b, to, amount), (Some(*by), *target, *recorded));
                damage += amount;
            }
            (Event::Out { who }, Some(fray_engine::Tally::Downed { who: w })) => {
                assert_eq!(w, *who);
                downed += 1;
            }
            (Event::Contest { act: Act::Attack { .. }, .. } | Event::Hit { .. } | Event::Out { .. }, t) => {
                panic!("{event:?} tallied {t:?}")
            }
            (_, None) => {}
            (_, t) => panic!("{event:?} tallied {t:?}"),
        }
    }
    assert!(attacks > 0 && hits > 0 && damage > 0 && downed == 1, "{attacks} {hits} {damage} {downed}");
}

#[test]
fn the_odds_give_the_defenders_second_wind_both_ways() {
    // rule: USR-RES-7, USR-RES-8
    // B (8 HP of 30) takes his Second Wind to stay up (`second_wind_policy = when_down`); a person
    // controlling him decides that. The odds give both: the AI's, and a line without it, which
    // are the odds under `second_wind_policy = never`.
    let text = duel("weapon = \"automatic_45\"", "position = 5\nhp = 8");
    let with = odds::attack_odds(&setup(&text, &[("second_wind_policy", "when_down")]), "A", "B").unwrap();
    let without = odds::attack_odds(&setup(&text, &[("second_wind_policy", "never")]), "A", "B").unwrap();
    assert!(with.down < without.down, "{:#?}", with.assumptions);
    let line = with.assumptions.iter().find(|a| a.starts_with("if B takes no Second Wind")).unwrap();
    assert!(line.ends_with(&format!("takes B out {}", fraction(&without.down))), "{line}");
    assert!(!without.assumptions.iter().any(|a| a.starts_with("if B takes no Second Wind")));
}

#[test]
fn a_shot_under_greater_than_hits_above_the_difficulty_and_the_log_names_its_band() {
    // rule: USR-RNG-5, USR-RNG-2
    // A's PPK (range 15 m) at B 6 m off: Medium, difficulty 7. A d10 of 8 (total 8) hits under
    // `ranged_hit_test = greater_than` as under `at_least`; 7 hits only under `at_least`.
    let text = duel("weapon = \"walther_ppk\"", "position = 6");
    let shot = |sets: &[(&str, &str)], face: u32| {
        let s = setup(&text, sets);
        let (log, _, fought) =
            run(&s, &[9, 1, face, 1, 1, 1, 1, 1, 1], script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
        fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
        let i = log.iter().position(|e| matches!(e, Event::Contest { who: A, .. })).unwrap();
        let Event::Contest { success, .. } = log[i] else { unreachable!() };
        (success, fray_rules::hardboiled::HardBoiledScenario(s).line(&log[i]).text.unwrap())
    };
    let greater = [("ranged_hit_test", "greater_than")];
    let (hit, line) = shot(&greater, 8);
    assert!(hit, "{line}");
    assert!(line.contains("vs difficulty 7 (medium range, 6 m)"), "{line}");
    assert!(!shot(&greater, 7).0);
    assert!(shot(&[], 7).0);
}

#[test]
fn an_other_activitys_specialism_is_added_to_its_roll() {
    // rule: USR-DICE-6, USR-ACT-5
    // A (a +2 shoving specialism) shoves B: his total is his die + 2.
    let other_roll = |log: &[Event]| {
        log.iter()
            .find_map(|e| match e {
                Event::Contest { who: A, act: Act::Other { .. }, roll, .. } => Some(*roll),
                _ => None,
            })
            .unwrap()
    };
    let text = duel("specialisms = [{ name = \"Shoving\", attribute = \"action\", tags = [\"shove\"] }]", "");
    let shove = Choice::Act(Act::Other { activity: Activity::Shove, target: Some(B), difficulty: 0 });
    let (log, _, fought) =
        run(&setup(&text, &[]), &[9, 1, 4, 3, 1, 1, 1, 1], script(&[(0, shove), (1, Choice::Act(Act::End))]));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    let roll = other_roll(&log);
    assert_eq!(roll.total, i32::from(roll.natural) + 2, "{log:#?}");
    // And the opponent's to his: B (a +2 dodging specialism) resists the shove with his die + 2,
    // and the margin is the difference of the totals.
    let text = duel(
        "specialisms = [{ name = \"Shoving\", attribute = \"action\", tags = [\"shove\"] }]",
        "specialisms = [{ name = \"Dodging\", attribute = \"action\", tags = [\"dodge\"] }]",
    );
    let (log, _, fought) =
        run(&setup(&text, &[]), &[9, 1, 4, 3, 1, 1, 1, 1], script(&[(0, shove), (1, Choice::Act(Act::End))]));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    let (roll, against, margin) = log
        .iter()
        .find_map(|e| match e {
            Event::Contest { who: A, act: Act::Other { .. }, roll, against: Some(d), margin, .. } => {
                Some((*roll, *d, *margin))
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(against.total, i32::from(against.natural) + 2, "{log:#?}");
    assert_eq!(margin, roll.total - against.total, "{log:#?}");
    // So is a task's, rolled against a difficulty with no opponent.
    let text = duel("specialisms = [{ name = \"Locks\", attribute = \"action\", tags = [\"task\"] }]", "");
    let task = Choice::Act(Act::Other { activity: Activity::Task, target: None, difficulty: 5 });
    let (log, _, fought) =
        run(&setup(&text, &[]), &[9, 1, 4, 3, 1, 1, 1, 1], script(&[(0, task), (1, Choice::Act(Act::End))]));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    let roll = other_roll(&log);
    assert_eq!(roll.total, i32::from(roll.natural) + 2, "{log:#?}");
    // Its margin is the total less the difficulty (5).
    let margin = log.iter().find_map(|e| match e {
        Event::Contest { who: A, act: Act::Other { .. }, margin, .. } => Some(*margin),
        _ => None,
    });
    assert_eq!(margin, Some(roll.total - 5), "{log:#?}");
}

#[test]
fn a_power_used_is_one_of_the_turns_attacks() {
    // rule: USR-ACT-3
    // Under `max_attacks_per_turn = 2`, A turns a power on B: one of his two attacks, so one is
    // left, and no Other activity.
    let s = setup(&duel("", ""), &[("max_attacks_per_turn", "2")]);
    let (log, _, fought) = run(&s, &[9, 2, 5, 5, 5, 5, 5, 5, 5, 5], script(&[(0, Choice::Act(Act::Power(B)))]));
    let i =
        log.iter().position(|e| matches!(e, Event::Contest { who: A, act: Act::Power(_), .. })).unwrap_or_else(|| {
            panic!("{fought:?} {log:#?}");
        });
    let state = fray_engine::replay::<HardBoiled>(&s, &log[..=i]);
    assert!(matches!(
        policy::act_request(&s, &state, A),
        fray_rules::hardboiled::Request::Act { attacks_left: 1, can_act: false, .. }
    ));
}

#[test]
fn the_loader_takes_every_policy_by_name() {
    // Not a clause: each AI policy a scenario names reaches the combatant's sheet.
    let text = duel(
        "policy = { target = \"weakest\", attack = \"brawl\", called_shot = \"head\", cover = \"leave\", second_wind = \"never\", move = \"hold\" }",
        "",
    );
    let p = setup(&text, &[]).combatants[0].policy;
    assert_eq!((p.target, p.attack, p.called_shot, p.cover, p.second_wind, p.movement), (1, 2, 1, 1, 4, 1));
    assert_eq!(setup(&duel("", ""), &[]).combatants[0].policy, fray_rules::hardboiled::setup::Policy::default());
}

#[test]
fn one_put_out_during_his_own_attack_makes_no_more_that_turn() {
    // rule: USR-ACT-3, USR-TRACK-3
    // A may attack twice a turn. His first attack fumbles (his 1 against B's natural 8,
    // confirmed by a 1) and the GM rules the fumble (`fumble_effect = gm_table`); before that
    // ruling the GM, at the live table, sets A's HP to 0. A is down: his turn ends there, with
    // no second attack. (C keeps A's side in the fight.)
    let text = duel("", "")
        + "\n[[combatants]]\nname = \"C\"\nside = \"a\"\naction = 6\nwits = 8\nego = 10\nhp_max = 30\nposition = 900\npolicy = { move = \"hold\" }\n";
    let s = setup(&text, &[("fumble_effect", "gm_table"), ("max_attacks_per_turn", "2")]);
    let sc = script(&[
        (0, attack_b(true, None)),
        (0, Choice::Fumble(fray_rules::hardboiled::options::FumbleEffect::None)),
        (0, attack_b(true, None)),
        (1, Choice::Act(Act::End)),
        (2, Choice::Act(Act::End)),
    ]);
    let mut faces = vec![9, 2, 1, 1, 8, 1];
    faces.extend([5; 20]);
    let mut fired = false;
    let (log, state, fought) = run_gm(&s, &faces, sc, |state, _| {
        if fired || state.fighter(A).attacks == 0 {
            return Vec::new();
        }
        fired = true;
        let change = fray_rules::board::Change::Set { track: "hp", item: 0, value: 0 };
        vec![Event::Adjusted { who: A, change }]
    });
    assert!(log.iter().any(|e| matches!(e, Event::Fumbled { who: A, .. })), "{fought:?}: {log:#?}");
    assert!(state.fighter(A).down(), "{log:#?}");
    let attacks = log.iter().filter(|e| matches!(e, Event::Contest { who: A, .. })).count();
    assert_eq!(attacks, 1, "{fought:?}: {log:#?}");
}

#[test]
fn an_adjustment_that_leaves_one_side_standing_ends_the_fight() {
    // rule: USR-ROUND-6
    // The game master's adjustment (the live fight's `adjust`) is followed by the end check:
    // B's HP set to 0, A's side wins; both standing, the fight goes on.
    let s = setup(&duel("", ""), &[]);
    let mut st = start(&s);
    assert_eq!(HardBoiled::end_after_adjustment(&s, &st), None);
    let change = fray_rules::board::Change::Set { track: "hp", item: 0, value: 0 };
    HardBoiled::apply(&s, &mut st, &Event::Adjusted { who: B, change });
    let (result, _) = HardBoiled::end_after_adjustment(&s, &st).expect("the fight ends");
    assert_eq!(result.outcome, Outcome::Side(s.combatants[0].side));
}

#[test]
fn one_in_cover_who_moves_off_his_spot_leaves_it() {
    // rule: USR-COVER-1
    // B starts behind a counter. Moving off his starting point he leaves its cover; back on it,
    // he has it again. (One without cover never gains any by moving.)
    let s = setup(&duel("", "position = 8\ncover = { preset = \"counter\", hardness = 2 }"), &[]);
    let moves = [(Pos::new(5.0, 0.0), false), (Pos::new(8.0, 0.0), true)];
    for (to, covered) in moves {
        let sc = script(&[(0, Choice::Act(Act::End)), (1, Choice::Act(Act::Move(to))), (1, Choice::Act(Act::End))]);
        let (log, state, fought) = run(&s, &[9, 1, 1, 1], sc);
        fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
        assert!(
            log.iter().any(|e| matches!(e, Event::Moved { who: B, in_cover, .. } if *in_cover == covered)),
            "{log:#?}"
        );
        assert_eq!(state.fighter(B).in_cover, covered, "{to:?}");
    }
    let bare = setup(&duel("", "position = 8"), &[]);
    let sc = script(&[
        (0, Choice::Act(Act::End)),
        (1, Choice::Act(Act::Move(Pos::new(8.0, 0.0)))),
        (1, Choice::Act(Act::End)),
    ]);
    let (log, state, fought) = run(&bare, &[9, 1, 1, 1], sc);
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert!(!state.fighter(B).in_cover, "{log:#?}");
}

#[test]
fn a_hit_that_adds_nothing_to_the_tally_knocks_no_one_out() {
    // rule: USR-TRACK-5
    // Under `ko_threshold = floor_half` one with 1 HP has a threshold of ⌊1 / 2⌋ = 0. A knife hit
    // his vest stops whole (recorded 0) adds nothing to his tally: he is not knocked out.
    let mut text = duel("weapon = \"knife\"", "armour = [\"bulletproof_vest\"]");
    let b_hp = text.rfind("hp_max = 30").unwrap();
    text.replace_range(b_hp..b_hp + "hp_max = 30".len(), "hp_max = 1");
    let s = setup(&text, &[("ko_threshold", "floor_half")]);
    let mut faces = vec![9, 1, 3, 2, 3];
    faces.extend([1; 10]);
    let (log, state, fought) = run(&s, &faces, script(&[(0, attack_b(false, None)), (1, Choice::Act(Act::End))]));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    let hit = log.iter().find_map(|e| match e {
        Event::Hit { target: B, recorded, .. } => Some(*recorded),
        _ => None,
    });
    assert_eq!(hit, Some(0), "{log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::KnockedOut { .. })), "{log:#?}");
    assert!(!state.fighter(B).knocked_out(1), "{log:#?}");
}

#[test]
fn a_knock_out_that_leaves_no_one_able_ends_the_fight_at_once_under_down_only() {
    // rule: USR-ROUND-6, USR-TRACK-4
    // Under `out_of_fight = down_only` a knocked-out side is still in the fight, which ends in a
    // stalemate once no one at all is left able. A's shot is undeclared (`undeclared_action =
    // gm_prompt`); before the GM's ruling the GM, at the live table, knocks A out; the ruling lets
    // the shot go ahead, and it knocks B out (as in `under_down_only_a_knocked_out_side_is_still_in_the_fight`).
    // No one is left able: the fight ends there, in turn 1 of 3, right after the knock-out.
    let text = duel("weapon = \"automatic_45\"", "position = 5\npolicy = { move = \"hold\" }\nhp_max = 20")
        .replace("ego = 6\nhp_max = 30\nposition", "ego = 6\nposition")
        .replace("max_turns = 1", "max_turns = 3");
    let s = setup(&text, &[("out_of_fight", "down_only"), ("undeclared_action", "gm_prompt")]);
    let sc = script(&[
        (0, Choice::Intent(None)),
        (0, attack_b(false, None)),
        (0, Choice::Yes(true)),
        (1, Choice::Intent(None)),
    ]);
    let mut faces = vec![9, 2, 9, 7];
    faces.extend([1; 60]);
    let mut asked = 0;
    let (log, _, fought) = run_gm(&s, &faces, sc, |_, who| {
        if who != A {
            return Vec::new();
        }
        asked += 1;
        // A is asked to declare, to act, then for the GM's ruling on his undeclared shot.
        if asked != 3 {
            return Vec::new();
        }
        let change = fray_rules::board::Change::Set { track: "knocked_out", item: 0, value: 1 };
        vec![Event::Adjusted { who: A, change }]
    });
    let ko = log.iter().position(|e| matches!(e, Event::KnockedOut { who: B, .. }));
    let ko = ko.unwrap_or_else(|| panic!("{fought:?}: {log:#?}"));
    assert!(log[..ko].iter().any(|e| matches!(e, Event::Adjusted { who: A, .. })), "{log:#?}");
    let result = fought.unwrap();
    assert_eq!((result.outcome, result.length), (Outcome::Stalemate, 1), "{log:#?}");
    assert!(matches!(log[ko + 1..].first(), Some(Event::Ended { .. })), "{:#?}", &log[ko..]);
}

#[test]
fn a_second_attack_in_the_turn_takes_the_multiple_attack_penalty_in_a_contest() {
    // rule: USR-ACT-3
    // A's punch (d10) against B's d8 wins 44/80 of the time; his second attack of the turn, at
    // −2 (`multi_attack_penalty = 2`), 28/80; at −3, 21/80.
    let fists = Act::Attack { target: B, fists: true, called: None, off_balance: false };
    let hit = |penalty: &str, attacks: u8| {
        let s = setup(&duel("", ""), &[("max_attacks_per_turn", "3"), ("multi_attack_penalty", penalty)]);
        let mut st = start(&s);
        st.fighters[0].attacks = attacks;
        fraction(&odds::odds_of(&s, &st, A, &fists).unwrap().hit)
    };
    assert_eq!((hit("2", 0), hit("2", 1), hit("3", 1)), ("11/20".into(), "7/20".into(), "21/80".into()));
    // The fight's contest carries the same term.
    let s = setup(&duel("", ""), &[("max_attacks_per_turn", "2")]);
    let sc = script(&[(0, attack_b(true, None)), (0, attack_b(true, None)), (0, Choice::Act(Act::End))]);
    let (log, _, fought) = run(&s, &[9, 1, 2, 8, 2, 8], sc);
    // Both of A's punches miss; B's turn then wants dice for his own attack.
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 6 dice");
    let multi: Vec<i16> = log
        .iter()
        .filter_map(|e| match e {
            Event::Contest { who: A, terms, .. } => Some(terms.actor.0[2]),
            _ => None,
        })
        .collect();
    assert_eq!(multi, [0, -2], "{log:#?}");
}

#[test]
fn a_declared_attack_stays_possible_while_its_target_is_within_reach_and_a_move() {
    // rule: USR-ROUND-4, USR-RNG-2
    // A declared shot with a .45 (range 20 m: reach 2 × 20) can still be carried out while B
    // stands within 40 m and a Move (10 m): at exactly 50 m, not beyond. After moving, 40 m.
    // Under `beyond_extreme = extreme` any distance will do. A declared punch reaches 2 m and a
    // Move.
    let shot = Act::Attack { target: B, fists: false, called: None, off_balance: false };
    let punch = Act::Attack { target: B, fists: true, called: None, off_balance: false };
    let gone = |b_at: f64, moved: bool, sets: &[(&str, &str)], act: &Act| {
        let s = setup(&duel("weapon = \"automatic_45\"", &format!("position = {b_at}")), sets);
        let mut st = start(&s);
        st.fighters[0].moved = moved;
        policy::illegal_target(&s, &st, A, act)
    };
    assert_eq!(gone(50.0, false, &[], &shot), None);
    assert!(gone(50.5, false, &[], &shot).is_some());
    assert_eq!(gone(40.0, true, &[], &shot), None);
    assert!(gone(41.0, true, &[], &shot).is_some());
    assert_eq!(gone(100.0, false, &[("beyond_extreme", "extreme")], &shot), None);
    assert_eq!(gone(12.0, false, &[], &punch), None);
    assert!(gone(12.5, false, &[], &punch).is_some());
}

#[test]
fn actions_at_no_one_and_a_disengaging_move_after_attacking_are_refused() {
    // rule: USR-MOVE-2, USR-ACT-2, USR-ACT-4
    // An attack at oneself or at no one on the roster is refused. Under `free_disengage = false`
    // a Move out of an enemy's reach is refused after an attack in the turn, not before.
    let s = setup(&duel("", "position = 1"), &[("free_disengage", "false")]);
    let mut st = start(&s);
    let request = fray_rules::hardboiled::Request::Act { can_move: true, attacks_left: 1, can_act: true };
    let at = |t| Act::Attack { target: t, fists: true, called: None, off_balance: false };
    assert!(policy::illegal(&s, &st, A, &request, &at(B)).is_none());
    assert!(policy::illegal(&s, &st, A, &request, &at(A)).is_some());
    assert!(policy::illegal(&s, &st, A, &request, &at(CombatantId(2))).is_some());
    // So is a power or an Other activity at no one.
    assert!(policy::illegal(&s, &st, A, &request, &Act::Power(B)).is_none());
    assert!(policy::illegal(&s, &st, A, &request, &Act::Power(A)).is_some());
    let shove = |t| Act::Other { activity: Activity::Shove, target: Some(t), difficulty: 0 };
    assert!(policy::illegal(&s, &st, A, &request, &shove(B)).is_none());
    assert!(policy::illegal(&s, &st, A, &request, &shove(A)).is_some());
    // A shove needs its target within melee reach (2 m).
    let far = setup(&duel("", "position = 5"), &[]);
    assert!(policy::illegal(&far, &start(&far), A, &request, &shove(B)).is_some());
    // An intimidation needs no reach.
    let intimidate = Act::Other { activity: Activity::Intimidate, target: Some(B), difficulty: 0 };
    assert!(policy::illegal(&far, &start(&far), A, &request, &intimidate).is_none());
    // A weapon is picked up only when it lies on the floor, with an Other activity left.
    assert!(policy::illegal(&s, &st, A, &request, &Act::PickUp).is_some());
    let mut dropped = start(&s);
    dropped.fighters[0].dropped = true;
    assert!(policy::illegal(&s, &dropped, A, &request, &Act::PickUp).is_none());
    let no_other = fray_rules::hardboiled::Request::Act { can_move: true, attacks_left: 1, can_act: false };
    assert!(policy::illegal(&s, &dropped, A, &no_other, &Act::PickUp).is_some());
    let away = Act::Move(Pos { x: -8.0, y: 0.0 });
    assert!(policy::illegal(&s, &st, A, &request, &away).is_none());
    st.fighters[0].attacks = 1;
    assert!(policy::illegal(&s, &st, A, &request, &away).is_some());
}
