//! `opend6` clauses, one test or more each, with scripted dice where a number matters.

#[allow(unused_imports)]
use attack as _;
use fray_engine::{CombatantId, Fight, FightError, FightResult, Outcome, Record, Scripted, SideId};
use fray_rules::opend6::attack;
use fray_rules::opend6::options::Options;
use fray_rules::opend6::policy::Script;
use fray_rules::opend6::roll::{self, OneReads};
use fray_rules::opend6::setup::{DieCode, Level};
use fray_rules::opend6::{
    Action, AttackPlan, Called, Choice, DefKind, Event, Loc, Mode, OpenD6, Setup, State, scenario,
};

const A: CombatantId = CombatantId(0);
const B: CombatantId = CombatantId(1);

fn setup(text: &str, sets: &[(&str, &str)]) -> Setup {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("test.toml", text, &sets).unwrap_or_else(|e| panic!("{e}"))
}

fn run(setup: &Setup, faces: &[u32], script: Script) -> (Vec<Event>, State, Result<FightResult, FightError>) {
    let mut fight = Fight::<OpenD6, _, _, _>::new(setup, Scripted::faces(faces), script, Record::default());
    let result = fight.run();
    let (state, record) = fight.into_parts();
    (record.0, state, result)
}

/// Two combatants, A first under a fixed order, one round; `a` and `b` are extra TOML lines.
fn duel(rules: &str, a: &str, b: &str) -> String {
    format!(
        r#"
[rules]
ruleset = "opend6"
max_rounds = 1
order = ["A", "B"]
{rules}
[rules.options]
initiative_method = "fixed_order"

[[combatants]]
name = "A"
side = "a"
position = 0
{a}

[[combatants]]
name = "B"
side = "b"
position = 2
{b}
"#
    )
}

const BLASTER: &str = r#"
[[combatants.weapons]]
name = "blaster"
skill = "firearms"
damage = "4D"
damage_type = "energy"
ranges = [10, 30, 120]
"#;

fn attacks(log: &[Event]) -> Vec<(CombatantId, i32, i32, bool)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Attack { attacker, roll, difficulty, hit, .. } => Some((*attacker, roll.total, *difficulty, *hit)),
            _ => None,
        })
        .collect()
}

fn script(entries: &[(usize, Choice)]) -> Script {
    let mut s = Script::new(8);
    for (who, c) in entries {
        s.push(*who, *c);
    }
    s
}

fn attack_on(target: CombatantId, weapon: u8) -> Choice {
    Choice::Act(Action::Attack(AttackPlan::new(target, weapon)))
}

fn rolled(code: DieCode, faces: &[u32], one: OneReads, options: &Options) -> fray_rules::opend6::Rolled {
    let mut dice = Scripted::faces(faces);
    roll::roll(&mut dice, A, "test", code, 0, one, options).unwrap()
}

// --- DICE ---------------------------------------------------------------------------------

#[test]
fn zero_dice_cannot_roll_or_roll_pips_only() {
    // rule: OD6-DICE-7
    // Brawling 1D+2 with two actions declared: 0D+2 left, so a scripted punch is rejected.
    let text = duel("", "skills = { brawling = \"1D+2\" }", "");
    let forbid = setup(&text, &[]);
    let s = script(&[(0, Choice::Count(2)), (0, attack_on(B, 0))]);
    let (_, _, result) = run(&forbid, &[], s);
    assert!(matches!(result, Err(FightError::IllegalChoice { who: A, .. })));
    // A reduction after N was declared forfeits the action: A (brawling 2D, N = 2) is wounded by
    // B's interrupt; his second punch would be 0D: it counts as used, with no roll.
    let text2 =
        duel("", "skills = { brawling = \"2D\" }", "").replace("order = [\"A\", \"B\"]", "order = [\"B\", \"A\"]");
    let s = script(&[
        (1, Choice::Count(2)),
        (1, Choice::Act(Action::Wait)),
        (1, Choice::Interrupt(Some(Action::Attack(AttackPlan::new(A, 0))))),
        (0, Choice::Count(2)),
        (0, attack_on(B, 0)),
        (0, attack_on(B, 0)),
    ]);
    let (log, state, result) = run(&setup(&text2, &[]), &[1, 6, 6, 6, 2, 1, 3, 1, 1, 1], s);
    result.unwrap();
    assert_eq!(state.fighter(A).level, Level::Wounded);
    assert!(log.iter().any(|e| matches!(e, Event::Forfeit { who: A, .. })));
    assert_eq!(state.fighter(A).used, 2);
    // `pips_only`: the roll is made with no dice: total max(2, 0) = 2 (and B's turn follows).
    let pips = setup(&text, &[("zero_dice", "pips_only")]);
    let s = script(&[
        (0, Choice::Count(2)),
        (0, attack_on(B, 0)),
        (0, Choice::Act(Action::Pass)),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Pass)),
    ]);
    let (log, _, fought) = run(&pips, &[], s);
    fought.unwrap();
    assert_eq!(attacks(&log), [(A, 2, 5, false)]);
    // The AI never chooses such a roll: a Severely Wounded thug (−2D) with Agility 2D and no
    // skills has no dice for a punch or a dodge, so it passes, and the fight goes on (a debug
    // build checks every AI answer).
    let thug = r#"
[rules]
ruleset = "opend6"
max_rounds = 3

[[combatants]]
name = "Thug"
side = "a"
agility = "2D"
wound_level = "severely_wounded"
position = 0

[[combatants]]
name = "Guard"
side = "b"
position = 2
"#;
    let thug = setup(thug, &[]);
    for seed in 1..=5 {
        let dice = fray_engine::FromSource(fray_dice::seeded(seed));
        let mut fight = Fight::<OpenD6, _, _, _>::new(&thug, dice, fray_rules::opend6::policy::Ai, Record::default());
        fight.run().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let (_, record) = fight.into_parts();
        assert!(!record.0.iter().any(|e| matches!(e, Event::Attack { attacker: A, .. })), "seed {seed}");
        assert!(record.0.iter().any(|e| matches!(e, Event::Forfeit { who: A, .. })), "seed {seed}");
    }
}

#[test]
fn wild_die_total_rules() {
    // rule: OD6-DICE-3, OD6-DICE-4, OD6-DICE-5, OD6-DICE-9, OD6-RES-1
    let o = Options::default();
    // 4D showing 4, 3, 2 and Wild 1 totals 5.
    assert_eq!(rolled(DieCode::new(4, 0), &[4, 3, 2, 1], OneReads::Cancel, &o).total, 5);
    // 1D: only the Wild Die; a 1 leaves the pips.
    assert_eq!(rolled(DieCode::new(1, 2), &[1], OneReads::Cancel, &o).total, 2);
    // Explosions add and the first non-6 stops; a later 1 is simply 1.
    assert_eq!(rolled(DieCode::new(1, 0), &[6, 6, 1], OneReads::Cancel, &o).total, 13);
    // CP dice: 3D + 1 CP, [2, 3] W[1] CP[6, 4] → 12 (`cancel_cp_dice = false`), 5 (`true`).
    let mut dice = Scripted::faces([2, 3, 1, 6, 4]);
    let r = roll::roll(&mut dice, A, "test", DieCode::new(3, 0), 1, OneReads::Cancel, &o).unwrap();
    assert_eq!(r.total, 12);
    let mut cancel = o.clone();
    cancel.cancel_cp_dice = true;
    assert_eq!(roll::total(&r, &cancel), 5);
    // The pips stay when the Wild Die's 1 cancels: 3D+2 the same, 14 and 7.
    let mut dice = Scripted::faces([2, 3, 1, 6, 4]);
    let r = roll::roll(&mut dice, A, "test", DieCode::new(3, 2), 1, OneReads::Cancel, &o).unwrap();
    assert_eq!((r.total, roll::total(&r, &cancel)), (14, 7));
}

// --- ROUND --------------------------------------------------------------------------------

const BRAWLERS: &str = r#"
[rules]
ruleset = "opend6"
max_rounds = 2

[[combatants]]
name = "A"
side = "a"
perception = "2D"
skills = { brawling = "3D" }
position = 0

[[combatants]]
name = "B"
side = "b"
perception = "3D"
skills = { brawling = "3D" }
position = 2
"#;

#[test]
fn rounds_run_initiative_then_turns_in_order() {
    // rule: OD6-ROUND-1, OD6-ROUND-2, OD6-INIT-1, OD6-INIT-2
    let setup = setup(BRAWLERS, &[]);
    // Round 1: A 2D [1] W[2] → 3, B 3D [2,2] W[3] → 7; B punches (miss), A punches (miss).
    // Round 2: A [5] W[5] → 10, B [1,1] W[2] → 4: the order is rerolled; A first.
    let faces = [1, 2, 2, 2, 3, 1, 1, 2, 1, 1, 2, 5, 5, 1, 1, 2, 1, 1, 2, 1, 1, 2];
    let (log, _, result) = run(&setup, &faces, Script::new(2));
    assert_eq!(result.unwrap(), FightResult { outcome: Outcome::Stalemate, length: 2 });
    let kinds: Vec<String> = log
        .iter()
        .filter_map(|e| match e {
            Event::RoundStarted { round } => Some(format!("round {round}")),
            Event::Initiative { who, total, .. } => Some(format!("init {} {total}", who.index())),
            Event::Order { order } => {
                Some(format!("order {:?}", order.iter().map(|o| o.0.index()).collect::<Vec<_>>()))
            }
            Event::Attack { attacker, .. } => Some(format!("attack {}", attacker.index())),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "round 1",
            "init 0 3",
            "init 1 7",
            "order [1, 0]",
            "attack 1",
            "attack 0",
            "round 2",
            "init 0 10",
            "init 1 4",
            "order [0, 1]",
            "attack 0",
            "attack 1"
        ]
    );
}

#[test]
fn initiative_once_and_fixed_order() {
    // rule: OD6-INIT-2
    let once = setup(BRAWLERS, &[("initiative_method", "roll_once")]);
    let faces = [1, 2, 2, 2, 3, 1, 1, 2, 1, 1, 2, 1, 1, 2, 1, 1, 2];
    let (log, _, fought) = run(&once, &faces, Script::new(2));
    fought.unwrap();
    assert_eq!(log.iter().filter(|e| matches!(e, Event::Initiative { .. })).count(), 2);
    let order: Vec<CombatantId> = log
        .iter()
        .filter_map(|e| match e {
            Event::Attack { attacker, .. } => Some(*attacker),
            _ => None,
        })
        .collect();
    assert_eq!(order, [B, A, B, A]);
    let fixed = setup(
        &BRAWLERS.replace("max_rounds = 2", "max_rounds = 1\norder = [\"B\", \"A\"]"),
        &[("initiative_method", "fixed_order")],
    );
    let (log, _, fought) = run(&fixed, &[1, 1, 2, 1, 1, 2], Script::new(2));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Initiative { .. })));
    assert_eq!(attacks(&log).iter().map(|a| a.0).collect::<Vec<_>>(), [B, A]);
}

#[test]
fn damage_at_once_or_at_the_end_of_the_round() {
    // rule: OD6-ROUND-3
    let text = duel("", "skills = { brawling = \"4D\" }\nstrength = \"4D\"", "strength = \"1D\"");
    // A hits: [6,6,6] W[5] = 23 vs 5; damage 2D [6] W[6,6,6,2] = 26, resist 1D W[2].
    let faces = [6, 6, 6, 5, 6, 6, 6, 6, 2, 2];
    let (log, _, fought) = run(&setup(&text, &[]), &faces, Script::new(2));
    fought.unwrap();
    // Immediate: B is dead before its turn, so it never acts.
    assert!(log.iter().any(|e| matches!(e, Event::Wound { who: B, to: Level::Dead, .. })));
    assert!(!log.iter().any(|e| matches!(e, Event::Attack { attacker: B, .. })));
    // End of round: B still takes its turn (it punches: [1,1] W[2] vs 5), then the damage lands.
    let faces = [6, 6, 6, 5, 1, 1, 2, 6, 6, 6, 6, 2, 2];
    let (log, _, fought) = run(&setup(&text, &[("damage_timing", "end_of_round")]), &faces, Script::new(2));
    fought.unwrap();
    let b_attack = log.iter().position(|e| matches!(e, Event::Attack { attacker: B, .. })).unwrap();
    let wound = log.iter().position(|e| matches!(e, Event::Wound { who: B, .. })).unwrap();
    assert!(b_attack < wound);
}

#[test]
fn the_fight_ends_when_one_side_is_left() {
    // rule: OD6-ROUND-4, OD6-COND-1
    let text = duel("", "skills = { brawling = \"4D\" }\nstrength = \"4D\"", "strength = \"1D\"");
    let faces = [6, 6, 6, 5, 6, 6, 6, 2, 2];
    let (_, state, result) = run(&setup(&text, &[]), &faces, Script::new(2));
    assert_eq!(result.unwrap().outcome, Outcome::Side(SideId(0)));
    assert!(state.fighter(B).out(&Options::default()));
    // Incapacitated but conscious counts as out only under `incapacitated_or_worse`.
    let mut x = state.fighter(B).clone();
    x.level = Level::Incapacitated;
    x.unconscious_until = 0;
    assert!(!x.out(&Options::default()));
    let o = Options { out_incapacitated: true, ..Options::default() };
    assert!(x.out(&o));
    assert!(!x.able() || x.level == Level::Incapacitated);
}

// --- INIT ---------------------------------------------------------------------------------

const SQUAD: &str = r#"
[rules]
ruleset = "opend6"
max_rounds = 1

[[combatants]]
name = "Hero"
side = "a"
perception = "3D"
position = 0

[[combatants]]
name = "T1"
side = "b"
group = "squad"
perception = "2D"
position = 2

[[combatants]]
name = "T2"
side = "b"
group = "squad"
perception = "4D"
position = 2
"#;

fn initiatives(log: &[Event]) -> Vec<(usize, Vec<usize>, i32)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Initiative { who, members, total, .. } => {
                Some((who.index(), members.iter().map(|m| m.index()).collect(), *total))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn an_npc_group_shares_one_roll() {
    // rule: OD6-INIT-3, OD6-INIT-1
    let passes = |n| {
        script(
            &(0..3).flat_map(|w| [(w, Choice::Count(1)), (w, Choice::Act(Action::Pass))]).take(n).collect::<Vec<_>>(),
        )
    };
    // The hero 3D [2,3] W[4] = 9; the squad rolls once, with T1's 2D: [1] W[5] = 6.
    let (log, _, fought) = run(&setup(SQUAD, &[]), &[2, 3, 4, 1, 5], passes(6));
    fought.unwrap();
    assert_eq!(initiatives(&log), [(0, vec![0], 9), (1, vec![1, 2], 6)]);
    // The two troopers tie on the shared total: one simultaneous step after the hero.
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 1), (CombatantId(2), 1)]))
    );
    // Individually: T2 rolls its own 4D.
    let (log, _, fought) =
        run(&setup(SQUAD, &[("npc_group_initiative", "false")]), &[2, 3, 4, 1, 5, 1, 1, 1, 2], passes(6));
    fought.unwrap();
    assert_eq!(initiatives(&log), [(0, vec![0], 9), (1, vec![1], 6), (2, vec![2], 5)]);
}

#[test]
fn ties_act_simultaneously_or_by_the_parent_order() {
    // rule: OD6-INIT-4
    // Both 3D, both roll 9: one step. A's punch would knock B out, yet B still punches, and the
    // wound lands when the step ends.
    let text = BRAWLERS
        .replace("perception = \"2D\"", "perception = \"3D\"\nstrength = \"5D\"")
        .replace("max_rounds = 2", "max_rounds = 1");
    let faces = [2, 3, 4, 2, 3, 4, 6, 6, 5, 1, 1, 2, 6, 6, 6, 6, 2, 1, 1, 1];
    let (log, _, fought) = run(&setup(&text, &[]), &faces, Script::new(2));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 0)])));
    let b_attack = log.iter().position(|e| matches!(e, Event::Attack { attacker: B, .. })).unwrap();
    let wound = log.iter().position(|e| matches!(e, Event::Wound { who: B, .. })).unwrap();
    assert!(b_attack < wound, "the tied B acts before A's result applies");
    // `parent_order`: the higher Perception code goes first — equal here, so search, Agility,
    // dodge, then scenario order: A, then B in its own step.
    let (log, _, fought) = run(&setup(&text, &[("initiative_ties", "parent_order")]), &faces, Script::new(2));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 1)])));
}

#[test]
fn the_unconscious_lose_their_turns() {
    // rule: OD6-INIT-5, OD6-COND-1
    let text = SQUAD.replace("position = 2\n", "position = 2\nwound_level = \"mortally_wounded\"\n");
    let (log, _, result) = run(&setup(&text, &[]), &[], Script::new(3));
    // Nobody on side b can act: the fight is over before round 1.
    assert_eq!(result.unwrap(), FightResult { outcome: Outcome::Side(SideId(0)), length: 0 });
    assert!(!log.iter().any(|e| matches!(e, Event::TurnStarted { who, .. } if who.index() > 0)));
    // A stun-knocked combatant in the order loses its turn.
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup(SQUAD, &[]));
    state.fighters[1].unconscious_until = 5;
    assert!(!state.fighter(B).able());
}

