//! `opend6` odds in context: the catalogue's reference numbers, a cross-check against the dice
//! language's exact engine, and a check against sampled fights.

use fray_dice::{BigRational, Event as DiceEvent, Options as DiceOptions, Program, fraction};
use fray_engine::{Fight, FnSink, Ruleset};
use fray_rules::Scenario;
use fray_rules::opend6::odds::{self, Inputs};
use fray_rules::opend6::options::Options;
use fray_rules::opend6::roll::OneReads;
use fray_rules::opend6::setup::{DieCode, Level};
use fray_rules::opend6::{Event, OpenD6, OpenD6Scenario, scenario};
use num_traits::ToPrimitive;

fn hit_for_sure(damage: DieCode, resistance: DieCode) -> Inputs {
    Inputs {
        attack: DieCode::new(0, 100),
        defence: None,
        base: 10,
        mods: 0,
        mod_dice: Vec::new(),
        damage,
        fixed: 0,
        bonus: false,
        resistance,
        stun: false,
        knockout: false,
        level: Level::Healthy,
        bp: 0,
        bp_max: 0,
        bp_roll: None,
        stay_up: DieCode::new(3, 0),
        stay_up_difficulty: 15,
        unconscious: false,
        no_injury: false,
        interrupt: None,
        attack_cp: None,
        defender_cp: (0, 0),
    }
}

fn f(p: &BigRational) -> f64 {
    p.to_f64().unwrap()
}

fn level_p(odds: &odds::Odds, level: Option<Level>) -> f64 {
    odds.levels.iter().find(|(l, _)| *l == level).map_or(0.0, |(_, p)| f(p))
}

#[test]
fn one_hit_of_4d_against_3d() {
    // rule: OD6-DMG-7, OD6-DMG-9, OD6-DICE-6
    let inputs = hit_for_sure(DieCode::new(4, 0), DieCode::new(3, 0));
    let no_kb = Options { killing_blow: false, ..Options::default() };
    let odds = odds::compute(&no_kb, &inputs);
    let table = [
        (None, 0.3375),
        (Some(Level::Stunned), 0.1651),
        (Some(Level::Wounded), 0.2552),
        (Some(Level::Incapacitated), 0.1329),
        (Some(Level::MortallyWounded), 0.0589),
        (Some(Level::Dead), 0.0505),
    ];
    for (level, p) in table {
        assert!((level_p(&odds, level) - p).abs() < 5e-5, "{level:?}: {} vs {p}", level_p(&odds, level));
    }
    // With the killing blow, a single hit kills a Healthy target 0.109371 of the time.
    let kb = odds::compute(&Options::default(), &inputs);
    assert!((level_p(&kb, Some(Level::Dead)) - 0.109371).abs() < 5e-7);
    assert!(f(&kb.residual) < 1e-30);
    // Under `complication` (both rolls).
    let complication = Options { killing_blow: false, cancel_highest: false, ..Options::default() };
    let odds = odds::compute(&complication, &inputs);
    let table = [
        (None, 0.2917),
        (Some(Level::Stunned), 0.2083),
        (Some(Level::Wounded), 0.3167),
        (Some(Level::Incapacitated), 0.1228),
        (Some(Level::MortallyWounded), 0.0357),
        (Some(Level::Dead), 0.0248),
    ];
    for (level, p) in table {
        assert!((level_p(&odds, level) - p).abs() < 5e-5, "complication {level:?}");
    }
}

#[test]
fn single_roll_events_are_exact() {
    // rule: OD6-TRACK-6, OD6-DICE-4, OD6-DICE-5, OD6-RES-1
    let stay = |code| fraction(&odds::code_dist(code, OneReads::Cancel).at_least(15));
    assert_eq!(stay(DieCode::new(3, 0)), "221/1296");
    assert_eq!(stay(DieCode::new(3, 1)), "301/1296");
    assert_eq!(fraction(&odds::code_dist(DieCode::new(1, 0), OneReads::Cancel).at_least(5)), "1/3");
    // P(2D totals 0) = 1/6 under cancel_highest, 0 under complication; P(3D < 2) = 11/216.
    let two = odds::code_dist(DieCode::new(2, 0), OneReads::Cancel);
    assert_eq!(fraction(&(BigRational::from_integer(1.into()) - two.at_least(1))), "1/6");
    assert_eq!(fraction(&odds::code_dist(DieCode::new(2, 0), OneReads::Complication).at_least(1)), "1/1");
    let three = odds::code_dist(DieCode::new(3, 0), OneReads::Cancel);
    assert_eq!(fraction(&(BigRational::from_integer(1.into()) - three.at_least(2))), "11/216");
}

