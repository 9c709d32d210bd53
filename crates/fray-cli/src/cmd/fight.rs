//! `fray check`, `fray fight`, `fray sim` and `fray rules`: scenario files of any ruleset.

use crate::cmd::report::Report;
use anyhow::{Context, Result, bail};
use fray_dice::GENERATOR;
use fray_live::{DiceMode, Session};
use fray_rules::{RULESETS, Scenario};
use serde_json::json;
use std::io::{IsTerminal, Write};

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
    fn read(&self) -> Result<String> {
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
    fn load_variant(&self, base: usize) -> Result<Box<dyn Scenario>> {
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

/// Flags of `fray sim`.
#[derive(clap::Args, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Number of fights.
    #[arg(short = 'n', long = "fights", default_value_t = 10_000, allow_negative_numbers = true)]
    pub fights: u64,
    /// Seed; the same seed gives the same numbers for any thread count, and variations of a
    /// scenario (`--set`) share their dice.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Threads (0 = every core), at most 1024.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=1024))]
    pub threads: u16,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Compare with a variant: the same fights (same seed) again with this option changed as
    /// well, `--compare NAME=VALUE` (repeatable); the report gives both and each outcome's
    /// difference in rate with its 95% interval.
    #[arg(long = "compare", value_name = "NAME=VALUE")]
    pub compare: Vec<String>,
    /// Sweep an option (or a combatant's field, as `--set`) over values: the same fights (same
    /// seed) once per value, `--sweep NAME=V1,V2,…` (at most 64 values; `A..B` or `A..B:STEP`
    /// stands for integers from A to B); the report gives each outcome's rate and interval, and the
    /// fight length, per value.
    #[arg(long, value_name = "NAME=V1,V2,…", conflicts_with = "compare")]
    pub sweep: Option<String>,
}

/// The most values one `--sweep` runs.
pub const MAX_SWEEP: usize = 64;

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

/// Runs `fray sim`.
pub fn sim(args: &SimArgs, out: &mut impl Write) -> Result<()> {
    let scenario = args.scenario.load()?;
    if args.fights == 0 {
        bail!("-n 0: expected at least one fight");
    }
    // The variant: the same file and `--set`s, then the `--compare`s (which win).
    let variant_args = ScenarioArgs {
        file: args.scenario.file.clone(),
        sets: args.scenario.sets.iter().chain(&args.compare).cloned().collect(),
    };
    let variant =
        if args.compare.is_empty() { None } else { Some(variant_args.load_variant(args.scenario.sets.len())?) };
    // A sweep: one variant per value, each checked before any fight runs.
    let sweep = match &args.sweep {
        Some(sweep) => Some(sweep_variants(args, sweep)?),
        None => None,
    };
    // The reports pair outcomes and combatants by place: a variant must keep both.
    let same_roster =
        |other: &dyn Scenario| other.sides() == scenario.sides() && other.combatants() == scenario.combatants();
    if variant.as_deref().is_some_and(|v| !same_roster(v)) {
        bail!("--compare: the variant changes the sides or the combatants' names; a comparison needs the same ones");
    }
    if let Some((value, _, _)) = sweep.iter().flatten().find(|(_, v, _)| !same_roster(&**v)) {
        bail!("--sweep: the value `{value}` changes the sides or the combatants' names; a sweep needs the same ones");
    }
    let runs = match (&variant, &sweep) {
        (_, Some(points)) => points.len() as u64,
        (Some(_), None) => 2,
        (None, None) => 1,
    };
    let bar = if std::io::stderr().is_terminal() && !args.json {
        let bar = indicatif::ProgressBar::new(args.fights.saturating_mul(runs));
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} fights ({per_sec}, {eta})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    let file = args.scenario.file.display().to_string();
    let run = |scenario: &dyn Scenario, sets: &[(String, String)], before: u64| -> Result<Report> {
        let started = std::time::Instant::now();
        let progress = |done: u64| {
            if let Some(bar) = &bar {
                bar.set_position(before.saturating_add(done));
            }
        };
        let ledger = fray_sim::simulate(scenario, args.fights, args.seed, usize::from(args.threads), &progress)?;
        let fights_per_second = ledger.fights() as f64 / started.elapsed().as_secs_f64().max(1e-9);
        Ok(Report::new(scenario, &ledger, args.seed, fights_per_second).with_run(&file, sets))
    };
    let sets = args.scenario.sets()?;
    if let Some(points) = sweep {
        let mut reports = Vec::new();
        for (i, (value, scenario, sets)) in points.iter().enumerate() {
            reports.push((value.clone(), run(&**scenario, sets, (i as u64).saturating_mul(args.fights))?));
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let name = args.sweep.as_deref().and_then(|s| s.split_once('=')).map_or("", |(k, _)| k.trim());
        match args.json {
            true => writeln!(out, "{}", super::report::sweep_json(name, &file, &sets, &reports))?,
            false => write!(out, "{}", super::report::sweep_text(name, &sets, &reports))?,
        }
        return Ok(());
    }
    let report = run(&*scenario, &sets, 0)?;
    let compared = match &variant {
        Some(variant) => Some(run(&**variant, &variant_args.sets()?, args.fights)?),
        None => None,
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match (compared, args.json) {
        (None, true) => writeln!(out, "{}", report.json())?,
        (None, false) => write!(out, "{}", report.text())?,
        (Some(variant), true) => writeln!(out, "{}", report.comparison_json(&variant))?,
        (Some(variant), false) => write!(out, "{}", report.comparison_text(&variant))?,
    }
    Ok(())
}

/// A sweep value `A..B` or `A..B:STEP` (integers, both ends included, STEP ≥ 1; B ≥ A): its
/// values; `None` when the value is not of that shape (it is then a value of its own).
fn integer_range(value: &str) -> Option<Result<impl Iterator<Item = i64>, String>> {
    let (range, step) = value.split_once(':').map_or((value, None), |(r, s)| (r, Some(s)));
    let (a, b) = range.split_once("..")?;
    let (a, b) = (a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?);
    let step = match step.map(|s| s.trim().parse::<i64>()) {
        None => 1,
        Some(Ok(s)) if s >= 1 => s,
        Some(_) => return Some(Err("expected a step of 1 or more after `:`".to_owned())),
    };
    if b < a {
        return Some(Err(format!("expected a range from low to high, found {a}..{b}")));
    }
    Some(Ok((a..=b).step_by(usize::try_from(step).unwrap_or(usize::MAX))))
}

/// The variants of `--sweep NAME=V1,V2,…`: each value with its scenario (the file and `--set`s,
/// then `NAME=value`) and its `--set`s.
type SweepPoint = (String, Box<dyn Scenario>, Vec<(String, String)>);

fn sweep_variants(args: &SimArgs, sweep: &str) -> Result<Vec<SweepPoint>> {
    let Some((raw_name, raw_values)) = sweep.split_once('=') else {
        bail!("--sweep {sweep}: expected NAME=V1,V2,… (an option and the values to run it at)")
    };
    let name = raw_name.trim();
    // Each value with the bytes of `sweep` it was written as (a range's values share its own).
    let mut expanded: Vec<(String, std::ops::Range<usize>)> = Vec::new();
    let mut at = raw_name.len() + 1;
    for piece in raw_values.split(',') {
        let value = piece.trim();
        let start = at + (piece.len() - piece.trim_start().len());
        let span = start..start + value.len();
        at += piece.len() + 1;
        match integer_range(value) {
            Some(range) => {
                let range = range.map_err(|e| anyhow::anyhow!("--sweep {name}: `{value}`: {e}"))?;
                expanded.extend(range.map(|v| (v.to_string(), span.clone())).take(MAX_SWEEP + 1));
            }
            None => expanded.push((value.to_owned(), span)),
        }
    }
    if name.is_empty() || expanded.iter().any(|(v, _)| v.is_empty()) {
        bail!("--sweep {sweep}: expected NAME=V1,V2,… with no empty name or value");
    }
    if expanded.len() > MAX_SWEEP {
        bail!("--sweep {name}: more than {MAX_SWEEP} values (each is a whole simulation)");
    }
    let base = args.scenario.sets.len();
    // The file is read once; each value loads it with its own `--set`s.
    let (file, text) = (args.scenario.file.display().to_string(), args.scenario.read()?);
    let mut points: Vec<SweepPoint> = Vec::new();
    for (value, span) in expanded {
        if points.iter().any(|p| p.0 == value) {
            bail!("--sweep {name}: `{value}` is given twice");
        }
        let mut sets = args.scenario.sets()?;
        sets.push((name.to_owned(), value.clone()));
        let scenario = fray_rules::load(&file, &text, &sets).map_err(|mut e| {
            // An error in the sweep's own `NAME=value` points into the `--sweep` as typed: at the
            // name, or at the value (at the range a value came from).
            if e.file == "--set" && e.line > base {
                let chars = |bytes: usize| sweep[..bytes].chars().count();
                let name_chars = name.chars().count();
                let name_at = chars(raw_name.len() - raw_name.trim_start().len());
                if e.column <= name_chars {
                    e.column += name_at;
                } else if sweep[span.clone()] == value {
                    e.column = chars(span.start) + (e.column - name_chars - 1);
                } else {
                    (e.column, e.width) = (chars(span.start) + 1, sweep[span.clone()].chars().count());
                }
                (e.file, e.line, e.source_line) = ("--sweep".into(), 1, sweep.to_owned());
            }
            anyhow::Error::from(e)
        })?;
        points.push((value, scenario, sets));
    }
    Ok(points)
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
