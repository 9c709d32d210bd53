//! `fray odds`: the exact distribution of an expression, as a table with a bar chart or as JSON.

use super::roll::value_json;
use anyhow::Result;
use fray_dice::{BigRational, Distribution, Event, Options, Probability, Program, Value, fraction};
use num_traits::{ToPrimitive, Zero};
use serde_json::json;
use std::io::Write;

/// Flags of `fray odds`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The dice expression, e.g. "3d6+5 >= 15" or "6d6!!cs>=5" (or use --scenario).
    #[arg(required_unless_present_any = ["scenario", "attacker", "defender"])]
    pub expr: Option<String>,
    /// Odds in context: a scenario file; with --attacker and --defender, the exact odds of the
    /// attacker's default attack on the defender at the start of the fight.
    #[arg(long, value_name = "FILE", conflicts_with = "expr", requires_all = ["attacker", "defender"])]
    pub scenario: Option<std::path::PathBuf>,
    /// The attacking combatant (with --scenario).
    #[arg(long, value_name = "NAME", requires = "scenario")]
    pub attacker: Option<String>,
    /// The defending combatant (with --scenario).
    #[arg(long, value_name = "NAME", requires = "scenario")]
    pub defender: Option<String>,
    /// With --scenario: the odds as if the attacker stood D from the defender, moved along the line
    /// between them (along +x when they share a point), everyone else where the file puts them. In
    /// metres; under `ticks` in squares (the square nearest that point; a square is `square_m`
    /// metres, 1 by default); under `opend6` whole metres. Under `fluid` it replaces the opening
    /// approach: the attack is made from D without moving. From 0 to 100000 (2000 under `opend6`).
    #[arg(long, value_name = "D", requires = "scenario", allow_negative_numbers = true)]
    pub distance: Option<f64>,
    /// Override a scenario option (with --scenario): `--set name=value`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub sets: Vec<String>,
    /// Also give the exact probability that the value is at least T.
    #[arg(long, value_name = "T", allow_negative_numbers = true, conflicts_with = "scenario")]
    pub at_least: Option<i64>,
    /// Also give the exact probability that the value is at most T.
    #[arg(long, value_name = "T", allow_negative_numbers = true, conflicts_with = "scenario")]
    pub at_most: Option<i64>,
    /// Extra tosses followed per die for unlimited explosions in the full table (the rest is the
    /// residual), at most 1000.
    #[arg(long, default_value_t = Options::default().depth, conflicts_with = "scenario")]
    pub depth: u32,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fray odds`.
pub fn run(args: &Args, out: &mut impl Write) -> Result<()> {
    if let Some(file) = &args.scenario {
        return in_context(args, file, out);
    }
    let Some(expr) = &args.expr else { anyhow::bail!("expected a dice expression or --scenario") };
    let program = Program::parse(expr)?;
    let options = Options { depth: args.depth };
    let dist = program.distribution(&options)?;
    let events: Vec<(&str, i64, Probability)> = [("at_least", args.at_least), ("at_most", args.at_most)]
        .into_iter()
        .filter_map(|(name, t)| t.map(|t| (name, t)))
        .map(|(name, t)| {
            let event = if name == "at_least" { Event::AtLeast(t) } else { Event::AtMost(t) };
            Ok((name, t, program.probability(event, &options)?))
        })
        .collect::<Result<_>>()?;
    let exact_mean = program.mean(&options)?;
    let report = Report {
        mean: match &exact_mean {
            Some(m) => vec![m.clone()],
            None => dist.mean_of_outcomes(),
        },
        mean_exact: exact_mean.is_some(),
        program,
        dist,
        events,
    };
    if args.json { write_json(out, &report) } else { write_table(out, &report) }
}

/// Everything `fray odds` prints, in either form.
struct Report<'a> {
    program: Program,
    dist: Distribution,
    /// The mean per component (one for a number).
    mean: Vec<BigRational>,
    /// Whether `mean` is the exact mean rather than the mean of the listed outcomes.
    mean_exact: bool,
    /// (JSON key, threshold, probability) per requested event.
    events: Vec<(&'a str, i64, Probability)>,
}

fn write_json(out: &mut impl Write, report: &Report) -> Result<()> {
    let Report { program, dist, mean, mean_exact, events } = report;
    let outcomes: Vec<_> = dist.outcomes().map(|(v, p)| json!({"value": value_json(&v), "p": fraction(&p)})).collect();
    let mut doc = json!({
        "expr": program.source(),
        "outcomes": outcomes,
        "mean": if program.is_tuple() {
            json!(mean.iter().map(fraction).collect::<Vec<_>>())
        } else {
            json!(fraction(&mean[0]))
        },
        "residual": fraction(&dist.residual()),
    });
    if !mean_exact && !dist.residual().is_zero() {
        // The mean of the listed outcomes only; the true mean is not derivable here.
        doc["mean_exact"] = json!(false);
    }
    for (name, t, prob) in events {
        let mut event = json!({"threshold": t, "p": fraction(&prob.p)});
        if !prob.residual.is_zero() {
            event["exact"] = json!(false);
            event["upper"] = json!(fraction(&(&prob.p + &prob.residual)));
        }
        doc[*name] = event;
    }
    writeln!(out, "{doc}")?;
    Ok(())
}

fn decimal(r: &BigRational) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

/// A probability as a short decimal: four places, or two significant digits when smaller.
fn approx(r: &BigRational) -> String {
    let p = decimal(r);
    if p > 0.0 && p < 1e-4 { format!("{p:.2e}") } else { format!("{p:.4}") }
}

fn percent(r: &BigRational) -> String {
    let p = decimal(r) * 100.0;
    if r.is_zero() {
        "0".to_owned()
    } else if p >= 0.01 {
        format!("{p:.2}%")
    } else if p > 0.0 && p.is_normal() {
        format!("{p:.2e}%")
    } else {
        // Too small for a float: the power of ten from the lengths of numerator and denominator.
        let digits = |n: String| n.trim_start_matches('-').len() as i64;
        format!("~1e{}%", digits(r.numer().to_string()) - digits(r.denom().to_string()) + 2)
    }
}

fn write_table(out: &mut impl Write, report: &Report) -> Result<()> {
    let Report { program, dist, mean, mean_exact, events } = report;
    writeln!(out, "{program}")?;
    let rows: Vec<(Value, BigRational)> = dist.outcomes().collect();
    let tuple = program.is_tuple();
    let peak = rows.iter().map(|(_, p)| decimal(p)).fold(0.0, f64::max);
    let width = rows.iter().map(|(v, _)| v.to_string().len()).max().unwrap_or(5).max(5);
    if tuple {
        writeln!(out, "{:>width$}  {:>9}  exact", "value", "P(=)")?;
    } else {
        writeln!(out, "{:>width$}  {:>9}  {:>9}  {:>9}  {:<30}  exact P(=)", "value", "P(=)", "P(≥)", "P(≤)", "")?;
    }
    let mut below = BigRational::zero();
    let listed: BigRational = rows.iter().map(|(_, p)| p).sum();
    for (value, p) in &rows {
        let bar = "█".repeat(((decimal(p) / peak) * 30.0).round() as usize);
        let exact = fraction(p);
        let exact = if exact.len() > 40 { String::from("…") } else { exact };
        if tuple {
            writeln!(out, "{:>width$}  {:>9}  {bar:<30}  {exact}", value.to_string(), percent(p))?;
        } else {
            let at_least = &listed - &below;
            below += p;
            writeln!(
                out,
                "{:>width$}  {:>9}  {:>9}  {:>9}  {bar:<30}  {exact}",
                value.to_string(),
                percent(p),
                percent(&at_least),
                percent(&below),
            )?;
        }
    }
    let mean_text: Vec<String> = mean.iter().map(|m| format!("{} ≈ {:.4}", fraction(m), decimal(m))).collect();
    let note = if *mean_exact || dist.residual().is_zero() { "" } else { " (of the listed outcomes)" };
    writeln!(out, "mean {}{note}", mean_text.join(", "))?;
    let residual = dist.residual();
    if !residual.is_zero() {
        writeln!(
            out,
            "residual {} ≈ {:.3e}: explosion chains longer than the depth, not listed (raise --depth)",
            fraction(&residual),
            decimal(&residual)
        )?;
        if !tuple {
            writeln!(out, "P(≥) and P(≤) count the listed outcomes only; --at-least and --at-most count everything")?;
        }
    }
    for (name, t, prob) in events {
        let op = if *name == "at_least" { "≥" } else { "≤" };
        if prob.residual.is_zero() {
            writeln!(out, "P(value {op} {t}) = {} ≈ {:.6}", fraction(&prob.p), decimal(&prob.p))?;
        } else {
            let upper = &prob.p + &prob.residual;
            writeln!(
                out,
                "P(value {op} {t}) is between {} ≈ {:.6} and {} ≈ {:.6} (not exact: no finite window bounds these explosions)",
                fraction(&prob.p),
                decimal(&prob.p),
                fraction(&upper),
                decimal(&upper)
            )?;
        }
    }
    Ok(())
}

/// A fraction for a person: in full when short, else a pointer to the JSON, which has it in full.
fn readable(p: &BigRational) -> String {
    let text = fraction(p);
    if text.len() <= 40 { text } else { format!("({} digits; in full with --json)", text.len()) }
}

/// `fray odds --scenario`: the exact odds of one attack, from the ruleset's own rule code.
fn in_context(args: &Args, file: &std::path::Path, out: &mut impl Write) -> Result<()> {
    let loader = super::fight::ScenarioArgs { file: file.to_path_buf(), sets: args.sets.clone() };
    let scenario = loader.load()?;
    let (attacker, defender) = (args.attacker.as_deref().unwrap_or(""), args.defender.as_deref().unwrap_or(""));
    // Odds in context are of an attack on an enemy: the AI's choices they follow (defence,
    // tactics, the attacker's weapon) are made against enemies.
    let names = scenario.combatants();
    let index = |name: &str| names.iter().position(|n| n == name);
    for name in [attacker, defender] {
        if index(name).is_none() {
            let hint = names
                .iter()
                .find(|n| n.to_lowercase() == name.to_lowercase())
                .map(String::as_str)
                .or_else(|| fray_rules::did_you_mean(name, names.iter().map(String::as_str)))
                .map_or(String::new(), |n| format!("; did you mean `{n}`?"));
            anyhow::bail!("no combatant `{name}` (combatants: {}){hint}", names.join(", "));
        }
    }
    if let (Some(a), Some(d)) = (index(attacker), index(defender))
        && a != d
        && scenario.side_of(a) == scenario.side_of(d)
    {
        anyhow::bail!(
            "`{attacker}` and `{defender}` are both on side `{}`: odds in context are of an attack on an enemy",
            scenario.sides()[scenario.side_of(a)]
        );
    }
    let odds = scenario.attack_odds_at(attacker, defender, args.distance).map_err(|e| anyhow::anyhow!(e))?;
    if args.json {
        let damage: Vec<_> = odds
            .damage_given_hit
            .iter()
            .map(|(label, parts, p)| {
                let mut entry = serde_json::Map::new();
                entry.insert("outcome".into(), json!(label));
                for (name, v) in parts {
                    entry.insert(name.clone(), json!(v));
                }
                entry.insert("p".into(), json!(fraction(p)));
                serde_json::Value::Object(entry)
            })
            .collect();
        let doc = json!({
            "scenario": file.display().to_string(),
            "attacker": attacker,
            "defender": defender,
            "distance": odds.distance,
            "distance_unit": odds.distance_unit,
            "distance_asked": args.distance.is_some(),
            "assumptions": odds.assumptions,
            "hit": fraction(&odds.hit),
            "damage_given_hit": damage,
            "down_given_hit": fraction(&odds.down_given_hit),
            "down": fraction(&odds.down),
            "residual": fraction(&odds.residual),
        });
        writeln!(out, "{doc}")?;
        return Ok(());
    }
    let at = match odds.distance {
        Some(d) if args.distance.is_some() => {
            format!(", from {} (--distance)", fray_rules::distance_text(d, odds.distance_unit))
        }
        Some(d) => format!(", from {}", fray_rules::distance_text(d, odds.distance_unit)),
        None => String::new(),
    };
    writeln!(out, "{attacker} attacks {defender} ({}), at the start of the fight{at}:", file.display())?;
    for line in &odds.assumptions {
        writeln!(out, "  {line}")?;
    }
    writeln!(out, "P(hit) = {} ≈ {}", fraction(&odds.hit), approx(&odds.hit))?;
    writeln!(out, "{}:", odds.damage_heading)?;
    // A long tail (a pool's megacrits) is summed into one line past the first dozen outcomes
    // once what is left is under one in a million; `--json` has every outcome.
    let mut left = fray_dice::BigRational::from_integer(1.into());
    let tiny = fray_dice::BigRational::new(1.into(), 1_000_000.into());
    for (i, (label, _, p)) in odds.damage_given_hit.iter().enumerate() {
        if i >= 12 && left < tiny {
            let rest = &odds.damage_given_hit[i..];
            let total: fray_dice::BigRational = rest.iter().map(|(_, _, p)| p.clone()).sum();
            let last = &rest[rest.len() - 1].0;
            writeln!(
                out,
                "  {:<18} {:>9}  ({} more outcomes up to {last}; each with --json)",
                "…",
                percent(&total),
                rest.len()
            )?;
            break;
        }
        writeln!(out, "  {label:<18} {:>9}  {}", percent(p), readable(p))?;
        left -= p;
    }
    writeln!(
        out,
        "P(one hit takes {defender} down | hit) = {} ≈ {}",
        readable(&odds.down_given_hit),
        approx(&odds.down_given_hit)
    )?;
    writeln!(out, "P(this attack takes {defender} down) = {} ≈ {}", readable(&odds.down), approx(&odds.down))?;
    if !odds.residual.is_zero() {
        writeln!(
            out,
            "({}: every value is exact up to a residual of {:.1e})",
            odds.residual_note,
            decimal(&odds.residual)
        )?;
    }
    Ok(())
}