#[test]
fn code_distributions_agree_with_the_dice_language() {
    // rule: OD6-DICE-3, OD6-DICE-5
    for (dice, pips) in [(1, 0), (2, 0), (3, 1), (4, 2), (5, 0), (6, -1)] {
        for (one, suffix) in [(OneReads::Cancel, ""), (OneReads::Complication, "c")] {
            let ours = odds::code_dist(DieCode::new(dice, pips), one);
            let expr = format!("{dice}D{suffix} + {pips}");
            let program = Program::parse(&expr).unwrap();
            for t in (pips - 2)..(dice * 6 + 25) {
                let theirs = program.probability(DiceEvent::AtLeast(t.into()), &DiceOptions::default()).unwrap();
                assert_eq!(ours.at_least(t), theirs.p, "{expr} ≥ {t}");
            }
        }
    }
}

fn load(name: &str) -> fray_rules::opend6::Setup {
    let path = format!("{}/../../examples/opend6/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    scenario::load(&path, &text, &[]).unwrap()
}

#[test]
fn odds_in_context_reference_shots() {
    // rule: OD6-ATK-1, OD6-DIFF-1, OD6-MOVE-3
    // Firearms 4D against passive 10 at Short range: 511/648; at Medium: 1753/3888.
    let text = |d: i32| {
        format!(
            r#"
[rules]
ruleset = "opend6"
[[combatants]]
name = "A"
side = "a"
skills = {{ firearms = "4D" }}
[[combatants.weapons]]
name = "pistol"
skill = "firearms"
damage = "4D"
ranges = [10, 30, 120]
[[combatants]]
name = "B"
side = "b"
position = {d}
"#
        )
    };
    for (d, hit) in [(8, "511/648"), (20, "1753/3888")] {
        let setup = scenario::load("t.toml", &text(d), &[]).unwrap();
        let odds = OpenD6Scenario(setup).attack_odds("A", "B").unwrap();
        assert_eq!(fraction(&odds.hit), hit, "at {d} m");
        let total: BigRational = odds.damage_given_hit.iter().map(|(_, _, p)| p.clone()).sum();
        assert_eq!(fraction(&total), "1/1");
    }
}

#[test]
fn odds_in_context_agree_with_sampled_fights() {
    // rule: OD6-ATK-2, OD6-DMG-6
    // The hunter's first shot at the smuggler, when the hunter acts first: the odds' hit chance
    // and wound levels against 40,000 seeded fights, within four standard errors.
    let setup = load("blaster-duel");
    let odds = OpenD6Scenario(setup.clone()).attack_odds("Hunter", "Smuggler").unwrap();
    let hunter = fray_engine::CombatantId(1);
    let (mut n, mut hits) = (0u64, 0u64);
    let mut stunned_or_worse = 0u64;
    let mut dice = fray_sim::batch_dice(2024, 0);
    for _ in 0..40_000 {
        let mut first: Option<bool> = None;
        let mut wound: Option<Level> = None;
        let mut seen_other = false;
        // After the hunter's first hit: 1 awaiting the resistance roll, 2 just after it, 3 done.
        let mut phase = 0;
        let sink = FnSink(|e: &Event| {
            match e {
                Event::Attack { attacker, hit, .. } if first.is_none() && !seen_other => {
                    if *attacker == hunter {
                        first = Some(*hit);
                        phase = if *hit { 1 } else { 3 };
                    } else {
                        seen_other = true;
                    }
                    return;
                }
                Event::Resist { .. } if phase == 1 => {
                    phase = 2;
                    return;
                }
                Event::Wound { to, .. } if phase == 2 => wound = Some(*to),
                _ => {}
            }
            if phase == 2 {
                phase = 3;
            }
        });
        let mut fight = Fight::<OpenD6, _, _, _>::new(
            &setup,
            fray_engine::FromSource(&mut dice),
            fray_rules::opend6::policy::Ai,
            sink,
        );
        fight.run().unwrap();
        drop(fight);
        if let Some(hit) = first {
            n += 1;
            hits += u64::from(hit);
            stunned_or_worse += u64::from(wound.is_some());
        }
    }
    let check = |k: u64, p: f64, what: &str| {
        let mean = k as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!((mean - p).abs() < 4.0 * se, "{what}: sampled {mean}, exact {p}");
    };
    check(hits, f(&odds.hit), "hit");
    let injured: f64 =
        odds.damage_given_hit.iter().filter(|(label, _, _)| label != "no injury").map(|(_, _, p)| f(p)).sum();
    check(stunned_or_worse, f(&odds.hit) * injured, "injured");
    let _ = OpenD6::ID;
}

#[test]
fn a_grab_knockdown_or_push_is_no_injury_in_the_odds() {
    // rule: OD6-SPECIAL-9, OD6-SPECIAL-10
    // A brawler whose policy grabs (or knocks down, or pushes): a hit holds or fells B and deals
    // no damage, as in the fight; the odds used to show the wound levels of a punch.
    for option in ["grab", "knockdown"] {
        let text = format!(
            "[rules]\nruleset = \"opend6\"\n[[combatants]]\nname = \"A\"\nside = \"a\"\nstrength = \"4D\"\n\
             skills = {{ brawling = \"4D\" }}\nposition = 0\npolicy = {{ option = \"{option}\" }}\n\
             [[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 1\n"
        );
        let setup = scenario::load("grab.toml", &text, &[]).unwrap();
        let odds = OpenD6Scenario(setup).attack_odds("A", "B").unwrap();
        let labels: Vec<(&str, String)> =
            odds.damage_given_hit.iter().map(|(label, _, p)| (label.as_str(), fraction(p))).collect();
        assert_eq!(labels, vec![("no injury", "1/1".to_owned())], "{option}");
        assert_eq!(fraction(&odds.down_given_hit), "0/1", "{option}");
        assert!(odds.assumptions.iter().any(|a| a.contains("no injury")), "{option}: {:?}", odds.assumptions);
    }
}

fn shot(defender: &str, sets: &[(&str, &str)]) -> fray_rules::opend6::Setup {
    let text = format!(
        "[rules]\nruleset = \"opend6\"\n[[combatants]]\nname = \"A\"\nside = \"a\"\nskills = {{ firearms = \"4D\" }}\n\
         [[combatants.weapons]]\nname = \"pistol\"\nskill = \"firearms\"\ndamage = \"4D\"\nranges = [10, 30, 120]\n\
         [[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 8\n{defender}\n"
    );
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    scenario::load("shot.toml", &text, &sets).unwrap()
}

#[test]
fn the_defenders_roll_in_the_odds_takes_his_wound_penalty() {
    // rule: OD6-TRACK-4, OD6-DEF-8, OD6-DEF-9
    // A Wounded defender with dodge 4D makes a full defence at 3D + 10, the same odds as a
    // healthy one with dodge 3D (the odds used to roll his 4D). The opening attack comes before
    // his turn (passive defence); his defence is in the line for his turn coming first.
    for policy in ["full_defense", "dodge_and_attack", "wait_and_dodge"] {
        let hurt = shot(
            &format!("skills = {{ dodge = \"4D\" }}\nwound_level = \"wounded\"\npolicy = {{ actions = \"{policy}\" }}"),
            &[],
        );
        let fine = shot(&format!("skills = {{ dodge = \"3D\" }}\npolicy = {{ actions = \"{policy}\" }}"), &[]);
        let hurt = OpenD6Scenario(hurt).attack_odds("A", "B").unwrap();
        let fine = OpenD6Scenario(fine).attack_odds("A", "B").unwrap();
        let first = |o: &fray_rules::AttackOdds| o.assumptions.iter().find(|a| a.contains("acts first")).cloned();
        let line = first(&fine).unwrap_or_else(|| panic!("{policy}: {:?}", fine.assumptions));
        assert_eq!(first(&hurt), Some(line.clone()), "{policy}");
        // Two actions declared for a partial one: 3D − 1D.
        assert!(line.contains(if policy == "full_defense" { "(3D roll + 10" } else { "(2D" }), "{policy}: {line}");
        assert!(fine.assumptions.iter().any(|a| a.contains("passive defence 10")), "{:?}", fine.assumptions);
    }
}

#[test]
fn body_points_rolled_at_the_start_are_followed_over_their_roll() {
    // rule: OD6-TRACK-10, OD6-TRACK-11
    // B rolls his Body Points at the start: 20 + Strength 1D. A's club (0D+5, no damage bonus)
    // hits him for sure (melee combat 0D+30; his fists, Strength 1D, would do less) for D = 5 (no
    // armour, so resistance 0).
    // 100·(M − 5)/M is 81 or more from M = 27: a 1D roll of 7+ (a 6 and any toss, 1/6) leaves
    // him Healthy; below (5/6) he is Stunned. The odds used to refuse rolled Body Points.
    let text = "[rules]\nruleset = \"opend6\"\n[[combatants]]\nname = \"A\"\nside = \"a\"\nstrength = \"1D\"\n\
                skills = { melee_combat = \"0D+30\" }\n[[combatants.weapons]]\nname = \"club\"\n\
                skill = \"melee_combat\"\ndamage = \"0D+5\"\n\
                [[combatants]]\nname = \"B\"\nside = \"b\"\nposition = 1\nstrength = \"1D\"\n";
    let sets = [("damage_track", "body_points"), ("damage_bonus", "off")];
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let setup = scenario::load("club.toml", text, &sets).unwrap();
    let odds = OpenD6Scenario(setup).attack_odds("A", "B").unwrap();
    assert_eq!(fraction(&odds.hit), "1/1", "{:?}", odds.assumptions);
    let levels: Vec<(&str, String)> =
        odds.damage_given_hit.iter().map(|(label, _, p)| (label.as_str(), fraction(p))).collect();
    assert_eq!(levels, vec![("healthy", "1/6".to_owned()), ("stunned", "5/6".to_owned())]);
    assert_eq!(fraction(&odds.down_given_hit), "0/1");
    assert!(
        odds.assumptions.iter().any(|a| a.contains("Body Points are rolled") && a.contains("1D")),
        "{:?}",
        odds.assumptions
    );
    // Given Body Points are taken as they are: 26 leaves him Stunned for sure.
    let given = scenario::load("club.toml", &format!("{text}body_points_max = 26\n"), &sets).unwrap();
    let odds = OpenD6Scenario(given).attack_odds("A", "B").unwrap();
    assert_eq!(
        odds.damage_given_hit.iter().map(|(l, _, p)| (l.as_str(), fraction(p))).collect::<Vec<_>>(),
        vec![("stunned", "1/1".to_owned())]
    );
}

#[test]
fn odds_over_rolled_body_points_agree_with_sampled_fights() {
    // rule: OD6-TRACK-10, OD6-TRACK-11, OD6-DMG-4
    // A's pistol shot (4D, damage 4D and the damage bonus) at B, whose Body Points are 20 + his
    // Strength 2D rolled at the start: each level's chance after the first shot against 40,000
    // seeded fights, within four standard errors.
    let setup = shot(
        "strength = \"2D\"\npolicy = { move = \"hold\" }",
        &[("damage_track", "body_points"), ("initiative_method", "fixed_order")],
    );
    let odds = OpenD6Scenario(setup.clone()).attack_odds("A", "B").unwrap();
    assert!(odds.damage_given_hit.len() >= 4, "{:?}", odds.damage_given_hit);
    let a = fray_engine::CombatantId(0);
    let n = 40_000u64;
    let mut seen: std::collections::BTreeMap<String, u64> = Default::default();
    let mut dice = fray_sim::batch_dice(2025, 0);
    for _ in 0..n {
        // 0 before A's first attack, 1 after a hit, 2 after its resistance, 3 done.
        let mut phase = 0;
        let mut outcome: Option<String> = None;
        let sink = FnSink(|e: &Event| match e {
            Event::Attack { attacker, hit, .. } if phase == 0 && *attacker == a => {
                phase = if *hit { 1 } else { 3 };
                if !*hit {
                    outcome = Some("miss".to_owned());
                }
            }
            Event::Resist { .. } if phase == 1 => phase = 2,
            Event::Wound { to, .. } if phase == 2 => {
                outcome = Some(to.name().replace('_', " "));
                phase = 3;
            }
            _ if phase == 2 => {
                outcome = Some("no injury".to_owned());
                phase = 3;
            }
            _ => {}
        });
        let mut fight = Fight::<OpenD6, _, _, _>::new(
            &setup,
            fray_engine::FromSource(&mut dice),
            fray_rules::opend6::policy::Ai,
            sink,
        );
        fight.run().unwrap();
        drop(fight);
        *seen.entry(outcome.expect("A shoots first")).or_default() += 1;
    }
    let check = |k: u64, p: f64, what: &str| {
        let mean = k as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!((mean - p).abs() < 4.0 * se + 1e-4, "{what}: sampled {mean}, exact {p}");
    };
    check(seen.get("miss").copied().unwrap_or(0), 1.0 - f(&odds.hit), "miss");
    for (label, _, p) in &odds.damage_given_hit {
        check(seen.get(label).copied().unwrap_or(0), f(&odds.hit) * f(p), label);
    }
    let labels: Vec<&String> = seen.keys().collect();
    assert!(labels.iter().all(|l| *l == "miss" || odds.damage_given_hit.iter().any(|(x, _, _)| x == *l)), "{labels:?}");
}

#[test]
fn rolled_difficulty_modifiers_are_convolved_in_the_odds() {
    // rule: OD6-DIFF-3, OD6-DIFF-4
    // B behind 50% cover (+2D) under `difficulty_modifiers = rolled`: the difficulty is
    // 10 + 2d6 (plain dice), so P(hit) = Σ P(2d6 = s) · P(4D ≥ 10 + s). The odds used to take
    // the cover at its fixed +6.
    let setup = shot("cover = { object = 50 }", &[("difficulty_modifiers", "rolled")]);
    let odds = OpenD6Scenario(setup).attack_odds("A", "B").unwrap();
    let four = odds::code_dist(DieCode::new(4, 0), OneReads::Cancel);
    let mut exact = BigRational::from_integer(0.into());
    for s in 2..=12 {
        let ways = 6 - (s - 7i32).abs();
        exact += BigRational::new(ways.into(), 36.into()) * four.at_least(10 + s);
    }
    assert_eq!(fraction(&odds.hit), fraction(&exact));
    // Fixed, it is the +6 of a 2D code: P(4D ≥ 16).
    let fixed = OpenD6Scenario(shot("cover = { object = 50 }", &[])).attack_odds("A", "B").unwrap();
    assert_eq!(fraction(&fixed.hit), fraction(&four.at_least(16)));
}

#[test]
fn prompt_odds_include_the_free_partial_defence() {
    // rule: OD6-DEF-10
    // Under `free_partial_defense = true` B, not yet acted, dodges for free (3D, no multi-action
    // penalty) before A's shot: the odds are 4D against his dodge roll, not against passive 10.
    let setup = shot("skills = { dodge = \"3D\" }", &[("free_partial_defense", "true")]);
    let state = OpenD6::initial_state(&setup);
    let (a, b) = (fray_engine::CombatantId(0), fray_engine::CombatantId(1));
    let plan = fray_rules::opend6::AttackPlan::new(b, 0);
    let ours = odds::odds_in_state(&setup, &state, a, &plan).unwrap();
    let expected = odds::compute(
        &setup.options,
        &Inputs {
            attack: DieCode::new(4, 0),
            defence: Some((DieCode::new(3, 0), 0)),
            ..hit_for_sure(DieCode::new(4, 0), DieCode::new(2, 0))
        },
    );
    assert_eq!(fraction(&ours.hit), fraction(&expected.hit));
    // Without the option: passive 10.
    let plain = shot("skills = { dodge = \"3D\" }", &[]);
    let passive = odds::odds_in_state(&plain, &OpenD6::initial_state(&plain), a, &plan).unwrap();
    assert_eq!(fraction(&passive.hit), "511/648");
}

#[test]
fn odds_at_a_distance_are_those_of_the_attacker_standing_there() {
    // rule: OD6-MOVE-1, OD6-MOVE-3
    // The reference shots again, B left at 8 m in the file and A asked about from each band:
    // 3 m is Point Blank (−5), 8 m Short (511/648), 20 m Medium (1753/3888), 120 m Long, and
    // beyond the third range value there is no shot.
    let setup = shot("", &[]);
    let at = |d: f64| fray_rules::opend6::odds::attack_odds_at(&setup, "A", "B", Some(d));
    assert_eq!(fraction(&at(8.0).unwrap().hit), "511/648");
    assert_eq!(fraction(&at(20.0).unwrap().hit), "1753/3888");
    assert_eq!(at(20.0).unwrap().distance, Some(20.0));
    let (pb, long) = (at(3.0).unwrap().hit, at(120.0).unwrap().hit);
    assert!(pb > at(8.0).unwrap().hit && long < at(20.0).unwrap().hit);
    assert!(at(121.0).unwrap_err().contains("not within reach or range"));
    // Asked about the file's own distance, the odds are the file's.
    assert_eq!(at(8.0).unwrap().hit, OpenD6Scenario(setup.clone()).attack_odds("A", "B").unwrap().hit);
    // rule: OD6-MOVE-1
    // Under `position_model = bands` nobody has a position to move.
    let bands = shot("", &[("position_model", "bands")]);
    let err = fray_rules::opend6::odds::attack_odds_at(&bands, "A", "B", Some(8.0)).unwrap_err();
    assert!(err.contains("position_model = bands"), "{err}");
    assert_eq!(OpenD6Scenario(bands).attack_odds("A", "B").unwrap().distance, None);
}

#[test]
fn a_waiting_defender_interrupts_only_an_attack_that_would_hit() {
    // rule: OD6-ACT-6, OD6-DEF-9
    // An attack that always totals 12 against passive 10: a waiting defender whose partial
    // dodge always rolls 15 interrupts it (12 reaches the threat of 10) and it misses; with the
    // threat at 13 he lets it be and it hits.
    let always = |total: i32| DieCode::new(0, total);
    let odds = |threat: i32| {
        odds::compute(
            &Options::default(),
            &Inputs {
                attack: always(12),
                defence: Some((always(15), 0)),
                interrupt: Some(threat),
                ..hit_for_sure(DieCode::new(1, 0), DieCode::new(1, 0))
            },
        )
    };
    assert_eq!(fraction(&odds(10).hit), "0/1");
    assert_eq!(fraction(&odds(13).hit), "1/1");
}

#[test]
fn the_odds_follow_the_attackers_character_points() {
    // rule: OD6-RES-1
    // An attack of 0D+5 against 10 never hits alone; one Character Point die spent below 10
    // reaches it on a 5 or a 6 (which explodes): 1/3. Two reach it unless the first is 1..4 and
    // the second too small.
    let odds = |n: u32| {
        odds::compute(
            &Options::default(),
            &Inputs {
                attack: DieCode::new(0, 5),
                attack_cp: (n > 0).then_some((10, n)),
                ..hit_for_sure(DieCode::new(1, 0), DieCode::new(1, 0))
            },
        )
    };
    assert_eq!(fraction(&odds(0).hit), "0/1");
    assert_eq!(fraction(&odds(1).hit), "1/3");
    assert!(odds(2).hit > odds(1).hit);
}

#[test]
fn the_opening_attack_comes_before_the_defenders_turn() {
    // rule: OD6-DEF-2
    // B's `full_defense` policy makes a full dodge on his turn; the opening attack comes before
    // it, against passive 10 (511/648 at 8 m), and his full defence is in the line for his turn
    // coming first.
    let setup = shot("skills = { dodge = \"3D\" }\npolicy = { actions = \"full_defense\" }", &[]);
    let odds = OpenD6Scenario(setup).attack_odds("A", "B").unwrap();
    assert_eq!(fraction(&odds.hit), "511/648");
    assert!(
        odds.assumptions.iter().any(|a| a.contains("acts first") && a.contains("full dodge")),
        "{:?}",
        odds.assumptions
    );
}

#[test]
fn the_stay_up_roll_in_the_odds_takes_the_defenders_difficulty_penalty() {
    // rule: OD6-TRACK-6, OD6-DMG-8
    // Reaching Incapacitated, the defender stays up on 15 + his difficulty penalty: at 19 the
    // chance that a hit takes him down grows by P(Incapacitated | hit) × P(15 ≤ stay-up < 19).
    let options = Options { killing_blow: false, ..Options::default() };
    let mut inputs = hit_for_sure(DieCode::new(4, 0), DieCode::new(3, 0));
    let plain = odds::compute(&options, &inputs);
    inputs.stay_up_difficulty = 19;
    let penalised = odds::compute(&options, &inputs);
    let incapacitated =
        plain.levels.iter().find(|(l, _)| *l == Some(Level::Incapacitated)).map(|(_, p)| p.clone()).unwrap();
    let stay = |n| odds::code_dist(DieCode::new(3, 0), OneReads::skill(&options)).at_least(n);
    assert_eq!(penalised.down_given_hit.clone() - plain.down_given_hit.clone(), incapacitated * (stay(15) - stay(19)));
    // In a fight's state: the penalty the defender carries (from an earlier hit's negative
    // resistance, `negative_resistance = difficulty_penalty`) is in the odds.
    let setup = shot("", &[("negative_resistance", "difficulty_penalty")]);
    let mut state = OpenD6::initial_state(&setup);
    let plan = fray_rules::opend6::AttackPlan::new(fray_engine::CombatantId(1), 0);
    let a = fray_engine::CombatantId(0);
    let fresh = odds::odds_in_state(&setup, &state, a, &plan).unwrap();
    state.fighters[1].difficulty_penalty = 4;
    let carrying = odds::odds_in_state(&setup, &state, a, &plan).unwrap();
    assert_eq!(carrying.hit, fresh.hit);
    assert!(carrying.down_given_hit > fresh.down_given_hit, "{} vs {}", carrying.down_given_hit, fresh.down_given_hit);
}

#[test]
fn a_waiting_defender_in_the_attackers_tied_step_does_not_interrupt() {
    // rule: OD6-INIT-4, OD6-ACT-6
    // B waits with a dodge to spare. In a later step than A's he interrupts A's shot (the odds
    // are then 4D against his dodge where it would hit); tied with A in one step he may
    // interrupt only after it, so A's shot meets his passive 10 (511/648), as the fight plays it.
    let setup = shot("skills = { dodge = \"3D\" }", &[]);
    let (a, b) = (fray_engine::CombatantId(0), fray_engine::CombatantId(1));
    let plan = fray_rules::opend6::AttackPlan::new(b, 0);
    let mut state = OpenD6::initial_state(&setup);
    state.round = 1;
    state.fighters[1].waiting = true;
    state.fighters[1].declared = 2;
    let with_order = |order: &[(fray_engine::CombatantId, u8)]| {
        let mut state = state.clone();
        state.order = fray_rules::opend6::List::from_slice(order);
        odds::odds_in_state(&setup, &state, a, &plan).unwrap()
    };
    let later = with_order(&[(a, 0), (b, 1)]);
    let tied = with_order(&[(a, 0), (b, 0)]);
    assert_ne!(fraction(&later.hit), "511/648", "B's interrupt is in the odds of a later step");
    assert_eq!(fraction(&tied.hit), "511/648");
}

#[test]
fn a_negative_resistance_total_raises_the_same_hits_stay_up_difficulty() {
    // rule: OD6-DMG-8, OD6-TRACK-6
    // Under `negative_resistance = difficulty_penalty` a resistance total below 0 counts as 0 and
    // gives the defender a difficulty penalty of its size, which the stay-up roll of the same hit
    // already meets (15 + penalty). A code of no dice and −3 pips resists with −3: the odds are
    // those of resistance 0 and a stay-up against 18.
    use fray_rules::opend6::options::NegativeResistance;
    let options = Options {
        killing_blow: false,
        negative_resistance: NegativeResistance::DifficultyPenalty,
        ..Options::default()
    };
    let zero = Options { negative_resistance: NegativeResistance::Zero, ..options.clone() };
    let damage = DieCode::new(4, 0);
    let penalised = odds::compute(&options, &hit_for_sure(damage, DieCode::new(0, -3)));
    let at = |resistance: i32, stay_up_difficulty: i32| {
        odds::compute(&zero, &Inputs { stay_up_difficulty, ..hit_for_sure(damage, DieCode::new(0, resistance.max(0))) })
    };
    assert_eq!(penalised.down_given_hit, at(0, 18).down_given_hit);
    assert!(penalised.down_given_hit > at(0, 15).down_given_hit);
    // A rolled code, 1D−3, resists from −2 up: each total's odds with its own stay-up difficulty,
    // weighted by the total's chance, make the whole.
    let code = DieCode::new(1, -3);
    let whole = odds::compute(&options, &hit_for_sure(damage, code));
    let one = OneReads::damage(&options);
    let mixed: BigRational = odds::code_dist(code, one)
        .outcomes()
        .into_iter()
        .map(|(v, p)| p * at(v, 15 + (-v).max(0)).down_given_hit)
        .sum();
    assert_eq!(fraction(&whole.down_given_hit), fraction(&mixed));
    assert!(whole.down_given_hit > odds::compute(&zero, &hit_for_sure(damage, code)).down_given_hit);
}

#[test]
fn a_code_of_no_dice_resists_with_its_negative_pips() {
    // rule: OD6-DMG-8
    // Under `negative_resistance = add_to_injury` (the default) a resistance code of no dice and
    // −3 pips resists with −3, which adds 3 to D, as the fight has it: the odds are those of 3
    // more damage against resistance 0 (they used to read such a code as 0).
    let options = Options { killing_blow: false, ..Options::default() };
    let damage = DieCode::new(4, 0);
    let negative = odds::compute(&options, &hit_for_sure(damage, DieCode::new(0, -3)));
    let more = odds::compute(&options, &Inputs { fixed: 3, ..hit_for_sure(damage, DieCode::new(0, 0)) });
    assert_eq!(negative.levels, more.levels);
    assert_eq!(negative.down_given_hit, more.down_given_hit);
}

#[test]
fn character_point_dice_a_critical_failure_may_cancel_are_followed() {
    // rule: OD6-DICE-9, OD6-DICE-5, OD6-RES-1
    // A 1D attack (the Wild Die alone) against 4, one Character Point spent while below it.
    // Wild 4, 5 or 6 (and its chain) hits: 1/2. Wild 2 and a CP die of 2 or more, wild 3 and any
    // CP die: 5/36 + 6/36. An opening 1 cancels the Wild Die and leaves 0: under
    // `cancel_cp_dice = false` the CP die still adds (4 or more: 1/2 of 1/6); under `true` the
    // CP die is the highest die and goes too, so that roll never hits.
    let inputs = Inputs {
        attack: DieCode::new(1, 0),
        base: 4,
        attack_cp: Some((4, 1)),
        ..hit_for_sure(DieCode::new(4, 0), DieCode::new(2, 0))
    };
    let kept = Options::default();
    let cancelled = Options { cancel_cp_dice: true, ..Options::default() };
    assert_eq!(fraction(&odds::compute(&kept, &inputs).hit), "8/9");
    assert_eq!(fraction(&odds::compute(&cancelled, &inputs).hit), "29/36");
    // Two regular dice and two CP dice: each CP die adds the smaller of itself and the highest
    // die so far. Checked against the fight's own rolls (`roll`, `add_cp`), spending while below
    // 12, on a million seeded rolls.
    let code = DieCode::new(3, 0);
    let inputs = Inputs { attack: code, base: 12, attack_cp: Some((12, 2)), ..inputs };
    let exact = odds::compute(&cancelled, &inputs).hit;
    let mut dice = fray_engine::FromSource(fray_dice::seeded(7));
    let who = fray_engine::CombatantId(0);
    let n = 1_000_000;
    let mut hits = 0u32;
    for _ in 0..n {
        let mut rolled =
            fray_rules::opend6::roll::roll(&mut dice, who, "attack", code, 0, OneReads::Cancel, &cancelled).unwrap();
        while rolled.total < 12 && rolled.cp < 2 {
            fray_rules::opend6::roll::add_cp(&mut dice, who, &mut rolled, 1, &cancelled).unwrap();
        }
        hits += u32::from(rolled.total >= 12);
    }
    let p = f(&exact);
    let sampled = f64::from(hits) / f64::from(n);
    // 99.9% interval half-width of a million draws is under 0.0017.
    assert!((p - sampled).abs() < 0.0017, "exact {p}, sampled {sampled}");
    assert_ne!(exact, odds::compute(&kept, &inputs).hit);
}

#[test]
fn the_odds_give_the_defenders_character_points_both_ways() {
    // rule: OD6-RES-1
    // B (5 Character Points) spends them on his resistance and stay-up rolls as his `points`
    // policy does; a person controlling him decides them. The odds give both: the AI's, and a
    // line with none spent, which are the odds of the same B with no points at all.
    let with = OpenD6Scenario(shot("character_points = 5\npolicy = { points = \"threshold\" }", &[]))
        .attack_odds("A", "B")
        .unwrap();
    let without = OpenD6Scenario(shot("", &[])).attack_odds("A", "B").unwrap();
    let out = |o: &fray_rules::AttackOdds| o.down.clone();
    assert!(out(&with) < out(&without), "{:#?}", with.assumptions);
    let line = with.assumptions.iter().find(|a| a.starts_with("if B spends no Character Points")).unwrap();
    // (Printed to four places: the exact fraction is long.)
    assert!(line.ends_with(&format!("takes B out ≈ {:.4}", f(&out(&without)))), "{line}");
    assert!(!without.assumptions.iter().any(|a| a.contains("spends no Character Points (a person")));
}
