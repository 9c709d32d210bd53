//! The dice clauses of the five catalogues and their reference numbers.

use super::{at_least, mean, p_eq};
use fray_dice::{Event, Options, Program, Scripted, Value, WildFate, fraction};

#[track_caller]
fn at_most(expr: &str, t: i64) -> String {
    let program = Program::parse(expr).unwrap();
    let p = program.probability(Event::AtMost(t), &Options::default()).unwrap();
    assert_eq!(fraction(&p.residual), "0/1");
    fraction(&p.p)
}

#[track_caller]
fn roll(expr: &str, faces: &[u32]) -> fray_dice::Roll {
    let mut source = Scripted::new(faces);
    let roll = Program::parse(expr).unwrap().roll(&mut source).unwrap();
    assert!(source.remaining().is_empty(), "{expr}: faces left over: {:?}", source.remaining());
    roll
}

fn int(roll: &fray_dice::Roll) -> i64 {
    roll.value.as_int().unwrap()
}

// ---------------------------------------------------------------- fluid

#[test]
fn fluid_3d6_counts_and_tail_table() {
    // rule: FLUID-DICE-1
    let counts = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];
    let tails = [216, 215, 212, 206, 196, 181, 160, 135, 108, 81, 56, 35, 20, 10, 4, 1];
    let dist = Program::parse("3d6").unwrap().distribution(&Options::default()).unwrap();
    for (i, (count, tail)) in counts.iter().zip(tails).enumerate() {
        let t = i as i64 + 3;
        let p = dist.probability(&Value::Int(t));
        assert_eq!(
            p * fray_dice::BigRational::from_integer(216.into()),
            fray_dice::BigRational::from_integer((*count).into())
        );
        assert_eq!(at_least("3d6", t), fraction(&fray_dice::BigRational::new(tail.into(), 216.into())));
    }
    // An even match (bonus 0 against TN 10) succeeds 5/8 of the time: total ≥ TN succeeds.
    assert_eq!(at_least("3d6 >= 10", 1), "5/8");
    assert_eq!(mean("3d6 >= 10"), "5/8");
}

#[test]
fn fluid_roll_under_even_match() {
    // rule: FLUID-DICE-9
    // margin = 20 + bonuses − TN − e ≥ 0 with bonus 0 and TN 10 is P(3d6 ≤ 10) = 1/2.
    assert_eq!(at_least("20 - 3d6 - 10 >= 0", 1), "1/2");
    assert_eq!(at_most("3d6", 10), "1/2");
}

#[test]
fn fluid_every_fraction_rounds_down() {
    // rule: FLUID-DICE-3, TICK-DICE-5
    for (expr, want) in [("7 / 2", 3), ("9 / 4", 2), ("1 / 2", 0), ("-7 / 2", -4), ("7 / -2", -4)] {
        assert_eq!(
            Program::parse(expr).unwrap().roll(&mut Scripted::new([])).unwrap().value,
            Value::Int(want),
            "{expr}"
        );
    }
    // Halving a d6: 1→0, 2→1, 3→1, 4→2, 5→2, 6→3.
    assert_eq!(p_eq("d6 / 2", 0), "1/6");
    assert_eq!(p_eq("d6 / 2", 1), "1/3");
    assert_eq!(p_eq("d6 / 2", 3), "1/6");
}

#[test]
fn fluid_crit_and_blunder_naturals() {
    // rule: FLUID-DICE-4
    assert_eq!(p_eq("3d6", 16), "1/36");
    assert_eq!(p_eq("3d6", 17), "1/72");
    assert_eq!(p_eq("3d6", 18), "1/216");
    assert_eq!(p_eq("3d6", 5), "1/36");
    assert_eq!(p_eq("3d6", 4), "1/72");
    assert_eq!(p_eq("3d6", 3), "1/216");
    assert_eq!(at_least("3d6", 16), "5/108");
    assert_eq!(at_most("3d6", 5), "5/108");
}

