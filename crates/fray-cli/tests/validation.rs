//! Bad scenarios and flags, across the rulesets: each is answered with a located error (file,
//! line, column, a caret) and exit code 2, never a panic, a hang or a wrong report.

mod common;
use common::{TempScenario, fray, fray_with_input, ok, sim_json};
use std::process::{Command, Stdio};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/");

/// A scenario file made from an example with one replacement, removed when dropped.
fn variant(example: &str, from: &str, to: &str) -> TempScenario {
    let base = std::fs::read_to_string(format!("{ROOT}{example}")).unwrap();
    assert!(base.contains(from), "{example} has no `{from}`");
    TempScenario::new(&base.replacen(from, to, 1))
}

/// `fray check` of the variant fails with exit code 2, and its message contains `want` at line
/// `line` (when given), with a caret.
fn rejected(example: &str, from: &str, to: &str, line: Option<usize>, want: &str) {
    let file = variant(example, from, to);
    let out = fray(&["check", file.path()]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{example}: `{to}` accepted: {err}");
    assert!(err.contains(want), "{example}: `{to}`: {err}");
    if let Some(line) = line {
        assert!(err.contains(&format!("{}:{line}:", file.path())), "{example}: `{to}` at line {line}: {err}");
    }
    assert!(err.contains('^'), "{example}: `{to}`: a caret: {err}");
}

/// Every shipped example, sorted.
fn examples() -> Vec<std::path::PathBuf> {
    let mut examples: Vec<_> = std::fs::read_dir(ROOT)
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    examples.sort();
    examples
}

const FLUID: &str = "fluid/barbarian-vs-marauder.toml";
const OPEND6: &str = "opend6/blaster-duel.toml";
const HARDBOILED: &str = "hardboiled/bar-room-brawl.toml";
const PHASESIX: &str = "phasesix/sword-and-shield.toml";
const TICKS: &str = "ticks/pistol-duel.toml";

#[test]
fn sides_are_named_and_at_least_two() {
    for (example, side) in [
        (FLUID, "side = \"raiders\""),
        (OPEND6, "side = \"guild\""),
        (HARDBOILED, "side = \"docks\""),
        (PHASESIX, "side = \"robbers\""),
        (TICKS, "side = \"vic\""),
    ] {
        // The simulator reports `mutual` and `stalemate` beside the sides: no side takes those names.
        for reserved in ["mutual", "stalemate"] {
            let named = format!("side = \"{reserved}\"");
            rejected(example, side, &named, None, &format!("a side may not be called `{reserved}`"));
        }
        rejected(example, side, "side = \"\"", None, "expected a side name that is not empty");
        // Everyone on the first combatant's side: nobody to fight.
        let first = std::fs::read_to_string(format!("{ROOT}{example}")).unwrap();
        let first_side = first.lines().find(|l| l.starts_with("side = ")).unwrap().to_owned();
        rejected(example, side, &first_side, None, "expected combatants on at least two sides, found only");
    }
    rejected(FLUID, "id = \"marauder\"", "id = \" \"", None, "expected a combatant name that is not empty");
    rejected(OPEND6, "name = \"Hunter\"", "name = \"\"", None, "expected a combatant name that is not empty");
}

#[test]
fn positions_are_numbers_or_pairs_within_reach() {
    rejected(FLUID, "position = 1.0", "position = nan", Some(46), "expected a position within 100 km");
    rejected(FLUID, "position = 1.0", "position = inf", Some(46), "expected a position within 100 km");
    rejected(FLUID, "position = 1.0", "position = 1e300", Some(46), "expected a position within 100 km");
    rejected(FLUID, "position = 1.0", "position = [9, 0, 3]", Some(46), "found more than two numbers");
    rejected(HARDBOILED, "position = 1", "position = [9, 0, 3]", Some(31), "found more than two numbers");
    rejected(PHASESIX, "position = 1", "position = \"far\"", Some(38), "expected a position");
    rejected(TICKS, "position = [10, 0]", "position = [10, 0, \"junk\"]", Some(19), "two whole numbers [x, y]");
    rejected(TICKS, "position = [10, 0]", "position = [10]", Some(19), "two whole numbers [x, y]");
}

#[test]
fn caps_and_values_are_in_range() {
    rejected(FLUID, "max_rounds = 100", "max_rounds = 4294967295", Some(7), "expected a round cap from 1 to 100000");
    rejected(OPEND6, "max_rounds = 60", "max_rounds = 0", Some(9), "expected a round cap from 1 to 100000");
    rejected(HARDBOILED, "max_turns = 50", "max_turns = 100001", Some(8), "expected a turn cap from 1 to 100000");
    rejected(FLUID, "damage = { w = 7 }", "damage = { w = -7 }", None, "expected a damage from 0 to 1000");
    // A stat out of range is reported at its own line, not at the combatant's header.
    rejected(PHASESIX, "hand_to_hand = 2", "hand_to_hand = 1000", Some(37), "Hand-to-hand combat from −20 to 40");
    rejected(PHASESIX, "protection = 1 }]", "protection = -1 }]", Some(20), "expected a protection from 0 to 40");
    rejected(
        PHASESIX,
        "name = \"buckler\", protection = 1",
        "name = \"buckler\", protection = 11",
        Some(39),
        "from 0 to 10",
    );
    rejected(HARDBOILED, "[\"leather_jacket\"]", "[\"leather_jacket\", \"leather_jacket\"]", Some(30), "listed twice");
    rejected(TICKS, "[\"soft_vest\"]", "[\"soft_vest\", \"soft_vest\"]", Some(12), "listed twice");
    let file = format!("{ROOT}{FLUID}");
    let out = fray(&["check", &file, "--set", "untrained_penalty=5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("expected a penalty from -100 to 0"));
}

#[test]
fn a_huge_value_is_shown_in_part() {
    let huge = "x".repeat(100_000);
    let file = variant(FLUID, "ruleset = \"fluid\"", &format!("ruleset = \"{huge}\""));
    let out = fray(&["check", file.path()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("unknown ruleset") && err.contains('…') && err.contains('^'), "{}", &err[..300]);
    assert!(err.len() < 5_000, "{} bytes of error", err.len());
}

#[test]
fn threads_are_bounded_and_do_not_change_numbers() {
    let file = format!("{ROOT}{FLUID}");
    let out = fray(&["sim", &file, "-n", "10", "--threads", "100000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("1024"));
    // More threads than batches of fights: the same numbers, without a thread per idle batch.
    assert_eq!(sim_json(&file, "50", "3", "1000"), sim_json(&file, "50", "3", "1"));
}

#[test]
fn rates_at_the_edges_sit_inside_their_interval() {
    // The duel never ends in a stalemate: 0 of n, whose interval starts at exactly 0.
    let doc = sim_json(&format!("{ROOT}{FLUID}"), "2000", "1", "1");
    let stalemate = &doc["outcomes"]["stalemate"];
    assert_eq!(stalemate["count"], 0);
    assert_eq!(stalemate["ci95"][0], 0.0);
}

#[test]
fn a_revision_keeps_the_declared_plan_by_default() {
    // The declaration (attack with the axe), then Enter at the declaration's revision pass: the
    // attack stands (the AI keeps its plan in a revision pass, and Enter takes the AI's choice).
    // The tactics split (Tactics 0) and its revision pass have one choice each: taken without
    // asking.
    let out = fray_with_input(
        &["fight", &format!("{ROOT}{FLUID}"), "--seed", "1", "--control", "barbarian=human"],
        &format!("3\n\n{}", "\n".repeat(400)),
    );
    let log = ok(&out);
    let round_1 = log.split("— round 2").next().unwrap();
    assert!(round_1.contains("barbarian declares: attack marauder with axe"), "{log}");
    assert!(!round_1.contains("barbarian declares: nothing"), "{log}");
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("3. 1 × lethal attack on marauder with axe (each: hit 49/54 ≈ 90.7%, takes out 7/27 ≈ 25.9%) (your plan) [AI's choice]"), "{prompts}");
    assert!(
        prompts.contains("split Tactics 0 (pass 1 of 2):\n  1. oT 0 / dT 0 (normal) [AI's choice]\n(the only choice)"),
        "{prompts}"
    );
}

#[test]
fn a_closed_prompt_stream_ends_the_fight_without_a_panic() {
    // The person's terminal goes away: prompts cannot be written and stdin is at its end.
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["fight", &format!("{ROOT}{FLUID}"), "--seed", "1", "--control", "barbarian=human"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_ne!(status.code(), Some(101), "a panic");
}

#[test]
fn the_fight_stops_when_a_persons_input_ends() {
    // Two answers, then the end of stdin: fray stops with a message and exit 2 rather than play
    // the default answer for the person to the end of the fight.
    let out =
        fray_with_input(&["fight", &format!("{ROOT}{FLUID}"), "--seed", "1", "--control", "barbarian=human"], "1\n1\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no more input: the fight stops at a decision of barbarian"), "{err}");
    assert!(!String::from_utf8(out.stdout).unwrap().contains("— round 2"));
}

#[test]
fn odds_of_a_huge_pool_are_refused_not_hung() {
    // Fourteen exploding hit dice with crit levels have millions of pool outcomes: refused at
    // once with a reason (a fuzzed scenario once made this take minutes).
    let file = variant(PHASESIX, "hand_to_hand = 3", "hand_to_hand = 12");
    let out = fray(&["odds", "--scenario", file.path(), "--attacker", "Hagen", "--defender", "Robber"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("too many to follow exactly"), "{err}");
    // The shipped duel's attack is answered exactly.
    let duel =
        ok(&fray(&["odds", "--scenario", &format!("{ROOT}{PHASESIX}"), "--attacker", "Hagen", "--defender", "Robber"]));
    assert!(duel.contains("P(this attack takes Robber down) = "), "{duel}");
}

#[test]
fn every_example_simulates_with_the_ai_checked() {
    // Tests run a debug build, where every AI answer is checked against its request and the
    // rules' legality tests (`Fight::checks_choices`): an illegal AI choice would fail the run.
    let examples = examples();
    assert!(examples.len() >= 15, "{examples:?}");
    for example in &examples {
        let doc = sim_json(example.to_str().unwrap(), "1000", "5", "2");
        assert_eq!(doc["fights"], 1000, "{example:?}");
    }
}

#[test]
fn a_file_too_large_or_not_text_is_refused_without_reading_it_all() {
    // `/dev/zero` never ends: fray reads at most a few MiB of a scenario and says why it stops.
    let out = fray(&["check", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("/dev/zero: larger than 4 MiB"), "{err}");
    let binary = variant(FLUID, "ruleset", "\u{fffe}ruleset");
    std::fs::write(binary.path(), b"\xff\xfe[rules]\n").unwrap();
    let err = String::from_utf8(fray(&["check", binary.path()]).stderr).unwrap();
    assert!(err.contains("not UTF-8 text"), "{err}");
}

#[test]
fn check_lists_the_options_in_effect_and_each_attack_skill() {
    let out = ok(&fray(&["check", &format!("{ROOT}{FLUID}"), "--set", "edge_cap=2"]));
    assert!(
        out.contains("options (every other one at its default, `fray rules fluid`):\n  check_direction = \"roll_high\"\n  edge_cap = 2 (--set)"),
        "{out}"
    );
    assert!(out.contains("long_sword (Melee), skill long_sword 12: damage W 6 S 0"), "{out}");
    assert!(out.contains("policy tactics=aggressive target=nearest"), "{out}");
}

#[test]
fn json_logs_carry_names_and_fields_not_rust_debug_text() {
    // Every example's `fight --json` log: no value reads like Rust's debug output of an enum or
    // struct (`Attack(AttackPlan { target: CombatantId(1), … })`, `block(some(0))`).
    fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
            serde_json::Value::Object(o) => o.values().for_each(|v| strings(v, out)),
            _ => {}
        }
    }
    let examples = examples();
    assert!(examples.len() >= 16);
    for example in examples {
        let log = ok(&fray(&["fight", example.to_str().unwrap(), "--seed", "3", "--json"]));
        for line in log.lines() {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            let mut found = Vec::new();
            strings(&value, &mut found);
            for s in found {
                // A plain choice alone (`"None"`, `"Lethal"`) is how serde names a unit variant.
                let variant = s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                let debug = !variant
                    && ["CombatantId", "Some(", "some(", "None", " { ", "AttackPlan"].iter().any(|m| s.contains(m));
                assert!(!debug, "{}: {s:?} in {line}", example.display());
            }
        }
    }
}

#[test]
fn odds_in_context_refuse_an_ally_and_spell_out_the_difficulty() {
    let mixed = format!("{ROOT}opend6/mixed-group.toml");
    let out = fray(&["odds", "--scenario", &mixed, "--attacker", "Rhea", "--defender", "Korr"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("`Rhea` and `Korr` are both on side `heroes`"), "{err}");
    // rule: OD6-DEF-1, OD6-DIFF-1
    // The blaster duel: passive defence 10, +5 for range and cover: difficulty 15.
    let duel = ok(&fray(&[
        "odds",
        "--scenario",
        &format!("{ROOT}{OPEND6}"),
        "--attacker",
        "Smuggler",
        "--defender",
        "Hunter",
    ]));
    assert!(
        duel.contains("5D against difficulty 15 (passive defence 10, +5 for range, cover, posture, …; at least 3)"),
        "{duel}"
    );
}

#[test]
fn type_errors_are_said_in_words_not_rust_types() {
    rejected(HARDBOILED, "action = 10", "action = 1.5", Some(14), "expected a whole number from 0 to 4294967295");
    rejected(FLUID, "pc = 16", "pc = 99999999999999999999", Some(16), "integer `99999999999999999999` is too large");
    let file = variant(HARDBOILED, "action = 10", "action = \"ten\"");
    let err = String::from_utf8(fray(&["check", file.path()]).stderr).unwrap();
    assert!(!err.contains("u32") && !err.contains("i32"), "{err}");
}

#[test]
fn a_bad_set_is_named_by_its_place_among_the_sets() {
    let out = fray(&["check", &format!("{ROOT}{FLUID}"), "--set", "edge_cap=2", "--set", "check_direction=up"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--set:2:17: expected one of roll_high, roll_under, found `up`"), "{err}");
    assert!(err.contains("2 | check_direction=up") && err.contains('^'), "{err}");
}

#[test]
fn names_a_slip_away_get_a_did_you_mean() {
    let err = |args: &[&str]| {
        let out = fray(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    assert!(err(&["rules", "FLUID"]).contains("did you mean `fluid`?"));
    let duel = format!("{ROOT}{OPEND6}");
    let e = err(&["odds", "--scenario", &duel, "--attacker", "smuggler", "--defender", "Hunter"]);
    assert!(e.contains("no combatant `smuggler` (combatants: Smuggler, Hunter); did you mean `Smuggler`?"), "{e}");
    rejected(FLUID, "kind = \"melee\"", "kind = \"meele\"", None, "did you mean `melee`?");
    // Negative counts and seeds are refused as values, not taken for flags.
    assert!(err(&["sim", &duel, "--seed", "-1"]).contains("invalid value '-1' for '--seed"));
    assert!(err(&["sim", &duel, "-n", "-5"]).contains("invalid value '-5' for '--fights"));
    // Odds in context named without a scenario: the missing flags are named, not a dice expression.
    let e = err(&["odds", "--attacker", "Hunter"]);
    assert!(e.contains("--scenario <FILE>") && e.contains("--defender <NAME>") && !e.contains("  <EXPR>"), "{e}");
}

#[test]
fn logs_read_as_sentences() {
    // A harder counter (2) stops Vito's .38 (penetration 1), so `called_shot = uncovered` calls
    // a head shot (USR-LOC-4).
    let hard = variant("hardboiled/gunfight.toml", "hardness = 1", "hardness = 2");
    let gunfight = ok(&fray(&["fight", hard.path(), "--seed", "3"]));
    assert!(gunfight.contains("Vito attacks Lou (called: head): d10"), "{gunfight}");
    let knives = ok(&fray(&["fight", &format!("{ROOT}ticks/knife-fight.toml"), "--seed", "3"]));
    assert!(!knives.contains("heavys") && !knives.contains("strikes at at"), "{knives}");
    // ticks: every term of A and D is printed, and the numbers add up.
    let duel = ok(&fray(&["fight", &format!("{ROOT}{TICKS}"), "--seed", "3"]));
    assert!(
        duel.contains("Vic shoots at Sam: [3] → A = -2 (skill and modifiers +5, range +0, aim +0, p −10)"),
        "{duel}"
    );
    assert!(duel.contains("Sam defends: [13] → D = 11 (skill +5, p −7)"), "{duel}");
    // Signed terms print a minus sign, not a hyphen, as the itemised terms do.
    let rifle = ok(&fray(&["fight", &format!("{ROOT}ticks/rifle-vs-pistol.toml"), "--seed", "3"]));
    assert!(
        rifle.contains("Rhea shoots at Tom: [3] → A = 6 (skill and modifiers +7, range \u{2212}5, aim +1, p −0)"),
        "{rifle}"
    );
    let brawl = ok(&fray(&["fight", &format!("{ROOT}fluid/barbarian-vs-marauder.toml"), "--seed", "3"]));
    assert!(brawl.contains("[5,2,5] natural 12 \u{2212}3 (skill 2, OQ 1, oT 2, pain \u{2212}8) → miss"), "{brawl}");
    // Hits that protection stops are said, not lost between the cover roll and the wounds.
    let firefight = ok(&fray(&["fight", &format!("{ROOT}phasesix/firefight.toml"), "--seed", "3"]));
    assert!(
        firefight.contains("hits [2] → 0 crit(s) and 0 hit(s) removed\nSoldier's protection 2 stops 1 hit(s)\nSoldier takes 1 wound(s) (0 hit(s), 1 crit(s) left)"),
        "{firefight}"
    );
    // A side named in the singular wins; one in the plural win.
    let brawl = ok(&fray(&["fight", &format!("{ROOT}{HARDBOILED}"), "--seed", "3"]));
    assert!(brawl.trim_end().ends_with(" wins"), "{brawl}");
    let duel = ok(&fray(&["fight", &format!("{ROOT}{FLUID}"), "--seed", "3"]));
    assert!(duel.trim_end().ends_with("heroes win") || duel.trim_end().ends_with("raiders win"), "{duel}");
}

#[test]
fn a_cap_under_another_rulesets_name_is_pointed_to_the_right_one() {
    rejected(
        TICKS,
        "ruleset = \"ticks\"",
        "ruleset = \"ticks\"\nmax_rounds = 5",
        Some(5),
        "`tick_cap` (ticks) under [rules.options]",
    );
    let rules = ok(&fray(&["rules", "ticks"]));
    assert!(rules.contains("an integer from 1 to 1,000,000"), "{rules}");
}

#[test]
fn gear_in_full_reports_its_own_mistakes() {
    // A misspelt field of gear given in full is named with a did-you-mean at its place, not
    // "data did not match any variant".
    rejected(
        HARDBOILED,
        "weapon = \"brass_knuckles\"",
        "weapon = { name = \"crossbow\", damage = \"d8\", range = 30 }",
        Some(29),
        "unknown field `range`; did you mean `range_m`? (expected one of `base`, `name`, `kind`, `bonus`, `damage`, \
         `range_m`",
    );
    rejected(
        HARDBOILED,
        "weapon = \"brass_knuckles\"",
        "weapon = 5",
        Some(29),
        "integer `5`, expected an id from the table",
    );
    rejected(TICKS, "gun = \"pistol\"", "gun = { base = \"pistol\", rate = 1.5 }", Some(11), "expected a whole number");
    rejected(TICKS, "armour = [\"soft_vest\"]", "armour = [{ nme = \"vest\" }]", Some(12), "did you mean `name`?");
    rejected(FLUID, "damage = { w = 7 }", "damage = { w = 7.5 }", Some(28), "expected a whole number or a word");
}

#[test]
fn a_key_another_ruleset_uses_points_to_this_ones_word() {
    rejected(
        FLUID,
        "id = \"barbarian\"",
        "name = \"barbarian\"",
        Some(13),
        "unknown field `name`; this ruleset calls it `id` (expected one of `id`",
    );
    rejected(FLUID, "id = \"barbarian\"", "name = \"barbarian\"", None, "this ruleset calls it `id`");
    rejected(HARDBOILED, "name = \"Joe Bruno\"", "id = \"Joe Bruno\"", Some(11), "this ruleset calls it `name`");
    rejected(HARDBOILED, "hero = true", "player = true", Some(13), "this ruleset calls it `hero`");
}
