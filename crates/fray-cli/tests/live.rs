//! `fray fight` as a live fight at the terminal: Enter at every prompt gives the plain fight;
//! answer, undo and answer again too; a journal written as the fight goes resumes, from any
//! command it was cut after, to the same fight; a killed fight resumes from its journal.

mod common;
use common::{fray, fray_with_input, ok};
use std::process::{Command, Stdio};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/");

/// A fresh temporary path for a journal.
fn journal_path(name: &str) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("fray-journal-{}-{n}-{name}.json", std::process::id()))
}

/// The JSON events of a fight's output (the header line left out).
fn events(out: &str) -> Vec<serde_json::Value> {
    out.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Examples and a combatant played by a person in each, one per ruleset.
const CASES: &[(&str, &str)] = &[
    ("fluid/barbarian-vs-marauder.toml", "barbarian"),
    ("opend6/blaster-duel.toml", "Smuggler"),
    ("hardboiled/bar-room-brawl.toml", "Joe Bruno"),
    ("phasesix/sword-and-shield.toml", "Hagen"),
    ("ticks/knife-fight.toml", "Max"),
];

fn plain(example: &str, seed: &str) -> Vec<serde_json::Value> {
    events(&ok(&fray(&["fight", &format!("{ROOT}{example}"), "--seed", seed, "--json"])))
}

#[test]
fn enter_at_every_prompt_gives_the_plain_fight() {
    for (example, who) in CASES {
        let control = format!("{who}=human");
        let out = fray_with_input(
            &["fight", &format!("{ROOT}{example}"), "--seed", "4", "--json", "--control", &control],
            &"\n".repeat(3000),
        );
        assert_eq!(events(&ok(&out)), plain(example, "4"), "{example}: {who} answered with Enter throughout");
    }
}

#[test]
fn answering_undoing_and_answering_again_gives_the_plain_fight() {
    for (example, who) in CASES {
        let journal = journal_path("undo");
        let control = format!("{who}=human");
        // The first choice at the first prompt, then undo; then at every prompt Enter (the AI's
        // choice), undo, and Enter again.
        let out = fray_with_input(
            &[
                "fight",
                &format!("{ROOT}{example}"),
                "--seed",
                "4",
                "--control",
                &control,
                "--journal",
                journal.to_str().unwrap(),
            ],
            &format!("1\nu\n{}", "\nu\n\n".repeat(1500)),
        );
        ok(&out);
        let prompts = String::from_utf8(out.stderr).unwrap();
        assert!(prompts.contains("(undone: the log goes back to line"), "{example}: {prompts}");
        // The journal keeps the answers and the undos; replayed, it is the plain fight.
        let text = std::fs::read_to_string(&journal).unwrap();
        assert!(text.contains("\"undo\": 1"), "{text}");
        let resumed = ok(&fray(&["fight", "--resume", journal.to_str().unwrap(), "--json"]));
        assert_eq!(events(&resumed), plain(example, "4"), "{example}");
        std::fs::remove_file(journal).unwrap();
    }
}

#[test]
fn a_journal_cut_after_any_command_resumes_to_the_same_fight() {
    let example = format!("{ROOT}hardboiled/bar-room-brawl.toml");
    let journal = journal_path("whole");
    // Joe answers "1" (declare nothing) whenever asked: a fight unlike the AI's.
    let args = ["fight", &example, "--seed", "8", "--json", "--control", "Joe Bruno=human"];
    let whole =
        ok(&fray_with_input(&[&args[..], &["--journal", journal.to_str().unwrap()]].concat(), &"1\n".repeat(500)));
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&journal).unwrap()).unwrap();
    let commands = saved["commands"].as_array().unwrap().len();
    assert!(commands >= 3, "{saved}");
    for cut in 0..=commands {
        let mut part = saved.clone();
        part["commands"].as_array_mut().unwrap().truncate(cut);
        let path = journal_path("cut");
        std::fs::write(&path, part.to_string()).unwrap();
        let resumed =
            ok(&fray_with_input(&["fight", "--resume", path.to_str().unwrap(), "--json"], &"1\n".repeat(500)));
        assert_eq!(events(&resumed), events(&whole), "cut after {cut} of {commands} commands");
        // The resumed fight kept writing its journal: it is the whole one again.
        let after: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(after, saved, "cut after {cut}");
        std::fs::remove_file(path).unwrap();
    }
    std::fs::remove_file(journal).unwrap();
}

