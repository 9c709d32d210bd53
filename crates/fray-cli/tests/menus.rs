//! The menus `fray fight --control NAME=human` shows a person, across the rulesets: Enter takes
//! the combatant's AI choice, enemies come before allies, allies are marked and the dead are
//! not offered as targets.

mod common;
use common::{fray_with_input, ok};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/");

/// `fray fight` of an example with `who` played by a person answering every prompt with Enter:
/// the log and the prompts.
fn enter_throughout(example: &str, seed: &str, who: &str) -> (String, String) {
    let control = format!("{who}=human");
    let out = fray_with_input(
        &["fight", &format!("{ROOT}{example}"), "--seed", seed, "--control", &control],
        &"\n".repeat(2000),
    );
    let log = ok(&out);
    (log, String::from_utf8(out.stderr).unwrap())
}

/// The menus among `prompts` (each a question line and its numbered options).
fn menus(prompts: &str) -> Vec<Vec<&str>> {
    let mut out: Vec<Vec<&str>> = Vec::new();
    for line in prompts.lines() {
        if line.starts_with("  ") {
            if let Some(menu) = out.last_mut() {
                menu.push(line.trim_start());
            }
        } else if line.contains(" — ") {
            out.push(Vec::new());
        }
    }
    out
}

#[test]
fn enter_takes_the_ai_choice_and_the_menu_shows_it() {
    // fluid: the AI's defence is the default, not "no defence" (the first option).
    let (log, prompts) = enter_throughout("fluid/barbarian-vs-marauder.toml", "5", "barbarian");
    assert!(prompts.contains("7. block with shield (TN 15 + dT 0, attacker +0 for size) [AI's choice]"), "{prompts}");
    assert!(prompts.contains("choice [7]: "), "{prompts}");
    assert!(log.contains("marauder attacks barbarian with long_sword (block, TN 15)"), "{log}");
    assert!(!log.contains("(no defence"), "{log}");
    // hardboiled: Enter declares the AI's attack, not "declare nothing".
    let (log, prompts) = enter_throughout("hardboiled/gunfight.toml", "3", "Vito");
    assert!(
        prompts.contains("2. declare: attack Lou with .38 revolver — hit 60.0% (3/5), takes out 30.0% [AI's choice]")
    );
    assert!(log.contains("Vito declares: attack Lou"), "{log}");
    // Every menu marks exactly one default, and the prompt offers it.
    for menu in menus(&prompts).iter().filter(|m| m.len() > 1) {
        let marked: Vec<usize> = (0..menu.len()).filter(|&i| menu[i].ends_with("[AI's choice]")).collect();
        assert_eq!(marked.len(), 1, "{menu:?}");
    }
}

#[test]
fn menus_list_enemies_first_mark_allies_and_leave_out_the_dead() {
    // opend6: Korr, Rhea's ally, dies in round 1; Rhea's menus then offer no attack on him, and
    // Enter never shoots an ally.
    let (log, prompts) = enter_throughout("opend6/mixed-group.toml", "3", "Rhea");
    assert!(log.contains("Korr: injury 25 → dead"), "{log}");
    let after_death = prompts.split("Rhea — how many actions this round?").nth(1).unwrap();
    assert!(!after_death.contains("attack Korr"), "{after_death}");
    assert!(after_death.contains("1. attack Trooper 1 with blaster pistol"), "{after_death}");
    assert!(!log.contains("Rhea attacks Korr"), "{log}");
    // hardboiled and phasesix: attacks on a teammate stay available, after every other choice,
    // marked.
    for (example, seed, who, ally) in
        [("hardboiled/gunfight.toml", "3", "Vito", "Sal"), ("phasesix/firefight.toml", "3", "Raider 1", "Raider 2")]
    {
        let (_, prompts) = enter_throughout(example, seed, who);
        let mut seen_ally = false;
        for menu in menus(&prompts) {
            let first_ally = menu.iter().position(|o| o.contains(&format!("{ally} (ally)")));
            if let Some(first) = first_ally {
                seen_ally = true;
                assert!(menu[first..].iter().all(|o| o.contains("(ally)")), "{example}: {menu:?}");
            }
            // Every option naming the ally as a target is marked.
            for option in &menu {
                if option.contains(&format!("attack {ally}")) && !option.contains(&format!("{ally} (ally)")) {
                    panic!("{example}: unmarked attack on an ally: {option}");
                }
            }
        }
        assert!(seen_ally, "{example}: {prompts}");
    }
}