#[test]
fn character_points_on_initiative_and_the_wound_penalty_option() {
    // rule: OD6-INIT-6, OD6-INIT-8, OD6-RES-1, OD6-RES-2
    let text = BRAWLERS
        .replace("position = 0", "position = 0\ncharacter_points = 3\nwound_level = \"wounded\"")
        .replace("max_rounds = 2", "max_rounds = 1");
    // A spends 1 CP on initiative: 2D [1] W[2] + CP[6, 3] = 12.
    let s = script(&[(0, Choice::Cp(1)), (0, Choice::Cp(0))]);
    let faces = [1, 2, 6, 3, 2, 2, 3, 1, 1, 2, 1, 1, 2];
    let (log, state, fought) = run(&setup(&text, &[]), &faces, s);
    fought.unwrap();
    assert_eq!(initiatives(&log)[0].2, 12);
    assert_eq!(state.fighter(A).cp, 2);
    // No Fate Point is ever asked for initiative; the wound penalty does not reduce it by default.
    let code = |log: &[Event]| {
        log.iter()
            .find_map(|e| match e {
                Event::Initiative { who: A, roll: Some(r), .. } => Some(r.code),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(code(&log), DieCode::new(2, 0));
    let (log, _, fought) =
        run(&setup(&text, &[("wound_penalty_on_initiative", "true")]), &[2, 2, 2, 3, 1, 1, 2, 1, 1, 2], Script::new(2));
    fought.unwrap();
    assert_eq!(code(&log), DieCode::new(1, 0));
}

#[test]
fn surprise_acts_first_or_adds_a_die() {
    // rule: OD6-INIT-9
    let text =
        BRAWLERS.replace("position = 0", "position = 0\nsurprise = true").replace("max_rounds = 2", "max_rounds = 1");
    let (log, _, fought) = run(&setup(&text, &[]), &[2, 2, 3, 1, 1, 2, 1, 1, 2], Script::new(2));
    fought.unwrap();
    assert_eq!(initiatives(&log).len(), 1);
    assert_eq!(attacks(&log)[0].0, A);
    // `bonus_1d`: A rolls normally and its first skill roll of round 1 gets +1D (brawling 4D).
    let (log, _, fought) =
        run(&setup(&text, &[("surprise_effect", "bonus_1d")]), &[1, 2, 2, 2, 3, 1, 1, 1, 2, 1, 1, 2], Script::new(2));
    assert_eq!(fought.unwrap_err().to_string(), "dice for damage: the script ran out of faces after 12 dice");
    assert_eq!(initiatives(&log).len(), 2);
    let a_code = log.iter().find_map(|e| match e {
        Event::Attack { attacker: A, roll, .. } => Some(roll.code),
        _ => None,
    });
    assert_eq!(a_code, Some(DieCode::new(4, 0)));
}

#[test]
fn the_initiative_bonus() {
    // rule: OD6-INIT-7
    let text = BRAWLERS.replace(
        "perception = \"2D\"\nskills = { brawling = \"3D\" }",
        "perception = \"3D\"\nagility = \"4D\"\nskills = { search = \"5D+2\" }",
    );
    let s = setup(&text, &[]);
    assert_eq!(roll::initiative_bonus(&s.combatants[0], &s.options), 2);
    assert_eq!(roll::initiative_bonus(&s.combatants[0], &setup(&text, &[("initiative_bonus", "max")]).options), 1);
    assert_eq!(roll::initiative_bonus(&s.combatants[0], &setup(&text, &[("initiative_bonus", "off")]).options), 0);
    let seven = setup(&BRAWLERS.replace("perception = \"2D\"", "agility = \"7D\""), &[]);
    assert_eq!(roll::initiative_bonus(&seven.combatants[0], &seven.options), 1);
    let eight = setup(&BRAWLERS.replace("perception = \"2D\"", "agility = \"8D\""), &[]);
    assert_eq!(roll::initiative_bonus(&eight.combatants[0], &eight.options), 2);
    // Only full 2D of search count (rounded down), and a search below Perception takes nothing off.
    let bonus = |perception: &str, search: &str| {
        let s = setup(
            &BRAWLERS.replace(
                "perception = \"2D\"\nskills = { brawling = \"3D\" }",
                &format!("perception = \"{perception}\"\nagility = \"4D\"\nskills = {{ search = \"{search}\" }}"),
            ),
            &[],
        );
        roll::initiative_bonus(&s.combatants[0], &s.options)
    };
    assert_eq!(bonus("3D", "4D+2"), 1);
    assert_eq!(bonus("3D", "6D"), 2);
    assert_eq!(bonus("4D", "1D"), 1);
    assert_eq!(bonus("4D", "2D"), 1);
}

#[test]
fn a_quick_draw_moves_skill_dice_to_initiative() {
    // rule: OD6-INIT-10, OD6-GEAR-2
    let text = format!(
        "{}{}",
        BRAWLERS
            .replace("perception = \"2D\"", "perception = \"4D\"")
            .replace("skills = { brawling = \"3D\" }\nposition = 0", "skills = { throwing = \"8D\" }\nposition = 0")
            .replace("max_rounds = 2", "max_rounds = 1"),
        ""
    );
    let text = text.replacen(
        "position = 0\n",
        "position = 0\n\n[[combatants.weapons]]\nname = \"knife\"\nskill = \"throwing\"\ndamage = \"1D\"\nranges = [3, 10, 20]\nquick = true\ndrawn = false\n",
        1,
    );
    let setup = setup(&text, &[]);
    // Two attacks: 8D − 1D = 7D; moving 3D gives initiative 7D and attacks at 4D each.
    let draw = fray_rules::opend6::QuickDraw { weapon: 0, n: 2, k: 3 };
    let s = script(&[(0, Choice::QuickDraw(Some(draw))), (0, attack_on(B, 0)), (0, attack_on(B, 0))]);
    let faces = [1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2];
    let (log, _, result) = run(&setup, &faces, s);
    result.as_ref().unwrap();
    assert!(log.contains(&Event::QuickDrawn { who: A, draw }), "{result:?} {log:#?}");
    let a_init = log.iter().find_map(|e| match e {
        Event::Initiative { who: A, roll: Some(r), .. } => Some(r.code),
        _ => None,
    });
    assert_eq!(a_init, Some(DieCode::new(7, 0)));
    let codes: Vec<DieCode> = log
        .iter()
        .filter_map(|e| match e {
            Event::Attack { attacker: A, roll, .. } => Some(roll.code),
            _ => None,
        })
        .collect();
    assert_eq!(codes, [DieCode::new(4, 0), DieCode::new(4, 0)], "{result:?} {log:#?}");
    // At most 6D may move: 7D leaves none.
    let greedy = fray_rules::opend6::QuickDraw { weapon: 0, n: 2, k: 7 };
    let (_, _, result) = run(&setup, &faces, script(&[(0, Choice::QuickDraw(Some(greedy)))]));
    assert!(matches!(result, Err(FightError::IllegalChoice { .. })));
}

// --- ACT ----------------------------------------------------------------------------------

#[test]
fn only_a_waiting_character_interrupts_and_nobody_moves_up_to_defend() {
    // rule: OD6-ACT-7, OD6-DEF-2, OD6-DEF-1
    // B acts after A and has not waited: A's punch uses passive 10 − 5, and B is never asked.
    let text = duel("", "skills = { brawling = \"3D\" }", "skills = { dodge = \"5D\" }");
    let (log, _, fought) = run(&setup(&text, &[]), &[1, 1, 2, 1, 1, 2], Script::new(2));
    fought.unwrap();
    assert_eq!(attacks(&log)[0].2, 5);
    assert!(!log.iter().any(|e| matches!(e, Event::Resumed { .. } | Event::Defence { .. })));
    // An active defence made on B's own turn stays until his next turn: in round 2, before
    // B acts, A's punch uses it as its base.
    let two = duel("", "skills = { brawling = \"3D\" }", "skills = { dodge = \"5D\" }")
        .replace("max_rounds = 1", "max_rounds = 2");
    let s = script(&[
        (0, Choice::Count(1)),
        (0, Choice::Act(Action::Pass)),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Defend { kind: DefKind::Dodge, full: false })),
    ]);
    let (log, _, fought) = run(&setup(&two, &[]), &[3, 3, 3, 3, 2, 1, 1, 2, 1, 1, 2], s);
    fought.unwrap();
    // B's dodge 5D [3,3,3,3] W[2] = 14 replaces 10 into round 2: 14 − 5.
    assert_eq!(attacks(&log)[0].2, 14 - 5);
}

#[test]
fn a_weapon_is_used_once_a_round_unless_quick_or_rated() {
    // rule: OD6-ACT-8
    let text = duel("", &format!("skills = {{ firearms = \"5D\" }}{BLASTER}"), "");
    let setup = setup(&text, &[]);
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    state.fighters[0].declared = 2;
    let plan = AttackPlan::new(B, 0);
    assert!(attack::illegal(&setup, &state, A, &plan, false).is_none());
    state.fighters[0].weapons[0].uses = 1;
    assert!(attack::illegal(&setup, &state, A, &plan, false).is_some());
    // Fists are quick: any number of punches.
    state.fighters[0].weapons[1].uses = 3;
    assert!(attack::illegal(&setup, &state, A, &AttackPlan::new(B, 1), false).is_none());
    // A rate of 2 allows a second shot.
    let rated = self::setup(&text.replace("ranges = [10, 30, 120]", "ranges = [10, 30, 120]\nrate = 2"), &[]);
    assert!(attack::illegal(&rated, &state, A, &plan, false).is_none());
}

#[test]
fn free_actions_do_not_count_toward_n() {
    // rule: OD6-ACT-9, OD6-MOVE-2, OD6-MOVE-1
    let text = duel("", "skills = { brawling = \"3D\" }", "").replace("position = 2", "position = 9");
    // A moves 5 m free (half of Move 10), then punches at 4 m? No: 9 − 5 = 4 m is Short, out of
    // fist reach; a move action covers it.
    let s = script(&[
        (0, Choice::Count(2)),
        (0, Choice::Act(Action::Move { to: 5, free: true })),
        (0, Choice::Act(Action::Move { to: 7, free: false })),
        (0, attack_on(B, 0)),
    ]);
    let (log, state, fought) = run(&setup(&text, &[]), &[1, 1, 2, 1, 1, 2], s);
    fought.unwrap();
    assert_eq!(state.fighter(A).pos, 7);
    assert_eq!(state.fighter(A).used, 2);
    assert_eq!(state.distance(A, B), 2);
    assert_eq!(attacks(&log).iter().filter(|a| a.0 == A).count(), 1);
    // A second free move, or one beyond half of Move, is refused.
    let s = script(&[(0, Choice::Count(1)), (0, Choice::Act(Action::Move { to: 6, free: true }))]);
    let (_, _, result) = run(&setup(&text, &[]), &[], s);
    assert!(matches!(result, Err(FightError::IllegalChoice { .. })));
}

#[test]
fn a_wait_that_used_the_last_declared_action_interrupts_nothing() {
    // rule: OD6-ACT-6, OD6-ACT-5
    // B (first) declares one action and spends it waiting: with nothing left it is never asked to
    // interrupt A's punch, nor to resume after it (an interrupt it would make is queued, and
    // must go unused).
    let text = duel("", "", "").replace("order = [\"A\", \"B\"]", "order = [\"B\", \"A\"]");
    let s = script(&[
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Wait)),
        (1, Choice::Interrupt(Some(Action::Attack(AttackPlan::new(A, 0))))),
        (1, Choice::Resume(true)),
        (0, Choice::Count(1)),
        (0, attack_on(B, 0)),
    ]);
    let (log, state, fought) = run(&setup(&text, &[]), &[3; 20], s);
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert!(log.iter().any(|e| matches!(e, Event::Attack { attacker: A, .. })), "{log:#?}");
    assert!(
        !log.iter().any(|e| matches!(e, Event::Resumed { who: B, .. } | Event::Attack { attacker: B, .. })),
        "{log:#?}"
    );
    assert_eq!(state.fighter(B).used, 1);
}

#[test]
fn an_interrupted_action_resolves_or_is_void() {
    // rule: OD6-ACT-10, OD6-ACT-6, OD6-ACT-5
    // B waits; A (first) punches... A acts first, so B must wait in an earlier step: give B the
    // first turn. B waits, A punches, B interrupts by punching A unconscious; A's punch still
    // resolves (`resolves`), or has no effect (`void_if_unable`).
    let text = duel(
        "",
        "skills = { brawling = \"3D\" }\nstrength = \"1D\"",
        "skills = { brawling = \"5D\" }\nstrength = \"6D\"",
    )
    .replace("order = [\"A\", \"B\"]", "order = [\"B\", \"A\"]");
    let s = script(&[
        (1, Choice::Count(2)),
        (1, Choice::Act(Action::Wait)),
        (1, Choice::Interrupt(Some(Action::Attack(AttackPlan::new(A, 0))))),
        (0, Choice::Count(1)),
        (0, attack_on(B, 0)),
    ]);
    // A's punch 3D [6,6] W[5] = 17; B's interrupt 5D [6,6,6,6] W[5] = 29 → damage 3D [6,6] W[6,6,2]
    // = 26 + bonus 5 = 31 vs A's 1D W[2]: dead. Then A's punch: vs 5, hit; damage 1D W[3] vs B 6D.
    let faces = [6, 6, 5, 6, 6, 6, 6, 5, 6, 6, 6, 6, 2, 2, 3, 1, 1, 1, 1, 1, 2];
    let (log, _, fought) = run(&setup(&text, &[]), &faces, s.clone());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Resumed { who: B, interrupting: Some((A, 17)) })));
    assert!(log.iter().any(|e| matches!(e, Event::Wound { who: A, to: Level::Dead, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Attack { attacker: A, hit: true, .. })));
    let (log, _, fought) = run(&setup(&text, &[("interrupted_action", "void_if_unable")]), &faces, s);
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Attack { attacker: A, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Forfeit { who: A, .. })));
    // An action without an attack roll (a dodge) interrupted the same way: it still resolves
    // under `resolves`, and has no effect under `void_if_unable`.
    let dodge = || {
        script(&[
            (1, Choice::Count(2)),
            (1, Choice::Act(Action::Wait)),
            (1, Choice::Interrupt(Some(Action::Attack(AttackPlan::new(A, 0))))),
            (0, Choice::Count(1)),
            (0, Choice::Act(Action::Defend { kind: DefKind::Dodge, full: false })),
        ])
    };
    let faces = [6, 6, 6, 6, 5, 6, 6, 6, 6, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3];
    let dodged = |log: &[Event]| log.iter().any(|e| matches!(e, Event::Defence { who: A, .. }));
    let (log, _, fought) = run(&setup(&text, &[]), &faces, dodge());
    fought.unwrap();
    // The interrupt comes after the dodge's roll and names its total (OD6-ACT-6).
    let dodge_total =
        log.iter().find_map(|e| if let Event::Defence { who: A, roll, .. } = e { Some(roll.total) } else { None });
    let interrupted_at = log
        .iter()
        .find_map(|e| if let Event::Resumed { who: B, interrupting: Some((A, t)) } = e { Some(*t) } else { None });
    assert!(dodge_total.is_some_and(|t| t > 0) && interrupted_at == dodge_total, "{log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::Wound { who: A, .. })), "{log:#?}");
    assert!(dodged(&log), "{log:#?}");
    let (log, _, fought) = run(&setup(&text, &[("interrupted_action", "void_if_unable")]), &faces, dodge());
    fought.unwrap();
    assert!(!dodged(&log), "{log:#?}");
}

#[test]
fn n_is_fixed_and_the_penalty_is_per_extra_action() {
    // rule: OD6-ACT-1, OD6-ACT-2, OD6-ACT-4
    let text = duel("", "skills = { brawling = \"4D\" }\nactions_allotment = 2", "");
    let setup = setup(&text, &[]);
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    let code = |n: u8, state: &mut State| {
        state.fighters[0].declared = n;
        attack::action_code(&setup, state, A, fray_rules::opend6::setup::SkillId::BRAWLING, false, 0)
    };
    assert_eq!(code(2, &mut state), DieCode::new(4, 0));
    assert_eq!(code(4, &mut state), DieCode::new(2, 0));
    let one = self::setup(&duel("", "skills = { brawling = \"4D\" }", ""), &[]);
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&one);
    state.fighters[0].declared = 4;
    assert_eq!(attack::multi_penalty(&one.combatants[0], state.fighter(A)), 3);
}

// --- MOVE, DIFF, ATK ----------------------------------------------------------------------

fn difficulty_of(setup: &Setup, state: &State, who: CombatantId, plan: &AttackPlan) -> i32 {
    let weapon = &setup.combatants[who.index()].weapons[plan.weapon as usize];
    let band = attack::band(setup, state, who, plan.target, weapon).expect("in reach");
    let base = attack::active_base(&setup.options, state.fighter(plan.target), weapon.close())
        .map_or_else(|| attack::passive(&setup.options, &setup.combatants[plan.target.index()]), |b| b.0);
    (base + attack::modifiers(setup, state, who, plan, band).fixed_total()).max(3)
}

fn shooter(b: &str, distance: i32) -> (Setup, State) {
    let text = duel("", &format!("skills = {{ firearms = \"4D\" }}{BLASTER}"), b)
        .replace("position = 2", &format!("position = {distance}"));
    let setup = setup(&text, &[]);
    let state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    (setup, state)
}

#[test]
fn range_bands_on_the_line_or_given() {
    // rule: OD6-MOVE-1, OD6-MOVE-3, OD6-MOVE-5
    let shot = AttackPlan::new(B, 0);
    for (d, expected) in [(3, 5), (4, 10), (10, 10), (11, 15), (30, 15), (31, 20), (120, 20)] {
        let (setup, state) = shooter("", d);
        assert_eq!(difficulty_of(&setup, &state, A, &shot), expected, "at {d} m");
    }
    let (setup, state) = shooter("", 121);
    assert!(attack::illegal(&setup, &state, A, &shot, true).is_some());
    // Fists reach only Point Blank.
    assert!(attack::illegal(&setup, &state, A, &AttackPlan::new(B, 1), true).is_some());
    // `bands`: the scenario gives the band; positions do not matter.
    let text = duel("", &format!("skills = {{ firearms = \"4D\" }}{BLASTER}"), "")
        .replace("position = 2", "position = 500")
        + "\n[[bands]]\na = \"A\"\nb = \"B\"\nband = \"long\"\n";
    let bands = self::setup(&text, &[("position_model", "bands")]);
    let state = <OpenD6 as fray_engine::Ruleset>::initial_state(&bands);
    assert_eq!(difficulty_of(&bands, &state, A, &shot), 20);
    // A pair's band holds both ways, and for that pair only: a third is at Short (1) from each.
    let three = self::setup(
        &(text.replace("order = [\"A\", \"B\"]", "order = [\"A\", \"B\", \"C\"]")
            + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 0\n"),
        &[("position_model", "bands")],
    );
    assert_eq!([three.band(0, 1), three.band(1, 0)], [three.band(0, 1); 2]);
    assert_ne!(three.band(0, 1), 1);
    assert_eq!([three.band(2, 0), three.band(0, 2), three.band(2, 1), three.band(1, 2)], [1; 4]);
}

#[test]
fn cover_posture_environment_and_the_floor() {
    // rule: OD6-DIFF-2, OD6-DIFF-4, OD6-DIFF-5, OD6-DIFF-6
    let shot = AttackPlan::new(B, 0);
    let at = |b: &str, d: i32| {
        let (setup, state) = shooter(b, d);
        difficulty_of(&setup, &state, A, &shot)
    };
    // Short range, so the base 10 shows: one entry from each cover category, added.
    assert_eq!(at("cover = { smoke = \"light\" }", 5), 13);
    assert_eq!(at("cover = { smoke = \"thick\", light = \"moonlit\" }", 5), 22);
    assert_eq!(at("cover = { smoke = \"very_thick\", light = \"dark\", object = 75 }", 5), 46);
    assert_eq!(at("cover = { object = 25 }", 5), 13);
    assert_eq!(at("cover = { object = 50 }", 5), 16);
    // 100 % hidden: no direct attack.
    let (setup, state) = shooter("cover = { object = 100 }", 5);
    assert!(attack::illegal(&setup, &state, A, &shot, true).is_some());
    // Posture: crouching +3; prone −6 close, +6 far.
    assert_eq!(at("posture = \"crouching\"", 5), 13);
    assert_eq!(at("posture = \"prone\"", 5), 4);
    assert_eq!(at("posture = \"prone\"", 20), 21);
    // A blind target −12 at Point Blank: 10 − 5 − 12 = −7 → the floor of 3.
    assert_eq!(at("blind = true", 2), 3);
    // A blind attacker +12; gravity; the weapon's own modifier.
    let (mut setup, state) = shooter("", 5);
    setup.combatants[0].blind = true;
    assert_eq!(difficulty_of(&setup, &state, A, &shot), 22);
    setup.combatants[0].blind = false;
    for (g, d) in [
        (fray_rules::opend6::setup::Gravity::Low, 7),
        (fray_rules::opend6::setup::Gravity::Zero, 4),
        (fray_rules::opend6::setup::Gravity::Heavy, 20),
    ] {
        setup.gravity = g;
        assert_eq!(difficulty_of(&setup, &state, A, &shot), d);
    }
    setup.gravity = fray_rules::opend6::setup::Gravity::Normal;
    setup.combatants[0].weapons[0].difficulty_mod = 5;
    assert_eq!(difficulty_of(&setup, &state, A, &shot), 15);
}

#[test]
fn rolled_difficulty_modifiers() {
    // rule: OD6-DIFF-3
    let text = duel("", &format!("skills = {{ firearms = \"4D\" }}{BLASTER}"), "cover = { object = 50 }")
        .replace("position = 2", "position = 5");
    let s =
        script(&[(0, Choice::Count(1)), (0, attack_on(B, 0)), (1, Choice::Count(1)), (1, Choice::Act(Action::Pass))]);
    // Attack 4D [1,1,1] W[2]; then 2D plain for the 50 % cover: 6 + 5 = 11 → difficulty 21.
    let (log, _, fought) = run(&setup(&text, &[("difficulty_modifiers", "rolled")]), &[1, 1, 1, 2, 6, 5], s);
    fought.unwrap();
    assert_eq!(attacks(&log), [(A, 5, 21, false)]);
    assert_eq!(roll::dice_value(3), 10);
    assert_eq!(roll::dice_value(-2), -6);
}

#[test]
fn the_optional_passive_defence_bonus() {
    // rule: OD6-DIFF-7
    let shot = AttackPlan::new(B, 0);
    for (dodge, expected) in [("4D", 10), ("5D", 11), ("7D", 12)] {
        let (mut setup, state) = shooter(&format!("skills = {{ dodge = \"{dodge}\" }}"), 5);
        assert_eq!(difficulty_of(&setup, &state, A, &shot), 10);
        setup.options.passive_defense_bonus = true;
        assert_eq!(difficulty_of(&setup, &state, A, &shot), expected, "dodge {dodge}");
    }
}

#[test]
fn skills_per_weapon_and_untrained_use() {
    // rule: OD6-ATK-3, OD6-ATK-1
    let (setup, state) = shooter("", 5);
    let skill = setup.combatants[0].weapons[0].skill;
    assert_eq!(skill.name(), "firearms");
    assert_eq!(attack::action_code(&setup, &state, A, skill, false, 0), DieCode::new(4, 0));
    // B has no firearms listed: it rolls Agility (3D by default).
    assert_eq!(attack::action_code(&setup, &state, B, skill, false, 0), DieCode::new(3, 0));
    assert_eq!(setup.combatants[0].weapons[1].skill.name(), "brawling");
}

#[test]
fn aiming_adds_a_die_a_round_up_to_three() {
    // rule: OD6-ATK-4
    let text = duel("", &format!("skills = {{ firearms = \"4D\" }}{BLASTER}"), "")
        .replace("max_rounds = 1", "max_rounds = 5")
        .replace("position = 2", "position = 20");
    let mut entries = Vec::new();
    for _ in 0..4 {
        entries.push((0, Choice::Count(1)));
        entries.push((0, Choice::Act(Action::Aim(B))));
        entries.push((1, Choice::Count(1)));
        entries.push((1, Choice::Act(Action::Pass)));
    }
    entries.push((0, Choice::Count(1)));
    entries.push((0, attack_on(B, 0)));
    let (log, _, fought) = run(&setup(&text, &[]), &[1; 40], script(&entries));
    fought.unwrap();
    let aims: Vec<u8> = log
        .iter()
        .filter_map(|e| match e {
            Event::Aimed { rounds, .. } => Some(*rounds),
            _ => None,
        })
        .collect();
    assert_eq!(aims, [1, 2, 3, 3]);
    let code = log.iter().find_map(|e| match e {
        Event::Attack { roll, .. } => Some(roll.code),
        _ => None,
    });
    assert_eq!(code, Some(DieCode::new(7, 0)));
    // Aiming must be the only action; a round without aiming or attacking resets the count.
    let mut entries = vec![
        (0, Choice::Count(1)),
        (0, Choice::Act(Action::Aim(B))),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Pass)),
    ];
    entries.extend([
        (0, Choice::Count(1)),
        (0, Choice::Act(Action::Pass)),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Pass)),
    ]);
    entries.extend([(0, Choice::Count(1)), (0, Choice::Act(Action::Aim(B)))]);
    let (log, _, fought) =
        run(&setup(&text.replace("max_rounds = 5", "max_rounds = 3"), &[]), &[1; 40], script(&entries));
    fought.unwrap();
    let aims: Vec<u8> = log
        .iter()
        .filter_map(|e| match e {
            Event::Aimed { rounds, .. } => Some(*rounds),
            _ => None,
        })
        .collect();
    assert_eq!(aims, [1, 1]);
    let s = script(&[(0, Choice::Count(2)), (0, Choice::Act(Action::Aim(B)))]);
    let (_, _, result) = run(&setup(&text, &[]), &[1; 40], s);
    assert!(matches!(result, Err(FightError::IllegalChoice { .. })));
}

