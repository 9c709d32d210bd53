//! `fray fight` on the live-fight interface ([`fray_live::Session`]): the log as the fight goes,
//! a person's prompts on the terminal (choices, physical dice a whole roll at a time, undo, redo,
//! status, log, help, save), and the journal written after every command.

use anyhow::{Context, Result, bail};
use fray_live::{Command, Pending, Session, Snapshot};
use fray_rules::board::Adjustment;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// Writes a prompt to stderr; a closed stderr (the person went away) is not an error here: the
/// next read of stdin ends the input instead.
fn say(text: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().write_fmt(text);
}

/// What a person typed at a prompt.
#[derive(Debug, PartialEq)]
enum Typed {
    /// A command for the fight.
    Command(Command),
    /// Show the status board.
    Status,
    /// Show the last lines of the log.
    Log(usize),
    /// Show the help.
    Help,
    /// Save the journal to a file.
    Save(PathBuf),
    /// Stop here (the journal keeps the fight).
    Quit,
    /// Not understood: the reason.
    Bad(String),
}

const HELP: &str = "\
at a prompt:
  Enter          take the AI's choice (marked [AI's choice])
  N              take choice N
  3 4 5          the faces of the dice you rolled, the whole roll on one line
  u, undo [N]    take back the last command (or N)       r, redo [N]   put it back
  s, status      every combatant's status                l, log [N]    the last N lines (20)
  ai             let the AI play this combatant from now on
  set WHO.TRACK=N          set a track by hand (e.g. `set Lou.hp=3`, `set Vic.ammo[pistol]=6`)
  out WHO        take a combatant out of the fight       (these three at a decision; see `s` for the tracks)
  join FILE      a combatant joins the fight: FILE holds its stat block, the `key = value` lines
                 of one [[combatants]] entry of the scenario (its side one of the fight's)
  end [SIDE]     end the fight here (SIDE wins, or nobody)
  save FILE      write the journal to FILE (resume with `fray fight --resume FILE`)
  q, quit        stop here; ?, help  this help
";

/// Reads `WHO.TRACK=N` or `WHO.TRACK[ITEM]=N`, a track set by hand.
fn setting(text: &str) -> Result<Adjustment, String> {
    let usage = "expected WHO.TRACK=N, e.g. `set Lou.hp=3` or `set Vic.ammo[pistol]=6`";
    let (place, value) = text.rsplit_once('=').ok_or_else(|| usage.to_owned())?;
    let value = value.trim();
    let value = value.parse::<i64>().map_err(|_| format!("expected a whole number after `=`, found `{value}`"))?;
    let place = place.trim();
    let (place, item) = match place.strip_suffix(']').and_then(|p| p.rsplit_once('[')) {
        Some((place, item)) => (place, Some(item.to_owned())),
        None => (place, None),
    };
    let (who, field) = place.rsplit_once('.').ok_or_else(|| usage.to_owned())?;
    if who.is_empty() || field.is_empty() {
        return Err(usage.to_owned());
    }
    Ok(Adjustment::Set { who: who.to_owned(), field: field.to_owned(), item, value })
}

/// Reads one typed line at a prompt for `pending`.
fn parse(line: &str, pending: &Pending) -> Typed {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, r)| (w, r.trim()));
    let count = |rest: &str| -> Result<u32, String> {
        if rest.is_empty() {
            return Ok(1);
        }
        rest.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| format!("expected a count from 1, found `{rest}`"))
    };
    let command = |c: Result<Command, String>| c.map_or_else(Typed::Bad, Typed::Command);
    match word {
        "" => match pending {
            Pending::Decision { ai, .. } => Typed::Command(Command::Answer(*ai)),
            Pending::Roll { .. } => Typed::Bad("type the faces you rolled".to_owned()),
        },
        "u" | "undo" => command(count(rest).map(Command::Undo)),
        "r" | "redo" => command(count(rest).map(Command::Redo)),
        "s" | "status" => Typed::Status,
        "l" | "log" => match rest.parse::<usize>() {
            Ok(n) => Typed::Log(n),
            Err(_) if rest.is_empty() => Typed::Log(20),
            Err(_) => Typed::Bad(format!("expected a number of lines, found `{rest}`")),
        },
        "?" | "h" | "help" => Typed::Help,
        "q" | "quit" => Typed::Quit,
        "save" if rest.is_empty() => Typed::Bad("save FILE: name the file".to_owned()),
        "save" => Typed::Save(PathBuf::from(rest)),
        "ai" => match pending {
            Pending::Decision { who, .. } => Typed::Command(Command::Control { who: who.clone(), person: false }),
            Pending::Roll { .. } => {
                Typed::Bad("`ai` hands a combatant's decisions to the AI, at a decision".to_owned())
            }
        },
        "end" => Typed::Command(Command::End { winner: (!rest.is_empty()).then(|| rest.to_owned()) }),
        "set" => command(setting(rest).map(Command::Adjust)),
        "out" if rest.is_empty() => Typed::Bad("out WHO: name the combatant".to_owned()),
        "out" => Typed::Command(Command::Adjust(Adjustment::Out { who: rest.to_owned() })),
        "join" if rest.is_empty() => {
            Typed::Bad("join FILE: name the file of the combatant's stat block (`key = value` lines)".to_owned())
        }
        "join" => match std::fs::read_to_string(rest) {
            Ok(stats) => Typed::Command(Command::Join { stats }),
            Err(e) => Typed::Bad(format!("join FILE: cannot read `{rest}`: {e}")),
        },
        _ => match pending {
            Pending::Decision { choices, .. } => match line.parse::<usize>() {
                Ok(n) if (1..=choices.len()).contains(&n) => Typed::Command(Command::Answer(n - 1)),
                _ => Typed::Bad(format!("expected a number from 1 to {} (? for help)", choices.len())),
            },
            Pending::Roll { sides, .. } => {
                let faces: Result<Vec<u32>, _> =
                    line.split([' ', ',', '\t']).filter(|f| !f.is_empty()).map(str::parse).collect();
                match faces {
                    Ok(faces) if faces.iter().all(|f| (1..=*sides).contains(f)) => Typed::Command(Command::Dice(faces)),
                    _ => Typed::Bad(format!("expected faces from 1 to {sides}, e.g. `3 4 5` (? for help)")),
                }
            }
        },
    }
}

