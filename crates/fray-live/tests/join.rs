//! A combatant the GM adds mid-fight ([`Command::Join`]), in every ruleset: absent until it joins
//! (the fight before the join is the fight without it, line for line), then in the fight; undo
//! takes it back out; the journal restores it; a bad stat block is refused with its place.

use fray_live::{Command, DiceMode, LiveError, Pending, Session};

mod common;
use common::EXAMPLES;

/// Every shipped example (opend6's group fight shortened, its prompts weigh a dozen attacks each).
fn examples() -> Vec<(String, String)> {
    common::examples()
        .into_iter()
        .map(|(file, text)| (file, text.replace("max_rounds = 60", "max_rounds = 6")))
        .collect()
}

/// A stat block: the scenario's last combatant, renamed and a step aside, as `key = value` lines.
fn newcomer(text: &str, name: &str) -> String {
    copy_of(text, name, usize::MAX)
}

/// A stat block: the scenario's combatant at `k` (the last one when beyond), renamed and a step
/// aside, as `key = value` lines.
fn copy_of(text: &str, name: &str, k: usize) -> String {
    let table: toml::Table = toml::from_str(text).unwrap();
    let roster = table["combatants"].as_array().unwrap();
    let last = roster[k.min(roster.len() - 1)].as_table().unwrap();
    let mut block = String::new();
    for (key, value) in last {
        let value = match (key.as_str(), value) {
            ("name" | "id", _) => toml::Value::String(name.to_owned()),
            // Beside it, where a grid keeps one combatant per square.
            ("position", toml::Value::Array(xy)) => {
                let y = xy[1]
                    .as_integer()
                    .map_or(toml::Value::Float(xy[1].as_float().unwrap_or(0.0) + 1.0), |y| (y + 1).into());
                toml::Value::Array(vec![xy[0].clone(), y])
            }
            _ => value.clone(),
        };
        block += &format!("{key} = {value}\n");
    }
    block
}

/// Takes the AI's suggestion at up to `n` decisions (and stops at the end).
fn answer(session: &mut Session, n: usize) {
    for _ in 0..n {
        match session.snapshot().pending.clone() {
            Some(Pending::Decision { ai, .. }) => {
                session.command(Command::Answer(ai)).unwrap();
            }
            _ => return,
        }
    }
}

fn texts(session: &Session) -> Vec<Option<String>> {
    session.snapshot().log.iter().map(|l| l.text.clone()).collect()
}

#[test]
fn a_combatant_added_mid_fight_is_absent_before_and_fights_after() {
    for (file, text) in examples() {
        let people = fray_rules::load(&file, &text, &[]).unwrap().combatants();
        // A newcomer on the last combatant's side and one on the first's, at three places.
        for (at, copied) in [(0, usize::MAX), (3, usize::MAX), (12, usize::MAX), (0, 0), (5, 0)] {
            let mut session = Session::open(&file, &text, vec![], 1, DiceMode::Fray, people.clone()).unwrap();
            session.defer_odds(true);
            answer(&mut session, at);
            if session.snapshot().pending.is_none() {
                continue; // over before the join
            }
            let before = session.snapshot().log.clone();
            let mut block = copy_of(&text, "Newcomer", copied);
            if text.contains("ruleset = \"hardboiled\"") && !block.contains("hp_max") {
                block += "hp_max = 12\n"; // rolled at the table
            }
            let snapshot = session.command(Command::Join { stats: block.clone() }).unwrap().clone();
            // The fight before the join is the fight without it, line for line (text and JSON).
            assert_eq!(snapshot.log[..before.len()], before[..], "{file} at {at}: the fight before the join");
            let joined = &snapshot.log[before.len()];
            assert_eq!(joined.text.as_deref(), Some("Newcomer joins the fight."), "{file}");
            assert_eq!(joined.json["who"], "Newcomer", "{file}: {}", joined.json);
            let status = snapshot.status.iter().find(|c| c.name == "Newcomer").expect("on the board");
            assert!(status.standing, "{file}: the newcomer stands: {status:?}");
            // Undo takes it back out, as if it had never come.
            session.command(Command::Undo(1)).unwrap();
            assert_eq!(session.snapshot().log, before, "{file}: undone");
            assert!(session.snapshot().status.iter().all(|c| c.name != "Newcomer"), "{file}");
            session.command(Command::Redo(1)).unwrap();
            // It fights: a person plays it, and is asked; it is named in the fight after it joined.
            session.command(Command::Control { who: "Newcomer".into(), person: true }).unwrap();
            let mut asked = false;
            for _ in 0..40 {
                let Some(Pending::Decision { ai, who, .. }) = session.snapshot().pending.clone() else { break };
                asked |= who == "Newcomer";
                session.command(Command::Answer(ai)).unwrap();
            }
            assert!(asked || session.snapshot().ending.is_some(), "{file} at {at}: the newcomer is asked");
            let after = texts(&session);
            assert!(
                after[before.len() + 1..].iter().flatten().any(|t| t.contains("Newcomer")),
                "{file} at {at}: the newcomer takes part: {:#?}",
                &after[before.len()..]
            );
            // The journal restores it.
            let restored = Session::from_json(&session.journal_json()).unwrap();
            assert_eq!(restored.snapshot().log, session.snapshot().log, "{file}: restored");
            assert_eq!(restored.snapshot().status, session.snapshot().status, "{file}: restored board");
        }
    }
}