// --- DEF ----------------------------------------------------------------------------------

#[test]
fn full_defence_adds_ten_and_must_be_alone() {
    // rule: OD6-DEF-8, OD6-DEF-4, OD6-DEF-1
    // B (first) makes a full dodge 3D [2,2] W[2] = 6 → 16; A's shot from 5 m uses it: 16.
    let text = duel("", &format!("skills = {{ firearms = \"4D\" }}{BLASTER}"), "")
        .replace("order = [\"A\", \"B\"]", "order = [\"B\", \"A\"]")
        .replace("position = 2", "position = 5");
    let s = script(&[
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Defend { kind: DefKind::Dodge, full: true })),
        (0, Choice::Count(1)),
        (0, attack_on(B, 0)),
    ]);
    let (log, _, fought) = run(&setup(&text, &[]), &[2, 2, 2, 1, 1, 1, 2], s);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: B, full: true, value: 16, .. })));
    assert_eq!(attacks(&log)[0].2, 16);
    // A partial dodge of 8 gives 8 (it replaces 10 though lower).
    let s = script(&[
        (1, Choice::Count(2)),
        (1, Choice::Act(Action::Defend { kind: DefKind::Dodge, full: false })),
        (1, Choice::Act(Action::Pass)),
        (0, Choice::Count(1)),
        (0, attack_on(B, 0)),
    ]);
    let (log, _, fought) = run(&setup(&text, &[]), &[5, 3, 1, 1, 1, 2], s);
    fought.unwrap();
    assert_eq!(attacks(&log)[0].2, 8);
    // A full defence is not allowed with N = 2.
    let s = script(&[(1, Choice::Count(2)), (1, Choice::Act(Action::Defend { kind: DefKind::Dodge, full: true }))]);
    let (_, _, result) = run(&setup(&text, &[]), &[], s);
    assert!(matches!(result, Err(FightError::IllegalChoice { .. })));
}

#[test]
fn a_block_counts_only_against_close_combat() {
    // rule: OD6-DEF-5, OD6-DEF-4
    let (setup, mut state) = shooter("skills = { brawling = \"4D\" }", 3);
    state.fighters[1].block = Some(fray_rules::opend6::Active { value: 20, full: false, weapon: None });
    // The shot ignores the block: 10 − 5.
    assert_eq!(difficulty_of(&setup, &state, A, &AttackPlan::new(B, 0)), 5);
    // The punch uses it: 20 − 5.
    assert_eq!(difficulty_of(&setup, &state, A, &AttackPlan::new(B, 1)), 15);
    // A dodge applies to both; close combat takes the higher.
    state.fighters[1].dodge = Some(fray_rules::opend6::Active { value: 12, full: false, weapon: None });
    assert_eq!(difficulty_of(&setup, &state, A, &AttackPlan::new(B, 0)), 7);
    assert_eq!(difficulty_of(&setup, &state, A, &AttackPlan::new(B, 1)), 15);
    let mut vs_ranged = setup.clone();
    vs_ranged.options.block_vs_ranged = true;
    assert_eq!(difficulty_of(&vs_ranged, &state, A, &AttackPlan::new(B, 0)), 15);
}

#[test]
fn the_defence_window_ends_at_the_next_turn_or_when_helpless() {
    // rule: OD6-DEF-3, OD6-DEF-1
    let text = duel("", "", "skills = { dodge = \"3D\" }").replace("max_rounds = 1", "max_rounds = 2");
    let s = script(&[
        (0, Choice::Count(1)),
        (0, Choice::Act(Action::Pass)),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Defend { kind: DefKind::Dodge, full: false })),
        (0, Choice::Count(1)),
        (0, Choice::Act(Action::Pass)),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Pass)),
    ]);
    let (log, state, fought) = run(&setup(&text, &[]), &[3, 3, 3], s);
    fought.unwrap();
    // Still in force after A's round-2 turn, gone once B's own round-2 turn starts.
    let set = log.iter().position(|e| matches!(e, Event::DefenceSet { who: B, .. })).unwrap();
    let b_turn2 = log.iter().rposition(|e| matches!(e, Event::TurnStarted { who: B, .. })).unwrap();
    assert!(set < b_turn2);
    assert!(state.fighter(B).dodge.is_none());
    // Unconsciousness ends it at once (default), or not (`defense_ends_when_helpless = false`).
    let setup1 = setup(&text, &[]);
    let mut st = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup1);
    st.fighters[1].dodge = Some(fray_rules::opend6::Active { value: 15, full: false, weapon: None });
    let mut keep = st.clone();
    <OpenD6 as fray_engine::Ruleset>::apply(&setup1, &mut st, &Event::Unconscious { who: B, until: 9 });
    assert!(st.fighter(B).dodge.is_none());
    let setup2 = self::setup(&text, &[("defense_ends_when_helpless", "false")]);
    <OpenD6 as fray_engine::Ruleset>::apply(&setup2, &mut keep, &Event::Unconscious { who: B, until: 9 });
    assert!(keep.fighter(B).dodge.is_some());
}

#[test]
fn a_free_partial_defence_when_dimly_aware() {
    // rule: OD6-DEF-10
    let text = duel("", &format!("skills = {{ firearms = \"4D\" }}{BLASTER}"), "skills = { dodge = \"3D\" }")
        .replace("position = 2", "position = 5");
    let s =
        script(&[(0, Choice::Count(1)), (0, attack_on(B, 0)), (1, Choice::Count(1)), (1, Choice::Act(Action::Pass))]);
    // Attack [1,1,1] W[2] = 5; B's free dodge [4,4] W[4] = 12 (no multi-action penalty).
    let (log, state, fought) =
        run(&setup(&text, &[("free_partial_defense", "true")]), &[1, 1, 1, 2, 4, 4, 4], s.clone());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: B, value: 12, full: false, .. })));
    assert_eq!(attacks(&log)[0].2, 12);
    assert_eq!(state.fighter(B).used, 0);
    let (log, _, fought) = run(&setup(&text, &[]), &[1, 1, 1, 2, 4, 4, 4], s);
    fought.unwrap();
    assert_eq!(attacks(&log)[0].2, 10);
}

// --- DMG, TRACK ---------------------------------------------------------------------------

#[test]
fn strength_damage_and_zero_damage_dice() {
    // rule: OD6-DMG-3, OD6-DMG-5, OD6-DMG-2
    let with = |strength: &str, lifting: Option<&str>| {
        let skills = lifting.map_or(String::new(), |l| format!("skills = {{ lifting = \"{l}\" }}"));
        let s = setup(&duel("", &format!("strength = \"{strength}\"\n{skills}"), ""), &[]);
        (roll::strength_damage(&s.combatants[0], &s.options), {
            let mut o = s.options.clone();
            o.strength_damage_strength_only = true;
            roll::strength_damage(&s.combatants[0], &o)
        })
    };
    assert_eq!(with("3D", None).0, 2);
    assert_eq!(with("3D", Some("6D+2")), (3, 2));
    assert_eq!(with("4D+2", None).0, 2);
    assert_eq!(with("5D", None).0, 3);
    assert_eq!(with("1D", None).0, 1);
    // A sweep (−3D) on Strength Damage 1D leaves no dice: the roll is its pips, at least 0.
    let text = duel("", "strength = \"1D\"\nskills = { brawling = \"6D\" }", "");
    let setup = setup(&text, &[]);
    let sweep = AttackPlan { mode: Mode::SweepClose, ..AttackPlan::new(B, 0) };
    assert_eq!(attack::damage_code(&setup, A, &sweep, false), DieCode::new(-2, 0));
    let mut min = setup.clone();
    min.options.zero_damage_min_1d = true;
    assert_eq!(attack::damage_code(&min, A, &sweep, false), DieCode::new(1, 0));
    let mut dice = Scripted::faces([]);
    let r = roll::roll(&mut dice, A, "damage", DieCode::new(-2, 1), 0, OneReads::Cancel, &setup.options).unwrap();
    assert_eq!(r.total, 1);
}

#[test]
fn negative_resistance_readings() {
    // rule: OD6-DMG-8
    let text =
        duel("", "skills = { brawling = \"6D\" }\nstrength = \"2D\"", "strength = \"1D\"\nresistance_mod = \"-2D-4\"");
    // A punches: [6,6,6,6,6] W[5] = 35 vs 5; damage 1D... Strength 2D → 1D: W[2] + bonus 6 = 8;
    // B's resistance code −1D−4 rolls nothing: max(−4, 0)... the pips alone, 0.
    let faces = [6, 6, 6, 6, 6, 5, 2];
    let total = |sets: &[(&str, &str)]| {
        let (log, state, ended) = run(&setup(&text, sets), &faces, Script::new(2));
        // Every scripted die is used, and the fight stops for want of the next.
        assert!(ended.unwrap_err().to_string().ends_with("ran out of faces after 7 dice"));
        let resist = log.iter().find_map(|e| match e {
            Event::Resist { total, .. } => Some(*total),
            _ => None,
        });
        (resist, state.fighter(B).difficulty_penalty)
    };
    // The code −1D−4 has no dice: its pips, −4, stand (add_to_injury), or count as 0.
    assert_eq!(total(&[]), (Some(-4), 0));
    assert_eq!(total(&[("negative_resistance", "zero")]), (Some(0), 0));
    assert_eq!(total(&[("negative_resistance", "difficulty_penalty")]), (Some(0), 4));
    // A code with one die and negative pips, 1D−1, totals as any roll: W[3] − 1 = 2.
    let one_die =
        duel("", "skills = { brawling = \"6D\" }\nstrength = \"2D\"", "strength = \"1D\"\nresistance_mod = \"-1\"");
    let (log, _, _) = run(&setup(&one_die, &[]), &[6, 6, 6, 6, 6, 5, 2, 3], Script::new(2));
    let resist = log.iter().find_map(|e| match e {
        Event::Resist { total, roll: Some(r), .. } => Some((r.code, *total)),
        _ => None,
    });
    assert_eq!(resist, Some((DieCode::new(1, -1), 2)), "{log:#?}");
    // Direct: a negative total adds to D, is zero, or becomes a difficulty penalty.
    let mut dice = Scripted::faces([1, 1]);
    let o = Options::default();
    let r = roll::roll(&mut dice, B, "resistance", DieCode::new(2, -8), 0, OneReads::Plain, &o).unwrap();
    assert_eq!(r.total, -6);
    let text2 =
        duel("", "skills = { brawling = \"6D\" }\nstrength = \"2D\"", "strength = \"1D\"\nresistance_mod = \"1D-8\"");
    let faces2 = [6, 6, 6, 6, 6, 5, 2, 1, 1];
    let margin = |sets: &[(&str, &str)]| {
        let (log, state, ended) = run(&setup(&text2, sets), &faces2, Script::new(2));
        // The fight ends, or stops for want of an attack's dice once every scripted die is used.
        assert!(
            ended.as_ref().map_or_else(
                |e| e.to_string() == "dice for attack: the script ran out of faces after 9 dice",
                |_| true
            ),
            "{ended:?}"
        );
        let m = log.iter().find_map(|e| match e {
            Event::Wound { margin, .. } => Some(*margin),
            _ => None,
        });
        (m, state.fighter(B).difficulty_penalty)
    };
    // Resistance 2D−8: [1] W[1] is a Critical Failure on a damage roll: 0 + (−8) = −8.
    assert_eq!(margin(&[]), (Some(16), 0));
    assert_eq!(margin(&[("negative_resistance", "zero")]), (Some(8), 0));
    assert_eq!(margin(&[("negative_resistance", "difficulty_penalty")]), (Some(8), 8));
}

#[test]
fn injury_bands_killing_blow_and_stun_weapons() {
    // rule: OD6-DMG-7, OD6-DMG-9, OD6-DMG-10, OD6-TRACK-3, OD6-TRACK-1
    let o = Options::default();
    let level = |d, stun, o: &Options| roll::injury(o, Level::Healthy, 0, 0, d, stun, false).map(|i| i.to);
    let expected = [
        (1, Level::Stunned),
        (3, Level::Stunned),
        (4, Level::Wounded),
        (8, Level::Wounded),
        (9, Level::Incapacitated),
        (12, Level::Incapacitated),
        (13, Level::Dead),
        (15, Level::Dead),
        (16, Level::Dead),
    ];
    for (d, l) in expected {
        assert_eq!(level(d, false, &o), Some(l), "D = {d}");
    }
    assert_eq!(level(0, false, &o), None);
    // The band itself has no level for D ≤ 0.
    assert_eq!((roll::band(0), roll::band(-3), roll::band(1)), (None, None, Some(Level::Stunned)));
    let mut no_kb = o.clone();
    no_kb.killing_blow = false;
    assert_eq!(level(13, false, &no_kb), Some(Level::MortallyWounded));
    // Stun weapon, full ladder: Stunned, Stunned, Wounded, Severely, Incapacitated; 12·D rounds out.
    for (d, l) in [
        (2, Level::Stunned),
        (6, Level::Stunned),
        (10, Level::Wounded),
        (14, Level::SeverelyWounded),
        (20, Level::Incapacitated),
    ] {
        assert_eq!(level(d, true, &o), Some(l), "stun D = {d}");
    }
    assert_eq!(roll::injury(&o, Level::Healthy, 0, 0, 5, true, false).map(|i| i.unconscious_rounds), Some(60));
    let mut bands = o.clone();
    bands.result_bands = true;
    for (d, l) in [
        (2, Level::Stunned),
        (6, Level::Stunned),
        (10, Level::Stunned),
        (14, Level::Wounded),
        (20, Level::Incapacitated),
    ] {
        assert_eq!(level(d, true, &bands), Some(l), "result_bands stun D = {d}");
    }
    assert_eq!(Level::SeverelyWounded.index(), 3);
    assert_eq!(Level::from_index(9), Level::Dead);
}

#[test]
fn a_stun_weapon_knocks_out_for_twelve_rounds_per_point() {
    // rule: OD6-DMG-10, OD6-COND-2
    let text = duel(
        "",
        &format!(
            "skills = {{ firearms = \"6D\" }}{}",
            BLASTER.replace("ranges", "stun_capable = true\nstun = true\nranges")
        ),
        "strength = \"1D\"",
    )
    .replace("position = 2", "position = 5");
    // Shot [1,1,1,1,1] W[5] = 10 vs 10: hit; damage 4D [1,1,1] W[2] = 5 vs 1D W[2]: D = 3 → Stunned.
    let faces = [1, 1, 1, 1, 1, 5, 1, 1, 1, 2, 2];
    let (log, state, fought) = run(&setup(&text, &[]), &faces, Script::new(2));
    fought.unwrap();
    assert!(log.contains(&Event::Unconscious { who: B, until: 1 + 36 }));
    assert_eq!(state.fighter(B).level, Level::Stunned);
}

#[test]
fn stacking_on_the_ladder() {
    // rule: OD6-TRACK-2
    use Level::*;
    use fray_rules::opend6::options::Stacking;
    let rows = [
        (Healthy, [Stunned, Wounded, SeverelyWounded, Incapacitated, MortallyWounded, Dead]),
        (Stunned, [Stunned, Wounded, SeverelyWounded, Incapacitated, MortallyWounded, Dead]),
        (Wounded, [SeverelyWounded, SeverelyWounded, SeverelyWounded, Incapacitated, MortallyWounded, Dead]),
        (SeverelyWounded, [Incapacitated, Incapacitated, Incapacitated, Incapacitated, MortallyWounded, Dead]),
        (Incapacitated, [MortallyWounded, MortallyWounded, MortallyWounded, MortallyWounded, MortallyWounded, Dead]),
        (MortallyWounded, [Dead; 6]),
    ];
    let incoming = [Stunned, Wounded, SeverelyWounded, Incapacitated, MortallyWounded, Dead];
    for (cur, row) in rows {
        for (inc, expected) in incoming.iter().zip(row) {
            assert_eq!(roll::stack(cur, *inc, Stacking::Ladder), expected, "{cur:?} + {inc:?}");
        }
    }
    assert_eq!(roll::stack(Stunned, Stunned, Stacking::OrEqual), Wounded);
    assert_eq!(roll::stack(Stunned, Stunned, Stacking::Strict), Stunned);
    assert_eq!(roll::stack(Wounded, Wounded, Stacking::Strict), SeverelyWounded);
    assert_eq!(roll::stack(SeverelyWounded, SeverelyWounded, Stacking::Strict), SeverelyWounded);
    assert_eq!(roll::stack(MortallyWounded, MortallyWounded, Stacking::Strict), MortallyWounded);
    assert_eq!(roll::stack(Incapacitated, Wounded, Stacking::Strict), MortallyWounded);
}

#[test]
fn penalties_do_not_add_up() {
    // rule: OD6-TRACK-4, OD6-TRACK-5
    let setup = setup(&duel("", "skills = { brawling = \"5D\" }", ""), &[]);
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    state.round = 3;
    let pen = |state: &State| fray_rules::opend6::level_penalty(&setup.options, state.fighter(A), 3);
    state.fighters[0].level = Level::Wounded;
    state.fighters[0].stun_until = 3;
    assert_eq!(pen(&state), 1);
    state.fighters[0].level = Level::SeverelyWounded;
    assert_eq!(pen(&state), 2);
    state.fighters[0].level = Level::Stunned;
    assert_eq!(pen(&state), 1);
    state.fighters[0].stun_until = 2;
    assert_eq!(pen(&state), 0);
    state.fighters[0].level = Level::Incapacitated;
    assert_eq!(pen(&state), 3);
    // It adds to the multi-action penalty on an action roll.
    state.fighters[0].declared = 2;
    assert_eq!(
        attack::action_code(&setup, &state, A, fray_rules::opend6::setup::SkillId::BRAWLING, false, 0),
        DieCode::new(1, 0)
    );
}

