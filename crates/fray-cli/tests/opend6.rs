//! `fray` end to end on the `opend6` examples: fight, sim, check, rules, odds, people and
//! physical dice at the table.

mod common;
use common::{TempScenario, fray, fray_with_input, ok, sim_json};

use serde_json::Value as Json;

const DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/opend6/blaster-duel.toml");
const GROUP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/opend6/mixed-group.toml");

fn temp(text: &str, name: &str) -> TempScenario {
    TempScenario::named(text, name)
}

#[test]
fn the_wild_die_table_by_fray_odds() {
    // rule: OD6-DICE-3, OD6-DICE-4, OD6-DICE-5
    for (expr, p) in [
        ("4D >= 10", "511/648"),
        ("4Dc >= 10", "1171/1296"),
        ("3D >= 10", "767/1296"),
        ("5D >= 20", "1169/3456"),
        ("6D >= 15", "117379/139968"),
        ("6Dc >= 20", "1102367/1679616"),
    ] {
        let text = ok(&fray(&["odds", expr]));
        assert!(text.contains(&format!("mean {p}")), "{expr}: {text}");
    }
    let text = ok(&fray(&["odds", "6D"]));
    assert!(text.contains("mean 1604047/77760"), "{text}");
}

#[test]
fn fights_are_byte_identical_for_a_seed_and_json_has_a_header() {
    let a = ok(&fray(&["fight", GROUP, "--seed", "11"]));
    let b = ok(&fray(&["fight", GROUP, "--seed", "11"]));
    assert_eq!(a, b);
    assert!(a.contains("Trooper 1 initiative for Trooper 1, Trooper 2, Trooper 3"), "{a}");
    let json = ok(&fray(&["fight", DUEL, "--seed", "3", "--json"]));
    let mut lines = json.lines();
    let header: Json = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["seed"], 3);
    assert_eq!(header["ruleset"], "opend6");
    let events: Vec<Json> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(events.iter().any(|e| e["event"] == "attack"));
    assert_eq!(events.last().unwrap()["event"], "end");
}

#[test]
fn sim_numbers_do_not_depend_on_threads() {
    let run = |threads: &str| sim_json(GROUP, "3000", "9", threads);
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one["fights"], 3000);
    assert!(one["outcomes"]["heroes"]["ci95"].is_array());
}