/// The fight waits for a decision of the first person it asks.
fn at_a_decision(file: &str, text: &str) -> Session {
    let people = fray_rules::load(file, text, &[]).unwrap().combatants();
    let mut session = Session::open(file, text, vec![], 1, DiceMode::Fray, people).unwrap();
    session.defer_odds(true);
    session
}

fn refused(session: &mut Session, stats: &str) -> String {
    let version = session.version();
    let log = session.snapshot().log.clone();
    match session.command(Command::Join { stats: stats.to_owned() }) {
        Err(LiveError::Refused(why)) => {
            assert_eq!((session.version(), &session.snapshot().log), (version, &log), "unchanged");
            why
        }
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn a_bad_stat_block_is_refused_with_its_place() {
    let file = format!("{EXAMPLES}/hardboiled/bar-room-brawl.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut session = at_a_decision(&file, &text);
    let good = newcomer(&text, "Stevedore");
    // A key the ruleset does not know: its line within the block, with "did you mean".
    let why = refused(&mut session, &good.replace("wits = 6", "witz = 6"));
    assert!(why.contains("stat block #1") && why.contains("witz") && why.contains("wits"), "{why}");
    let line = good.lines().position(|l| l.starts_with("wits")).unwrap() + 1;
    assert!(why.contains(&format!(":{line}:")), "the block's own line {line}: {why}");
    // A rule about the entry as a whole (strict attribute dice): told as the block's.
    let why = refused(&mut session, &good.replace("ego = 8", "ego = 6"));
    assert!(why.starts_with("the added combatant's stat block #1:") && why.contains("d6, d8 and d10"), "{why}");
    // A table header.
    let why = refused(&mut session, &format!("{good}[policy]\nattack = \"brawl\"\n"));
    assert!(why.contains("inline tables"), "{why}");
    // A name already in the fight, a side not in it.
    let why = refused(&mut session, &newcomer(&text, "Docker"));
    assert!(why.contains("Docker"), "{why}");
    let why = refused(&mut session, &good.replace("side = \"docks\"", "side = \"police\""));
    assert!(why.contains("no side `police`") && why.contains("Joe, docks"), "{why}");
    // hardboiled rolls HP at the start: a newcomer brings its own.
    let why = refused(&mut session, &good.lines().filter(|l| !l.starts_with("hp_max")).collect::<Vec<_>>().join("\n"));
    assert!(why.contains("hp_max"), "{why}");
    // The good block joins.
    session.command(Command::Join { stats: good }).unwrap();
    assert!(session.snapshot().status.iter().any(|c| c.name == "Stevedore" && c.standing));
    // Twice the same newcomer: the second is a name already taken.
    let why = refused(&mut session, &newcomer(&text, "Stevedore"));
    assert!(why.contains("Stevedore"), "{why}");
}

#[test]
fn a_combatant_joins_where_a_decision_is_awaited_not_dice() {
    let file = format!("{EXAMPLES}/ticks/knife-fight.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let people = fray_rules::load(&file, &text, &[]).unwrap().combatants();
    let mut session = Session::open(&file, &text, vec![], 1, DiceMode::Entered, people).unwrap();
    // Answer decisions until dice are awaited.
    for _ in 0..50 {
        match session.snapshot().pending.clone() {
            Some(Pending::Decision { ai, .. }) => {
                session.command(Command::Answer(ai)).unwrap();
            }
            _ => break,
        }
    }
    assert!(matches!(session.snapshot().pending, Some(Pending::Roll { .. })), "dice awaited");
    let why = refused(&mut session, &newcomer(&text, "Newcomer"));
    assert!(why.contains("enter them first"), "{why}");
}

#[test]
fn a_stat_block_copied_from_the_scenario_joins() {
    // A scenario whose combatants have nested tables (`[[combatants.weapons]]`).
    let file = format!("{EXAMPLES}/phasesix/firefight.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut session = at_a_decision(&file, &text);
    assert_eq!(session.stat_block("Nobody", "X"), None);
    let block = session.stat_block("Raider 2", "Raider 3").unwrap().replace("[25, 4]", "[25, 6]");
    assert!(block.starts_with("name = \"Raider 3\"\n") && block.contains("weapons = [{"), "{block}");
    session.command(Command::Join { stats: block }).unwrap();
    let status = session.snapshot().status.iter().find(|c| c.name == "Raider 3").unwrap().clone();
    assert_eq!(status.side, "raiders");
}

#[test]
fn under_an_initiative_rolled_once_a_newcomer_acts_last() {
    let file = format!("{EXAMPLES}/opend6/brawl.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let people = fray_rules::load(&file, &text, &[]).unwrap().combatants();
    let set = vec![("initiative_method".to_owned(), "roll_once".to_owned())];
    let mut session = Session::open(&file, &text, set, 1, DiceMode::Fray, people).unwrap();
    session.defer_odds(true);
    answer(&mut session, 2);
    let before = session.snapshot().log.len();
    session.command(Command::Join { stats: newcomer(&text, "Newcomer") }).unwrap();
    answer(&mut session, 60);
    let after = texts(&session);
    // No initiative is rolled again, yet the newcomer takes its turns (not only its defences).
    assert!(after[before..].iter().flatten().all(|t| !t.contains("initiative")), "{after:#?}");
    assert!(
        after[before + 1..].iter().flatten().any(|t| t.starts_with("Newcomer declares")),
        "{:#?}",
        &after[before..]
    );
}

#[test]
fn in_phasesix_a_newcomer_takes_its_turn_last() {
    let file = format!("{EXAMPLES}/phasesix/sword-and-shield.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut session = at_a_decision(&file, &text);
    session.command(Command::Join { stats: newcomer(&text, "Newcomer") }).unwrap();
    let before = session.snapshot().log.len();
    answer(&mut session, 60);
    let after = texts(&session);
    // Its own acts, not only the blows it takes.
    assert!(after[before..].iter().flatten().any(|t| t.starts_with("Newcomer — ")), "{:#?}", &after[before..]);
}

/// Plays `n` decisions with the AI's choice; every choice offered on the way, as labelled.
fn offered(session: &mut Session, n: usize) -> Vec<String> {
    let mut seen = Vec::new();
    for _ in 0..n {
        let Some(Pending::Decision { ai, choices, .. }) = session.snapshot().pending.clone() else { break };
        seen.extend(choices);
        session.command(Command::Answer(ai)).unwrap();
    }
    seen
}

#[test]
fn one_taken_out_is_no_target_even_where_the_fallen_are_targets() {
    // rule: TICK-TRACK-5
    // ticks under `out_targetable = true` keeps the fallen as targets, but not one the GM took
    // out of the fight (fled, captured): Tia, taken out, is named in no choice after.
    let file = format!("{EXAMPLES}/ticks/knife-fight.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let people = fray_rules::load(&file, &text, &[]).unwrap().combatants();
    let set = vec![("out_targetable".to_owned(), "true".to_owned())];
    let mut session = Session::open(&file, &text, set, 1, DiceMode::Fray, people).unwrap();
    session.defer_odds(true);
    // A second on Tia's side, so that the fight goes on without her.
    session.command(Command::Join { stats: newcomer(&text, "Newcomer") }).unwrap();
    session.command(Command::Adjust(fray_rules::board::Adjustment::Out { who: "Tia".into() })).unwrap();
    let from = session.snapshot().log.len();
    let seen = offered(&mut session, 40);
    assert!(seen.iter().any(|c| c.contains("Newcomer")), "the newcomer is a target: {seen:#?}");
    assert!(seen.iter().all(|c| !c.contains("Tia")), "{seen:#?}");
    let after = texts(&session);
    // Nobody announces anything at Tia, nor Tia herself: taken out as her announcement was
    // asked, she makes none.
    let announced = |t: &String| t.contains("announces") && t.contains("Tia");
    assert!(!after[from..].iter().flatten().any(announced), "{:#?}", &after[from..]);
}

#[test]
fn one_taken_out_at_its_own_question_does_nothing_after() {
    // The GM takes a combatant out just as its decision is asked (the adjustment comes before
    // the question): the AI answers that question for it, and after that no line of the fight
    // has it act, announce or take an empty turn, in any shipped example.
    for (file, text) in examples() {
        let people = fray_rules::load(&file, &text, &[]).unwrap().combatants();
        for who in &people {
            let mut session = Session::open(&file, &text, vec![], 1, DiceMode::Fray, people.clone()).unwrap();
            session.defer_odds(true);
            // To its first question.
            for _ in 0..40 {
                match session.snapshot().pending.clone() {
                    Some(Pending::Decision { who: w, .. }) if &w == who => break,
                    Some(Pending::Decision { ai, .. }) => {
                        session.command(Command::Answer(ai)).unwrap();
                    }
                    _ => break,
                }
            }
            if !matches!(&session.snapshot().pending, Some(Pending::Decision { who: w, .. }) if w == who) {
                continue;
            }
            session.command(Command::Adjust(fray_rules::board::Adjustment::Out { who: who.clone() })).unwrap();
            let from = session.snapshot().log.len();
            answer(&mut session, 30);
            let after = texts(&session);
            let own: Vec<&String> = after[from..].iter().flatten().filter(|t| t.starts_with(who.as_str())).collect();
            assert!(own.is_empty(), "{file}: {who}, taken out, still: {own:#?}");
        }
    }
}

#[test]
fn one_taken_out_is_in_no_blast_even_where_the_dead_stay_in_play() {
    // rule: FLUID-TRACK-11
    // fluid under `dead_bodies = kept` leaves the dead where they fell, in play as targets and
    // in a grenade's blast; one the GM took out of the fight (fled, captured) is in neither.
    // guard_2 stands 3 m from guard_1, where raider_1's grenades land.
    let file = format!("{EXAMPLES}/fluid/firefight.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let people = fray_rules::load(&file, &text, &[]).unwrap().combatants();
    let set = vec![("dead_bodies".to_owned(), "kept".to_owned())];
    let mut session = Session::open(&file, &text, set, 1, DiceMode::Fray, people).unwrap();
    session.defer_odds(true);
    session.command(Command::Adjust(fray_rules::board::Adjustment::Out { who: "guard_2".into() })).unwrap();
    // Nor a raider running into the blast, which would keep raider_1 from throwing.
    session.command(Command::Adjust(fray_rules::board::Adjustment::Out { who: "raider_3".into() })).unwrap();
    let from = session.snapshot().log.len();
    answer(&mut session, 200);
    let after = texts(&session);
    let lines: Vec<&String> = after[from..].iter().flatten().collect();
    assert!(lines.iter().any(|t| t.contains("with grenade") && t.contains("→ hit")), "{lines:#?}");
    assert!(lines.iter().all(|t| !t.contains("guard_2")), "{lines:#?}");
}