#[test]
fn mortal_survival_checks() {
    // rule: OD6-TRACK-7, OD6-TRACK-8
    let text = duel("", "policy = { move = \"hold\" }", "wound_level = \"mortally_wounded\"\nstrength = \"2D\"")
        .replace("max_rounds = 1", "max_rounds = 30")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 1000\npolicy = { move = \"hold\" }\n";
    let checks = |sets: &[(&str, &str)], faces: &[u32]| {
        let (log, state, fought) = run(&setup(&text, sets), faces, Script::new(3));
        fought.unwrap();
        let rounds: Vec<(u32, i32, bool)> = {
            let mut round = 0;
            let mut out = Vec::new();
            for e in &log {
                match e {
                    Event::RoundStarted { round: r } => round = *r,
                    Event::Survival { need, died, .. } => out.push((round, *need, *died)),
                    _ => {}
                }
            }
            out
        };
        (rounds, state.fighter(B).level)
    };
    // Per minute: he fell before round 1 (round 0 → checks at the end of rounds 12 and 24).
    let (rounds, _) = checks(&[], &[3, 3, 3, 3, 3, 3, 3, 3]);
    assert_eq!(rounds.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>(), [(12, 1), (24, 2)]);
    // Per round: against 1, 2, 3, …; [1] W[1] is 0 < 1: dead, and dead is final.
    let (rounds, level) = checks(&[("mortal_check", "per_round")], &[1, 1]);
    assert_eq!(rounds, [(1, 1, true)]);
    assert_eq!(level, Level::Dead);
    let (rounds, _) = checks(&[("mortal_check", "off")], &[]);
    assert!(rounds.is_empty());
}

#[test]
fn massive_damage_restricts_for_two_rounds() {
    // rule: OD6-TRACK-9
    let text = duel(
        "",
        "skills = { brawling = \"6D\" }\nstrength = \"4D\"",
        "strength = \"2D\"\nskills = { stamina = \"3D\" }",
    )
    .replace("max_rounds = 1", "max_rounds = 2");
    // A punches: [6,6,6,6,6] W[5] = 35 vs 5 → bonus 6; damage 2D [3] W[3] = 6 + 6 = 12 vs 2D [1] W[2] = 3:
    // D = 9 → Incapacitated (0 → 4, two levels or more in one round); stay-up 3D [6,6] W[6,4] = 22.
    let faces = [6, 6, 6, 6, 6, 5, 3, 3, 1, 2, 6, 6, 6, 4];
    let (log, state, fought) = run(
        &setup(&text.replace("max_rounds = 2", "max_rounds = 1"), &[("massive_damage", "true")]),
        &faces,
        Script::new(2),
    );
    fought.unwrap();
    assert!(log.contains(&Event::Restricted { who: B, from: 2, until: 3, recovered: false }));
    // A successful recovery roll cuts it short, and the log says so.
    let scenario = fray_rules::opend6::OpenD6Scenario(setup(&text, &[("massive_damage", "true")]));
    let line = scenario.line(&Event::Restricted { who: B, from: 2, until: 2, recovered: true }).text.unwrap();
    assert!(line.contains("recovers") && line.contains("from round 3"), "{line}");
    assert!(fray_rules::opend6::policy::restricted(
        &setup(&text, &[("massive_damage", "true")]),
        &{
            let mut s = state.clone();
            s.round = 2;
            s
        },
        B
    ));
    let (log, _, fought) = run(&setup(&text.replace("max_rounds = 2", "max_rounds = 1"), &[]), &faces, Script::new(2));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Restricted { .. })));
}

#[test]
fn body_points() {
    // rule: OD6-TRACK-10, OD6-TRACK-11, OD6-DMG-6, OD6-DMG-10
    assert_eq!(roll::body_killing_blow(30), 28);
    assert_eq!(roll::body_level(24, 30), Level::Stunned);
    assert_eq!(roll::body_level(25, 30), Level::Healthy);
    assert_eq!(roll::body_level(12, 30), Level::Wounded);
    assert_eq!(roll::body_level(0, 30), Level::Dead);
    assert_eq!(roll::body_level(1, 200), Level::MortallyWounded);
    // Every level's edges, at max 100 (p = BP).
    use Level::*;
    let edges = [
        (81, Healthy),
        (80, Stunned),
        (60, Stunned),
        (59, Wounded),
        (40, Wounded),
        (39, SeverelyWounded),
        (20, SeverelyWounded),
        (19, Incapacitated),
        (10, Incapacitated),
        (9, MortallyWounded),
        (1, MortallyWounded),
    ];
    for (bp, level) in edges {
        assert_eq!(roll::body_level(bp, 100), level, "BP {bp}/100");
    }
    let o = Options { body_points: true, ..Options::default() };
    assert_eq!(roll::injury(&o, Level::Healthy, 30, 30, 28, false, false).map(|i| i.to), Some(Level::Dead));
    assert_eq!(
        roll::injury(&o, Level::Healthy, 30, 30, 6, false, false).map(|i| (i.to, i.bp)),
        Some((Level::Stunned, 24))
    );
    // A stun weapon still knocks out for 12·D rounds on the Body Points track (OD6-DMG-10).
    assert_eq!(roll::injury(&o, Level::Healthy, 30, 30, 5, true, false).map(|i| i.unconscious_rounds), Some(60));
    // Resistance is the armour alone; with none, no roll. Maximum rolled: 20 + Strength.
    let text = duel("", "skills = { brawling = \"6D\" }\nstrength = \"2D\"", "strength = \"2D\"");
    let setup = setup(&text, &[("damage_track", "body_points")]);
    assert_eq!(
        attack::resistance_code(&setup, B, fray_rules::opend6::setup::DamageType::Physical, false),
        DieCode::new(0, 0)
    );
    // BP rolls: A 2D [3] W[4] = 7 → 27, B [2] W[2] = 4 → 24. A punches 35; damage 1D W[3] + 6 = 9.
    let faces = [3, 4, 2, 2, 6, 6, 6, 6, 6, 5, 3];
    let (log, state, fought) = run(&setup, &faces, Script::new(2));
    assert_eq!(fought.unwrap_err().to_string(), "dice for attack: the script ran out of faces after 11 dice");
    assert!(log.iter().any(|e| matches!(e, Event::BodyPoints { who: B, max: 24, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Resist { who: B, roll: None, total: 0 })));
    assert_eq!(state.fighter(B).bp, 15);
    assert_eq!(state.fighter(B).level, Level::Stunned);
}

#[test]
fn held_characters_may_only_escape() {
    // rule: OD6-COND-3, OD6-SPECIAL-10
    let text = duel("", "skills = { brawling = \"6D\" }\nstrength = \"3D\"", "strength = \"2D\"")
        .replace("max_rounds = 1", "max_rounds = 2");
    let grab = Choice::Act(Action::Attack(AttackPlan { mode: Mode::Grab, ..AttackPlan::new(B, 0) }));
    // A grabs: [6,6,6,6,6] W[5] = 35 vs 5 + 6 = 11, no damage; B is held.
    let s = script(&[(0, Choice::Count(1)), (0, grab), (1, Choice::Count(1)), (1, attack_on(A, 0))]);
    let (_, _, result) = run(&setup(&text, &[]), &[6, 6, 6, 6, 6, 5], s);
    assert!(matches!(result, Err(FightError::IllegalChoice { who: B, .. })));
    // The AI escapes: Strength 2D [6] W[5] = 11 vs A's 3D [1,1] W[2] = 4: free. Ties go to the holder.
    let s = script(&[(0, Choice::Count(1)), (0, grab)]);
    let (log, state, fought) =
        run(&setup(&text.replace("max_rounds = 2", "max_rounds = 1"), &[]), &[6, 6, 6, 6, 6, 5, 6, 5, 1, 1, 2], s);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Held { who: B, by: Some(A) })));
    assert!(log.iter().any(|e| matches!(e, Event::Opposed { who: B, what: "escape", ok: true, against: 4, .. })));
    assert_eq!(state.fighter(B).held_by, None);
    let s = script(&[(0, Choice::Count(1)), (0, grab)]);
    let (log, _, fought) =
        run(&setup(&text.replace("max_rounds = 2", "max_rounds = 1"), &[]), &[6, 6, 6, 6, 6, 5, 1, 3, 1, 1, 2], s);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Opposed { what: "escape", ok: false, against: 4, .. })));
    // `no_move`: the held character acts normally but cannot move.
    let no_move = setup(&text, &[("hold_restricts", "no_move")]);
    let s = script(&[(0, Choice::Count(1)), (0, grab), (1, Choice::Count(1)), (1, attack_on(A, 0))]);
    let (log, _, fought) = run(&no_move, &[6, 6, 6, 6, 6, 5, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1, 2, 1, 1, 2], s);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Attack { attacker: B, .. })));
}

#[test]
fn a_tackle_deals_damage_and_the_holder_squeezes() {
    // rule: OD6-SPECIAL-10
    let text = duel("", "skills = { brawling = \"6D\" }\nstrength = \"3D\"", "strength = \"5D\"")
        .replace("max_rounds = 1", "max_rounds = 2");
    let tackle = Choice::Act(Action::Attack(AttackPlan { mode: Mode::Tackle, ..AttackPlan::new(B, 0) }));
    // Tackle 35 vs 5 + 3: held and damage 2D [1] W[2] + 6 = 9 vs 5D [6,6,6,6] W[5] = 29.
    let s = script(&[(0, Choice::Count(1)), (0, tackle), (1, Choice::Count(1)), (1, Choice::Act(Action::Pass))]);
    let faces = [6, 6, 6, 6, 6, 5, 1, 2, 6, 6, 6, 6, 5, 2, 2, 2, 2, 2, 1, 1];
    let (log, _, fought) = run(&setup(&text, &[]), &faces, s);
    assert_eq!(fought.unwrap_err().to_string(), "dice for escape: the script ran out of faces after 20 dice");
    assert!(log.iter().any(|e| matches!(e, Event::Held { who: B, by: Some(A) })));
    assert!(log.iter().any(|e| matches!(e, Event::Damage { target: B, bonus: 6, .. })));
    // In round 2 the AI squeezes: Strength Damage 2D, no roll to hit, no bonus.
    let squeezes = log.iter().filter(|e| matches!(e, Event::Acted { who: A, action: Action::Squeeze })).count();
    assert_eq!(squeezes, 1, "{log:#?}");
}

#[test]
fn knockdown_push_and_the_strength_rule() {
    // rule: OD6-SPECIAL-9, OD6-DIFF-5
    let text =
        duel("", "skills = { brawling = \"6D\" }\nstrength = \"3D\"", "strength = \"2D\"\nskills = { dodge = \"3D\" }");
    let knock = AttackPlan { mode: Mode::Knockdown, ..AttackPlan::new(B, 0) };
    let s = script(&[
        (0, Choice::Count(1)),
        (0, Choice::Act(Action::Attack(knock))),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Defend { kind: DefKind::Dodge, full: false })),
    ]);
    // 35 vs 5 + 6: no damage; B prone, −2D on his next Agility roll (dodge 3D → 1D).
    let (log, state, fought) = run(&setup(&text, &[]), &[6, 6, 6, 6, 6, 5, 4], s);
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Damage { .. })));
    assert!(log.contains(&Event::PostureChanged {
        who: B,
        posture: fray_rules::opend6::setup::Posture::Prone,
        forced: true
    }));
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: B, roll, .. } if roll.code == DieCode::new(1, 0))));
    assert!(!state.fighter(B).knock_pending);
    // Standing up after a knockdown costs an action.
    assert!(state.fighter(B).forced_down);
    // A stronger target cannot be knocked down without takedown training.
    let strong = setup(&duel("", "skills = { brawling = \"6D\" }\nstrength = \"2D\"", "strength = \"3D\""), &[]);
    let st = <OpenD6 as fray_engine::Ruleset>::initial_state(&strong);
    assert!(attack::illegal(&strong, &st, A, &knock, true).is_some());
    let mut trained = strong.clone();
    trained.combatants[0].takedown_training = true;
    assert!(attack::illegal(&trained, &st, A, &knock, true).is_none());
    // A push: +1D, no fall.
    let push = AttackPlan { mode: Mode::Push, ..AttackPlan::new(B, 0) };
    let setup2 = setup(&text, &[]);
    let st = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup2);
    assert_eq!(difficulty_of(&setup2, &st, A, &push), 8);
    assert_eq!(difficulty_of(&setup2, &st, A, &knock), 11);
}

// --- SPECIAL, GEAR ------------------------------------------------------------------------

const RIFLE: &str = r#"
[[combatants.weapons]]
name = "rifle"
skill = "firearms"
damage = "5D"
ranges = [30, 100, 300]
burst = true
full_auto = true
multi_fire_max = 2
ammo_max = 12
"#;

#[test]
fn fire_modes_change_difficulty_damage_and_ammunition() {
    // rule: OD6-SPECIAL-2, OD6-SPECIAL-3, OD6-SPECIAL-4, OD6-SPECIAL-5, OD6-GEAR-1
    let text =
        duel("", &format!("skills = {{ firearms = \"5D\" }}{RIFLE}"), "").replace("position = 2", "position = 10");
    let setup = setup(&text, &[]);
    let state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    let weapon = &setup.combatants[0].weapons[0];
    let plan = |mode| AttackPlan { mode, ..AttackPlan::new(B, 0) };
    let cases = [
        (Mode::Normal, 10, 5, 3),
        (Mode::BurstSingle, 10, 3, 1),
        (Mode::FullAuto, 4, 7, 10),
        (Mode::Multi(2), 4, 7, 3),
        (Mode::SweepRanged, 4, 2, 10),
    ];
    for (mode, difficulty, dice, ammo) in cases {
        assert_eq!(difficulty_of(&setup, &state, A, &plan(mode)), difficulty, "{mode:?}");
        assert_eq!(attack::damage_code(&setup, A, &plan(mode), false).dice, dice, "{mode:?}");
        assert_eq!(attack::ammo_needed(weapon, plan(mode).mode), ammo, "{mode:?}");
    }
    // A sweep uses the ammunition of the weapon's mode: without full auto a burst's (5 here),
    // without a burst too one more than its multi-fire (3).
    let mut w = weapon.clone();
    (w.full_auto, w.burst_ammo) = (false, 5);
    assert_eq!(attack::ammo_needed(&w, Mode::SweepRanged), 5);
    w.burst = false;
    assert_eq!(attack::ammo_needed(&w, Mode::SweepRanged), 3);
    // And any one of the three lets a weapon sweep; none, not.
    let sheet = &setup.combatants[0];
    let sweeps = |full_auto: bool, burst: bool, multi: u8| {
        let mut w = weapon.clone();
        (w.full_auto, w.burst, w.multi_fire_max) = (full_auto, burst, multi);
        attack::mode_fits(sheet, &setup.combatants[1], &w, Mode::SweepRanged, false)
    };
    assert_eq!([sweeps(true, false, 0), sweeps(false, true, 0), sweeps(false, false, 2)], [true; 3]);
    assert!(!sweeps(false, false, 0));
    // Not enough rounds left: the mode cannot be used; none left, the weapon cannot fire.
    let mut low = state.clone();
    low.fighters[0].weapons[0].ammo = Some(5);
    assert!(attack::illegal(&setup, &low, A, &plan(Mode::FullAuto), true).is_some());
    assert!(attack::illegal(&setup, &low, A, &plan(Mode::Normal), true).is_none());
    low.fighters[0].weapons[0].ammo = Some(0);
    assert!(attack::illegal(&setup, &low, A, &plan(Mode::Normal), true).is_some());
    let mut untracked = setup.clone();
    untracked.options.ammo_tracking = false;
    assert!(attack::illegal(&untracked, &low, A, &plan(Mode::Normal), true).is_none());
    // Full auto under `no_active_defense`: the firer may not defend that round.
    let mut nd = setup.clone();
    nd.options.full_auto_no_defense = true;
    let mut st = state.clone();
    <OpenD6 as fray_engine::Ruleset>::apply(
        &nd,
        &mut st,
        &Event::Attack {
            attacker: A,
            target: B,
            weapon: 0,
            plan: plan(Mode::FullAuto),
            roll: Default::default(),
            base: 10,
            difficulty: 4,
            terms: Default::default(),
            hit: false,
        },
    );
    assert!(st.fighter(A).no_defense);
    // A fired burst uses 3 rounds of the 12.
    let s =
        script(&[(0, Choice::Count(1)), (0, attack_on(B, 0)), (1, Choice::Count(1)), (1, Choice::Act(Action::Pass))]);
    let (_, state, fought) = run(&setup, &[1, 1, 1, 1, 2], s);
    fought.unwrap();
    assert_eq!(state.fighter(A).weapons[0].ammo, Some(9));
}

#[test]
fn close_combat_manoeuvres() {
    // rule: OD6-SPECIAL-6, OD6-SPECIAL-7, OD6-SPECIAL-8, OD6-SPECIAL-1
    let text = duel(
        "",
        "skills = { melee_combat = \"5D\", brawling = \"4D\" }\nstrength = \"3D\"\n[[combatants.weapons]]\nname = \"sword\"\nskill = \"melee_combat\"\ndamage = \"1D\"\nstrength_plus = true\nsharp = true",
        "",
    );
    let setup = setup(&text, &[]);
    let state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    let plan = |mode| AttackPlan { mode, ..AttackPlan::new(B, 0) };
    for (mode, difficulty, dice) in [(Mode::AllOut, 3, 4), (Mode::Lunge, 8, 2), (Mode::SweepClose, 3, 0)] {
        assert_eq!(difficulty_of(&setup, &state, A, &plan(mode)), difficulty, "{mode:?}");
        assert_eq!(attack::damage_code(&setup, A, &plan(mode), false).dice, dice, "{mode:?}");
    }
    // All-out needs N = 1.
    assert!(attack::illegal(&setup, &state, A, &plan(Mode::AllOut), false).is_some());
    // One manoeuvre per attack unless `maneuver_stacking = free`.
    let both = AttackPlan { mode2: Mode::Lunge, ..plan(Mode::SweepClose) };
    assert!(attack::illegal(&setup, &state, A, &both, true).is_some());
    let mut free = setup.clone();
    free.options.stacking_free = true;
    assert!(attack::illegal(&free, &state, A, &both, true).is_none());
    assert_eq!(difficulty_of(&free, &state, A, &both), 3);
    // Stacked, their damage dice add up: all-out's +1D and a lunge's −1D leave the weapon's 3D.
    let stacked = AttackPlan { mode2: Mode::Lunge, ..plan(Mode::AllOut) };
    assert_eq!(attack::damage_code(&free, A, &stacked, false).dice, 3);
    // After an all-out attack, attacks on him use 10 until his next turn: no defence allowed.
    let s = script(&[(0, Choice::Count(1)), (0, Choice::Act(Action::Attack(plan(Mode::AllOut))))]);
    let (_, st, fought) = run(&setup, &[1, 1, 1, 1, 2, 1, 1, 2], s);
    assert_eq!(fought.unwrap_err().to_string(), "dice for Wild Die: the script ran out of faces after 8 dice");
    assert!(st.fighter(A).no_defense);
}

