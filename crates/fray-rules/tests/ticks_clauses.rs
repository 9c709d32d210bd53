//! `ticks` clauses and the catalogue's reference numbers.

use fray_dice::{BigRational, fraction};
use fray_engine::{CombatantId, Dice, Fight, FightError, FightResult, Outcome, Reason, Record, Ruleset, replay};
use fray_rules::ticks::attack::{self, Weapon, WoundRule, aim_bonus, range_modifier};
use fray_rules::ticks::odds::{delta_distribution, expected_effort, harm_outcomes, p_attacker_wins};
use fray_rules::ticks::options::Ratio;
use fray_rules::ticks::policy::{Script, defence_numbers, illegal, shot_numbers};
use fray_rules::ticks::setup::{Armour, COVER_PRESETS, Cover, chebyshev, gun_table};
use fray_rules::ticks::{Action, Blow, Choice, Event, Kind, Options, Setup, State, Ticks, scenario};
use num_traits::Zero;

const A: CombatantId = CombatantId(0);
const B: CombatantId = CombatantId(1);

/// Scripted faces; the announcement-order die always answers `order_face` (1: swap, sides: keep).
struct Faces(Vec<u32>, usize, bool);

impl Dice for Faces {
    fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, fray_dice::SourceError> {
        if reason.what == "announcement order" {
            return Ok(if self.2 { 1 } else { sides });
        }
        let face =
            *self.0.get(self.1).ok_or_else(|| fray_dice::SourceError(format!("no face left for {}", reason.what)))?;
        self.1 += 1;
        Ok(face.min(sides))
    }
}

fn setup(text: &str, sets: &[(&str, &str)]) -> Setup {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("t.toml", text, &sets).unwrap_or_else(|e| panic!("{e}"))
}

fn load_err(text: &str) -> String {
    match scenario::load("t.toml", text, &[]) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

fn run_with(
    setup: &Setup,
    faces: &[u32],
    script: Script,
    swap: bool,
) -> (Vec<Event>, State, Result<FightResult, FightError>) {
    let mut fight = Fight::<Ticks, _, _, _>::new(setup, Faces(faces.to_vec(), 0, swap), script, Record::default());
    let result = fight.run();
    let (state, record) = fight.into_parts();
    (record.0, state, result)
}

fn run(setup: &Setup, faces: &[u32], script: Script) -> (Vec<Event>, State, Result<FightResult, FightError>) {
    run_with(setup, faces, script, false)
}

/// Who made each attack roll, in order.
fn shooters(log: &[Event]) -> Vec<CombatantId> {
    log.iter()
        .filter_map(|e| match e {
            Event::AttackRoll { who, .. } => Some(*who),
            _ => None,
        })
        .collect()
}

fn script(entries: &[(usize, Choice)]) -> Script {
    let mut s = Script::new(3);
    for (w, c) in entries {
        s.push(*w, *c);
    }
    s
}

fn two(a: &str, b: &str, cap: u32) -> String {
    format!(
        "[rules]\nruleset = \"ticks\"\n[rules.options]\ntick_cap = {cap}\n\n[[combatants]]\nname = \"A\"\nside = \"a\"\nposition = [0, 0]\n{a}\n\n[[combatants]]\nname = \"B\"\nside = \"b\"\n{b}\n"
    )
}

fn ann(a: Action) -> Choice {
    Choice::Announce(a)
}

const NOTHING: Choice = Choice::Announce(Action::Nothing);
const PULL: Choice = Choice::Yes(false);

fn q(r: &BigRational) -> String {
    fraction(r)
}

fn fire(t: CombatantId) -> Choice {
    ann(Action::fire(t, 1, false))
}

// --- Reference numbers ----------------------------------------------------------------------

#[test]
fn opposed_roll_reference_numbers() {
    // rule: TICK-DEF-7, TICK-COVER-2, TICK-COVER-5, TICK-DICE-1, TICK-DICE-3, TICK-COVER-1
    let s = setup(&two("", "position = [5, 0]", 1), &[]);
    let wins: Vec<String> = (0..10)
        .map(|r| q(&p_attacker_wins(&delta_distribution(&s, 5, 5 + Cover { rating: r * 10, resistance: 0 }.bonus()))))
        .collect();
    assert_eq!(wins, ["19/40", "153/400", "3/10", "91/400", "33/200", "9/80", "7/100", "3/80", "3/200", "1/400"]);
    let bonuses: Vec<i32> = (1..10).map(|r| Cover { rating: r * 10, resistance: 0 }.bonus()).collect();
    assert_eq!(bonuses, [2, 4, 6, 8, 10, 12, 14, 16, 18]);
    let halved: Vec<i32> = (1..10).map(|r| attack::cover_bonus(Cover { rating: r * 10, resistance: 3 }, 4)).collect();
    assert_eq!(halved, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Penetration equal to the resistance does not halve it.
    assert_eq!(attack::cover_bonus(Cover { rating: 50, resistance: 3 }, 3), 10);
    assert_eq!(q(&p_attacker_wins(&delta_distribution(&s, 5, 10))), "21/80");
    let even = delta_distribution(&s, 5, 5);
    let tie = even.iter().find(|(k, _)| *k == 0).map(|(_, p)| q(p));
    assert_eq!(tie.as_deref(), Some("1/20"));
    let defender: BigRational = even.iter().filter(|(k, _)| *k <= 0).map(|(_, p)| p.clone()).sum();
    assert_eq!(q(&defender), "21/40");
    // Under `delta_tie = reroll` a tie never stands.
    let reroll = setup(&two("", "position = [5, 0]", 1), &[("delta_tie", "reroll")]);
    assert!(delta_distribution(&reroll, 5, 5).iter().all(|(k, _)| *k != 0));
    assert_eq!(q(&p_attacker_wins(&delta_distribution(&reroll, 5, 5))), "1/2");
}

#[test]
fn effort_reference_numbers() {
    // rule: TICK-DEF-1, TICK-DEF-2, TICK-DEF-3, TICK-DEF-4, TICK-DMG-1
    let s = setup(&two("", "position = [5, 0]", 1), &[]);
    let at = |rating: i32| delta_distribution(&s, 5, 5 + rating / 5);
    assert_eq!(q(&expected_effort(&s, &at(0), 20)), "667/40");
    assert_eq!(q(&expected_effort(&s, &at(0), 15)), "469/40");
    assert_eq!([10, 50, 90].map(|r| q(&expected_effort(&s, &at(r), 15))), ["4287/400", "479/80", "163/80"]);
    let zero = |d: &[(i32, BigRational)], base: i32| -> String {
        q(&d.iter().filter(|(k, _)| attack::effort_cost(&s.options, base, *k) == 0).map(|(_, p)| p.clone()).sum())
    };
    assert_eq!([zero(&at(0), 15), zero(&at(50), 15), zero(&at(0), 20)], ["3/80", "3/10", "0/1"]);
    // E[delta | attacker wins]: 7 in the open, 11/3 at 50 % cover.
    let mean_win = |d: &[(i32, BigRational)]| -> String {
        let p = p_attacker_wins(d);
        let e: BigRational =
            d.iter().filter(|(k, _)| *k >= 1).map(|(k, w)| w * BigRational::from_integer((*k).into())).sum();
        q(&(e / p))
    };
    assert_eq!([mean_win(&at(0)), mean_win(&at(50))], ["7/1", "11/3"]);
    // Under `effort_on_loss = zero` a defender who loses pays nothing.
    let zero_loss = setup(&two("", "position = [6, 0]", 1), &[("effort_on_loss", "zero")]).options;
    assert_eq!((attack::effort_cost(&zero_loss, 20, 3), attack::effort_cost(&s.options, 20, 3)), (0, 20));
    // A defender in cover pays from 15, or from 10 under `cover_effort_base = 10`.
    let covered = two("gun = \"pistol\"", "position = [5, 0]\ncover = { rating = 50, resistance = 3 }", 1);
    for (sets, base) in [(&[][..], 15), (&[("cover_effort_base", "10")][..], 10)] {
        let s = setup(&covered, sets);
        assert_eq!(defence_numbers(&s, &Ticks::initial_state(&s), B, Kind::Shot, 4).effort_base, base);
    }
}

#[test]
fn damage_reference_numbers() {
    // rule: TICK-DMG-1, TICK-DMG-3, TICK-DMG-4, TICK-DMG-6, TICK-TRACK-1
    let s = setup(&two("gun = \"pistol\"", "position = [5, 0]", 1), &[]);
    let pistol = Weapon::gun(s.combatants[0].gun.as_ref().unwrap());
    let d = delta_distribution(&s, 5, 5);
    let win = p_attacker_wins(&d);
    let (mut damage, mut body, mut wound) = (BigRational::zero(), BigRational::zero(), BigRational::zero());
    for (k, p) in d.iter().filter(|(k, _)| *k >= 1) {
        damage += p * BigRational::from_integer((4 + k).into());
        for ((b, _, w), ph) in harm_outcomes(&s, pistol, *k, false, None, 1, false) {
            body += p * &ph * BigRational::from_integer(b.into());
            if w {
                wound += p * &ph;
            }
        }
    }
    assert_eq!(q(&(damage / &win)), "11/1");
    assert_eq!(q(&(body / &win)), "1433/190");
    assert_eq!(q(&(wound / &win)), "2/5");
    // Locations: 6 limb faces, 3 torso, 1 head.
    let limbs = (1..=10).filter(|&f| attack::limb(f)).count();
    assert_eq!((limbs, (2..=4).count(), 1), (6, 3, 1));
    // The wound threshold at Body max 30: 8 wounds, 7 does not.
    let o = Options::default();
    let w = |dmg: i32| {
        attack::harm(
            &o,
            Weapon { graze: dmg, graze_mod: 0, delta_damage: 0, penetration: 0, lethal: true },
            0,
            false,
            None,
            3,
            None,
            30,
        )
        .wound
    };
    assert_eq!((w(8), w(7)), (attack::WoundRule::Yes, attack::WoundRule::No));
    // `hit_locations = torso_only`: no location die, never halved.
    let torso = setup(&two("gun = \"pistol\"", "position = [5, 0]", 1), &[("hit_locations", "torso_only")]);
    assert_eq!(harm_outcomes(&torso, pistol, 7, false, None, 1, false).len(), 1);
    // Body max 30 by default; Down at Body ≤ 0.
    assert_eq!(s.combatants[1].body_max, 30);
    let forty = setup(&two("", "position = [5, 0]", 1), &[("body_max", "40")]);
    assert_eq!(forty.combatants[1].body_max, 40);
}

#[test]
fn gear_reference_numbers() {
    // rule: TICK-GUN-2, TICK-RANGE-1, TICK-RANGE-2, TICK-AIM-1, TICK-GEAR-3, TICK-COVER-3, TICK-MELEE-5
    let o = Options::default();
    let guns = gun_table();
    assert_eq!(guns.iter().map(|(_, g)| g.ready_penalty).collect::<Vec<_>>(), [10, 13, 17, 20]);
    let at = [1.0, 2.0, 6.0, 10.0, 20.0, 30.0, 50.0];
    let table: Vec<Vec<i32>> =
        guns.iter().map(|(_, g)| at.iter().map(|&d| range_modifier(&o, g, d, false).0).collect()).collect();
    assert_eq!(table[0], [5, 4, 2, 0, -5, -10, -20]);
    assert_eq!(table[1], [4, 3, 1, -1, -6, -11, -21]);
    assert_eq!(table[2], [3, 3, 1, 0, -3, -7, -13]);
    assert_eq!(table[3], [1, 1, 0, -1, -4, -6, -11]);
    assert_eq!(range_modifier(&o, &guns[3].1, 100.0, false).0, -24);
    let caps: Vec<i32> =
        at.iter().map(|&d| aim_bonus(&o, 4, range_modifier(&o, &guns[0].1, d, false).1).min(4)).collect();
    let half = Options { aimed_half: true, ..Options::default() };
    let full_caps: Vec<i32> =
        at.iter().map(|&d| aim_bonus(&half, 100, range_modifier(&o, &guns[0].1, d, false).1)).collect();
    assert_eq!(full_caps, [0, 1, 2, 3, 5, 8, 13]);
    assert_eq!(caps, [0, 1, 2, 3, 4, 4, 4]);
    // `range_mode = pb_only`: the PB bonus only against an adjacent target.
    let pb = Options { pb_only: true, ..Options::default() };
    assert_eq!((range_modifier(&pb, &guns[0].1, 1.0, true).0, range_modifier(&pb, &guns[0].1, 6.0, false).0), (5, -3));
    let presets: Vec<(&str, i32)> = COVER_PRESETS.to_vec();
    assert_eq!(presets, [("crouch_wall", 50), ("window", 80), ("slit_window", 90), ("pole", 10), ("thick_pole", 20)]);
    // An aborted strike: 3 stability, 2 effort (checked in a fight in T-EX-7); under `floor`, 3 and 2 → 3, 2.
    let s = setup(&two("", "position = [1, 0]", 1), &[("abort_rounding", "floor")]);
    let strike = ann(Action::Melee { target: B, blow: Blow::Strike, weak_point: false });
    let (log, _, fought) = run(&s, &[4], script(&[(0, strike), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Cost { who: A, p: 3, effort: 2, .. })));
    let jab = ann(Action::Melee { target: B, blow: Blow::Jab, weak_point: false });
    let (log, _, fought) = run(&s, &[1], script(&[(0, jab), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Cost { who: A, p: 1, effort: 1, .. })));
    let ceil = setup(&two("", "position = [1, 0]", 1), &[]);
    let (log, _, fought) = run(&ceil, &[1], script(&[(0, jab), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Cost { who: A, p: 2, effort: 1, .. })));
}

// --- Time -------------------------------------------------------------------------------------

#[test]
fn ticks_announcements_and_simultaneity() {
    // rule: TICK-TIME-1, TICK-TIME-2, TICK-TIME-3, TICK-TIME-4, TICK-TIME-5
    // Two ready pistols point blank, both lethal hits in tick 1: both fire, both fall: mutual.
    let text = two(
        "gun = \"pistol\"\ngun_ready = true\nbody = 5",
        "position = [1, 0]\ngun = \"pistol\"\ngun_ready = true\nbody = 5",
        3,
    );
    let s = setup(&text, &[]);
    let entries = [(0, fire(B)), (0, PULL), (1, fire(A)), (1, PULL)];
    let faces = [20, 1, 3, 20, 1, 3];
    let (log, _, result) = run(&s, &faces, script(&entries));
    assert_eq!(log.first(), Some(&Event::TickStarted { tick: 1 }));
    assert_eq!(result.unwrap(), FightResult { outcome: Outcome::Mutual, length: 1 });
    // One announcement each per tick, all before the first roll.
    let first_roll = log.iter().position(|e| matches!(e, Event::AttackRoll { .. })).unwrap();
    let announced: Vec<usize> =
        log.iter().enumerate().filter(|(_, e)| matches!(e, Event::Announced { .. })).map(|(i, _)| i).collect();
    assert_eq!(announced.len(), 2);
    assert!(announced.iter().all(|&i| i < first_roll));
    // `simultaneity = immediate`: A's hit lands at once and B, down, never fires.
    let now = setup(&text, &[("simultaneity", "immediate")]);
    let (log, _, result) = run(&now, &faces, script(&entries));
    assert_eq!(result.unwrap().outcome, Outcome::Side(fray_engine::SideId(0)));
    assert_eq!(log.iter().filter(|e| matches!(e, Event::AttackRoll { .. })).count(), 1);
}

#[test]
fn announcement_and_resolution_order() {
    // rule: TICK-TIME-6, TICK-TIME-13
    let text = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\ngun = \"pistol\"\ngun_ready = true", 1);
    let s = setup(&text, &[]);
    let entries = [(0, fire(B)), (0, PULL), (1, fire(A)), (1, PULL)];
    let faces = [1, 20, 1, 20];
    // The order die swaps: B announces first, and B's shot resolves first.
    let (log, _, fought) = run_with(&s, &faces, script(&entries), true);
    fought.unwrap();
    assert!(log.contains(&Event::Order { order: [B, A].into_iter().collect() }));
    assert_eq!(shooters(&log), [B, A]);
    // `resolve_order = roster`: A's shot first whatever the announcements.
    let roster = setup(&text, &[("resolve_order", "roster")]);
    let (log, _, fought) = run_with(&roster, &faces, script(&entries), true);
    fought.unwrap();
    assert_eq!(shooters(&log), [A, B]);
    // `announce_order = roster`: no order is drawn.
    let fixed = setup(&text, &[("announce_order", "roster")]);
    let (log, _, fought) = run_with(&fixed, &faces, script(&entries), true);
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Order { .. })));
}