/// The question for `pending`, as the prompt shows it.
fn question(pending: &Pending) -> String {
    match pending {
        Pending::Decision { who, question, choices, ai, .. } => {
            let mut text = format!("{who} — {question}:\n");
            for (i, option) in choices.iter().enumerate() {
                let mark = if i == *ai { " [AI's choice]" } else { "" };
                text += &format!("  {}. {option}{mark}\n", i + 1);
            }
            text
        }
        Pending::Roll { .. } => String::new(),
    }
}

/// The prompt line for `pending`: `choice [3]: ` or `roll 3d6 for Joe's attack: `.
fn prompt_line(pending: &Pending) -> String {
    match pending {
        Pending::Decision { ai, .. } => format!("choice [{}]: ", ai + 1),
        Pending::Roll { who, what, dice, of, die, sides, explosion } => {
            let whose = who.as_ref().map_or(what.clone(), |w| format!("{w}'s {what}"));
            let (of, die) = (u32::from(*of), u32::from(*die));
            // The first die asked for now: the roll's own number, or counted from the end.
            let first = if die > 0 { die } else { of.saturating_sub(*dice) + 1 };
            let which = match (*explosion, of) {
                (1, 0 | 1) => format!(" (explosion: the {sides} rolled again)"),
                (k, 0 | 1) if k > 1 => format!(" (explosion {k}: the {sides} rolled again)"),
                (1, of) => format!(" (explosion of die {die} of {of})"),
                (k, of) if k > 1 => format!(" (explosion {k} of die {die} of {of})"),
                (_, of) if of > 1 && first > 1 && *dice == 1 => format!(" (die {first} of {of})"),
                (_, of) if of > 1 && first > 1 => format!(" (dice {first} to {of} of {of})"),
                _ => String::new(),
            };
            match dice {
                1 => format!("roll one d{sides} for {whose}{which}: "),
                n => format!("roll {n}d{sides} for {whose}{which}, the faces on one line: "),
            }
        }
    }
}

/// The status board as text.
fn status_text(snapshot: &Snapshot) -> String {
    let mut text = String::new();
    for c in &snapshot.status {
        let position = c.position.as_ref().map_or(String::new(), |p| format!(", at {p}"));
        let out = if c.standing { "" } else { " — out of the fight" };
        text += &format!("{} ({}{position}){out}\n", c.name, c.side);
        let fields: Vec<String> = c.fields.iter().map(|f| format!("{} {}", f.label, f.text)).collect();
        text += &format!("  {}\n", fields.join("; "));
    }
    text
}

