//! `phasesix` clauses and the catalogue's reference numbers.

use fray_dice::{BigRational, fraction};
use fray_engine::{CombatantId, Fight, FightError, FightResult, Outcome, Pos, Record, Ruleset, Scripted};
use fray_rules::phasesix::dice::{self, Tier};
use fray_rules::phasesix::odds;
use fray_rules::phasesix::policy::{self, Script, attack_numbers, illegal};
use fray_rules::phasesix::setup::Mode;
use fray_rules::phasesix::{
    Act, BoostedRoll, Choice, Cond, Event, Hand, Options, PhaseSix, Reaction, Setup, Special, State, scenario,
};
use num_traits::{One, ToPrimitive, Zero};

const A: CombatantId = CombatantId(0);
const B: CombatantId = CombatantId(1);

fn setup(text: &str, sets: &[(&str, &str)]) -> Setup {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("t.toml", text, &sets).unwrap_or_else(|e| panic!("{e}"))
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

/// B's turn first: it aims and keeps its second action, then parries A's `attack` (A's turn:
/// the attack, then the end). The script of the parry tests.
fn b_parries(attack: Act) -> Script {
    let parry = Choice::React { reaction: Some(Reaction::Parry), buy: 0 };
    script(&[
        (1, Choice::Act(Act::Aim { accurate: false })),
        (1, Choice::Act(Act::End)),
        (1, parry),
        (0, Choice::Act(attack)),
        (0, Choice::Act(Act::End)),
    ])
}

/// A with `a` lines and a rifle-or-sword, B with `b` lines, 1 m apart unless moved.
fn duel(a: &str, b: &str) -> String {
    format!(
        r#"
[rules]
ruleset = "phasesix"
[rules.options]
round_cap = 1

[[combatants]]
name = "A"
side = "a"
hand_to_hand = 2
shooting = 3
throwing = 2
perception = 2
position = 0
{a}

[[combatants]]
name = "B"
side = "b"
hand_to_hand = 2
policy = {{ move = "hold" }}
{}{b}
"#,
        if b.contains("position") { "" } else { "position = 1\n" }
    )
}

const SWORD: &str =
    "\n[[combatants.weapons]]\nname = \"sword\"\nclass = \"melee\"\ndamage_potential = 1\nweapon_type = \"blades\"\n";
const RIFLE: &str = "\n[[combatants.weapons]]\nname = \"rifle\"\nclass = \"ranged\"\nmodes = [\"single\", \"burst\"]\ndamage_potential = 2\nrange_m = 50\nrecoil = true\ncapacity = 30\nsupportable = true\nreload_actions = 2\n";

/// A third combatant on B's side, far off and holding, so that B being out does not end the fight.
const C_FAR: &str = "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 900\npolicy = { move = \"hold\" }\n";

fn ready(s: &Setup) -> State {
    let mut st = PhaseSix::initial_state(s);
    st.round = 1;
    for x in &mut st.fighters {
        x.actions = 2;
    }
    st
}

fn atk(target: CombatantId, mode: Mode) -> Act {
    Act::Attack { target, hand: Hand::Main, mode, special: Special::None, walk: None, from_behind: false }
}

fn q(r: &BigRational) -> String {
    fraction(r)
}

// --- Reference numbers ----------------------------------------------------------------------

#[test]
fn exploding_die_reference_numbers() {
    // rule: P6-DICE-2, P6-CRIT-2
    let p = |t| q(&odds::p_at_least(t));
    let r1: Vec<String> = (2..=6).map(p).collect();
    assert_eq!(r1, ["5/6", "2/3", "1/2", "1/3", "1/6"]);
    let r2: Vec<String> = (7..=12).map(p).collect();
    assert_eq!(r2, ["1/6", "5/36", "1/9", "1/12", "1/18", "1/36"]);
    let r3: Vec<String> = (13..=17).map(p).collect();
    assert_eq!(r3, ["1/36", "5/216", "1/54", "1/72", "1/108"]);
    assert_eq!((p(23), p(29)), ("1/648".into(), "1/3888".into()));
}

#[test]
fn tier_reference_numbers() {
    // rule: P6-CRIT-1, P6-CRIT-3, P6-CRIT-4, P6-RCL-1, P6-AIM-1, P6-MODE-3
    let o = Options::default();
    let tiers =
        |o: &Options, m, c| -> Vec<String> { odds::die_tiers(o, m, c).iter().take(5).map(|t| q(&t.1)).collect() };
    assert_eq!(tiers(&o, 5, 11), ["2/3", "5/18", "5/108", "5/648", "5/3888"]);
    assert_eq!(tiers(&o, 7, 13)[..4], ["5/6", "5/36", "5/216", "5/1296"]);
    assert_eq!(tiers(&o, 9, 15)[..4], ["8/9", "5/54", "5/324", "5/1944"]);
    let fixed = Options { ladder_fixed: true, ..Options::default() };
    assert_eq!(tiers(&fixed, 7, 13)[2..4], ["1/54", "5/648"]);
    assert_eq!(tiers(&o, 5, 9)[1..4], ["2/9", "5/54", "5/324"]);
    assert_eq!(tiers(&fixed, 5, 9)[2..4], ["11/108", "5/648"]);
    // M 11, C 11: every hit a crit; the floor option moves C to 17.
    assert_eq!(tiers(&o, 11, 11)[1..4], ["0/1", "5/108", "5/648"]);
    let floor = Options { crit_floor: true, ..Options::default() };
    assert_eq!(tiers(&floor, 11, 11)[1..3], ["5/108", "5/648"]);
    // A burst: a third of the dice hit, none crits.
    assert_eq!(tiers(&o, 5, 0), ["2/3", "1/3"]);
    assert_eq!(dice::tier(&o, 17, 5, 0), Tier::Normal);
    // M + 1 on top of 6+ changes nothing; C 13 equals C 12.
    assert_eq!((odds::p_at_least(6), odds::p_at_least(12)), (odds::p_at_least(7), odds::p_at_least(13)));
}

#[test]
fn wound_reference_numbers() {
    // rule: P6-DMG-1, P6-DMG-3, P6-ATK-3
    let o = Options::default();
    // Expected wounds per die at M 5, C 11: 31/90; crit wounds 1/15; megacrit extras 1/90.
    let tiers = odds::die_tiers(&o, 5, 11);
    let mut ew = BigRational::from_integer(0.into());
    let mut crit_w = BigRational::from_integer(0.into());
    let mut extra = BigRational::from_integer(0.into());
    for (t, p) in &tiers {
        match t {
            Tier::Normal => ew += p,
            Tier::Crit(k) => {
                let k = BigRational::from_integer(i64::from(*k).into());
                ew += p * (BigRational::one() + &k);
                crit_w += p;
                extra += p * k;
            }
            Tier::Miss => {}
        }
    }
    // The top level lumps levels ≥ 8: below 10^-6 of the totals.
    assert!((ew.to_f64().unwrap() - 31.0 / 90.0).abs() < 1e-6);
    // P(crit) 1/18; crit wounds (a crit's 1 plus its level) 1/15.
    assert_eq!(q(&crit_w), "1/18");
    assert!(((&crit_w + &extra).to_f64().unwrap() - 1.0 / 15.0).abs() < 1e-6);
    assert!((extra.to_f64().unwrap() - 1.0 / 90.0).abs() < 1e-6);
    // 4 dice against protection 1: P(0 wounds) 128/243, P(1) 80/243.
    let dist = odds::pool(&o, 4, 5, 11).unwrap();
    let mut by: std::collections::BTreeMap<i32, BigRational> = Default::default();
    for ((normals, crits), p) in dist {
        let w = (i32::from(normals) - 1).max(0) + crits.iter().map(|&k| 1 + i32::from(k)).sum::<i32>();
        *by.entry(w).or_insert_with(|| BigRational::from_integer(0.into())) += p;
    }
    assert_eq!((q(&by[&0]), q(&by[&1])), ("128/243".into(), "80/243".into()));
    let mean: f64 = by.iter().map(|(w, p)| f64::from(*w) * p.to_f64().unwrap()).sum();
    assert!((mean - 341093.0 / 524880.0).abs() < 1e-6);
    // 4 dice at M 5: P(≥ 1 hit) = 65/81; 5 dice: P(no hit) = 32/243.
    let none = |n| q(&odds::pool(&o, n, 5, 11).unwrap()[&(0u8, Vec::new())]);
    assert_eq!((none(4), none(5)), ("16/81".into(), "32/243".into()));
    let five = odds::pool(&o, 5, 5, 0).unwrap();
    let two_crits_three_normal: BigRational = odds::pool(&o, 5, 5, 11)
        .unwrap()
        .iter()
        .filter(|((n, c), _)| *n == 3 && c.len() == 2)
        .map(|(_, p)| p.clone())
        .sum();
    assert_eq!(q(&two_crits_three_normal), "625/944784");
    let _ = five;
}

#[test]
fn defence_cover_and_resource_reference_numbers() {
    // rule: P6-DEF-2, P6-COVER-1, P6-SHLD-1, P6-SHLD-4, P6-RES-5, P6-DEF-1
    // Dodge with Evasion 3 against 1..4 hits: 1 − (1 − P(≥ 5 + h))^3.
    let dodge = |n: i32, t: i32| {
        let miss = BigRational::one() - odds::p_at_least(t);
        q(&(BigRational::one() - (0..n).fold(BigRational::one(), |a, _| a * &miss)))
    };
    assert_eq!([dodge(3, 6), dodge(3, 7), dodge(3, 8), dodge(3, 9)], ["91/216", "91/216", "16865/46656", "217/729"]);
    assert_eq!((dodge(2, 6), dodge(4, 7)), ("11/36".into(), "671/1296".into()));
    // Cover: one die removes a hit at 4+, 5+, 6+: 1/2, 1/3, 1/6; 3 hits at 5+: all removed 1/27.
    assert_eq!([q(&odds::p_at_least(4)), q(&odds::p_at_least(5)), q(&odds::p_at_least(6))], ["1/2", "1/3", "1/6"]);
    let p5 = odds::p_at_least(5);
    assert_eq!(q(&(&p5 * &p5 * &p5)), "1/27");
    // Shield cover 7 − protection, clamped to 2+, none at 0.
    let cover = |p: i32| {
        let s = setup(&duel(&format!("shield = {{ name = \"s\", protection = {p} }}"), ""), &[]);
        s.combatants[0].shield_cover(&s.options)
    };
    assert_eq!(
        [cover(1), cover(2), cover(3), cover(5), cover(6), cover(0)],
        [Some(6), Some(5), Some(4), Some(2), Some(2), None]
    );
    // A destiny die as a bonus die: first toss ≥ 4, or the total reaching M.
    assert_eq!([q(&odds::p_at_least(4)), q(&odds::p_at_least(3)), q(&odds::p_at_least(2))], ["1/2", "2/3", "5/6"]);
    // Evasion.
    let ev = setup(
        &duel(
            "quickness = 3\ndeftness = 2",
            "quickness = 2\ndeftness = 3\narmour = [{ name = \"x\", encumbrance = 1 }]",
        ),
        &[],
    );
    assert_eq!((ev.combatants[0].evasion(), ev.combatants[1].evasion()), (3, 2));
}

#[test]
fn initiative_reference_numbers() {
    // rule: P6-INIT-1
    // Mean of d6!: 21/5; P(equal) for two d6! = Σ P(=t)² = 1/7.
    let eq = |t: i32| odds::p_at_least(t) - odds::p_at_least(t + 1);
    let same: BigRational = (1..200).map(|t| eq(t) * eq(t)).sum();
    assert!((same.to_f64().unwrap() - 1.0 / 7.0).abs() < 1e-12);
    // Quickness 3 before Quickness 2: P(X + 3 ≥ Y + 2), ties to the higher Quickness = 24/35.
    let before: BigRational = (1..200).map(|x| eq(x) * odds::p_at_least(x + 2).clone()).sum::<BigRational>();
    assert!((1.0 - before.to_f64().unwrap() - 24.0 / 35.0).abs() < 1e-12);
}

// --- Clauses --------------------------------------------------------------------------------

#[test]
fn the_minimum_roll_floor() {
    // rule: P6-DICE-4, P6-SPECIAL-1
    let o = Options::default();
    assert_eq!(dice::floor(&o, 4, 5), 2);
    assert_eq!(dice::floor(&o, 1, 0), 2);
    let acc = Options { floor_accurate_only: true, ..Options::default() };
    assert_eq!(dice::floor(&acc, 4, 5), 2);
    assert_eq!(dice::floor(&acc, 1, 0), 1);
}

#[test]
fn initiative_ties_and_the_sum_rule() {
    // rule: P6-INIT-2, P6-INIT-3
    let s = setup(&duel("quickness = 2\ndeftness = 2", "quickness = 2\ndeftness = 2"), &[]);
    // Equal 4 + 2 each: a logged draw decides (700 against 300).
    let (log, _, fought) = run(&s, &[4, 4, 700, 300, 1, 1, 1, 1, 1, 1], Script::new(2));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::TieBreak { who: A, draw: 700 })));
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [A, B])));
    let reroll =
        setup(&duel("quickness = 2\ndeftness = 2", "quickness = 2\ndeftness = 2"), &[("initiative_tie", "reroll")]);
    let (log, _, fought) = run(&reroll, &[4, 4, 2, 5, 1, 1, 1, 1, 1, 1], Script::new(2));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Order { order } if order.as_slice() == [B, A])));
    // The sum: Quickness 4 rolling 4, 5, 1 and 6+6+5 scores 27.
    let sum = setup(&duel("quickness = 4", "quickness = 1"), &[("initiative_roll", "quickness_d6_sum")]);
    let (log, _, fought) = run(&sum, &[4, 5, 1, 6, 6, 5, 3, 1, 1, 1, 1], Script::new(2));
    assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 11 dice");
    assert!(log.iter().any(|e| matches!(e, Event::Initiative { who: A, score: 27, .. })));
}

#[test]
fn turns_refresh_pools_and_acts_resolve_one_at_a_time() {
    // rule: P6-ROUND-2, P6-ACT-2, P6-ACT-3, P6-ACT-6, P6-MOVE-1
    let s = setup(&duel("actions = 3", "position = 30"), &[]).clone();
    let mut st = ready(&s);
    assert_eq!(fray_rules::phasesix::policy::move_m(&s, &st, A, 0), 2.0);
    assert_eq!(fray_rules::phasesix::policy::move_m(&s, &st, A, 1), 6.0);
    st.fighters[0].actions = 5;
    // Walking costs 1, running 1.
    let walk = Act::Walk(Pos { x: 2.0, y: 0.0 });
    assert!(illegal(&s, &st, A, &walk).is_none());
    assert!(illegal(&s, &st, A, &Act::Walk(Pos { x: 3.0, y: 0.0 })).is_some());
    // A turn refreshes to the maximum, not adding to what was kept.
    let (log, state, fought) = run(&s, &[5, 1], script(&[(0, Choice::Act(walk)), (0, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.contains(&Event::Refreshed { who: A, actions: 3 }));
    assert_eq!(state.fighter(A).actions, 2);
    // act costs from options
    let costly = setup(&duel("", ""), &[("act_cost.walk", "2")]);
    assert_eq!(fray_rules::phasesix::policy::attack_numbers(&costly, &ready(&costly), A, &atk(B, Mode::Melee)).1, 5);
    let mut st2 = ready(&costly);
    st2.fighters[0].actions = 1;
    assert!(illegal(&costly, &st2, A, &walk).is_some());
    // Unconscious or dying: 0 actions.
    let ko = setup(&format!("{}{C_FAR}", duel("", "unconscious = 3")), &[]);
    let ends = [(0, Choice::Act(Act::End)), (2, Choice::Act(Act::End))];
    let (log, _, fought) = run(&ko, &[5, 1, 3, 1], script(&ends));
    fought.unwrap();
    assert!(log.contains(&Event::Refreshed { who: B, actions: 0 }));
}

#[test]
fn two_weapons_bonus_dice_and_destiny() {
    // rule: P6-SPECIAL-9, P6-RES-2, P6-RES-3, P6-RES-1
    let twin = format!(
        "two_weapon_skilled = true\nmain_hand = \"sword\"\noff_hand = \"sword2\"{SWORD}{}",
        SWORD.replace("\"sword\"", "\"sword2\"")
    );
    let s = setup(&duel(&twin, ""), &[]);
    assert_eq!(
        fray_rules::phasesix::policy::attack_numbers(
            &s,
            &ready(&s),
            A,
            &Act::Attack {
                target: B,
                hand: Hand::Off,
                mode: Mode::Melee,
                special: Special::None,
                walk: None,
                from_behind: false
            }
        )
        .1,
        6
    );
    // The off-hand attack is for one with two such weapons and the skill only.
    let off = Act::Attack {
        target: B,
        hand: Hand::Off,
        mode: Mode::Melee,
        special: Special::None,
        walk: None,
        from_behind: false,
    };
    assert!(illegal(&s, &ready(&s), A, &off).is_none());
    let one = setup(&duel(SWORD, ""), &[]);
    assert!(illegal(&one, &ready(&one), A, &off).is_some());
    let (log, _, fought) = run(&s, &[5, 1], script(&[(0, Choice::Act(Act::End))]));
    assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 2 dice");
    assert!(log.contains(&Event::Refreshed { who: A, actions: 3 }));
    // A destiny die: the spender gains 1 now; the opponent (not the actor) loses 1 at its next refresh.
    let d = setup(&duel("destiny_dice = 1", ""), &[]);
    let (log, state, fought) = run(
        &d,
        &[5, 1],
        script(&[(0, Choice::Act(Act::Steal(B))), (0, Choice::Act(Act::End)), (1, Choice::Act(Act::End))]),
    );
    fought.unwrap();
    assert!(log.contains(&Event::Actions { who: B, delta: 0, steal_later: 1, bonus: 0, destiny: 0 }));
    assert!(log.contains(&Event::Refreshed { who: B, actions: 1 }));
    assert_eq!(state.fighter(A).actions, 3);
    assert_eq!(state.fighter(A).destiny_dice, 0);
}

#[test]
fn an_attack_is_at_another_on_the_roster() {
    // Not a clause: the attack's target must be someone else in the fight.
    let s = setup(&duel(SWORD, ""), &[]);
    let st = ready(&s);
    assert!(illegal(&s, &st, A, &atk(B, Mode::Melee)).is_none());
    assert!(illegal(&s, &st, A, &atk(A, Mode::Melee)).is_some());
    assert!(illegal(&s, &st, A, &atk(CombatantId(2), Mode::Melee)).is_some());
}

#[test]
fn walking_with_an_attack_and_crawling() {
    // rule: P6-MOVE-1, P6-MOVE-2, P6-MOVE-3, P6-MOVE-4, P6-MOVE-5, P6-RCL-3, P6-COND-6
    let s = setup(&duel(SWORD, "position = 3"), &[]);
    let st = ready(&s);
    let walk_attack = Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::None,
        walk: Some(Pos { x: 2.0, y: 0.0 }),
        from_behind: false,
    };
    assert!(illegal(&s, &st, A, &walk_attack).is_none());
    assert_eq!(attack_numbers(&s, &st, A, &walk_attack).1, 6);
    let off = setup(&duel(SWORD, "position = 3"), &[("walk_combine", "off")]);
    assert!(illegal(&off, &st, A, &walk_attack).is_some());
    // The combined walk is a walk: within A's walk (Quickness + 1 m), not past it, to B's side,
    // and not while hunkered (P6-MOVE-1, P6-MOVE-5).
    let walk = fray_rules::phasesix::policy::move_m(&s, &st, A, 0);
    assert!(walk < 9.0);
    let walking_to = |x: f64| Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::None,
        walk: Some(Pos { x, y: 0.0 }),
        from_behind: false,
    };
    let near = setup(&duel(SWORD, &format!("position = {}", walk + 1.0)), &[]);
    assert!(illegal(&near, &ready(&near), A, &walking_to(walk)).is_none());
    let far = setup(&duel(SWORD, "position = 10"), &[]);
    assert!(illegal(&far, &ready(&far), A, &walking_to(9.0)).is_some(), "a walk of 9 m");
    let mut hunkered = st.clone();
    hunkered.fighters[0].hunkered = true;
    assert!(illegal(&s, &hunkered, A, &walk_attack).is_some());
    // Crawl: Hunkered only, ⌈Quickness/2⌉ + 1; a hunkered character may not walk unless `any`.
    assert!(illegal(&s, &hunkered, A, &Act::Walk(Pos { x: 1.0, y: 0.0 })).is_some());
    assert!(illegal(&s, &hunkered, A, &Act::Crawl(Pos { x: -2.0, y: 0.0 })).is_none());
    assert!(illegal(&s, &hunkered, A, &Act::Crawl(Pos { x: -3.0, y: 0.0 })).is_some());
    assert!(illegal(&s, &st, A, &Act::Crawl(Pos { x: -1.0, y: 0.0 })).is_some());
    // Standing up is for the hunkered, hunkering for the rest (P6-COND-6).
    assert!(illegal(&s, &hunkered, A, &Act::StandUp).is_none());
    assert!(illegal(&s, &st, A, &Act::StandUp).is_some());
    assert!(illegal(&s, &st, A, &Act::Hunker).is_none());
    assert!(illegal(&s, &hunkered, A, &Act::Hunker).is_some());
    let any = setup(&duel(SWORD, "position = 3"), &[("hunkered_movement", "any")]);
    assert!(illegal(&any, &hunkered, A, &Act::Walk(Pos { x: 1.0, y: 0.0 })).is_none());
    for (q, crawl) in [(3, 3.0), (4, 3.0), (5, 4.0)] {
        let t = setup(&duel(&format!("quickness = {q}"), ""), &[]);
        assert_eq!(fray_rules::phasesix::policy::move_m(&t, &ready(&t), A, 2), crawl);
    }
    // A combined walk keeps the recoil chain (`combined_walk_breaks_recoil = false`).
    let rifle = setup(&duel(RIFLE, "position = 10"), &[]);
    let mut chained = ready(&rifle);
    chained.fighters[0].chain = 1;
    let walk_shot = Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Single,
        special: Special::None,
        walk: Some(Pos { x: 1.0, y: 0.0 }),
        from_behind: false,
    };
    assert_eq!(attack_numbers(&rifle, &chained, A, &walk_shot).1, 5 + 2 + 1);
}

#[test]
fn modes_ammunition_and_readying() {
    // rule: P6-MODE-1, P6-MODE-4, P6-MODE-5, P6-MODE-6, P6-SPECIAL-10
    let s = setup(&duel(RIFLE, "position = 10"), &[]);
    let mut st = ready(&s);
    assert!(illegal(&s, &st, A, &atk(B, Mode::Melee)).is_some());
    st.fighters[0].ammo[0] = Some(2);
    assert!(illegal(&s, &st, A, &atk(B, Mode::Burst)).is_some());
    assert!(illegal(&s, &st, A, &atk(B, Mode::Single)).is_none());
    let partial = setup(&duel(RIFLE, "position = 10"), &[("burst_ammo", "allow_partial")]);
    assert!(illegal(&partial, &st, A, &atk(B, Mode::Burst)).is_none());
    // Reloading costs the weapon's reload actions (the rifle's 2) and refills it; a full weapon
    // has nothing to reload.
    let empty = setup(&duel(&format!("{RIFLE}ammo = 0\n"), "position = 10"), &[]);
    let reload = script(&[(0, Choice::Act(Act::Reload)), (0, Choice::Act(Act::End))]);
    let (log, state, fought) = run(&empty, &[5, 1, 1], reload);
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert!(log.contains(&Event::Acted { who: A, act: Act::Reload, cost: 2 }), "{log:#?}");
    assert_eq!(state.fighter(A).ammo[0], Some(30));
    let (_, _, fought) = run(&s, &[5, 1, 1], script(&[(0, Choice::Act(Act::Reload)), (0, Choice::Act(Act::End))]));
    assert_eq!(fought.unwrap_err().to_string(), "illegal choice for combatant #0: nothing to reload");
    // A butt stroke needs no rounds: the empty rifle, given a melee mode, still strikes.
    let butt = setup(&duel(&format!("{RIFLE}ammo = 0\n").replace("\"burst\"]", "\"burst\", \"melee\"]"), ""), &[]);
    assert!(illegal(&butt, &ready(&butt), A, &atk(B, Mode::Melee)).is_none());
    assert!(illegal(&butt, &ready(&butt), A, &atk(B, Mode::Single)).is_some());
    // One action is not enough to reload the rifle, nor to ready a weapon of 2 ready actions.
    let mut one = ready(&empty);
    one.fighters[0].actions = 1;
    assert!(illegal(&empty, &one, A, &Act::Reload).is_some());
    one.fighters[0].actions = 2;
    assert!(illegal(&empty, &one, A, &Act::Reload).is_none());
    let slow = setup(&duel(&format!("{RIFLE}ready_actions = 2\n"), "position = 10"), &[]);
    let mut unready = ready(&slow);
    unready.fighters[0].armed = false;
    unready.fighters[0].actions = 1;
    assert!(illegal(&slow, &unready, A, &Act::Ready).is_some());
    unready.fighters[0].actions = 2;
    assert!(illegal(&slow, &unready, A, &Act::Ready).is_none());
    // Bracing: M − 1 for shots.
    let mut braced = ready(&s);
    assert!(illegal(&s, &braced, A, &Act::Brace).is_none());
    braced.fighters[0].braced = true;
    assert!(illegal(&s, &braced, A, &Act::Brace).is_some(), "braced already");
    let sword = setup(&duel(SWORD, ""), &[]);
    assert!(illegal(&sword, &ready(&sword), A, &Act::Brace).is_some(), "a sword is not braced");
    assert_eq!(attack_numbers(&s, &braced, A, &atk(B, Mode::Single)).1, 4);
    // A thrown weapon: Throwing, crits, may be aimed (or not).
    let knife = "\n[[combatants.weapons]]\nname = \"knife\"\nclass = \"thrown\"\nrange_m = 10\ncapacity = 1\n";
    let t = setup(&duel(knife, "position = 5"), &[]);
    let mut aimed = ready(&t);
    aimed.fighters[0].aim = 1;
    assert_eq!(attack_numbers(&t, &aimed, A, &atk(B, Mode::Thrown)), (2, 5, 10));
    let forbidden = setup(&duel(knife, "position = 5"), &[("thrown_aim", "forbidden")]);
    assert_eq!(attack_numbers(&forbidden, &aimed, A, &atk(B, Mode::Thrown)).2, 11);
    // A disarmed character must ready its weapon.
    let mut disarmed = ready(&s);
    disarmed.fighters[0].armed = false;
    assert!(illegal(&s, &disarmed, A, &atk(B, Mode::Single)).is_some());
    assert!(illegal(&s, &disarmed, A, &Act::Ready).is_none());
    assert!(illegal(&s, &ready(&s), A, &Act::Ready).is_some(), "armed already");
    let bare = setup(&duel("", ""), &[]);
    let mut bare_st = ready(&bare);
    bare_st.fighters[0].armed = false;
    assert!(illegal(&bare, &bare_st, A, &Act::Ready).is_some(), "no weapon to ready");
}

#[test]
fn range_rules() {
    // rule: P6-RANGE-1, P6-RANGE-2, P6-ATK-4
    let s = setup(&duel(RIFLE, "position = 70"), &[]);
    let st = ready(&s);
    assert!(illegal(&s, &st, A, &atk(B, Mode::Single)).is_some());
    let wrong = setup(&duel(RIFLE, "position = 70"), &[("range_rule", "wrong_distance")]);
    assert!(illegal(&wrong, &st, A, &atk(B, Mode::Single)).is_none());
    assert_eq!(attack_numbers(&wrong, &st, A, &atk(B, Mode::Single)).1, 7);
    // Beyond twice the range (the rifle's 50 m), not at all.
    let beyond = setup(&duel(RIFLE, "position = 101"), &[("range_rule", "wrong_distance")]);
    assert!(illegal(&beyond, &ready(&beyond), A, &atk(B, Mode::Single)).is_some());
    let ignore = setup(&duel(RIFLE, "position = 500"), &[("range_rule", "ignore")]);
    assert!(illegal(&ignore, &ready(&ignore), A, &atk(B, Mode::Single)).is_none());
    let far_sword = setup(&duel(SWORD, "position = 2"), &[]);
    assert!(illegal(&far_sword, &ready(&far_sword), A, &atk(B, Mode::Melee)).is_some());
    let no_reach = setup(&duel(SWORD, "position = 2"), &[("melee_reach", "ignore")]);
    assert!(illegal(&no_reach, &ready(&no_reach), A, &atk(B, Mode::Melee)).is_none());
}