#[test]
fn reaction_strikes_and_follows() {
    // rule: TICK-TIME-7, TICK-TIME-12, TICK-MOVE-6, TICK-MELEE-8
    let text =
        format!("{}\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = [0, 2]\n", two("", "position = [1, 0]", 1));
    let s = setup(&text, &[]);
    // B announces a move away; A answers with a reaction strike: it lands before the move.
    let strike = ann(Action::Strike { target: B, blow: Blow::Jab, weak_point: false });
    let entries = [(1, ann(Action::Move((3, 0)))), (0, strike), (2, NOTHING)];
    let sc = script(&entries);
    // The order die puts B first, then C, then A, so A sees B's announcement.
    let (log, state, fought) = run_with(&s, &[20, 1, 3], sc, true);
    fought.unwrap();
    let first_roll = log.iter().position(|e| matches!(e, Event::AttackRoll { who: A, .. }));
    let moved = log.iter().position(|e| matches!(e, Event::Moved { who: B, .. }));
    assert!(first_roll.is_some() && first_roll < moved, "{log:?}");
    assert_eq!(state.fighter(B).pos, (2, 0));
    // A strike needs an announced move (the roster order lets A see B's announcement only if B went first).
    let st = Ticks::initial_state(&s);
    assert!(illegal(&s, &st, A, &Action::Strike { target: B, blow: Blow::Jab, weak_point: false }).is_some());
    let none = setup(&text, &[("same_tick_reactions", "none")]);
    let mut moved_state = Ticks::initial_state(&none);
    Ticks::apply(&none, &mut moved_state, &Event::Announced { who: B, action: Action::Move((3, 0)) });
    assert!(illegal(&none, &moved_state, A, &Action::Follow(B)).is_some());
    assert!(illegal(&s, &moved_state, A, &Action::Follow(B)).is_none());
    // An announcement lasts its tick only (TICK-TIME-2): at the next tick's start B's move of the
    // tick before is gone, and A may no longer strike at it or follow it.
    Ticks::apply(&s, &mut moved_state, &Event::TickStarted { tick: 2 });
    assert_eq!(moved_state.fighter(B).announced, None);
    assert!(illegal(&s, &moved_state, A, &Action::Follow(B)).is_some());
    assert!(illegal(&s, &moved_state, A, &Action::Strike { target: B, blow: Blow::Jab, weak_point: false }).is_some());
    // An announcement that is not a move (here an aim at A) allows neither.
    Ticks::apply(&s, &mut moved_state, &Event::Announced { who: B, action: Action::Aim(A) });
    assert!(illegal(&s, &moved_state, A, &Action::Follow(B)).is_some());
    assert!(illegal(&s, &moved_state, A, &Action::Strike { target: B, blow: Blow::Jab, weak_point: false }).is_some());
    // A follow: B runs two squares... one square here; A ends adjacent to B's new square.
    let far = setup(&two("", "position = [2, 0]", 1), &[]);
    let entries = [(1, ann(Action::Move((4, 0)))), (0, ann(Action::Follow(B)))];
    let (log, state, fought) = run_with(&far, &[], script(&entries), true);
    fought.unwrap();
    assert_eq!(state.fighter(B).pos, (3, 0));
    assert_eq!(state.fighter(A).pos, (1, 0));
    assert!(log.iter().any(|e| matches!(e, Event::Moved { who: A, to: (1, 0), .. })));
    let two_sq = setup(&two("", "position = [2, 0]", 1), &[("follow_squares", "2")]);
    let (_, state, fought) = run_with(&two_sq, &[], script(&entries), true);
    fought.unwrap();
    assert_eq!(state.fighter(A).pos, (2, 0));
}

#[test]
fn a_reaction_strike_is_rolled_after_announcing_closes() {
    // rule: TICK-TIME-5, TICK-TIME-7
    // In roster order: M announces a move away from S, S answers with a reaction strike, and C
    // announces after S. No roll of the tick, the strike's included, comes before C's announcement.
    let text = "[rules]\nruleset = \"ticks\"\n[rules.options]\ntick_cap = 1\nannounce_order = \"roster\"\n\n\
        [[combatants]]\nname = \"M\"\nside = \"b\"\nposition = [1, 0]\n\n\
        [[combatants]]\nname = \"S\"\nside = \"a\"\nposition = [0, 0]\n\n\
        [[combatants]]\nname = \"C\"\nside = \"b\"\nposition = [0, 3]\n";
    let s = setup(text, &[]);
    let (m, striker, c) = (CombatantId(0), CombatantId(1), CombatantId(2));
    let strike = ann(Action::Strike { target: m, blow: Blow::Jab, weak_point: false });
    let entries = [(0, ann(Action::Move((3, 0)))), (1, strike), (2, NOTHING)];
    let (log, state, result) = run(&s, &[20, 1, 3, 1, 1, 1, 1, 1, 1, 1], script(&entries));
    result.unwrap();
    let first_roll = log.iter().position(|e| matches!(e, Event::AttackRoll { who, .. } if *who == striker));
    let last_announced = log.iter().rposition(|e| matches!(e, Event::Announced { who, .. } if *who == c));
    assert!(first_roll.is_some() && last_announced < first_roll, "{log:#?}");
    assert_eq!(state.fighter(m).pos, (2, 0));
}

#[test]
fn defence_without_the_action_and_firearm_initiative() {
    // rule: TICK-TIME-9, TICK-TIME-11
    let text = two(
        "gun = \"pistol\"\ngun_ready = true",
        "position = [6, 0]\ngun = \"pistol\"\ngun_ready = true\nskills = { evade = 7 }",
        1,
    );
    let s = setup(&text, &[]);
    let mut st = Ticks::initial_state(&s);
    Ticks::apply(&s, &mut st, &Event::Announced { who: B, action: Action::fire(A, 1, false) });
    assert_eq!(defence_numbers(&s, &st, B, Kind::Shot, 4).total, 7);
    let costs = setup(&text, &[("defence_costs_action", "true")]);
    assert_eq!(defence_numbers(&costs, &st, B, Kind::Shot, 4).total, 0);
    // `firearm_initiative = low_stability_first`: the steadier shooter fires first and its hit lands
    // at once; A (p 9, first in the roster) is down before its turn.
    let lsf = two(
        "gun = \"pistol\"\ngun_ready = true\nbody = 3\nstability = 9",
        "position = [1, 0]\ngun = \"pistol\"\ngun_ready = true",
        1,
    );
    let l = setup(&lsf, &[("firearm_initiative", "low_stability_first"), ("resolve_order", "roster")]);
    let entries = [(1, fire(A)), (1, PULL), (0, fire(B)), (0, PULL)];
    let (log, _, fought) = run_with(&l, &[20, 1, 3], script(&entries), false);
    fought.unwrap();
    assert_eq!(shooters(&log), [B]);
    assert!(log.contains(&Event::Down { who: A }));
    // A shooter still standing whose target fell to an earlier group does not fire at it (out
    // characters are no targets, TICK-TRACK-5): C (p 9) and A (p 0) both shoot B; A's hit downs
    // B first, and C's shot is not made.
    let c = "\n[[combatants]]\nname = \"C\"\nside = \"a\"\nposition = [0, 1]\ngun = \"pistol\"\ngun_ready = true\nstability = 9\n";
    let three = two("gun = \"pistol\"\ngun_ready = true", "position = [1, 0]\nbody = 3", 1) + c;
    let l3 = setup(&three, &[("firearm_initiative", "low_stability_first"), ("resolve_order", "roster")]);
    let both_at_b = [(0, fire(B)), (0, PULL), (1, NOTHING), (2, fire(B)), (2, PULL)];
    let (log, _, fought) = run_with(&l3, &[20, 1, 3], script(&both_at_b), false);
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert!(log.contains(&Event::Down { who: B }));
    assert_eq!(shooters(&log), [A]);
    // Without it, the roster's order and simultaneity: both fire.
    let plain = setup(&lsf, &[("resolve_order", "roster")]);
    let (log, _, fought) = run_with(&plain, &[20, 1, 3, 20, 1, 3], script(&entries), false);
    fought.unwrap();
    assert_eq!(log.iter().filter(|ev| matches!(ev, Event::AttackRoll { .. })).count(), 2);
    // Equal p fire together: both shots, both down.
    let even = lsf.replace("stability = 9", "stability = 0").replace(
        "position = [1, 0]\ngun = \"pistol\"\ngun_ready = true",
        "position = [1, 0]\ngun = \"pistol\"\ngun_ready = true\nbody = 3",
    );
    let e = setup(&even, &[("firearm_initiative", "low_stability_first")]);
    let (log, _, result) = run_with(&e, &[20, 1, 3, 20, 1, 3], script(&entries), false);
    assert_eq!(log.iter().filter(|ev| matches!(ev, Event::AttackRoll { .. })).count(), 2);
    assert_eq!(result.unwrap().outcome, Outcome::Mutual);
    // A knife-fighter with the shooter's p: the last shooters' damage lands before anyone else
    // acts, so B, downed by A's shot, does not strike.
    let knife = two(
        "gun = \"pistol\"\ngun_ready = true\nskills = { shoot = 15 }",
        "position = [1, 0]\nmelee_weapon = \"knife\"\nbody = 1",
        1,
    );
    let k = setup(&knife, &[("firearm_initiative", "low_stability_first"), ("resolve_order", "roster")]);
    let strike = ann(Action::Melee { target: A, blow: Blow::Strike, weak_point: false });
    let (log, _, fought) =
        run_with(&k, &[20, 1, 3, 20, 1, 3, 1, 1], script(&[(0, fire(B)), (0, PULL), (1, strike)]), false);
    fought.unwrap();
    let attackers: Vec<CombatantId> =
        log.iter().filter_map(|e| if let Event::AttackRoll { who, .. } = e { Some(*who) } else { None }).collect();
    assert_eq!(attackers, [A], "{log:#?}");
    assert!(log.contains(&Event::Down { who: B }));
}

#[test]
fn own_costs_never_count_against_a_defence_under_immediate_simultaneity() {
    // rule: TICK-TIME-4, TICK-TIME-13
    // Under `simultaneity = immediate` a character's p rises as its actions resolve, and its own
    // costs of the tick (a ready penalty, a shot's or blow's cost, a held shot penalty released)
    // count against its later attack rolls, never its defence rolls. p from earlier ticks counts.
    let s = setup(&two("gun = \"pistol\"", "position = [6, 0]", 2), &[("simultaneity", "immediate")]);
    let mut st = Ticks::initial_state(&s);
    let defence_p = |st: &State| defence_numbers(&s, st, A, Kind::Shot, 4).p;
    Ticks::apply(&s, &mut st, &Event::TickStarted { tick: 1 });
    Ticks::apply(&s, &mut st, &Event::Readied { who: A, penalty: 2 });
    assert_eq!((st.fighter(A).p, defence_p(&st)), (2, 0));
    let cost = Event::Cost { who: A, p: 1, effort: 0, held: 1, string: true, attack: true };
    Ticks::apply(&s, &mut st, &cost);
    assert_eq!((st.fighter(A).p, defence_p(&st)), (3, 0));
    Ticks::apply(&s, &mut st, &Event::Released { who: A, p: 1 });
    assert_eq!((st.fighter(A).p, defence_p(&st)), (4, 0));
    // The next tick, the p it carries counts against its defence.
    Ticks::apply(&s, &mut st, &Event::TickStarted { tick: 2 });
    assert_eq!(defence_p(&st), st.fighter(A).p);
    assert!(defence_p(&st) > 0);
}

#[test]
fn the_announcement_order_has_its_own_stream() {
    // rule: TICK-TIME-6, TICK-TIME-13
    use fray_rules::ticks::front::OrderStream;
    // Two fights from the same seed with different announcement orders draw the same combat dice.
    let text = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\ngun = \"pistol\"\ngun_ready = true", 2);
    let s = setup(&text, &[]);
    let faces = |order_seed: u64| {
        let dice = OrderStream::new(fray_engine::FromSource(fray_dice::seeded(99)), Some(order_seed));
        let mut fight = Fight::<Ticks, _, _, _>::new(&s, dice, fray_rules::ticks::policy::Ai, Record::default());
        fight.run().unwrap();
        let (_, record) = fight.into_parts();
        let orders: Vec<Vec<CombatantId>> = record
            .0
            .iter()
            .filter_map(|e| match e {
                Event::Order { order } => Some(order.to_vec()),
                _ => None,
            })
            .collect();
        let rolls: Vec<[u8; 3]> = record
            .0
            .iter()
            .filter_map(|e| match e {
                Event::AttackRoll { faces, .. } => Some(*faces),
                _ => None,
            })
            .collect();
        (orders, rolls)
    };
    let runs: Vec<_> = (0..8).map(faces).collect();
    assert!(runs.iter().any(|r| r.0 != runs[0].0), "some order seed changes the order");
    let first_roll = |r: &(Vec<Vec<CombatantId>>, Vec<[u8; 3]>)| r.1.first().copied();
    assert!(runs.iter().all(|r| first_roll(r) == first_roll(&runs[0])));
}

