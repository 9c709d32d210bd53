//! `fray check`, `fray fight`, `fray sim` and `fray rules`: scenario files of any ruleset.

use anyhow::{Context, Result, bail};
use fray_dice::{GENERATOR, SourceError};
use fray_engine::{Dice, FightError, Reason};
use fray_rules::{Prompt, RULESETS, Scenario};
use serde_json::json;
use std::io::{BufRead, Write};

/// Flags shared by the scenario commands.
#[derive(clap::Args, Debug)]
pub struct ScenarioArgs {
    /// The scenario file (TOML).
    pub file: std::path::PathBuf,
    /// Override an option: `--set name=value` (repeatable), as under `[rules.options]`; or a
    /// combatant's field: `--set COMBATANT.FIELD=VALUE` (`marauder.pc=14`, `barbarian.items.axe.oq=2`).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub sets: Vec<String>,
}

/// The largest scenario file read: far above any scenario's size, so that a wrong path (a device,
/// a huge file) is refused instead of read into memory.
const MAX_SCENARIO_BYTES: u64 = 4 << 20;

impl ScenarioArgs {
    /// Reads the scenario file's text (at most [`MAX_SCENARIO_BYTES`]).
    pub(crate) fn read(&self) -> Result<String> {
        use std::io::Read;
        let name = self.file.display().to_string();
        let file = std::fs::File::open(&self.file).with_context(|| format!("cannot read {name}"))?;
        let mut bytes = Vec::new();
        file.take(MAX_SCENARIO_BYTES + 1).read_to_end(&mut bytes).with_context(|| format!("cannot read {name}"))?;
        if bytes.len() as u64 > MAX_SCENARIO_BYTES {
            bail!("{name}: larger than {} MiB; a scenario file is a small TOML file", MAX_SCENARIO_BYTES >> 20);
        }
        String::from_utf8(bytes).map_err(|e| {
            anyhow::anyhow!("{name}: not UTF-8 text (byte {} is not valid UTF-8)", e.utf8_error().valid_up_to())
        })
    }

    /// The `--set` overrides as (name, value) pairs.
    pub fn sets(&self) -> Result<Vec<(String, String)>> {
        let mut sets = Vec::new();
        for set in &self.sets {
            let Some((k, v)) = set.split_once('=') else { bail!("--set {set}: expected NAME=VALUE") };
            sets.push((k.trim().to_owned(), v.trim().to_owned()));
        }
        Ok(sets)
    }

    /// Reads and validates the scenario.
    pub fn load(&self) -> Result<Box<dyn Scenario>> {
        Ok(self.load_text()?.0)
    }

    /// Reads and validates a variant whose `--set`s after the first `base` are `--compare`s: an
    /// error in one of those names `--compare` and its place among them.
    pub(crate) fn load_variant(&self, base: usize) -> Result<Box<dyn Scenario>> {
        let name = self.file.display().to_string();
        let text = self.read()?;
        fray_rules::load(&name, &text, &self.sets()?).map_err(|mut e| {
            if e.file == "--set" && e.line > base {
                e.file = "--compare".into();
                e.line -= base;
            }
            e.into()
        })
    }

    /// Reads and validates the scenario, keeping the file's text.
    fn load_text(&self) -> Result<(Box<dyn Scenario>, String)> {
        let name = self.file.display().to_string();
        let text = self.read()?;
        let scenario = fray_rules::load(&name, &text, &self.sets()?)?;
        Ok((scenario, text))
    }
}

/// Flags of `fray fight`.
#[derive(clap::Args, Debug)]
pub struct FightArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Seed of the ChaCha8 generator; random (and printed) when omitted.
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Print JSON events, one per line, after a header line.
    #[arg(long)]
    pub json: bool,
    /// Let a person at the terminal answer a combatant's decisions: `--control NAME=human`.
    #[arg(long = "control", value_name = "NAME=human")]
    pub control: Vec<String>,
    /// Where the dice come from: `seeded` (default) or `manual` (type the faces of physical dice).
    #[arg(long, default_value = "seeded")]
    pub dice: String,
}