#[test]
fn reactions_only_by_the_target_and_not_from_behind() {
    // rule: P6-REACT-3, P6-REACT-4, P6-DEF-3, P6-DEF-4, P6-DEF-5
    // B kept 1 action (its turn first: it aims), then parries A's 2 normal hits.
    let text = duel(SWORD, &format!("perception = 1{SWORD}"));
    let s = setup(&text, &[]);
    // Initiative A 1 + 1, B 5 + 1; A's 3 dice: 5 5 1; B's parry 3 dice: 5 1 1.
    let (log, state, fought) = run(&s, &[1, 5, 5, 5, 1, 5, 1, 1], b_parries(atk(B, Mode::Melee)));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Reacted { who: B, reaction: Reaction::Parry, successes: 1, .. })));
    assert_eq!(state.fighter(B).wounds, 1);
    // From behind: no reaction at all.
    let behind = Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::None,
        walk: None,
        from_behind: true,
    };
    // B's parry dice are there (5 1 1) should it wrongly be asked: it is not, and takes both hits.
    let (log, state, result) = run(&s, &[1, 5, 5, 5, 1, 5, 1, 1], b_parries(behind));
    result.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Reacted { .. })));
    assert_eq!(state.fighter(B).wounds, 2);
    // `awareness = scenario`: the target reacts to an attacker it perceives, whether or not the
    // attacker perceives it, and never to one it does not perceive.
    let parried = |a: &str, b: &str| {
        let text = duel(&format!("perceives = [{a}]{SWORD}"), &format!("perception = 1\nperceives = [{b}]{SWORD}"));
        let s = setup(&text, &[("awareness", "scenario")]);
        let (log, state, result) = run(&s, &[1, 5, 5, 5, 1, 5, 1, 1], b_parries(atk(B, Mode::Melee)));
        result.unwrap();
        let reacted = log.iter().any(|e| matches!(e, Event::Reacted { who: B, .. }));
        assert_eq!(state.fighter(B).wounds, if reacted { 1 } else { 2 });
        reacted
    };
    assert!(parried("", "\"A\""));
    assert!(!parried("\"B\"", ""));
    // Unarmed: no parry unless `unarmed_parry`; a parry removes no crits unless `crit_successes`.
    let bare = setup(&duel(SWORD, ""), &[]);
    let st = ready(&bare);
    assert!(policy::illegal_reaction(&bare, &st, B, A, B, Mode::Melee, Reaction::Parry, 0).is_some());
    let allowed = setup(&duel(SWORD, ""), &[("unarmed_parry", "true")]);
    assert!(policy::illegal_reaction(&allowed, &st, B, A, B, Mode::Melee, Reaction::Parry, 0).is_none());
    assert!(policy::illegal_reaction(&bare, &st, B, A, B, Mode::Single, Reaction::Dodge, 0).is_some());
    assert!(policy::illegal_reaction(&bare, &st, B, A, B, Mode::Melee, Reaction::Hunker, 0).is_some());
    let any = setup(&duel(SWORD, ""), &[("reaction_menu", "any")]);
    assert!(policy::illegal_reaction(&any, &st, B, A, B, Mode::Melee, Reaction::Hunker, 0).is_none());
    // Awareness from the scenario: B perceives nobody, so cannot react.
    let unaware = setup(&text, &[("awareness", "scenario")]);
    let (log, _, fought) = run(&unaware, &[1, 5, 5, 5, 1], b_parries(atk(B, Mode::Melee)));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Reacted { .. })));
    // Crit-parry option: a parry crit success removes a crit.
    let crit_parry = setup(&text, &[("parry_vs_crits", "crit_successes")]);
    let (_, state, fought) = run(&crit_parry, &[1, 5, 6, 5, 1, 1, 6, 5, 1, 1], b_parries(atk(B, Mode::Melee)));
    fought.unwrap();
    assert_eq!(state.fighter(B).wounds, 0);
}

#[test]
fn cover_crit_removal_stacking_and_modifiers() {
    // rule: P6-COVER-3, P6-COVER-4, P6-COVER-5, P6-SHLD-2, P6-SHLD-4
    // A's rifle: 5 dice → crits 23 (level 2) and 11 (level 0); B in 5+ cover: the second crit die hits.
    let s = setup(&duel(RIFLE, "position = 10\ncover = 5"), &[]);
    let shot = Choice::Act(atk(B, Mode::Single));
    let faces = [5, 1, 6, 6, 6, 5, 6, 5, 1, 1, 1, 1, 5];
    let (log, state, fought) = run(&s, &faces, script(&[(0, shot), (0, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::CoverRoll { crits_removed: 1, .. })));
    // Highest first: the level-2 crit goes; 1 wound is left (the plain crit).
    assert_eq!(state.fighter(B).wounds, 1);
    let order = setup(&duel(RIFLE, "position = 10\ncover = 5"), &[("cover_crit_removal", "roll_order")]);
    let (_, state, fought) = run(&order, &faces, script(&[(0, shot), (0, Choice::Act(Act::End))]));
    fought.unwrap();
    assert_eq!(state.fighter(B).wounds, 3);
    // Best only, or one roll per source (hunkered 6+ then 5+).
    let both = duel(RIFLE, "position = 10\ncover = 5\nhunkered = true");
    let (log, _, fought) =
        run(&setup(&both, &[]), &[5, 1, 5, 5, 1, 1, 1, 1, 1], script(&[(0, shot), (0, Choice::Act(Act::End))]));
    fought.unwrap();
    assert_eq!(log.iter().filter(|e| matches!(e, Event::CoverRoll { .. })).count(), 1);
    let (log, _, fought) = run(
        &setup(&both, &[("cover_stacking", "sequential")]),
        &[5, 1, 5, 5, 1, 1, 1, 1, 1, 1, 1],
        script(&[(0, shot), (0, Choice::Act(Act::End))]),
    );
    fought.unwrap();
    assert_eq!(log.iter().filter(|e| matches!(e, Event::CoverRoll { .. })).count(), 2);
    // Cover values ignore the defender's conditions unless `defender_conditions`.
    let poisoned = duel(RIFLE, "position = 10\ncover = 5\npoisoned = 1");
    let (log, _, fought) = run(
        &setup(&poisoned, &[("cover_roll_modifiers", "defender_conditions")]),
        &[5, 1, 1, 5, 5, 1, 1, 1, 1, 1],
        script(&[(0, shot), (0, Choice::Act(Act::End))]),
    );
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::CoverRoll { value: 6, .. })));
    // A shield block: raised for 2 actions, active from the next round (or at once), halves moves.
    let shield = setup(&duel(&format!("shield = {{ name = \"s\", protection = 2 }}{SWORD}"), ""), &[]);
    let mut st = ready(&shield);
    assert!(illegal(&shield, &st, A, &Act::RaiseShield).is_none());
    st.fighters[0].block = Some(1);
    assert_eq!(fray_rules::phasesix::policy::move_m(&shield, &st, A, 0), 1.0);
    let down = setup(
        &duel(&format!("quickness = 2\nshield = {{ name = \"s\", protection = 2 }}{SWORD}"), ""),
        &[("move_halving_round", "down")],
    );
    let mut st2 = ready(&down);
    st2.fighters[0].block = Some(1);
    assert_eq!(fray_rules::phasesix::policy::move_m(&down, &st2, A, 0), 1.0);
    let up = setup(&duel(&format!("quickness = 2\nshield = {{ name = \"s\", protection = 2 }}{SWORD}"), ""), &[]);
    assert_eq!(fray_rules::phasesix::policy::move_m(&up, &st2, A, 0), 2.0);
    let min = setup(&duel("shield = { name = \"s\", protection = 6 }", ""), &[("shield_cover_min", "3")]);
    assert_eq!(min.combatants[0].shield_cover(&min.options), Some(3));
}

#[test]
fn aim_is_lost_when_hit_and_accurate_points() {
    // rule: P6-AIM-2, P6-AIM-3, P6-SPECIAL-1, P6-SPECIAL-2
    let s = setup(&duel(SWORD, &format!("perception = 2{SWORD}")), &[]);
    // B (first) aims twice; A hits it with a normal hit (no reaction left): B's aim is lost.
    let entries = [
        (1, Choice::Act(Act::Aim { accurate: false })),
        (1, Choice::Act(Act::Aim { accurate: false })),
        (0, Choice::Act(atk(B, Mode::Melee))),
        (0, Choice::Act(Act::End)),
    ];
    let (log, state, fought) = run(&s, &[1, 5, 5, 1, 1], script(&entries));
    fought.unwrap();
    assert!(log.contains(&Event::AimLost { who: B }));
    assert_eq!(state.fighter(B).aim, 0);
    let wound =
        setup(&duel(SWORD, &format!("perception = 2\ninnate_protection = 1{SWORD}")), &[("aim_lost_on", "wound")]);
    let (log, _, fought) = run(&wound, &[1, 5, 5, 1, 1], script(&entries));
    fought.unwrap();
    assert!(!log.contains(&Event::AimLost { who: B }));
    // A hit is counted after cover: B, aiming in 5+ cover, keeps its aim when the cover die stops
    // A's one hit, and loses it when the die fails.
    let covered = setup(&duel(RIFLE, &format!("position = 10\ncover = 5\nperception = 2{SWORD}")), &[]);
    let entries = [
        (1, Choice::Act(Act::Aim { accurate: false })),
        (1, Choice::Act(Act::Aim { accurate: false })),
        (0, Choice::Act(atk(B, Mode::Single))),
        (0, Choice::Act(Act::End)),
    ];
    for (cover_die, lost) in [(5, false), (1, true)] {
        let (log, state, result) = run(&covered, &[1, 5, 5, 1, 1, 1, 1, cover_die], script(&entries));
        result.unwrap();
        assert!(log.iter().any(|e| matches!(e, Event::CoverRoll { .. })), "{log:#?}");
        assert_eq!(log.contains(&Event::AimLost { who: B }), lost, "{log:#?}");
        assert_eq!(state.fighter(B).aim > 0, !lost);
    }
    // Accurate points: M − 1 each, capped by Perception; another act discards them.
    let mut st = ready(&s);
    st.fighters[0].accurate = 2;
    assert_eq!(attack_numbers(&s, &st, A, &atk(B, Mode::Melee)).1, 3);
    let (_, state, fought) =
        run(&s, &[5, 1], script(&[(0, Choice::Act(Act::Aim { accurate: true })), (0, Choice::Act(Act::Hunker))]));
    assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 2 dice");
    assert_eq!(state.fighter(A).accurate, 0);
    let combined = setup(&duel(SWORD, ""), &[("accurate_attack", "combined_cap")]);
    let (_, state, fought) = run(
        &combined,
        &[5, 1],
        script(&[
            (0, Choice::Act(Act::Aim { accurate: true })),
            (0, Choice::Act(Act::Aim { accurate: false })),
            (0, Choice::Act(Act::End)),
        ]),
    );
    assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 2 dice");
    assert_eq!((state.fighter(A).accurate, state.fighter(A).aim), (1, 1));
}