#[test]
fn lowering_a_gun() {
    // rule: TICK-TIME-12, TICK-GUN-3
    let text = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]", 1);
    let s = setup(&text, &[]);
    // Free: lowered with the announcement, then the real one (aim) readies it again.
    let (log, state, fought) = run(&s, &[], script(&[(0, ann(Action::Lower)), (0, ann(Action::Aim(B))), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.contains(&Event::Lowered { who: A }));
    assert!(log.contains(&Event::Announced { who: A, action: Action::Aim(B) }));
    assert!(state.fighter(A).ready);
    let action = setup(&text, &[("lower_gun_cost", "action")]);
    let (log, state, fought) = run(&action, &[], script(&[(0, ann(Action::Lower)), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.contains(&Event::Announced { who: A, action: Action::Lower }));
    assert!(!state.fighter(A).ready);
    // `snap_shot = separate_action`: a lowered gun cannot fire.
    let sep = setup(&two("gun = \"pistol\"", "position = [6, 0]", 1), &[("snap_shot", "separate_action")]);
    let st = Ticks::initial_state(&sep);
    assert!(illegal(&sep, &st, A, &Action::fire(B, 1, false)).is_some());
    assert!(illegal(&sep, &st, A, &Action::Ready).is_none());
    // Nor a running shot; a ready one can, and under the default a lowered one snaps.
    let running_shot = Action::Run { to: (1, 0), attack: Some((B, None, false)) };
    assert!(illegal(&sep, &st, A, &running_shot).is_some());
    let mut readied = st.clone();
    Ticks::apply(&sep, &mut readied, &Event::Readied { who: A, penalty: 0 });
    assert!(illegal(&sep, &readied, A, &running_shot).is_none());
    let snap = setup(&two("gun = \"pistol\"", "position = [6, 0]", 1), &[]);
    assert!(illegal(&snap, &Ticks::initial_state(&snap), A, &running_shot).is_none());
    // A gun already up is not readied again.
    assert!(illegal(&sep, &readied, A, &Action::Ready).is_some());
    // A burst may split its shots between targets (TICK-TIME-12, TICK-GUN-10).
    let three = format!(
        "{}\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = [6, 2]\n",
        two("gun = \"assault_rifle\"\ngun_ready = true", "position = [6, 0]", 1)
    );
    let t3 = setup(&three, &[]);
    let c = CombatantId(2);
    let split = ann(Action::Fire { targets: [B, c, c], shots: 3, weak_point: false });
    let (log, _, fought) = run(
        &t3,
        &[1, 20, 1, 20, 1, 20],
        script(&[(0, split), (0, PULL), (0, PULL), (0, PULL), (1, NOTHING), (2, NOTHING)]),
    );
    fought.unwrap();
    let targets: Vec<CombatantId> = log
        .iter()
        .filter_map(|e| match e {
            Event::AttackRoll { target, .. } => Some(*target),
            _ => None,
        })
        .collect();
    assert_eq!(targets, [B, c, c]);
    // More shots than the rate.
    assert!(illegal(&s, &Ticks::initial_state(&s), A, &Action::fire(B, 2, false)).is_some());
}

// --- Movement ---------------------------------------------------------------------------------

#[test]
fn moving_running_and_squares() {
    // rule: TICK-MOVE-1, TICK-MOVE-2, TICK-MOVE-3, TICK-MOVE-5
    let s = setup(&two("", "position = [9, 0]", 3), &[]);
    assert_eq!((s.distance_m((0, 0), (3, 4)), chebyshev((0, 0), (1, 1))), (5.0, 1));
    let metres = setup(&two("", "position = [9, 0]", 3), &[("square_m", "1.5")]);
    assert_eq!(metres.distance_m((0, 0), (2, 0)), 3.0);
    let (_, state, fought) = run(
        &s,
        &[],
        script(&[(0, ann(Action::Move((5, 0)))), (1, NOTHING), (0, NOTHING), (1, NOTHING), (0, NOTHING), (1, NOTHING)]),
    );
    fought.unwrap();
    assert_eq!(state.fighter(A).pos, (1, 0));
    // Running: 1, then 2 a tick; a tick without running ends the run.
    let run3 = |s: &Setup, entries: &[(usize, Choice)]| {
        let (log, _, fought) = run(s, &[], script(entries));
        fought.unwrap();
        log
    };
    let r = ann(Action::Run { to: (8, 0), attack: None });
    let log = run3(&s, &[(0, r), (0, r), (0, r), (1, NOTHING), (1, NOTHING), (1, NOTHING)]);
    let ends: Vec<_> = log
        .iter()
        .filter_map(|e| match e {
            Event::Moved { who: A, to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(ends, [(1, 0), (3, 0), (5, 0)]);
    let log = run3(&s, &[(0, r), (0, NOTHING), (0, r), (1, NOTHING), (1, NOTHING), (1, NOTHING)]);
    let ends: Vec<_> = log
        .iter()
        .filter_map(|e| match e {
            Event::Moved { who: A, to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(ends, [(1, 0), (2, 0)]);
    // An occupied square stops the mover.
    let close = setup(&two("", "position = [1, 0]", 1), &[]);
    let (log, state, fought) =
        run(&close, &[], script(&[(0, ann(Action::Run { to: (4, 0), attack: None })), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.contains(&Event::Blocked { who: A, at: (1, 0) }));
    assert_eq!(state.fighter(A).pos, (0, 0));
    let shared = setup(&two("", "position = [1, 0]", 1), &[("square_occupancy", "shared")]);
    let (_, state, fought) =
        run(&shared, &[], script(&[(0, ann(Action::Run { to: (4, 0), attack: None })), (1, NOTHING)]));
    fought.unwrap();
    assert_eq!(state.fighter(A).pos, (1, 0));
    // Two on one square from the start: refused under `exclusive`, taken under `shared`.
    let together = two("", "position = [0, 0]", 1);
    assert!(
        load_err(&together).contains("square (0, 0) is taken (square_occupancy = exclusive)"),
        "{}",
        load_err(&together)
    );
    setup(&together, &[("square_occupancy", "shared")]);
}

#[test]
fn running_attacks() {
    // rule: TICK-MOVE-4
    let s = setup(&two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]", 1), &[]);
    let st = Ticks::initial_state(&s);
    assert_eq!(shot_numbers(&s, &st, A, B, true).total, shot_numbers(&s, &st, A, B, false).total - 10);
    let run_shot = ann(Action::Run { to: (0, 5), attack: Some((B, None, false)) });
    let (log, _, fought) = run(&s, &[20, 1, 3], script(&[(0, run_shot), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    // After one square (0, 1): 6.08 m → +2; 20 + 5 + 2 − 10 = 17.
    assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { who: A, a: 17, .. })));
    let blow = Action::Run { to: (5, 0), attack: Some((B, Some(Blow::Jab), false)) };
    assert!(illegal(&s, &st, A, &blow).is_some());
    let penalty = setup(&two("gun = \"pistol\"", "position = [6, 0]", 1), &[("running_melee", "penalty")]);
    assert!(illegal(&penalty, &Ticks::initial_state(&penalty), A, &blow).is_none());
    // And in the fight: A runs a square to B's side and jabs him on the way.
    let close = setup(&two("", "position = [2, 0]\npolicy = { move = \"hold\" }", 1), &[("running_melee", "penalty")]);
    let charge = ann(Action::Run { to: (1, 0), attack: Some((B, Some(Blow::Jab), false)) });
    let (log, state, fought) = run(&close, &[10, 10, 10, 1, 1, 1], script(&[(0, charge), (0, PULL), (1, NOTHING)]));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert_eq!(state.fighter(A).pos, (1, 0));
    assert!(
        log.iter().any(|e| matches!(e, Event::AttackRoll { who: A, target: B, kind: Kind::Melee(Blow::Jab), .. })),
        "{log:#?}"
    );
}

// --- Cover and defence --------------------------------------------------------------------------

#[test]
fn cover_squares_dives_and_the_fixed_model() {
    // rule: TICK-COVER-10, TICK-DEF-3, TICK-COVER-1, TICK-COVER-3
    let map = "[[cover]]\nsquare = [6, 2]\nrating = 50\nresistance = 16\n\n[[cover]]\nsquare = [8, 0]\npreset = \"window\"\nmaterial = \"brick_wall\"\n";
    let text = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\npolicy = { move = \"hold\" }", 2)
        .replacen("[[combatants]]", &format!("{map}\n[[combatants]]"), 1);
    let s = setup(&text, &[]);
    assert_eq!(s.cover_at((8, 0)), Some(Cover { rating: 80, resistance: 16 }));
    // B in the open with cover 2 m away: it dives, paying the cover base, no bonus, and ends the
    // tick in the nearest square; of the two at 2 m the higher rating wins (the window at (8, 0)).
    let (log, state, fought) = run(
        &s,
        &[1, 20, 1, 20],
        script(&[(0, fire(B)), (0, PULL), (0, fire(B)), (0, PULL), (1, NOTHING), (1, NOTHING)]),
    );
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: B, cover: 0, dive: Some((8, 0)), .. })));
    // A = 1 + 5 + 2 = 8 against D = 25: won by 17, the cover base 15 − 17 → 0 (the dodge base would be 3).
    let first = log.iter().find(|e| matches!(e, Event::Exchange { .. }));
    assert!(matches!(first, Some(Event::Exchange { delta: -17, effort: 0, .. })), "{first:?}");
    assert!(log.iter().any(|e| matches!(e, Event::Moved { who: B, to: (8, 0), .. })));
    // From the next tick it has the square's cover.
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: B, cover: 16, dive: None, .. })));
    assert_eq!(state.fighter(B).pos, (8, 0));
    // Stepping into a cover square this tick: no bonus yet, but the cover base (a dive in place).
    let step = setup(
        &two("gun = \"pistol\"\ngun_ready = true", "position = [6, 1]", 1).replacen(
            "[[combatants]]",
            &format!("{map}\n[[combatants]]"),
            1,
        ),
        &[],
    );
    let (log, _, fought) = run(&step, &[1, 20], script(&[(1, ann(Action::Move((6, 2)))), (0, fire(B)), (0, PULL)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: B, cover: 0, dive: Some((6, 2)), .. })));
    // The dive replaces the tick's move: its reach is measured from the square held at the
    // tick's start. B started 3 m from the window and stepped to 4 m: it still dives there.
    let mut moved = Ticks::initial_state(&s);
    moved.fighters[1].square0 = (11, 0);
    moved.fighters[1].pos = (12, 0);
    assert_eq!(fray_rules::ticks::policy::dive_square(&s, &moved, B), Some((8, 0)));
    moved.fighters[1].square0 = (12, 0);
    assert_eq!(fray_rules::ticks::policy::dive_square(&s, &moved, B), None);
    // `dive_range_m = 0` disables diving: the dodge base.
    let nodive = setup(&text, &[("dive_range_m", "0")]);
    let st = Ticks::initial_state(&nodive);
    assert_eq!(defence_numbers(&nodive, &st, B, Kind::Shot, 4).effort_base, 20);
    // `cover_model = fixed`: the stat-block cover everywhere, nobody dives.
    let fixed_text =
        two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\ncover = { rating = 30, resistance = 5 }", 1);
    let f = setup(&fixed_text, &[("cover_model", "fixed")]);
    let mut st = Ticks::initial_state(&f);
    st.fighters[1].square0 = (40, 40);
    assert_eq!(defence_numbers(&f, &st, B, Kind::Shot, 4).cover_bonus, 6);
    let sq = setup(&fixed_text, &[]);
    let mut st = Ticks::initial_state(&sq);
    st.fighters[1].square0 = (40, 40);
    assert_eq!(defence_numbers(&sq, &st, B, Kind::Shot, 4).cover_bonus, 0);
    // Extreme gear is refused rather than overflowing a roll: a range step under 0.1 m, more than
    // 16 armour pieces.
    let fine = two("gun = { base = \"pistol\", range_step_m = 0.0001 }", "position = [6, 0]", 1);
    assert!(load_err(&fine).contains("range_step_m"));
    let pieces = format!("armour = [{}]", vec!["\"helmet\""; 17].join(", "));
    assert!(load_err(&two(&pieces, "position = [6, 0]", 1)).contains("at most 16 armour pieces"));
    // Ratings are 0–90 in steps of 10.
    let bad = two("", "position = [6, 0]\ncover = { rating = 55, resistance = 5 }", 1);
    assert!(load_err(&bad).contains("steps of 10"));
}

#[test]
fn cover_against_melee_and_the_penetration_source() {
    // rule: TICK-COVER-8, TICK-COVER-7, TICK-COVER-9
    let text = two("", "position = [1, 0]\ncover = { rating = 50, resistance = 3 }", 1);
    let s = setup(&text, &[]);
    let st = Ticks::initial_state(&s);
    assert_eq!(defence_numbers(&s, &st, B, Kind::Melee(Blow::Strike), 0).cover_bonus, 0);
    let m = setup(&text, &[("cover_vs_melee", "true")]);
    assert_eq!(defence_numbers(&m, &st, B, Kind::Melee(Blow::Strike), 0).cover_bonus, 10);
    // Pen 4 through resistance 3 at 50 %: slowed below delta 5; `halved_bonus`: below 3.
    let o = Options::default();
    let table = Cover { rating: 50, resistance: 3 };
    assert_eq!(attack::slowed_below(&o, table, 4), Some(5));
    let halved = Options { slowed_halved: true, ..Options::default() };
    assert_eq!(attack::slowed_below(&halved, table, 4), Some(3));
    assert_eq!(attack::slowed_below(&o, table, 3), None);
    assert_eq!(attack::slowed_below(&o, table, 8), None);
    // The weak-point bonus does not count for slowing unless `cover_pen_source = with_weak_point`:
    // pen 1 (+ 2) through resistance 1 at delta 4 → slowed only with the bonus.
    let w = Weapon { graze: 4, graze_mod: 0, delta_damage: 1, penetration: 1, lethal: true };
    let c = Some(Cover { rating: 50, resistance: 1 });
    assert!(!attack::harm(&o, w, 4, true, c, 3, None, 30).slowed);
    let wp = Options { cover_pen_weak_point: true, ..Options::default() };
    assert!(attack::harm(&wp, w, 4, true, c, 3, None, 30).slowed);
}

#[test]
fn effort_shortfalls_and_several_attacks() {
    // rule: TICK-DEF-5, TICK-DEF-8, TICK-DEF-6
    // B with 10 effort is shot twice in one tick in the open (base 20); A's three-shot burst.
    let text = two("gun = \"assault_rifle\"\ngun_ready = true", "position = [6, 0]\neffort = 20", 1);
    let s = setup(&text, &[]);
    let burst = ann(Action::fire(B, 2, false));
    // A = 1 + 5 + 1 = 7 twice (the burst's penalties held back), D = 15: B wins by 8 and pays
    // 12; the second time 12 > 8 left: it spends 8 and is grazed.
    let (log, state, fought) = run(&s, &[1, 10, 1, 10, 3], script(&[(0, burst), (0, PULL), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    let ex: Vec<(i32, i32, bool)> = log
        .iter()
        .filter_map(|e| match e {
            Event::Exchange { delta, effort, shortfall, .. } => Some((*delta, *effort, *shortfall)),
            _ => None,
        })
        .collect();
    assert_eq!(ex[0], (-8, 12, false));
    assert_eq!(ex[1], (0, 8, true));
    assert!(log.iter().any(|e| matches!(e, Event::Hit { raw: 6, .. })));
    assert_eq!(state.fighter(B).effort, 0);
    // `effort_shortfall = ignore`: the second shot is still avoided.
    let ignore = setup(&text, &[("effort_shortfall", "ignore")]);
    let (log, _, fought) = run(&ignore, &[1, 10, 1, 10, 3], script(&[(0, burst), (0, PULL), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Hit { .. })));
    // `effort_tally = start_of_tick`: both tests use 20: no shortfall; the total stops at 0.
    let start = setup(&text, &[("effort_tally", "start_of_tick")]);
    let (log, state, fought) =
        run(&start, &[1, 10, 1, 10, 3], script(&[(0, burst), (0, PULL), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Hit { .. })));
    assert_eq!(state.fighter(B).effort, 0);
    // Effort turns into p only while aiming under `effort_stability_scope = aiming_only`.
    let aiming = setup(&text, &[("effort_stability_scope", "aiming_only")]);
    let (log, _, fought) = run(&aiming, &[1, 10, 1, 10, 3], script(&[(0, burst), (0, PULL), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.iter().all(|e| !matches!(e, Event::Exchange { p, .. } if *p != 0)));
    // … while a defender who was aiming at the tick's start turns its effort into p.
    let aimer = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\ngun = \"pistol\"\ngun_ready = true", 2);
    let a2 = setup(&aimer, &[("effort_stability_scope", "aiming_only")]);
    let entries = [(0, NOTHING), (0, fire(B)), (0, PULL), (1, ann(Action::Aim(A))), (1, ann(Action::Aim(A)))];
    let (log, _, fought) = run(&a2, &[1, 10], script(&entries));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Exchange { effort: 13, p: 13, .. })), "{log:?}");
    // Under `start_of_tick`, the p that effort brings stops where the effort did: 20, not 24.
    let (_, state, fought) = run(&start, &[1, 10, 1, 10, 3], script(&[(0, burst), (0, PULL), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    assert_eq!(state.fighter(B).p, fray_rules::ticks::recover(20));
}

// --- Damage, armour and gear ----------------------------------------------------------------

#[test]
fn the_odd_point_of_a_weak_point_delta_goes_where_the_option_says() {
    // rule: TICK-ARM-9
    // A pistol (graze 4, 1 a point of delta, pen 5) with weak-point aim at delta 5, on the torso
    // (face 3) under a soft vest of resistance 8.
    let pistol = Weapon { graze: 4, graze_mod: 0, delta_damage: 1, penetration: 5, lethal: true };
    let vest = Armour { name: "vest".into(), hard: false, resistance: 8, locations: 1 << 3, encumbrance: 0 };
    let hit = |o: &Options| {
        let h = attack::harm(o, pistol, 5, true, None, 3, Some(&vest), 30);
        (h.raw, h.armour, h.body, h.trauma)
    };
    // By default ⌊5 / 2⌋ = 2 goes to penetration (7 < 8: the vest holds) and 3 to damage:
    // 4 + 3 = 7 → Trauma 3.
    assert_eq!(hit(&Options::default()), (7, Some((false, 8, true)), 0, 3));
    // `weak_point_odd_point = penetration`: 3 to penetration (8: it penetrates), 2 to damage:
    // 4 + 2 = 6, all of it Body.
    let odd = Options { odd_point_penetration: true, ..Options::default() };
    assert_eq!(hit(&odd), (6, Some((false, 8, false)), 6, 0));
}

#[test]
fn the_wound_threshold_is_a_share_of_body_max_and_a_hit_that_costs_nothing_never_wounds() {
    // rule: TICK-DMG-6
    let wound = |o: &Options, damage: i32| {
        let w = Weapon { graze: damage, graze_mod: 0, delta_damage: 0, penetration: 0, lethal: true };
        attack::harm(o, w, 0, false, None, 3, None, 30).wound
    };
    // 2/5 of 30 is 12: 12 wounds, 11 does not.
    let two_fifths = Options { wound_threshold: Ratio { num: 2, den: 5 }, ..Options::default() };
    assert_eq!((wound(&two_fifths, 12), wound(&two_fifths, 11)), (WoundRule::Yes, WoundRule::No));
    // A threshold of 0: any Body lost wounds, a hit of 0 does not.
    let zero = Options { wound_threshold: Ratio { num: 0, den: 1 }, ..Options::default() };
    assert_eq!((wound(&zero, 1), wound(&zero, 0)), (WoundRule::Yes, WoundRule::No));
}

#[test]
fn graze_source_wound_penalty_and_encumbrance() {
    // rule: TICK-DMG-2, TICK-DMG-7, TICK-ARM-8, TICK-GEAR-3, TICK-MELEE-5
    let fixed = Options { graze_fixed_source: true, ..Options::default() };
    let pistol = Weapon { graze: 4, graze_mod: 0, delta_damage: 1, penetration: 4, lethal: true };
    assert_eq!(attack::harm(&fixed, pistol, 3, false, None, 3, None, 30).raw, 2 + 3 * 4);
    assert_eq!(attack::harm(&Options::default(), pistol, 3, false, None, 3, None, 30).raw, 4 + 3);
    // `graze_fixed` sets the fixed graze.
    let five = setup(&two("", "position = [6, 0]", 1), &[("graze_source", "fixed"), ("graze_fixed", "5")]).options;
    assert_eq!(attack::harm(&five, pistol, 3, false, None, 3, None, 30).raw, 5 + 3 * 4);
    // A heavy blow's +2 goes to the graze under both readings.
    let heavy = Weapon { graze: 3, graze_mod: 2, delta_damage: 1, penetration: 6, lethal: true };
    assert_eq!(attack::harm(&fixed, heavy, 3, false, None, 3, None, 30).raw, 2 + 2 + 3 * 3);
    assert_eq!(attack::harm(&Options::default(), heavy, 3, false, None, 3, None, 30).raw, 3 + 2 + 3);
    // Each wound: −2 to every roll.
    let s = setup(&two("gun = \"pistol\"\ngun_ready = true\nwounds = 2", "position = [6, 0]\nwounds = 1", 1), &[]);
    let st = Ticks::initial_state(&s);
    assert_eq!(shot_numbers(&s, &st, A, B, false).total, 5 + 2 - 4);
    assert_eq!(defence_numbers(&s, &st, B, Kind::Shot, 4).total, 5 - 2);
    // `wound_penalty` sets it.
    let text = two("gun = \"pistol\"\ngun_ready = true\nwounds = 2", "position = [6, 0]\nwounds = 1", 1);
    let s = setup(&text, &[("wound_penalty", "3")]);
    assert_eq!(shot_numbers(&s, &st, A, B, false).total, 5 + 2 - 6);
    assert_eq!(defence_numbers(&s, &st, B, Kind::Shot, 4).total, 5 - 3);
    // Encumbrance: ignored, or added to melee stability costs.
    let text = two("armour = [\"hard_plate\", \"helmet\"]", "position = [1, 0]", 1);
    let strike = ann(Action::Melee { target: B, blow: Blow::Strike, weak_point: false });
    let (log, _, fought) =
        run(&setup(&text, &[]), &[20, 1, 3], script(&[(0, strike), (0, Choice::Yes(false)), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Cost { who: A, p: 6, .. })));
    let (log, _, fought) = run(
        &setup(&text, &[("armour_encumbrance", "stability")]),
        &[20, 1, 3],
        script(&[(0, strike), (0, Choice::Yes(false)), (1, NOTHING)]),
    );
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Cost { who: A, p: 10, .. })));
    // An aborted strike costs half of both, rounded up: ⌈(6 + 4) / 2⌉ = 5 (TICK-MELEE-5).
    let (log, _, fought) = run(
        &setup(&text, &[("armour_encumbrance", "stability")]),
        &[20, 1, 3],
        script(&[(0, strike), (0, Choice::Yes(true)), (1, NOTHING)]),
    );
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Aborted { who: A })), "{log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::Cost { who: A, p: 5, .. })), "{log:#?}");
    // … and to every running tick.
    let runner = two("armour = [\"hard_plate\"]", "position = [9, 0]", 1);
    let r = ann(Action::Run { to: (5, 0), attack: None });
    let (log, _, fought) =
        run(&setup(&runner, &[("armour_encumbrance", "stability")]), &[], script(&[(0, r), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Cost { who: A, p: 3, attack: false, .. })));
    let (log, _, fought) = run(&setup(&runner, &[]), &[], script(&[(0, r), (1, NOTHING)]));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Cost { .. })));
    // Unarmoured, a running tick costs nothing and logs no cost.
    let bare = setup(&two("", "position = [9, 0]", 1), &[("armour_encumbrance", "stability")]);
    let (log, _, fought) = run(&bare, &[], script(&[(0, r), (1, NOTHING)]));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Cost { .. })));
    // `gear_tables = custom`: table ids are refused.
    let custom = two("gun = \"pistol\"", "position = [6, 0]", 1)
        .replace("tick_cap = 1", "tick_cap = 1\ngear_tables = \"custom\"");
    assert!(load_err(&custom).contains("gear_tables = custom"));
    // A custom gun takes every value, and no ammunition from the table (TICK-GEAR-3).
    let zip = "gun = { name = \"zip\", ready_penalty = 5, pb_bonus = 2, range_step_m = 2, damage = 4, delta_damage = 1, penetration = 4 }";
    let custom = two(zip, "position = [6, 0]", 1).replace("tick_cap = 1", "tick_cap = 1\ngear_tables = \"custom\"");
    assert_eq!(setup(&custom, &[]).combatants[0].gun.as_ref().map(|g| (g.damage, g.penetration)), Some((4, 4)));
    let ap = custom.replace("name = \"zip\",", "name = \"zip\", ammo = \"armour_piercing\",");
    assert!(load_err(&ap).contains("no ammunition table"), "{}", load_err(&ap));
    // One given no melee weapon fights with bare fists, as under the tables.
    let bare = &setup(&custom, &[]).combatants[1].melee_weapon;
    assert_eq!((bare.name.as_str(), bare.damage, bare.penetration, bare.unarmed), ("fists", 1, 0, true));
    // Nor a `base` from the table.
    let based = custom.replace("name = \"zip\",", "name = \"zip\", base = \"pistol\",");
    assert!(load_err(&based).contains("there is no table to start from"), "{}", load_err(&based));
}