#[test]
fn called_shots_and_hit_locations() {
    // rule: OD6-SPECIAL-11, OD6-SPECIAL-12, OD6-DMG-4
    let (setup, state) = shooter("", 5);
    let called = |c| AttackPlan { called: c, ..AttackPlan::new(B, 0) };
    for (c, difficulty, fixed) in [
        (Called::Location(Loc::Head), 13, 12),
        (Called::Location(Loc::Heart), 22, 12),
        (Called::Location(Loc::Chest), 10, 0),
        (Called::Location(Loc::Arm), 13, -2),
        (Called::Location(Loc::Leg), 13, -1),
        (Called::Location(Loc::Hand), 22, -2),
        (Called::Small { size: 1, disarm: false }, 13, 0),
        (Called::Small { size: 2, disarm: false }, 22, 0),
        (Called::Small { size: 3, disarm: false }, 34, 0),
    ] {
        assert_eq!(difficulty_of(&setup, &state, A, &called(c)), difficulty, "{c:?}");
        assert_eq!(attack::called_mods(c, &setup.options).1, fixed, "{c:?}");
    }
    assert!(!attack::bonus_applies(Called::Location(Loc::Arm)));
    assert!(attack::bonus_applies(Called::Location(Loc::Head)));
    // The small-target damage effect: +1D.
    assert_eq!(attack::damage_code(&setup, A, &called(Called::Small { size: 1, disarm: false }), false).dice, 5);
    // Hit-location effects (option): a chest hit of Wounded or worse costs the next round's actions.
    let text = duel("", &format!("skills = {{ firearms = \"6D\" }}{BLASTER}"), "strength = \"1D\"")
        .replace("position = 2", "position = 5")
        .replace("max_rounds = 1", "max_rounds = 2");
    let chest = Choice::Act(Action::Attack(called(Called::Location(Loc::Chest))));
    let s = script(&[(0, Choice::Count(1)), (0, chest)]);
    // 6D [6,6,6,6,6] W[5] = 35 vs 10: bonus 5; damage 4D [1,1,1] W[2] = 5 + 5 = 10 vs 1D W[2]: D 8.
    let mut faces = vec![6, 6, 6, 6, 6, 5, 1, 1, 1, 2, 2];
    faces.extend([1; 30]);
    let (log, state, fought) = run(&self::setup(&text, &[("hit_location_effects", "true")]), &faces, s.clone());
    fought.unwrap();
    assert!(log.contains(&Event::LocationEffect { who: B, loc: Loc::Chest }));
    assert_eq!(state.fighter(B).no_actions_round, 2);
    assert!(log.contains(&Event::TurnLost { who: B }));
    let (log, _, fought) = run(&self::setup(&text, &[]), &faces, s);
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::LocationEffect { .. })));
    // A leg effect: −1 to initiative totals from the next round (a leg hit of Wounded: 4D
    // [2,2,2] W[2] = 8 − 1 against 1D W[2]: D 5).
    let leg = Choice::Act(Action::Attack(called(Called::Location(Loc::Leg))));
    let mut faces = vec![4, 4, 4, 3, 3, 3, 6, 6, 6, 6, 6, 5, 2, 2, 2, 2, 2];
    faces.extend([1; 40]);
    let sets = [("hit_location_effects", "true"), ("initiative_method", "reroll_each_round")];
    let (log, _, fought) = run(&self::setup(&text, &sets), &faces, script(&[(0, Choice::Count(1)), (0, leg)]));
    eprintln!("{fought:?}");
    let bonuses: Vec<i32> = log
        .iter()
        .filter_map(|e| match e {
            Event::Initiative { who: B, bonus, .. } => Some(*bonus),
            _ => None,
        })
        .collect();
    assert!(log.contains(&Event::LocationEffect { who: B, loc: Loc::Leg }), "{log:#?}");
    assert_eq!(bonuses.len(), 2, "{log:#?}");
    assert_eq!(bonuses[1], bonuses[0] - 1, "{log:#?}");
    // An arm or hand effect: −1 to brawling, melee, firearms, missile, throwing and lifting
    // totals, nothing else; a leg's is not on skills.
    use fray_rules::opend6::setup::SkillId;
    let combat =
        [SkillId::BRAWLING, SkillId::MELEE, SkillId::FIREARMS, SkillId::MISSILE, SkillId::THROWING, SkillId::LIFTING];
    let mut me = state.fighter(B).clone();
    for (loc, each) in [(Loc::Arm, 1), (Loc::Hand, 1), (Loc::Leg, 0)] {
        me.locations = 1 << loc as u8;
        for skill in combat {
            assert_eq!(attack::location_penalty(&me, skill), each, "{loc:?} {skill:?}");
        }
        assert_eq!(attack::location_penalty(&me, SkillId::DODGE), 0, "{loc:?}");
    }
}

#[test]
fn a_disarm_lets_the_target_move_up_to_keep_his_weapon() {
    // rule: OD6-SPECIAL-11, OD6-ACT-7
    let text = duel("", &format!("skills = {{ firearms = \"6D\" }}{BLASTER}"), &format!("strength = \"2D\"{BLASTER}"))
        .replace("position = 2", "position = 5");
    let disarm = Choice::Act(Action::Attack(AttackPlan {
        called: Called::Small { size: 1, disarm: true },
        ..AttackPlan::new(B, 0)
    }));
    let s = script(&[(0, Choice::Count(1)), (0, disarm)]);
    // 35 vs 13: damage 4D [1,1,1] W[2] = 5 + 5 = 10 (no injury); B moves up: 2D [6] W[5] = 11 > 10.
    let faces = [6, 6, 6, 6, 6, 5, 1, 1, 1, 2, 6, 5];
    let (log, state, fought) = run(&setup(&text, &[]), &faces, s.clone());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Opposed { who: B, what: "keep item", ok: true, .. })));
    assert!(!log.iter().any(|e| matches!(e, Event::Wound { .. })));
    assert!(state.fighter(B).weapons[0].drawn);
    // He used his turn to move up.
    assert!(state.fighter(B).turn_done);
    // Failing, he drops it and must ready it again.
    let faces = [6, 6, 6, 6, 6, 5, 1, 1, 1, 2, 1, 5];
    let (log, state, fought) = run(&setup(&text, &[]), &faces, s);
    fought.unwrap();
    assert!(log.contains(&Event::Dropped { who: B, weapon: 0 }));
    assert!(!state.fighter(B).weapons[0].drawn);
}

#[test]
fn knockout_halves_the_level() {
    // rule: OD6-SPECIAL-13, OD6-TRACK-3
    let o = Options::default();
    let ko = |d| roll::injury(&o, Level::Healthy, 0, 0, d, false, true).map(|i| (i.to, i.unconscious_rounds));
    assert_eq!(ko(2), None);
    assert_eq!(ko(5), Some((Level::Stunned, u32::MAX)));
    assert_eq!(ko(10), Some((Level::Wounded, u32::MAX)));
    assert_eq!(ko(14), Some((Level::Wounded, u32::MAX)));
    assert_eq!(ko(20), Some((Level::SeverelyWounded, u32::MAX)));
    let mut bands = o.clone();
    bands.result_bands = true;
    let kb = |d| roll::injury(&bands, Level::Healthy, 0, 0, d, false, true).map(|i| i.to);
    assert_eq!(
        [kb(2), kb(5), kb(10), kb(14), kb(20)],
        [None, Some(Level::Stunned), Some(Level::Stunned), Some(Level::Wounded), Some(Level::Wounded)]
    );
    let (setup, _) = shooter("", 5);
    assert_eq!(attack::called_mods(Called::Knockout, &setup.options), (1, 0, 0));
    let mut bonus = setup.options.clone();
    bonus.knockout_head_bonus = true;
    assert_eq!(attack::called_mods(Called::Knockout, &bonus), (1, 12, 0));
}

#[test]
fn readying_costs_an_action() {
    // rule: OD6-GEAR-2
    let text = duel(
        "",
        &format!(
            "skills = {{ firearms = \"5D\" }}{}",
            BLASTER.replace("ranges", "drawn = false\nammo_max = 2\nammo = 0\nstun_capable = true\nranges")
        ),
        "",
    )
    .replace("position = 2", "position = 5");
    let setup = setup(&text, &[]);
    let s = script(&[
        (0, Choice::Count(3)),
        (0, Choice::Act(Action::Ready(0, fray_rules::opend6::Ready::Draw))),
        (0, Choice::Act(Action::Ready(0, fray_rules::opend6::Ready::Reload))),
        (0, Choice::Act(Action::Ready(0, fray_rules::opend6::Ready::Switch))),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Pass)),
    ]);
    let (_, state, fought) = run(&setup, &[], s);
    fought.unwrap();
    let w = state.fighter(A).weapons[0];
    assert_eq!((w.drawn, w.ammo, w.stun, state.fighter(A).used), (true, Some(2), true, 3));
    // An undrawn weapon cannot attack.
    let st = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    assert!(attack::illegal(&setup, &st, A, &AttackPlan::new(B, 0), true).is_some());
}

/// Why `who` may not take `action` now (`None`: he may), asked for a turn's only action with a
/// move of up to 30 m, under the defend-only restriction or not, with free posture changes or not.
fn why_not(
    s: &Setup,
    st: &State,
    who: CombatantId,
    defend_only: bool,
    free_ok: bool,
    action: Action,
) -> Option<String> {
    let request = fray_rules::opend6::Request::Act {
        remaining: 1,
        only: true,
        move_m: 30,
        free_move_m: 0,
        held: false,
        defend_only,
        free_ok,
    };
    fray_rules::opend6::policy::illegal_action(s, st, who, &request, &action)
}

/// A (side a, at 0) with a blaster (2 shots), a sword and an undrawn club; B (side b) at 10; C, A's ally,
/// at 1; D (side b) at −2. A's own legality checks, in a round of A's.
fn legality_duel() -> (Setup, State) {
    let weapons = format!(
        "skills = {{ melee_combat = \"4D\", medicine = \"3D\" }}{}[[combatants.weapons]]\nname = \"sword\"\n\
         skill = \"melee_combat\"\ndamage = \"1D\"\n[[combatants.weapons]]\nname = \"club\"\nskill = \
         \"melee_combat\"\ndamage = \"1D\"\ndrawn = false\n",
        BLASTER.replace("ranges", "ammo_max = 2\nranges")
    );
    let text = duel("", &weapons, "").replace("position = 2", "position = 10")
        + "\n[[combatants]]\nname = \"C\"\nside = \"a\"\nposition = 1\n\n[[combatants]]\nname = \"D\"\nside = \
           \"b\"\nposition = -2\n";
    let s = setup(&text, &[]);
    let mut st = <OpenD6 as fray_engine::Ruleset>::initial_state(&s);
    st.round = 1;
    (s, st)
}

#[test]
fn what_an_action_needs_besides_its_roll() {
    // rule: OD6-DEF-5, OD6-GEAR-2, OD6-ATK-4, OD6-DIFF-5
    let (s, mut st) = legality_duel();
    let ok = |st: &State, action| why_not(&s, st, A, false, true, action).is_none();
    // A parry needs a drawn melee weapon: the sword, not the blaster nor the undrawn club.
    let block = |w| Action::Defend { kind: DefKind::Block(Some(w)), full: false };
    assert!(ok(&st, block(1)));
    assert!(!ok(&st, block(0)));
    assert!(!ok(&st, block(2)));
    // Readying: drawing an undrawn weapon, reloading one that is not full.
    use fray_rules::opend6::Ready;
    assert!(ok(&st, Action::Ready(2, Ready::Draw)));
    assert!(!ok(&st, Action::Ready(1, Ready::Draw)));
    st.fighters[0].weapons[0].ammo = Some(1);
    assert!(ok(&st, Action::Ready(0, Ready::Reload)));
    st.fighters[0].weapons[0].ammo = Some(s.combatants[0].weapons[0].ammo_max.unwrap());
    assert!(!ok(&st, Action::Ready(0, Ready::Reload)));
    // Aiming: at someone else, with no move before it this round.
    assert!(ok(&st, Action::Aim(B)));
    assert!(!ok(&st, Action::Aim(A)));
    st.fighters[0].free_moved = true;
    assert!(!ok(&st, Action::Aim(B)));
    st.fighters[0].free_moved = false;
    // Postures: a free change to another posture; one forced down stands up with an action
    // instead, and only then.
    use fray_rules::opend6::setup::Posture;
    assert!(ok(&st, Action::Posture(Posture::Crouching)));
    assert!(!ok(&st, Action::Posture(Posture::Standing)));
    assert!(why_not(&s, &st, A, false, false, Action::Posture(Posture::Crouching)).is_some());
    assert!(!ok(&st, Action::StandUp));
    st.fighters[0].posture = Posture::Crouching;
    assert!(!ok(&st, Action::StandUp));
    st.fighters[0].posture = Posture::Prone;
    st.fighters[0].forced_down = true;
    assert!(ok(&st, Action::StandUp));
    assert!(!ok(&st, Action::Posture(Posture::Standing)));
}

#[test]
fn one_restricted_to_defence_may_move_only_away_from_the_enemies_still_in() {
    // rule: OD6-TRACK-5, OD6-TRACK-9
    // B, the enemy in the fight, stands at 10; D, the other enemy, is out at −2; C is A's ally.
    let (s, mut st) = legality_duel();
    st.fighters[3].unconscious_until = 5;
    let moving = |to: i32| why_not(&s, &st, A, true, true, Action::Move { to, free: false }).is_none();
    assert!(!moving(3), "toward B");
    assert!(moving(-3), "away from B");
    assert!(moving(-1), "toward D, who is out, and away from B");
    assert!(moving(20), "past B, as far from him as before");
    // Not restricted, he goes where he likes within his move.
    assert!(why_not(&s, &st, A, false, true, Action::Move { to: 3, free: false }).is_none());
}

#[test]
fn the_recovery_roll_is_for_massive_damage_once_a_round() {
    // rule: OD6-TRACK-9
    let (s, mut st) = legality_duel();
    let ok = |st: &State| why_not(&s, st, A, false, true, Action::Recover).is_none();
    assert!(!ok(&st), "not under massive damage");
    st.fighters[0].restricted = Some((1, 2));
    assert!(ok(&st));
    st.fighters[0].recovery_round = 1;
    assert!(!ok(&st), "rolled this round");
    st.round = 2;
    assert!(ok(&st), "a new round");
}

#[test]
fn a_squeeze_needs_a_hold_from_an_earlier_round() {
    // rule: OD6-SPECIAL-10
    let (s, mut st) = legality_duel();
    let ok = |st: &State| why_not(&s, st, A, false, true, Action::Squeeze).is_none();
    assert!(!ok(&st), "no one held");
    st.fighters[1].held_by = Some(A);
    st.fighters[1].held_round = 1;
    assert!(!ok(&st), "held this round");
    st.round = 2;
    assert!(ok(&st), "held since the last round");
    st.fighters[1].held_by = Some(CombatantId(2));
    assert!(!ok(&st), "held by C, not A");
}

// --- HEAL, RES ----------------------------------------------------------------------------

#[test]
fn first_aid_moves_the_patient_up_a_level() {
    // rule: OD6-HEAL-2
    let text = duel("", "skills = { medicine = \"4D\" }\nmedkit = \"1D\"", "wound_level = \"incapacitated\"")
        + "\n[[combatants]]\nname = \"C\"\nside = \"c\"\nposition = 900\npolicy = { move = \"hold\" }\n";
    let text = text.replace("side = \"b\"", "side = \"a\"");
    let s = script(&[(0, Choice::Count(1)), (0, Choice::Act(Action::FirstAid(B)))]);
    // Medicine 4D + medkit 1D = 5D: [6,6,4,2] W[3] = 21 ≥ 20 (Incapacitated): now Severely Wounded.
    let (log, state, fought) = run(&setup(&text, &[]), &[6, 6, 4, 2, 3], s);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Aid { difficulty: 20, ok: true, to: Level::SeverelyWounded, .. })));
    assert_eq!(state.fighter(B).level, Level::SeverelyWounded);
    // Once per patient per day; only within Point Blank.
    let s =
        script(&[(0, Choice::Count(2)), (0, Choice::Act(Action::FirstAid(B))), (0, Choice::Act(Action::FirstAid(B)))]);
    let (_, _, result) = run(&setup(&text, &[]), &[1, 1, 1, 1, 2], s);
    assert!(matches!(result, Err(FightError::IllegalChoice { .. })));
    let far = text.replacen("position = 2", "position = 4", 1);
    let s = script(&[(0, Choice::Count(1)), (0, Choice::Act(Action::FirstAid(B)))]);
    let (_, _, result) = run(&setup(&far, &[]), &[], s);
    assert!(matches!(result, Err(FightError::IllegalChoice { .. })));
}

#[test]
fn first_aid_treats_a_wound_and_revival_an_unconsciousness() {
    // rule: OD6-HEAL-2
    // C, A's ally, stands beside him.
    let (s, mut st) = legality_duel();
    let c = CombatantId(2);
    let ok = |st: &State, action| why_not(&s, st, A, false, true, action).is_none();
    // First aid: a patient hurt and alive.
    assert!(!ok(&st, Action::FirstAid(c)), "healthy");
    st.fighters[2].level = Level::Wounded;
    assert!(ok(&st, Action::FirstAid(c)));
    assert!(!ok(&st, Action::Revive(c)), "awake");
    st.fighters[2].level = Level::Dead;
    assert!(!ok(&st, Action::FirstAid(c)), "dead");
    // Reviving treats the unconsciousness alone: of a patient below Incapacitated.
    st.fighters[2].level = Level::Stunned;
    st.fighters[2].unconscious_until = 5;
    assert!(ok(&st, Action::Revive(c)));
    st.fighters[2].level = Level::Incapacitated;
    assert!(!ok(&st, Action::Revive(c)));
}

#[test]
fn a_quiet_minute_clears_stunned() {
    // rule: OD6-HEAL-1
    let text = duel("", "policy = { move = \"hold\" }", "wound_level = \"stunned\"\npolicy = { move = \"hold\" }")
        .replace("max_rounds = 1", "max_rounds = 14")
        .replace("position = 2", "position = 900");
    let (log, state, fought) = run(&setup(&text, &[]), &[], Script::new(2));
    fought.unwrap();
    let round = log.iter().fold((0, None), |(r, found), e| match e {
        Event::RoundStarted { round } => (*round, found),
        Event::Recovered { who: B } if found.is_none() => (r, Some(r)),
        _ => (r, found),
    });
    assert_eq!(round.1, Some(13));
    assert_eq!(state.fighter(B).level, Level::Healthy);
    // The quiet minute counts from the stun: one idle for twenty rounds while healthy, then
    // stunned, starts from none (else the next round would clear it).
    let s = setup(&text, &[]);
    let mut st = <OpenD6 as fray_engine::Ruleset>::initial_state(&s);
    st.fighters[1].level = Level::Healthy;
    st.fighters[1].idle_rounds = 20;
    let stun = Event::Wound {
        who: B,
        by: Some(A),
        margin: 2,
        incoming: Level::Stunned,
        from: Level::Healthy,
        to: Level::Stunned,
        bp: 0,
    };
    <OpenD6 as fray_engine::Ruleset>::apply(&s, &mut st, &stun);
    assert_eq!(st.fighter(B).idle_rounds, 0);
}

#[test]
fn fate_points_double_the_characters_own_dice() {
    // rule: OD6-RES-3, OD6-RES-4, OD6-DMG-2
    let text = duel(
        "",
        "skills = { brawling = \"4D+2\" }\nstrength = \"3D+2\"\nfate_points = 2\n[[combatants.weapons]]\nname = \"knife\"\nskill = \"melee_combat\"\ndamage = \"1D\"\nstrength_plus = true",
        "",
    );
    let setup = setup(&text, &[]);
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    let brawling = fray_rules::opend6::setup::SkillId::BRAWLING;
    state.fighters[0].declared = 1;
    assert_eq!(attack::action_code(&setup, &state, A, brawling, true, 0), DieCode::new(8, 4));
    state.fighters[0].declared = 2;
    assert_eq!(attack::action_code(&setup, &state, A, brawling, true, 0), DieCode::new(7, 4));
    // The knife: Strength Damage 2D doubled to 4D, plus the knife's 1D (not doubled).
    assert_eq!(attack::damage_code(&setup, A, &AttackPlan::new(B, 0), true), DieCode::new(5, 0));
    // Spent on the attack roll (one per roll, no CP with it): one FP left; a climactic one
    // doubles every roll for the rest of the round.
    let s = script(&[(0, Choice::Count(1)), (0, attack_on(B, 1)), (0, Choice::Fate(1))]);
    let (log, state, fought) = run(&setup, &[1; 40], s);
    fought.unwrap();
    assert!(
        log.iter().any(
            |e| matches!(e, Event::Attack { attacker: A, roll, .. } if roll.fate && roll.code == DieCode::new(8, 4))
        )
    );
    assert_eq!(state.fighter(A).fp, 1);
    let s = script(&[(0, Choice::Count(2)), (0, attack_on(B, 1)), (0, Choice::Fate(2)), (0, attack_on(B, 1))]);
    let (log, state, fought) = run(&setup, &[1; 60], s);
    fought.unwrap();
    let codes: Vec<DieCode> = log
        .iter()
        .filter_map(|e| match e {
            Event::Attack { attacker: A, roll, .. } => Some(roll.code),
            _ => None,
        })
        .collect();
    assert_eq!(codes, [DieCode::new(7, 4), DieCode::new(7, 4)]);
    assert!(state.fighter(A).climactic_used);
}