#[test]
fn special_attacks() {
    // rule: P6-SPECIAL-3, P6-SPECIAL-4, P6-SPECIAL-5, P6-SPECIAL-6, P6-SPECIAL-7, P6-SPECIAL-8
    let club = "strength = 2\n[[combatants.weapons]]\nname = \"club\"\nclass = \"melee\"\ndamage_potential = 1\nblunt = true\n";
    let s = setup(&duel(club, "resistance = 1"), &[]);
    let ko = Choice::Act(Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Ko,
        walk: None,
        from_behind: false,
    });
    // 3 dice: 5 5 1 → 2 hits; Resistance 1 die: 1 → 0 successes: Unconscious 2, no wounds.
    let (log, state, fought) = run(&s, &[5, 1, 5, 5, 1, 1], script(&[(0, ko), (0, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.contains(&Event::Condition { who: B, cond: Cond::Unconscious, value: 2 }));
    assert_eq!(state.fighter(B).wounds, 0);
    let hits = setup(&duel(club, "resistance = 1"), &[("ko_depth", "hits")]);
    let (log, _, fought) = run(&hits, &[5, 1, 5, 5, 1, 5], script(&[(0, ko), (0, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.contains(&Event::Condition { who: B, cond: Cond::Unconscious, value: 2 }));
    assert!(
        illegal(
            &setup(&duel(SWORD, ""), &[]),
            &ready(&s),
            A,
            &Act::Attack {
                target: B,
                hand: Hand::Main,
                mode: Mode::Melee,
                special: Special::Ko,
                walk: None,
                from_behind: false
            }
        )
        .is_some()
    );
    let fists = Act::Attack {
        target: B,
        hand: Hand::Unarmed,
        mode: Mode::Melee,
        special: Special::Ko,
        walk: None,
        from_behind: false,
    };
    assert!(illegal(&s, &ready(&s), A, &fists).is_none());
    let no_fists = setup(&duel(club, ""), &[("ko_unarmed", "false")]);
    assert!(illegal(&no_fists, &ready(&no_fists), A, &fists).is_some());
    // Massive: +3 dice per extra action, capped by Strength (2): 3 + 2 = 5 dice.
    let massive = Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Massive(1),
        walk: None,
        from_behind: false,
    };
    assert_eq!(attack_numbers(&s, &ready(&s), A, &massive).0, 5);
    let per_action = setup(&duel(club, ""), &[("massive_cap", "extra_actions")]);
    assert_eq!(attack_numbers(&per_action, &ready(&per_action), A, &massive).0, 6);
    let total = setup(&duel(club, ""), &[("massive_cap", "total_dice")]);
    assert_eq!(attack_numbers(&total, &ready(&total), A, &massive).0, 2);
    let rifle = setup(&duel(RIFLE, "position = 10"), &[]);
    let massive_shot = Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Single,
        special: Special::Massive(1),
        walk: None,
        from_behind: false,
    };
    assert!(illegal(&rifle, &ready(&rifle), A, &massive_shot).is_some());
    // Disarm: M + 3; the target resists with the better of Strength and Deftness.
    let text = duel(SWORD, &format!("strength = 1\ndeftness = 1{SWORD}"));
    let d = setup(&text, &[]);
    let disarm = Choice::Act(Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Disarm,
        walk: None,
        from_behind: false,
    });
    assert_eq!(
        attack_numbers(
            &d,
            &ready(&d),
            A,
            &Act::Attack {
                target: B,
                hand: Hand::Main,
                mode: Mode::Melee,
                special: Special::Disarm,
                walk: None,
                from_behind: false
            }
        )
        .1,
        8
    );
    let (log, state, fought) = run(&d, &[5, 1, 6, 3, 1, 1, 1], script(&[(0, disarm), (0, Choice::Act(Act::End))]));
    assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 7 dice");
    assert!(log.contains(&Event::Disarmed { who: B }));
    // Disarmed, B spends its first act picking the weapon up again.
    let after = log
        .iter()
        .skip_while(|e| !matches!(e, Event::Disarmed { .. }))
        .find(|e| matches!(e, Event::Acted { who: B, .. }));
    assert!(matches!(after, Some(Event::Acted { act: Act::Ready, .. })), "{after:?}");
    assert!(state.fighter(B).armed);
    assert_eq!(state.fighter(B).wounds, 0);
    for (opt, v) in
        [("disarm_resist", "strength"), ("disarm_hits_stage", "raw"), ("disarm_hits_stage", "after_protection")]
    {
        let o = setup(&text, &[(opt, v)]);
        let (log, _, fought) = run(&o, &[5, 1, 6, 3, 1, 1, 1], script(&[(0, disarm), (0, Choice::Act(Act::End))]));
        assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 7 dice");
        assert!(log.contains(&Event::Disarmed { who: B }), "{opt}={v}");
    }
}

#[test]
fn weapon_conditions_and_round_start_checks() {
    // rule: P6-DMG-5, P6-COND-1, P6-COND-2, P6-COND-3, P6-COND-4, P6-COND-5, P6-COND-7
    let poison = "\n[[combatants.weapons]]\nname = \"venom blade\"\nclass = \"melee\"\ndamage_potential = 1\nconditions = { poisoned = 2, bleeding = 1 }\n";
    let s = setup(&duel(poison, ""), &[]);
    // 3 dice 5 5 1: 2 hits, 2 wounds; the conditions once per attack.
    let (log, state, fought) =
        run(&s, &[5, 1, 5, 5, 1], script(&[(0, Choice::Act(atk(B, Mode::Melee))), (0, Choice::Act(Act::End))]));
    assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 5 dice");
    assert!(log.contains(&Event::Condition { who: B, cond: Cond::Poisoned, value: 2 }));
    assert_eq!(state.fighter(B).condition(Cond::Bleeding), 1);
    let per_hit = setup(&duel(poison, ""), &[("weapon_condition_per", "wounding_hit")]);
    let (_, state, fought) =
        run(&per_hit, &[5, 1, 5, 5, 1], script(&[(0, Choice::Act(atk(B, Mode::Melee))), (0, Choice::Act(Act::End))]));
    assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 5 dice");
    assert_eq!(state.fighter(B).condition(Cond::Poisoned), 4);
    // Round-start checks: Unconscious (Willpower) wakes at successes ≥ v; Shocked and Poisoned fall
    // by successes; Bleeding wounds on 0 successes; Burning raises attack M.
    let text = format!(
        "{}{C_FAR}",
        duel(
            "",
            "unconscious = 1\nshocked = 2\npoisoned = 1\nbleeding = 2\nendurance = 1\nresistance = 1\nwillpower = 4\nposition = 500"
        )
    );
    let c = setup(&text, &[]);
    // B's checks in order, each with Shocked's −2 dice and Poisoned's M + 1: unconscious (Willpower 4 − 2
    // = 2 dice at 6+: 6,1 → 7 and 1, one success: wakes), shocked (Endurance 1 − 2: no dice), poisoned
    // (Resistance 1 − 2: no dice), bleeding (no dice → 0 successes → 2 wounds).
    let ends = [(0, Choice::Act(Act::End)), (1, Choice::Act(Act::End)), (2, Choice::Act(Act::End))];
    let (log, state, fought) = run(&c, &[5, 1, 3, 6, 1, 1], script(&ends));
    fought.unwrap();
    assert!(log.contains(&Event::Condition { who: B, cond: Cond::Unconscious, value: 0 }));
    assert_eq!(state.fighter(B).wounds, 2);
    let order: Vec<&str> = log
        .iter()
        .filter_map(|e| match e {
            Event::Check { what, .. } => Some(*what),
            _ => None,
        })
        .collect();
    assert_eq!(order, ["unconscious check", "endurance check", "poison check", "endurance check"]);
    let bleeding_first = setup(&text, &[("round_start_order", "bleeding_first")]);
    let (log, _, fought) = run(&bleeding_first, &[5, 1, 3, 6, 1, 1], script(&ends));
    fought.unwrap();
    let first = log.iter().find_map(|e| match e {
        Event::Check { what, .. } => Some(*what),
        _ => None,
    });
    assert_eq!(first, Some("endurance check"));
    let burning = setup(&duel(&format!("burning = 2{SWORD}"), ""), &[]);
    assert_eq!(attack_numbers(&burning, &ready(&burning), A, &atk(B, Mode::Melee)).1, 7);
    let shocked = setup(&duel(&format!("shocked = 1{SWORD}"), ""), &[]);
    assert_eq!(attack_numbers(&shocked, &ready(&shocked), A, &atk(B, Mode::Melee)).0, 2);
}

#[test]
fn tracks_boosts_dying_first_aid_and_victory() {
    // rule: P6-TRACK-1, P6-TRACK-2, P6-TRACK-4, P6-TRACK-6, P6-TRACK-7, P6-TRACK-8
    let s = setup(&duel(SWORD, ""), &[]);
    assert_eq!(s.combatants[1].max_wounds, 6);
    let ten = setup(&duel(SWORD, ""), &[("base_max_wounds", "10")]);
    assert_eq!(ten.combatants[1].max_wounds, 10);
    // Boosts first: B with 1 boost takes 2 wounds: 1 boost, 1 heart.
    let boosted = setup(&duel(SWORD, "boosts = 1"), &[]);
    let (log, state, fought) =
        run(&boosted, &[5, 1, 5, 5, 1], script(&[(0, Choice::Act(atk(B, Mode::Melee))), (0, Choice::Act(Act::End))]));
    assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 5 dice");
    assert_eq!((state.fighter(B).boosts, state.fighter(B).wounds), (0, 1));
    // Wounded, not out (P6-TRACK-8): no `Out`.
    assert!(!log.contains(&Event::Out { who: B }), "{log:#?}");
    // A Dying character: further wounds ignored, or added under `add_to_dying`.
    let dying = duel(SWORD, "dying = 2\nwounds = 6\nposition = 1")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 500\npolicy = { move = \"hold\" }\n";
    let (_, state, fought) = run(
        &setup(&dying, &[]),
        &[5, 1, 2, 5, 5, 5, 1],
        script(&[(0, Choice::Act(atk(B, Mode::Melee))), (0, Choice::Act(Act::End))]),
    );
    fought.unwrap();
    assert_eq!(state.fighter(B).condition(Cond::Dying), 2);
    let (_, state, fought) = run(
        &setup(&dying, &[("wounds_while_dying", "add_to_dying")]),
        &[5, 1, 2, 5, 5, 5, 1],
        script(&[(0, Choice::Act(atk(B, Mode::Melee))), (0, Choice::Act(Act::End))]),
    );
    fought.unwrap();
    assert_eq!(state.fighter(B).condition(Cond::Dying), 4);
    // Added, not multiplied: from Dying 3 the same 2 wounds make 5.
    let (_, state, fought) = run(
        &setup(&dying.replace("dying = 2", "dying = 3"), &[("wounds_while_dying", "add_to_dying")]),
        &[5, 1, 2, 5, 5, 5, 1],
        script(&[(0, Choice::Act(atk(B, Mode::Melee))), (0, Choice::Act(Act::End))]),
    );
    fought.unwrap();
    assert_eq!(state.fighter(B).condition(Cond::Dying), 5);
    // First aid: successes ≥ Dying stabilises; the patient stays fainted (out) by default.
    let medic = duel("first_aid = 3", "dying = 2\nwounds = 6")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 500\npolicy = { move = \"hold\" }\n";
    let m = setup(&medic, &[]);
    let (log, state, fought) =
        run(&m, &[5, 1, 2, 5, 5, 5, 1], script(&[(0, Choice::Act(Act::FirstAid(B))), (0, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.contains(&Event::Stabilised { who: B }));
    assert!(state.fighter(B).out(&m.options));
    let mut awake_state = state.clone();
    awake_state.fighters[1].boosts = 1;
    let awake = setup(&medic, &[("stabilised_state", "awake")]);
    assert!(!awake_state.fighter(B).helpless(&awake.options));
    // Victory: a side wins when the other is out; `out_when = dead` keeps the dying in.
    let (_, _, result) = run(&setup(&duel(SWORD, "dying = 1"), &[]), &[5, 1], Script::new(2));
    assert_eq!(result.unwrap().outcome, Outcome::Side(fray_engine::SideId(0)));
    let dead = setup(&duel(SWORD, "dying = 1"), &[("out_when", "dead")]);
    // (A keeps no action from a Dying B, who has none to act with: it strikes twice.)
    let (_, _, result) = run(&dead, &[5, 1, 5, 1, 1, 1, 1, 1, 1], Script::new(2));
    assert_eq!(result.unwrap().outcome, Outcome::Stalemate);
}

#[test]
fn dying_of_a_round_start_check_takes_the_dying_out_under_out_when_dead() {
    // rule: P6-TRACK-8, P6-TRACK-5
    // Under `out_when = dead` a Dying B is in the fight until it dies. Dying 5, its round-start
    // check fails (a 3): Dying 6, dead, and out, which the simulator counts as downed.
    let s = setup(&(duel(SWORD, "dying = 5") + C_FAR), &[("out_when", "dead")]);
    let idle = script(&[(0, Choice::Act(Act::End)), (2, Choice::Act(Act::End))]);
    let (log, state, fought) = run(&s, &[1, 5, 2, 3], idle);
    fought.unwrap();
    assert!(state.fighter(B).dead, "{log:#?}");
    let out = log.iter().position(|e| *e == Event::Out { who: B });
    let died = log.iter().position(|e| *e == Event::Died { who: B });
    assert!(died.is_some() && out > died, "{log:#?}");
    assert_eq!(PhaseSix::tally(&Event::Out { who: B }), Some(fray_engine::Tally::Downed { who: B }));
}

#[test]
fn crits_only_when_hits_and_the_floor_option() {
    // rule: P6-CRIT-4
    let o = Options::default();
    assert_eq!(dice::tier(&o, 12, 12, 11), Tier::Crit(0));
    assert_eq!(dice::tier(&o, 10, 12, 11), Tier::Miss);
    let floor = Options { crit_floor: true, ..Options::default() };
    assert_eq!(dice::tier(&floor, 12, 12, 11), Tier::Normal);
    // R12: at M 11, C 11 the floor puts C' at M + 6 = 17, where a die is a crit.
    assert_eq!((dice::tier(&floor, 16, 11, 11), dice::tier(&floor, 17, 11, 11)), (Tier::Normal, Tier::Crit(0)));
}

#[test]
fn the_best_defence_stops_the_most() {
    // rule: P6-DEF-1, P6-DEF-3, P6-SHLD-1
    // The `defend = best` policy reacts with whatever is expected to stop the most hits (crits
    // counted double): a dodge stops all or nothing, a parry one normal hit per success, a shield
    // parry rolls the shield's cover for every hit.
    let react = |b: &str, normals: u8, crits: u8, mode: Mode| {
        let s = setup(&duel(SWORD, &format!("{b}{SWORD}")), &[]);
        let state = ready(&s);
        let request = fray_rules::phasesix::Request::React { attacker: A, target: B, mode, normals, crits, actions: 2 };
        match policy::ai_choice(&s, &state, B, &request) {
            Choice::React { reaction, .. } => reaction,
            other => panic!("{other:?}"),
        }
    };
    // Hand-to-hand 2 + sword 1: three parry dice at 5+ (1/3 each) stop one of two normal hits on
    // average, a dodge at 7+ on one evasion die stops both a sixth of the time: the parry.
    assert_eq!(react("", 2, 0, Mode::Melee), Some(Reaction::Parry));
    // Six normal hits: the parry still stops one; a big shield (protection 5: cover 2+, 5/6 a
    // hit) stops five: the shield parry.
    let shield = "shield = { name = \"tower\", protection = 5 }\n";
    assert_eq!(react(shield, 6, 0, Mode::Melee), Some(Reaction::ShieldParry));
    // Crits, which a parry cannot stop: with the shield, the shield parry; a nimble defender with
    // no shield (evasion 4 at 7+) dodges.
    assert_eq!(react(shield, 0, 2, Mode::Melee), Some(Reaction::ShieldParry));
    assert_eq!(react("quickness = 4\ndeftness = 4\n", 0, 2, Mode::Melee), Some(Reaction::Dodge));
}

#[test]
fn a_shield_parries_only_beside_a_one_handed_weapon() {
    // rule: P6-SHLD-1, P6-SHLD-2
    let shield = "shield = { name = \"s\", protection = 2 }";
    let one = setup(&duel("", &format!("{shield}{SWORD}")), &[]);
    let two = setup(&duel("", &format!("{shield}{}", SWORD.replace("weapon_type", "hands = 2\nweapon_type"))), &[]);
    for (s, legal) in [(&one, true), (&two, false)] {
        let st = ready(s);
        let why = policy::illegal_reaction(s, &st, B, A, B, Mode::Melee, Reaction::ShieldParry, 0);
        assert_eq!(why.is_none(), legal, "{why:?}");
    }
    // And is raised for a block the same way: by one with a shield and a one-handed weapon, and
    // no block up yet (P6-SHLD-2); not beside two weapons, which leave no hand free.
    let raise = |s: &Setup, st: &State| illegal(s, st, B, &Act::RaiseShield).is_none();
    let mut st = ready(&one);
    assert!(raise(&one, &st));
    st.fighters[1].block = Some(1);
    assert!(!raise(&one, &st), "a block already up");
    assert!(!raise(&two, &ready(&two)), "a two-handed weapon");
    let bare = setup(&duel("", SWORD), &[]);
    assert!(!raise(&bare, &ready(&bare)), "no shield");
    let twin = format!(
        "{shield}\ntwo_weapon_skilled = true\nmain_hand = \"sword\"\noff_hand = \"sword2\"{SWORD}{}",
        SWORD.replace("\"sword\"", "\"sword2\"")
    );
    let twin = setup(&duel("", &twin), &[]);
    assert!(!raise(&twin, &ready(&twin)), "two weapons");
}

#[test]
fn a_destiny_die_steals_only_from_an_actor_with_an_action_left() {
    // rule: P6-RES-2, P6-RES-3, P6-RES-1
    let s = setup(&duel(SWORD, &format!("destiny_dice = 1{SWORD}")), &[]);
    let mut st = ready(&s);
    st.actor = Some(A);
    st.fighters[1].actions = 0;
    st.fighters[0].actions = 0;
    let parry_buying = |st: &State| policy::illegal_reaction(&s, st, B, A, B, Mode::Melee, Reaction::Parry, 2);
    assert!(parry_buying(&st).is_some());
    // The AI then does not react rather than ask for it.
    let request = fray_rules::phasesix::Request::React {
        attacker: A,
        target: B,
        mode: Mode::Melee,
        normals: 1,
        crits: 0,
        actions: 0,
    };
    assert_eq!(policy::ai_choice(&s, &st, B, &request), Choice::React { reaction: None, buy: 0 });
    st.fighters[0].actions = 1;
    assert!(parry_buying(&st).is_none());
    // An action bought with a bonus die needs one in hand (P6-RES-1).
    let bonus_buying = |st: &State| policy::illegal_reaction(&s, st, B, A, B, Mode::Melee, Reaction::Parry, 1);
    assert!(bonus_buying(&st).is_some(), "no bonus die");
    st.fighters[1].bonus_dice = 1;
    assert!(bonus_buying(&st).is_none());
    // And one bought with a destiny die, a destiny die (P6-RES-2).
    st.fighters[1].destiny_dice = 0;
    assert!(parry_buying(&st).is_some(), "no destiny die");
    // A steal act targets an opponent, never an ally.
    let ally = setup(&(duel("destiny_dice = 1", "") + C_FAR.replace("side = \"b\"", "side = \"a\"").as_str()), &[]);
    let st = ready(&ally);
    assert!(illegal(&ally, &st, A, &Act::Steal(CombatantId(2))).is_some());
    assert!(illegal(&ally, &st, A, &Act::Steal(B)).is_none());
}

#[test]
fn first_aid_on_the_dying_costs_the_stabilise_price() {
    // rule: P6-ACT-6, P6-TRACK-6
    let s = setup(&duel("", "dying = 1"), &[("act_cost.stabilise", "2")]);
    let mut st = ready(&s);
    st.fighters[0].actions = 1;
    assert!(illegal(&s, &st, A, &Act::FirstAid(B)).is_some(), "two actions to stabilise");
    st.fighters[0].actions = 2;
    assert!(illegal(&s, &st, A, &Act::FirstAid(B)).is_none());
    // On another, within 1 m (P6-TRACK-6): not on oneself, not from 2 m.
    assert!(illegal(&s, &st, A, &Act::FirstAid(A)).is_some(), "oneself");
    assert!(illegal(&s, &st, A, &Act::FirstAid(CombatantId(2))).is_some(), "no one on the roster");
    st.fighters[1].pos = Pos { x: 2.0, y: 0.0 };
    assert!(illegal(&s, &st, A, &Act::FirstAid(B)).is_some(), "2 m off");
}

#[test]
fn first_aid_a_fire_a_throw_and_a_steal_each_need_their_object() {
    // rule: P6-TRACK-6, P6-TRACK-7, P6-ACT-6, P6-COND-3, P6-THROW-1, P6-RES-2
    let s = setup(&duel("destiny_dice = 1", ""), &[]);
    let st = ready(&s);
    let with = |cond: Cond, value: i32| {
        let mut st = ready(&s);
        PhaseSix::apply(&s, &mut st, &Event::Condition { who: B, cond, value });
        st
    };
    let ok = |st: &State, act: Act| illegal(&s, st, A, &act).is_none();
    // First aid: a patient who is wounded, bleeding or dying, and alive.
    assert!(!ok(&st, Act::FirstAid(B)), "unhurt");
    assert!(ok(&with(Cond::Bleeding, 1), Act::FirstAid(B)), "bleeding");
    let mut wounded = ready(&s);
    wounded.fighters[1].wounds = 1;
    assert!(ok(&wounded, Act::FirstAid(B)), "wounded");
    wounded.fighters[1].dead = true;
    assert!(!ok(&wounded, Act::FirstAid(B)), "dead");
    // Putting out a fire: on one burning, within 1 m.
    let burning = with(Cond::Burning, 1);
    assert!(ok(&burning, Act::Extinguish(B)));
    assert!(!ok(&st, Act::Extinguish(B)), "not burning");
    let mut far = burning.clone();
    far.fighters[1].pos = Pos { x: 2.0, y: 0.0 };
    assert!(!ok(&far, Act::Extinguish(B)), "2 m off");
    assert!(!ok(&burning, Act::Extinguish(CombatantId(2))), "no one on the roster");
    // A throw: of an item in hand, at someone on the roster.
    let g = grenade_duel("", "never", "", &[]);
    let mut gs = ready(&g);
    let throw = |target| Act::Throw { item: 0, target };
    assert!(illegal(&g, &gs, A, &throw(B)).is_none());
    assert!(illegal(&g, &gs, A, &throw(CombatantId(2))).is_some(), "no one on the roster");
    gs.fighters[0].items[0] = 0;
    assert!(illegal(&g, &gs, A, &throw(B)).is_some(), "none left");
    // A steal: with a destiny die in hand.
    assert!(ok(&st, Act::Steal(B)));
    let mut spent = ready(&s);
    spent.fighters[0].destiny_dice = 0;
    assert!(!ok(&spent, Act::Steal(B)), "no destiny die");
}

#[test]
fn being_hit_takes_the_accurate_bonus_too() {
    // rule: P6-SPECIAL-2, P6-AIM-2
    let s = setup(&duel("", ""), &[]);
    let mut st = ready(&s);
    st.fighters[0].accurate = 2;
    assert!(st.fighters[0].holds_aim());
    PhaseSix::apply(&s, &mut st, &Event::AimLost { who: A });
    assert_eq!((st.fighters[0].aim, st.fighters[0].accurate), (0, 0));
    assert!(!st.fighters[0].holds_aim());
}

#[test]
fn hunkered_round_start_checks_of_the_body_are_harder() {
    // rule: P6-COND-6, P6-COND-7
    // Hunkered and Bleeding: the Endurance check at M 6; the Unconscious Willpower check stays at 5.
    let text = duel("", "hunkered = true\nbleeding = 2\nunconscious = 1") + C_FAR;
    let faces: Vec<u32> = [3, 2, 4].into_iter().chain([1; 40]).collect();
    let (log, _, fought) = run(&setup(&text, &[]), &faces, Script::new(3));
    fought.unwrap();
    let m_of = |what: &str| {
        log.iter().find_map(|e| match e {
            Event::Check { who, what: w, m, .. } if *who == B && *w == what => Some(*m),
            _ => None,
        })
    };
    assert_eq!(m_of("endurance check"), Some(6));
    assert_eq!(m_of("unconscious check"), Some(5));
}

#[test]
fn a_combined_walk_breaks_the_recoil_chain_under_the_option() {
    // rule: P6-RCL-3
    // A second shot in a chain is at M + 2 (recoil 2, no compensation); with a walk combined and
    // `combined_walk_breaks_recoil` it starts a new chain.
    let s = setup(&duel(RIFLE, "position = 30"), &[]);
    let broken = setup(&duel(RIFLE, "position = 30"), &[("combined_walk_breaks_recoil", "true")]);
    let mut st = ready(&s);
    st.fighters[0].chain = 1;
    let shot = |walk| Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Single,
        special: Special::None,
        walk,
        from_behind: false,
    };
    let walk = Some(Pos::new(1.0, 0.0));
    let (_, m_chain, _) = attack_numbers(&s, &st, A, &shot(walk));
    let (_, m_broken, _) = attack_numbers(&broken, &st, A, &shot(walk));
    let (_, m_still, _) = attack_numbers(&s, &st, A, &shot(None));
    assert_eq!(m_chain, m_still + 1, "the walk's own +1");
    assert_eq!(m_broken, m_chain - 2, "no recoil step");
}

#[test]
fn initiative_ties_that_keep_tying_never_overflow() {
    // rule: P6-INIT-2
    // Every die a 1: the tie draws tie again and again until the script runs out (an error),
    // where the draws once overflowed a packed key.
    let (_, _, result) = run(&setup(&duel("", ""), &[]), &[1; 60], Script::new(2));
    assert!(matches!(result, Err(FightError::Dice { .. })), "{result:?}");
}

/// `fights` fights of `text` with the AI, from seed 1 on; their logs.
fn ai_logs(text: &str, fights: u64) -> Vec<Vec<Event>> {
    let s = setup(text, &[]);
    (1..=fights)
        .map(|seed| {
            let dice = fray_engine::FromSource(fray_dice::seeded(seed));
            let mut fight = Fight::<PhaseSix, _, _, _>::new(&s, dice, policy::Ai, Record::default());
            fight.run().unwrap();
            fight.into_parts().1.0
        })
        .collect()
}

#[test]
fn the_ai_fires_single_shots_when_a_burst_has_too_few_rounds() {
    // rule: P6-MODE-5
    // Four rounds, bursts by policy: one burst (3), then single shots, not rounds of nothing.
    let text = "[rules]\nruleset = \"phasesix\"\noptions = { round_cap = 5 }\n[[combatants]]\nname = \"S\"\nside = \"s\"\nquickness = 3\nshooting = 3\nposition = 0\npolicy = { fire = \"burst\", keep = \"none\" }\n[[combatants.weapons]]\nname = \"rifle\"\nclass = \"ranged\"\nmodes = [\"single\", \"burst\"]\ndamage_potential = 2\nrange_m = 100\nrecoil = true\ncapacity = 30\nammo = 4\n[[combatants]]\nname = \"T\"\nside = \"t\"\nmax_wounds = 40\nposition = 20\npolicy = { move = \"hold\" }\n";
    for log in ai_logs(text, 5) {
        let modes: Vec<Mode> = log
            .iter()
            .filter_map(|e| match e {
                Event::AttackRoll { act: Act::Attack { mode, .. }, .. } => Some(*mode),
                _ => None,
            })
            .collect();
        assert!(modes.len() >= 2 && modes[0] == Mode::Burst && modes[1] == Mode::Single, "{modes:?}");
    }
}

#[test]
fn the_ai_does_not_throw_a_grenade_that_would_catch_itself() {
    // rule: P6-THROW-4
    let text = |d: u32| {
        format!(
            "[rules]\nruleset = \"phasesix\"\noptions = {{ round_cap = 1 }}\n[[combatants]]\nname = \"G\"\nside = \"g\"\nquickness = 3\nthrowing = 2\nposition = 0\nitems = [{{ name = \"grenade\", hits = 3, wounds_per_hit = 2, count = 1 }}]\npolicy = {{ throw = \"first\" }}\n[[combatants]]\nname = \"T\"\nside = \"t\"\nposition = {d}\npolicy = {{ move = \"hold\" }}\n"
        )
    };
    let throws = |log: &Vec<Event>| log.iter().filter(|e| matches!(e, Event::Landed { .. })).count();
    assert!(ai_logs(&text(1), 5).iter().all(|log| throws(log) == 0));
    assert!(ai_logs(&text(8), 5).iter().all(|log| throws(log) == 1));
}

#[test]
fn bonus_dice_destiny_dice_and_rerolls_boost_a_seen_roll() {
    // rule: P6-RES-4, P6-RES-5
    // A fencer (4 hit dice at 5+) with one of a resource and `spend = to_hit` rolls 1 2 3 4:
    // no success, so the AI spends it.
    let fencer = |resource: &str| {
        setup(
            &format!(
                "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n[[combatants]]\nname = \"Fencer\"\nside = \"a\"\nhand_to_hand = 3\nposition = 0\n{resource}\npolicy = {{ spend = \"to_hit\" }}\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \"melee\"\ndamage_potential = 1\n[[combatants]]\nname = \"Target\"\nside = \"b\"\nposition = 1\npolicy = {{ move = \"hold\", defend = \"never\" }}\nmax_wounds = 20\n"
            ),
            &[],
        )
    };
    let swing = || script(&[(0, rapier_on_b()), (0, Choice::Act(Act::End))]);
    let roll = |log: &[Event]| {
        log.iter().find_map(|e| match e {
            Event::AttackRoll { totals, normals, .. } => Some((totals.to_vec(), *normals)),
            _ => None,
        })
    };
    let boosts = |log: &[Event]| {
        log.iter()
            .filter_map(|e| if let Event::RollBoosted { boost, .. } = e { Some(*boost) } else { None })
            .collect::<Vec<_>>()
    };
    // A bonus die: a fifth ordinary die, a 5: one hit.
    let s = fencer("bonus_dice = 1");
    let (log, state, fought) = run(&s, &[5, 1, 1, 2, 3, 4, 5], swing());
    fought.unwrap();
    assert_eq!(boosts(&log), [fray_rules::phasesix::Boost::BonusDie]);
    assert_eq!(roll(&log), Some((vec![1, 2, 3, 4, 5], 1)));
    assert_eq!(state.fighter(A).bonus_dice, 0);
    // A reroll: the whole roll again, replacing it: 5 5 1 1, two hits.
    let (log, state, fought) = run(&fencer("rerolls = 1"), &[5, 1, 1, 2, 3, 4, 5, 5, 1, 1], swing());
    fought.unwrap();
    assert_eq!(boosts(&log), [fray_rules::phasesix::Boost::Reroll]);
    assert_eq!(roll(&log), Some((vec![5, 5, 1, 1], 2)));
    assert_eq!(state.fighter(A).rerolls, 0);
    // A destiny die as a bonus die, rolled apart: a 4 succeeds though M is 5.
    let (log, state, fought) = run(&fencer("destiny_dice = 1"), &[5, 1, 1, 2, 3, 4, 4], swing());
    fought.unwrap();
    assert_eq!(boosts(&log), [fray_rules::phasesix::Boost::DestinyDie]);
    assert_eq!(roll(&log), Some((vec![1, 2, 3, 4], 1)));
    assert_eq!(state.fighter(A).destiny_dice, 0);
    // Nothing spent on a roll that hits, or without the policy.
    let (log, _, fought) = run(&s, &[5, 1, 5, 2, 3, 4], swing());
    fought.unwrap();
    assert!(boosts(&log).is_empty());
    // A pool of no dice cannot be rerolled; bonus dice can still roll it.
    let x = PhaseSix::initial_state(&fencer("bonus_dice = 1\nrerolls = 1")).fighters[0].clone();
    assert!(fray_rules::phasesix::Boost::Reroll.illegal(&x, 0).is_some());
    assert!(fray_rules::phasesix::Boost::BonusDie.illegal(&x, 0).is_none());
    assert!(fray_rules::phasesix::Boost::DestinyDie.illegal(&x, 3).is_some(), "no destiny die");
}

#[test]
fn a_closing_fighter_under_fire_does_not_hunker() {
    // rule: P6-COND-6
    // An axeman 20 m from a pistol, `hunker = under_fire`: hunkering and standing up each cost an
    // action, so he closes in instead of hunkering down and standing up round after round.
    let text = "[rules]\nruleset = \"phasesix\"\noptions = { round_cap = 4 }\n[[combatants]]\nname = \"M\"\nside = \"m\"\nquickness = 3\nhand_to_hand = 3\nposition = 0\npolicy = { hunker = \"under_fire\" }\n[[combatants.weapons]]\nname = \"axe\"\nclass = \"melee\"\ndamage_potential = 2\n[[combatants]]\nname = \"G\"\nside = \"g\"\nposition = 20\nshooting = 0\npolicy = { move = \"hold\" }\n[[combatants.weapons]]\nname = \"pistol\"\nclass = \"ranged\"\nrange_m = 5\nrecoil = false\n";
    for log in ai_logs(text, 3) {
        let hunkers = log.iter().filter(|e| matches!(e, Event::Posture { who: A, hunkered: true })).count();
        assert_eq!(hunkers, 0, "{log:#?}");
        assert!(log.iter().any(|e| matches!(e, Event::Moved { who: A, .. })));
    }
}

#[test]
fn the_ai_makes_no_attack_it_has_no_dice_for() {
    // rule: P6-RES-4
    // T has no fighting skill and bare hands: a pool of no dice, which only bonus dice could roll.
    // Whether T holds or closes in (a walk combined with the attack is the same pool).
    let hold = "[rules]\nruleset = \"phasesix\"\noptions = { round_cap = 2 }\n[[combatants]]\nname = \"G\"\nside = \"g\"\nquickness = 3\nhand_to_hand = 2\nposition = 0\n[[combatants]]\nname = \"T\"\nside = \"t\"\nposition = 1\npolicy = { move = \"hold\" }\n";
    let close = hold.replace("policy = { move = \"hold\" }\n", "");
    for log in ai_logs(hold, 3).into_iter().chain(ai_logs(&close, 3)) {
        assert!(!log.iter().any(|e| matches!(e, Event::AttackRoll { dice, .. } if *dice <= 0)), "{log:#?}");
        assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { attacker: A, .. })));
    }
}

#[test]
fn boosts_reach_dodges_parries_and_checks() {
    // rule: P6-RES-4, P6-RES-5
    // B (one dodge die, one bonus die, `spend = to_defend`) wins the initiative and keeps its
    // actions; A's fencer hits twice (5 5 1 1) and B dodges at 5 + 2 = 7+ with a 2: no success,
    // so B adds its bonus die (6 + 3 = 9) and the dodge cancels both hits.
    let text = |b: &str| {
        format!(
            "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n[[combatants]]\nname = \"Fencer\"\nside = \"a\"\nhand_to_hand = 3\nposition = 0\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \"melee\"\ndamage_potential = 1\n[[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 1\nmax_wounds = 20\n{b}\n"
        )
    };
    let swing = || script(&[(1, Choice::Act(Act::End)), (0, rapier_on_b()), (0, Choice::Act(Act::End))]);
    let boosted = |log: &[Event]| {
        log.iter()
            .filter_map(|e| if let Event::RollBoosted { who, roll, .. } = e { Some((*who, *roll)) } else { None })
            .collect::<Vec<_>>()
    };
    let wounds = |log: &[Event]| log.iter().any(|e| matches!(e, Event::Wounded { who: B, .. }));
    let dodger =
        setup(&text("bonus_dice = 1\npolicy = { move = \"hold\", defend = \"dodge\", spend = \"to_defend\" }"), &[]);
    let (log, state, fought) = run(&dodger, &[1, 5, 5, 5, 1, 1, 2, 6, 3], swing());
    fought.unwrap();
    assert_eq!(boosted(&log), [(B, BoostedRoll::Dodge)], "{log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::Reacted { who: B, reaction: Reaction::Dodge, successes: 1, .. })));
    assert!(!wounds(&log));
    assert_eq!(state.fighter(B).bonus_dice, 0);
    // Under `to_hit` B keeps its bonus die for its own hit rolls: the dodge fails and B is wounded.
    let keeper =
        setup(&text("bonus_dice = 1\npolicy = { move = \"hold\", defend = \"dodge\", spend = \"to_hit\" }"), &[]);
    let (log, state, fought) = run(&keeper, &[1, 5, 5, 5, 1, 1, 2, 6, 3], swing());
    fought.unwrap();
    assert!(boosted(&log).is_empty() && wounds(&log));
    assert_eq!(state.fighter(B).bonus_dice, 1);
    // A parry (B's sword: 2 + 1 dice at 5+, 1 1 2) takes a destiny die rolled apart: a 4 succeeds
    // though M is 5, and parries one of the two hits.
    let parrier = setup(
        &text(&format!(
            "hand_to_hand = 2\ndestiny_dice = 1\npolicy = {{ move = \"hold\", defend = \"parry\", spend = \"to_defend\" }}{SWORD}"
        )),
        &[],
    );
    let (log, _, fought) = run(&parrier, &[1, 5, 5, 5, 1, 1, 1, 1, 2, 4], swing());
    fought.unwrap();
    assert_eq!(boosted(&log), [(B, BoostedRoll::Parry)], "{log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::Reacted { who: B, reaction: Reaction::Parry, successes: 1, .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Wounded { who: B, normals: 1, .. })));
    // A check: Dying 1 at the round's start, Resistance 1 rolls a 3 — under `always` a reroll
    // (a 5) saves the Dying from rising.
    // (C, far off on B's side, keeps the fight going; nobody acts.)
    let dying = setup(&(text("dying = 1\nrerolls = 1\npolicy = { spend = \"always\" }") + C_FAR), &[]);
    let idle = || script(&[(0, Choice::Act(Act::End)), (2, Choice::Act(Act::End))]);
    let (log, state, fought) = run(&dying, &[1, 5, 2, 3, 5], idle());
    fought.unwrap();
    assert_eq!(boosted(&log), [(B, BoostedRoll::Check("dying check"))], "{log:#?}");
    assert_eq!(state.fighter(B).condition(Cond::Dying), 1);
    let (_, state, fought) = run(&setup(&(text("dying = 1") + C_FAR), &[]), &[1, 5, 2, 3], idle());
    fought.unwrap();
    assert_eq!(state.fighter(B).condition(Cond::Dying), 2);
}

#[test]
fn boosts_reach_cover_rolls() {
    // rule: P6-RES-4, P6-RES-5, P6-COVER-1, P6-COVER-2
    // The fencer hits twice (5 5 1 1) a target in 5+ cover that does not react; its cover roll
    // (one die per hit) is 1 2. Under `spend = to_defend` a reroll (5 6 → 6 + 2 = 8) removes both.
    let text = |extra: &str| {
        format!(
            "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n[[combatants]]\nname = \"Fencer\"\nside = \"a\"\nhand_to_hand = 3\nposition = 0\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \"melee\"\ndamage_potential = 1\n[[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 1\nmax_wounds = 20\ncover = 5\nrerolls = 1\n{extra}\n"
        )
    };
    let swing = script(&[(0, rapier_on_b())]);
    let cover = |log: &[Event]| {
        log.iter().find_map(|e| match e {
            Event::CoverRoll { normal_totals, normals_removed, .. } => Some((normal_totals.to_vec(), *normals_removed)),
            _ => None,
        })
    };
    let s = setup(&text("policy = { move = \"hold\", defend = \"never\", spend = \"to_defend\" }"), &[]);
    let (log, state, fought) = run(&s, &[5, 1, 5, 5, 1, 1, 1, 2, 5, 6, 2], swing.clone());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::RollBoosted { who: B, roll: BoostedRoll::Cover, .. })), "{log:#?}");
    assert_eq!(cover(&log), Some((vec![5, 8], 2)));
    assert!(!log.iter().any(|e| matches!(e, Event::Wounded { who: B, .. })));
    assert_eq!(state.fighter(B).rerolls, 0);
    // Without the policy the roll stands: both hits go through.
    let s = setup(&text("policy = { move = \"hold\", defend = \"never\" }"), &[]);
    let (log, _, fought) = run(&s, &[5, 1, 5, 5, 1, 1, 1, 2], swing.clone());
    fought.unwrap();
    assert_eq!(cover(&log), Some((vec![1, 2], 0)));
    // A bonus die on the crit dice under `cover_crit_removal = roll_order`: two crits, a plain one
    // (6 + 5) then a megacrit (6 + 6 + 5), cover dice 1 1, the bonus die a 5. The extra success
    // protects the first crit still unprotected — the plain one — and the megacrit's 2 wounds go
    // through (under `highest_first` the megacrit would be removed).
    let s = setup(
        &text("bonus_dice = 1\npolicy = { move = \"hold\", defend = \"never\", spend = \"to_defend\" }"),
        &[("cover_crit_removal", "roll_order")],
    );
    let faces = [5, 1, 6, 5, 6, 6, 5, 1, 1, 1, 1, 5];
    let wounds = |log: &[Event]| {
        log.iter().find_map(|e| if let Event::Wounded { who: B, wounds, .. } = e { Some(*wounds) } else { None })
    };
    let (log, _, fought) = run(&s, &faces, swing.clone());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::RollBoosted { who: B, roll: BoostedRoll::Cover, .. })), "{log:#?}");
    assert_eq!(wounds(&log), Some(2), "{log:#?}");
    let s =
        setup(&text("bonus_dice = 1\npolicy = { move = \"hold\", defend = \"never\", spend = \"to_defend\" }"), &[]);
    let (log, _, fought) = run(&s, &faces, swing);
    fought.unwrap();
    assert_eq!(wounds(&log), Some(1));
}

/// A fencer (A) and, on the other side, B and C, who win the initiative (C, B, A) and keep their
/// actions; A's rapier hits B twice (5 5 1 1). `extra` goes into `[rules.options]`.
fn three(extra: &str) -> String {
    format!(
        "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n{extra}\n[[combatants]]\nname = \"A\"\nside = \"a\"\nhand_to_hand = 3\nposition = 0\nmax_wounds = 20\npolicy = {{ defend = \"never\" }}\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \"melee\"\ndamage_potential = 1\n[[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 1\nmax_wounds = 20\npolicy = {{ move = \"hold\", defend = \"never\" }}\n[[combatants]]\nname = \"C\"\nside = \"b\"\nhand_to_hand = 2\nposition = [0, 1]\npolicy = {{ move = \"hold\", defend = \"never\" }}{SWORD}"
    )
}

const C: CombatantId = CombatantId(2);

fn rapier_on_b() -> Choice {
    Choice::Act(Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::None,
        walk: None,
        from_behind: false,
    })
}

fn reacted(log: &[Event]) -> Vec<(CombatantId, Reaction)> {
    log.iter()
        .filter_map(|e| if let Event::Reacted { who, reaction, .. } = e { Some((*who, *reaction)) } else { None })
        .collect()
}

#[test]
fn under_reaction_menu_any_bystanders_react_and_reactions_resolve_in_initiative_or_declared_order() {
    // rule: P6-REACT-1, P6-REACT-2, P6-REACT-3
    let end = Choice::Act(Act::End);
    let hunker = Choice::React { reaction: Some(Reaction::Hunker), buy: 0 };
    let both_hunker = || script(&[(2, end), (1, end), (0, rapier_on_b()), (0, end), (1, hunker), (2, hunker)]);
    // Initiative A 1 + 1, B 4 + 1, C 5 + 1: C, B, A. B's hunker gives it a 6+ cover roll (1 1).
    let faces = [1, 4, 5, 5, 5, 1, 1, 1, 1];
    // Both declare (B, the target, is asked first); by initiative C's resolves first.
    let (log, state, fought) = run(&setup(&three("reaction_menu = \"any\""), &[]), &faces, both_hunker());
    fought.unwrap();
    assert_eq!(reacted(&log), [(C, Reaction::Hunker), (B, Reaction::Hunker)], "{log:#?}");
    assert!(state.fighter(B).hunkered && state.fighter(C).hunkered);
    // In the order declared: B's first.
    let (log, _, fought) =
        run(&setup(&three("reaction_menu = \"any\"\nreaction_order = \"declaration\""), &[]), &faces, both_hunker());
    fought.unwrap();
    assert_eq!(reacted(&log), [(B, Reaction::Hunker), (C, Reaction::Hunker)], "{log:#?}");
    // Under the default menu only the attacked participant reacts, and only defensively: C is
    // never asked, B's hunker is refused.
    let s = setup(&three(""), &[]);
    let (log, _, fought) = run(&s, &faces, script(&[(2, end), (1, end), (0, rapier_on_b()), (0, end), (2, hunker)]));
    fought.unwrap();
    assert!(reacted(&log).is_empty(), "{log:#?}");
    let st = ready(&s);
    assert!(illegal(&s, &st, A, &Act::End).is_none());
    assert!(policy::illegal_reaction(&s, &st, B, A, B, Mode::Melee, Reaction::Hunker, 0).is_some());
    assert!(policy::illegal_reaction(&s, &st, C, A, B, Mode::Melee, Reaction::Parry, 0).is_some());
    let any = setup(&three("reaction_menu = \"any\""), &[]);
    assert!(policy::illegal_reaction(&any, &st, C, A, B, Mode::Melee, Reaction::Hunker, 0).is_none());
    assert!(policy::illegal_reaction(&any, &st, C, A, B, Mode::Melee, Reaction::Parry, 0).is_some(), "not C's");
}