#[test]
fn fluid_superior_and_inferior_keep_best() {
    // rule: FLUID-DICE-7
    assert_eq!(mean("4d6kh3"), "15869/1296");
    assert_eq!(mean("5d6kh3"), "34811/2592");
    assert_eq!(mean("4d6kl3"), "11347/1296");
    assert_eq!(mean("5d6kl3"), "19621/2592");
    assert_eq!(at_least("4d6kh3", 10), "1069/1296");
    assert_eq!(at_least("5d6kh3", 10), "1193/1296");
    assert_eq!(at_least("6d6kh3", 10), "833/864");
    assert_eq!(at_least("4d6kl3", 10), "497/1296");
    assert_eq!(at_least("5d6kl3", 10), "1753/7776");
    assert_eq!(at_least("6d6kl3", 10), "673/5184");
    assert_eq!(at_least("4d6kh3", 8), "611/648");
    assert_eq!(at_least("4d6kh3", 12), "799/1296");
    assert_eq!(at_least("4d6kh3", 14), "115/324");
    assert_eq!(at_least("3d6 + 3", 10), "49/54");
    assert_eq!(at_least("4d6kh3", 16), "169/1296");
    assert_eq!(at_least("5d6kh3", 16), "607/2592");
    // Drop notation says the same as keep.
    assert_eq!(mean("4d6dl1"), mean("4d6kh3"));
    assert_eq!(mean("4d6dh1"), mean("4d6kl3"));
}

#[test]
fn fluid_d2_and_d3_read_from_a_d6() {
    // rule: FLUID-DICE-11
    for v in 1..=2 {
        assert_eq!(p_eq("(d6 + 2) / 3", v), "1/2");
    }
    for v in 1..=3 {
        assert_eq!(p_eq("(d6 + 1) / 2", v), "1/3");
    }
    // The faces map as the clause says: 1–3 → 1, 4–6 → 2; 1–2 → 1, 3–4 → 2, 5–6 → 3.
    for (face, d2, d3) in [(1, 1, 1), (3, 1, 2), (4, 2, 2), (5, 2, 3), (6, 2, 3)] {
        assert_eq!(int(&roll("(d6 + 2) / 3", &[face])), d2);
        assert_eq!(int(&roll("(d6 + 1) / 2", &[face])), d3);
    }
}

// ---------------------------------------------------------------- opend6