#[test]
fn recoil_and_the_strength_gap() {
    // rule: TICK-GUN-9, TICK-GUN-4
    let text = two("gun = \"rifle\"\ngun_ready = true\nstrength = 2", "position = [6, 0]", 1);
    let (log, _, fought) = run(&setup(&text, &[]), &[1, 20], script(&[(0, fire(B)), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    // Rifle min strength 5: 3 + (5 − 2) = 6.
    assert!(log.iter().any(|e| matches!(e, Event::Cost { who: A, p: 6, .. })));
    let (log, _, fought) =
        run(&setup(&text, &[("recoil_rule", "off")]), &[1, 20], script(&[(0, fire(B)), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Cost { who: A, p: 3, .. })));
}

#[test]
fn stability_penalises_rolls_and_recovers_every_tick() {
    // rule: TICK-STAB-1, TICK-STAB-4
    let s = setup(&two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\nstability = 4", 1), &[]);
    let st = Ticks::initial_state(&s);
    assert_eq!(defence_numbers(&s, &st, B, Kind::Shot, 4).total, 1);
    let att = setup(
        &two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\nstability = 4", 1),
        &[("stability_applies_to", "attacks_only")],
    );
    assert_eq!(defence_numbers(&att, &st, B, Kind::Shot, 4).total, 5);
    // `recovery_timing = skip_cost_tick`: no recovery in the tick the shot's +3 came.
    let skip = setup(
        &two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]", 1),
        &[("recovery_timing", "skip_cost_tick")],
    );
    let (_, state, fought) = run(&skip, &[1, 20], script(&[(0, fire(B)), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    assert_eq!(state.fighter(A).p, 3);
    let every = setup(&two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]", 1), &[]);
    let (_, state, fought) = run(&every, &[1, 20], script(&[(0, fire(B)), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    assert_eq!(state.fighter(A).p, 2);
    // The string's penalty, when it closes the next tick, is a rise too: tick 1 the shot's 3
    // (kept), tick 2 the string's 7 → 10, kept; recovering every tick, 3 → 2, then 9 → 6.
    let two_ticks = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]", 2);
    let entries = [(0, fire(B)), (0, PULL), (0, NOTHING), (1, NOTHING), (1, NOTHING)];
    let skip2 = setup(&two_ticks, &[("recovery_timing", "skip_cost_tick")]);
    let (log, state, fought) = run(&skip2, &[1, 20], script(&entries));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::StringClosed { who: A, p: 7 })), "{log:?}");
    assert_eq!(state.fighter(A).p, 10);
    let (_, state, fought) = run(&setup(&two_ticks, &[]), &[1, 20], script(&entries));
    fought.unwrap();
    assert_eq!(state.fighter(A).p, 6);
    // So is the p a defender's effort brings, settled at the tick's end: B's 20 is kept.
    let burst = two("gun = \"assault_rifle\"\ngun_ready = true", "position = [6, 0]\neffort = 20", 1);
    let entries = [(0, ann(Action::fire(B, 2, false))), (0, PULL), (0, PULL), (1, NOTHING)];
    let sets = [("effort_tally", "start_of_tick"), ("recovery_timing", "skip_cost_tick")];
    let (log, state, fought) = run(&setup(&burst, &sets), &[1, 10, 1, 10, 3], script(&entries));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Settled { who: B, p: 20, .. })), "{log:?}");
    assert_eq!(state.fighter(B).p, 20);
}

// --- Melee ------------------------------------------------------------------------------------

#[test]
fn reach_and_blows_at_empty_squares() {
    // rule: TICK-MELEE-8, TICK-MELEE-11, TICK-TRACK-4
    let text = two("", "position = [1, 0]", 1);
    let s = setup(&text, &[]);
    let strike = ann(Action::Melee { target: B, blow: Blow::Strike, weak_point: false });
    // B steps away in step 3; A's blow in step 5 finds nobody: no roll, no cost.
    let (log, state, fought) = run(&s, &[], script(&[(1, ann(Action::Move((3, 0)))), (0, strike)]));
    fought.unwrap();
    assert!(log.contains(&Event::OutOfReach { who: A, target: B }));
    assert_eq!(pe(&state), (0, 60));
    let pay = setup(&text, &[("out_of_reach_attack", "pay_abort")]);
    let (_, state, fought) = run(&pay, &[], script(&[(1, ann(Action::Move((3, 0)))), (0, strike)]));
    fought.unwrap();
    assert_eq!(pe(&state), (2, 58));
    // `tick_order = moves_last`: the blow lands before B steps away.
    let last = setup(&text, &[("tick_order", "moves_last")]);
    let (log, _, fought) =
        run(&last, &[20, 1, 3], script(&[(1, ann(Action::Move((3, 0)))), (0, strike), (0, Choice::Yes(false))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { who: A, .. })));
    // Reach 2 under `melee_reach_squares = 2`.
    let reach = setup(&two("", "position = [2, 0]", 1), &[("melee_reach_squares", "2")]);
    let (log, _, fought) = run(&reach, &[20, 1, 3], script(&[(0, strike), (0, Choice::Yes(false)), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { who: A, .. })));
    // The effort gate: a heavy blow (6) with 5 effort left cannot be announced, unless `allow`.
    let tired = two("effort = 5", "position = [1, 0]", 1);
    let heavy = Action::Melee { target: B, blow: Blow::Heavy, weak_point: false };
    let t = setup(&tired, &[]);
    assert!(illegal(&t, &Ticks::initial_state(&t), A, &heavy).is_some());
    let allow = setup(&tired, &[("effort_gate", "allow")]);
    assert!(illegal(&allow, &Ticks::initial_state(&allow), A, &heavy).is_none());
}

fn pe(state: &State) -> (i32, i32) {
    (state.fighter(A).p, state.fighter(A).effort)
}

// --- Tracks -----------------------------------------------------------------------------------

#[test]
fn down_knocked_out_and_the_end() {
    // rule: TICK-TRACK-1, TICK-TRACK-3, TICK-TRACK-5, TICK-TRACK-6
    // A knife kills: Body ≤ 0 is Down, the fight ends at that tick's end.
    let text = two("melee_weapon = \"knife\"", "position = [1, 0]\nbody = 3", 5);
    let s = setup(&text, &[]);
    let strike = ann(Action::Melee { target: B, blow: Blow::Strike, weak_point: false });
    let (log, state, result) = run(&s, &[20, 1, 3], script(&[(0, strike), (0, Choice::Yes(false)), (1, NOTHING)]));
    assert!(log.contains(&Event::Down { who: B }));
    assert_eq!(result.unwrap(), FightResult { outcome: Outcome::Side(fray_engine::SideId(0)), length: 1 });
    assert!(state.fighter(B).out());
    // Fists: Trauma; KnockedOut at Trauma ≥ Body max, or ≥ current Body under `vs_current_body`.
    let fists = two("", "position = [1, 0]\nbody = 10\ntrauma = 25", 5);
    let (log, _, fought) =
        run(&setup(&fists, &[]), &[20, 1, 3], script(&[(0, strike), (0, Choice::Yes(false)), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.contains(&Event::KnockedOut { who: B }));
    let current = two("", "position = [1, 0]\nbody = 10\ntrauma = 0", 1);
    let (log, _, fought) =
        run(&setup(&current, &[]), &[20, 1, 3], script(&[(0, strike), (0, Choice::Yes(false)), (1, NOTHING)]));
    fought.unwrap();
    assert!(!log.contains(&Event::KnockedOut { who: B }));
    let (log, _, fought) = run(
        &setup(&current, &[("trauma_ko", "vs_current_body")]),
        &[20, 1, 3],
        script(&[(0, strike), (0, Choice::Yes(false)), (1, NOTHING)]),
    );
    fought.unwrap();
    assert!(log.contains(&Event::KnockedOut { who: B }));
    // A character that starts with Trauma ≥ its current Body is out under `vs_current_body`.
    let hurt = setup(&two("", "position = [5, 0]\nbody = 10\ntrauma = 15", 1), &[("trauma_ko", "vs_current_body")]);
    assert!(Ticks::initial_state(&hurt).fighter(B).knocked_out);
    let hurt_max = setup(&two("", "position = [5, 0]\nbody = 10\ntrauma = 15", 1), &[]);
    assert!(!Ticks::initial_state(&hurt_max).fighter(B).knocked_out);
    // Out characters are not targets unless `out_targetable`.
    let gone = setup(&two("gun = \"pistol\"", "position = [1, 0]\nbody = 0", 1), &[]);
    assert!(illegal(&gone, &Ticks::initial_state(&gone), A, &Action::Aim(B)).is_some());
    // Under `out_targetable = true` an out character may be shot, and does not defend.
    let standing = "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = [50, 50]\npolicy = { move = \"hold\" }\n";
    let lying = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\nbody = 10\ntrauma = 40", 1) + standing;
    let t = setup(&lying, &[("out_targetable", "true")]);
    assert!(illegal(&t, &Ticks::initial_state(&t), A, &Action::Aim(B)).is_none());
    let (log, state, fought) = run(&t, &[2, 3], script(&[(0, fire(B)), (0, PULL), (2, NOTHING)]));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Defence { .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Exchange { delta: 9, effort: 0, hit: true, .. })));
    assert_eq!(state.fighter(B).body, 10 - 13);
    // The cap: a stalemate after `tick_cap` ticks.
    let hold = "policy = { move = \"hold\" }";
    let idle = setup(&two(hold, "position = [9, 0]\npolicy = { move = \"hold\" }", 3), &[]);
    let (log, state, result) = run(&idle, &[], Script::new(2));
    assert_eq!(result.unwrap(), FightResult { outcome: Outcome::Stalemate, length: 3 });
    assert_eq!(replay::<Ticks>(&idle, &log), state);
}

/// A shooter that fires at B every tick and never declines; everyone else does nothing.
struct Shooter;

impl fray_engine::Decider<Ticks> for Shooter {
    fn decide(
        &mut self,
        _setup: &Setup,
        _state: &State,
        who: CombatantId,
        request: &fray_rules::ticks::Request,
    ) -> Result<Choice, fray_engine::Pending> {
        Ok(match request {
            fray_rules::ticks::Request::Announce { .. } if who == A => fire(B),
            fray_rules::ticks::Request::Announce { .. } => NOTHING,
            _ => Choice::Yes(false),
        })
    }
}

#[test]
fn exact_odds_agree_with_sampled_shots() {
    // rule: TICK-DICE-2
    // A snap shot with a pistol at a defender in a vest behind a table, 8 m away.
    let text = two(
        "gun = \"pistol\"",
        "position = [8, 0]\narmour = [\"soft_vest\"]\ncover = { preset = \"crouch_wall\", material = \"table\" }",
        1,
    );
    let s = setup(&text, &[]);
    let exact = fray_rules::ticks::odds::odds_in_state(&s, &Ticks::initial_state(&s), A, B);
    let mean_trauma: BigRational = exact
        .damage_given_hit
        .iter()
        .map(|(_, parts, p)| {
            p * BigRational::from_integer(parts.iter().find(|(k, _)| k == "trauma").map_or(0, |x| x.1).into())
        })
        .sum();
    let n = 40_000;
    let (mut hits, mut trauma) = (0u32, 0i64);
    let mut fight = Fight::<Ticks, _, _, _>::new(
        &s,
        fray_engine::FromSource(fray_dice::seeded(7)),
        Shooter,
        fray_engine::FnSink(|e: &Event| match e {
            Event::Exchange { hit: true, .. } => hits += 1,
            Event::Hit { trauma: t, .. } => trauma += i64::from(*t),
            _ => {}
        }),
    );
    for _ in 0..n {
        fight.restart();
        fight.run().unwrap();
    }
    drop(fight);
    use num_traits::ToPrimitive;
    let p = exact.hit.to_f64().unwrap();
    let sigma = (p * (1.0 - p) / f64::from(n)).sqrt();
    let observed = f64::from(hits) / f64::from(n);
    assert!((observed - p).abs() < 4.5 * sigma, "P(hit) exact {p}, sampled {observed}");
    let m = mean_trauma.to_f64().unwrap();
    let observed_t = trauma as f64 / f64::from(hits);
    assert!((observed_t - m).abs() < 0.1 * m.max(1.0), "E[trauma | hit] exact {m}, sampled {observed_t}");
}

#[test]
fn a_gunman_seeking_cover_does_not_run_into_an_ally_who_holds() {
    // rule: TICK-MOVE-5, TICK-COVER-10
    // Gil (`cover = seek`, the default) has cover two squares off, behind Ann, who holds: he
    // fires from where he stands instead of running into her every tick.
    let text = "[rules]\nruleset = \"ticks\"\n[rules.options]\ntick_cap = 20\n[[cover]]\nsquare = [2, 0]\npreset = \"crouch_wall\"\nmaterial = \"brick_wall\"\n[[combatants]]\nname = \"Gil\"\nside = \"a\"\nposition = [0, 0]\ngun = \"pistol\"\ngun_ready = true\n[[combatants]]\nname = \"Ann\"\nside = \"a\"\nposition = [1, 0]\npolicy = { move = \"hold\" }\n[[combatants]]\nname = \"Eve\"\nside = \"b\"\nposition = [12, 0]\ngun = \"pistol\"\ngun_ready = true\npolicy = { fire = \"snap\" }\n";
    let s = setup(text, &[]);
    for seed in 1..=5 {
        let dice = fray_engine::FromSource(fray_dice::seeded(seed));
        let mut fight = Fight::<Ticks, _, _, _>::new(&s, dice, fray_rules::ticks::policy::Ai, Record::default());
        fight.run().unwrap();
        let log = fight.into_parts().1.0;
        assert!(!log.iter().any(|e| matches!(e, Event::Blocked { who: A, .. })), "seed {seed}: {log:#?}");
        assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { who: A, .. })), "seed {seed}");
    }
}