#[test]
fn a_reply_attack_resolves_before_the_act_it_answers_and_is_not_reacted_to() {
    // rule: P6-REACT-2, P6-REACT-3
    let end = Choice::Act(Act::End);
    let reply = Choice::React { reaction: Some(Reaction::Attack { hand: Hand::Main, mode: Mode::Melee }), buy: 0 };
    let s = setup(&three("reaction_menu = \"any\""), &[]);
    // C replies with its sword (2 + 1 dice: 5 1 1, one hit on A) before A's two hits reach B.
    let (log, state, fought) = run(
        &s,
        &[1, 4, 5, 5, 5, 1, 1, 5, 1, 1],
        script(&[(2, end), (1, end), (0, rapier_on_b()), (0, end), (2, reply)]),
    );
    fought.unwrap();
    let pos = |f: &dyn Fn(&Event) -> bool| log.iter().position(f).unwrap_or_else(|| panic!("{log:#?}"));
    let c_roll = pos(&|e| matches!(e, Event::AttackRoll { attacker: C, .. }));
    let a_hurt = pos(&|e| matches!(e, Event::Wounded { who: A, .. }));
    let b_hurt = pos(&|e| matches!(e, Event::Wounded { who: B, .. }));
    assert!(c_roll < a_hurt && a_hurt < b_hurt, "{log:#?}");
    // Nobody reacts to the reply (A, the actor, has an action left); C paid one action for it.
    assert_eq!(reacted(&log), [(C, Reaction::Attack { hand: Hand::Main, mode: Mode::Melee })]);
    assert_eq!(state.fighter(C).actions, 1);
    assert_eq!((state.fighter(A).wounds, state.fighter(B).wounds), (1, 2));
}

// --- Audit fixes ----------------------------------------------------------------------------

/// A fencer (A, Hand-to-hand 3, rapier DP 1: 4 dice) and B, 1 m apart, round cap 1; `b` goes into
/// B's block, `opts` into `[rules.options]`.
fn fencer_and(b: &str, opts: &str) -> String {
    format!(
        "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n{opts}\n[[combatants]]\nname = \"Fencer\"\nside = \"a\"\nhand_to_hand = 3\nposition = 0\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \"melee\"\ndamage_potential = 1\n[[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 1\nmax_wounds = 20\n{b}\n"
    )
}

#[test]
fn a_bonus_die_on_a_dodge_explodes_under_the_default_policy() {
    // rule: P6-DICE-3
    // B wins the initiative and keeps its actions; the fencer hits once (5 1 1 1). B dodges at
    // 5 + 1 = 6+ with one die, a 2, and adds a bonus die: 6 then 3. Under `explode_policy =
    // always` the 6 is tossed again: the bonus die is a 9, not a 6.
    let s = setup(
        &fencer_and("bonus_dice = 1\npolicy = { move = \"hold\", defend = \"dodge\", spend = \"to_defend\" }", ""),
        &[],
    );
    let swing = script(&[(1, Choice::Act(Act::End)), (0, rapier_on_b()), (0, Choice::Act(Act::End))]);
    let (log, _, fought) = run(&s, &[1, 5, 5, 1, 1, 1, 2, 6, 3], swing);
    fought.unwrap();
    let boosted = log.iter().find_map(|e| match e {
        Event::RollBoosted { who: B, roll: BoostedRoll::Dodge, totals, .. } => Some(totals.to_vec()),
        _ => None,
    });
    assert_eq!(boosted, Some(vec![2, 9]), "{log:#?}");
    // Under `when_needed` the chain stops once the 6 reaches M 6.
    let s = setup(
        &fencer_and("bonus_dice = 1\npolicy = { move = \"hold\", defend = \"dodge\", spend = \"to_defend\" }", ""),
        &[("explode_policy", "when_needed")],
    );
    let swing = script(&[(1, Choice::Act(Act::End)), (0, rapier_on_b()), (0, Choice::Act(Act::End))]);
    let (log, _, fought) = run(&s, &[1, 5, 5, 1, 1, 1, 2, 6], swing);
    fought.unwrap();
    let boosted = log.iter().find_map(|e| match e {
        Event::RollBoosted { who: B, roll: BoostedRoll::Dodge, totals, .. } => Some(totals.to_vec()),
        _ => None,
    });
    assert_eq!(boosted, Some(vec![2, 6]), "{log:#?}");
}

#[test]
fn a_reply_attack_bought_with_a_die_is_still_checked_for_weapon_and_mode() {
    // rule: P6-REACT-3
    // C (sword only) has no action left but a bonus die: a reply burst is no attack its sword can
    // make, whatever pays for it; a reply with the sword's melee mode is.
    let s = setup(&three("reaction_menu = \"any\""), &[]);
    let mut st = ready(&s);
    st.fighters[2].actions = 0;
    st.fighters[2].bonus_dice = 1;
    let reply = |mode| Reaction::Attack { hand: Hand::Main, mode };
    assert!(policy::illegal_reaction(&s, &st, C, A, B, Mode::Melee, reply(Mode::Burst), 1).is_some());
    assert!(policy::illegal_reaction(&s, &st, C, A, B, Mode::Melee, reply(Mode::Melee), 1).is_none());
    // Without the die there is no action to pay with.
    assert!(policy::illegal_reaction(&s, &st, C, A, B, Mode::Melee, reply(Mode::Melee), 0).is_some());
    // Out of reach (C moved 5 m away): refused too, though bought.
    st.fighters[2].pos = Pos { x: 5.0, y: 0.0 };
    assert!(policy::illegal_reaction(&s, &st, C, A, B, Mode::Melee, reply(Mode::Melee), 1).is_some());
}

#[test]
fn a_reply_attack_does_not_end_the_fight_before_the_act_it_answers_lands() {
    // rule: P6-TRACK-8, P6-REACT-3
    // B (first, keeps its actions) replies to the fencer's strike (one hit: 5 1 1 1) with its
    // sword (one hit: 5 1 1); each has one heart. The reply takes the fencer out, but the
    // fencer's hit still lands: both are out, a mutual defeat, and the fight ends only then.
    let text = format!(
        "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\nreaction_menu = \"any\"\n[[combatants]]\nname = \"Fencer\"\nside = \"a\"\nhand_to_hand = 3\nposition = 0\nmax_wounds = 1\npolicy = {{ defend = \"never\" }}\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \"melee\"\ndamage_potential = 1\n[[combatants]]\nname = \"B\"\nside = \"b\"\nhand_to_hand = 2\nposition = 1\nmax_wounds = 1\npolicy = {{ move = \"hold\", defend = \"never\" }}{SWORD}"
    );
    let s = setup(&text, &[]);
    let reply = Choice::React { reaction: Some(Reaction::Attack { hand: Hand::Main, mode: Mode::Melee }), buy: 0 };
    let (log, state, result) =
        run(&s, &[1, 5, 5, 1, 1, 1, 5, 1, 1], script(&[(1, Choice::Act(Act::End)), (0, rapier_on_b()), (1, reply)]));
    assert_eq!(result.map(|r| r.outcome), Ok(Outcome::Mutual), "{log:#?}");
    let ended = log.iter().position(|e| matches!(e, Event::Ended { .. })).unwrap_or_else(|| panic!("{log:#?}"));
    assert_eq!(ended, log.len() - 1, "nothing after the end: {log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::Wounded { who: B, .. })));
    assert!(state.fighter(A).condition(Cond::Dying) > 0 && state.fighter(B).condition(Cond::Dying) > 0);
}

#[test]
fn an_unarmed_parry_beside_a_gun_adds_no_damage_potential() {
    // rule: P6-DEF-3, P6-DEF-4
    // Under `unarmed_parry = true` B, holding only a rifle (DP 2), parries the fencer's strike
    // with Hand-to-hand 2 alone: 2 dice, not 4 — in the fight, in the AI's estimate and in the
    // odds, which match those of an empty-handed B.
    let b = |gear: &str| format!("hand_to_hand = 2\npolicy = {{ move = \"hold\", defend = \"parry\" }}{gear}");
    let gun = setup(&fencer_and(&b(RIFLE), ""), &[("unarmed_parry", "true")]);
    let swing = script(&[(1, Choice::Act(Act::End)), (0, rapier_on_b()), (0, Choice::Act(Act::End))]);
    let (log, _, fought) = run(&gun, &[1, 5, 5, 1, 1, 1, 1, 1, 1, 1], swing);
    fought.unwrap();
    let parry = log.iter().find_map(|e| match e {
        Event::Reacted { who: B, reaction: Reaction::Parry, dice, .. } => Some(*dice),
        _ => None,
    });
    assert_eq!(parry, Some(2), "{log:#?}");
    let bare = setup(&fencer_and(&b(""), ""), &[("unarmed_parry", "true")]);
    let odds = |s: &Setup| {
        let mut st = ready(s);
        st.fighters[1].actions = 1;
        odds::odds_of(s, &st, A, &atk(B, Mode::Melee)).unwrap()
    };
    assert_eq!(odds(&gun), odds(&bare));
    // The parry changes the odds at all (a B that never defends takes more).
    let idle = setup(&fencer_and("hand_to_hand = 2\npolicy = { move = \"hold\", defend = \"never\" }", ""), &[]);
    assert_ne!(odds(&idle), odds(&bare));
}

#[test]
fn a_reaction_cancels_the_aim_when_aim_does_not_persist() {
    // rule: P6-AIM-4
    // B (first) aims once and keeps an action; the fencer hits once (5 1 1 1) and B's dodge
    // (6 + 1 = 7 at 6+) cancels it, so B is not hit. The dodge is an act of B's: under
    // `aim_persists = false` it cancels the aim; by default the aim stays.
    let b = "perception = 1\npolicy = { move = \"hold\", defend = \"dodge\" }";
    let turns = || {
        script(&[
            (1, Choice::Act(Act::Aim { accurate: false })),
            (1, Choice::Act(Act::End)),
            (0, rapier_on_b()),
            (0, Choice::Act(Act::End)),
        ])
    };
    let faces = [1, 5, 5, 1, 1, 1, 6, 1];
    let (log, state, fought) = run(&setup(&fencer_and(b, ""), &[("aim_persists", "false")]), &faces, turns());
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Reacted { who: B, reaction: Reaction::Dodge, successes: 1, .. })));
    assert!(!log.iter().any(|e| matches!(e, Event::AimLost { .. })), "{log:#?}");
    assert_eq!(state.fighter(B).aim, 0, "{log:#?}");
    let (_, state, fought) = run(&setup(&fencer_and(b, ""), &[]), &faces, turns());
    fought.unwrap();
    assert_eq!(state.fighter(B).aim, 1);
}

#[test]
fn spending_a_bonus_or_destiny_die_between_shots_keeps_the_recoil_chain() {
    // rule: P6-RCL-2, P6-RES-1, P6-RES-2
    // A (first) fires a single shot, spends a die for an action, fires again: spending takes no
    // action, so it is no act between the shots and the second is the chain's 2nd (M 7, C 13).
    let ms = |spend: Act, res: &str| {
        let s = setup(&duel(&format!("{res}{RIFLE}"), ""), &[]);
        let turn = script(&[
            (0, Choice::Act(atk(B, Mode::Single))),
            (0, Choice::Act(spend)),
            (0, Choice::Act(atk(B, Mode::Single))),
            (0, Choice::Act(Act::End)),
            (1, Choice::Act(Act::End)),
        ]);
        let (log, _, fought) = run(&s, &[5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], turn);
        fought.unwrap();
        log.iter()
            .filter_map(|e| if let Event::AttackRoll { attacker: A, m, c, .. } = e { Some((*m, *c)) } else { None })
            .collect::<Vec<_>>()
    };
    assert_eq!(ms(Act::SpendBonus, "bonus_dice = 1\n"), [(5, 11), (7, 13)]);
    assert_eq!(ms(Act::Steal(B), "destiny_dice = 1\n"), [(5, 11), (7, 13)]);
    // An act between them (an accurate-attack point, with a third action) ends the chain: back
    // at M 5, less the point.
    assert_eq!(ms(Act::Aim { accurate: true }, "actions = 3\n"), [(5, 11), (4, 11)]);
}

#[test]
fn a_thrown_weapon_cannot_be_reloaded() {
    // rule: P6-MODE-4, P6-MODE-6
    // A's throwing knife (capacity 1) leaves the hand when thrown; no reload brings it back,
    // whether A asks for one or the AI weighs one. A rifle still reloads.
    let knife = "\n[[combatants.weapons]]\nname = \"knife\"\nclass = \"thrown\"\nrange_m = 10\ncapacity = 1\n";
    let s = setup(&duel(knife, ""), &[]);
    let mut st = ready(&s);
    st.fighters[0].ammo[0] = Some(0);
    assert!(illegal(&s, &st, A, &Act::Reload).is_some());
    let (log, state, fought) =
        run(&s, &[5, 1, 1, 1, 1, 1, 1, 1, 1, 1], script(&[(0, Choice::Act(atk(B, Mode::Thrown)))]));
    fought.unwrap();
    assert_eq!(state.fighter(A).ammo[0], Some(0), "{log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::Readied { who: A, reload: true })), "{log:#?}");
    let r = setup(&duel(RIFLE, ""), &[]);
    let mut st = ready(&r);
    st.fighters[0].ammo[0] = Some(0);
    assert!(illegal(&r, &st, A, &Act::Reload).is_none());
}

#[test]
fn the_ai_does_not_aim_a_throw_that_cannot_be_aimed() {
    // rule: P6-MODE-4, P6-AIM-1
    // A, aiming before ranged attacks and keeping no action, throws knives at B 5 m off. Under
    // `thrown_aim = forbidden` an aim would be wasted: A throws at once; by default it aims first.
    let knives = "policy = { aim = \"ranged\", keep = \"none\" }\n[[combatants.weapons]]\nname = \"knife\"\nclass = \"thrown\"\nrange_m = 10\ncapacity = 3\n";
    let aimed = |sets: &[(&str, &str)]| {
        let s = setup(&duel(knives, "position = 5"), sets);
        let (log, _, fought) = run(&s, &[5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], Script::new(2));
        fought.unwrap();
        let first = log.iter().find_map(|e| if let Event::Acted { who: A, act, .. } = e { Some(*act) } else { None });
        (first, log.iter().any(|e| matches!(e, Event::Aimed { who: A, .. })))
    };
    assert_eq!(aimed(&[("thrown_aim", "forbidden")]), (Some(atk(B, Mode::Thrown)), false));
    assert_eq!(aimed(&[]), (Some(Act::Aim { accurate: false }), true));
}

#[test]
fn armour_wears_under_grenades_and_knock_outs_too() {
    // rule: P6-ARM-2
    // Under `armor_damage = track` every attack whose hits protection prevents wears the armour:
    // a grenade's 5 hits against protection 4 (4 prevented: −20) ...
    let vest = |p: i32| format!("resistance = 1\n[[combatants.armour]]\nname = \"vest\"\nprotection = {p}\n");
    let grenade = "[[combatants.items]]\nname = \"grenade\"\nhits = 5\n";
    let s = setup(&duel(grenade, &vest(4)), &[("armor_damage", "track")]);
    let throw = Choice::Act(Act::Throw { item: 0, target: B });
    let (log, state, fought) = run(&s, &[5, 1, 5, 1], script(&[(0, throw), (0, Choice::Act(Act::End))]));
    assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 4 dice");
    assert!(log.contains(&Event::ArmourWorn { who: B, piece: 0, pct: 80 }), "{log:#?}");
    assert_eq!(state.fighter(B).armour_pct[0], 80);
    // ... and a K.O. with a club (3 dice, 5 5 5: 3 hits) against protection 2 (2 prevented: −10).
    let club = "strength = 2\n[[combatants.weapons]]\nname = \"club\"\nclass = \"melee\"\ndamage_potential = 1\nblunt = true\n";
    let s = setup(&duel(club, &vest(2)), &[("armor_damage", "track")]);
    let ko = Choice::Act(Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Ko,
        walk: None,
        from_behind: false,
    });
    let (log, _, fought) = run(&s, &[5, 1, 5, 5, 5, 1], script(&[(0, ko), (0, Choice::Act(Act::End))]));
    fought.unwrap();
    assert!(log.contains(&Event::ArmourWorn { who: B, piece: 0, pct: 90 }), "{log:#?}");
    assert!(log.contains(&Event::Condition { who: B, cond: Cond::Unconscious, value: 1 }), "{log:#?}");
}

#[test]
fn a_disarm_counted_after_protection_wears_the_armour() {
    // rule: P6-SPECIAL-8, P6-ARM-2
    // Under `disarm_hits_stage = after_protection` protection works on a disarming attack as in
    // any attack, so under `armor_damage = track` it wears as in any attack: A's sword (3 dice at
    // 8+: 9 9 9, 3 hits) against B's protection 2 (2 prevented: −10); the hit left disarms B
    // (Strength and Deftness 1: one die, a 1).
    let text = duel(
        SWORD,
        &format!("strength = 1\ndeftness = 1\n[[combatants.armour]]\nname = \"vest\"\nprotection = 2\n{SWORD}"),
    );
    let disarm = Choice::Act(Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Disarm,
        walk: None,
        from_behind: false,
    });
    let faces = [5, 1, 6, 3, 6, 3, 6, 3, 1];
    let worn = |stage: &str| {
        let s = setup(&text, &[("armor_damage", "track"), ("disarm_hits_stage", stage)]);
        let (log, state, fought) = run(&s, &faces, script(&[(0, disarm), (0, Choice::Act(Act::End))]));
        assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 9 dice");
        assert!(log.contains(&Event::Disarmed { who: B }), "{stage}: {log:#?}");
        assert_eq!(state.fighter(B).wounds, 0);
        (log.iter().any(|e| matches!(e, Event::ArmourWorn { who: B, .. })), state.fighter(B).armour_pct[0])
    };
    assert_eq!(worn("after_protection"), (true, 90));
    // Counted after cover (the default), protection plays no part in a disarm: nothing wears.
    assert_eq!(worn("after_cover"), (false, 100));
}

#[test]
fn a_destiny_die_meets_the_crit_floor_of_the_roll_it_joins() {
    // rule: P6-CRIT-4, P6-RES-5
    // Under `crit_floor = min_roll_plus_6` the fencer (min roll 8: C' = max(11, 8 + 6) = 14)
    // misses with all four dice and adds a destiny die: 6 + 5 = 11. It succeeds (first toss
    // 4+), but 11 < 14: a normal hit, not a crit — the floor is the roll's, not the 4+ the
    // destiny die succeeds at.
    let text = fencer_and("policy = { move = \"hold\", defend = \"never\" }", "")
        .replace("hand_to_hand = 3\n", "hand_to_hand = 3\nmin_roll = 8\ndestiny_dice = 1\n");
    let s = setup(&text, &[("crit_floor", "min_roll_plus_6")]);
    let turn = script(&[
        (0, rapier_on_b()),
        (0, Choice::Boost(Some(fray_rules::phasesix::Boost::DestinyDie))),
        (0, Choice::Act(Act::End)),
    ]);
    let (log, _, fought) = run(&s, &[5, 1, 1, 1, 1, 1, 6, 5], turn);
    fought.unwrap();
    let roll = log.iter().find_map(|e| match e {
        Event::AttackRoll { attacker: A, normals, crits, m, c, .. } => Some((*normals, crits.to_vec(), *m, *c)),
        _ => None,
    });
    assert_eq!(roll, Some((1, vec![], 8, 11)), "{log:#?}");
    assert_eq!(dice::tier_apart(&Options { crit_floor: true, ..Options::default() }, 11, 4, 8, 11), Tier::Normal);
    assert_eq!(dice::tier_apart(&Options::default(), 11, 4, 8, 11), Tier::Crit(0));
}