#[test]
fn check_rules_and_errors() {
    let text = ok(&fray(&["check", DUEL]));
    assert!(text.contains("ruleset opend6") && text.contains("heavy blaster pistol"), "{text}");
    // rule: OD6-DIFF-4 — the Smuggler's cover, and the points and policies a fight spends by.
    assert!(text.contains("cover: 50% behind an object\n    0 Character Point(s), 0 Fate Point(s)"), "{text}");
    assert!(text.contains("policy actions=single target=nearest option=normal points=scenario move=close"), "{text}");
    let rules = ok(&fray(&["rules", "opend6"]));
    assert!(rules.contains("wild_die_failure") && rules.contains("OD6-TRACK-2"), "{rules}");
    let bad = std::fs::read_to_string(DUEL).unwrap().replace("firearms = \"5D\"", "firearm = \"5D\"");
    let path = temp(&bad, "skill");
    let out = fray(&["check", path.path()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("unknown skill `firearm`") && err.contains("did you mean `firearms`?"), "{err}");
    assert!(err.contains("skill.toml:18:12:"), "{err}");
    let bad = std::fs::read_to_string(DUEL).unwrap().replace("damage = \"5D\"", "damage = \"5Q\"");
    let path = temp(&bad, "code");
    let err = String::from_utf8(fray(&["check", path.path()]).stderr).unwrap();
    assert!(err.contains("expected a die code") && err.contains('^'), "{err}");
    assert_eq!(fray(&["fight", DUEL, "--set", "wound_stacking=sideways"]).status.code(), Some(2));
}

#[test]
fn odds_in_context() {
    let text = ok(&fray(&["odds", "--scenario", DUEL, "--attacker", "Hunter", "--defender", "Smuggler"]));
    // 5D+1 against 10 + 5 (Medium) + 6 (50 % cover): 5D ≥ 20, the catalogue's 1169/3456.
    assert!(text.contains("P(hit) = 1169/3456"), "{text}");
    assert!(text.contains("wound level after one hit"), "{text}");
    let json: Json = serde_json::from_str(&ok(&fray(&[
        "odds",
        "--scenario",
        DUEL,
        "--attacker",
        "Smuggler",
        "--defender",
        "Hunter",
        "--json",
    ])))
    .unwrap();
    assert!(json["damage_given_hit"].as_array().is_some_and(|a| a.len() >= 4));
    assert!(json["residual"].as_str().is_some());
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

#[test]
fn physical_dice_reproduce_worked_example_2() {
    // rule: OD6-DICE-5, OD6-TRACK-6
    let path = temp(EXAMPLE_2, "example2");
    let faces = "6\n5\n4\n2\n6\n3\n5\n3\n2\n4\n4\n3\n2\n1\n2\n2\n3\n";
    let out = fray_with_input(&["fight", path.path(), "--dice", "manual"], faces);
    let text = ok(&out);
    // rule: OD6-DIFF-2
    // The difficulty itemised: passive 10 and +5 for Medium range.
    assert!(
        text.contains(
            "Kara attacks Merc with blaster pistol: 5D [6,5,4,2] W[6,3] = 26 vs difficulty 15 (base 10, range 5) → hit"
        ),
        "{text}"
    );
    assert!(text.contains("damage to Merc by Kara: 4D [5,3,2] W[4] = 14 +3 (bonus) = 17"), "{text}");
    assert!(text.contains("Merc resists: 4D [4,3,2] W[1] (Critical Failure"), "{text}");
    assert!(text.contains("Merc is unconscious for the rest of the fight") && text.contains("A wins"), "{text}");
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("attack"), "{prompts}");
}

#[test]
fn a_person_can_control_a_combatant() {
    // The smuggler's player takes the first option each time: one action, then the first
    // listed action — a shot at the hunter, with its exact odds beside it.
    let answers = "1\n".repeat(400);
    let out = fray_with_input(&["fight", DUEL, "--seed", "5", "--control", "Smuggler=human"], &answers);
    let text = ok(&out);
    assert!(text.contains("Smuggler attacks Hunter with heavy blaster pistol"), "{text}");
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("how many actions this round?"), "{prompts}");
    // 5D against 10 + 5 (Medium): P(5D ≥ 15) = 16289/23328 in round 1.
    assert!(prompts.contains("attack Hunter with heavy blaster pistol — hit 69.8% (16289/23328)"), "{prompts}");
    assert!(prompts.contains("dodge (partial defence)") && prompts.contains("wait"), "{prompts}");
}

#[test]
fn the_log_says_why_a_parry_cuts_the_attacker() {
    // rule: OD6-DEF-6
    // In the brawl (seed 3) the Dockhand's fist misses Vex's knife parry, and the knife's listed
    // damage cuts him: the text says why, and the JSON names the cause.
    let brawl = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/opend6/brawl.toml");
    let text = ok(&fray(&["fight", brawl, "--seed", "3"]));
    assert!(
        text.contains("damage to Dockhand by Vex (a sharp weapon parried bare hands: its listed damage): 1D"),
        "{text}"
    );
    let json = ok(&fray(&["fight", brawl, "--seed", "3", "--json"]));
    let causes: Vec<String> = json
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .filter(|e| e["event"] == "damage")
        .map(|e| e["cause"].as_str().unwrap_or("none").to_owned())
        .collect();
    assert!(causes.iter().any(|c| c == "parry_cut") && causes.iter().any(|c| c == "hit"), "{causes:?}");
}