#[test]
fn a_prompt_shows_each_options_own_odds_and_offers_weak_points_runs_and_steps() {
    // rule: TICK-MELEE-3, TICK-ARM-10, TICK-TIME-12, TICK-MOVE-1
    // Gus, a gunman (shoot 15, melee 5), next to Kat (knife, evade 0): his blows show melee odds
    // (melee 5 against melee 5 and evade 0), not the shot's; a jab and a heavy blow differ in harm.
    let text = two(
        "gun = \"pistol\"\ngun_ready = true\nskills = { shoot = 15, melee = 5, evade = 5 }",
        "position = [1, 0]\nmelee_weapon = \"knife\"\nskills = { shoot = 5, melee = 5, evade = 0 }",
        1,
    );
    let s = setup(&text, &[]);
    let state = Ticks::initial_state(&s);
    let scenario = fray_rules::ticks::TicksScenario(s.clone());
    let (_, options) = scenario.prompt_for(&state, A, &fray_rules::ticks::Request::Announce { tick: 1 }, None);
    let label =
        |a: Action| {
            options.iter().find(|(_, c)| *c == Choice::Announce(a)).map(|(l, _)| l.clone()).unwrap_or_else(|| {
                panic!("{a:?} not offered: {:#?}", options.iter().map(|(l, _)| l).collect::<Vec<_>>())
            })
        };
    let odds = |kind: Kind, weak: bool| fray_rules::ticks::odds::odds_of(&s, &state, A, B, kind, Some(weak));
    let shot = odds(Kind::Shot, false);
    let jab = odds(Kind::Melee(Blow::Jab), false);
    let heavy = odds(Kind::Melee(Blow::Heavy), false);
    assert_ne!(shot.hit, jab.hit);
    assert_ne!(jab.damage_given_hit, heavy.damage_given_hit);
    let jab_label = label(Action::Melee { target: B, blow: Blow::Jab, weak_point: false });
    assert!(jab_label.contains(&fraction(&jab.hit)), "{jab_label}");
    assert!(label(Action::fire(B, 1, false)).contains(&fraction(&shot.hit)));
    // Weak-point variants of every attack, and steps away from the fight.
    label(Action::Melee { target: B, blow: Blow::Heavy, weak_point: true });
    label(Action::Move((-1, 0)));
    label(Action::Run { to: (-2, -2), attack: None });
}

#[test]
fn a_shot_that_can_only_graze_is_not_declined_as_hopeless() {
    // rule: TICK-GUN-11, TICK-DEF-5
    // Sam's result A = D + 1 loses to every roll of Tia's but her least (a tie at best); with no
    // effort left, a defence she wins still costs effort she lacks, so the shot lands as a graze:
    // the `hopeless` policy must not decline it. With effort to spare it declines.
    let text = two(
        "gun = \"pistol\"\ngun_ready = true\nskills = { shoot = 0 }",
        "position = [36, 0]\nskills = { evade = 15 }\neffort = 0",
        1,
    );
    let s = setup(&text, &[]);
    let mut st = Ticks::initial_state(&s);
    let pen = s.combatants[0].gun.as_ref().map_or(0, |g| g.penetration);
    let d = defence_numbers(&s, &st, B, Kind::Shot, pen).total;
    let decline = |st: &State| {
        let base = shot_numbers(&s, st, A, B, false).total;
        fray_rules::ticks::policy::ai_choice(
            &s,
            st,
            A,
            &fray_rules::ticks::Request::Decline { target: B, a: d + 1, base },
        )
    };
    assert!(fray_rules::ticks::policy::p_win(&s, &st, B, Kind::Shot, pen, d + 1, 0).0 > 0);
    assert_eq!(decline(&st), Choice::Yes(false));
    st.fighters[1].effort = 100;
    assert_eq!(fray_rules::ticks::policy::p_win(&s, &st, B, Kind::Shot, pen, d + 1, 0).0, 0);
    assert_eq!(decline(&st), Choice::Yes(true));
}

#[test]
fn a_steady_shooter_under_fire_fires_rather_than_aims() {
    // rule: TICK-AIM-4
    // Being fired upon spoils an aim, so a `steady` gunman whose p stays high because he is under
    // fire would aim forever: under fire he fires whenever the shot can win, though it wins less
    // than a third of the time; not under fire he keeps aiming.
    let text = two(
        "gun = \"pistol\"\ngun_ready = true\nskills = { shoot = 5 }",
        "position = [10, 0]\ngun = \"pistol\"\nskills = { evade = 6 }",
        1,
    );
    let s = setup(&text, &[]);
    let mut st = Ticks::initial_state(&s);
    st.fighters[0].p = 12;
    let pen = s.combatants[0].gun.as_ref().map_or(0, |g| g.penetration);
    let a = shot_numbers(&s, &st, A, B, false).total;
    let d = defence_numbers(&s, &st, B, Kind::Shot, pen).total;
    let (win, _, all) = fray_rules::ticks::policy::beats(&s, a, d);
    assert!(win > 0 && 3 * win < all, "the case needs a poor shot that can win: {win}/{all}");
    let announce =
        |st: &State| fray_rules::ticks::policy::ai_choice(&s, st, A, &fray_rules::ticks::Request::Announce { tick: 2 });
    assert_eq!(announce(&st), ann(Action::Aim(B)));
    st.fighters[0].under_fire = true;
    assert_eq!(announce(&st), fire(B));
    // Nothing to win: aiming it is, under fire or not.
    st.fighters[0].p = 200;
    assert_eq!(announce(&st), ann(Action::Aim(B)));
}

#[test]
fn the_odds_compare_trauma_with_the_body_a_hit_leaves() {
    // rule: TICK-TRACK-3
    // Under `trauma_ko = vs_current_body` the fight compares Trauma with Body after the hit: Tia,
    // Body 12 and Trauma 10, is knocked out by any pistol hit (each costs at least 2 Body).
    let text = two(
        "gun = \"pistol\"\ngun_ready = true",
        "position = [6, 0]\nbody = 12\ntrauma = 10\npolicy = { move = \"hold\" }",
        1,
    );
    let s = setup(&text, &[("trauma_ko", "vs_current_body")]);
    let odds = fray_rules::ticks::odds::odds_in_state(&s, &Ticks::initial_state(&s), A, B);
    assert_eq!(q(&odds.down_given_hit), "1/1");
    assert_eq!(odds.down, odds.hit);
    // The fight agrees: a hit by 1 on a leg, 5 halved to 2 Body, knocks her out (Trauma 10 ≥ 10).
    let (log, _, fought) = run(&s, &[9, 10, 7], script(&[(0, fire(B)), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Hit { body: 2, .. })), "{log:?}");
    assert!(log.contains(&Event::KnockedOut { who: B }));
}

fn decline(s: &Setup, st: &State, a: i32, base: i32) -> Choice {
    let request = fray_rules::ticks::Request::Decline { target: B, a, base };
    fray_rules::ticks::policy::ai_choice(s, st, A, &request)
}