/// Flags of `fray rules`.
#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    /// A ruleset id; without it, the list of rulesets.
    pub id: Option<String>,
}

/// Runs `fray check`: validates and explains the scenario, then runs a short trial of seeded
/// fights and warns when most of them end with no winner ([`crate::cmd::trial`]).
pub fn check(args: &ScenarioArgs, out: &mut impl Write) -> Result<()> {
    let (scenario, text) = args.load_text()?;
    writeln!(out, "{}: ok", args.file.display())?;
    write!(out, "{}", scenario.explain())?;
    // The options that differ from the ruleset's defaults: the file's, then `--set`'s (which win).
    let table: toml::Table = toml::from_str(&text).unwrap_or_default();
    let mut set: Vec<String> = table
        .get("rules")
        .and_then(|r| r.get("options"))
        .and_then(|o| o.as_table())
        .map(|o| o.iter().map(|(k, v)| format!("{k} = {v}")).collect())
        .unwrap_or_default();
    // A `--set` that names a combatant and a field edited the file (shown in the summary above).
    let names = scenario.combatants();
    let (edits, options): (Vec<_>, Vec<_>) = args
        .sets()?
        .into_iter()
        .partition(|(k, _)| names.iter().any(|n| k.strip_prefix(n.as_str()).is_some_and(|r| r.starts_with('.'))));
    set.extend(options.into_iter().map(|(k, v)| format!("{k} = {v} (--set)")));
    if !edits.is_empty() {
        writeln!(out, "combatants edited by --set (as shown above):")?;
        for (k, v) in edits {
            writeln!(out, "  {k} = {v}")?;
        }
    }
    if set.is_empty() {
        writeln!(out, "options: the defaults (`fray rules {}` lists them)", scenario.ruleset())?;
    } else {
        writeln!(out, "options (every other one at its default, `fray rules {}`):", scenario.ruleset())?;
        for line in set {
            writeln!(out, "  {line}")?;
        }
    }
    // A short trial of seeded fights: does the scenario produce a winner?
    let trial = crate::cmd::trial::run(&*scenario).context("the trial fights")?;
    write!(out, "{}", crate::cmd::trial::text(&*scenario, &trial))?;
    Ok(())
}

fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(0x6672_6179);
    hasher.finish()
}

/// Writes a prompt to stderr; a closed stderr (the person went away) is not an error here: the
/// next read of stdin ends the input instead.
fn say(text: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = std::io::stderr().write_fmt(text);
}

/// Dice typed by a person: each prompt names who rolls what, one die per line; the dice of one
/// roll are numbered, "die 2 of 3" when the roll says how many it takes ([`Reason::dice`]), else
/// "die 2", "die 3", … for the same reason and die asked again with no event between them; a
/// roll that numbers its dice itself ([`Reason::die`]) is shown as it says, with an exploding
/// die's re-rolls as "explosion of die 2 of 5" ([`Reason::explosion`]).
struct Manual {
    /// Combatant names, in roster order.
    names: Vec<String>,
    /// The last die asked for (its reason and sides) and how many in a row were asked for it.
    last: Option<(Reason, u32, u32)>,
    /// Set when an event has been written since the last die: the next die starts a new roll.
    event_since: std::rc::Rc<std::cell::Cell<bool>>,
}

