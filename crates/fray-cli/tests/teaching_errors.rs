//! Errors that teach: the suggestion before the list, the range of a number out of range, the
//! right spelling of a combatant's name in `--set`, dice modifiers that must touch their dice,
//! `vs` without spaces, look-alike characters, and long input cut around the caret.

mod common;
use common::{TempScenario, fray};

const DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/fluid/barbarian-vs-marauder.toml");

/// The standard error of a run that must fail with exit code 2.
#[track_caller]
fn refused(args: &[&str]) -> String {
    let out = fray(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: "), "{err}");
    err
}

fn edited(from: &str, to: &str) -> TempScenario {
    let text = std::fs::read_to_string(DUEL).unwrap();
    assert!(text.contains(from));
    TempScenario::new(&text.replacen(from, to, 1))
}

#[test]
fn a_misspelt_key_gets_its_suggestion_before_the_list() {
    let file = edited("pc = 16", "pcc = 16");
    let err = refused(&["check", file.path()]);
    let first = err.lines().next().unwrap();
    let suggestion = first.find("did you mean `pc`?").expect(first);
    let list = first.find("expected one of").expect(first);
    assert!(suggestion < list, "{first}");
    assert!(err.contains("| pcc = 16") && err.contains("| ^^^"), "{err}");
    // A misspelt value too.
    let file = edited("kind = \"melee\"", "kind = \"meele\"");
    let err = refused(&["check", file.path()]);
    assert!(err.contains("unknown item kind `meele`; did you mean `melee`? (expected one of melee,"), "{err}");
    // And a misspelt option value.
    let err = refused(&["check", DUEL, "--set", "check_direction=rol_high"]);
    assert!(
        err.contains("found `rol_high`; did you mean `roll_high`? (expected one of roll_high, roll_under)"),
        "{err}"
    );
}

#[test]
fn a_number_out_of_range_says_the_range() {
    let file = edited("pc = 16", "pc = 1000000000000");
    let err = refused(&["check", file.path()]);
    assert!(err.contains("expected a whole number from -2147483648 to 2147483647"), "{err}");
    let file = edited("pc = 16", "pc = -5");
    assert!(refused(&["check", file.path()]).contains("expected a PC from 1 to 1000, found -5"));
}

#[test]
fn a_set_with_a_combatant_misnamed_suggests_the_name() {
    let err = refused(&["check", DUEL, "--set", "Marauder.pc=14"]);
    assert!(err.contains("no combatant is called `Marauder`; did you mean `marauder`?"), "{err}");
    assert!(err.contains("1 | Marauder.pc=14\n  | ^^^^^^^^\n"), "{err}");
    let err = refused(&["sim", DUEL, "-n", "10", "--compare", "maraudr.pc=14"]);
    assert!(
        err.starts_with("error: --compare:1:1: no combatant is called `maraudr`; did you mean `marauder`?"),
        "{err}"
    );
    // An option of the same shape is still an option, and the right name still edits.
    let phasesix = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/phasesix/sword-and-shield.toml");
    assert!(fray(&["check", phasesix, "--set", "act_cost.walk=2"]).status.success());
    assert!(fray(&["check", DUEL, "--set", "marauder.pc=14"]).status.success());
}

#[test]
fn dice_errors_explain_modifiers_contests_and_look_alikes() {
    let err = refused(&["odds", "4d6 kh3"]);
    assert!(err.contains("a dice modifier must touch its dice, with no space: write `4d6kh3`"), "{err}");
    assert!(err.contains("  4d6 kh3\n      ^"), "{err}");
    let err = refused(&["odds", "2d6 + 3d6 dl1"]);
    assert!(err.contains("write `3d6dl1`"), "{err}");
    let err = refused(&["odds", "d6vsd6"]);
    assert!(err.contains("a contest needs spaces around `vs`, e.g. `d6 vs d6`"), "{err}");
    assert!(err.contains("  d6vsd6\n    ^^"), "{err}");
    for (text, ascii) in [("3d6 ≥ 10", ">="), ("3d6 ≤ 10", "<="), ("2 × d6", "*"), ("d6 − 1", "-")] {
        let err = refused(&["odds", text]);
        assert!(err.contains(&format!("; write `{ascii}` instead")), "{text}: {err}");
    }
    // The plain cases are unchanged.
    assert!(refused(&["odds", "3d+2"]).contains("expected the number of sides after `d`"));
}

#[test]
fn a_long_expression_is_shown_cut_around_the_caret() {
    let long = "1+".repeat(300) + "d6 kh3";
    let err = refused(&["odds", &long]);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[1].starts_with("  …") && lines[1].ends_with("d6 kh3"), "{err}");
    assert!(lines[1].chars().count() <= 90, "{}", lines[1]);
    // The caret is under the modifier.
    let caret = lines[2].find('^').unwrap();
    assert_eq!(lines[1].chars().nth(caret), Some('k'), "{err}");
    let too_long = "1+".repeat(600) + "1";
    let err = refused(&["odds", &too_long]);
    assert!(err.lines().all(|l| l.chars().count() <= 120), "{err}");
    assert!(err.contains("expression length 1201 is over the limit of 1000"), "{err}");
}