#[test]
fn the_ai_spends_no_points_by_default_or_up_to_a_threshold() {
    // rule: OD6-RES-5, OD6-RES-1, OD6-RES-2
    let text = duel("", &format!("skills = {{ firearms = \"4D\" }}\ncharacter_points = 9{BLASTER}"), "")
        .replace("position = 2", "position = 5");
    // Attack [1,1,1] W[2] = 5 < 10.
    let (log, _, fought) = run(&setup(&text, &[]), &[1, 1, 1, 2, 1, 1, 2], Script::new(2));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Points { .. })));
    // `threshold`: one CP die at a time while the total is short: CP 3 → 8, CP 1 → 9, then cap 2.
    let (log, state, fought) = run(
        &setup(&text, &[("ai_point_spending", "threshold"), ("cp_cap_per_roll", "2")]),
        &[1, 1, 1, 2, 3, 1, 1, 1, 2],
        Script::new(2),
    );
    fought.unwrap();
    assert_eq!(log.iter().filter(|e| matches!(e, Event::Points { who: A, cp: 1, .. })).count(), 2);
    assert_eq!(state.fighter(A).cp, 7);
    assert_eq!(attacks(&log)[0].1, 9);
}

#[test]
fn acting_restarts_the_quiet_minute_and_the_mortally_wounded_stay_down_after_aid() {
    // rule: OD6-HEAL-1, OD6-HEAL-2, OD6-TRACK-7
    let setup = setup(&duel("", "", "wound_level = \"stunned\""), &[]);
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    let apply = |state: &mut State, e: Event| <OpenD6 as fray_engine::Ruleset>::apply(&setup, state, &e);
    for round in 1..=12 {
        apply(&mut state, Event::RoundStarted { round });
        if round == 6 {
            apply(&mut state, Event::Acted { who: B, action: Action::Wait });
        }
    }
    apply(&mut state, Event::RoundStarted { round: 13 });
    assert_eq!(state.fighter(B).idle_rounds, 6);
    // First aid raises a Mortally Wounded patient to Incapacitated, still unconscious.
    let text = duel("", "skills = { medicine = \"6D\" }", "wound_level = \"mortally_wounded\"")
        .replace("side = \"b\"", "side = \"a\"")
        + "\n[[combatants]]\nname = \"C\"\nside = \"c\"\nposition = 900\npolicy = { move = \"hold\" }\n";
    let s = script(&[(0, Choice::Count(1)), (0, Choice::Act(Action::FirstAid(B)))]);
    let (log, state, fought) = run(&self::setup(&text, &[]), &[6, 6, 6, 6, 6, 5], s);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Aid { difficulty: 30, ok: true, to: Level::Incapacitated, .. })));
    assert!(state.fighter(B).unconscious());
    assert_eq!(state.fighter(B).mortal_since, None);
}

#[test]
fn a_climactic_fate_point_doubles_damage_too() {
    // rule: OD6-RES-4, OD6-RES-3
    let text = duel("", "skills = { brawling = \"4D\" }\nstrength = \"4D\"\nfate_points = 1", "strength = \"6D\"");
    let s = script(&[(0, Choice::Count(1)), (0, attack_on(B, 0)), (0, Choice::Fate(2))]);
    let (log, state, fought) = run(&setup(&text, &[]), &[3; 40], s);
    fought.unwrap();
    let damage = log
        .iter()
        .find_map(|e| match e {
            Event::Damage { roll, .. } => Some(roll.clone()),
            _ => None,
        })
        .unwrap();
    // Strength Damage 2D doubled: 4D, with the Fate Point marked and no CP asked.
    assert_eq!((damage.code, damage.fate, damage.cp), (DieCode::new(4, 0), true, 0));
    assert_eq!(state.fighter(A).fp, 0);
}

#[test]
fn a_burst_or_full_auto_that_does_not_fit_the_magazine_is_refused() {
    // rule: OD6-GEAR-1
    let gun = |extra: &str| {
        duel("", "", &format!("[[combatants.weapons]]\nname = \"gun\"\nskill = \"firearms\"\ndamage = \"4D\"\n{extra}"))
    };
    // The default burst (3 rounds) in a 2-round magazine: the error names the magazine.
    let text = gun("ammo_max = 2\nburst = true");
    let e = scenario::load("burst.toml", &text, &[]).expect_err("refused");
    assert_eq!((e.file.as_str(), e.source_line.trim()), ("burst.toml", "ammo_max = 2"), "{e}");
    assert!(e.message.contains("burst_ammo = 3"), "{e}");
    // A given auto_ammo larger than the magazine: the error names it.
    let text = gun("ammo_max = 20\nfull_auto = true\nauto_ammo = 25");
    let e = scenario::load("auto.toml", &text, &[]).expect_err("refused");
    assert_eq!(e.source_line.trim(), "auto_ammo = 25", "{e}");
    let line = text.lines().position(|l| l == "auto_ammo = 25").unwrap() + 1;
    assert_eq!((e.line, e.column), (line, 13), "{e}");
    // Fitting ones load.
    scenario::load("ok.toml", &gun("ammo_max = 3\nburst = true\nfull_auto = true\nauto_ammo = 3"), &[]).unwrap();
}

#[test]
fn the_holders_opposing_roll_takes_his_multi_action_penalty() {
    // rule: OD6-ACT-2, OD6-SPECIAL-10
    // A declares two actions (−1D), grabs with brawling 5D [6,6,6,6] W[5] and passes. B escapes:
    // Strength 2D [6] W[5] = 11 against A's Strength 3D − 1D = 2D [2] W[2] = 4. The holder's
    // roll is not an action, so no wound penalty would fall on it, but the multi-action penalty
    // falls on every roll (it used to be rolled at the full 3D: [2,2] W[3] = 7).
    let text = duel("", "skills = { brawling = \"6D\" }\nstrength = \"3D\"", "strength = \"2D\"");
    let grab = Choice::Act(Action::Attack(AttackPlan { mode: Mode::Grab, ..AttackPlan::new(B, 0) }));
    let s = script(&[(0, Choice::Count(2)), (0, grab), (0, Choice::Act(Action::Pass))]);
    let (log, state, result) = run(&setup(&text, &[]), &[6, 6, 6, 6, 5, 6, 5, 2, 2, 3, 1, 1, 1], s);
    result.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Held { who: B, by: Some(A) })));
    assert!(
        log.iter().any(|e| matches!(e, Event::Opposed { who: B, what: "escape", ok: true, against: 4, .. })),
        "{log:#?}"
    );
    assert_eq!(state.fighter(B).held_by, None);
}

#[test]
fn multi_fire_is_minus_three_per_extra_shot() {
    // rule: OD6-SPECIAL-4, OD6-DIFF-3
    // At medium range (base 10 + 5): e extra shots give −3e, so three give 15 − 9 = 6 (it used to
    // be −10, the fixed value of a 3D code, as for gravity).
    let rifle = RIFLE.replace("multi_fire_max = 2", "multi_fire_max = 3");
    let text =
        duel("", &format!("skills = {{ firearms = \"5D\" }}{rifle}"), "").replace("position = 2", "position = 50");
    let setup = setup(&text, &[]);
    let state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    let plan = |mode| AttackPlan { mode, ..AttackPlan::new(B, 0) };
    for (e, difficulty) in [(0, 15), (1, 12), (2, 9), (3, 6)] {
        let mode = if e == 0 { Mode::Normal } else { Mode::Multi(e) };
        assert_eq!(difficulty_of(&setup, &state, A, &plan(mode)), difficulty, "{mode:?}");
    }
}

#[test]
fn an_aim_broken_inside_a_tied_step_holds_until_its_end() {
    // rule: OD6-INIT-4, OD6-ATK-4
    // Under `aim_interrupted_by = any_attack`: B aims at A in round 1; in round 2 both roll the
    // same initiative (every face 2), so they act in one step, A first. A's shot at B breaks
    // B's aim, but only when the step ends: B still fires with the aim's +1D (4D + 1D = 5D).
    let text = duel(
        "",
        &format!("skills = {{ firearms = \"4D\" }}{BLASTER}"),
        &format!("skills = {{ firearms = \"4D\" }}{BLASTER}"),
    )
    .replace("max_rounds = 1", "max_rounds = 2")
    .replace("order = [\"A\", \"B\"]\n", "")
    .replace("initiative_method = \"fixed_order\"", "aim_interrupted_by = \"any_attack\"")
    .replace("position = 2", "position = 20");
    let s = script(&[
        (0, Choice::Count(1)),
        (0, Choice::Act(Action::Pass)),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Aim(A))),
        (0, Choice::Count(1)),
        (0, attack_on(B, 0)),
        (1, Choice::Count(1)),
        (1, attack_on(A, 0)),
    ]);
    let (log, _, result) = run(&setup(&text, &[]), &[2; 80], s);
    result.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 0)])));
    let b_code = log.iter().find_map(|e| match e {
        Event::Attack { attacker: B, roll, .. } => Some(roll.code),
        _ => None,
    });
    assert_eq!(b_code, Some(DieCode::new(5, 0)), "{log:#?}");
    let a_attack = log.iter().position(|e| matches!(e, Event::Attack { attacker: A, .. })).unwrap();
    let b_attack = log.iter().position(|e| matches!(e, Event::Attack { attacker: B, .. })).unwrap();
    assert!(a_attack < b_attack);
}

#[test]
fn first_aid_under_bands_needs_point_blank() {
    // rule: OD6-HEAL-2, OD6-MOVE-4
    // Under `position_model = bands` the medic and the patient stand at the same (default) line
    // position, but their band is Long: not adjacent, so first aid is not allowed.
    let text = |band: &str| {
        format!(
            "[rules]\nruleset = \"opend6\"\nmax_rounds = 1\n[rules.options]\nposition_model = \"bands\"\n\
             initiative_method = \"fixed_order\"\n\
             [[combatants]]\nname = \"Medic\"\nside = \"a\"\nskills = {{ medicine = \"4D\" }}\n\
             [[combatants]]\nname = \"Hurt\"\nside = \"a\"\nwound_level = \"wounded\"\n\
             [[combatants]]\nname = \"Foe\"\nside = \"b\"\npolicy = {{ move = \"hold\" }}\n\
             [[bands]]\na = \"Medic\"\nb = \"Hurt\"\nband = \"{band}\"\n"
        )
    };
    let aid = || script(&[(0, Choice::Count(1)), (0, Choice::Act(Action::FirstAid(B)))]);
    let (_, _, result) = run(&setup(&text("long"), &[]), &[1; 40], aid());
    assert!(matches!(result, Err(FightError::IllegalChoice { who: A, .. })), "{result:?}");
    // Medicine 4D [6,6,2] W[3] = 17 ≥ 15 (Wounded): the patient is now Stunned.
    let (log, _, result) = run(&setup(&text("point_blank"), &[]), &[6, 6, 2, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2], aid());
    result.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Aid { ok: true, to: Level::Stunned, .. })), "{log:#?}");
}

#[test]
fn the_loader_refuses_what_it_used_to_clamp_or_accept() {
    // rule: OD6-INIT-3, OD6-MOVE-5, OD6-SPECIAL-4, OD6-RES-1, OD6-RES-3
    let refused = |a: &str, b: &str, what: &str| {
        let text = duel("", a, b);
        let e = scenario::load("bad.toml", &text, &[]).err().unwrap_or_else(|| panic!("{what}: accepted"));
        // The error names the file and the offending line (the second `group` for a group).
        assert_eq!(e.file, "bad.toml");
        let line = text.lines().nth(e.line - 1).unwrap_or_default();
        assert!(line.starts_with(what) && e.source_line.trim() == line.trim(), "{what}: {e}");
    };
    let gun = "[[combatants.weapons]]\nname = \"gun\"\nskill = \"firearms\"\ndamage = \"4D\"\nranges = [10, 30, 120]\n";
    refused(&format!("{gun}long = true"), "", "long");
    refused(&format!("{gun}multi_fire_max = 11"), "", "multi_fire_max");
    refused(&format!("{gun}difficulty_mod = 101"), "", "difficulty_mod");
    refused("character_points = 1001", "", "character_points");
    refused("fate_points = 101", "", "fate_points");
    refused("group = \"g\"", "group = \"g\"", "group");
    let e = scenario::load("bad.toml", &duel("", "group = \"g\"", "group = \"g\""), &[]).err().unwrap();
    assert!(e.message.contains("`A` of another side"), "{e}");
    // Within bounds they load.
    let ok = duel(
        "",
        &format!(
            "character_points = 1000\nfate_points = 100\ngroup = \"g\"\n{gun}multi_fire_max = 10\ndifficulty_mod = -100"
        ),
        "group = \"h\"",
    );
    scenario::load("ok.toml", &ok, &[]).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn the_knockdown_penalty_follows_the_governing_overrides() {
    // rule: OD6-SPECIAL-9, OD6-ATK-3
    // B was knocked down: −2D on his next Agility-based roll. His scenario makes dodge a
    // Strength skill (no penalty) and search an Agility one (the penalty); brawling keeps its
    // default Agility. The penalty used to follow the default attributes only.
    let text = duel("", "", "governing = { dodge = \"strength\", search = \"agility\" }");
    let setup = setup(&text, &[]);
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&setup);
    state.fighters[1].knock_pending = true;
    let penalty = |skill| attack::action_penalty(&setup, &state, B, skill);
    use fray_rules::opend6::setup::SkillId;
    assert_eq!(penalty(SkillId::DODGE), 0);
    assert_eq!(penalty(SkillId::SEARCH), 2);
    assert_eq!(penalty(SkillId::BRAWLING), 2);
}

/// The AI, asked every Character Point question (spending none), recording the stay-up targets.
struct StayUpNeeds(Vec<Option<i32>>);

impl fray_engine::Decider<OpenD6> for StayUpNeeds {
    fn decide(
        &mut self,
        setup: &Setup,
        state: &State,
        who: CombatantId,
        request: &fray_rules::opend6::Request,
    ) -> Result<Choice, fray_engine::Pending> {
        if let fray_rules::opend6::Request::Cp { roll: fray_rules::opend6::RollFor::StayUp, need, .. } = request {
            self.0.push(*need);
        }
        if let fray_rules::opend6::Request::Cp { .. } = request {
            return Ok(Choice::Cp(0));
        }
        fray_rules::opend6::policy::Ai.decide(setup, state, who, request)
    }

    fn passes_optional(&self, setup: &Setup, who: CombatantId, request: &fray_rules::opend6::Request) -> bool {
        !matches!(request, fray_rules::opend6::Request::Cp { .. })
            && fray_rules::opend6::policy::Ai.passes_optional(setup, who, request)
    }
}

#[test]
fn the_stay_up_points_prompt_carries_the_difficulty_penalty() {
    // rule: OD6-DMG-8, OD6-TRACK-6, OD6-RES-1
    // B's resistance 0D−2 is −2: under `negative_resistance = difficulty_penalty` it counts as 0
    // and his rolls are +2 harder. A's club (0D+10, no damage bonus) gives D 10: Incapacitated,
    // and the stay-up roll's Character Point prompt shows 15 + 2 = 17 (it used to show 15).
    let text = duel(
        "",
        "skills = { melee_combat = \"6D\" }\n[[combatants.weapons]]\nname = \"club\"\nskill = \"melee_combat\"\ndamage = \"0D+10\"",
        "strength = \"0D-2\"\ncharacter_points = 3",
    );
    let setup = setup(&text, &[("negative_resistance", "difficulty_penalty"), ("damage_bonus", "off")]);
    let mut needs = StayUpNeeds(Vec::new());
    let mut fight = Fight::<OpenD6, _, _, _>::new(&setup, Scripted::faces([5; 40]), &mut needs, Record::default());
    fight.run().unwrap();
    let (state, _) = fight.into_parts();
    assert_eq!(state.fighter(B).difficulty_penalty, 2);
    assert_eq!(state.fighter(B).level, Level::Incapacitated);
    assert_eq!(needs.0, vec![Some(17)]);
}

/// Every Character Point question asked (none spent), with who was asked, for which roll and
/// the target shown; every other request goes to `inner`.
struct CpTargets<D> {
    inner: D,
    seen: Vec<(CombatantId, fray_rules::opend6::RollFor, Option<i32>)>,
}

impl<D: fray_engine::Decider<OpenD6>> fray_engine::Decider<OpenD6> for CpTargets<D> {
    fn decide(
        &mut self,
        setup: &Setup,
        state: &State,
        who: CombatantId,
        request: &fray_rules::opend6::Request,
    ) -> Result<Choice, fray_engine::Pending> {
        if let fray_rules::opend6::Request::Cp { roll, need, .. } = request {
            self.seen.push((who, *roll, *need));
            return Ok(Choice::Cp(0));
        }
        self.inner.decide(setup, state, who, request)
    }

    fn passes_optional(&self, setup: &Setup, who: CombatantId, request: &fray_rules::opend6::Request) -> bool {
        !matches!(request, fray_rules::opend6::Request::Cp { .. }) && self.inner.passes_optional(setup, who, request)
    }
}

#[test]
fn the_first_aid_points_prompt_shows_the_patients_difficulty() {
    // rule: OD6-HEAL-2, OD6-RES-1, OD6-RES-2
    // The medic A (Medicine 4D, 2 Character Points) treats B, of his side, 2 m off; the prompt
    // for points after the medicine roll shows the difficulty the patient's level sets.
    for (level, need) in [("stunned", 10), ("wounded", 15), ("severely_wounded", 15), ("incapacitated", 20)] {
        let text =
            duel("", "skills = { medicine = \"4D\" }\ncharacter_points = 2", &format!("wound_level = \"{level}\""))
                .replace("side = \"b\"", "side = \"a\"")
                + "\n[[combatants]]\nname = \"C\"\nside = \"c\"\nposition = 900\npolicy = { move = \"hold\" }\n";
        let setup = setup(&text, &[]);
        let aid = script(&[(0, Choice::Count(1)), (0, Choice::Act(Action::FirstAid(B)))]);
        let mut targets = CpTargets { inner: aid, seen: Vec::new() };
        let mut fight =
            Fight::<OpenD6, _, _, _>::new(&setup, Scripted::faces([2; 40]), &mut targets, Record::default());
        fight.run().unwrap();
        let (_, record) = fight.into_parts();
        assert!(record.0.iter().any(|e| matches!(e, Event::Aid { who: A, difficulty, .. } if *difficulty == need)));
        let asked: Vec<_> = targets.seen.iter().filter(|(who, ..)| *who == A).map(|(_, _, need)| *need).collect();
        assert_eq!(asked, vec![Some(need)], "{level}: {:?}", targets.seen);
    }
}

#[test]
fn the_recovery_points_prompt_carries_the_difficulty_penalty() {
    // rule: OD6-TRACK-9, OD6-DMG-8, OD6-RES-1
    // B's resistance 0D−2 is −2: under `negative_resistance = difficulty_penalty` it counts as 0
    // and his rolls are +2 harder. A's club (0D+10, no damage bonus) gives D 10: Incapacitated
    // in one hit, massive damage. B stays up (stamina 6D against 15 + 2) and in round 2, held to
    // defending, spends an action on the recovery roll: its Character Point prompt shows the
    // Easy 10 + 2 = 12.
    let text = duel(
        "",
        "skills = { melee_combat = \"6D\" }\n[[combatants.weapons]]\nname = \"club\"\nskill = \"melee_combat\"\ndamage = \"0D+10\"",
        "strength = \"0D-2\"\nskills = { stamina = \"6D\" }\ncharacter_points = 3",
    )
    .replace("max_rounds = 1", "max_rounds = 2");
    let setup = setup(
        &text,
        &[("negative_resistance", "difficulty_penalty"), ("damage_bonus", "off"), ("massive_damage", "true")],
    );
    // A strikes in round 1 and passes in round 2; B plays by the AI.
    let turns =
        script(&[(0, Choice::Count(1)), (0, attack_on(B, 0)), (0, Choice::Count(1)), (0, Choice::Act(Action::Pass))]);
    let mut targets = CpTargets { inner: turns, seen: Vec::new() };
    let mut fight = Fight::<OpenD6, _, _, _>::new(&setup, Scripted::faces([5; 200]), &mut targets, Record::default());
    fight.run().unwrap();
    let (state, record) = fight.into_parts();
    assert_eq!(state.fighter(B).difficulty_penalty, 2);
    let recovery = record.0.iter().find_map(|e| match e {
        Event::Recovery { who: B, difficulty, .. } => Some(*difficulty),
        _ => None,
    });
    assert_eq!(recovery, Some(12), "{:#?}", record.0);
    // The stay-up roll's prompt, then the recovery roll's.
    let asked: Vec<_> = targets
        .seen
        .iter()
        .filter(|(who, roll, _)| *who == B && *roll == fray_rules::opend6::RollFor::StayUp)
        .map(|(_, _, need)| *need)
        .collect();
    assert_eq!(asked, vec![Some(17), Some(12)], "{:?}", targets.seen);
}