impl Dice for Manual {
    fn roll(&mut self, sides: u32, reason: Reason) -> Result<u32, SourceError> {
        let stdin = std::io::stdin();
        let whose = match reason.who.and_then(|w| self.names.get(w.index())) {
            Some(name) => format!("{name}'s {}", reason.what),
            None => reason.what.to_owned(),
        };
        // A roll that says how many dice it takes restarts its count after the last of them.
        let n = match self.last {
            Some((r, s, n))
                if r == reason
                    && s == sides
                    && !self.event_since.get()
                    && (reason.dice == 0 || n < u32::from(reason.dice)) =>
            {
                n + 1
            }
            _ => 1,
        };
        self.last = Some((reason, sides, n));
        self.event_since.set(false);
        let nth = if reason.die > 0 {
            // The roll numbers its dice itself: an exploding die's re-rolls come before the next die.
            let die = match reason.dice {
                0 | 1 => String::new(),
                of => format!("die {} of {of}", reason.die),
            };
            match (reason.explosion, die.is_empty()) {
                (0, true) => String::new(),
                (0, false) => format!(" ({die})"),
                (1, true) => " (explosion: the 6 rolled again)".to_owned(),
                (k, true) => format!(" (explosion {k}: the 6 rolled again)"),
                (1, false) => format!(" (explosion of {die})"),
                (k, false) => format!(" (explosion {k} of {die})"),
            }
        } else {
            match reason.dice {
                0 | 1 if n == 1 => String::new(),
                0 | 1 => format!(" (die {n})"),
                of => format!(" (die {n} of {of})"),
            }
        };
        loop {
            say(format_args!("roll one d{sides} for {whose}{nth}: "));
            let mut line = String::new();
            if stdin.lock().read_line(&mut line).map_err(|e| SourceError(e.to_string()))? == 0 {
                return Err(SourceError("no more input".into()));
            }
            match line.trim().parse::<u32>() {
                Ok(face) if (1..=sides).contains(&face) => return Ok(face),
                _ if line.split_whitespace().count() > 1 => {
                    say(format_args!("one face per line: the face of this one d{sides}, from 1 to {sides}\n"))
                }
                _ => say(format_args!("expected a face from 1 to {sides}\n")),
            }
        }
    }
}

/// Asks a person at the terminal, on stderr, reading the answer from stdin: `None` once stdin
/// has ended (the fight then stops rather than play default answers for the person).
fn ask_person(prompt: &Prompt) -> Option<usize> {
    let stdin = std::io::stdin();
    say(format_args!("{} — {}:\n", prompt.who, prompt.question));
    for (i, option) in prompt.options.iter().enumerate() {
        let ai = if i == prompt.default { " [AI's choice]" } else { "" };
        say(format_args!("  {}. {option}{ai}\n", i + 1));
    }
    // One legal choice is no question: it is taken, and said so.
    if prompt.options.len() == 1 {
        say(format_args!("(the only choice)\n"));
        return Some(0);
    }
    loop {
        say(format_args!("choice [{}]: ", prompt.default + 1));
        let mut line = String::new();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => return None,
            Ok(_) => {}
        }
        let line = line.trim();
        // Enter takes the default: what the combatant's AI would choose.
        if line.is_empty() {
            return Some(prompt.default);
        }
        match line.parse::<usize>() {
            Ok(n) if (1..=prompt.options.len()).contains(&n) => return Some(n - 1),
            _ => say(format_args!("expected a number from 1 to {}\n", prompt.options.len())),
        }
    }
}

