//! `fray check`: validate a scenario, explain it, and try it with a short trial of fights.

use crate::cmd::fight::ScenarioArgs;
use crate::cmd::trial::{self, Trial};
use anyhow::{Context, Result};
use fray_engine::{Outcome, SideId};
use fray_rules::Scenario;
use serde_json::json;
use std::io::Write;

/// Flags of `fray check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Print one JSON object: the summary, the options set, the edits and the trial's rates.
    #[arg(long)]
    pub json: bool,
}

/// `name = value` pairs, in order.
type Pairs = Vec<(String, String)>;

/// The options a scenario sets away from the defaults, the file's first and then `--set`'s
/// (which win), and the `--set`s that edited a combatant instead.
fn settings(args: &ScenarioArgs, scenario: &dyn Scenario, text: &str) -> Result<(Pairs, Pairs)> {
    let table: toml::Table = toml::from_str(text).unwrap_or_default();
    let mut options: Vec<(String, String)> = table
        .get("rules")
        .and_then(|r| r.get("options"))
        .and_then(|o| o.as_table())
        .map(|o| o.iter().map(|(k, v)| (k.clone(), v.to_string())).collect())
        .unwrap_or_default();
    // A `--set` that names a combatant and a field edited the file (shown in the summary).
    let names = scenario.combatants();
    let (edits, sets): (Vec<_>, Vec<_>) = args
        .sets()?
        .into_iter()
        .partition(|(k, _)| names.iter().any(|n| k.strip_prefix(n.as_str()).is_some_and(|r| r.starts_with('.'))));
    options.extend(sets.into_iter().map(|(k, v)| (k, format!("{v} (--set)"))));
    Ok((options, edits))
}

/// Runs `fray check`: validates and explains the scenario, then runs a short trial of seeded
/// fights and warns when most of them end with no winner ([`crate::cmd::trial`]).
pub fn run(args: &CheckArgs, out: &mut impl Write) -> Result<()> {
    let (scenario, text) = args.scenario.load_text()?;
    let (options, edits) = settings(&args.scenario, &*scenario, &text)?;
    if args.json {
        let trial = trial::run(&*scenario).context("the trial fights")?;
        writeln!(out, "{}", json(args, &*scenario, &options, &edits, &trial))?;
        return Ok(());
    }
    writeln!(out, "{}: ok", args.scenario.file.display())?;
    write!(out, "{}", scenario.explain())?;
    if !edits.is_empty() {
        writeln!(out, "combatants edited by --set (as shown above):")?;
        for (k, v) in edits {
            writeln!(out, "  {k} = {v}")?;
        }
    }
    if options.is_empty() {
        writeln!(out, "options: the defaults (`fray rules {}` lists them)", scenario.ruleset())?;
    } else {
        writeln!(out, "options (every other one at its default, `fray rules {}`):", scenario.ruleset())?;
        for (k, v) in options {
            writeln!(out, "  {k} = {v}")?;
        }
    }
    let trial = trial::run(&*scenario).context("the trial fights")?;
    write!(out, "{}", trial::text(&*scenario, &trial))?;
    Ok(())
}

/// `fray check --json`: `{"file", "ok", "ruleset", "sides", "combatants", "cap", "summary",
/// "options", "edits", "trial"}`.
fn json(
    args: &CheckArgs,
    scenario: &dyn Scenario,
    options: &[(String, String)],
    edits: &[(String, String)],
    trial: &Trial,
) -> serde_json::Value {
    let pairs = |list: &[(String, String)]| {
        serde_json::Value::Object(list.iter().map(|(k, v)| (k.clone(), json!(v))).collect())
    };
    let (unit, _) = scenario.time_unit();
    let trial = match trial {
        Trial::Skipped => json!({"skipped": true}),
        Trial::Ran(ledger) => {
            let fights = ledger.fights();
            let rate = |o: Outcome| ledger.outcomes.get(&o).copied().unwrap_or(0) as f64 / fights.max(1) as f64;
            let mut rates = serde_json::Map::new();
            for (i, side) in scenario.sides().iter().enumerate() {
                rates.insert(side.clone(), json!(rate(Outcome::Side(SideId(i as u16)))));
            }
            rates.insert("mutual".into(), json!(rate(Outcome::Mutual)));
            rates.insert("stalemate".into(), json!(rate(Outcome::Stalemate)));
            json!({"skipped": false, "fights": fights, "seed": trial::SEED, "outcomes": rates,
                   "warning": trial::warning(scenario, ledger, "trial fights")})
        }
    };
    json!({
        "file": args.scenario.file.display().to_string(),
        "ok": true,
        "ruleset": scenario.ruleset(),
        "sides": scenario.sides(),
        "combatants": scenario.combatants(),
        "cap": {"value": scenario.cap(), "unit": unit},
        "summary": scenario.explain(),
        "options": pairs(options),
        "edits": pairs(edits),
        "trial": trial,
    })
}