#[test]
fn a_cover_roll_with_defender_modifiers_never_succeeds_on_a_1() {
    // rule: P6-DICE-4, P6-COVER-5
    // Under `cover_roll_modifiers = defender_conditions` B (min roll 2) behind 4+ cover would
    // roll its cover at 4 + (2 − 5) = 1+; the floor makes it 2+, so the fencer's two hits
    // (5 5 1 1) stand against cover dice 1 1.
    let s = setup(
        &fencer_and("min_roll = 2\ncover = 4\npolicy = { move = \"hold\", defend = \"never\" }", ""),
        &[("cover_roll_modifiers", "defender_conditions")],
    );
    let (log, _, fought) =
        run(&s, &[5, 1, 5, 5, 1, 1, 1, 1], script(&[(0, rapier_on_b()), (0, Choice::Act(Act::End))]));
    fought.unwrap();
    let cover = log.iter().find_map(|e| match e {
        Event::CoverRoll { who: B, value, normals_removed, .. } => Some((*value, *normals_removed)),
        _ => None,
    });
    assert_eq!(cover, Some((2, 0)), "{log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::Wounded { who: B, wounds: 2, .. })), "{log:#?}");
}

#[test]
fn under_out_when_dead_the_ai_finishes_off_the_dying_and_fights_the_standing_first() {
    // rule: P6-SPECIAL-11, P6-SPECIAL-12, P6-TRACK-8
    // Under `out_when = dead` a Dying B is still in the fight. A normal attack's wounds would
    // leave its Dying unchanged (P6-TRACK-4): the AI gives it a coup de grâce instead.
    let s = setup(&duel(SWORD, "dying = 1"), &[("out_when", "dead")]);
    let st = ready(&s);
    let coup = Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Coup,
        walk: None,
        from_behind: false,
    };
    assert_eq!(policy::ai_choice(&s, &st, A, &fray_rules::phasesix::Request::Act { actions: 2 }), Choice::Act(coup));
    // A coup de grâce is for a helpless target only: not for one standing (P6-SPECIAL-11).
    assert!(illegal(&s, &st, A, &coup).is_none());
    let standing = setup(&duel(SWORD, ""), &[("out_when", "dead")]);
    assert!(illegal(&standing, &ready(&standing), A, &coup).is_some());
    // A fight (A keeping no action): B passes its round-start Dying check (5), then A's two
    // coups (5 5 5 each) raise its Dying from 1 to 4 and to 6: dead, and A's side wins.
    let keen = format!("policy = {{ keep = \"none\" }}{SWORD}");
    let s = setup(&duel(&keen, "dying = 1"), &[("out_when", "dead")]);
    let (log, state, result) = run(&s, &[5, 1, 5, 5, 5, 5, 5, 5, 5], Script::new(2));
    assert!(state.fighter(B).dead, "{log:#?}");
    assert_eq!(result.map(|r| r.outcome), Ok(Outcome::Side(fray_engine::SideId(0))));
    // With C standing as near as the Dying B, the AI fights C first.
    let c = "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = [0, 1]\npolicy = { move = \"hold\" }\n";
    let s = setup(&format!("{}{c}", duel(SWORD, "dying = 1")), &[("out_when", "dead")]);
    assert_eq!(policy::choose_target(&s, &ready(&s), A), Some(C));
}

#[test]
fn a_closing_shooter_out_of_range_does_not_hunker() {
    // rule: P6-COND-6, P6-MOVE-5
    // A (pistol, range 10 m; `hunker = under_fire`, `move = close`) faces B's rifle 40 m off: it
    // cannot shoot from there, so it runs rather than hunker (and stand up again next turn).
    // Within range it hunkers first.
    let pistol = "policy = { hunker = \"under_fire\", move = \"close\" }\n[[combatants.weapons]]\nname = \"pistol\"\nclass = \"ranged\"\ndamage_potential = 1\nrange_m = 10\nrecoil = true\ncapacity = 8\n";
    let first = |b_at: &str| {
        let s = setup(&duel(pistol, &format!("position = {b_at}{RIFLE}")), &[]);
        policy::ai_choice(&s, &ready(&s), A, &fray_rules::phasesix::Request::Act { actions: 2 })
    };
    assert!(matches!(first("40"), Choice::Act(Act::Run(_))), "{:?}", first("40"));
    assert_eq!(first("8"), Choice::Act(Act::Hunker));
}

/// A scenario with `a` among A's keys and a weapon `w` of `weapon` lines (class included).
fn gear(a: &str, weapon: &str) -> String {
    format!(
        "[rules]\nruleset = \"phasesix\"\n[[combatants]]\nname = \"A\"\nside = \"a\"\n{a}\n[[combatants.weapons]]\nname = \"w\"\n{weapon}\n[[combatants]]\nname = \"B\"\nside = \"b\"\n"
    )
}

/// The loader refuses `text` with an error at the line holding `at` (file, line, column).
fn refused(text: &str, at: &str, says: &str) {
    let sets: Vec<(String, String)> = Vec::new();
    let e = scenario::load("t.toml", text, &sets).map(|_| ()).expect_err(text);
    let line = text.lines().position(|l| l.contains(at)).map(|i| i + 1);
    assert_eq!((e.file.as_str(), Some(e.line)), ("t.toml", line), "{e}");
    assert!(e.column >= 1 && e.message.contains(says), "{e}");
}

const MELEE: &str = "class = \"melee\"";

#[test]
fn the_loader_refuses_a_negative_damage_potential() {
    // rule: P6-ATK-2
    refused(&gear("", &format!("{MELEE}\ndamage_potential = -1")), "damage_potential", "damage potential");
}

#[test]
fn the_loader_refuses_a_negative_piercing() {
    // rule: P6-DMG-1
    refused(&gear("", &format!("{MELEE}\npiercing = -2")), "piercing", "piercing");
}

#[test]
fn the_loader_refuses_a_negative_weapon_encumbrance() {
    // rule: P6-DEF-1
    refused(&gear("", &format!("{MELEE}\nencumbrance = -1")), "encumbrance", "encumbrance");
}

#[test]
fn the_loader_refuses_a_melee_weapon_with_a_firing_mode() {
    // rule: P6-MODE-1
    refused(&gear("", &format!("{MELEE}\nmodes = [\"melee\", \"burst\"]")), "modes", "only the melee mode");
    refused(&gear("", &format!("{MELEE}\nmodes = [\"single\"]")), "modes", "only the melee mode");
}

#[test]
fn the_loader_refuses_one_weapon_in_both_hands() {
    // rule: P6-SPECIAL-9
    refused(&gear("main_hand = \"w\"\noff_hand = \"w\"", MELEE), "off_hand", "already the main-hand weapon");
}

#[test]
fn the_loader_refuses_dying_6() {
    // rule: P6-TRACK-5
    refused(&gear("dying = 6", MELEE), "dying", "Dying");
}

#[test]
fn the_loader_refuses_a_gun_or_a_throwing_weapon_without_a_range() {
    // rule: P6-ATK-4, P6-RANGE-1
    for class in ["class = \"ranged\"\nrecoil = false", "class = \"thrown\""] {
        let text = gear("", class);
        let e = scenario::load("t.toml", &text, &[]).map(|_| ()).expect_err(&text);
        let table = text.lines().position(|l| l.contains("[[combatants.weapons]]")).map_or(0, |i| i + 1);
        assert!((table..=table + 3).contains(&e.line) && e.message.contains("range_m"), "{e}");
    }
    assert!(scenario::load("t.toml", &gear("", MELEE), &[]).is_ok(), "a melee weapon's range defaults to 1 m");
}

#[test]
fn the_loader_refuses_more_wounds_than_hearts() {
    // rule: P6-TRACK-1, P6-DMG-3
    refused(&gear("max_wounds = 6\nwounds = 7", MELEE), "wounds = 7", "wounds");
}

#[test]
fn the_loader_refuses_negative_boosts() {
    // rule: P6-TRACK-2
    refused(&gear("boosts = -1", MELEE), "boosts", "boosts");
}

#[test]
fn the_loader_refuses_a_weapon_of_three_hands() {
    // rule: P6-SHLD-1
    refused(&gear("", &format!("{MELEE}\nhands = 3")), "hands", "hands");
}

#[test]
fn the_loader_refuses_a_recoil_compensation_above_2() {
    // rule: P6-RCL-1
    let gun = "class = \"ranged\"\nrange_m = 20\nrecoil = true\nrecoil_compensation = 3";
    refused(&gear("", gun), "recoil_compensation", "recoil compensation");
}

#[test]
fn the_loader_refuses_wounds_per_hit_below_1() {
    // rule: P6-DMG-3
    refused(&gear("", &format!("{MELEE}\nwounds_per_hit = 0")), "wounds_per_hit", "wounds per hit");
}

/// A's rapier strike on B (B acting first and keeping its 2 actions): the exact odds of the
/// wounds, and their frequencies over `n` seeded fights.
fn odds_and_frequencies(
    s: &Setup,
    n: u64,
) -> (std::collections::BTreeMap<i32, f64>, std::collections::BTreeMap<i32, f64>) {
    let mut st = ready(s);
    st.fighters[0].actions = 2;
    st.fighters[1].actions = 2;
    let exact = odds::odds_of(s, &st, A, &atk(B, Mode::Melee)).unwrap();
    let exact = exact.wounds.iter().map(|(w, p)| (*w, p.to_f64().unwrap())).collect();
    let mut seen = std::collections::BTreeMap::new();
    for seed in 0..n {
        let turns = script(&[(1, Choice::Act(Act::End)), (0, rapier_on_b()), (0, Choice::Act(Act::End))]);
        let mut fight = Fight::<PhaseSix, _, _, _>::new(
            s,
            fray_engine::FromSource(fray_dice::seeded(seed)),
            turns,
            Record::default(),
        );
        fight.run().unwrap();
        let (_, record) = fight.into_parts();
        assert!(
            matches!(record.0.iter().find(|e| matches!(e, Event::Order { .. })), Some(Event::Order { order }) if order[0] == B)
        );
        let w: i32 =
            record.0.iter().map(|e| if let Event::Wounded { who: B, wounds, .. } = e { *wounds } else { 0 }).sum();
        *seen.entry(w).or_insert(0.0) += 1.0 / n as f64;
    }
    (exact, seen)
}

fn agree(exact: &std::collections::BTreeMap<i32, f64>, seen: &std::collections::BTreeMap<i32, f64>, n: u64) {
    for w in exact.keys().chain(seen.keys()) {
        let p = exact.get(w).copied().unwrap_or(0.0);
        let f = seen.get(w).copied().unwrap_or(0.0);
        let sigma = (p * (1.0 - p) / n as f64).sqrt();
        assert!((p - f).abs() <= 5.0 * sigma + 2e-3, "{w} wounds: exact {p}, seen {f}\n{exact:?}\n{seen:?}");
    }
}

/// The fencer A (always second) and B (always first, 20 hearts) with `b` lines.
fn odds_duel(b: &str) -> String {
    format!(
        "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n[[combatants]]\nname = \"Fencer\"\nside = \"a\"\nhand_to_hand = 4\nquickness = -20\nposition = 0\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \"melee\"\ndamage_potential = 1\n[[combatants]]\nname = \"B\"\nside = \"b\"\nquickness = 20\nposition = 1\nmax_wounds = 20\n{b}\n"
    )
}

#[test]
fn the_odds_in_context_follow_awareness_parry_crits_and_the_cover_options() {
    // rule: P6-REACT-4, P6-DEF-5, P6-COVER-4, P6-COVER-5
    let n = 20_000;
    let parrier = format!("hand_to_hand = 4\npolicy = {{ move = \"hold\", defend = \"parry\" }}{SWORD}");
    // Under `awareness = scenario` a B that does not perceive A cannot parry: its odds are those
    // of a B that never defends.
    let unaware = setup(&odds_duel(&parrier), &[("awareness", "scenario")]);
    let (exact, seen) = odds_and_frequencies(&unaware, n);
    agree(&exact, &seen, n);
    let idle = setup(&odds_duel("policy = { move = \"hold\", defend = \"never\" }"), &[]);
    assert_eq!(exact, odds_and_frequencies(&idle, 1).0);
    // Under `parry_vs_crits = crit_successes` a parry die of 11+ takes a crit.
    let crit_parry = setup(&odds_duel(&parrier), &[("parry_vs_crits", "crit_successes")]);
    let (exact, seen) = odds_and_frequencies(&crit_parry, n);
    agree(&exact, &seen, n);
    assert_ne!(exact, odds_and_frequencies(&setup(&odds_duel(&parrier), &[]), 1).0);
    // Under `cover_stacking = sequential` a hunkered B behind 5+ cover rolls 5+, then 6+.
    let hidden = "cover = 5\nhunkered = true\npolicy = { move = \"hold\", defend = \"never\" }";
    let (exact, seen) = odds_and_frequencies(&setup(&odds_duel(hidden), &[("cover_stacking", "sequential")]), n);
    agree(&exact, &seen, n);
    // Under `cover_roll_modifiers = defender_conditions` B (min roll 6, Poisoned 1, Shocked 1)
    // rolls its 4+ cover at 6+, one die fewer (Endurance and Resistance 0: no round-start check
    // can end the conditions).
    let sick = "cover = 4\nmin_roll = 6\npoisoned = 1\nshocked = 1\nendurance = 0\nresistance = 0\npolicy = { move = \"hold\", defend = \"never\" }";
    let (exact, seen) =
        odds_and_frequencies(&setup(&odds_duel(sick), &[("cover_roll_modifiers", "defender_conditions")]), n);
    agree(&exact, &seen, n);
}

/// The wounds of `dice` hit dice (tiers `tiers`, 1 wound per hit, no protection) through one
/// cover roll at `v` with `fewer` cover dice taken away, every die followed in roll order as the
/// fight rolls it: the i-th crit die protects the i-th crit still standing (P6-COVER-3,
/// `roll_order`). With `parry = Some((dice, m))` the defender first parries any hit under
/// `parry_vs_crits = crit_successes` as the fight does: a die of 11+ (and m+) takes the highest
/// crit, the crits left then standing highest first, other successes normal hits (P6-DEF-5). A
/// naive oracle for the odds.
fn naive_roll_order(
    tiers: &[(Tier, BigRational)],
    dice: usize,
    parry: Option<(usize, i32)>,
    v: i32,
    fewer: usize,
) -> std::collections::BTreeMap<i32, BigRational> {
    let stop = odds::p_at_least(v);
    let stand = BigRational::one() - &stop;
    let mut out: std::collections::BTreeMap<i32, BigRational> = Default::default();
    // A parry die: 0 fails, 1 a plain success, 2 a crit success.
    let (parry_dice, parry_m) = parry.unwrap_or((0, 0));
    let parry_tiers = [
        BigRational::one() - odds::p_at_least(parry_m),
        odds::p_at_least(parry_m) - odds::p_at_least(parry_m.max(11)),
        odds::p_at_least(parry_m.max(11)),
    ];
    // Every sequence of tiers, as a number in base `tiers.len()`.
    for code in 0..tiers.len().pow(dice as u32) {
        let (mut hit_normals, mut hit_crits, mut p, mut rest) = (0usize, Vec::new(), BigRational::one(), code);
        for _ in 0..dice {
            let (tier, q) = &tiers[rest % tiers.len()];
            rest /= tiers.len();
            p *= q;
            match tier {
                Tier::Miss => {}
                Tier::Normal => hit_normals += 1,
                Tier::Crit(k) => hit_crits.push(*k),
            }
        }
        let parried = parry.is_some() && (hit_normals > 0 || !hit_crits.is_empty());
        for parry_code in 0..if parried { 3usize.pow(parry_dice as u32) } else { 1 } {
            let (mut normals, mut crits, mut p) = (hit_normals, hit_crits.clone(), p.clone());
            if parried {
                let (mut successes, mut crit_successes, mut rest) = (0, 0, parry_code);
                for _ in 0..parry_dice {
                    p *= &parry_tiers[rest % 3];
                    successes += usize::from(rest % 3 > 0);
                    crit_successes += usize::from(rest % 3 == 2);
                    rest /= 3;
                }
                crits.sort_unstable_by(|a, b| b.cmp(a));
                let k = crit_successes.min(crits.len());
                crits.drain(..k);
                normals = normals.saturating_sub(successes - k);
            }
            let normal_dice = normals.saturating_sub(fewer);
            let crit_dice = crits.len().saturating_sub(fewer.saturating_sub(normals));
            for stopped in 0..1usize << crit_dice {
                let mut pc = p.clone();
                let mut wounds = 0;
                for (i, k) in crits.iter().enumerate() {
                    if i < crit_dice && stopped & (1 << i) != 0 {
                        pc *= &stop;
                    } else {
                        if i < crit_dice {
                            pc *= &stand;
                        }
                        wounds += 1 + i32::from(*k);
                    }
                }
                // Every normal-hit cover die too, each stopping its hit or not.
                for removed in 0..1usize << normal_dice {
                    let pn = (0..normal_dice)
                        .fold(pc.clone(), |a, i| a * if removed & (1 << i) != 0 { &stop } else { &stand });
                    let w = wounds + (normals - removed.count_ones() as usize) as i32;
                    *out.entry(w).or_insert_with(BigRational::zero) += pn;
                }
            }
        }
    }
    out.retain(|_, p| !p.is_zero());
    out
}

/// A fencer with `a` lines (rapier, DP 1; always second) and B (always first, 20 hearts, never
/// defending unless `b` says otherwise) with `b` lines.
fn cover_duel(a: &str, b: &str) -> String {
    format!(
        "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n[[combatants]]\nname = \"Fencer\"\nside = \"a\"\nquickness = -20\nposition = 0\n{a}\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \"melee\"\ndamage_potential = 1\n[[combatants]]\nname = \"B\"\nside = \"b\"\nquickness = 20\nposition = 1\nmax_wounds = 20\n{b}\n"
    )
}

#[test]
fn the_odds_under_roll_order_stop_the_crits_the_cover_dice_stand_for() {
    // rule: P6-COVER-3, P6-COVER-2, P6-COVER-5
    let roll_order = [("cover_crit_removal", "roll_order")];
    // By hand: 2 hit dice at 5+, crits from 11, B in 4+ cover. In roll order every hit, crit or
    // not, has its own cover die (1/2 to stop it), so each die gives 0 wounds with 2/3 + 1/3 · 1/2
    // = 5/6 and exactly 1 with (P(normal) 5/18 + P(plain crit) 5/108) · 1/2 = 35/216:
    // P(1 wound) = 2 · 35/216 · 5/6 = 175/648. (Highest first would also give 1 wound when a
    // plain crit and a megacrit meet one cover success, which roll order leaves to chance.)
    let two = setup(
        &cover_duel("hand_to_hand = 1", "cover = 4\npolicy = { move = \"hold\", defend = \"never\" }"),
        &roll_order,
    );
    let st = ready(&two);
    let exact = odds::odds_of(&two, &st, A, &atk(B, Mode::Melee)).unwrap();
    assert_eq!(q(&exact.wounds[&0]), "25/36");
    assert_eq!(q(&exact.wounds[&1]), "175/648");
    // Against the naive oracle: 3 dice, crits from 9 after two aims; B Shocked under
    // `cover_roll_modifiers = defender_conditions`, so one crit may go without a cover die.
    let sets = [("cover_crit_removal", "roll_order"), ("cover_roll_modifiers", "defender_conditions")];
    for b in ["cover = 4", "cover = 4\nshocked = 1", "cover = 5\nshocked = 2"] {
        let s = setup(
            &cover_duel(
                "hand_to_hand = 2\nperception = 2",
                &format!("{b}\npolicy = {{ move = \"hold\", defend = \"never\" }}"),
            ),
            &sets,
        );
        let mut st = ready(&s);
        st.fighters[0].aim = 2;
        let act = atk(B, Mode::Melee);
        let (dice_n, m, c) = attack_numbers(&s, &st, A, &act);
        assert_eq!((dice_n, m, c), (3, 5, 9));
        let fewer = st.fighter(B).condition(Cond::Shocked) as usize;
        let v = s.combatants[1].cover.unwrap();
        let naive = naive_roll_order(&odds::die_tiers(&s.options, m, c), 3, None, v, fewer);
        assert_eq!(odds::odds_of(&s, &st, A, &act).unwrap().wounds, naive, "{b}");
    }
    // And after a crit parry (2 dice at 5+: Hand-to-hand 2, sword DP 1, Shocked 1), which leaves
    // the crits highest first: the crit that goes without a cover die is the lowest.
    let sets = [
        ("cover_crit_removal", "roll_order"),
        ("cover_roll_modifiers", "defender_conditions"),
        ("parry_vs_crits", "crit_successes"),
    ];
    let parrier =
        format!("cover = 4\nshocked = 1\nhand_to_hand = 2\npolicy = {{ move = \"hold\", defend = \"parry\" }}{SWORD}");
    let s = setup(&cover_duel("hand_to_hand = 2\nperception = 2", &parrier), &sets);
    let mut st = ready(&s);
    st.fighters[0].aim = 2;
    let act = atk(B, Mode::Melee);
    let naive = naive_roll_order(&odds::die_tiers(&s.options, 5, 9), 3, Some((2, 5)), 4, 1);
    assert_eq!(odds::odds_of(&s, &st, A, &act).unwrap().wounds, naive);
}

/// The fencer (4 actions, Perception 3) aims three times (crits from 8), then strikes B: the
/// exact odds of the wounds, and their frequencies over `n` seeded fights.
fn aimed_odds_and_frequencies(
    s: &Setup,
    n: u64,
) -> (std::collections::BTreeMap<i32, f64>, std::collections::BTreeMap<i32, f64>) {
    let mut st = ready(s);
    st.fighters[0].aim = 3;
    st.fighters[0].actions = 1;
    let exact = odds::odds_of(s, &st, A, &atk(B, Mode::Melee)).unwrap();
    let exact = exact.wounds.iter().map(|(w, p)| (*w, p.to_f64().unwrap())).collect();
    let aim = (0, Choice::Act(Act::Aim { accurate: false }));
    let mut seen = std::collections::BTreeMap::new();
    for seed in 0..n {
        let turns =
            script(&[(1, Choice::Act(Act::End)), aim, aim, aim, (0, rapier_on_b()), (0, Choice::Act(Act::End))]);
        let mut fight = Fight::<PhaseSix, _, _, _>::new(
            s,
            fray_engine::FromSource(fray_dice::seeded(seed)),
            turns,
            Record::default(),
        );
        fight.run().unwrap();
        let (_, record) = fight.into_parts();
        let w: i32 =
            record.0.iter().map(|e| if let Event::Wounded { who: B, wounds, .. } = e { *wounds } else { 0 }).sum();
        *seen.entry(w).or_insert(0.0) += 1.0 / n as f64;
    }
    (exact, seen)
}

#[test]
fn the_odds_under_roll_order_agree_with_the_fights() {
    // rule: P6-COVER-3, P6-DEF-5, P6-COVER-5
    let n = 20_000;
    let fencer = "hand_to_hand = 4\nperception = 3\nactions = 4";
    let roll_order = [("cover_crit_removal", "roll_order")];
    // B in 4+ cover, never defending: 5 dice, crits from 8.
    let hidden = "cover = 4\npolicy = { move = \"hold\", defend = \"never\" }";
    let (exact, seen) = aimed_odds_and_frequencies(&setup(&cover_duel(fencer, hidden), &roll_order), n);
    agree(&exact, &seen, n);
    // B parries under `parry_vs_crits = crit_successes` (which leaves the crits highest first)
    // while Shocked, so that under `defender_conditions` a crit may go without a cover die.
    let parrier = format!(
        "cover = 4\nhand_to_hand = 4\nshocked = 1\nendurance = 0\npolicy = {{ move = \"hold\", defend = \"parry\" }}{SWORD}"
    );
    let sets = [
        ("cover_crit_removal", "roll_order"),
        ("parry_vs_crits", "crit_successes"),
        ("cover_roll_modifiers", "defender_conditions"),
    ];
    let (exact, seen) = aimed_odds_and_frequencies(&setup(&cover_duel(fencer, &parrier), &sets), n);
    agree(&exact, &seen, n);
}

#[test]
fn the_loader_refuses_resources_conditions_magazines_and_armour_out_of_range() {
    // rule: P6-RES-1, P6-COND-1, P6-MODE-6, P6-ARM-1, P6-SHLD-1
    // Each value out of its range is refused where it stands, not clamped.
    let gun = "class = \"ranged\"\nrange_m = 10\ndamage_potential = 1\nrecoil = false";
    refused(&gear("bonus_dice = -1", MELEE), "bonus_dice", "bonus dice from 0 to 100");
    refused(&gear("destiny_dice = 101", MELEE), "destiny_dice", "destiny dice");
    refused(&gear("rerolls = -3", MELEE), "rerolls", "rerolls");
    refused(&gear("bleeding = 21", MELEE), "bleeding", "a Bleeding value from 0 to 20");
    refused(&gear("poisoned = -1", MELEE), "poisoned", "a Poisoned value");
    refused(&gear("", &format!("{gun}\ncapacity = -1")), "capacity", "a capacity from 0 to 1000");
    refused(&gear("", &format!("{gun}\ncapacity = 8\nammo = 5000")), "ammo", "an ammunition count");
    refused(&gear("armour = [{ name = \"vest\", protection = 41 }]", MELEE), "armour", "protection from 0 to 40");
    refused(&gear("shield = { name = \"buckler\", protection = 11 }", MELEE), "shield", "protection from 0 to 10");
    refused(&gear("armour = [{ name = \"vest\", encumbrance = -1 }]", MELEE), "armour", "an encumbrance from 0 to 40");
    refused(&gear("armour = [{ name = \"vest\", condition_pct = 150 }]", MELEE), "armour", "a condition from 0 to 100");
    refused(&gear("shield = { name = \"buckler\", encumbrance = 41 }", MELEE), "shield", "an encumbrance");
}

#[test]
fn keep_one_saves_an_action_only_against_a_foe_it_could_dodge_or_parry() {
    // rule: P6-DEF-2, P6-DEF-3, P6-MODE-2
    // A (sword, `keep = one` by default) stands by B with one action left. Against B's sword it
    // keeps that action for a dodge or parry; against B's rifle, whose shots cannot be dodged or
    // parried, a kept action would be wasted, so A strikes with it.
    let one_left = |b: &str| {
        let s = setup(&duel(SWORD, b), &[]);
        let mut st = ready(&s);
        st.fighters[0].actions = 1;
        policy::ai_choice(&s, &st, A, &fray_rules::phasesix::Request::Act { actions: 1 })
    };
    assert_eq!(one_left(SWORD), Choice::Act(Act::End));
    assert!(matches!(one_left(RIFLE), Choice::Act(Act::Attack { target: B, .. })), "{:?}", one_left(RIFLE));
}

#[test]
fn keep_one_saves_an_action_only_for_a_foe_that_acts_before_the_keepers_next_turn() {
    // rule: P6-ACT-2, P6-ACT-4, P6-INIT-1, P6-ROUND-1, P6-ACT-3
    // A (sword, `keep = one`) stands by B (sword) with one action left. A kept action lasts only
    // until A's next turn resets the pool, so it is worth keeping only if B gets a turn first.
    let one_left = |sets: &[(&str, &str)], order: [CombatantId; 2], edit: &dyn Fn(&mut State)| {
        let s = setup(&duel(SWORD, SWORD), sets);
        let mut st = ready(&s);
        st.order = order.into_iter().collect();
        st.fighters[0].actions = 1;
        edit(&mut st);
        policy::ai_choice(&s, &st, A, &fray_rules::phasesix::Request::Act { actions: 1 })
    };
    let strikes = |c: Choice| matches!(c, Choice::Act(Act::Attack { target: B, .. }));
    let nothing = &|_: &mut State| {};
    // The last round (`round_cap = 1`): B, after A in the order, still acts — A keeps; B, before
    // A, has had its last turn — A strikes.
    assert_eq!(one_left(&[], [A, B], nothing), Choice::Act(Act::End));
    assert!(strikes(one_left(&[], [B, A], nothing)));
    // With a round to come, B acts at its start, before A: A keeps.
    assert_eq!(one_left(&[("round_cap", "2")], [B, A], nothing), Choice::Act(Act::End));
    // B's next pool is empty: its two actions stolen (P6-RES-2), or B unconscious (P6-ACT-3,
    // still in the fight under `out_when = dead`).
    assert!(strikes(one_left(&[("round_cap", "2")], [A, B], &|st| st.fighters[1].steals = 2)));
    let asleep = |st: &mut State| st.fighters[1].cond[1] = 1;
    assert!(strikes(one_left(&[("round_cap", "2"), ("out_when", "dead")], [A, B], &asleep)));
}

#[test]
fn keep_one_saves_an_action_only_for_a_melee_foe_that_can_close_and_strike() {
    // rule: P6-ATK-4, P6-MOVE-1, P6-MOVE-2, P6-ACT-6
    // A (rifle, `keep = one`) has one action left; B (sword, Quickness 1, two actions) acts next.
    // B can strike A on its turn only from within its sword's 1 m, a walk combined with the
    // strike (2 m) and a run with its other action (6 m): 9 m. From farther off a kept action
    // would be lost unused, so A shoots.
    let one_left = |sets: &[(&str, &str)], metres: f64| {
        let s = setup(&duel(RIFLE, SWORD), sets);
        let mut st = ready(&s);
        st.order = [A, B].into_iter().collect();
        st.fighters[0].actions = 1;
        st.fighters[1].pos = Pos::new(metres, 0.0);
        policy::ai_choice(&s, &st, A, &fray_rules::phasesix::Request::Act { actions: 1 })
    };
    let shoots = |c: Choice| matches!(c, Choice::Act(Act::Attack { target: B, .. }));
    assert_eq!(one_left(&[], 9.0), Choice::Act(Act::End));
    assert!(shoots(one_left(&[], 9.5)), "{:?}", one_left(&[], 9.5));
    // A run that costs two actions leaves B a walk (2 m) as its best move: 1 + 2 + 2 = 5 m.
    assert_eq!(one_left(&[("act_cost.run", "2")], 5.0), Choice::Act(Act::End));
    assert!(shoots(one_left(&[("act_cost.run", "2")], 5.5)));
    // No walk combined with the strike (`walk_combine = off`): 1 + 6 = 7 m.
    assert_eq!(one_left(&[("walk_combine", "off")], 7.0), Choice::Act(Act::End));
    assert!(shoots(one_left(&[("walk_combine", "off")], 7.5)));
    // Without a reach check (`melee_reach = ignore`) any melee foe may strike.
    assert_eq!(one_left(&[("melee_reach", "ignore")], 40.0), Choice::Act(Act::End));
}

/// A (Throwing 2, `throw = first`, one grenade of 3 hits × 2 wounds, `a` more lines, `spend`
/// its spend policy) and B 8 m off, hunkered (6+ cover), protection 1, 4 hearts (`b` more
/// lines): WE-6's throw.
fn grenade_duel(a: &str, spend: &str, b: &str, sets: &[(&str, &str)]) -> Setup {
    setup(
        &duel(
            &format!(
                "items = [{{ name = \"grenade\", hits = 3, wounds_per_hit = 2, count = 1 }}]\npolicy = {{ throw = \
                 \"first\", keep = \"none\", spend = \"{spend}\" }}\n{a}"
            ),
            &format!(
                "position = 8\nhunkered = true\nmax_wounds = 4\narmour = [{{ name = \"vest\", protection = 1 }}]\n{b}"
            ),
        ),
        sets,
    )
}

fn throw_at_b(s: &Setup, boosts: bool) -> odds::BlastOdds {
    odds::throw_odds(s, &ready(s), A, &Act::Throw { item: 0, target: B }, B, boosts).unwrap()
}

fn frac(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[test]
fn the_odds_of_a_throw_follow_the_throw_roll_the_deviation_and_the_blast() {
    // rule: P6-THROW-1, P6-THROW-2, P6-THROW-3, P6-THROW-4, P6-DMG-4, P6-COVER-1, P6-COND-6
    // WE-6's throw: 2 dice at 5+ land on B with P = 1 − (2/3)² = 5/9. A deviation lands d6
    // metres from B (clock_2d): within 1 m only at 1 m, 12 of the 72. So the blast reaches B with
    // 5/9 + 4/9 · 1/6 = 17/27. Its 3 hits meet B's 6+ cover (hunkered): 0, 1, 2, 3 removed with
    // 125, 75, 15, 1 in 216; protection 1 stops one more; 2 wounds a hit: 4 wounds (3 left),
    // 2 (2 left), else 0. With 4 hearts, 4 wounds drop him: 17/27 · 125/216 = 2125/5832.
    let s = grenade_duel("", "never", "", &[]);
    let t = throw_at_b(&s, true);
    assert_eq!(q(&t.lands), "5/9");
    assert_eq!(t.deviations_reaching, 12);
    assert_eq!(q(&t.odds.hit), "17/27");
    let reach = frac(17, 27);
    assert_eq!(t.odds.wounds[&4], &reach * frac(125, 216));
    assert_eq!(t.odds.wounds[&2], &reach * frac(75, 216));
    assert_eq!(t.odds.wounds[&0], BigRational::one() - &reach + &reach * frac(16, 216));
    assert_eq!(t.odds.wounds.len(), 3);
    assert_eq!(q(&t.odds.down), "2125/5832");
    assert!(t.odds.residual.is_zero());
    // The odds beside the throw in a person's menu are these (`Prompts::odds` reads `odds_of`).
    assert_eq!(odds::odds_of(&s, &ready(&s), A, &Act::Throw { item: 0, target: B }), Some(t.odds.clone()));
    // Standing, B has no cover: 3 hits, 1 stopped, 4 wounds whenever the blast reaches him.
    let mut standing = s.clone();
    standing.combatants[1].hunkered = false;
    let t = throw_at_b(&standing, true);
    assert_eq!((q(&t.odds.hit), q(&t.odds.down)), ("17/27".to_owned(), "17/27".to_owned()));
    // A hunkered thrower throws at 6+ (P6-COND-6): lands with 1 − (5/6)² = 11/36.
    let mut st = ready(&s);
    st.fighters[0].hunkered = true;
    let low = odds::throw_odds(&s, &st, A, &Act::Throw { item: 0, target: B }, B, true).unwrap();
    assert_eq!((low.dice.1, q(&low.lands)), (6, "11/36".to_owned()));
    // `throw_radius_m = 0`: a deviation (1 to 6 m) never reaches him.
    let t = throw_at_b(&grenade_duel("", "never", "", &[("throw_radius_m", "0")]), true);
    assert_eq!((t.deviations_reaching, q(&t.odds.hit)), (0, "5/9".to_owned()));
    // `throw_radius_m = 6`: every deviation does.
    let t = throw_at_b(&grenade_duel("", "never", "", &[("throw_radius_m", "6")]), true);
    assert_eq!((t.deviations_reaching, q(&t.odds.hit)), (72, "1/1".to_owned()));
}

#[test]
fn the_odds_of_a_throw_under_the_line_deviation() {
    // rule: P6-THROW-3, P6-THROW-4
    // `deviation_geometry = line_1d` keeps only the deviation's "beyond" part, d·cos(30°·h): at
    // 3 and 9 o'clock it is 0 (the object lands on B: 12 of the 72), at 2, 4, 8 and 10 o'clock
    // d/2 (within 1 m for d ≤ 2: 8), at 1, 5, 7 and 11 o'clock 0.87·d (d = 1: 4), at 6 and 12
    // d (d = 1: 2): 26 of 72, so 5/9 + 4/9 · 13/36 = 58/81.
    let t = throw_at_b(&grenade_duel("", "never", "", &[("deviation_geometry", "line_1d")]), true);
    assert_eq!((t.deviations_reaching, q(&t.odds.hit)), (26, "58/81".to_owned()));
}

#[test]
fn the_odds_of_a_throw_follow_the_boosts_of_thrower_and_victim() {
    // rule: P6-RES-4, P6-RES-5, P6-THROW-1, P6-COVER-1
    // A thrower with a bonus die and a reroll and `spend = to_hit`: a throw with no success
    // (4/9) gets a bonus die (it fails 2/3), then a reroll of all three dice (fails 8/27):
    // 1 − 4/9 · 2/3 · 8/27 = 665/729. The roll alone (a person deciding) stays 5/9.
    let s = grenade_duel("bonus_dice = 1\nrerolls = 1", "to_hit", "", &[]);
    assert_eq!(q(&throw_at_b(&s, true).lands), "665/729");
    assert_eq!(q(&throw_at_b(&s, false).lands), "5/9");
    // Under `spend = to_defend` the thrower keeps them: the roll alone.
    let s = grenade_duel("bonus_dice = 1\nrerolls = 1", "to_defend", "", &[]);
    assert_eq!(q(&throw_at_b(&s, true).lands), "5/9");
    // A destiny die as a bonus die succeeds at 4+ (P6-RES-5): 1 − 4/9 · 1/2 = 7/9.
    let s = grenade_duel("destiny_dice = 1", "always", "", &[]);
    assert_eq!(q(&throw_at_b(&s, true).lands), "7/9");
    // The victim's bonus die on a cover roll with no success (its `spend = to_defend`): 3 hits
    // left with 125/216 · 5/6 = 625/1296, 2 with 75/216 + 125/216 · 1/6 = 575/1296; 4 wounds
    // drop him.
    let mut v = grenade_duel("", "never", "bonus_dice = 1\n", &[]);
    v.combatants[1].policy.0[6] = 1; // B's `spend = to_defend` (duel() writes B's policy table)
    let t = throw_at_b(&v, true);
    let reach = frac(17, 27);
    assert_eq!(t.odds.wounds[&4], &reach * frac(625, 1296));
    assert_eq!(t.odds.wounds[&2], &reach * frac(575, 1296));
    assert_eq!(t.odds.down, &reach * frac(625, 1296));
}

#[test]
fn fray_odds_gives_the_blast_when_the_thrower_throws_first() {
    // rule: P6-THROW-1, P6-THROW-4
    let s = grenade_duel("", "never", "", &[]);
    let o = odds::attack_odds(&s, "A", "B").unwrap();
    assert_eq!((q(&o.hit), q(&o.down)), ("17/27".to_owned(), "2125/5832".to_owned()));
    let said = o.assumptions.join("\n");
    assert!(said.contains("throws first") && said.contains("5/9") && said.contains("12 of the 72"), "{said}");
    // With a thrower's bonus die spent by his policy, the roll alone beside it.
    let s = grenade_duel("bonus_dice = 1", "to_hit", "", &[]);
    let o = odds::attack_odds(&s, "A", "B").unwrap();
    assert!(o.assumptions.iter().any(|a| a.starts_with("the roll alone")), "{:?}", o.assumptions);
    // Within 1 m the blast would catch A himself: no throw (the AI's rule), the weapon's odds
    // (bare hands here), with the reason.
    let o = odds::attack_odds_at(&s, "A", "B", Some(1.0)).unwrap();
    assert_ne!(q(&o.hit), "17/27");
    assert!(o.assumptions.iter().any(|a| a.contains("catch the thrower")), "{:?}", o.assumptions);
    // Beyond 20 m the AI does not throw either.
    let far = odds::attack_odds_at(&s, "A", "B", Some(25.0));
    assert!(far.as_ref().is_err_and(|e| e.contains("cannot attack") && e.contains("more than 20 m")), "{far:?}");
}

#[test]
fn a_persons_menu_gives_the_blast_beside_a_throw_and_the_roll_alone_when_dice_would_be_spent() {
    // rule: P6-THROW-1, P6-THROW-4, P6-RES-4
    use fray_rules::Prompts;
    let label = |s: &Setup| {
        let scenario = fray_rules::phasesix::PhaseSixScenario(s.clone());
        let st = ready(s);
        let request = fray_rules::phasesix::Request::Act { actions: 2 };
        let ai = policy::ai_choice(s, &st, A, &request);
        assert_eq!(ai, Choice::Act(Act::Throw { item: 0, target: B }), "the AI throws first");
        let (_, choices) = fray_rules::building_prompt(true, || scenario.prompt(&st, A, &request, &ai));
        choices.into_iter().find(|(_, c)| *c == ai).map(|(l, _)| l).unwrap()
    };
    // 17/27 ≈ 63.0 % to reach B, 2125/5832 ≈ 36.4 % to drop him.
    let plain = label(&grenade_duel("", "never", "", &[]));
    assert!(plain.ends_with("— blast reaches the target 63.0%, drops the target 36.4%"), "{plain}");
    // A bonus die the AI would spend on a throw with no success: both, labelled (1 − 8/27 =
    // 19/27 to land: 19/27 + 8/27 · 1/6 = 61/81 ≈ 75.3 % to reach him).
    let spent = label(&grenade_duel("bonus_dice = 1", "to_hit", "", &[]));
    assert!(
        spent.contains("blast reaches the target 75.3%")
            && spent.contains("as the AI would play it")
            && spent.contains("the roll alone: blast reaches the target 63.0%"),
        "{spent}"
    );
}

/// A (Hand-to-hand `skill`, a rapier of DP 1, `a` more lines) and B 1 m off, one hit kills (one
/// heart), no protection (`b` more lines).
fn boost_duel(skill: i32, a: &str, b: &str, sets: &[(&str, &str)]) -> Setup {
    setup(
        &format!(
            "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n[[combatants]]\nname = \"A\"\nside = \
             \"a\"\nhand_to_hand = {skill}\nposition = 0\n{a}\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \
             \"melee\"\ndamage_potential = 1\n[[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 1\nmax_wounds = \
             1\n{b}\n"
        ),
        sets,
    )
}

#[test]
fn the_odds_follow_what_the_attackers_spend_policy_spends_on_its_hit_roll() {
    // rule: P6-RES-4, P6-RES-5, P6-ATK-2
    // A rolls 1 + 1 = 2 hit dice at 5+: ≥ 1 hit 1 − (2/3)² = 5/9. B never defends and one hit
    // drops him, so the chance of dropping him is the chance of a hit.
    let hit = |a: &str, spend: &str, boosts: bool| {
        let s =
            boost_duel(1, &format!("{a}\npolicy = {{ spend = \"{spend}\" }}"), "policy = { defend = \"never\" }", &[]);
        let o = odds::odds_as(&s, &ready(&s), A, &atk(B, Mode::Melee), boosts).unwrap();
        assert_eq!(o.hit, o.down, "{a}");
        q(&o.hit)
    };
    assert_eq!(hit("", "to_hit", true), "5/9");
    // A bonus die on a roll with no hit: a third die, 1 − (2/3)³ = 19/27.
    assert_eq!(hit("bonus_dice = 1", "to_hit", true), "19/27");
    // A reroll of the two dice: 1 − (4/9)² = 65/81.
    assert_eq!(hit("rerolls = 1", "to_hit", true), "65/81");
    // The bonus die first, then a reroll of all three dice: 1 − (8/27)² = 665/729.
    assert_eq!(hit("bonus_dice = 1\nrerolls = 1", "to_hit", true), "665/729");
    // Two bonus dice, one after the other: 1 − (2/3)⁴ = 65/81.
    assert_eq!(hit("bonus_dice = 2", "to_hit", true), "65/81");
    // A destiny die as a bonus die, rolled apart, hits at 4+ (P6-RES-5): 1 − 4/9 · 1/2 = 7/9.
    assert_eq!(hit("destiny_dice = 1", "always", true), "7/9");
    // The `spend` policy decides: under `to_defend` or `never` nothing is spent on a hit roll;
    // and the roll alone (a person deciding) is the roll alone whatever is held.
    assert_eq!(hit("bonus_dice = 1\nrerolls = 1", "to_defend", true), "5/9");
    assert_eq!(hit("bonus_dice = 1\nrerolls = 1", "never", true), "5/9");
    assert_eq!(hit("bonus_dice = 1\nrerolls = 1", "to_hit", false), "5/9");
}

#[test]
fn the_odds_follow_what_the_defender_spends_on_his_dodge_and_cover_rolls_and_what_is_left() {
    // rule: P6-RES-4, P6-DEF-1, P6-COVER-2, P6-RES-1
    // A rolls one hit die at 5+ (a rapier, Hand-to-hand 0): one hit with 1/3. B (one evasion die,
    // `defend = dodge`, 5+ cover, one heart) dodges at 5 + 1 = 6+ (1/6); under `spend =
    // to_defend` a dodge with no success gets his bonus die (1/6): it fails with 25/36 and leaves
    // him nothing for the cover roll (1 die at 5+, the hit stays with 2/3): B drops with 1/3 ·
    // 25/36 · 2/3 = 25/162.
    let down = |b: &str, spend: &str, st: &dyn Fn(&Setup) -> State| {
        let s = boost_duel(
            0,
            "",
            &format!("cover = 5\n{b}\npolicy = {{ move = \"hold\", defend = \"dodge\", spend = \"{spend}\" }}"),
            &[],
        );
        let o = odds::odds_of(&s, &st(&s), A, &atk(B, Mode::Melee)).unwrap();
        assert_eq!(q(&o.hit), "1/3");
        q(&o.down)
    };
    let ready = &|s: &Setup| ready(s);
    assert_eq!(down("bonus_dice = 1", "to_defend", ready), "25/162");
    // Without spending: dodge 1/6, cover 1/3: 1/3 · 5/6 · 2/3 = 5/27.
    assert_eq!(down("bonus_dice = 1", "never", ready), "5/27");
    assert_eq!(down("bonus_dice = 1", "to_hit", ready), "5/27");
    // Two bonus dice: the AI spends the second too on a dodge still without a success, one at a
    // time (it fails with (5/6)³), and nothing is left for the cover roll: 1/3 · 125/216 · 2/3.
    assert_eq!(down("bonus_dice = 2", "to_defend", ready), "125/972");
    // Before B's first turn he has no action (P6-ACT-1) and buys one for the dodge with a bonus
    // die (P6-RES-1): with one, none is left for the rolls (5/27); with two, one is (25/162).
    let opening = &|s: &Setup| {
        let mut st = PhaseSix::initial_state(s);
        st.round = 1;
        st.fighters[0].actions = 2;
        st
    };
    assert_eq!(down("bonus_dice = 1", "to_defend", opening), "5/27");
    assert_eq!(down("bonus_dice = 2", "to_defend", opening), "25/162");
    // And `fray odds` says so.
    let s = boost_duel(
        0,
        "",
        "cover = 5\nbonus_dice = 2\npolicy = { move = \"hold\", defend = \"dodge\", spend = \"to_defend\" }",
        &[],
    );
    let o = odds::attack_odds(&s, "A", "B").unwrap();
    assert_eq!(q(&o.down), "25/162");
    let said = o.assumptions.join("\n");
    assert!(said.contains("buys with a bonus die") && said.contains("what one roll leaves carrying"), "{said}");
    assert!(!said.contains("the roll alone"), "{said}");
}

#[test]
fn the_odds_follow_a_destiny_die_spent_on_a_parry_and_the_purse_it_leaves_to_the_cover_roll() {
    // rule: P6-RES-5, P6-DEF-3, P6-COVER-2, P6-COVER-3
    // A's one hit die at 5+ is a normal hit with 5/18 and a crit with 1/18 (11+). B parries
    // with his sword (Hand-to-hand 0 + DP 1: one die at 5+) and spends his destiny die, rolled
    // apart, on a parry with no success: it succeeds at 4+ (1/2). A normal hit is parried unless
    // both fail (1/3), the destiny die then spent: the cover roll (5+) leaves it with 2/3. A crit
    // is not parried (`parry_vs_crits = normal_only`), but the AI spends on the parry all the
    // same: a parry that succeeds first (1/3) keeps the destiny die for the crit's cover roll
    // (it stays with 2/3 · 1/2), else the cover roll stands alone (2/3): 1/3 · 1/3 + 2/3 · 2/3 =
    // 5/9. B drops with 5/18 · 2/9 + 1/18 · 5/9 = 5/54.
    let b = |spend: &str| {
        format!(
            "cover = 5\ndestiny_dice = 1\npolicy = {{ move = \"hold\", defend = \"parry\", spend = \"{spend}\" }}{SWORD}"
        )
    };
    let down = |spend: &str| {
        let s = boost_duel(0, "", &b(spend), &[]);
        q(&odds::odds_of(&s, &ready(&s), A, &atk(B, Mode::Melee)).unwrap().down)
    };
    assert_eq!(down("to_defend"), "5/54");
    // Nothing spent: a normal hit stays with 2/3 · 2/3, a crit with 2/3: 5/18 · 4/9 + 1/18 · 2/3.
    assert_eq!(down("never"), "13/81");
}

#[test]
fn a_persons_menu_gives_an_attack_as_the_ai_would_spend_on_it_and_the_roll_alone() {
    // rule: P6-RES-4
    use fray_rules::Prompts;
    let label = |s: &Setup| {
        let scenario = fray_rules::phasesix::PhaseSixScenario(s.clone());
        let st = ready(s);
        let request = fray_rules::phasesix::Request::Act { actions: 2 };
        let ai = policy::ai_choice(s, &st, A, &request);
        assert!(matches!(ai, Choice::Act(Act::Attack { target: B, .. })), "the AI attacks: {ai:?}");
        let (_, choices) = fray_rules::building_prompt(true, || scenario.prompt(&st, A, &request, &ai));
        choices.into_iter().find(|(_, c)| *c == ai).map(|(l, _)| l).unwrap()
    };
    // 5/9 ≈ 55.6 %; with a bonus die spent on a roll with no hit 19/27 ≈ 70.4 %.
    let b = "policy = { move = \"hold\", defend = \"never\" }";
    let plain = label(&boost_duel(1, "policy = { spend = \"to_hit\" }", b, &[]));
    assert!(plain.ends_with("— ≥ 1 hit 55.6%, drops the target 55.6%"), "{plain}");
    let spent = label(&boost_duel(1, "bonus_dice = 1\npolicy = { spend = \"to_hit\" }", b, &[]));
    assert!(
        spent.contains("≥ 1 hit 70.4%, drops the target 70.4% as the AI would play it")
            && spent.contains("the roll alone: ≥ 1 hit 55.6%, drops the target 55.6%"),
        "{spent}"
    );
    // And `fray odds` gives the roll alone beside them.
    let o =
        odds::attack_odds(&boost_duel(1, "bonus_dice = 1\npolicy = { spend = \"to_hit\" }", b, &[]), "A", "B").unwrap();
    assert_eq!(q(&o.hit), "19/27");
    assert!(
        o.assumptions.contains(&"the roll alone, nothing spent on the hit roll: hit 5/9, takes B out 5/9".to_owned())
    );
}

#[test]
fn the_odds_carry_what_the_crit_dices_cover_roll_leaves_to_the_normal_hits() {
    // rule: P6-COVER-2, P6-RES-4
    // A's two hit dice at 5+: per die a miss 2/3, a normal hit 5/18, a crit 1/18. B (5+ cover,
    // one bonus die, `spend = to_defend`, never defends, one heart) drops unless his cover rolls
    // take every hit. One hit (144/324): its die fails 2/3, the bonus die then 1/3: it stays
    // with 4/9. Two hits of one kind (26/324): one roll of two dice takes both only with 1/9
    // (after no success the bonus die takes one at most). A crit and a normal hit (10/324): the
    // crit dice's roll comes first; a success keeps the bonus die for the normal hit's roll (1/3
    // · 5/9), else it is spent there and may take the crit (2/9 · 1/3): both go with 7/27.
    // 144/324 · 4/9 + 26/324 · 8/9 + 10/324 · 20/27 = 638/2187.
    let s = boost_duel(
        1,
        "",
        "cover = 5\nbonus_dice = 1\npolicy = { move = \"hold\", defend = \"never\", spend = \"to_defend\" }",
        &[],
    );
    let o = odds::odds_of(&s, &ready(&s), A, &atk(B, Mode::Melee)).unwrap();
    assert_eq!((q(&o.hit), q(&o.down)), ("5/9".to_owned(), "638/2187".to_owned()));
}

#[test]
fn one_without_actions_buys_a_reaction_with_a_bonus_die_in_the_fight() {
    // rule: P6-RES-1, P6-ACT-1
    // A acts first; B, before his first turn, has no action (P6-ACT-1) but a bonus die, and buys
    // the action for a parry with it: he is asked, parries one of A's two hits, and the die is
    // spent.
    let s = setup(&duel(SWORD, &format!("bonus_dice = 1{SWORD}")), &[]);
    let entries = [
        (0, Choice::Act(atk(B, Mode::Melee))),
        (0, Choice::Act(Act::End)),
        (1, Choice::React { reaction: Some(Reaction::Parry), buy: 1 }),
        (1, Choice::Act(Act::End)),
    ];
    // Initiative A 5 + 1, B 1 + 1; A's 3 dice: 5 5 1; B's parry 3 dice: 5 1 1.
    let (log, state, fought) = run(&s, &[5, 1, 5, 5, 1, 5, 1, 1], script(&entries));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Reacted { who: B, reaction: Reaction::Parry, successes: 1, .. })));
    assert_eq!(state.fighter(B).wounds, 1);
    assert_eq!(state.fighter(B).bonus_dice, 0);
}