#[test]
fn the_decline_odds_use_the_effort_left_after_the_ticks_earlier_defences() {
    // rule: TICK-DEF-8, TICK-DEF-5, TICK-GUN-11
    // Tia (evade 10, effort 21) already owes all 21 effort for this tick's earlier defences. A
    // shot with A = 8 loses to each of her rolls, but a defence she wins by less than 20 costs
    // effort she no longer has: it lands as a graze unless she rolls 18 or more (cost 0).
    let text = two(
        "gun = \"assault_rifle\"\ngun_ready = true\nskills = { shoot = 0 }",
        "position = [6, 0]\neffort = 21\nskills = { evade = 10 }",
        1,
    );
    let s = setup(&text, &[]);
    let mut st = Ticks::initial_state(&s);
    st.fighters[1].pend_effort = 21;
    let pen = s.combatants[0].gun.as_ref().map_or(0, |g| g.penetration);
    assert_eq!(fray_rules::ticks::policy::effort_available(&s, &st, B), 0);
    assert_eq!(fray_rules::ticks::policy::p_win(&s, &st, B, Kind::Shot, pen, 8, 1), (17, 20));
    assert_eq!(decline(&s, &st, 8, 1), PULL);
    // Under `effort_tally = start_of_tick` she still has her 21 for the test: the shot is hopeless.
    let start = setup(&text, &[("effort_tally", "start_of_tick")]);
    assert_eq!(fray_rules::ticks::policy::p_win(&start, &st, B, Kind::Shot, pen, 8, 1), (0, 20));
    assert_eq!(decline(&start, &st, 8, 1), Choice::Yes(true));
    // The fight: a burst at her, the first two shots costing her 1 and 20 effort; the third,
    // A = 8, lands as a graze, and the policy fires it.
    let burst = ann(Action::fire(B, 3, false));
    let (log, _, fought) =
        run(&s, &[3, 13, 13, 2, 9, 7, 16, 3], script(&[(0, burst), (0, PULL), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    let ex: Vec<(i32, i32, bool)> = log
        .iter()
        .filter_map(|e| match e {
            Event::Exchange { delta, effort, shortfall, .. } => Some((*delta, *effort, *shortfall)),
            _ => None,
        })
        .collect();
    assert_eq!(ex, [(-19, 1, false), (2, 20, false), (0, 0, true)], "{log:#?}");
}

#[test]
fn the_decline_odds_reroll_a_tie_as_the_fight_does() {
    // rule: TICK-DICE-3, TICK-GUN-11, TICK-MELEE-10
    // Under `delta_tie = reroll` a tie rolls both sides again, the shooter with his modifiers
    // (+7). Sam's A = 8 against Tia's +7 wins only through a tie (she rolls 1, chance 1/20), and
    // then the fresh contest, +7 against +7, with ties rolled again, is even: 1/40 in all.
    let text = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\nskills = { evade = 7 }", 1);
    let s = setup(&text, &[("delta_tie", "reroll")]);
    let st = Ticks::initial_state(&s);
    let pen = s.combatants[0].gun.as_ref().map_or(0, |g| g.penetration);
    let base = shot_numbers(&s, &st, A, B, false).total;
    assert_eq!(base, 7);
    assert_eq!(fray_rules::ticks::policy::p_win(&s, &st, B, Kind::Shot, pen, 8, base), (1, 40));
    // A = 9 wins outright on her 1 (1/20) and ties on her 2, then wins half the time: 3/40.
    assert_eq!(fray_rules::ticks::policy::p_win(&s, &st, B, Kind::Shot, pen, 9, base), (3, 40));
    // With a poorer base (+2) the fresh contest after a tie is worth less than half.
    let (w, t) = fray_rules::ticks::policy::p_win(&s, &st, B, Kind::Shot, pen, 8, 2);
    assert!(w > 0 && 40 * w < t);
    // Not hopeless: the policy fires, and in the fight the tie is rerolled and the shot lands.
    assert_eq!(decline(&s, &st, 8, base), PULL);
    assert_eq!(decline(&s, &st, 7, base), Choice::Yes(true));
    let (log, _, fought) = run(&s, &[1, 1, 15, 3, 3], script(&[(0, fire(B)), (1, NOTHING)]));
    fought.unwrap();
    assert!(log.contains(&Event::TieRerolled), "{log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::Exchange { delta: 12, hit: true, .. })), "{log:#?}");
    // A blow's abort odds likewise: Max (+5) at A = 10 against Tia's melee +5 wins outright on
    // her 1–4 and ties on her 5, the fresh contest even: 4/20 + 1/20 · 1/2 = 9/40.
    let m = setup(&two("", "position = [1, 0]", 1), &[("delta_tie", "reroll")]);
    let mst = Ticks::initial_state(&m);
    assert_eq!(fray_rules::ticks::policy::p_win(&m, &mst, B, Kind::Melee(Blow::Strike), 0, 10, 5), (9, 40));
}

#[test]
fn an_out_target_does_not_defend_in_the_odds_either() {
    // rule: TICK-TRACK-5
    // Under `out_targetable = true` the fight lets a target that is out take the shot with
    // delta = A: every shot lands, and the odds and the decline policy say so.
    let standing = "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = [50, 50]\npolicy = { move = \"hold\" }\n";
    let lying = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\nbody = 10\ntrauma = 40", 1) + standing;
    let t = setup(&lying, &[("out_targetable", "true")]);
    let st = Ticks::initial_state(&t);
    assert!(st.fighter(B).out());
    let odds = fray_rules::ticks::odds::odds_in_state(&t, &st, A, B);
    assert_eq!(q(&odds.hit), "1/1");
    // The least harm: A = 1 + 7 = 8 on a limb, ⌊(4 + 8) / 2⌋ = 6 Body.
    let least = odds
        .damage_given_hit
        .iter()
        .filter_map(|(_, parts, _)| parts.iter().find(|(k, _)| k == "body"))
        .map(|x| x.1)
        .min();
    assert_eq!(least, Some(6));
    assert_eq!(fray_rules::ticks::policy::p_win(&t, &st, B, Kind::Shot, 4, -5, 7), (1, 1));
    assert_eq!(decline(&t, &st, -5, 7), PULL);
    let text = fray_rules::ticks::odds::attack_odds(&t, "A", "B").unwrap().assumptions.join("\n");
    assert!(text.contains("does not defend") && text.contains("spends on this defence: 0"), "{text}");
}

#[test]
fn the_expected_effort_line_meets_cover_with_the_blows_penetration() {
    // rule: TICK-COVER-8, TICK-COVER-5
    // Under `cover_vs_melee = true` Max's knife (pen 6) halves Tia's table cover (50 %, res 3) to
    // +5, for the expected effort as for the hit chance: melee 5 against 5 + 5, base 10. (Every
    // blow carried through, `abort_policy = never`: the odds follow the abort policy.)
    let text = two(
        "melee_weapon = \"knife\"",
        "position = [1, 0]\ncover = { preset = \"crouch_wall\", material = \"table\" }",
        1,
    );
    let s = setup(&text, &[("cover_vs_melee", "true"), ("abort_policy", "never")]);
    let odds = fray_rules::ticks::odds::attack_odds(&s, "A", "B").unwrap();
    let e = expected_effort(&s, &delta_distribution(&s, 5, 10), 10);
    let line = format!("expected effort B spends on this defence: {}", q(&e));
    assert!(odds.assumptions.contains(&line), "{line} not in {:#?}", odds.assumptions);
    assert_eq!(q(&odds.hit), q(&p_attacker_wins(&delta_distribution(&s, 5, 10))));
}

#[test]
fn a_two_square_follow_steps_one_square_at_a_time_and_never_through_anyone() {
    // rule: TICK-MOVE-5, TICK-MOVE-6
    // Al, at (0, 0) behind a wall of three allies at x = 1, follows Bo as he steps from (3, 0) to
    // (4, 0). Under `follow_squares = 2` he moves one square at a time: every first step is either
    // occupied or farther from Bo, so he stays put rather than jump the wall to (2, 0).
    let wall = |gap: bool| {
        let mut t = "[rules]\nruleset = \"ticks\"\n[rules.options]\nfollow_squares = 2\nannounce_order = \"roster\"\ntick_cap = 1\n\
[[combatants]]\nname = \"Bo\"\nside = \"b\"\nposition = [3, 0]\n\
[[combatants]]\nname = \"Al\"\nside = \"a\"\nposition = [0, 0]\n"
            .to_owned();
        for (i, y) in [-1, 0, 1].into_iter().enumerate() {
            if !(gap && y == 0) {
                t += &format!("[[combatants]]\nname = \"W{i}\"\nside = \"a\"\nposition = [1, {y}]\n");
            }
        }
        t
    };
    let mut sc = Script::new(5);
    sc.push(0, ann(Action::Move((4, 0)))).push(1, ann(Action::Follow(A)));
    for w in 2..5 {
        sc.push(w, NOTHING);
    }
    let s = setup(&wall(false), &[]);
    let (log, state, fought) = run(&s, &[], sc.clone());
    fought.unwrap();
    assert_eq!(state.fighter(A).pos, (4, 0));
    assert_eq!(state.fighter(B).pos, (0, 0), "{log:#?}");
    // With a gap in the wall he steps through it, (1, 0) then (2, 0).
    let s = setup(&wall(true), &[]);
    let (_, state, fought) = run(&s, &[], sc);
    fought.unwrap();
    assert_eq!(state.fighter(B).pos, (2, 0));
    // Ties go to the lowest (x, y), x first: Bo steps to (2, 0), and with (1, 0) taken, (1, −1)
    // and (1, 1) are as near it; Al takes (1, −1).
    let text = "[rules]\nruleset = \"ticks\"\n[rules.options]\nannounce_order = \"roster\"\ntick_cap = 1\n\
[[combatants]]\nname = \"Bo\"\nside = \"b\"\nposition = [3, 0]\n\
[[combatants]]\nname = \"Al\"\nside = \"a\"\nposition = [0, 0]\n\
[[combatants]]\nname = \"W\"\nside = \"a\"\nposition = [1, 0]\n";
    let mut sc = Script::new(3);
    sc.push(0, ann(Action::Move((2, 0)))).push(1, ann(Action::Follow(A))).push(2, NOTHING);
    let (log, state, fought) = run(&setup(text, &[]), &[], sc);
    fought.unwrap();
    assert_eq!(state.fighter(B).pos, (1, -1), "{log:#?}");
}

#[test]
fn a_melee_fighter_under_attack_strikes_back_rather_than_wait_for_its_p() {
    // rule: TICK-DEF-6, TICK-STAB-2, TICK-MELEE-1, TICK-MELEE-10
    // Each defence turns the effort it costs into p, as much as p recovers in a tick: a fighter
    // attacked every tick never gets back to p 6, so one who waits for that never strikes back.
    let path = format!("{}/../../examples/ticks/knife-fight.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let s = setup(&text, &[]);
    let (max, tia) = (A, B);
    let mut st = Ticks::initial_state(&s);
    st.fighters[0].pos = (0, 0);
    st.fighters[1].pos = (1, 0);
    st.fighters[1].p = 12;
    let announce = |st: &State| {
        fray_rules::ticks::policy::ai_choice(&s, st, tia, &fray_rules::ticks::Request::Announce { tick: 3 })
    };
    // Not attacked last tick, her blow poor (p 12): she lets p recover.
    assert_eq!(announce(&st), NOTHING);
    // Attacked last tick: she strikes, the blow as her policy picks it (`by_effort`: heavy).
    st.fighters[1].pressed = true;
    assert_eq!(announce(&st), ann(Action::Melee { target: max, blow: Blow::Heavy, weak_point: false }));
    // A blow that cannot win is still not announced.
    st.fighters[1].p = 200;
    assert_eq!(announce(&st), NOTHING);
    // In seeded fights she never stands idle next to Max the tick after he attacked her, when a
    // blow is legal (she has the effort for a jab) and could win.
    let mut idle_ok = 0;
    for seed in 1..=40 {
        let dice = fray_engine::FromSource(fray_dice::seeded(seed));
        let mut fight = Fight::<Ticks, _, _, _>::new(&s, dice, fray_rules::ticks::policy::Ai, Record::default());
        fight.run().unwrap();
        let log = fight.into_parts().1.0;
        let mut st = Ticks::initial_state(&s);
        for e in &log {
            if let Event::Announced { who, action: Action::Nothing } = e
                && *who == tia
            {
                let adjacent = chebyshev(st.fighter(max).pos, st.fighter(tia).pos) <= 1;
                let a = fray_rules::ticks::policy::melee_numbers(&s, &st, tia, false).total;
                let d = defence_numbers(&s, &st, max, Kind::Melee(Blow::Strike), 2).total;
                let jab = Action::Melee { target: max, blow: Blow::Jab, weak_point: false };
                let can_win = fray_rules::ticks::policy::beats(&s, a, d).0 > 0 && illegal(&s, &st, tia, &jab).is_none();
                assert!(
                    !(adjacent && st.fighter(tia).pressed && can_win),
                    "seed {seed}, tick {}: Tia idles under attack",
                    st.tick
                );
                idle_ok += 1;
            }
            Ticks::apply(&s, &mut st, e);
        }
    }
    assert!(idle_ok > 0, "the fights have idle ticks to check");
}

#[test]
fn a_follower_has_announced_a_move_for_reaction_strikes_and_follows() {
    // rule: TICK-MOVE-6, TICK-TIME-7
    // A follow is a move for every other rule: Bo, next to Al, follows Cy; Al may answer Bo with a
    // reaction strike, resolved before Bo steps away, or follow Bo in turn. (Roster order: Cy, Bo,
    // Al announce in that order.)
    let text = "[rules]\nruleset = \"ticks\"\n[rules.options]\nannounce_order = \"roster\"\ntick_cap = 1\n\
[[combatants]]\nname = \"Cy\"\nside = \"b\"\nposition = [1, 3]\n\
[[combatants]]\nname = \"Bo\"\nside = \"b\"\nposition = [1, 0]\n\
[[combatants]]\nname = \"Al\"\nside = \"a\"\nposition = [0, 0]\nmelee_weapon = \"knife\"\n";
    let s = setup(text, &[]);
    let (cy, bo, al) = (CombatantId(0), CombatantId(1), CombatantId(2));
    let mut st = Ticks::initial_state(&s);
    Ticks::apply(&s, &mut st, &Event::Announced { who: cy, action: Action::Move((1, 5)) });
    Ticks::apply(&s, &mut st, &Event::Announced { who: bo, action: Action::Follow(cy) });
    let strike = Action::Strike { target: bo, blow: Blow::Jab, weak_point: false };
    assert_eq!(illegal(&s, &st, al, &strike), None);
    assert_eq!(illegal(&s, &st, al, &Action::Follow(bo)), None);
    // The AI, a knife-fighter with its p recovered, takes the reaction strike.
    let ai = fray_rules::ticks::policy::ai_choice(&s, &st, al, &fray_rules::ticks::Request::Announce { tick: 1 });
    assert!(matches!(ai, Choice::Announce(Action::Strike { target, .. }) if target == bo), "{ai:?}");
    // In the fight the strike lands before Bo's follow moves him away.
    let mut sc = Script::new(3);
    sc.push(0, ann(Action::Move((1, 5)))).push(1, ann(Action::Follow(cy))).push(2, ann(strike)).push(2, PULL);
    let (log, state, fought) = run(&s, &[20, 1, 3], sc);
    fought.unwrap();
    let hit = log.iter().position(|e| matches!(e, Event::Hit { target, .. } if *target == bo));
    let moved = log.iter().position(|e| matches!(e, Event::Moved { who, .. } if *who == bo));
    assert!(hit.is_some() && hit < moved, "{log:#?}");
    assert_eq!(state.fighter(bo).pos, (1, 1));
}

#[test]
fn a_striker_short_of_effort_falls_back_to_a_jab() {
    // rule: TICK-MELEE-2, TICK-MELEE-3
    // Max (`blow = strike`, a strike costs 4 effort) is pressed by Tia with effort 2 left: a
    // strike is beyond his effort under `effort_gate = strict`, a jab (2) is not, so he jabs
    // rather than stand idle. With the effort for it he strikes as before (at Tia's weak point,
    // against her vest).
    let path = format!("{}/../../examples/ticks/knife-fight.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let s = setup(&text, &[]);
    let (max, tia) = (A, B);
    let mut st = Ticks::initial_state(&s);
    st.fighters[0].pos = (0, 0);
    st.fighters[1].pos = (1, 0);
    st.fighters[0].pressed = true;
    let announce = |st: &State| {
        fray_rules::ticks::policy::ai_choice(&s, st, max, &fray_rules::ticks::Request::Announce { tick: 3 })
    };
    assert_eq!(announce(&st), ann(Action::Melee { target: tia, blow: Blow::Strike, weak_point: true }));
    st.fighters[0].effort = 2;
    assert_eq!(announce(&st), ann(Action::Melee { target: tia, blow: Blow::Jab, weak_point: true }));
}

#[test]
fn a_dive_never_stops_short_behind_a_runner_who_took_its_path_or_square() {
    // rule: TICK-DEF-3, TICK-MOVE-5, TICK-COVER-10, TICK-TIME-10
    // A fires at B (6, 0) in the open; the window at (8, 0) is 2 m off. C runs into (7, 0), the
    // one square on B's way there, in step 3, before A's shot: the window is out of B's reach,
    // so B dodges in the open (base 20) rather than pay the cover base for a dive that stops
    // short beside C.
    let map = "[[cover]]\nsquare = [8, 0]\npreset = \"window\"\nmaterial = \"brick_wall\"\n";
    let three = |runner: &str| {
        format!(
            "[rules]\nruleset = \"ticks\"\n[rules.options]\ntick_cap = 1\n{map}\n[[combatants]]\nname = \"A\"\nside = \"a\"\nposition = [0, 0]\ngun = \"pistol\"\ngun_ready = true\n[[combatants]]\nname = \"B\"\nside = \"b\"\nposition = [6, 0]\n[[combatants]]\nname = \"C\"\nside = \"a\"\nposition = {runner}\n"
        )
    };
    let c = CombatantId(2);
    let s = setup(&three("[7, 1]"), &[]);
    let dash = ann(Action::Run { to: (7, 0), attack: None });
    let (log, state, fought) = run(&s, &[1, 20], script(&[(0, fire(B)), (0, PULL), (1, NOTHING), (2, dash)]));
    fought.unwrap();
    assert_eq!(state.fighter(c).pos, (7, 0));
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: B, dive: None, .. })), "{log:#?}");
    // A = 1 + 5 + 2 = 8 against D = 25: won by 17, the dodge base 20 − 17 = 3.
    assert!(log.iter().any(|e| matches!(e, Event::Exchange { target: B, delta: -17, effort: 3, .. })), "{log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::Blocked { who: B, .. })), "{log:#?}");
    assert_eq!(state.fighter(B).pos, (6, 0));
    // Under `tick_order = moves_last` the shot, and the dive it calls for, see the start of the
    // tick; C's run into the window comes after, and B dives to the next cover it can reach,
    // the wall at (6, 2), instead of stopping short in the open.
    let wall = "[[cover]]\nsquare = [6, 2]\npreset = \"crouch_wall\"\nmaterial = \"brick_wall\"\n";
    let late = setup(
        &three("[8, 1]").replacen("[[combatants]]", &format!("{wall}[[combatants]]"), 1),
        &[("tick_order", "moves_last")],
    );
    let dash = ann(Action::Run { to: (8, 0), attack: None });
    let (log, state, fought) = run(&late, &[1, 20], script(&[(0, fire(B)), (0, PULL), (1, NOTHING), (2, dash)]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Defence { who: B, dive: Some((8, 0)), .. })), "{log:#?}");
    assert_eq!(state.fighter(c).pos, (8, 0));
    assert!(!log.iter().any(|e| matches!(e, Event::Blocked { who: B, .. })), "{log:#?}");
    assert_eq!(state.fighter(B).pos, (6, 2));
}

#[test]
fn the_steady_gunmans_third_counts_a_rerolled_tie_as_no_outcome() {
    // rule: TICK-DICE-3, TICK-DICE-1
    // Under `delta_tie = reroll` a tie is rolled again, so a shot that wins W and ties T of the
    // time wins W / (1 − T) in the end: the `steady` gunman's "a third of the time" weighs that,
    // not W. Pistol at 10 m (range modifier 0), shoot 5 against evade 5: 19/40 with ties to the
    // defender, 1/2 with ties rerolled.
    let text = |evade: i32| {
        two(
            "gun = \"pistol\"\ngun_ready = true\nskills = { shoot = 5 }",
            &format!("position = [10, 0]\nskills = {{ evade = {evade} }}"),
            1,
        )
    };
    let chance = |s: &Setup, st: &State| {
        let (win, all) = fray_rules::ticks::policy::shot_odds(s, st, A, B);
        q(&BigRational::new(win.into(), all.into()))
    };
    let defender = setup(&text(5), &[]);
    assert_eq!(chance(&defender, &Ticks::initial_state(&defender)), "19/40");
    let reroll = setup(&text(5), &[("delta_tie", "reroll")]);
    assert_eq!(chance(&reroll, &Ticks::initial_state(&reroll)), "1/2");
    // The same chance the fight gives: the exact reference number of TICK-DICE-3.
    assert_eq!(q(&p_attacker_wins(&delta_distribution(&reroll, 5, 5))), "1/2");
    // Around a third (p 6, above STEADY_P): 3 behind wins 136/383 and fires; 4 behind wins
    // 120/384 = 5/16 and aims. (With d20, 2d10 and 3d6 no whole margin lies between W ≥ 1/3 and
    // W / (1 − T) ≥ 1/3, so the correction moves the chance the policy weighs, not yet a choice.)
    let announce = |s: &Setup, st: &State| {
        fray_rules::ticks::policy::ai_choice(s, st, A, &fray_rules::ticks::Request::Announce { tick: 2 })
    };
    for (evade, odds, choice) in [(2, "136/383", fire(B)), (3, "5/16", ann(Action::Aim(B)))] {
        let s = setup(&text(evade), &[("delta_tie", "reroll")]);
        let mut st = Ticks::initial_state(&s);
        st.fighters[0].p = 6;
        assert_eq!(chance(&s, &st), odds);
        assert_eq!(announce(&s, &st), choice);
    }
}

#[test]
fn the_simulators_tally_counts_the_down_and_the_knocked_out() {
    // Not a clause: the statistics of `fray sim` (who went down, and by whose hits).
    for event in [Event::Down { who: B }, Event::KnockedOut { who: B }] {
        assert_eq!(Ticks::tally(&event), Some(fray_engine::Tally::Downed { who: B }), "{event:?}");
    }
}

#[test]
fn one_combat_skill_for_every_roll_under_single_skill() {
    // rule: TICK-DICE-4
    let text = two(
        "gun = \"pistol\"\ngun_ready = true\nskills = { combat = 9 }",
        "position = [5, 0]\nskills = { combat = 8 }",
        1,
    );
    let s = setup(&text, &[("skill_model", "single_skill")]);
    let skills = |i: usize| (s.combatants[i].shoot, s.combatants[i].melee, s.combatants[i].evade);
    assert_eq!((skills(0), skills(1)), ((9, 9, 9), (8, 8, 8)));
    let st = Ticks::initial_state(&s);
    assert_eq!(defence_numbers(&s, &st, B, Kind::Shot, 4).skill, 8);
    // Without the option `combat` is refused; under it, each of the three others alone is.
    assert!(load_err(&text).contains("`combat` is the skill of `skill_model = single_skill`"));
    for skill in ["shoot", "melee", "evade"] {
        let other = two("", &format!("position = [5, 0]\nskills = {{ {skill} = 8 }}"), 1);
        let sets = vec![("skill_model".to_owned(), "single_skill".to_owned())];
        let e = scenario::load("t.toml", &other, &sets).map(|_| ()).expect_err(skill).to_string();
        assert!(e.contains("under `skill_model = single_skill` give one skill, `combat`"), "{skill}: {e}");
    }
}

#[test]
fn limb_halving_reaches_the_trauma_of_a_stopped_shot_only_under_all() {
    // rule: TICK-DMG-5
    // The pistol at delta 5 on the right arm (face 5), stopped by a soft vest (8 > 5): 9 raw,
    // Trauma ⌊9 / 2⌋ = 4; halved again for the limb only under `limb_halving_scope = all`.
    let pistol = Weapon { graze: 4, graze_mod: 0, delta_damage: 1, penetration: 5, lethal: true };
    let vest = Armour { name: "vest".into(), hard: false, resistance: 8, locations: 1 << 5, encumbrance: 0 };
    let hit = |o: &Options| {
        let h = attack::harm(o, pistol, 5, false, None, 5, Some(&vest), 30);
        (h.raw, h.body, h.trauma)
    };
    let mut all = Options::default();
    all.set("limb_halving_scope", "all").unwrap();
    assert_eq!((hit(&Options::default()), hit(&all)), ((9, 0, 4), (9, 0, 2)));
}

#[test]
fn rounding_to_nearest_rounds_every_fraction_halves_up() {
    // rule: TICK-DICE-5
    let mut nearest = Options::default();
    nearest.set("rounding", "nearest").unwrap();
    let floor = Options::default();
    assert_eq!([nearest.div(15, 10), nearest.div(14, 10), nearest.half(5)], [2, 1, 3]);
    assert_eq!([floor.div(15, 10), floor.div(19, 10), floor.half(5)], [1, 1, 2]);
}

#[test]
fn out_of_range_values_are_refused() {
    // Not clauses: bad input gets an error naming what was expected.
    let mut o = Options::default();
    assert_eq!(o.set("default_skill", "16").unwrap_err(), "expected an integer from 0 to 15, found `16`");
    assert_eq!(
        o.set("wound_threshold", "1/1001").unwrap_err(),
        "expected a fraction such as 1/4 or a whole number, found `1/1001`"
    );
    o.set("wound_threshold", "2/5").unwrap();
    assert_eq!(o.wound_threshold, Ratio { num: 2, den: 5 });
    // The bounds themselves: 1000 on either side is taken, and a probability may be 1.
    o.set("wound_threshold", "1/1000").unwrap();
    o.set("wound_threshold", "1000").unwrap();
    assert_eq!(o.wound_threshold, Ratio { num: 1000, den: 1 });
    assert!(o.set("wound_threshold", "1001").unwrap_err().contains("found `1001`"));
    o.set("soft_block_wound_chance", "1/1").unwrap();
    assert_eq!(
        o.set("soft_block_wound_chance", "3/2").unwrap_err(),
        "expected a probability from 0 to 1 (denominator up to 1000), found `3/2`"
    );
}

#[test]
fn ammunition_adds_to_the_guns_damage_and_penetration() {
    // rule: TICK-GEAR-3
    // The pistol (damage 4, penetration 4) with hollow points (+2 / −3) and armour-piercing
    // rounds (−1 / +4).
    let gun = |ammo: &str| {
        let s = setup(&two(&format!("gun = {{ base = \"pistol\", ammo = \"{ammo}\" }}"), "position = [6, 0]", 1), &[]);
        let g = s.combatants[0].gun.clone().unwrap();
        (g.damage, g.penetration)
    };
    assert_eq!([gun("fmj"), gun("hollow_point"), gun("armour_piercing")], [(4, 4), (6, 1), (3, 8)]);
}

#[test]
fn out_of_range_gear_squares_and_covers_are_refused() {
    // Not clauses: bad input gets an error naming what was expected, each value on its own.
    let costs = |heavy: &str| {
        format!(
            "[rules]\nruleset = \"ticks\"\n[rules.options]\nmelee_costs = \"custom\"\n[rules.attack_types]\n\
             jab = {{ stability = 1, effort = 1, graze = 0 }}\nstrike = {{ stability = 1, effort = 1, graze = 0 }}\n\
             heavy = {heavy}\n[[combatants]]\nname = \"A\"\nside = \"a\"\nposition = [0, 0]\n\
             [[combatants]]\nname = \"B\"\nside = \"b\"\nposition = [1, 0]\n"
        )
    };
    setup(&costs("{ stability = 1, effort = 1, graze = 20 }"), &[]);
    assert!(load_err(&costs("{ stability = 1, effort = 1, graze = 21 }")).contains("graze −20–20"));
    assert!(load_err(&costs("{ stability = 1, effort = 101, graze = 0 }")).contains("stability and effort 0–100"));
    assert!(load_err(&costs("{ stability = 101, effort = 1, graze = 0 }")).contains("stability and effort 0–100"));
    assert!(load_err(&two("", "position = [0, 100001]", 1)).contains("within 100000 of the origin"));
    assert!(load_err(&two("", "position = [100001, 0]", 1)).contains("within 100000 of the origin"));
    setup(&two("", "position = [100000, -100000]", 1), &[]);
    let knife = |damage: i32| {
        two(
            &format!("melee_weapon = {{ name = \"k\", damage = {damage}, delta_damage = 1, penetration = 0 }}"),
            "position = [1, 0]",
            1,
        )
    };
    setup(&knife(100), &[]);
    assert!(load_err(&knife(101)).contains("expected damage 0–100"));
    let plate = |resistance: i32| {
        two(
            &format!("armour = [{{ name = \"p\", type = \"soft\", resistance = {resistance}, locations = [3] }}]"),
            "position = [1, 0]",
            1,
        )
    };
    // The armour covers the locations it names, and only those.
    let worn = setup(&plate(100), &[]);
    assert_eq!(worn.combatants[0].armour_at(3).map(|a| a.resistance), Some(100));
    assert!(worn.combatants[0].armour_at(5).is_none());
    assert!(load_err(&plate(101)).contains("expected a resistance from 0 to 100"));
    // At most 10000 cover squares.
    let squares = |n: i32| {
        (0..n).map(|i| format!("\n[[cover]]\nsquare = [{i}, 5]\nrating = 50\nresistance = 5\n")).collect::<String>()
    };
    setup(&(two("", "position = [1, 0]", 1) + &squares(10_000)), &[]);
    assert!(load_err(&(two("", "position = [1, 0]", 1) + &squares(10_001))).contains("at most 10000 cover squares"));
    // A combatant's own cover on a square the map covers must be the map's.
    let map = "\n[[cover]]\nsquare = [6, 0]\nrating = 50\nresistance = 16\n";
    let own = |cover: &str| two("", &format!("position = [6, 0]\ncover = {cover}"), 1) + map;
    setup(&own("{ rating = 50, resistance = 16 }"), &[]);
    assert!(load_err(&own("{ rating = 30, resistance = 5 }")).contains("already has other cover in [[cover]]"));
}

#[test]
fn an_aim_ends_with_a_shot_or_a_declined_one_unless_kept() {
    // rule: TICK-AIM-1, TICK-AIM-5
    // A aims at B in tick 1 and fires at B in tick 2.
    let text = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]", 2);
    let fired = [(0, ann(Action::Aim(B))), (0, fire(B)), (0, PULL), (1, NOTHING), (1, NOTHING)];
    let (log, state, fought) = run(&setup(&text, &[]), &[1, 20], script(&fired));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Exchange { attacker: A, .. })), "{log:?}");
    assert_eq!(state.fighter(A).aim_target, None);
    // `aim_after_shot = keep`: the aim carries on past the shot at its target.
    let (_, state, fought) = run(&setup(&text, &[("aim_after_shot", "keep")]), &[1, 20], script(&fired));
    fought.unwrap();
    assert_eq!(state.fighter(A).aim_target, Some(B));
    // A shot declined is no tick of aiming either: the aim ends at the tick's end.
    let declined = [(0, ann(Action::Aim(B))), (0, fire(B)), (0, Choice::Yes(true)), (1, NOTHING), (1, NOTHING)];
    let (log, state, fought) = run(&setup(&text, &[]), &[10], script(&declined));
    fought.unwrap();
    assert!(log.contains(&Event::Declined { who: A }), "{log:?}");
    assert_eq!(state.fighter(A).aim_target, None);
}