#[test]
fn the_fluid_declaration_passes_are_numbered_and_keep_their_numbers() {
    // rule: FLUID-ACT-1, FLUID-TAC-3
    let (_, prompts) = enter_throughout("fluid/barbarian-vs-marauder.toml", "5", "barbarian");
    assert!(prompts.contains("barbarian — split Tactics 0 (pass 1 of 2):"), "{prompts}");
    assert!(prompts.contains("barbarian — split Tactics 0 (revision pass 2 of 2):"), "{prompts}");
    let first = prompts.split("declare the round's actions (pass 1 of 2):\n").nth(1).unwrap();
    let second = first.split("declare the round's actions (revision pass 2 of 2):\n").nth(1).unwrap();
    // The revision pass lists the same choices under the same numbers; the plan declared in the
    // first pass is marked, and is what Enter keeps.
    let options = |menu: &str| -> Vec<String> {
        menu.lines()
            .take_while(|l| l.starts_with("  "))
            .map(|l| l.replace(" (your plan)", "").replace(" [AI's choice]", ""))
            .collect()
    };
    assert_eq!(options(first), options(second));
    assert!(
        second.contains("3. 1 × lethal attack on marauder with axe (each: hit 49/54 ≈ 90.7%, takes out 7/27 ≈ 25.9%) (your plan) [AI's choice]"),
        "{second}"
    );
}

#[test]
fn physical_dice_of_one_roll_are_numbered() {
    // fluid: three d6 for each initiative and each check, asked for at once ("roll 3d6"); typed
    // one face at a time, the rest of the roll is asked for ("dice 2 to 3 of 3", "die 3 of 3"),
    // and a new roll (another combatant's, or the same reason again) starts again at one.
    let out = fray_with_input(
        &["fight", &format!("{ROOT}fluid/barbarian-vs-marauder.toml"), "--dice", "manual"],
        &"3\n".repeat(200),
    );
    ok(&out);
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(
        prompts.contains(
            "roll 3d6 for barbarian's initiative, the faces on one line: \
             roll 2d6 for barbarian's initiative (dice 2 to 3 of 3), the faces on one line: \
             roll one d6 for barbarian's initiative (die 3 of 3): \
             roll 3d6 for marauder's initiative, the faces on one line: "
        ),
        "{prompts}"
    );
    assert!(prompts.contains("roll one d6 for barbarian's attack (die 3 of 3): "), "{prompts}");
    assert!(!prompts.contains("(die 4"), "{prompts}");
    // rule: OD6-DICE-4 — opend6: the regular dice are numbered, then the Wild Die is asked for by
    // name, and again while it shows 6.
    let out = fray_with_input(
        &["fight", &format!("{ROOT}opend6/blaster-duel.toml"), "--dice", "manual"],
        &format!("3\n3\n6\n2\n{}", "3\n".repeat(400)),
    );
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(
        prompts.starts_with(
            "roll 2d6 for Smuggler's initiative, the faces on one line: \
             roll one d6 for Smuggler's initiative (die 2 of 2): \
             roll one d6 for Smuggler's Wild Die: roll one d6 for Smuggler's Wild Die again (a 6 explodes): "
        ),
        "{prompts}"
    );
    assert!(
        prompts.contains("roll one d6 for Smuggler's attack (die 4 of 4): roll one d6 for Smuggler's Wild Die: "),
        "{prompts}"
    );
    // rule: TICK-DICE-2 — ticks: the delta dice of one roll.
    let out = fray_with_input(
        &["fight", &format!("{ROOT}ticks/pistol-duel.toml"), "--dice", "manual", "--set", "delta_die=3d6"],
        &"1\n".repeat(400),
    );
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(
        prompts
            .contains("'s shot (dice 2 to 3 of 3), the faces on one line: roll one d6 for Vic's shot (die 3 of 3): "),
        "{prompts}"
    );
}

#[test]
fn a_whole_roll_is_typed_on_one_line() {
    // Three faces for each 3d6 roll: each initiative and check is asked for once.
    let out = fray_with_input(
        &["fight", &format!("{ROOT}fluid/barbarian-vs-marauder.toml"), "--dice", "manual"],
        &"3 4 5\n".repeat(200),
    );
    let log = ok(&out);
    assert!(log.contains("barbarian initiative: [3,4,5]"), "{log}");
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(!prompts.contains("(dice 2 to 3 of 3)") && !prompts.contains("(die 3 of 3)"), "{prompts}");
    // Too many faces for the roll: refused, and asked again.
    let out = fray_with_input(
        &["fight", &format!("{ROOT}hardboiled/bar-room-brawl.toml"), "--dice", "manual"],
        "7 2\n7\n2\n",
    );
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("2 faces were entered, but the roll takes 1"), "{prompts}");
    assert!(String::from_utf8(out.stdout).unwrap().contains("Joe Bruno initiative: d10 → 7"));
}