/// One row of the catalogue's Wild-Die table: the code, P(total ≥ 10, 15, 20) under
/// `cancel_highest` and under `complication`, and the two means.
type WildRow = (&'static str, [&'static str; 3], [&'static str; 3], &'static str, &'static str);

/// The catalogue's Wild-Die table.
const WILD_TABLE: [WildRow; 6] = [
    ("1D", ["1/12", "1/54", "5/1296"], ["1/12", "1/54", "5/1296"], "121/30", "21/5"),
    ("2D", ["17/72", "71/1296", "1/81"], ["17/72", "71/1296", "1/81"], "139/20", "77/10"),
    ("3D", ["767/1296", "221/1296", "301/7776"], ["827/1296", "221/1296", "301/7776"], "11111/1080", "56/5"),
    ("4D", ["511/648", "1753/3888", "5761/46656"], ["1171/1296", "929/1944", "5761/46656"], "9869/720", "147/10"),
    ("5D", ["769/864", "16289/23328", "1169/3456"], ["425/432", "2293/2916", "1225/3456"], "667151/38880", "91/5"),
    (
        "6D",
        ["22393/23328", "117379/139968", "995051/1679616"],
        ["3881/3888", "131617/139968", "1102367/1679616"],
        "1604047/77760",
        "217/10",
    ),
];

#[test]
fn opend6_wild_die_table_under_both_readings() {
    // rule: OD6-DICE-3, OD6-DICE-4, OD6-DICE-5
    for (code, cancel, complication, mean_a, mean_b) in WILD_TABLE {
        for (i, tn) in [10, 15, 20].into_iter().enumerate() {
            assert_eq!(at_least(code, tn), cancel[i], "{code} ≥ {tn}, cancel_highest");
            assert_eq!(at_least(&format!("{code}c"), tn), complication[i], "{code} ≥ {tn}, complication");
        }
        assert_eq!(mean(code), mean_a, "{code} mean, cancel_highest");
        assert_eq!(mean(&format!("{code}c")), mean_b, "{code} mean, complication");
    }
}

#[test]
fn opend6_die_codes_with_pips() {
    // rule: OD6-DICE-1, OD6-DICE-2
    // Pips add to the total: 2D+2 has the mean of 2D plus 2.
    assert_eq!(mean("2D+2"), "179/20");
    // 8D+4 (a Fate Point on 4D+2) rolls seven regular dice, one Wild Die and 4 pips.
    let r = roll("8D+4", &[1, 2, 3, 4, 5, 6, 1, 3]);
    let group = &r.groups[0];
    assert_eq!(group.dice.len(), 8);
    assert_eq!(group.dice.iter().filter(|d| d.role == fray_dice::DieRole::Wild).count(), 1);
    assert_eq!(int(&r), 1 + 2 + 3 + 4 + 5 + 6 + 1 + 3 + 4);
}

#[test]
fn opend6_one_die_code_is_the_wild_die_alone() {
    // rule: OD6-DICE-3
    let r = roll("1D", &[4]);
    assert_eq!(r.groups[0].dice.len(), 1);
    assert_eq!(r.groups[0].dice[0].role, fray_dice::DieRole::Wild);
    assert_eq!(int(&r), 4);
    assert_eq!(at_least("1D", 10), "1/12");
}

#[test]
fn opend6_critical_success_explodes() {
    // rule: OD6-DICE-4
    assert_eq!(at_least("1D", 5), "1/3");
    assert_eq!(at_least("1D", 6), "1/6");
    assert_eq!(at_least("1D", 7), "1/6");
    assert_eq!(at_least("1D", 12), "1/36");
    assert_eq!(at_least("1D", 13), "1/36");
    // 6, 6, 3 adds up; a 1 after the first toss is simply 1.
    let r = roll("1D", &[6, 6, 3]);
    assert_eq!(int(&r), 15);
    assert_eq!(r.groups[0].wild, Some(WildFate::Exploded));
    assert_eq!(int(&roll("1D", &[6, 1])), 7);
    assert_eq!(int(&roll("3D", &[2, 2, 6, 1])), 11);
}

#[test]
fn opend6_critical_failure_cancels_the_highest_die() {
    // rule: OD6-DICE-5
    // 4D showing regular 4, 3, 2 and Wild 1 totals 5.
    let r = roll("4D", &[4, 3, 2, 1]);
    assert_eq!(int(&r), 5);
    assert_eq!(r.groups[0].wild, Some(WildFate::CriticalFailure { cancelled: Some(0) }));
    assert!(!r.groups[0].dice[0].kept && !r.groups[0].dice[3].kept);
    // Under `complication` the 1 counts.
    let r = roll("4Dc", &[4, 3, 2, 1]);
    assert_eq!(int(&r), 10);
    assert_eq!(r.groups[0].wild, Some(WildFate::Complication));
    // A 1D code on a Critical Failure is its pips alone.
    assert_eq!(int(&roll("1D+2", &[1])), 2);
    // P(2D totals 0) = 1/6 under cancel_highest, 0 under complication; P(3D < 2) = 11/216.
    assert_eq!(p_eq("2D", 0), "1/6");
    assert_eq!(p_eq("2Dc", 0), "0/1");
    assert_eq!(at_most("3D", 1), "11/216");
}

#[test]
fn opend6_success_is_meeting_the_difficulty() {
    // rule: OD6-DICE-8
    assert_eq!(at_least("4D >= 10", 1), "511/648");
    assert_eq!(int(&roll("4D >= 10", &[3, 3, 2, 2])), 1);
    assert_eq!(int(&roll("4D >= 10", &[3, 3, 2, 1])), 0);
    assert_eq!(at_least("4D >= 15", 1), "1753/3888");
}

#[test]
fn opend6_character_point_dice_are_not_cancelled() {
    // rule: OD6-DICE-9
    // 3D with 1 CP: regular 2 and 3, Wild 1, CP die 6 then 4 → 2 + 10 = 12.
    assert_eq!(int(&roll("3D + d6!!", &[2, 3, 1, 6, 4])), 12);
    // The CP Wild Die explodes and its 1 counts as 1: mean 21/5.
    assert_eq!(mean("d6!!"), "21/5");
}

// ---------------------------------------------------------------- phasesix

#[test]
fn phasesix_exploding_die_tail_r1_to_r5() {
    // rule: P6-DICE-2
    let table = [
        (2, "5/6"),
        (3, "2/3"),
        (4, "1/2"),
        (5, "1/3"),
        (6, "1/6"),
        (7, "1/6"),
        (8, "5/36"),
        (9, "1/9"),
        (10, "1/12"),
        (11, "1/18"),
        (12, "1/36"),
        (13, "1/36"),
        (14, "5/216"),
        (15, "1/54"),
        (16, "1/72"),
        (17, "1/108"),
        (23, "1/648"),
        (29, "1/3888"),
    ];
    for (t, p) in table {
        assert_eq!(at_least("d6!!", t), p, "P(d6!! ≥ {t})");
        assert_eq!(at_least("d6!", t), p, "P(d6! ≥ {t})");
    }
    // R5's closed form: t = 6k + j gives 6^−k · (7 − j)/6; totals divisible by 6 never occur.
    for t in 1..=60i64 {
        let (k, j) = ((t - 1) / 6, (t - 1) % 6 + 1);
        let want = fray_dice::BigRational::new((7 - j).into(), (6 * 6i64.pow(k as u32)).into());
        assert_eq!(at_least("d6!!", t), fraction(&want), "t = {t}");
        if t % 6 == 0 {
            assert_eq!(p_eq("d6!!", t), "0/1");
        }
    }
}

#[test]
fn phasesix_pools_count_successes() {
    // rule: P6-DICE-1
    assert_eq!(at_least("4d6!!cs>=5", 1), "65/81"); // R17
    let tuple = Program::parse("5d6!!cs>=5cs>=11").unwrap().distribution(&Options::default()).unwrap();
    let at = |h, c| fraction(&tuple.probability(&Value::Counts(fray_dice::Counts::from_slice(&[h, c]))));
    assert_eq!(at(0, 0), "32/243"); // R18: no hit
    assert_eq!(at(5, 2), "625/944784"); // R18: exactly 2 crits and 3 normal hits
    let no_crit: fray_dice::BigRational =
        tuple.outcomes().filter(|(v, _)| matches!(v, Value::Counts(c) if c.as_slice()[1] == 0)).map(|(_, p)| p).sum();
    assert_eq!(fraction(&(fray_dice::BigRational::from_integer(1.into()) - no_crit)), "469711/1889568");
    // A GM difficulty of +3 turns 5+ into 8+; a pool of no dice scores no success.
    assert_eq!(at_least("1d6!!cs>=8", 1), "5/36");
    assert_eq!(p_eq("0d6!!cs>=5", 0), "1/1");
    // Dodge rolls (R19, R20): at least one success at a raised minimum roll.
    assert_eq!(at_least("3d6!!cs>=6", 1), "91/216");
    assert_eq!(at_least("3d6!!cs>=7", 1), "91/216");
    assert_eq!(at_least("3d6!!cs>=8", 1), "16865/46656");
    assert_eq!(at_least("3d6!!cs>=9", 1), "217/729");
    assert_eq!(at_least("2d6!!cs>=6", 1), "11/36");
    assert_eq!(at_least("4d6!!cs>=7", 1), "671/1296");
}

#[test]
fn phasesix_megacrit_ladder_tiers() {
    // rule: P6-DICE-2
    // R6: one die at M 5, C 11: miss, normal, crit, level 1, level ≥ 2.
    let tiers = Program::parse("1d6!!cs>=5cs>=11cs>=17cs>=23").unwrap().distribution(&Options::default()).unwrap();
    let at = |v: &[i64]| fraction(&tiers.probability(&Value::Counts(fray_dice::Counts::from_slice(v))));
    assert_eq!(at(&[0, 0, 0, 0]), "2/3");
    assert_eq!(at(&[1, 0, 0, 0]), "5/18");
    assert_eq!(at(&[1, 1, 0, 0]), "5/108");
    assert_eq!(at(&[1, 1, 1, 0]), "5/648");
    assert_eq!(at(&[1, 1, 1, 1]), "1/648");
    // R7, R8: the thresholds of chained shots.
    assert_eq!(at_least("d6!!", 7), "1/6");
    assert_eq!(p_eq("1d6!!cs>=13", 1), "1/36");
    assert_eq!(p_eq("1d6!!cs>=9", 1), "1/9");
    // R25: the mean of d6!.
    assert_eq!(mean("d6!"), "21/5");
}

// ---------------------------------------------------------------- hardboiled

#[test]
fn hardboiled_rolls_are_an_attribute_die_plus_modifiers() {
    // rule: USR-DICE-4, USR-DICE-6
    // Unopposed rolls succeed when total ≥ difficulty (the middle bands, where no natural decides).
    assert_eq!(at_least("d6", 4), "1/2");
    assert_eq!(at_least("d6 + 2", 4), "5/6");
    assert_eq!(at_least("d6 + 2", 7), "1/3");
    assert_eq!(at_least("d8", 4), "5/8");
    assert_eq!(at_least("d8", 7), "1/4");
    assert_eq!(at_least("d8 + 2", 4), "7/8");
    assert_eq!(at_least("d8 + 2", 7), "1/2");
    assert_eq!(at_least("d8 + 2", 10), "1/8");
    assert_eq!(at_least("d10", 4), "7/10");
    assert_eq!(at_least("d10", 7), "2/5");
    assert_eq!(at_least("d10", 10), "1/10");
    assert_eq!(at_least("d10 + 2", 4), "9/10");
    assert_eq!(at_least("d10 + 2", 7), "3/5");
    assert_eq!(at_least("d10 + 2", 10), "3/10");
}

#[test]
fn hardboiled_contests_compare_two_rolls() {
    // rule: USR-DICE-4
    for (attack, defence, hit, tie, margin) in [
        ("d10+4", "d8+2", "59/80", "3/40", "55/16"),
        ("d8+2", "d8+2", "7/16", "1/8", "21/16"),
        ("d10+2", "d6", "5/6", "1/15", "25/6"),
        ("d6", "d6", "5/12", "1/6", "35/36"),
        ("d10", "d10", "9/20", "1/10", "33/20"),
        ("d6", "d10", "1/4", "1/10", "7/12"),
    ] {
        let contest = format!("{attack} vs {defence}");
        assert_eq!(at_least(&contest, 1), hit, "{contest}");
        assert_eq!(p_eq(&contest, 0), tie, "{contest}");
        assert_eq!(mean(&format!("max(0, {contest})")), margin, "{contest}");
    }
}

#[test]
fn hardboiled_rolls_log_the_natural_value() {
    // rule: USR-DICE-5
    // A d10 showing "0" is 10, its natural high; the provenance keeps the face apart from modifiers.
    let r = roll("d10 + 3", &[10]);
    assert_eq!(r.groups[0].dice[0].tosses, vec![10]);
    assert_eq!(r.groups[0].dice[0].sides, 10);
    assert_eq!(int(&r), 13);
}

// ---------------------------------------------------------------- ticks

#[test]
fn ticks_opposed_delta_rolls() {
    // rule: TICK-DICE-1, TICK-DICE-2, TICK-DICE-3
    // delta = A − D; the attacker wins iff delta ≥ 1, so a tie goes to the defender.
    assert_eq!(at_least("d20 + 5 vs d20 + 5", 1), "19/40");
    assert_eq!(p_eq("d20 + 5 vs d20 + 5", 0), "1/20");
    assert_eq!(at_most("d20 + 5 vs d20 + 5", 0), "21/40");
    let r = roll("d20 + 7 vs d20 + 3", &[12, 15]);
    assert_eq!(int(&r), 19 - 18);
    // The alternative delta dice are written the same way.
    assert_eq!(p_eq("2d10 vs 2d10", 0), "67/1000");
    assert_eq!(mean("3d6 vs 3d6"), "0/1");
}