#[test]
fn one_with_bonus_dice_alone_is_asked_to_boost() {
    // rule: P6-RES-4, P6-RES-5
    // The fencer holds two bonus dice and nothing else. He misses with all four dice, adds one
    // bonus die (5): one hit, one bonus die left. Holding two rerolls and nothing else, he
    // rerolls the pool (5 1 1 1): one hit, one reroll left.
    use fray_rules::phasesix::Boost;
    for (purse, boost, faces, left) in [
        ("bonus_dice = 2\n", Boost::BonusDie, &[5, 1, 1, 1, 1, 1, 5][..], (1, 0)),
        ("rerolls = 2\n", Boost::Reroll, &[5, 1, 1, 1, 1, 1, 5, 1, 1, 1][..], (0, 1)),
    ] {
        let text = fencer_and("policy = { move = \"hold\", defend = \"never\" }", "")
            .replace("hand_to_hand = 3\n", &format!("hand_to_hand = 3\n{purse}"));
        let s = setup(&text, &[]);
        let turn = script(&[(0, rapier_on_b()), (0, Choice::Boost(Some(boost))), (0, Choice::Act(Act::End))]);
        let (log, state, fought) = run(&s, faces, turn);
        fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
        let normals = log.iter().find_map(|e| match e {
            Event::AttackRoll { attacker: A, normals, .. } => Some(*normals),
            _ => None,
        });
        assert_eq!(normals, Some(1), "{boost:?}: {log:#?}");
        assert_eq!((state.fighter(A).bonus_dice, state.fighter(A).rerolls), left, "{boost:?}");
    }
}

#[test]
fn a_massive_attack_costs_an_action_per_extra_and_adds_three_dice_each() {
    // rule: P6-SPECIAL-5, P6-SPECIAL-6
    // A massive attack with 2 extra actions costs 3 (not legal with 2 actions left) and adds
    // 3 dice per extra action up to Strength: with Strength 2, 2 dice for one extra or two, as
    // `massive_cap = strength` has it (1 + 2 + 2 = 5 dice).
    let club = "strength = 2\n[[combatants.weapons]]\nname = \"club\"\nclass = \"melee\"\ndamage_potential = 1\nblunt = true\n";
    let s = setup(&duel(club, ""), &[]);
    let massive = |n: u8| Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Massive(n),
        walk: None,
        from_behind: false,
    };
    let mut st = ready(&s);
    assert!(illegal(&s, &st, A, &massive(2)).is_some(), "three actions for two extra");
    st.fighters[0].actions = 3;
    assert!(illegal(&s, &st, A, &massive(2)).is_none());
    assert_eq!(attack_numbers(&s, &st, A, &massive(2)).0, 5);
    // Under `extra_actions` the cap is on the extra actions: 3 × min(2, 2) = 6 more dice.
    let per_action = setup(&duel(club, ""), &[("massive_cap", "extra_actions")]);
    assert_eq!(attack_numbers(&per_action, &st, A, &massive(2)).0, 9);
    // With Strength 5, one extra action adds 3 dice, two add 5 (6 capped at Strength).
    let strong = setup(&duel(&club.replace("strength = 2", "strength = 5"), ""), &[]);
    assert_eq!(
        (attack_numbers(&strong, &st, A, &massive(1)).0, attack_numbers(&strong, &st, A, &massive(2)).0),
        (6, 8)
    );
    // The odds beside it (a person's menu) are those of an attack with those dice: the same as
    // a plain attack by one with as many more Hand-to-hand as it adds (2 for one extra action
    // under Strength 2, 6 for two under `extra_actions`), and better than the plain attack's.
    let odds = |s: &Setup, act: &Act| fray_rules::phasesix::odds::odds_of(s, &st, A, act).expect("odds");
    let plain = odds(&s, &atk(B, Mode::Melee));
    let big = odds(&per_action, &massive(2));
    let stronger = |more: i32| {
        let mut s = setup(&duel(club, ""), &[]);
        s.combatants[0].hand_to_hand += more;
        s
    };
    assert_eq!(big, odds(&stronger(6), &atk(B, Mode::Melee)));
    assert_eq!(odds(&s, &massive(1)), odds(&stronger(2), &atk(B, Mode::Melee)));
    assert!(big.hit > plain.hit, "{big:?} against {plain:?}");
}

// --- The mutation audit's shard 0/10: tests for what it found unseen ------------------------

/// A (rifle, Shooting 3, Perception 2) aims once and fires a single shot at B, 10 m off:
/// the shot's `AttackRoll` event.
fn aimed_shot() -> (Setup, Event) {
    let s = setup(&duel(RIFLE, "position = 10"), &[]);
    let entries = [
        (0, Choice::Act(Act::Aim { accurate: false })),
        (0, Choice::Act(atk(B, Mode::Single))),
        (1, Choice::Act(Act::End)),
    ];
    // Initiative A 5, B 1; the shot's 5 dice (Shooting 3 + DP 2) at 5+: 5 5 1 1 1.
    let (log, _, fought) = run(&s, &[5, 1, 5, 5, 1, 1, 1], script(&entries));
    fought.unwrap();
    let shot = log.into_iter().find(|e| matches!(e, Event::AttackRoll { .. })).expect("a shot");
    (s, shot)
}

#[test]
fn the_log_names_each_term_of_an_attack_and_each_condition() {
    // rule: P6-ATK-1, P6-AIM-1
    // The JSON log itemises the dice, M and C by name (non-zero terms), and the text gives the
    // dice's terms and C's beside the totals. The aim lowers C by one: C 11, aim −1.
    let (s, shot) = aimed_shot();
    let Event::AttackRoll { dice, m, c, terms, .. } = &shot else { unreachable!() };
    assert_eq!((*dice, *m, *c), (5, 5, 10));
    let json = serde_json::to_value(terms).unwrap();
    assert_eq!(
        json,
        serde_json::json!({ "dice": [["skill", 3], ["DP", 2]], "m": [["M", 5]], "c": [["C", 11], ["aim", -1]] })
    );
    let line = fray_rules::phasesix::PhaseSixScenario(s.clone()).line(&shot);
    let text = line.text.unwrap();
    assert!(text.contains("A — attack B, single: 5 dice (shooting 3, DP 2) at 5+, crits 10+ (C 11, aim −1) [5 5 1 1 1] → 0 crits, 2 normal hit(s)"), "{text}");
    // A condition's line names it.
    let scenario = fray_rules::phasesix::PhaseSixScenario(s);
    let said = |cond, value| scenario.line(&Event::Condition { who: B, cond, value }).text.unwrap();
    assert_eq!(said(Cond::Bleeding, 2), "B is bleeding 2");
    assert_eq!(said(Cond::Dying, 0), "B is no longer dying");
    assert_eq!(said(Cond::Poisoned, 1), "B is poisoned 1");
}

#[test]
fn the_simulators_tally_counts_a_hit_of_normal_hits_alone() {
    // Not a clause: `fray sim`'s hit rate reads each attack roll's tally; a roll of normal hits
    // and no crit is a hit, not a crit.
    let (_, shot) = aimed_shot();
    assert_eq!(PhaseSix::tally(&shot), Some(fray_engine::Tally::Attack { by: A, hit: true, crit: false }));
}

#[test]
fn each_boost_needs_its_resource_and_a_reroll_a_pool() {
    // rule: P6-RES-4, P6-RES-5
    use fray_rules::phasesix::Boost;
    let s = setup(&duel("", ""), &[]);
    let mut x = PhaseSix::initial_state(&s).fighters[0].clone();
    for n in [0, 1, 2] {
        (x.bonus_dice, x.destiny_dice, x.rerolls) = (n, n, n);
        for b in Boost::ALL {
            assert_eq!(b.illegal(&x, 3).is_none(), n > 0, "{b:?} with {n}");
        }
    }
    assert!(Boost::DestinyReroll.illegal(&x, 0).is_some() && Boost::Reroll.illegal(&x, 0).is_some());
    assert!(Boost::BonusDie.illegal(&x, 0).is_none());
}

#[test]
fn dying_or_unconscious_takes_the_actions_and_other_conditions_do_not() {
    // rule: P6-TRACK-3, P6-ACT-3
    let s = setup(&duel("", ""), &[]);
    for (cond, keeps) in [
        (Cond::Shocked, true),
        (Cond::Burning, true),
        (Cond::Bleeding, true),
        (Cond::Poisoned, true),
        (Cond::Dying, false),
        (Cond::Unconscious, false),
    ] {
        let mut st = ready(&s);
        PhaseSix::apply(&s, &mut st, &Event::Condition { who: B, cond, value: 1 });
        assert_eq!(st.fighter(B).actions, if keeps { 2 } else { 0 }, "{cond:?}");
        assert_eq!(st.fighter(A).actions, 2);
    }
}

#[test]
fn an_adjustment_that_leaves_one_side_standing_ends_the_fight() {
    // rule: P6-TRACK-8
    // The game master's adjustment (the live fight's `adjust`) is followed by the end check:
    // B out, A's side wins; both standing, the fight goes on.
    let s = setup(&duel("", ""), &[]);
    let mut st = ready(&s);
    assert_eq!(PhaseSix::end_after_adjustment(&s, &st), None);
    st.fighters[1].dead = true;
    let (result, _) = PhaseSix::end_after_adjustment(&s, &st).expect("the fight ends");
    assert_eq!(result.outcome, Outcome::Side(s.combatants[0].side));
}

#[test]
fn a_round_cap_out_of_range_is_refused() {
    // rule: P6-TRACK-8
    let text = duel("", "");
    for bad in ["0", "100001", "-1"] {
        let sets = vec![("round_cap".to_owned(), bad.to_owned())];
        let e = scenario::load("t.toml", &text, &sets).map(|_| ()).expect_err(bad);
        assert!(e.to_string().contains("expected a round cap from 1 to 100000"), "{e}");
    }
    assert_eq!(setup(&text, &[("round_cap", "100000")]).options.round_cap, 100_000);
}

#[test]
fn the_loader_refuses_a_range_out_of_bounds_and_a_fifth_armour_piece() {
    // rule: P6-ATK-3, P6-ARM-1
    for range in ["0", "-5", "20000"] {
        let gun = format!("class = \"ranged\"\nrange_m = {range}\ndamage_potential = 1\nrecoil = false");
        refused(&gear("", &gun), "[[combatants.weapons]]", "expected a range from 0 to 10000 m");
    }
    let piece = "{ name = \"vest\", protection = 1 }";
    let four = format!("armour = [{}]", [piece; 4].join(", "));
    let sets: Vec<(String, String)> = Vec::new();
    assert!(scenario::load("t.toml", &gear(&four, MELEE), &sets).is_ok());
    let five = format!("armour = [{}]", [piece; 5].join(", "));
    let e = scenario::load("t.toml", &gear(&five, MELEE), &sets).map(|_| ()).expect_err("five pieces");
    assert!(e.message.contains("at most four armour pieces"), "{e}");
}

#[test]
fn a_combatant_joining_late_is_absent_until_it_joins() {
    // Not a clause: the live tracker's combatants added mid-fight (the last `joins_late` of the
    // roster) start absent.
    let mut s = setup(&(duel("", "") + C_FAR), &[]);
    s.joins_late = 1;
    assert_eq!((0..3).map(|i| s.joins_late(i)).collect::<Vec<_>>(), [false, false, true]);
}