#[test]
fn a_defender_short_of_effort_who_lost_anyway_takes_the_full_hit() {
    // rule: TICK-DEF-5
    // B, with 5 effort, loses by 1: the hit lands with its delta of 1, not as a graze (a graze is
    // for a defender who would have won).
    let s = setup(&two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]\neffort = 5", 1), &[]);
    let st = Ticks::initial_state(&s);
    let (a, d) = (shot_numbers(&s, &st, A, B, false).total, defence_numbers(&s, &st, B, Kind::Shot, 4).total);
    let a_face = u32::try_from(10 + d + 1 - a).unwrap();
    let (log, _, fought) = run(&s, &[a_face, 10, 3, 1, 1], script(&[(0, fire(B)), (0, PULL), (1, NOTHING)]));
    fought.unwrap();
    assert!(
        log.iter().any(|e| matches!(e, Event::Exchange { delta: 1, effort: 5, hit: true, shortfall: false, .. })),
        "{log:?}"
    );
}

#[test]
fn a_gunman_takes_the_cover_next_to_him_unless_told_to_stay() {
    // Not a clause: the AI's `cover` policy (`seek` by default, or `stay`).
    let map = "\n[[cover]]\nsquare = [1, 0]\nrating = 50\nresistance = 16\n";
    let choice = |policy: &str| {
        let a = format!("gun = \"pistol\"\ngun_ready = true\n{policy}");
        let s = setup(&(two(&a, "position = [20, 0]\ngun = \"pistol\"\ngun_ready = true", 1) + map), &[]);
        let request = fray_rules::ticks::Request::Announce { tick: 1 };
        fray_rules::ticks::policy::ai_choice(&s, &Ticks::initial_state(&s), A, &request)
    };
    assert_eq!(choice(""), ann(Action::Move((1, 0))));
    assert_ne!(choice("policy = { cover = \"stay\" }"), ann(Action::Move((1, 0))));
}

// --- Options no test had set (found grepping the tests for each option's name) -----------------

#[test]
fn a_dodge_in_the_open_pays_from_its_own_effort_base() {
    // rule: TICK-DEF-2
    // B in the open, no dive (`dive_range_m = 0`): a dodge pays from 20, or the option's base.
    let text = two("gun = \"pistol\"", "position = [5, 0]", 1);
    for (base, want) in [(None, 20), (Some("12"), 12)] {
        let mut sets = vec![("dive_range_m", "0")];
        sets.extend(base.map(|b| ("dodge_effort_base", b)));
        let s = setup(&text, &sets);
        assert_eq!(defence_numbers(&s, &Ticks::initial_state(&s), B, Kind::Shot, 4).effort_base, want, "{base:?}");
    }
}

#[test]
fn a_shot_soft_armour_stops_wounds_with_the_options_chance() {
    // rule: TICK-ARM-4
    // A pistol (pen 5) on a torso under a soft vest of resistance 8: the vest holds; the shot
    // still wounds with 1/10 by default, never at 0, always at 1.
    let pistol = Weapon { graze: 4, graze_mod: 0, delta_damage: 1, penetration: 5, lethal: true };
    let vest = Armour { name: "vest".into(), hard: false, resistance: 8, locations: 1 << 3, encumbrance: 0 };
    let wound = |chance: Option<&str>| {
        let mut o = Options::default();
        if let Some(c) = chance {
            o.set("soft_block_wound_chance", c).unwrap();
        }
        attack::harm(&o, pistol, 3, false, None, 3, Some(&vest), 30).wound
    };
    assert_eq!(wound(None), WoundRule::Chance(Ratio { num: 1, den: 10 }));
    assert_eq!(wound(Some("1/4")), WoundRule::Chance(Ratio { num: 1, den: 4 }));
    assert_eq!(wound(Some("0")), WoundRule::No);
    assert_eq!(wound(Some("1")), WoundRule::Yes);
}

#[test]
fn weak_point_aim_follows_its_policy() {
    // rule: TICK-ARM-10
    // B wears a vest of resistance 8: `armour_holds` aims at weak points when the vest would
    // stop the shot (pen 5), not when the shot goes through (pen 9); `never` and `always` say so.
    let text = two(
        "gun = \"pistol\"",
        "position = [5, 0]\narmour = [{ name = \"vest\", type = \"soft\", resistance = 8, locations = [3] }]",
        1,
    );
    let wants = |policy: Option<&str>, pen: i32| {
        let sets: Vec<(&str, &str)> = policy.map(|p| ("weak_point_policy", p)).into_iter().collect();
        fray_rules::ticks::policy::wants_weak_point(&setup(&text, &sets), B, pen)
    };
    assert_eq!((wants(None, 5), wants(None, 9)), (true, false));
    assert_eq!((wants(Some("never"), 5), wants(Some("never"), 9)), (false, false));
    assert_eq!((wants(Some("always"), 5), wants(Some("always"), 9)), (true, true));
}