#[test]
fn a_killed_fight_resumes_from_its_journal() {
    let example = format!("{ROOT}phasesix/sword-and-shield.toml");
    let journal = journal_path("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["fight", &example, "--seed", "2", "--json", "--control", "Hagen=human", "--journal"])
        .arg(&journal)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"\n\n\n").unwrap();
        stdin.flush().unwrap();
        // Until the journal holds the three answers, then the process is killed mid-fight.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let text = std::fs::read_to_string(&journal).unwrap_or_default();
            if serde_json::from_str::<serde_json::Value>(&text)
                .is_ok_and(|j| j["commands"].as_array().unwrap().len() == 3)
            {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "the journal never held three answers");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
    let resumed = ok(&fray_with_input(&["fight", "--resume", journal.to_str().unwrap(), "--json"], &"\n".repeat(2000)));
    assert_eq!(events(&resumed), plain("phasesix/sword-and-shield.toml", "2"));
    std::fs::remove_file(journal).unwrap();
}

#[test]
fn status_log_help_and_save_at_the_prompt() {
    let journal = journal_path("saved");
    let input = format!("s\nl 3\n?\nsave {}\nq\n", journal.display());
    let out = fray_with_input(
        &["fight", &format!("{ROOT}hardboiled/bar-room-brawl.toml"), "--seed", "3", "--control", "Joe Bruno=human"],
        &input,
    );
    assert_eq!(out.status.code(), Some(2), "q stops before the end");
    let prompts = String::from_utf8(out.stderr).unwrap();
    assert!(prompts.contains("Joe Bruno (Joe, at 0.0 m)\n  HP 16 of 16; damage this turn 0"), "{prompts}");
    assert!(prompts.contains("Docker (docks, at 1.0 m)"), "{prompts}");
    assert!(prompts.contains("u, undo [N]"), "{prompts}");
    assert!(prompts.contains("saved: resume with `fray fight --resume"), "{prompts}");
    assert!(prompts.contains("no more input: the fight stops at a decision of Joe Bruno"), "{prompts}");
    let saved = std::fs::read_to_string(&journal).unwrap();
    assert!(saved.contains("\"people\": [\n    \"Joe Bruno\"\n  ]"), "{saved}");
    // A finished fight resumed replays its log.
    let resumed = ok(&fray_with_input(&["fight", "--resume", journal.to_str().unwrap(), "--json"], &"\n".repeat(500)));
    assert_eq!(events(&resumed), plain("hardboiled/bar-room-brawl.toml", "3"));
    let again = ok(&fray(&["fight", "--resume", journal.to_str().unwrap(), "--json"]));
    assert_eq!(events(&again), events(&resumed), "a finished fight replays without asking");
    std::fs::remove_file(journal).unwrap();
}

#[test]
fn a_bad_journal_is_refused_with_the_reason() {
    let path = journal_path("bad");
    std::fs::write(&path, "{\"fray\": 1}").unwrap();
    let out = fray(&["fight", "--resume", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("not a journal fray can resume"), "{err}");
    let out = fray(&["fight", "--resume", "/nonexistent/j.json"]);
    assert!(String::from_utf8(out.stderr).unwrap().contains("cannot read the journal"));
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_combatant_joins_from_a_stat_block_file() {
    let block = journal_path("stevedore").with_extension("toml");
    std::fs::write(
        &block,
        "name = \"Stevedore\"\nside = \"docks\"\naction = 8\nwits = 6\nego = 10\nhp_max = 10\nposition = 2\n",
    )
    .unwrap();
    let journal = journal_path("joined");
    let input = format!("join {}\njoin no-such-file.toml\ns\nsave {}\nq\n", block.display(), journal.display());
    let out = fray_with_input(
        &["fight", &format!("{ROOT}hardboiled/bar-room-brawl.toml"), "--seed", "3", "--control", "Joe Bruno=human"],
        &input,
    );
    let (log, prompts) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    assert!(log.contains("Stevedore joins the fight."), "{log}");
    assert!(prompts.contains("join FILE: cannot read `no-such-file.toml`"), "{prompts}");
    assert!(prompts.contains("Stevedore (docks, at 2.0 m)\n  HP 10 of 10"), "{prompts}");
    // The journal keeps the stat block: resumed, the fight has the newcomer.
    let saved = std::fs::read_to_string(&journal).unwrap();
    assert!(saved.contains("\"join\""), "{saved}");
    let resumed = fray_with_input(&["fight", "--resume", journal.to_str().unwrap()], "q\n");
    assert!(String::from_utf8(resumed.stdout).unwrap().contains("Stevedore joins the fight."));
    std::fs::remove_file(journal).unwrap();
    std::fs::remove_file(block).unwrap();
}