#[test]
fn poisoned_raises_a_defenders_dodge_roll() {
    // rule: P6-COND-5
    // B dodges A's sword (two hits: M 5 + 2); Poisoned 1 makes it 8+.
    let m_of_dodge = |b: &str, faces: &[u32]| {
        let s = setup(&duel(SWORD, b), &[]);
        // B first (initiative A 1, B 5) ends his turn keeping his two actions.
        let entries = [
            (1, Choice::Act(Act::End)),
            (0, Choice::Act(atk(B, Mode::Melee))),
            (1, Choice::React { reaction: Some(Reaction::Dodge), buy: 0 }),
            (0, Choice::Act(Act::End)),
        ];
        let (log, _, fought) = run(&s, faces, script(&entries));
        let m = log.iter().find_map(|e| match e {
            Event::Reacted { who: B, reaction: Reaction::Dodge, m, .. } => Some(*m),
            _ => None,
        });
        (m, fought.map_err(|e| e.to_string()))
    };
    let plain = m_of_dodge("", &[1, 5, 5, 5, 1, 1, 1, 1, 1]);
    assert_eq!(plain.0, Some(7), "{plain:?}");
    // Poisoned B's round-start Resistance check (1 die: 1) leaves the poison.
    let poisoned = m_of_dodge("poisoned = 1", &[1, 5, 1, 5, 5, 1, 1, 1, 1, 1]);
    assert_eq!(poisoned.0, Some(8), "{poisoned:?}");
}

#[test]
fn a_destiny_die_bought_reaction_takes_the_attackers_action_at_once() {
    // rule: P6-RES-2, P6-RES-3, P6-RES-1
    // A attacks (one of his two actions left); B, with no action before his turn, buys a parry
    // with a destiny die: it steals from A, the actor holding an action, at once, so A has no
    // action left.
    let s = setup(&duel(SWORD, &format!("destiny_dice = 1{SWORD}")), &[]);
    let entries = [
        (0, Choice::Act(atk(B, Mode::Melee))),
        (1, Choice::React { reaction: Some(Reaction::Parry), buy: 2 }),
        (0, Choice::Act(Act::End)),
        (1, Choice::Act(Act::End)),
    ];
    // Initiative A 5, B 1; A's 3 dice 5 5 1; B's parry 3 dice 5 1 1.
    let (log, state, fought) = run(&s, &[5, 1, 5, 5, 1, 5, 1, 1], script(&entries));
    fought.unwrap();
    assert!(log.contains(&Event::Actions { who: A, delta: -1, steal_later: 0, bonus: 0, destiny: 0 }), "{log:#?}");
    assert_eq!((state.fighter(A).actions, state.fighter(B).destiny_dice), (0, 0));
}

#[test]
fn under_the_combined_cap_aim_and_accurate_points_share_perception() {
    // rule: P6-SPECIAL-2, P6-AIM-1
    // Perception 1: an accurate point fills the combined cap, so the next aim adds nothing;
    // under `exclusive` each has its own cap of 1.
    let text = duel(SWORD, "").replace("perception = 2", "perception = 1");
    let aims = [
        (0, Choice::Act(Act::Aim { accurate: true })),
        (0, Choice::Act(Act::Aim { accurate: false })),
        (0, Choice::Act(Act::End)),
    ];
    for (sets, aim) in [(&[("accurate_attack", "combined_cap")][..], 0), (&[][..], 1)] {
        let (_, state, fought) = run(&setup(&text, sets), &[5, 1], script(&aims));
        assert_eq!(fought.unwrap_err().to_string(), "dice for hit: the script ran out of faces after 2 dice");
        assert_eq!((state.fighter(A).accurate, state.fighter(A).aim), (1, aim), "{sets:?}");
    }
}

#[test]
fn a_knock_outs_depth_is_the_hits_less_the_successes_and_it_counts_as_out_once() {
    // rule: P6-SPECIAL-4, P6-TRACK-8
    let club = "strength = 2\n[[combatants.weapons]]\nname = \"club\"\nclass = \"melee\"\ndamage_potential = 1\nblunt = true\n";
    let ko = Choice::Act(Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Ko,
        walk: None,
        from_behind: false,
    });
    let knock = |sets: &[(&str, &str)]| {
        let s = setup(&(duel(club, "resistance = 1") + C_FAR), sets);
        // Initiative A 5, B 1, C 2; 3 dice: 5 5 1 → 2 hits; Resistance 1 die: 5 → 1 success.
        let entries = [(0, ko), (0, Choice::Act(Act::End)), (2, Choice::Act(Act::End))];
        let (log, state, fought) = run(&s, &[5, 1, 2, 5, 5, 1, 5], script(&entries));
        (log, state, fought.map_err(|e| e.to_string()))
    };
    // `ko_depth = margin`: 2 − 1 = 1.
    let (log, state, _) = knock(&[]);
    assert!(log.contains(&Event::Condition { who: B, cond: Cond::Unconscious, value: 1 }), "{log:#?}");
    assert_eq!(log.iter().filter(|e| matches!(e, Event::Out { who: B })).count(), 1);
    assert_eq!(state.fighter(B).condition(Cond::Unconscious), 1);
    // `out_when = dead`: the knocked-out B is still in the fight.
    let (log, _, _) = knock(&[("out_when", "dead")]);
    assert!(log.contains(&Event::Condition { who: B, cond: Cond::Unconscious, value: 1 }), "{log:#?}");
    assert!(!log.iter().any(|e| matches!(e, Event::Out { .. })), "{log:#?}");
}

#[test]
fn a_disarm_resisted_with_deftness_ignores_strength() {
    // rule: P6-SPECIAL-8
    // B (Strength 3, Deftness 0) resists A's disarm: with Deftness, no die and no success, so
    // he is disarmed; with the better of the two (the default) or Strength, 3 dice at 5+ (5 5 5)
    // hold the one hit.
    let text = duel(SWORD, &format!("strength = 3\ndeftness = 0{SWORD}"));
    let disarm = Choice::Act(Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Disarm,
        walk: None,
        from_behind: false,
    });
    for (sets, disarmed) in
        [(&[("disarm_resist", "deftness")][..], true), (&[("disarm_resist", "strength")][..], false), (&[][..], false)]
    {
        let s = setup(&text, sets);
        // Initiative A 5, B 1; A's 3 dice at 8+: 6 3 (8), 1, 1 → 1 hit; B's dice 5 5 5.
        let (log, _, _) = run(&s, &[5, 1, 6, 3, 1, 1, 5, 5, 5], script(&[(0, disarm), (0, Choice::Act(Act::End))]));
        assert_eq!(log.contains(&Event::Disarmed { who: B }), disarmed, "{sets:?} {log:#?}");
    }
    // And the other way round: a deft but weak B (Strength 0, Deftness 3) resisting with
    // Strength rolls no die.
    let weak = setup(&duel(SWORD, &format!("strength = 0\ndeftness = 3{SWORD}")), &[("disarm_resist", "strength")]);
    let (log, _, _) = run(&weak, &[5, 1, 6, 3, 1, 1, 5, 5, 5], script(&[(0, disarm), (0, Choice::Act(Act::End))]));
    assert!(log.contains(&Event::Disarmed { who: B }), "{log:#?}");
}

#[test]
fn under_aim_lost_on_wound_a_wound_takes_no_aim_from_one_without_it_and_protection_is_logged() {
    // rule: P6-AIM-3, P6-DMG-1
    // A hits B (not aiming) twice; B's protection 1 stops one (logged), the other wounds. No
    // aim is lost: B had none.
    let s = setup(&duel(SWORD, "innate_protection = 1\nmax_wounds = 5"), &[("aim_lost_on", "wound")]);
    let (log, state, fought) = run(
        &s,
        &[5, 1, 5, 5, 1],
        script(&[(0, Choice::Act(atk(B, Mode::Melee))), (0, Choice::Act(Act::End)), (1, Choice::Act(Act::End))]),
    );
    fought.unwrap();
    assert!(log.contains(&Event::Protected { who: B, protection: 1, piercing: 0, stopped: 1 }), "{log:#?}");
    assert_eq!(state.fighter(B).wounds, 1);
    assert!(!log.iter().any(|e| matches!(e, Event::AimLost { .. })), "{log:#?}");
}

/// A (Throwing 2, one grenade of 3 hits × 2 wounds) at `a`, B at `b`, C (B's side) at `c`, all
/// holding still, 10 hearts each; `sets` the options.
fn blast_setup(a: &str, b: &str, c: &str, sets: &[(&str, &str)]) -> Setup {
    setup(
        &format!(
            "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n[[combatants]]\nname = \"A\"\nside = \
             \"a\"\nthrowing = 2\nposition = {a}\nmax_wounds = 10\nitems = [{{ name = \"grenade\", hits = 3, \
             wounds_per_hit = 2, count = 1 }}]\npolicy = {{ move = \"hold\" }}\n[[combatants]]\nname = \"B\"\nside = \
             \"b\"\nposition = {b}\nmax_wounds = 10\npolicy = {{ move = \"hold\" }}\n[[combatants]]\nname = \"C\"\nside \
             = \"b\"\nposition = {c}\nmax_wounds = 10\npolicy = {{ move = \"hold\" }}\n"
        ),
        sets,
    )
}

/// A throws at B with `faces` (initiative A 5, B 2, C 1, then the throw's); who the blast wounds.
fn blasted(s: &Setup, faces: &[u32]) -> Vec<CombatantId> {
    let entries = [
        (0, Choice::Act(Act::Throw { item: 0, target: B })),
        (0, Choice::Act(Act::End)),
        (1, Choice::Act(Act::End)),
        (2, Choice::Act(Act::End)),
    ];
    let (log, _, fought) = run(s, faces, script(&entries));
    fought.unwrap();
    log.iter()
        .filter_map(|e| match e {
            Event::Wounded { who, .. } => Some(*who),
            _ => None,
        })
        .collect()
}

#[test]
fn a_deviation_lands_in_the_throwers_frame_and_the_blast_takes_only_who_is_there() {
    // rule: P6-THROW-2, P6-THROW-3, P6-THROW-4
    // A at (3, 0) throws at B at (3, 8): "beyond" is +y, "right" (3 o'clock) is +x. The throw
    // fails (1 1); the d12 and d6 place it.
    let sets: &[(&str, &str)] = &[];
    // 12 o'clock, 3 m: (3, 11), on C; B, 3 m off, is not caught.
    let s = blast_setup("[3, 0]", "[3, 8]", "[3, 11]", sets);
    assert_eq!(blasted(&s, &[5, 2, 1, 1, 1, 12, 3]), [CombatantId(2)]);
    // 3 o'clock, 2 m: (5, 8), on C there.
    let s = blast_setup("[3, 0]", "[3, 8]", "[5, 8]", sets);
    assert_eq!(blasted(&s, &[5, 2, 1, 1, 1, 3, 2]), [CombatantId(2)]);
    // 9 o'clock, 2 m lands at (1, 8): not on C at (5, 8), nor on B.
    assert_eq!(blasted(&s, &[5, 2, 1, 1, 1, 9, 2]), []);
    // `deviation_geometry = line_1d`: only the "beyond" part, along the line of the throw.
    let s = blast_setup("[3, 0]", "[3, 8]", "[3, 11]", &[("deviation_geometry", "line_1d")]);
    assert_eq!(blasted(&s, &[5, 2, 1, 1, 1, 12, 3]), [CombatantId(2)]);
    // A throw that lands (5 5) takes B alone, not C 900 m away nor the thrower.
    let s = blast_setup("0", "8", "900", sets);
    assert_eq!(blasted(&s, &[5, 2, 1, 5, 5]), [B]);
}

#[test]
fn a_poisoned_thrower_throws_at_a_higher_minimum_roll() {
    // rule: P6-COND-5, P6-THROW-1
    // Throwing 2 at 6+ (5 + Poisoned 1): 1 − (5/6)² = 11/36 to land; 5/9 at 5+.
    let s = grenade_duel("poisoned = 1", "never", "", &[]);
    assert_eq!(q(&throw_at_b(&s, true).lands), "11/36");
}

#[test]
fn a_blast_whose_hits_protection_stops_leaves_the_aim_under_aim_lost_on_wound() {
    // rule: P6-AIM-2, P6-AIM-3, P6-DMG-4
    // B (first, Perception 2) aims, then A's grenade lands on him (5 5): 3 hits, all stopped by
    // his protection 3. Under `aim_lost_on = wound` he keeps the aim; under `hit` he loses it.
    let text = "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n[[combatants]]\nname = \"A\"\nside = \
                \"a\"\nthrowing = 2\nposition = 0\nitems = [{ name = \"grenade\", hits = 3, count = 1 }]\npolicy = { \
                move = \"hold\" }\n[[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 8\nperception = 2\narmour = \
                [{ name = \"plate\", protection = 3 }]\npolicy = { move = \"hold\" }\n";
    let entries = [
        (1, Choice::Act(Act::Aim { accurate: false })),
        (1, Choice::Act(Act::End)),
        (0, Choice::Act(Act::Throw { item: 0, target: B })),
        (0, Choice::Act(Act::End)),
    ];
    for (option, lost) in [("wound", false), ("hit", true)] {
        let s = setup(text, &[("aim_lost_on", option)]);
        let (log, state, fought) = run(&s, &[1, 5, 5, 5], script(&entries));
        fought.unwrap();
        assert_eq!(state.fighter(B).wounds, 0);
        assert_eq!(log.contains(&Event::AimLost { who: B }), lost, "{option}: {log:#?}");
        assert_eq!(state.fighter(B).aim, if lost { 0 } else { 1 });
    }
}

#[test]
fn a_blast_wakes_a_sleeper_it_hits_and_no_one_else() {
    // rule: P6-SPECIAL-12, P6-DMG-4, P6-AIM-3
    // The grenade lands on a sleeping B (5 5); C, awake, half a metre off, is caught too. B
    // wakes; C, who was not asleep, gets no waking.
    let mut s = blast_setup("0", "8", "[8, 0.5]", &[]);
    s.combatants[1].sleeping = true;
    let entries = [(0, Choice::Act(Act::Throw { item: 0, target: B })), (0, Choice::Act(Act::End))];
    let (log, state, fought) = run(&s, &[5, 2, 1, 5, 5], script(&entries));
    fought.unwrap();
    assert!(log.contains(&Event::Woke { who: B }), "{log:#?}");
    assert!(!log.contains(&Event::Woke { who: CombatantId(2) }), "{log:#?}");
    assert!(!state.fighter(B).sleeping);
    assert!(log.iter().any(|e| matches!(e, Event::Wounded { who: CombatantId(2), .. })));
    // Under `sleeper_wakes = on_failed_coup_only` the blast leaves him asleep.
    let mut only_coup = blast_setup("0", "8", "[8, 0.5]", &[("sleeper_wakes", "on_failed_coup_only")]);
    only_coup.combatants[1].sleeping = true;
    let (log, state, fought) = run(&only_coup, &[5, 2, 1, 5, 5], script(&entries));
    fought.unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Woke { .. })), "{log:#?}");
    assert!(state.fighter(B).sleeping);
    // Under `aim_lost_on = wound` the wounded lose an aim they hold; C and B held none, so no
    // aim is lost (P6-AIM-3).
    let wound = blast_setup("0", "8", "[8, 0.5]", &[("aim_lost_on", "wound")]);
    let (log, _, fought) = run(&wound, &[5, 2, 1, 5, 5], script(&entries));
    fought.unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Wounded { who: CombatantId(2), .. })));
    assert!(!log.iter().any(|e| matches!(e, Event::AimLost { .. })), "{log:#?}");
}

#[test]
fn only_a_melee_attack_may_be_massive_unless_the_option_says_otherwise() {
    // rule: P6-SPECIAL-6
    let s = setup(&duel(&format!("strength = 2{RIFLE}"), "position = 10"), &[]);
    let massive_shot = Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Single,
        special: Special::Massive(1),
        walk: None,
        from_behind: false,
    };
    assert!(illegal(&s, &ready(&s), A, &massive_shot).is_some());
    let any = setup(&duel(&format!("strength = 2{RIFLE}"), "position = 10"), &[("massive_melee_only", "false")]);
    assert_eq!(illegal(&any, &ready(&any), A, &massive_shot), None);
}

#[test]
fn fists_pierce_one_point_of_protection_from_strength_three() {
    // rule: P6-ATK-5
    for (strength, piercing) in [(2, 0), (3, 1)] {
        let s = setup(&duel(&format!("strength = {strength}"), ""), &[]);
        assert_eq!(s.combatants[0].fists.piercing, piercing, "Strength {strength}");
    }
}

#[test]
fn armour_pieces_add_up_or_the_highest_counts() {
    // rule: P6-DMG-2, P6-DMG-1
    // Innate protection 1, a vest of 1 and a helmet of 2: 1 + 3 summed, 1 + 2 under `highest`.
    let b =
        "innate_protection = 1\narmour = [{ name = \"vest\", protection = 1 }, { name = \"helmet\", protection = 2 }]";
    for (sets, protection) in [(&[][..], 4), (&[("armour_stacking", "highest")][..], 3)] {
        let s = setup(&duel("", b), sets);
        let st = PhaseSix::initial_state(&s);
        assert_eq!(s.combatants[1].protection(&s.options, &st.fighter(B).armour_pct), protection, "{sets:?}");
    }
}

#[test]
fn a_destiny_steal_from_one_holding_kept_actions_takes_one_now_under_saved_first() {
    // rule: P6-RES-3, P6-RES-2
    // B goes first and ends his turn keeping both actions; A then spends a destiny die to steal
    // one. By default it comes off B's next turn; under `destiny_steal = saved_first`, off the
    // two he holds, at once.
    let text = duel("destiny_dice = 1", "");
    let entries = [(1, Choice::Act(Act::End)), (0, Choice::Act(Act::Steal(B))), (0, Choice::Act(Act::End))];
    for (sets, now) in [(&[][..], false), (&[("destiny_steal", "saved_first")][..], true)] {
        let (log, state, fought) = run(&setup(&text, sets), &[1, 5], script(&entries));
        fought.unwrap();
        let (delta, later) = if now { (-1, 0) } else { (0, 1) };
        assert!(
            log.contains(&Event::Actions { who: B, delta, steal_later: later, bonus: 0, destiny: 0 }),
            "{sets:?}: {log:#?}"
        );
        assert_eq!(state.fighter(B).actions, if now { 1 } else { 2 }, "{sets:?}");
    }
}

#[test]
fn shield_block_start_immediately_covers_in_the_round_it_is_raised() {
    // rule: P6-SHLD-2, P6-SHLD-4
    // A raises a round shield (2 actions, cover 5+) as it opens round 1; B then strikes it.
    let text = duel(&format!("shield = {{ name = \"s\", protection = 2 }}{SWORD}"), SWORD);
    let entries =
        [(0, Choice::Act(Act::RaiseShield)), (1, Choice::Act(atk(A, Mode::Melee))), (1, Choice::Act(Act::End))];
    // Initiative: A 5, B 1, so A acts first; then B's hit dice and whatever follows.
    let faces = [5, 1, 5, 5, 5, 1, 1, 1, 1, 1, 1, 1];
    let covers = |sets: &[(&str, &str)]| {
        let (log, _, fought) = run(&setup(&text, sets), &faces, script(&entries));
        fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
        assert!(log.iter().any(|e| matches!(e, Event::AttackRoll { .. })), "{log:#?}");
        log.iter().filter(|e| matches!(e, Event::CoverRoll { .. })).count()
    };
    // By default the block is up from the next round: B's blow meets no cover this round.
    assert_eq!(covers(&[]), 0);
    // `shield_block_start = immediately`: the shield's cover roll meets it at once.
    assert_eq!(covers(&[("shield_block_start", "immediately")]), 1);
}

#[test]
fn the_odds_give_the_defenders_spending_both_ways() {
    // rule: P6-RES-1, P6-RES-4
    // B (two bonus dice, a reroll) buys his reaction and boosts his dodge and cover rolls as his
    // `spend = to_defend` policy does; a person controlling him decides that. The odds give both:
    // the AI's, and a line with nothing spent, which are the odds of the same B with an empty purse.
    let text = |purse: &str| {
        format!(
            "[rules]\nruleset = \"phasesix\"\n[[combatants]]\nname = \"A\"\nside = \"a\"\nquickness = 5\nhand_to_hand = 3\n\
             position = 0\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \"melee\"\ndamage_potential = 1\n\
             [[combatants]]\nname = \"B\"\nside = \"b\"\nquickness = 1\nposition = 1\ncover = 5\ndeftness = 2\n\
             max_wounds = 1\n{purse}policy = {{ move = \"hold\", defend = \"dodge\", spend = \"to_defend\" }}\n"
        )
    };
    let with = odds::attack_odds(&setup(&text("bonus_dice = 2\nrerolls = 1\n"), &[]), "A", "B").unwrap();
    let without = odds::attack_odds(&setup(&text(""), &[]), "A", "B").unwrap();
    assert!(with.down < without.down, "{:#?}", with.assumptions);
    let line = with.assumptions.iter().find(|a| a.starts_with("if B spends nothing")).unwrap();
    assert!(
        line.ends_with(&format!("hit {}, takes B out {}", q(&without.hit), q(&without.down))),
        "{line} {:?}",
        (q(&without.hit), q(&without.down))
    );
    assert!(!without.assumptions.iter().any(|a| a.starts_with("if B spends nothing")));
}

#[test]
fn a_hunkered_dodger_rolls_at_one_more() {
    // rule: P6-COND-6
    // B (hunkered, `defend = dodge`) wins the initiative and keeps its actions; A's fencer hits
    // once (5 1 1 1) and B dodges at 5 + 1 (hunkered) + 1 (the hit) = 7+.
    let text = "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n[[combatants]]\nname = \"Fencer\"\nside = \"a\"\nhand_to_hand = 3\nposition = 0\n[[combatants.weapons]]\nname = \"rapier\"\nclass = \"melee\"\ndamage_potential = 1\n[[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 1\nmax_wounds = 20\nhunkered = true\npolicy = { move = \"hold\", defend = \"dodge\" }\n";
    let swing = script(&[(1, Choice::Act(Act::End)), (0, rapier_on_b()), (0, Choice::Act(Act::End))]);
    let (log, _, fought) = run(&setup(text, &[]), &[1, 5, 5, 1, 1, 1, 5, 1, 1, 1, 1, 1, 1], swing);
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    let dodge = log.iter().find_map(|e| match e {
        Event::Reacted { who: B, reaction: Reaction::Dodge, m, successes, .. } => Some((*m, *successes)),
        _ => None,
    });
    assert_eq!(dodge, Some((7, 0)), "{log:#?}");
}

#[test]
fn a_stabilised_character_wakes_under_awake_only_with_a_boost() {
    // rule: P6-TRACK-7
    let s = setup(&duel("", ""), &[("stabilised_state", "awake")]);
    let mut st = ready(&s);
    st.fighters[1].stabilised = true;
    st.fighters[1].boosts = 0;
    assert!(st.fighter(B).helpless(&s.options));
    st.fighters[1].boosts = 1;
    assert!(!st.fighter(B).helpless(&s.options));
    let fainted = setup(&duel("", ""), &[]);
    assert!(st.fighter(B).helpless(&fainted.options));
}

#[test]
fn the_logs_terms_name_the_fixed_ones_and_saturate_beyond_a_byte() {
    // rule: P6-ATK-3, P6-COND-6
    use fray_rules::phasesix::HitTerms;
    // Bit 2: Hunkered's M + 1, named in M's terms.
    let hunkered = HitTerms::new(1 << 2, [3, 2, 0, 0, 5, 0, 0, 0, 0, 0, 0]);
    assert!(hunkered.m().contains(&("hunkered", 1)));
    assert!(hunkered.m().iter().filter(|(name, _)| *name != "hunkered").all(|&(name, v)| name == "M" || v == 0));
    // A term beyond a byte (a scenario far beyond a stat block) is held at the byte's edge.
    let huge = HitTerms::new(0, [300, -300, 0, 0, 5, 0, 0, 0, 0, 0, 0]);
    assert_eq!(huge.dice("skill")[..2], [("skill", 127), ("DP", -128)]);
}

#[test]
fn the_fights_end_is_read_from_its_event_and_a_roll_with_no_hit_is_a_miss() {
    // Not clauses: the journal's replay reads the end from the `Ended` event; `fray sim` counts
    // an attack roll with neither normal hits nor crits as a miss.
    let result = fray_engine::FightResult { outcome: Outcome::Side(fray_engine::SideId(0)), length: 3 };
    assert_eq!(PhaseSix::ended(&Event::Ended { result }), Some(result));
    assert_eq!(PhaseSix::ended(&Event::Out { who: B }), None);
    // A's rifle: 5 dice at 5+, all 1s: no hit.
    let s = setup(&duel(RIFLE, "position = 10"), &[]);
    let entries = [(0, Choice::Act(atk(B, Mode::Single))), (1, Choice::Act(Act::End))];
    let mut faces = vec![5, 1];
    faces.extend([1; 30]);
    let (log, _, fought) = run(&s, &faces, script(&entries));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    let shot = log.iter().find(|e| matches!(e, Event::AttackRoll { .. })).unwrap();
    assert_eq!(PhaseSix::tally(shot), Some(fray_engine::Tally::Attack { by: A, hit: false, crit: false }));
}

#[test]
fn a_table_decider_still_gives_everyone_their_turns() {
    // Not a clause: a live table's decider may interject a game master's adjustments; with none,
    // the fight is the AI's.
    struct Table;
    impl fray_engine::Decider<PhaseSix> for Table {
        const INTERJECTS: bool = true;
        fn decide(
            &mut self,
            setup: &Setup,
            state: &State,
            who: CombatantId,
            request: &fray_rules::phasesix::Request,
        ) -> Result<Choice, fray_engine::Pending> {
            Ok(policy::ai_choice(setup, state, who, request))
        }
    }
    let s = setup(&duel(SWORD, SWORD), &[]);
    let dice = |seed| fray_engine::FromSource(fray_dice::seeded(seed));
    let mut table = Fight::<PhaseSix, _, _, _>::new(&s, dice(4), Table, Record::default());
    table.run().unwrap();
    let mut ai = Fight::<PhaseSix, _, _, _>::new(&s, dice(4), policy::Ai, Record::default());
    ai.run().unwrap();
    let (table_log, ai_log) = (table.into_parts().1.0, ai.into_parts().1.0);
    assert!(table_log.iter().any(|e| matches!(e, Event::AttackRoll { .. })));
    assert_eq!(table_log, ai_log);
}

#[test]
fn a_shield_cover_minimum_out_of_range_is_refused() {
    // rule: P6-SHLD-4
    let mut o = Options::default();
    for bad in ["1", "7"] {
        assert_eq!(
            o.set("shield_cover_min", bad).unwrap_err(),
            format!("expected a cover value from 2 to 6, found `{bad}`")
        );
    }
    o.set("shield_cover_min", "6").unwrap();
    assert_eq!(o.shield_cover_min, 6);
}

#[test]
fn a_disarmed_two_weapon_fighter_still_strikes_with_the_off_hand_weapon() {
    // rule: P6-SPECIAL-9, P6-ATK-2
    // A's main sword was knocked away; his off-hand blade (DP 2) still counts its DP: 2 + 2 dice.
    let blade = SWORD.replace("\"sword\"", "\"blade\"").replace("damage_potential = 1", "damage_potential = 2");
    let twin = format!("two_weapon_skilled = true\nmain_hand = \"sword\"\noff_hand = \"blade\"{SWORD}{blade}");
    let s = setup(&duel(&twin, ""), &[]);
    let mut st = ready(&s);
    st.fighters[0].armed = false;
    let off = Act::Attack {
        target: B,
        hand: Hand::Off,
        mode: Mode::Melee,
        special: Special::None,
        walk: None,
        from_behind: false,
    };
    assert_eq!(attack_numbers(&s, &st, A, &off).0, 4);
}

#[test]
fn a_massive_attack_under_total_dice_caps_the_whole_pool() {
    // rule: P6-SPECIAL-6
    // A's club (Hand-to-hand 2 + DP 1 = 3 dice), two extra actions: 3 + 6 = 9 dice with Strength
    // 10; Strength 5 caps the pool at 5.
    let club = |strength: i32| {
        format!(
            "strength = {strength}\n[[combatants.weapons]]\nname = \"club\"\nclass = \"melee\"\ndamage_potential = 1\nblunt = true\n"
        )
    };
    let massive = Act::Attack {
        target: B,
        hand: Hand::Main,
        mode: Mode::Melee,
        special: Special::Massive(2),
        walk: None,
        from_behind: false,
    };
    let dice = |strength: i32| {
        let s = setup(&duel(&club(strength), ""), &[("massive_cap", "total_dice")]);
        let mut st = ready(&s);
        st.fighters[0].actions = 3;
        attack_numbers(&s, &st, A, &massive).0
    };
    assert_eq!((dice(10), dice(5)), (9, 5));
}

