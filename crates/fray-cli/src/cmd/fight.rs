//! `fray fight` and `fray sim`: scenario files of any ruleset (and the flags `fray check` shares).

use crate::cmd::report::Report;
use anyhow::{Context, Result, bail};
use fray_dice::{GENERATOR, SourceError};
use fray_engine::{Dice, FightError, Reason};
use fray_rules::{Prompt, Scenario};
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};

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
        // Most fights at the cap: say so on stderr, as `fray check` does (the report is unchanged).
        if let Some(warning) = super::trial::warning(scenario, &ledger, "fights") {
            // With several runs (--compare, --sweep), say which one.
            let which = if runs > 1 { set_text(sets) } else { String::new() };
            match &bar {
                Some(bar) => bar.suspend(|| say(format_args!("{warning}{which}\n"))),
                None => say(format_args!("{warning}{which}\n")),
            }
        }
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
