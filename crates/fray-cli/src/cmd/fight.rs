//! `fray fight`: scenario files of any ruleset (and the flags `fray check` and `fray sim` share).

use anyhow::{Context, Result, bail};
use fray_dice::GENERATOR;
use fray_live::{DiceMode, Session};
use fray_rules::Scenario;
use serde_json::json;
use std::io::Write;

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
    pub fn load_text(&self) -> Result<(Box<dyn Scenario>, String)> {
        let name = self.file.display().to_string();
        let text = self.read()?;
        let scenario = fray_rules::load(&name, &text, &self.sets()?)?;
        Ok((scenario, text))
    }
}

/// Flags of `fray fight`.
#[derive(clap::Args, Debug)]
pub struct FightArgs {
    /// The scenario file (TOML); not with `--resume`, whose journal holds the scenario.
    #[arg(required_unless_present = "resume")]
    pub file: Option<std::path::PathBuf>,
    /// Override an option: `--set name=value` (repeatable), as under `[rules.options]`; or a
    /// combatant's field: `--set COMBATANT.FIELD=VALUE` (`marauder.pc=14`, `barbarian.items.axe.oq=2`).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub sets: Vec<String>,
    /// Seed of the ChaCha8 generator; random (and printed) when omitted.
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Print JSON events, one per line, after a header line.
    #[arg(long)]
    pub json: bool,
    /// Let a person at the terminal answer a combatant's decisions: `--control NAME=human`.
    #[arg(long = "control", value_name = "NAME=human")]
    pub control: Vec<String>,
    /// Where the dice come from: `seeded` (default) or `manual` (type the faces of physical dice,
    /// a whole roll on one line).
    #[arg(long, default_value = "seeded")]
    pub dice: String,
    /// Write the fight's journal to this file as the fight goes (every command on disk before the
    /// next prompt); `fray fight --resume FILE` continues it.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<std::path::PathBuf>,
    /// Continue the fight a journal saved (and keep writing to it); a finished fight replays its
    /// log.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "sets", "seed", "control"])]
    pub resume: Option<std::path::PathBuf>,
}

fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(0x6672_6179);
    hasher.finish()
}

/// Opens the live fight `fray fight` asks for: a new one from the scenario file, or a saved one.
fn open_fight(args: &FightArgs) -> Result<Session> {
    if let Some(path) = &args.resume {
        return crate::cmd::live::resume(path);
    }
    let Some(file) = &args.file else { bail!("fray fight: name a scenario file, or --resume a journal") };
    let scenario_args = ScenarioArgs { file: file.clone(), sets: args.sets.clone() };
    let (scenario, text) = scenario_args.load_text()?;
    let names = scenario.combatants();
    let mut people = Vec::new();
    for control in &args.control {
        let Some((name, who)) = control.split_once('=') else { bail!("--control {control}: expected NAME=human") };
        if who != "human" {
            bail!("--control {control}: the only controller is `human`");
        }
        if !names.iter().any(|n| n == name) {
            bail!("--control {control}: no combatant `{name}` (combatants: {})", names.join(", "));
        }
        people.push(name.to_owned());
    }
    let dice = match args.dice.as_str() {
        "seeded" => DiceMode::Fray,
        "manual" => DiceMode::Entered,
        other => bail!("--dice {other}: expected `seeded` or `manual`"),
    };
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let name = file.display().to_string();
    Ok(Session::open(&name, &text, scenario_args.sets()?, seed, dice, people)?)
}

/// Runs `fray fight`.
pub fn fight(args: &FightArgs, out: &mut impl Write) -> Result<()> {
    let mut session = open_fight(args)?;
    let journal = session.journal().clone();
    let scenario = session.scenario();
    let manual = journal.dice == DiceMode::Entered;
    if args.json {
        let header = json!({
            "fray": env!("CARGO_PKG_VERSION"),
            "ruleset": scenario.ruleset(),
            "generator": if manual { "manual" } else { GENERATOR },
            "seed": if manual { json!(null) } else { json!(journal.seed) },
            "scenario": journal.file,
            "combatants": scenario.combatants(),
            "sides": scenario.sides(),
            "set": set_json(&journal.set),
        });
        writeln!(out, "{header}")?;
    } else {
        let dice = if manual { "physical dice".to_owned() } else { format!("seed {} ({GENERATOR})", journal.seed) };
        writeln!(
            out,
            "fray {} — {} — {} — {dice}{}",
            env!("CARGO_PKG_VERSION"),
            scenario.ruleset(),
            journal.file,
            set_text(&journal.set)
        )?;
    }
    let path = args.journal.as_deref().or(args.resume.as_deref());
    crate::cmd::live::play(&mut session, &crate::cmd::live::LogStyle { json: args.json }, path, out)
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