#[test]
fn the_logs_m_terms_add_up_with_accurate_points() {
    // rule: P6-SPECIAL-1, P6-ATK-3
    // A spends an action on an accurate-attack point, then strikes: M 5 − 1 = 4, the log's M
    // terms M 5 and accurate −1, no floor.
    let s = setup(&duel(SWORD, ""), &[]);
    let turn = script(&[
        (0, Choice::Act(Act::Aim { accurate: true })),
        (0, Choice::Act(atk(B, Mode::Melee))),
        (0, Choice::Act(Act::End)),
        (1, Choice::Act(Act::End)),
    ]);
    let (log, _, fought) = run(&s, &[5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], turn);
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    let (m, terms) = log
        .iter()
        .find_map(|e| match e {
            Event::AttackRoll { attacker: A, m, terms, .. } => Some((*m, *terms)),
            _ => None,
        })
        .unwrap();
    assert_eq!(m, 4);
    let named: Vec<(&str, i32)> = terms.m().into_iter().filter(|(_, v)| *v != 0).collect();
    assert_eq!(named, [("M", 5), ("accurate", -1)]);
}

#[test]
fn a_destiny_die_rolled_apart_on_a_cover_roll_succeeds_at_four() {
    // rule: P6-RES-2, P6-COVER-3
    // A's rifle: 6 5 (a crit, 11) and four 1s. B in 5+ cover rolls a 1 for the crit, then
    // spends his destiny die, rolled apart: a 4 succeeds (at 4+ whatever the cover), and the crit
    // is gone.
    let s = setup(&duel(RIFLE, "position = 10\ncover = 5\ndestiny_dice = 1"), &[]);
    let entries = [
        (0, Choice::Act(atk(B, Mode::Single))),
        (1, Choice::Boost(Some(fray_rules::phasesix::Boost::DestinyDie))),
        (0, Choice::Act(Act::End)),
        (1, Choice::Act(Act::End)),
    ];
    let (log, state, fought) = run(&s, &[5, 1, 6, 5, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1], script(&entries));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert!(log.iter().any(|e| matches!(e, Event::CoverRoll { crits_removed: 1, .. })), "{log:#?}");
    assert_eq!(state.fighter(B).wounds, 0, "{log:#?}");
}

#[test]
fn first_aid_on_one_not_bleeding_stops_no_bleeding() {
    // rule: P6-TRACK-7, P6-COND-2
    // A's first aid on B (wounded, not dying) succeeds: B gains a boost; a Bleeding B stops
    // bleeding as well, and only then is a Bleeding change logged.
    let medic = |b: &str| {
        duel("first_aid = 3", &format!("wounds = 2{b}"))
            + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 500\npolicy = { move = \"hold\" }\n"
    };
    let aid = || script(&[(0, Choice::Act(Act::FirstAid(B))), (0, Choice::Act(Act::End)), (1, Choice::Act(Act::End))]);
    let bleeding_logged =
        |log: &[Event]| log.iter().any(|e| matches!(e, Event::Condition { who: B, cond: Cond::Bleeding, .. }));
    let (log, _, fought) = run(&setup(&medic(""), &[]), &[5, 1, 1, 5, 1, 5, 1, 1, 1, 1, 1, 1], aid());
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert!(log.contains(&Event::Boosted { who: B }), "{log:#?}");
    assert!(!bleeding_logged(&log), "{log:#?}");
    // (Bleeding, B makes an endurance check at the round's start first: 5.)
    let faces = [5, 1, 1, 5, 1, 5, 5, 1, 1, 1, 1, 1, 1];
    let (log, state, fought) = run(&setup(&medic("\nbleeding = 2"), &[]), &faces, aid());
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert!(bleeding_logged(&log), "{log:#?}");
    assert_eq!(state.fighter(B).condition(Cond::Bleeding), 0);
}

#[test]
fn evasion_takes_its_modifier_and_a_minimum_roll_stays_in_range() {
    // rule: P6-DEF-1
    // Quickness 2, Deftness 2: ⌈4 / 2⌉ = 2, + `evasion_mod` 1 = 3.
    let s = setup(&duel("quickness = 2\ndeftness = 2\nevasion_mod = 1", ""), &[]);
    assert_eq!(s.combatants[0].evasion(), 3);
    assert_eq!(s.combatants[0].derived.evasion, 3);
    // A minimum roll from 2 to 30.
    setup(&duel("min_roll = 30", ""), &[]);
    for bad in ["1", "31"] {
        let sets: Vec<(String, String)> = Vec::new();
        let e = scenario::load("t.toml", &duel(&format!("min_roll = {bad}"), ""), &sets).map(|_| ()).expect_err(bad);
        assert!(e.to_string().contains("expected a minimum roll from 2 to 30"), "{bad}: {e}");
    }
}

/// A (Hand-to-hand 2, always second) with `a` lines and a blunt club (damage potential 0: two
/// hit dice), B (always first, 20 hearts) with `b` lines, 1 m apart; round cap 1.
fn specials_duel(a: &str, b: &str, sets: &[(&str, &str)]) -> Setup {
    specials_duel_club(a, "", b, sets)
}

/// [`specials_duel`] with `club` lines on the club.
fn specials_duel_club(a: &str, club: &str, b: &str, sets: &[(&str, &str)]) -> Setup {
    setup(
        &format!(
            "[rules]\nruleset = \"phasesix\"\n[rules.options]\nround_cap = 1\n[[combatants]]\nname = \"A\"\nside = \
             \"a\"\n{}quickness = -20\nposition = 0\n{a}\n[[combatants.weapons]]\nname = \"club\"\nclass \
             = \"melee\"\ndamage_potential = 0\nblunt = true\n{club}\n[[combatants]]\nname = \"B\"\nside = \"b\"\nquickness = \
             20\nposition = 1\nmax_wounds = 20\n{b}\n",
            if a.contains("hand_to_hand") { "" } else { "hand_to_hand = 2\n" }
        ),
        sets,
    )
}

fn special(special: Special) -> Act {
    Act::Attack { target: B, hand: Hand::Main, mode: Mode::Melee, special, walk: None, from_behind: false }
}

/// What sampled fights of one special attack saw.
#[derive(Debug, Default)]
struct SpecialSeen {
    fights: u32,
    hits: u32,
    /// B knocked out or killed by the attack.
    down: u32,
    disarmed: u32,
}

/// The state an attack is made in, without the initiative scores rolled for the order.
fn without_scores(state: &State) -> State {
    let mut st = state.clone();
    for x in &mut st.fighters {
        x.init = 0;
    }
    st
}

/// A's `act` on B, played in `n` seeded fights: everyone else's turn ended at once (B keeping its
/// actions for reactions), every other decision the AI's (reactions, boosts), each fight stopped
/// once the attack is over (and not counted where the attack cannot be made). The fights are
/// grouped by the state the attack was made in (the round's start checks may change it): each
/// group's exact odds in that state, and what its fights saw.
fn special_sampled(s: &Setup, act: Act, n: u64) -> Vec<(odds::Odds, SpecialSeen)> {
    struct Play<'a> {
        act: Act,
        made: bool,
        groups: &'a mut Vec<(State, odds::Odds, SpecialSeen)>,
        group: &'a std::cell::Cell<Option<usize>>,
    }
    impl fray_engine::Decider<PhaseSix> for Play<'_> {
        fn decide(
            &mut self,
            setup: &Setup,
            state: &State,
            who: CombatantId,
            request: &fray_rules::phasesix::Request,
        ) -> Result<Choice, fray_engine::Pending> {
            match request {
                fray_rules::phasesix::Request::Act { .. } if self.made => Err(fray_engine::Pending),
                fray_rules::phasesix::Request::Act { .. } if who == A => {
                    self.made = true;
                    if policy::illegal(setup, state, A, &self.act).is_some() {
                        return Err(fray_engine::Pending);
                    }
                    let key = without_scores(state);
                    let i = match self.groups.iter().position(|g| g.0 == key) {
                        Some(i) => i,
                        None => {
                            let odds = odds::odds_of(setup, state, A, &self.act).unwrap();
                            self.groups.push((key, odds, SpecialSeen::default()));
                            assert!(self.groups.len() <= 8, "too many opening states");
                            self.groups.len() - 1
                        }
                    };
                    self.group.set(Some(i));
                    Ok(Choice::Act(self.act))
                }
                fray_rules::phasesix::Request::Act { .. } => Ok(Choice::Act(Act::End)),
                _ => Ok(policy::ai_choice(setup, state, who, request)),
            }
        }
    }
    let mut groups = Vec::new();
    let group = std::cell::Cell::new(None);
    for seed in 0..n {
        group.set(None);
        let play = Play { act, made: false, groups: &mut groups, group: &group };
        let mut fight = Fight::<PhaseSix, _, _, _>::new(
            s,
            fray_engine::FromSource(fray_dice::seeded(seed)),
            play,
            Record::default(),
        );
        match fight.run() {
            Err(FightError::Pending(_)) | Ok(_) => {}
            Err(e) => panic!("{e}"),
        }
        let (_, record) = fight.into_parts();
        let log = record.0;
        let Some(i) = group.get() else { continue };
        let hit = log.iter().find_map(|e| match e {
            Event::AttackRoll { attacker: A, normals, crits, .. } => Some(*normals > 0 || !crits.is_empty()),
            _ => None,
        });
        let Some(hit) = hit else { panic!("the attack was not rolled: {log:#?}") };
        // What the attack did: the events from its roll on (the round's start checks before it
        // may change B too).
        let from = log.iter().position(|e| matches!(e, Event::AttackRoll { attacker: A, .. })).unwrap_or(0);
        let log = &log[from..];
        let seen = &mut groups[i].2;
        seen.fights += 1;
        seen.hits += u32::from(hit);
        seen.down += u32::from(log.iter().any(|e| {
            matches!(e, Event::Condition { who: B, cond: Cond::Unconscious, value } if *value > 0)
                || matches!(e, Event::Died { who: B })
        }));
        seen.disarmed += u32::from(log.iter().any(|e| matches!(e, Event::Disarmed { who: B })));
    }
    groups.into_iter().map(|(_, o, seen)| (o, seen)).collect()
}
/// The exact odds of a special attack against what the fight plays, in every opening state of
/// 500 fights or more: hit, down and disarms each within 5 standard deviations (and 0.002) of the
/// fights' frequency. Returns the odds of the most frequent state.
fn special_agrees(s: &Setup, act: Act, n: u64) -> odds::Odds {
    let groups = special_sampled(s, act, n);
    let mut checked = 0;
    for (o, seen) in groups.iter().filter(|(_, seen)| seen.fights >= 500) {
        checked += seen.fights;
        for (what, p, k) in
            [("hit", &o.hit, seen.hits), ("down", &o.down, seen.down), ("disarms", &o.disarms, seen.disarmed)]
        {
            let p = p.to_f64().unwrap();
            let f = f64::from(k) / f64::from(seen.fights);
            let sigma = (p * (1.0 - p) / f64::from(seen.fights)).sqrt();
            assert!((p - f).abs() <= 5.0 * sigma + 2e-3, "{act:?} {what}: exact {p}, seen {f} ({seen:?})");
        }
    }
    // Nine made attacks in ten, in states of 500 fights or more, and a quarter of the fights.
    let made: u32 = groups.iter().map(|(_, seen)| seen.fights).sum();
    assert!(
        checked * 10 >= made * 9 && u64::from(checked) * 4 >= n,
        "too few fights checked: {checked} of {made}, {n}"
    );
    groups.into_iter().max_by_key(|(_, seen)| seen.fights).unwrap().0
}

#[test]
fn the_odds_of_a_ko_attack_are_its_knock_out_as_the_fight_plays_it() {
    // rule: P6-SPECIAL-3, P6-SPECIAL-4, P6-DICE-5
    // A's two hit dice at 5+ (1/3 each) leave B, who never defends, one hit with 4/9 and two with
    // 1/9. B's Resistance check (one die at 5+) stops one hit with 1/3, two only with a die of 11+
    // (two successes, 1/18): knocked out with 4/9 · 2/3 + 1/9 · 17/18 = 65/162. Under
    // `check_crit_successes = off` a die is one success at most: 4/9 · 2/3 + 1/9 = 11/27. A K.O.
    // causes no wounds.
    let b = "resistance = 1\npolicy = { move = \"hold\", defend = \"never\" }";
    let ko = special(Special::Ko);
    let o = special_agrees(&specials_duel("", b, &[]), ko, 20_000);
    assert_eq!((q(&o.hit), q(&o.down), q(&o.disarms)), ("5/9".to_owned(), "65/162".to_owned(), "0/1".to_owned()));
    assert_eq!(o.wounds.keys().collect::<Vec<_>>(), [&0]);
    // Under `ko_depth = hits` (Unconscious by the hits, not the margin) the same odds, and the
    // fight plays them: as many successes as hits still resist.
    let depth = special_agrees(&specials_duel("", b, &[("ko_depth", "hits")]), ko, 20_000);
    assert_eq!(q(&depth.down), "65/162");
    let no_crits = specials_duel("", b, &[("check_crit_successes", "off")]);
    assert_eq!(q(&odds::odds_of(&no_crits, &ready(&no_crits), A, &ko).unwrap().down), "11/27");
    // Three hit dice: three hits (1/27) need three successes of one die, 17+ (1/108): knocked
    // out with 12/27 · 2/3 + 6/27 · 17/18 + 1/27 · 107/108 = 1583/2916.
    let three = specials_duel("hand_to_hand = 3", b, &[]);
    assert_eq!(q(&odds::odds_of(&three, &ready(&three), A, &ko).unwrap().down), "1583/2916");
    // Protection takes normal hits before the check: with protection 1 (and no crit) one hit is
    // nothing left, two are one.
    let armoured = specials_duel("", &format!("{b}\narmour = [{{ name = \"vest\", protection = 1 }}]"), &[]);
    let plain = odds::odds_of(&armoured, &ready(&armoured), A, &ko).unwrap();
    assert!(plain.down < o.down, "{plain:?}");
    special_agrees(&armoured, ko, 20_000);
}

#[test]
fn the_odds_of_a_ko_attack_follow_the_defence_the_cover_and_what_the_target_spends_on_his_check() {
    // rule: P6-SPECIAL-3, P6-RES-4, P6-COVER-1, P6-DEF-2
    // B stands behind 5+ cover and under `spend = always` spends his bonus die and reroll on any
    // roll with no success, the K.O. check included, with what the cover rolls left him. The
    // odds follow it, and the fight plays them; a dodge (Deftness 2) before the cover too.
    let b = |spend: &str, defend: &str| {
        format!(
            "resistance = 1\ndeftness = 2\ncover = 5\nbonus_dice = 1\nrerolls = 1\npolicy = {{ move = \"hold\", defend = \
             \"{defend}\", spend = \"{spend}\" }}"
        )
    };
    let a = "hand_to_hand = 4";
    let ko = special(Special::Ko);
    let always = special_agrees(&specials_duel(a, &b("always", "never"), &[]), ko, 20_000);
    let to_defend = special_agrees(&specials_duel(a, &b("to_defend", "never"), &[]), ko, 20_000);
    // Under `to_defend` nothing is spent on the check: B is knocked out more often.
    assert!(always.down < to_defend.down, "{always:?} {to_defend:?}");
    special_agrees(&specials_duel(a, &b("always", "dodge"), &[]), ko, 20_000);
}

#[test]
fn the_odds_of_a_disarm_are_the_targets_check_against_the_hits_at_the_stage_the_option_names() {
    // rule: P6-SPECIAL-7, P6-SPECIAL-8
    // M + 3: A's two hit dice at 8+ (5/36 each). B resists with the better of Strength and
    // Deftness (one die at 5+): disarmed with 2 · 5/36 · 31/36 · 2/3 + (5/36)² · 17/18 =
    // 4145/23328. Under `disarm_resist = strength` with Strength 0 B rolls no die: every hit
    // disarms, 1 − (31/36)² = 335/1296. A B with no weapon is never disarmed.
    let b = format!("strength = 0\ndeftness = 1\npolicy = {{ move = \"hold\", defend = \"never\" }}{SWORD}");
    let disarm = special(Special::Disarm);
    let o = special_agrees(&specials_duel("", &b, &[]), disarm, 20_000);
    assert_eq!((q(&o.disarms), q(&o.down)), ("4145/23328".to_owned(), "0/1".to_owned()));
    let strength = specials_duel("", &b, &[("disarm_resist", "strength")]);
    assert_eq!(q(&odds::odds_of(&strength, &ready(&strength), A, &disarm).unwrap().disarms), "335/1296");
    let unarmed = specials_duel("", "deftness = 1\npolicy = { move = \"hold\", defend = \"never\" }", &[]);
    assert_eq!(q(&odds::odds_of(&unarmed, &ready(&unarmed), A, &disarm).unwrap().disarms), "0/1");
    // B dodging behind 5+ cover in armour: the hits counted raw, after the cover, or after
    // protection give three different odds, each as the fight plays it.
    let guarded = format!(
        "strength = 1\ndeftness = 2\ncover = 5\narmour = [{{ name = \"vest\", protection = 1 }}]\npolicy = {{ move = \
         \"hold\", defend = \"dodge\" }}{SWORD}"
    );
    let mut seen = Vec::new();
    for stage in ["raw", "after_cover", "after_protection"] {
        let s = specials_duel("hand_to_hand = 5", &guarded, &[("disarm_hits_stage", stage)]);
        seen.push(q(&special_agrees(&s, disarm, 20_000).disarms));
    }
    assert!(seen[0] != seen[1] && seen[1] != seen[2], "{seen:?}");
}

#[test]
fn the_odds_of_a_coup_de_grace_are_its_successes_killing_the_helpless_target() {
    // rule: P6-SPECIAL-11, P6-SPECIAL-12, P6-TRACK-5
    // B lies Dying 5: any success of A's two dice at 5+ kills him, 1 − (2/3)² = 5/9. Unconscious,
    // he dies only under `coup_de_grace = dead` (5/9), not by Dying raised by 2 at most (0). C,
    // far off, keeps the fight going.
    let coup = special(Special::Coup);
    let dying = specials_duel("", &format!("dying = 5{C_FAR}"), &[]);
    let o = special_agrees(&dying, coup, 20_000);
    assert_eq!((q(&o.hit), q(&o.down)), ("5/9".to_owned(), "5/9".to_owned()));
    let out = specials_duel("", &format!("unconscious = 1{C_FAR}"), &[]);
    assert_eq!(q(&special_agrees(&out, coup, 5_000).down), "0/1");
    let dead = specials_duel("", &format!("unconscious = 1{C_FAR}"), &[("coup_de_grace", "dead")]);
    assert_eq!(q(&special_agrees(&dead, coup, 5_000).down), "5/9");
    // Under `dying_plus_wounds` a Dying target gains the attack's wounds: 2 per success with a
    // weapon of 2 wounds per hit, so Dying 2 dies of two successes, or of one crit of level 2.
    let heavy = specials_duel_club(
        "",
        "wounds_per_hit = 2",
        &format!("dying = 2{C_FAR}"),
        &[("coup_de_grace", "dying_plus_wounds")],
    );
    let o = special_agrees(&heavy, coup, 20_000);
    assert!(o.down > BigRational::zero() && o.down < o.hit, "{o:?}");
    // From Dying 2: two successes (1/9) kill, and one success only as a crit of level 2 or more
    // (23+: 1/648), whose levels add: 1/9 + 2 · 1/648 · 2/3 = 55/486.
    assert_eq!(q(&odds::odds_of(&heavy, &ready(&heavy), A, &coup).unwrap().down), "55/486");
    // A target not yet Dying gains Dying by the successes alone: four dice never kill.
    let four = specials_duel_club(
        "hand_to_hand = 4",
        "wounds_per_hit = 2",
        &format!("unconscious = 1{C_FAR}"),
        &[("coup_de_grace", "dying_plus_wounds")],
    );
    assert_eq!(q(&special_agrees(&four, coup, 5_000).down), "0/1");
}

#[test]
fn a_persons_menu_gives_the_odds_of_a_ko_attack_a_disarm_and_a_coup() {
    // rule: P6-SPECIAL-3, P6-SPECIAL-7, P6-SPECIAL-11
    use fray_rules::Prompts;
    let label = |s: &Setup, st: &State, act: Act| {
        let scenario = fray_rules::phasesix::PhaseSixScenario(s.clone());
        let request = fray_rules::phasesix::Request::Act { actions: 2 };
        let ai = policy::ai_choice(s, st, A, &request);
        let (_, choices) = fray_rules::building_prompt(true, || scenario.prompt(st, A, &request, &ai));
        choices.into_iter().find(|(_, c)| *c == Choice::Act(act)).map(|(l, _)| l).unwrap()
    };
    // 65/162 ≈ 40.1 %, 4145/23328 ≈ 17.8 %.
    let b = format!(
        "resistance = 1\nstrength = 0\ndeftness = 1\npolicy = {{ move = \"hold\", defend = \"never\" }}{SWORD}"
    );
    let s = specials_duel("", &b, &[]);
    let ko = label(&s, &ready(&s), special(Special::Ko));
    assert!(ko.ends_with("— ≥ 1 hit 55.6%, knocks the target out 40.1%"), "{ko}");
    let disarm = label(&s, &ready(&s), special(Special::Disarm));
    assert!(disarm.ends_with("disarms the target 17.8%"), "{disarm}");
    let dying = specials_duel("", &format!("dying = 5{C_FAR}"), &[]);
    let coup = label(&dying, &ready(&dying), special(Special::Coup));
    assert!(coup.ends_with("— ≥ 1 success 55.6%, kills the target 55.6%"), "{coup}");
}

#[test]
fn the_odds_of_a_ko_attack_or_a_disarm_take_the_targets_conditions_into_his_check() {
    // rule: P6-SPECIAL-3, P6-SPECIAL-8, P6-COND-3, P6-COND-5
    // Poisoned 1, B checks at 6+ (1/6; two successes still at 11+, 1/18): knocked out with
    // 4/9 · 5/6 + 1/9 · 17/18 = 77/162. Shocked 1 takes a die off his check: a Shocked B of
    // Resistance 2 is a B of Resistance 1; a Shocked B of Strength 2 resists a disarm as one of
    // Strength 1. Hunkered, he checks at 6+ too (and rolls a 6+ cover roll): as the fight plays it.
    let never = "policy = { move = \"hold\", defend = \"never\" }";
    let ko = special(Special::Ko);
    let down = |b: &str| {
        let s = specials_duel("", &format!("{never}\n{b}"), &[]);
        q(&odds::odds_of(&s, &ready(&s), A, &ko).unwrap().down)
    };
    assert_eq!(down("resistance = 1\npoisoned = 1"), "77/162");
    assert_eq!(down("resistance = 2\nshocked = 1"), down("resistance = 1"));
    assert_ne!(down("resistance = 2"), down("resistance = 1"));
    special_agrees(&specials_duel("", &format!("{never}\nresistance = 1\nhunkered = true"), &[]), ko, 20_000);
    let disarms = |b: &str, sets: &[(&str, &str)]| {
        let s = specials_duel("", &format!("{never}\n{b}{SWORD}"), sets);
        q(&odds::odds_of(&s, &ready(&s), A, &special(Special::Disarm)).unwrap().disarms)
    };
    assert_eq!(disarms("strength = 2\nshocked = 1", &[]), disarms("strength = 1", &[]));
    assert_ne!(disarms("strength = 2", &[]), disarms("strength = 1", &[]));
    // Under `disarm_resist = deftness` a strong but clumsy B (Strength 3, Deftness 0) rolls no
    // die: every hit disarms, 1 − (31/36)² = 335/1296.
    assert_eq!(disarms("strength = 3\ndeftness = 0", &[("disarm_resist", "deftness")]), "335/1296");
}

#[test]
fn a_ko_check_counts_the_crits_left_alike_whichever_the_cover_stops() {
    // rule: P6-SPECIAL-3, P6-DEF-5, P6-COVER-3
    // B parries (crit successes take the highest crits first, `parry_vs_crits = crit_successes`)
    // and rolls 5+ cover. Which crits his cover roll stops (`cover_crit_removal`) decides the
    // wounds, but a K.O. check counts the hits left, not which: the odds are the same under
    // `roll_order` (followed place by place after a crit parry) as under `highest_first`, and
    // the fight plays them.
    let b = format!(
        "resistance = 1\ncover = 5\nhand_to_hand = 3\npolicy = {{ move = \"hold\", defend = \"parry\" }}{SWORD}"
    );
    let ko = special(Special::Ko);
    let odds_under = |removal: &str| {
        let s = specials_duel(
            "hand_to_hand = 5",
            &b,
            &[("parry_vs_crits", "crit_successes"), ("cover_crit_removal", removal)],
        );
        odds::odds_of(&s, &ready(&s), A, &ko).unwrap().down
    };
    assert_eq!(odds_under("roll_order"), odds_under("highest_first"));
    let s = specials_duel(
        "hand_to_hand = 5",
        &b,
        &[("parry_vs_crits", "crit_successes"), ("cover_crit_removal", "roll_order")],
    );
    special_agrees(&s, ko, 20_000);
}

#[test]
fn round_start_checks_with_successes_lower_shocked_and_stop_the_bleeding() {
    // rule: P6-COND-2, P6-COND-4, P6-COND-7
    // B, Shocked 1 and Bleeding 1 with Endurance 3: the Shocked check (3 − 1 = 2 dice at 5+:
    // 5, 5) has two successes and ends it; the Bleeding check (3 dice now: 5, 1, 1) has one, so
    // no wound.
    let text = format!("{}{C_FAR}", duel("", "shocked = 1\nbleeding = 1\nendurance = 3\nposition = 500"));
    let s = setup(&text, &[]);
    let ends = [(0, Choice::Act(Act::End)), (1, Choice::Act(Act::End)), (2, Choice::Act(Act::End))];
    let (log, state, fought) = run(&s, &[5, 1, 3, 5, 5, 5, 1, 1], script(&ends));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert!(log.contains(&Event::Condition { who: B, cond: Cond::Shocked, value: 0 }), "{log:#?}");
    assert_eq!((state.fighter(B).condition(Cond::Shocked), state.fighter(B).wounds), (0, 0), "{log:#?}");
    assert_eq!(state.fighter(B).condition(Cond::Bleeding), 1);
}

#[test]
fn a_burning_parrier_parries_at_a_higher_minimum_roll() {
    // rule: P6-COND-3, P6-DEF-4
    // As in the parry of `reactions_only_by_the_target_and_not_from_behind`, but B burns (Burning 1): his parry
    // is at 6+, and his 5 1 1 parries nothing: both hits wound.
    let text = duel(SWORD, &format!("perception = 1\nburning = 1{SWORD}"));
    let s = setup(&text, &[]);
    let (log, state, fought) = run(&s, &[1, 5, 5, 5, 1, 5, 1, 1], b_parries(atk(B, Mode::Melee)));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    assert!(
        log.iter().any(|e| matches!(e, Event::Reacted { who: B, reaction: Reaction::Parry, m: 6, successes: 0, .. })),
        "{log:#?}"
    );
    assert_eq!(state.fighter(B).wounds, 2);
}

#[test]
fn a_shocked_first_aider_rolls_fewer_dice() {
    // rule: P6-COND-2, P6-TRACK-6
    // Shocked 1 takes a die off every roll of A's, first aid included: First aid 3, 2 dice.
    let medic = duel("first_aid = 3\nshocked = 1", "dying = 2\nwounds = 6")
        + "\n[[combatants]]\nname = \"C\"\nside = \"b\"\nposition = 500\npolicy = { move = \"hold\" }\n";
    let m = setup(&medic, &[]);
    let mut faces = vec![5, 1, 2];
    faces.extend([5; 30]);
    let (log, _, fought) = run(&m, &faces, script(&[(0, Choice::Act(Act::FirstAid(B))), (0, Choice::Act(Act::End))]));
    fought.unwrap_or_else(|e| panic!("{e}: {log:#?}"));
    let dice = log.iter().find_map(|e| match e {
        Event::Check { who: A, what: "first aid", dice, .. } => Some(*dice),
        _ => None,
    });
    assert_eq!(dice, Some(2), "{log:#?}");
}