/// Runs `fray fight`.
pub fn fight(args: &FightArgs, out: &mut impl Write) -> Result<()> {
    let scenario = args.scenario.load()?;
    let names = scenario.combatants();
    let mut humans = Vec::new();
    for control in &args.control {
        let Some((name, who)) = control.split_once('=') else { bail!("--control {control}: expected NAME=human") };
        if who != "human" {
            bail!("--control {control}: the only controller is `human`");
        }
        if !names.iter().any(|n| n == name) {
            bail!("--control {control}: no combatant `{name}` (combatants: {})", names.join(", "));
        }
        humans.push(name.to_owned());
    }
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let mut seeded = fray_engine::FromSource(fray_dice::seeded(seed));
    let event_since = std::rc::Rc::new(std::cell::Cell::new(false));
    let mut manual = Manual { names: names.clone(), last: None, event_since: event_since.clone() };
    let dice: &mut dyn Dice = match args.dice.as_str() {
        "seeded" => &mut seeded,
        "manual" => &mut manual,
        other => bail!("--dice {other}: expected `seeded` or `manual`"),
    };
    let header = json!({
        "fray": env!("CARGO_PKG_VERSION"),
        "ruleset": scenario.ruleset(),
        "generator": if args.dice == "manual" { "manual" } else { GENERATOR },
        "seed": if args.dice == "manual" { json!(null) } else { json!(seed) },
        "scenario": args.scenario.file.display().to_string(),
        "combatants": names,
        "sides": scenario.sides(),
        "set": set_json(&args.scenario.sets()?),
    });
    if args.json {
        writeln!(out, "{header}")?;
    } else {
        let dice =
            if args.dice == "manual" { "physical dice".to_owned() } else { format!("seed {seed} ({GENERATOR})") };
        writeln!(
            out,
            "fray {} — {} — {} — {dice}{}",
            env!("CARGO_PKG_VERSION"),
            scenario.ruleset(),
            args.scenario.file.display(),
            set_text(&args.scenario.sets()?)
        )?;
    }
    let mut io_error = None;
    let mut write_line = |line: &fray_rules::Line| {
        event_since.set(true);
        let written = if args.json {
            writeln!(out, "{}", line.json)
        } else {
            match &line.text {
                Some(text) => writeln!(out, "{text}"),
                None => Ok(()),
            }
        };
        if let Err(e) = written {
            io_error.get_or_insert(e);
        }
    };
    let result =
        scenario.fight(dice, (args.dice == "seeded").then_some(seed), &humans, &mut ask_person, &mut write_line);
    if let Some(e) = io_error {
        return Err(e.into());
    }
    match result {
        Ok(_) => Ok(()),
        Err(FightError::Dice { what, message }) => bail!("dice for {what}: {message}"),
        Err(FightError::Pending(who)) => {
            bail!("no more input: the fight stops at a decision of {}", names[who.index()])
        }
        Err(e) => Err(e.into()),
    }
}

/// The `--set`s of a run, for a JSON header: `{"name": "value", …}` in the order given (a later
/// `--set` of the same name wins, as in the run).
pub fn set_json(sets: &[(String, String)]) -> serde_json::Value {
    serde_json::Value::Object(sets.iter().map(|(k, v)| (k.clone(), json!(v))).collect())
}

/// The `--set`s of a run for a text header: ` — set a=1, b=2`, or nothing.
pub fn set_text(sets: &[(String, String)]) -> String {
    if sets.is_empty() {
        return String::new();
    }
    let pairs: Vec<String> = sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!(" — set {}", pairs.join(", "))
}

/// Runs `fray rules`.
pub fn rules(args: &RulesArgs, out: &mut impl Write) -> Result<()> {
    let Some(id) = &args.id else {
        for ruleset in RULESETS {
            writeln!(out, "{:<12} {}", ruleset.id, ruleset.summary)?;
        }
        return Ok(());
    };
    let Some(ruleset) = RULESETS.iter().find(|r| r.id == id) else {
        let known: Vec<&str> = RULESETS.iter().map(|r| r.id).collect();
        let hint = fray_rules::did_you_mean(&id.to_lowercase(), known.iter().copied())
            .map_or(String::new(), |k| format!("; did you mean `{k}`?"));
        bail!("unknown ruleset `{id}`; the rulesets are {}{hint}", known.join(", "));
    };
    writeln!(
        out,
        "{} — {}\n\noptions ([rules.options] in a scenario, or --set NAME=VALUE):",
        ruleset.id, ruleset.summary
    )?;
    let width = ruleset.options.iter().map(|o| o.name.len()).max().unwrap_or(0);
    for option in ruleset.options {
        writeln!(
            out,
            "  {:<width$}  default {:<16} alternatives: {:<24} clauses: {}",
            option.name, option.default, option.alternatives, option.clauses
        )?;
    }
    writeln!(out, "\nAI policies (policy = {{ FIELD = \"NAME\" }} per combatant; the first is the default):")?;
    for (field, names) in ruleset.policies {
        writeln!(out, "  {field:<8} {}", names.join(", "))?;
    }
    Ok(())
}