#[test]
fn an_aiming_ai_that_is_wounded_fires_instead() {
    // rule: OD6-ATK-4
    // A (`actions = aim`) faces B 20 m off: unhurt, it aims. Wounded, a wound that breaks the aim
    // would come again before the +3D does, so it fires.
    let text = duel("", &format!("skills = {{ firearms = \"4D\" }}\npolicy = {{ actions = \"aim\" }}{BLASTER}"), "")
        .replace("position = 2", "position = 20");
    let s = setup(&text, &[]);
    let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&s);
    state.round = 1;
    let request = fray_rules::opend6::Request::Act {
        remaining: 1,
        only: true,
        move_m: 0,
        free_move_m: 0,
        held: false,
        defend_only: false,
        free_ok: false,
    };
    let ai = |st: &State| fray_rules::opend6::policy::ai_choice(&s, st, A, &request);
    assert_eq!(ai(&state), Choice::Act(Action::Aim(B)));
    state.fighters[0].level = Level::Wounded;
    assert!(matches!(ai(&state), Choice::Act(Action::Attack(_))), "{:?}", ai(&state));
}

/// An AI's turn with one action, its only one this round (no move).
fn only_action() -> fray_rules::opend6::Request {
    fray_rules::opend6::Request::Act {
        remaining: 1,
        only: true,
        move_m: 0,
        free_move_m: 0,
        held: false,
        defend_only: false,
        free_ok: false,
    }
}

#[test]
fn an_aiming_ai_shot_at_fires_when_a_miss_breaks_the_aim() {
    // rule: OD6-ATK-4
    // A (`actions = aim`, unhurt) faces B 20 m off. B shot at A last round and missed. Under
    // `aim_interrupted_by = any_attack` that miss broke the aim, and the next shot will break a
    // new one before its +1D is used, so A fires; under the default a miss breaks nothing and A
    // aims. An attack two rounds back is no longer fire it is under.
    let text =
        duel("", &format!("skills = {{ firearms = \"4D\" }}\npolicy = {{ actions = \"aim\" }}{BLASTER}"), BLASTER)
            .replace("position = 2", "position = 20");
    let request = only_action();
    for (sets, attacked_round, aims) in [
        (&[("aim_interrupted_by", "any_attack")][..], 2, false),
        (&[("aim_interrupted_by", "any_attack")][..], 1, true),
        (&[][..], 2, true),
    ] {
        let s = setup(&text, sets);
        let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&s);
        state.round = 3;
        state.fighters[0].attacked_round = attacked_round;
        let choice = fray_rules::opend6::policy::ai_choice(&s, &state, A, &request);
        if aims {
            assert_eq!(choice, Choice::Act(Action::Aim(B)), "{sets:?}, attacked in round {attacked_round}");
        } else {
            assert!(matches!(choice, Choice::Act(Action::Attack(_))), "{sets:?}: {choice:?}");
        }
    }
    // In fights: B (firearms 1D) fires at A every round, A acting first. Under `any_attack`, an
    // unhurt A never aims in a round after B fired at it: it fires instead of aiming for nothing.
    let fights = text.replace("max_rounds = 1", "max_rounds = 4").replace(
        "position = 20\n",
        &format!("position = 20\nskills = {{ firearms = \"1D\" }}\narmor = {{ energy = \"8D\" }}{BLASTER}"),
    );
    let s = setup(&fights, &[("aim_interrupted_by", "any_attack")]);
    let mut fired = 0;
    for seed in 1..=10 {
        let dice = fray_engine::FromSource(fray_dice::seeded(seed));
        let mut fight = Fight::<OpenD6, _, _, _>::new(&s, dice, fray_rules::opend6::policy::Ai, Record::default());
        fight.run().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let log = fight.into_parts().1.0;
        let (mut round, mut shot_at, mut hurt) = (0, 0, false);
        for e in &log {
            match e {
                Event::RoundStarted { round: r } => round = *r,
                Event::Attack { attacker, .. } if *attacker == B => shot_at = round,
                Event::Attack { attacker, .. } if *attacker == A && shot_at > 0 => fired += 1,
                Event::Wound { who, .. } if *who == A => hurt = true,
                Event::Aimed { who, .. } if *who == A && !hurt => {
                    assert!(shot_at == 0 || shot_at + 1 < round, "seed {seed}: aimed in round {round}: {log:#?}")
                }
                _ => {}
            }
        }
    }
    assert!(fired > 0);
}

#[test]
fn an_aiming_ai_is_under_fire_only_while_an_enemy_can_still_shoot_it() {
    // rule: OD6-ATK-4, OD6-MOVE-3, OD6-MOVE-2
    // As above, A was shot at last round under `aim_interrupted_by = any_attack`. If the shooter
    // B is now unconscious, or has only its fists 20 m off (beyond a free move and a move action,
    // OD6-MOVE-2), no enemy can reach A before its aimed shot, so A aims (at C, unarmed and 25 m
    // off, while B is down). A B that can still shoot, or punch, keeps A firing.
    let a = format!("skills = {{ firearms = \"4D\" }}\npolicy = {{ actions = \"aim\" }}{BLASTER}");
    let with_c = |b: &str| {
        duel("", &a, b)
            .replace("position = 2\n", "position = 20\n")
            .replace(r#"order = ["A", "B"]"#, r#"order = ["A", "B", "C"]"#)
            + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 25\n"
    };
    let request = only_action();
    let choice = |text: &str, b_down: bool| {
        let s = setup(text, &[("aim_interrupted_by", "any_attack")]);
        let mut state = <OpenD6 as fray_engine::Ruleset>::initial_state(&s);
        state.round = 3;
        state.fighters[0].attacked_round = 2;
        if b_down {
            state.fighters[1].unconscious_until = 10;
        }
        fray_rules::opend6::policy::ai_choice(&s, &state, A, &request)
    };
    let armed = with_c(BLASTER);
    assert!(matches!(choice(&armed, false), Choice::Act(Action::Attack(_))), "{:?}", choice(&armed, false));
    assert_eq!(choice(&armed, true), Choice::Act(Action::Aim(CombatantId(2))));
    assert_eq!(choice(&with_c(""), false), Choice::Act(Action::Aim(B)));
    // Fists 12 m off do reach: a free move (5 m) and a move action (10 m) bring B to A first.
    let close = with_c("").replace("position = 20\n", "position = 12\n");
    assert!(matches!(choice(&close, false), Choice::Act(Action::Attack(_))), "{:?}", choice(&close, false));
}

// --- The mutation audit's shard 0/10: tests for what it found unseen ------------------------

#[test]
fn a_mortally_wounded_combatant_cannot_act_even_when_set_so_by_hand() {
    // rule: OD6-TRACK-7, OD6-COND-1
    // Every wound into Mortally Wounded also knocks one out; a game master's adjustment may set
    // the level alone, and the combatant still cannot act.
    let s = setup(&duel("", "", ""), &[]);
    let mut x = <OpenD6 as fray_engine::Ruleset>::initial_state(&s).fighters[1].clone();
    assert!(x.able());
    x.level = Level::Incapacitated;
    assert!(x.able());
    x.level = Level::MortallyWounded;
    assert!(!x.unconscious() && !x.able());
}

#[test]
fn only_full_auto_fire_under_no_active_defense_gives_up_the_firers_defence() {
    // rule: OD6-SPECIAL-4
    let text =
        duel("", &format!("skills = {{ firearms = \"5D\" }}{RIFLE}"), "").replace("position = 2", "position = 10");
    let fire = |mode, no_defense: bool| {
        let mut s = setup(&text, &[]);
        s.options.full_auto_no_defense = no_defense;
        let mut st = <OpenD6 as fray_engine::Ruleset>::initial_state(&s);
        let event = Event::Attack {
            attacker: A,
            target: B,
            weapon: 0,
            plan: AttackPlan { mode, ..AttackPlan::new(B, 0) },
            roll: Default::default(),
            base: 10,
            difficulty: 10,
            terms: Default::default(),
            hit: false,
        };
        <OpenD6 as fray_engine::Ruleset>::apply(&s, &mut st, &event);
        st.fighter(A).no_defense
    };
    assert!(fire(Mode::FullAuto, true));
    assert!(!fire(Mode::FullAuto, false));
    assert!(!fire(Mode::Normal, true));
    assert!(!fire(Mode::BurstSingle, true));
}

#[test]
fn under_given_bands_a_melee_weapon_reaches_point_blank_and_a_long_one_short() {
    // rule: OD6-MOVE-3, OD6-MOVE-5
    let weapons = "skills = { melee_combat = \"4D\" }\n[[combatants.weapons]]\nname = \"sword\"\nskill = \
                   \"melee_combat\"\ndamage = \"1D\"\n[[combatants.weapons]]\nname = \"spear\"\nskill = \
                   \"melee_combat\"\ndamage = \"1D\"\nlong = true\n";
    for (band, sword, spear) in [("point_blank", Some(0), Some(0)), ("short", None, Some(1)), ("medium", None, None)] {
        let text = duel("", weapons, "") + &format!("\n[[bands]]\na = \"A\"\nb = \"B\"\nband = \"{band}\"\n");
        let s = setup(&text, &[("position_model", "bands")]);
        let st = <OpenD6 as fray_engine::Ruleset>::initial_state(&s);
        let w = &s.combatants[0].weapons;
        assert_eq!((attack::band(&s, &st, A, B, &w[0]), attack::band(&s, &st, A, B, &w[1])), (sword, spear), "{band}");
    }
}

#[test]
fn a_ranged_sweep_needs_a_gun_and_a_knockdown_a_blunt_weapon_or_fists() {
    // rule: OD6-SPECIAL-5, OD6-SPECIAL-9
    let text = duel(
        "",
        &format!(
            "skills = {{ firearms = \"4D\", melee_combat = \"4D\", brawling = \"4D\" }}{RIFLE}\n[[combatants.weapons]]\nname \
             = \"club\"\nskill = \"melee_combat\"\ndamage = \"1D\"\nblunt = true\n[[combatants.weapons]]\nname = \
             \"sword\"\nskill = \"melee_combat\"\ndamage = \"1D\"\nsharp = true\n"
        ),
        "",
    );
    let s = setup(&text, &[]);
    let (a, b) = (&s.combatants[0], &s.combatants[1]);
    let fits = |w: usize, mode| attack::mode_fits(a, b, &a.weapons[w], mode, false);
    let (rifle, club, sword) = (0, 1, 2);
    assert!(fits(rifle, Mode::SweepRanged));
    assert!(!fits(club, Mode::SweepRanged) && !fits(sword, Mode::SweepRanged));
    assert!(fits(club, Mode::Knockdown) && fits(club, Mode::Push));
    assert!(!fits(sword, Mode::Knockdown) && !fits(rifle, Mode::Knockdown));
}

#[test]
fn a_climactic_fate_point_doubles_every_action_roll_of_its_round_only() {
    // rule: OD6-RES-4, OD6-RES-3
    let s = setup(&duel("", "skills = { brawling = \"4D\" }", ""), &[]);
    let mut st = <OpenD6 as fray_engine::Ruleset>::initial_state(&s);
    st.round = 3;
    let code = |st: &State| attack::action_code(&s, st, A, fray_rules::opend6::setup::SkillId::BRAWLING, false, 0);
    assert_eq!(code(&st), DieCode::new(4, 0));
    st.fighters[0].climactic_round = 3;
    assert_eq!(code(&st), DieCode::new(8, 0));
    st.fighters[0].climactic_round = 2;
    assert_eq!(code(&st), DieCode::new(4, 0));
}

#[test]
fn the_log_itemises_an_attacks_difficulty() {
    // Not a clause: the JSON log names each non-zero term of the difficulty (OD6-DIFF-*); they
    // add up to the difficulty less its base. Full auto: −2D, 6 of a 10.
    let text =
        duel("", &format!("skills = {{ firearms = \"5D\" }}{RIFLE}"), "").replace("position = 2", "position = 10");
    let full_auto = Choice::Act(Action::Attack(AttackPlan { mode: Mode::FullAuto, ..AttackPlan::new(B, 0) }));
    let s = script(&[(0, Choice::Count(1)), (0, full_auto), (1, Choice::Count(1)), (1, Choice::Act(Action::Pass))]);
    // 5D all 1s: a miss.
    let (log, _, fought) = run(&setup(&text, &[]), &[1; 5], s);
    fought.unwrap();
    let attack = log.iter().find(|e| matches!(e, Event::Attack { .. })).unwrap();
    let json = serde_json::to_value(attack).unwrap();
    let Event::Attack { base, difficulty, .. } = attack else { unreachable!() };
    assert_eq!((*base, *difficulty), (10, 4));
    let terms = json["terms"].as_array().unwrap();
    assert!(!terms.is_empty(), "{json}");
    let sum: i64 = terms.iter().map(|t| t[1].as_i64().unwrap()).sum();
    assert_eq!(sum, i64::from(difficulty - base), "{json}");
}

#[test]
fn a_person_rolling_physical_dice_is_told_how_many_regular_dice_come_before_the_wild_die() {
    // rule: OD6-DICE-4
    struct Told(Vec<fray_engine::Reason>);
    impl fray_engine::Dice for Told {
        fn roll(&mut self, _sides: u32, reason: fray_engine::Reason) -> Result<u32, fray_dice::SourceError> {
            self.0.push(reason);
            Ok(3)
        }
    }
    let mut told = Told(Vec::new());
    roll::roll(&mut told, A, "attack", DieCode::new(3, 0), 0, OneReads::Cancel, &Options::default()).unwrap();
    let said: Vec<(&str, u8)> = told.0.iter().map(|r| (r.what, r.dice)).collect();
    assert_eq!(said, [("attack", 2), ("attack", 2), ("Wild Die", 0)]);
}

#[test]
fn a_blow_that_ends_the_fight_ends_the_attackers_turn_too() {
    // rule: OD6-ROUND-4
    // A declares two actions; the first kills B (as in `the_fight_ends_when_one_side_is_left`,
    // with the multi-action penalty: 3D [6,6] W[5] = 17 vs 5). The fight ends there: A's second
    // action is never asked for.
    let text = duel("", "skills = { brawling = \"4D\" }\nstrength = \"4D\"", "strength = \"1D\"");
    let s = script(&[(0, Choice::Count(2)), (0, attack_on(B, 0)), (0, Choice::Act(Action::Pass))]);
    let (log, _, result) = run(&setup(&text, &[]), &[6, 6, 5, 6, 6, 6, 6, 2, 2], s);
    assert_eq!(result.unwrap().outcome, Outcome::Side(SideId(0)));
    let dead = log.iter().position(|e| matches!(e, Event::Wound { who: B, to: Level::Dead, .. })).expect("B dies");
    assert!(matches!(log.last(), Some(Event::Ended { .. })), "{:#?}", &log[dead..]);
    assert!(
        !log[dead..].iter().any(|e| matches!(e, Event::Forfeit { .. } | Event::Acted { .. })),
        "{:#?}",
        &log[dead..]
    );
}

#[test]
fn the_stay_up_roll_takes_the_higher_of_stamina_and_willpower_and_incapacitated_opens_no_stun_window() {
    // rule: OD6-TRACK-6, OD6-TRACK-5
    // As in `massive_damage_restricts_for_two_rounds`: A's punch takes B (Stamina 3D) to
    // Incapacitated. His stay-up roll is Willpower 4D when that is higher. A Stun window opens
    // only on Stunned.
    for (willpower, code) in [("2D", DieCode::new(3, 0)), ("4D", DieCode::new(4, 0))] {
        let text = duel(
            "",
            "skills = { brawling = \"6D\" }\nstrength = \"4D\"",
            &format!("strength = \"2D\"\nskills = {{ stamina = \"3D\", willpower = \"{willpower}\" }}"),
        );
        let faces = [6, 6, 6, 6, 6, 5, 3, 3, 1, 2, 6, 6, 6, 4, 4];
        let (log, _, fought) = run(&setup(&text, &[]), &faces, Script::new(2));
        fought.unwrap();
        let stay_up = log.iter().find_map(|e| match e {
            Event::StayUp { who: B, roll, .. } => Some(roll.code),
            _ => None,
        });
        assert_eq!(stay_up, Some(code), "Willpower {willpower}");
        assert!(log.iter().any(|e| matches!(e, Event::Wound { who: B, to: Level::Incapacitated, .. })));
        assert!(!log.iter().any(|e| matches!(e, Event::StunWindow { .. })), "{log:#?}");
    }
}

#[test]
fn a_fate_point_declined_doubles_nothing_and_strength_damage_doubles_by_two() {
    // rule: OD6-RES-3
    // Strength 6D: Strength Damage 3D. A asks no Fate Point on his attack roll (4D stays 4D);
    // one on the damage doubles it to 6D; asked and declined, it stays 3D and the point is kept.
    let codes = |fate: u8| {
        let text = duel("", "skills = { brawling = \"4D\" }\nstrength = \"6D\"\nfate_points = 1", "strength = \"6D\"");
        let s = script(&[(0, Choice::Count(1)), (0, attack_on(B, 0)), (0, Choice::Fate(0)), (0, Choice::Fate(fate))]);
        let (log, state, fought) = run(&setup(&text, &[]), &[3; 40], s);
        fought.unwrap();
        let attack = log.iter().find_map(|e| match e {
            Event::Attack { roll, .. } => Some(roll.code),
            _ => None,
        });
        let damage = log.iter().find_map(|e| match e {
            Event::Damage { roll, .. } => Some(roll.code),
            _ => None,
        });
        (attack, damage, state.fighter(A).fp)
    };
    let four = Some(DieCode::new(4, 0));
    assert_eq!(codes(1), (four, Some(DieCode::new(6, 0)), 0));
    assert_eq!(codes(0), (four, Some(DieCode::new(3, 0)), 1));
}

#[test]
fn a_hold_holds_while_the_holder_stays_within_three_metres() {
    // rule: OD6-COND-3, OD6-SPECIAL-10
    // A grabs B (as in `held_characters_may_only_escape`), then moves: to 1 m or 3 m from B he
    // still holds him; to 5 m he lets go, at once (before B's turn). C, 40 m off and held by no
    // one, is never let go.
    let text = duel("", "skills = { brawling = \"6D\" }\nstrength = \"3D\"", "strength = \"2D\"")
        .replace("order = [\"A\", \"B\"]", "order = [\"A\", \"B\", \"C\"]")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 40\n";
    let grab = Choice::Act(Action::Attack(AttackPlan { mode: Mode::Grab, ..AttackPlan::new(B, 0) }));
    for (to, held) in [(1, true), (-1, true), (-3, false)] {
        let s = script(&[
            (0, Choice::Count(2)),
            (0, grab),
            (0, Choice::Act(Action::Move { to, free: false })),
            (1, Choice::Count(1)),
            (1, Choice::Act(Action::Pass)),
            (2, Choice::Count(1)),
            (2, Choice::Act(Action::Pass)),
        ]);
        // 6D less 1D for two actions: [6,6,6,6] W[5] = 29 vs 11.
        let (log, state, fought) = run(&setup(&text, &[]), &[6, 6, 6, 6, 5], s);
        fought.unwrap();
        assert!(log.iter().any(|e| matches!(e, Event::Held { who: B, by: Some(A) })), "{log:#?}");
        assert_eq!(state.fighter(B).held_by.is_some(), held, "moved to {to}: {log:#?}");
        if !held {
            let let_go = log.iter().position(|e| matches!(e, Event::Held { who: B, by: None }));
            let b_turn = log.iter().position(|e| matches!(e, Event::TurnStarted { who: B, .. }));
            assert!(let_go.is_some() && let_go < b_turn, "{log:#?}");
        }
        assert!(!log.iter().any(|e| matches!(e, Event::Held { who: CombatantId(2), .. })), "{log:#?}");
    }
}

#[test]
fn a_waiting_character_may_resume_after_anothers_action() {
    // rule: OD6-ACT-5
    // B (first) declares two actions and waits; A moves; after that action B is asked to resume,
    // resumes and passes, before A's second action.
    let text = duel("", "", "").replace("order = [\"A\", \"B\"]", "order = [\"B\", \"A\"]");
    let s = script(&[
        (1, Choice::Count(2)),
        (1, Choice::Act(Action::Wait)),
        (0, Choice::Count(2)),
        (0, Choice::Act(Action::Move { to: 1, free: false })),
        (1, Choice::Interrupt(None)),
        (1, Choice::Resume(true)),
        (1, Choice::Act(Action::Pass)),
        (0, Choice::Act(Action::Pass)),
    ]);
    let (log, _, fought) = run(&setup(&text, &[]), &[], s);
    fought.unwrap();
    let at = |want: &dyn Fn(&Event) -> bool| log.iter().position(want).unwrap_or_else(|| panic!("{log:#?}"));
    let moved = at(&|e| matches!(e, Event::Moved { who: A, .. }));
    let resumed = at(&|e| matches!(e, Event::Resumed { who: B, interrupting: None }));
    let second = at(&|e| matches!(e, Event::Forfeit { who: A, .. }));
    assert!(moved < resumed && resumed < second, "{log:#?}");
}

#[test]
fn a_waiting_character_uses_its_waited_actions_before_the_round_ends() {
    // rule: OD6-ROUND-2, OD6-ACT-5
    // B (first) declares two actions and waits; A moves and is done; B keeps waiting after A's
    // action, and is asked once more as the round ends: it resumes and moves.
    let text = duel("", "", "").replace("order = [\"A\", \"B\"]", "order = [\"B\", \"A\"]");
    let s = script(&[
        (1, Choice::Count(2)),
        (1, Choice::Act(Action::Wait)),
        (0, Choice::Count(1)),
        (0, Choice::Act(Action::Move { to: 1, free: false })),
        (1, Choice::Interrupt(None)),
        (1, Choice::Resume(false)),
        (1, Choice::Resume(true)),
        (1, Choice::Act(Action::Move { to: 3, free: false })),
    ]);
    let (log, state, fought) = run(&setup(&text, &[]), &[], s);
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    let at = |want: &dyn Fn(&Event) -> bool| log.iter().position(want).unwrap_or_else(|| panic!("{log:#?}"));
    let a_moved = at(&|e| matches!(e, Event::Moved { who: A, .. }));
    let resumed = at(&|e| matches!(e, Event::Resumed { who: B, interrupting: None }));
    let b_moved = at(&|e| matches!(e, Event::Moved { who: B, .. }));
    assert!(a_moved < resumed && resumed < b_moved, "{log:#?}");
    assert_eq!(state.fighter(B).pos, 3);
}

#[test]
fn a_surprised_group_member_acts_first_and_out_of_the_groups_roll() {
    // rule: OD6-INIT-9, OD6-INIT-3
    // T2 has surprise: it acts first in round 1 and the squad's one roll (T1's 2D) covers T1 alone.
    let text = SQUAD.replacen("perception = \"4D\"", "perception = \"4D\"\nsurprise = true", 1);
    let passes =
        script(&(0..3).flat_map(|w| [(w, Choice::Count(1)), (w, Choice::Act(Action::Pass))]).collect::<Vec<_>>());
    let (log, _, fought) = run(&setup(&text, &[]), &[2, 3, 4, 1, 5], passes);
    fought.unwrap();
    assert_eq!(initiatives(&log), [(0, vec![0], 9), (1, vec![1], 6)]);
    let order = log.iter().find_map(|e| match e {
        Event::Order { order } => Some(order.iter().map(|o| o.0.index()).collect::<Vec<_>>()),
        _ => None,
    });
    assert_eq!(order, Some(vec![2, 0, 1]));
}

/// B (Strength 1D) first, then A (a stun blaster, Firearms 6D) 5 m off, then C on B's side far
/// off, over `rounds` rounds: C keeps the fight going once B is down.
fn stun_trio(rounds: u32, sets: &[(&str, &str)]) -> Setup {
    let text = duel(
        "",
        &format!(
            "skills = {{ firearms = \"6D\" }}{}",
            BLASTER.replace("ranges", "stun_capable = true\nstun = true\nranges")
        ),
        "strength = \"1D\"",
    )
    .replace("position = 2", "position = 5")
    .replace("order = [\"A\", \"B\"]", "order = [\"B\", \"A\", \"C\"]")
    .replace("max_rounds = 1", &format!("max_rounds = {rounds}"))
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 900\n";
    setup(&text, sets)
}

#[test]
fn a_knocked_out_defender_keeps_his_dodge_to_the_end_of_the_round_he_loses_and_sleeps_on() {
    // rule: OD6-DEF-3, OD6-COND-2, OD6-DMG-10
    // Round 1: B dodges (3D [2,2] W[2] = 6); A's stun shot ([1,1,1,1,1] W[5] = 10) hits; damage
    // 4D [1,1,1] W[2] and the margin's bonus vs 1D W[2]: Stunned and unconscious for 12 rounds
    // a point. Under
    // `defense_ends_when_helpless = false` the dodge runs on: round 2 is the turn B loses, so it
    // ends at round 2's end, not before. B does not wake at either round's end.
    let s = stun_trio(2, &[("defense_ends_when_helpless", "false")]);
    let entries = [
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Defend { kind: DefKind::Dodge, full: false })),
        (0, Choice::Count(1)),
        (0, attack_on(B, 0)),
        (2, Choice::Count(1)),
        (2, Choice::Act(Action::Pass)),
        (0, Choice::Count(1)),
        (0, Choice::Act(Action::Pass)),
        (2, Choice::Count(1)),
        (2, Choice::Act(Action::Pass)),
    ];
    let faces = [2, 2, 2, 1, 1, 1, 1, 1, 5, 1, 1, 1, 2, 2];
    let (log, state, fought) = run(&s, &faces, script(&entries));
    assert_eq!(fought.unwrap().outcome, Outcome::Stalemate);
    assert!(log.iter().any(|e| matches!(e, Event::Unconscious { who: B, until: 3.. })), "{log:#?}");
    let round_2 = log.iter().position(|e| matches!(e, Event::RoundStarted { round: 2 })).expect("round 2");
    let ended = log.iter().position(|e| matches!(e, Event::DefenceEnded { who: B })).expect("the dodge ends");
    assert!(ended > round_2, "{log:#?}");
    assert!(log.contains(&Event::TurnLost { who: B }));
    assert!(state.fighter(B).dodge.is_none() && state.fighter(B).unconscious());
    assert!(!log.iter().any(|e| matches!(e, Event::Woke { .. })), "{log:#?}");
}