#[test]
fn the_delta_is_rolled_with_the_options_dice() {
    // rule: TICK-DICE-2
    // The dice the fight asks for its first delta: one d20 by default, two d10 or three d6.
    struct Seen(Vec<(&'static str, u32)>);
    impl Dice for Seen {
        fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, fray_dice::SourceError> {
            self.0.push((reason.what, sides));
            if self.0.len() > 400 {
                return Err(fray_dice::SourceError("enough".into()));
            }
            Ok(sides.div_ceil(2))
        }
    }
    let delta = |what: &str| matches!(what, "shot" | "blow");
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ticks/knife-fight.toml")).unwrap();
    for (die, want) in [(None, vec![20]), (Some("2d10"), vec![10, 10]), (Some("3d6"), vec![6, 6, 6])] {
        let sets: Vec<(&str, &str)> = die.map(|d| ("delta_die", d)).into_iter().collect();
        let s = setup(&text, &sets);
        let mut seen = Seen(Vec::new());
        let mut fight = Fight::<Ticks, _, _, _>::new(&s, &mut seen, fray_rules::ticks::policy::Ai, Record::default());
        let _ = fight.run();
        drop(fight);
        let first = seen.0.iter().position(|(what, _)| delta(what)).expect("a delta roll");
        let sides: Vec<u32> = seen.0[first..].iter().take_while(|(what, _)| delta(what)).map(|r| r.1).collect();
        assert_eq!(sides[..want.len()], want[..], "{die:?}: {:?}", &seen.0[first..(first + 4).min(seen.0.len())]);
    }
}

#[test]
fn armour_sheet_and_melee_options_each_change_their_rule() {
    // rule: TICK-ARM-5, TICK-ARM-6, TICK-MOVE-4, TICK-DEF-3, TICK-MELEE-9, TICK-STAB-1
    // Hard armour that holds: no wound by default, the option's chance otherwise (TICK-ARM-5).
    let pistol = Weapon { graze: 4, graze_mod: 0, delta_damage: 1, penetration: 5, lethal: true };
    let plate = Armour { name: "plate".into(), hard: true, resistance: 8, locations: 1 << 3, encumbrance: 0 };
    let mut half = Options::default();
    half.set("hard_block_wound_chance", "1/2").unwrap();
    assert_eq!(attack::harm(&Options::default(), pistol, 3, false, None, 3, Some(&plate), 30).wound, WoundRule::No);
    assert_eq!(
        attack::harm(&half, pistol, 3, false, None, 3, Some(&plate), 30).wound,
        WoundRule::Chance(Ratio { num: 1, den: 2 })
    );
    // Soft armour a shot pierces by 4 or less: full damage, or halved under `soft_penetrated =
    // pierce_delta` (TICK-ARM-6). Pen 5 against resistance 3, delta 3: 4 + 3 = 7, or 3.
    let vest = Armour { name: "vest".into(), hard: false, resistance: 3, locations: 1 << 3, encumbrance: 0 };
    let mut pierce = Options::default();
    pierce.set("soft_penetrated", "pierce_delta").unwrap();
    let body = |o: &Options| attack::harm(o, pistol, 3, false, None, 3, Some(&vest), 30).body;
    assert_eq!((body(&Options::default()), body(&pierce)), (7, 3));
    // The running penalty on a shot and a blow (TICK-MOVE-4): 10 by default, the option's.
    let text = two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]", 1);
    for (penalty, want) in [(None, 10), (Some("4"), 4)] {
        let sets: Vec<(&str, &str)> = penalty.map(|p| ("running_shot_penalty", p)).into_iter().collect();
        let s = setup(&text, &sets);
        let st = Ticks::initial_state(&s);
        let still = shot_numbers(&s, &st, A, B, false).total;
        assert_eq!(still - shot_numbers(&s, &st, A, B, true).total, want, "{penalty:?}");
        let m = |running| fray_rules::ticks::policy::melee_numbers(&s, &st, A, running).total;
        assert_eq!(m(false) - m(true), want, "{penalty:?}");
    }
    // A melee defence's effort base (TICK-DEF-3), the sheet's default Strength and Effort
    // maximum (TICK-STAB-1), and fists (TICK-MELEE-9), each the option's.
    let plain = setup(&text, &[]);
    let other = setup(
        &text,
        &[("melee_defence_base", "7"), ("default_strength", "8"), ("effort_max", "90"), ("unarmed_nonlethal", "false")],
    );
    let base = |s: &Setup| defence_numbers(s, &Ticks::initial_state(s), B, Kind::Melee(Blow::Strike), 0).effort_base;
    assert_eq!((base(&plain), base(&other)), (plain.options.melee_defence_base, 7));
    assert_ne!(plain.options.melee_defence_base, 7);
    assert_eq!((plain.combatants[1].strength, other.combatants[1].strength), (plain.options.default_strength, 8));
    assert_eq!((plain.combatants[1].effort_max, other.combatants[1].effort_max), (plain.options.effort_max, 90));
    let fists = |s: &Setup| attack::Weapon::melee(s, &s.combatants[1], Blow::Strike).lethal;
    assert!(!fists(&plain) && fists(&other));
}

#[test]
fn effort_comes_back_at_the_options_rate() {
    // rule: TICK-TRACK-2
    // A at effort 50 of 60 does nothing for a tick: 1 back by default, 3 under `effort_regen = 3`.
    let text = two("effort = 50", "position = [30, 0]", 1);
    for (regen, back) in [(None, 1), (Some("3"), 3)] {
        let sets: Vec<(&str, &str)> = regen.map(|r| ("effort_regen", r)).into_iter().collect();
        let (log, _, fought) = run(&setup(&text, &sets), &[], script(&[(0, NOTHING), (1, NOTHING)]));
        fought.unwrap();
        assert!(log.contains(&Event::Rested { who: A, effort: back }), "{regen:?}: {log:#?}");
    }
    // At its full 60 nothing comes back, and nothing is logged.
    let full = setup(&two("", "position = [30, 0]", 1), &[]);
    let (log, _, fought) = run(&full, &[], script(&[(0, NOTHING), (1, NOTHING)]));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Rested { .. })), "{log:#?}");
}

#[test]
fn a_rise_in_p_is_one_only_when_p_rose() {
    // rule: TICK-STAB-4
    // Under `recovery_timing = skip_cost_tick` a tick in which p rose has no recovery (the
    // fight reads the flag; `stability_penalises_rolls_and_recovers_every_tick` plays it). Released p
    // that was held is a rise; a string closing with no penalty is not.
    let s = setup(
        &two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]", 1),
        &[("recovery_timing", "skip_cost_tick")],
    );
    let mut st = Ticks::initial_state(&s);
    Ticks::apply(&s, &mut st, &Event::StringClosed { who: A, p: 0 });
    assert!(!st.fighter(A).p_rose);
    Ticks::apply(&s, &mut st, &Event::Released { who: A, p: 2 });
    assert!(st.fighter(A).p_rose);
    // A string penalty at the end of a tick with only a decline (`string_penalty_scope = tick`)
    // is a rise in a tick with no shot cost; a penalty of 0 is not.
    let mut st = Ticks::initial_state(&s);
    Ticks::apply(&s, &mut st, &Event::StringPenalty { who: A, p: 0 });
    assert!(!st.fighter(A).p_rose);
    Ticks::apply(&s, &mut st, &Event::StringPenalty { who: A, p: 1 });
    assert!(st.fighter(A).p_rose);
    // A gun readied with no ready penalty is no rise; with one it is.
    let mut st = Ticks::initial_state(&s);
    Ticks::apply(&s, &mut st, &Event::Readied { who: A, penalty: 0 });
    assert!(!st.fighter(A).p_rose);
    Ticks::apply(&s, &mut st, &Event::Readied { who: A, penalty: 2 });
    assert!(st.fighter(A).p_rose);
}

#[test]
fn an_adjustment_that_leaves_one_side_standing_ends_the_fight() {
    // rule: TICK-TRACK-6
    // The game master's adjustment (the live fight's `adjust`) is followed by the end check:
    // B down, A's side wins; both standing, the fight goes on.
    let s = setup(&two("", "position = [6, 0]", 1), &[]);
    let mut st = Ticks::initial_state(&s);
    assert_eq!(Ticks::end_after_adjustment(&s, &st), None);
    st.fighters[1].down = true;
    let (result, _) = Ticks::end_after_adjustment(&s, &st).expect("the fight ends");
    assert_eq!(result.outcome, fray_engine::Outcome::Side(s.combatants[0].side));
}

#[test]
fn squares_apart_count_a_diagonal_as_one() {
    // rule: TICK-MOVE-2
    use fray_rules::ticks::setup::chebyshev;
    assert_eq!(chebyshev((0, 2), (0, 3)), 1);
    assert_eq!(chebyshev((2, 0), (3, 0)), 1);
    assert_eq!(chebyshev((1, 1), (2, 2)), 1);
    assert_eq!(chebyshev((-2, 3), (1, -1)), 4);
}

#[test]
fn the_ai_goes_for_the_policys_target_and_holds_when_told() {
    // rule: TICK-TIME-12
    // The AI chooses the announcement's target by its `target` policy: the nearest enemy (B, a
    // square off), or the weakest (C, three squares off, 5 Body left). A fighter without a gun
    // out of reach runs at its target under `move = close` and announces nothing under `hold`.
    let third = "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = [3, 0]\nbody = 5\n";
    let pick = |policy: &str| {
        let s = setup(&format!("{}{third}", two(policy, "position = [1, 0]", 1)), &[]);
        fray_rules::ticks::policy::target(&s, &Ticks::initial_state(&s), A)
    };
    assert_eq!(pick(""), Some(B));
    assert_eq!(pick("policy = { target = \"weakest\" }"), Some(CombatantId(2)));
    let announce = |policy: &str| {
        let s = setup(&two(policy, "position = [6, 0]", 1), &[]);
        let st = Ticks::initial_state(&s);
        fray_rules::ticks::policy::ai_choice(&s, &st, A, &fray_rules::ticks::Request::Announce { tick: 1 })
    };
    assert!(matches!(announce(""), Choice::Announce(Action::Run { .. } | Action::Move(_))), "{:?}", announce(""));
    assert_eq!(announce("policy = { move = \"hold\" }"), Choice::Announce(Action::Nothing));
}

#[test]
fn damage_landed_early_under_firearm_initiative_is_not_settled_again_at_the_ticks_end() {
    // rule: TICK-TIME-11, TICK-TIME-4
    // Under `firearm_initiative = low_stability_first` A's hit on B lands before B acts (the
    // shooters' group is settled first); the tick's end settles what is still pending, and B's
    // Body is down by that hit once.
    let text = two("gun = \"pistol\"\ngun_ready = true\nskills = { shoot = 15 }", "position = [1, 0]", 1);
    let s = setup(&text, &[("firearm_initiative", "low_stability_first"), ("resolve_order", "roster")]);
    let (log, state, fought) = run_with(&s, &[20, 1, 3], script(&[(0, fire(B)), (0, PULL), (1, NOTHING)]), false);
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    let hit: i32 = log.iter().map(|e| if let Event::Hit { target: B, body, .. } = e { *body } else { 0 }).sum();
    assert!(hit > 0, "{log:#?}");
    let settled = log.iter().filter(|e| matches!(e, Event::Settled { who: B, body, .. } if *body > 0)).count();
    assert_eq!(settled, 1, "{log:#?}");
    assert_eq!(state.fighter(B).body, s.combatants[1].body - hit, "{log:#?}");
    // And its wounds once.
    let wounds: i32 = log
        .iter()
        .map(|e| match e {
            Event::Hit { target: B, wounds, .. } => *wounds,
            Event::WoundCheck { who: B, wound: true, .. } => 1,
            _ => 0,
        })
        .sum();
    assert!(wounds > 0, "{log:#?}");
    assert_eq!(state.fighter(B).wounds, wounds, "{log:#?}");
    assert_eq!((state.fighter(B).pend_body, state.fighter(B).pend_wounds), (0, 0));
}

#[test]
fn a_cost_of_no_p_is_no_rise_in_p() {
    // rule: TICK-STAB-4
    // Under `recovery_timing = skip_cost_tick` a tick in which p rose has no recovery: an
    // action's cost that adds no p (a step, a free action) is no rise; one that adds p is.
    let s = setup(
        &two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]", 1),
        &[("recovery_timing", "skip_cost_tick")],
    );
    let mut st = Ticks::initial_state(&s);
    let cost = |p| Event::Cost { who: A, p, effort: 1, held: 0, string: false, attack: false };
    Ticks::apply(&s, &mut st, &cost(0));
    assert!(!st.fighter(A).p_rose);
    Ticks::apply(&s, &mut st, &cost(2));
    assert!(st.fighter(A).p_rose);
}

#[test]
fn the_placeholder_attack_types_cost_and_graze_as_the_catalogue_gives() {
    // rule: TICK-MELEE-3
    // Jab 3 / 2 / −1, strike 6 / 4 / 0, heavy 9 / 6 / +2 (stability, effort, graze modifier). A
    // knife (graze 2) jabbing: a graze of 1; a heavy blow: 4.
    let s = setup(&two("melee_weapon = \"knife\"", "position = [1, 0]", 1), &[]);
    let types: Vec<(i32, i32, i32)> = [Blow::Jab, Blow::Strike, Blow::Heavy]
        .into_iter()
        .map(|b| {
            let t = s.blow(b);
            (t.stability, t.effort, t.graze)
        })
        .collect();
    assert_eq!(types, [(3, 2, -1), (6, 4, 0), (9, 6, 2)]);
    let knife = s.combatants[0].melee_weapon.damage;
    let graze = |b| {
        let w = Weapon::melee(&s, &s.combatants[0], b);
        attack::harm(&s.options, w, 0, false, None, 1, None, 30).raw
    };
    assert_eq!((graze(Blow::Jab), graze(Blow::Heavy)), (knife - 1, knife + 2));
}

#[test]
fn a_gunman_told_to_fire_one_shot_a_tick_fires_one() {
    // Not a clause: the AI's `shots` policy. An assault rifle fires up to three shots a tick
    // (TICK-GUN-10); the AI fires them all unless its `shots` policy is `one`.
    let shots = |policy: &str| {
        let text = two(
            &format!("gun = \"assault_rifle\"\ngun_ready = true\nskills = {{ shoot = 15 }}\n{policy}"),
            "position = [3, 0]",
            1,
        );
        let s = setup(&text, &[]);
        let st = Ticks::initial_state(&s);
        match fray_rules::ticks::policy::ai_choice(&s, &st, A, &fray_rules::ticks::Request::Announce { tick: 1 }) {
            Choice::Announce(Action::Fire { shots, .. }) => shots,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!((shots(""), shots("policy = { shots = \"one\" }")), (3, 1));
}

#[test]
fn a_combatant_joining_late_is_absent_until_it_joins() {
    // Not a clause: the live tracker's combatants added mid-fight (the last `joins_late` of the
    // roster) start absent.
    let mut s = setup(&two("", "position = [6, 0]", 1), &[]);
    s.joins_late = 1;
    let state = Ticks::initial_state(&s);
    assert!(!state.fighter(A).absent && state.fighter(B).absent);
}

#[test]
fn custom_gear_refuses_a_table_melee_weapon_or_armour() {
    // rule: TICK-GEAR-3
    // Under `gear_tables = custom` every piece of gear gives its values: a melee weapon or an
    // armour named from the table is refused, as a gun is.
    for gear in ["melee_weapon = \"knife\"", "armour = [\"helmet\"]"] {
        let text = two(gear, "position = [6, 0]", 1).replace("tick_cap = 1", "tick_cap = 1\ngear_tables = \"custom\"");
        assert!(load_err(&text).contains("under `gear_tables = custom` give every"), "{gear}: {}", load_err(&text));
    }
}

#[test]
fn custom_gear_and_sheet_values_are_read_and_held_to_their_ranges() {
    // rule: TICK-GEAR-3
    // A custom armour's type is read ("hard" is hard, "soft" is not); a custom melee weapon's
    // values are each held to their range, and a sheet's numbers to theirs; a square must be
    // two whole numbers.
    for (kind, hard) in [("hard", true), ("soft", false)] {
        let gear = format!("armour = [{{ name = \"p\", type = \"{kind}\", resistance = 5, locations = [3] }}]");
        let s = setup(&two(&gear, "position = [6, 0]", 1), &[]);
        assert_eq!(s.combatants[0].armour[0].hard, hard, "{kind}");
    }
    let melee = |d: i32, dd: i32, pen: i32| {
        format!("melee_weapon = {{ name = \"m\", damage = {d}, delta_damage = {dd}, penetration = {pen} }}")
    };
    assert!(scenario::load("t.toml", &two(&melee(100, 20, 100), "position = [6, 0]", 1), &[]).is_ok());
    for bad in [melee(101, 0, 0), melee(0, 21, 0), melee(0, 0, 101)] {
        assert!(load_err(&two(&bad, "position = [6, 0]", 1)).contains("expected damage 0–100"), "{bad}");
    }
    assert!(load_err(&two("wounds = 101", "position = [6, 0]", 1)).contains("expected wounds from 0 to 100"));
    assert!(load_err(&two("", "position = \"a\"", 1)).contains("expected a square: two whole numbers [x, y]"));
}

#[test]
fn an_announcement_of_no_target_or_no_move_is_refused() {
    // rule: TICK-TIME-12, TICK-MOVE-1
    // A shot at oneself or at no one on the roster is refused, and so is a move or a run to
    // where one stands.
    let s = setup(&two("gun = \"pistol\"\ngun_ready = true", "position = [6, 0]", 1), &[]);
    let st = Ticks::initial_state(&s);
    assert!(illegal(&s, &st, A, &Action::fire(B, 1, false)).is_none());
    assert!(illegal(&s, &st, A, &Action::fire(A, 1, false)).is_some());
    assert!(illegal(&s, &st, A, &Action::fire(CombatantId(2), 1, false)).is_some());
    let here = st.fighter(A).pos;
    assert!(illegal(&s, &st, A, &Action::Move(here)).is_some());
    assert!(illegal(&s, &st, A, &Action::Run { to: here, attack: None }).is_some());
    assert!(illegal(&s, &st, A, &Action::Move((here.0 + 1, here.1))).is_none());
}

#[test]
fn a_strike_at_a_mover_needs_him_within_reach() {
    // rule: TICK-TIME-7
    // A same-tick strike at one who announced a move: next to A it may be made; two squares off
    // (beyond `melee_reach` 1) it is refused.
    let strike = Action::Strike { target: B, blow: Blow::Jab, weak_point: false };
    let legal = |b_at: &str| {
        let s = setup(&two("", &format!("position = {b_at}"), 1), &[]);
        let mut st = Ticks::initial_state(&s);
        Ticks::apply(&s, &mut st, &Event::Announced { who: B, action: Action::Move((5, 0)) });
        illegal(&s, &st, A, &strike)
    };
    assert_eq!(legal("[1, 0]"), None);
    assert_eq!(legal("[2, 0]"), Some("the target is not adjacent"));
}