/// Writes the journal to `path` durably: a temporary file beside it, synced, then renamed over
/// it, so that a crash leaves the old journal or the new one, never half of one.
pub fn save_journal(session: &Session, path: &Path) -> Result<()> {
    let tmp = path.with_extension("json.tmp");
    let write = || -> std::io::Result<()> {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(session.journal_json().as_bytes())?;
        file.write_all(b"\n")?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            // The rename itself is durable once the folder is synced (where the OS allows it).
            let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    };
    write().with_context(|| format!("cannot write the journal {}", path.display()))
}

/// How the log is written: text or JSON lines.
pub struct LogStyle {
    /// JSON events rather than text.
    pub json: bool,
}

/// Writes the log lines `from..` of `snapshot`.
fn write_log(snapshot: &Snapshot, from: usize, style: &LogStyle, out: &mut impl Write) -> Result<()> {
    for line in snapshot.log.iter().skip(from) {
        if style.json {
            writeln!(out, "{}", line.json)?;
        } else if let Some(text) = &line.text {
            writeln!(out, "{text}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Plays `session` at the terminal to its end: the log to `out`, prompts to stderr, answers from
/// stdin; the journal written to `journal` (if given) after every command, before the next
/// prompt.
pub fn play(session: &mut Session, style: &LogStyle, journal: Option<&Path>, out: &mut impl Write) -> Result<()> {
    if let Some(path) = journal {
        save_journal(session, path)?;
    }
    let stdin = std::io::stdin();
    let mut printed = 0;
    loop {
        let snapshot = session.snapshot();
        if snapshot.log.len() < printed {
            say(format_args!("(undone: the log goes back to line {})\n", snapshot.log.len()));
            printed = snapshot.log.len();
        }
        write_log(snapshot, printed, style, out)?;
        printed = snapshot.log.len();
        let Some(pending) = snapshot.pending.clone() else { return Ok(()) };
        say(format_args!("{}", question(&pending)));
        // One legal choice is no question: it is taken, and said so.
        let typed = if matches!(&pending, Pending::Decision { choices, .. } if choices.len() == 1) {
            say(format_args!("(the only choice)\n"));
            Typed::Command(Command::Answer(0))
        } else {
            say(format_args!("{}", prompt_line(&pending)));
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => return Err(stopped(&pending, journal)),
                Ok(_) => parse(&line, &pending),
            }
        };
        match typed {
            Typed::Command(command) => match session.command(command) {
                Ok(_) => {
                    if let Some(path) = journal {
                        save_journal(session, path)?;
                    }
                }
                Err(e) => say(format_args!("{e}\n")),
            },
            Typed::Status => {
                let tracks = fray_rules::ruleset_info(session.scenario().ruleset()).map_or(&[][..], |r| r.adjustable);
                let keys: Vec<String> = tracks
                    .iter()
                    .map(|t| if t.per_item { format!("{}[ITEM]", t.key) } else { t.key.to_owned() })
                    .collect();
                say(format_args!(
                    "{}tracks to set (set WHO.TRACK=N): {}\n",
                    status_text(session.snapshot()),
                    keys.join(", ")
                ))
            }
            Typed::Log(n) => {
                let log = &session.snapshot().log;
                let texts: Vec<&str> = log.iter().filter_map(|l| l.text.as_deref()).collect();
                for text in &texts[texts.len().saturating_sub(n)..] {
                    say(format_args!("{text}\n"));
                }
            }
            Typed::Help => say(format_args!("{HELP}")),
            Typed::Save(path) => match save_journal(session, &path) {
                Ok(()) => say(format_args!("saved: resume with `fray fight --resume {}`\n", path.display())),
                Err(e) => say(format_args!("{e:#}\n")),
            },
            Typed::Quit => return Err(stopped(&pending, journal)),
            Typed::Bad(why) => say(format_args!("{why}\n")),
        }
    }
}

/// The error for a fight stopped before its end at `pending`.
fn stopped(pending: &Pending, journal: Option<&Path>) -> anyhow::Error {
    let at = match pending {
        Pending::Decision { who, .. } => format!("a decision of {who}"),
        Pending::Roll { who: Some(who), what, .. } => format!("{who}'s {what} roll"),
        Pending::Roll { what, .. } => format!("the {what} roll"),
    };
    let resume = journal.map_or(String::new(), |j| format!("; resume with `fray fight --resume {}`", j.display()));
    anyhow::anyhow!("no more input: the fight stops at {at}{resume}")
}

/// Reads a journal file for `--resume`.
pub fn resume(path: &Path) -> Result<Session> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read the journal {}", path.display()))?;
    if text.len() > 64 << 20 {
        bail!("{}: larger than 64 MiB; a journal is a small JSON file", path.display());
    }
    Session::from_json(&text).with_context(|| format!("{}: not a journal fray can resume", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision() -> Pending {
        Pending::Decision {
            who: "Joe".into(),
            combatant: 0,
            side: "a".into(),
            question: "your action".into(),
            choices: vec!["x".into(), "y".into(), "z".into()],
            data: vec![serde_json::json!(0); 3],
            odds: vec![None; 3],
            ai: 1,
        }
    }

    fn roll() -> Pending {
        Pending::Roll { who: Some("Joe".into()), what: "attack".into(), dice: 3, of: 3, die: 0, sides: 6, explosion: 0 }
    }

    #[test]
    fn typed_lines() {
        assert_eq!(parse("", &decision()), Typed::Command(Command::Answer(1)));
        assert_eq!(parse(" 3 ", &decision()), Typed::Command(Command::Answer(2)));
        assert!(matches!(parse("4", &decision()), Typed::Bad(why) if why.contains("from 1 to 3")));
        assert_eq!(parse("u", &decision()), Typed::Command(Command::Undo(1)));
        assert_eq!(parse("undo 3", &roll()), Typed::Command(Command::Undo(3)));
        assert!(matches!(parse("undo x", &roll()), Typed::Bad(_)));
        assert_eq!(parse("redo", &roll()), Typed::Command(Command::Redo(1)));
        assert_eq!(parse("3 4 5", &roll()), Typed::Command(Command::Dice(vec![3, 4, 5])));
        assert_eq!(parse("3,4", &roll()), Typed::Command(Command::Dice(vec![3, 4])));
        assert!(matches!(parse("3 7", &roll()), Typed::Bad(why) if why.contains("from 1 to 6")));
        assert!(matches!(parse("", &roll()), Typed::Bad(_)));
        assert_eq!(parse("s", &roll()), Typed::Status);
        assert_eq!(parse("log 5", &roll()), Typed::Log(5));
        assert_eq!(parse("save j.json", &roll()), Typed::Save("j.json".into()));
        assert_eq!(parse("ai", &decision()), Typed::Command(Command::Control { who: "Joe".into(), person: false }));
        assert_eq!(parse("end heroes", &decision()), Typed::Command(Command::End { winner: Some("heroes".into()) }));
        let set = |who: &str, field: &str, item: Option<&str>, value| {
            Typed::Command(Command::Adjust(Adjustment::Set {
                who: who.into(),
                field: field.into(),
                item: item.map(Into::into),
                value,
            }))
        };
        assert_eq!(parse("set Joe Bruno.hp=3", &decision()), set("Joe Bruno", "hp", None, 3));
        assert_eq!(parse("set Vic.ammo[pistol] = -1", &decision()), set("Vic", "ammo", Some("pistol"), -1));
        assert_eq!(
            parse("out The Shadow", &decision()),
            Typed::Command(Command::Adjust(Adjustment::Out { who: "The Shadow".into() }))
        );
        for bad in ["set Lou", "set Lou.hp=x", "set hp=3", "out"] {
            assert!(matches!(parse(bad, &decision()), Typed::Bad(_)), "{bad}");
        }
        assert_eq!(parse("?", &decision()), Typed::Help);
    }

    #[test]
    fn roll_prompts() {
        assert_eq!(prompt_line(&roll()), "roll 3d6 for Joe's attack, the faces on one line: ");
        let rest =
            Pending::Roll { who: None, what: "location".into(), dice: 1, of: 3, die: 0, sides: 10, explosion: 0 };
        assert_eq!(prompt_line(&rest), "roll one d10 for location (die 3 of 3): ");
        let wild = Pending::Roll {
            who: Some("Han".into()),
            what: "Wild Die".into(),
            dice: 1,
            of: 0,
            die: 0,
            sides: 6,
            explosion: 1,
        };
        assert_eq!(prompt_line(&wild), "roll one d6 for Han's Wild Die (explosion: the 6 rolled again): ");
        let pool = Pending::Roll { who: None, what: "hit".into(), dice: 3, of: 4, die: 2, sides: 6, explosion: 0 };
        assert_eq!(prompt_line(&pool), "roll 3d6 for hit (dice 2 to 4 of 4), the faces on one line: ");
        let six = Pending::Roll { who: None, what: "hit".into(), dice: 1, of: 4, die: 2, sides: 6, explosion: 2 };
        assert_eq!(prompt_line(&six), "roll one d6 for hit (explosion 2 of die 2 of 4): ");
    }
}