#[test]
fn the_first_survival_roll_comes_a_round_after_the_mortal_wound() {
    // rule: OD6-TRACK-7
    // A's punch (6D [6,6,6,6,6] W[5] = 35 vs 5: bonus 6; damage 2D [6] W[5] = 11 + 6 = 17 vs
    // 2D [1] W[2] = 3: D = 14) leaves B Mortally Wounded in round 1 (`killing_blow = false`); C
    // keeps the fight going. No survival roll at round 1's end, one at round 2's.
    let text = duel("", "skills = { brawling = \"6D\" }\nstrength = \"4D\"", "strength = \"2D\"")
        .replace("max_rounds = 1", "max_rounds = 2")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 900\n";
    let passes = |w| [(w, Choice::Count(1)), (w, Choice::Act(Action::Pass))];
    let mut entries = vec![(0, Choice::Count(1)), (0, attack_on(B, 0))];
    entries.extend(passes(2));
    entries.extend(passes(0));
    entries.extend(passes(2));
    let faces = [6, 6, 6, 6, 6, 5, 6, 5, 1, 2, 4, 4, 4, 4];
    let sets = [("mortal_check", "per_round"), ("killing_blow", "false")];
    let (log, _, fought) = run(&setup(&text, &sets), &faces, script(&entries));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Wound { who: B, to: Level::MortallyWounded, .. })), "{log:#?}");
    // Unconscious at once, for good, with no stay-up roll.
    assert!(log.contains(&Event::Unconscious { who: B, until: u32::MAX }), "{log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::StayUp { .. })), "{log:#?}");
    let round_2 = log.iter().position(|e| matches!(e, Event::RoundStarted { round: 2 })).expect("round 2");
    let survivals: Vec<usize> =
        log.iter().enumerate().filter(|(_, e)| matches!(e, Event::Survival { .. })).map(|(i, _)| i).collect();
    assert_eq!(survivals.len(), 1, "{log:#?}");
    assert!(survivals[0] > round_2);
    // A round after the wound, the roll needs 1 (one a round, `mortal_check = per_round`).
    assert!(matches!(log[survivals[0]], Event::Survival { who: B, need: 1, .. }), "{log:#?}");
}

#[test]
fn the_loader_takes_moves_and_body_points_in_range_and_every_policy() {
    // rule: OD6-MOVE-2, OD6-TRACK-11
    let load = |b: &str| scenario::load("t.toml", &duel("", "", b), &[]).map(|s| s.combatants[1].clone());
    assert_eq!(load("move = 12").unwrap().move_m, 12);
    assert!(load("move = 1001").unwrap_err().message.contains("expected a Move of 0 to 1000 m"));
    for ok in [1, 10_000] {
        assert!(load(&format!("body_points_max = {ok}")).is_ok(), "{ok}");
    }
    for bad in [0, 10_001] {
        assert!(load(&format!("body_points_max = {bad}")).unwrap_err().message.contains("Body Points of 1 to 10000"));
    }
    // Not a clause: every AI policy field is read (the policy table's order).
    let b = load("policy = { actions = \"double\", target = \"first\", option = \"grab\", points = \"threshold\", move = \"hold\" }")
        .unwrap();
    let p = b.policy;
    assert_eq!((p.actions, p.target, p.option, p.points, p.movement), (1, 2, 6, 2, 1));
}

#[test]
fn a_defence_from_the_round_before_ends_at_the_end_of_a_tied_step() {
    // rule: OD6-INIT-4, OD6-DEF-3
    // A and B tie (3D [2,3] W[4] = 9 each, rolled once for the fight): one simultaneous step a
    // round. B dodges in round 1; in round 2 his turn in the step comes and goes, and his old
    // dodge ends at the step's end, not with his turn (the step is simultaneous) nor never.
    let text = BRAWLERS.replace("perception = \"2D\"", "perception = \"3D\"");
    let pass = |w| [(w, Choice::Count(1)), (w, Choice::Act(Action::Pass))];
    let mut entries =
        vec![(1, Choice::Count(1)), (1, Choice::Act(Action::Defend { kind: DefKind::Dodge, full: false }))];
    entries.extend(pass(0));
    entries.extend(pass(0));
    entries.extend(pass(1));
    let mut faces = vec![2, 3, 4, 2, 3, 4];
    faces.extend([3; 10]);
    let (log, state, fought) = run(&setup(&text, &[("initiative_method", "roll_once")]), &faces, script(&entries));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert!(
        log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 0)])),
        "{log:#?}"
    );
    let at = |want: &dyn Fn(&Event) -> bool| log.iter().position(want);
    let round_2 = at(&|e| matches!(e, Event::RoundStarted { round: 2 })).expect("round 2");
    let b_turn = log
        .iter()
        .enumerate()
        .skip(round_2)
        .find(|(_, e)| matches!(e, Event::TurnStarted { who: B, .. }))
        .map(|(i, _)| i);
    let ended = at(&|e| matches!(e, Event::DefenceEnded { who: B }));
    assert!(b_turn.is_some() && ended > b_turn, "{log:#?}");
    assert!(state.fighter(B).dodge.is_none(), "{log:#?}");
}

#[test]
fn a_waiter_in_the_actors_own_tied_step_is_not_asked_to_interrupt() {
    // rule: OD6-INIT-4, OD6-ACT-6
    // A and B tie (3D [2,3] W[4] = 9 each): one simultaneous step. A declares two actions and
    // waits; B punches him in the same step. A may not interrupt an action of his own step: he is
    // never asked (his scripted interrupt stays unused) and resumes only afterwards.
    let text =
        BRAWLERS.replace("perception = \"2D\"", "perception = \"3D\"").replace("max_rounds = 2", "max_rounds = 1");
    let s = script(&[
        (0, Choice::Count(2)),
        (0, Choice::Act(Action::Wait)),
        (0, Choice::Interrupt(Some(Action::Attack(AttackPlan::new(B, 0))))),
        (1, Choice::Count(1)),
        (1, attack_on(A, 0)),
    ]);
    let mut faces = vec![2, 3, 4, 2, 3, 4];
    faces.extend([1, 1, 2].repeat(10));
    let (log, _, fought) = run(&setup(&text, &[]), &faces, s);
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [(A, 0), (B, 0)])));
    assert!(log.iter().any(|e| matches!(e, Event::Attack { attacker: B, .. })), "{log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::Resumed { who: A, interrupting: Some(_) })), "{log:#?}");
    // The step's end ends no defence: neither had one.
    assert!(!log.iter().any(|e| matches!(e, Event::DefenceEnded { .. })), "{log:#?}");
}

#[test]
fn a_blade_parry_below_its_value_cuts_the_puncher_and_his_hit_still_lands() {
    // rule: OD6-DEF-7, OD6-DEF-6
    // Under `parry_success = below_active_value` A parries with a sword (3D for two actions:
    // [4,4] W[4] = 12); B's punch (4D [2,2,2] W[4] = 10) is below the parry's 12 but reaches the
    // difficulty (12 less the close-combat modifiers): the blade cuts B, and the punch lands too.
    let text = duel(
        "",
        "skills = { melee_combat = \"4D\" }\n[[combatants.weapons]]\nname = \"sword\"\nskill = \"melee_combat\"\ndamage = \
         \"1D\"\nstrength_plus = true\nsharp = true",
        "skills = { brawling = \"4D\" }",
    )
    .replace("position = 2", "position = 1");
    let s = script(&[
        (0, Choice::Count(2)),
        (0, Choice::Act(Action::Defend { kind: DefKind::Block(Some(0)), full: false })),
        (0, Choice::Act(Action::Pass)),
        (1, Choice::Count(1)),
        (1, attack_on(A, 0)),
    ]);
    let mut faces = vec![4, 4, 4, 2, 2, 2, 4];
    faces.extend([3; 20]);
    let (log, _, fought) = run(&setup(&text, &[("parry_success", "below_active_value")]), &faces, s.clone());
    fought.unwrap();
    let attack = log.iter().find_map(|e| match e {
        Event::Attack { attacker: B, roll, difficulty, hit, .. } => Some((roll.total, *difficulty, *hit)),
        _ => None,
    });
    assert!(matches!(attack, Some((10, ..=10, true))), "{attack:?}");
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::Damage { cause: fray_rules::opend6::DamageCause::ParryCut, target: B, .. })),
        "{log:#?}"
    );
    assert!(
        log.iter().any(|e| matches!(e, Event::Damage { cause: fray_rules::opend6::DamageCause::Hit, target: A, .. })),
        "{log:#?}"
    );
    // Only a blade cuts, and only a puncher: a club's parry, or a sword's against B's knife,
    // cuts no one.
    let club = text.replace("sharp = true", "sharp = false");
    let knife = text.replace(
        "skills = { brawling = \"4D\" }",
        "skills = { melee_combat = \"4D\" }\n[[combatants.weapons]]\nname = \"knife\"\nskill = \"melee_combat\"\ndamage = \"1D\"\nsharp = true",
    );
    for (what, text) in [("club", club), ("knife", knife)] {
        let (log, _, fought) = run(&setup(&text, &[("parry_success", "below_active_value")]), &faces, s.clone());
        fought.unwrap_or_else(|e| panic!("{what}: {e}: {log:#?}"));
        assert!(log.iter().any(|e| matches!(e, Event::Attack { attacker: B, .. })), "{what}: {log:#?}");
        assert!(
            !log.iter().any(|e| matches!(e, Event::Damage { cause: fray_rules::opend6::DamageCause::ParryCut, .. })),
            "{what}: {log:#?}"
        );
    }
}

#[test]
fn die_codes_print_as_a_scenario_writes_them() {
    // rule: OD6-DICE-1
    let shown: Vec<String> = [(3, 0), (3, 1), (2, 2), (1, -1)].map(|(d, p)| DieCode::new(d, p).to_string()).to_vec();
    assert_eq!(shown, ["3D", "3D+1", "2D+2", "1D-1"]);
    // And read back; dice and pips each from −30 to 30, either out of range refused.
    for (text, code) in [("3D+1", (3, 1)), ("2D-1", (2, -1)), ("+1D", (1, 0)), ("30D+30", (30, 30)), ("5", (0, 5))] {
        assert_eq!(DieCode::parse(text), Ok(DieCode::new(code.0, code.1)), "{text}");
    }
    for bad in ["31D", "3D+31", "-31D", "2D-31"] {
        let e = DieCode::parse(bad).unwrap_err();
        assert!(e.contains("expected −30 to 30 dice and −30 to +30 pips"), "{bad}: {e}");
    }
}

#[test]
fn a_combatant_joining_late_is_absent_until_it_joins() {
    // Not a clause: the live tracker's combatants added mid-fight (the last `joins_late` of the
    // roster) start absent.
    let mut s = setup(&(duel("", "", "") + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 9\n"), &[]);
    s.joins_late = 1;
    assert_eq!((0..3).map(|i| s.joins_late(i)).collect::<Vec<_>>(), [false, false, true]);
    let state = <OpenD6 as fray_engine::Ruleset>::initial_state(&s);
    assert!(!state.fighter(B).absent && state.fighter(CombatantId(2)).absent);
}

#[test]
fn a_fate_point_doubles_a_squeezes_strength_damage() {
    // rule: OD6-RES-3, OD6-SPECIAL-10
    // A (Strength 6D: Strength Damage 3D) grabs B in round 1 ([6,6,6,6,6] W[5] = 35), and in
    // round 2 squeezes with a Fate Point: 6D.
    let text = duel("", "skills = { brawling = \"6D\" }\nstrength = \"6D\"\nfate_points = 1", "strength = \"2D\"")
        .replace("max_rounds = 1", "max_rounds = 2");
    let grab = Choice::Act(Action::Attack(AttackPlan { mode: Mode::Grab, ..AttackPlan::new(B, 0) }));
    let s = script(&[
        (0, Choice::Count(1)),
        (0, grab),
        (0, Choice::Fate(0)),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Pass)),
        (0, Choice::Count(1)),
        (0, Choice::Act(Action::Squeeze)),
        (0, Choice::Fate(1)),
        (1, Choice::Count(1)),
        (1, Choice::Act(Action::Pass)),
    ]);
    let mut faces = vec![6, 6, 6, 6, 6, 5];
    faces.extend([3; 30]);
    let (log, state, fought) = run(&setup(&text, &[]), &faces, s);
    fought.unwrap();
    let squeeze = log.iter().find_map(|e| match e {
        Event::Damage { cause: fray_rules::opend6::DamageCause::Squeeze, roll, .. } => Some(roll.code),
        _ => None,
    });
    assert_eq!(squeeze, Some(DieCode::new(6, 0)), "{log:#?}");
    assert_eq!(state.fighter(A).fp, 0);
    // Every resistance roll carries its code: B's Strength 2D.
    assert!(
        log.iter().any(|e| matches!(e, Event::Resist { who: B, roll: Some(r), .. } if r.code == DieCode::new(2, 0)))
    );
}

#[test]
fn roll_unconscious_duration_rolls_ten_dice_for_a_failed_stay_up() {
    // rule: OD6-COND-2, OD6-TRACK-6
    // As in the Stamina/Willpower test: A's punch takes B to Incapacitated; his stay-up roll
    // (Stamina 3D: 2, 2, 2 = 6 against 15) fails.
    let text = duel(
        "",
        "skills = { brawling = \"6D\" }\nstrength = \"4D\"",
        "strength = \"2D\"\nskills = { stamina = \"3D\", willpower = \"2D\" }",
    );
    let mut faces = vec![6, 6, 6, 6, 6, 5, 3, 3, 1, 2, 2, 2, 2];
    faces.extend([2; 10]);
    let down = |sets: &[(&str, &str)]| {
        let (log, _, fought) = run(&setup(&text, sets), &faces, Script::new(2));
        fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
        assert!(log.iter().any(|e| matches!(e, Event::StayUp { who: B, ok: false, .. })), "{log:#?}");
        log.iter()
            .find_map(|e| match e {
                Event::Unconscious { who: B, until } => Some(*until),
                _ => None,
            })
            .unwrap()
    };
    // By default he is down for the rest of the fight, and no further die is rolled.
    assert_eq!(down(&[]), u32::MAX);
    // `roll_unconscious_duration = true`: 10D (all 2s, 20) minutes, 12 rounds each, from round 1.
    assert_eq!(down(&[("roll_unconscious_duration", "true")]), 1 + 12 * 20);
}
