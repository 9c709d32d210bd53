//! `fray sim`: many fights of a scenario, or of its variants (`--compare`, `--sweep`), as a
//! whole run, a part of one (`--shard`, merged by `fray merge`), or as many fights as a
//! precision asks (`--precision`).

use crate::cmd::fight::ScenarioArgs;
use crate::cmd::report::Report;
use crate::cmd::shard::{self, Kind, PartRun, RunId};
use anyhow::{Context, Result, bail};
use fray_rules::Scenario;
use fray_sim::{BATCH, Ledger};
use std::io::{IsTerminal, Write};

/// Flags of `fray sim`.
#[derive(clap::Args, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// More scenario files: each is run (same seed and fight count, the same `--set`s) and all
    /// are shown side by side in one table: wins, draws, length, one attack's chance to take a
    /// fresh combatant out, an attack's share of a takedown, the weaker side's win rate.
    #[arg(value_name = "MORE.toml")]
    pub more: Vec<std::path::PathBuf>,
    /// Number of fights (with `--precision`, the fights of the first round).
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
    /// Run only part K of N equal parts of the run (K from 1 to N; each part a share of the
    /// batches, of every value of a sweep) and print it as JSON for `fray merge`, which adds the
    /// parts up to the whole run's report.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Run until every outcome's 95% interval is at most this wide on each side (half its width,
    /// e.g. 0.005 for ±0.5 points): rounds of whole batches, the number of fights decided only
    /// from the counts after each round, so it is the same for any thread count.
    #[arg(long, value_name = "HALF_WIDTH")]
    pub precision: Option<f64>,
    /// The most fights `--precision` runs (per scenario or value), or `--solve` runs (all
    /// values together).
    #[arg(long, default_value_t = 10_000_000)]
    pub max_fights: u64,
    /// Find the value of an option or a combatant's field (integers from LO to HI, as `--sweep`
    /// takes them) whose `--target` outcome rate is nearest the target: every value replays the
    /// same fights, and fights are added until the best is told apart from the others at 95%
    /// or `--max-fights` is spent.
    #[arg(long, value_name = "NAME=LO..HI", requires = "target")]
    pub solve: Option<String>,
    /// The outcome and rate `--solve` aims at: `OUTCOME=RATE`, e.g. `heroes=0.5` or `heroes=50%`.
    #[arg(long, value_name = "OUTCOME=RATE", requires = "solve")]
    pub target: Option<String>,
    #[command(flatten)]
    pub files: OutputFiles,
}

/// Files a run writes besides its report on standard output.
#[derive(clap::Args, Debug, Default)]
pub struct OutputFiles {
    /// Also draw the run as an SVG plot: each outcome's rate with its 95% interval and the
    /// fight-length histogram (a sweep: rates against the value with interval bands; a
    /// comparison: both runs and their difference).
    #[arg(long, value_name = "OUT.svg")]
    pub plot: Option<std::path::PathBuf>,
    /// Also write a self-contained HTML page of the run (tables, plots, scenario, command line,
    /// fray's version, seed), to mail or publish as it is.
    #[arg(long, value_name = "OUT.html")]
    pub report: Option<std::path::PathBuf>,
}

/// The most values one `--sweep` runs.
pub const MAX_SWEEP: usize = 64;

/// What `--precision` reached: the target, the widest half-width left, and whether it is met.
#[derive(Clone, Debug)]
pub struct Precision {
    /// The half-width asked for.
    pub target: f64,
    /// The widest half-width of any outcome (of any variant) when the run stopped.
    pub reached: f64,
    /// Whether every outcome is within the target (else `--max-fights` stopped the run).
    pub met: bool,
    /// The fights run after each round (the checkpoints where stopping was decided).
    pub checkpoints: Vec<u64>,
}

impl Precision {
    /// The JSON object added to a report under `precision`.
    pub fn json(&self, fights: u64) -> serde_json::Value {
        serde_json::json!({"target": self.target, "half_width": self.reached, "met": self.met,
                           "fights": fights, "checkpoints": self.checkpoints})
    }

    /// The line added to a text report.
    pub fn text(&self, fights: u64) -> String {
        if self.met {
            format!(
                "precision: every outcome's 95% interval within ±{:.2} points after {fights} fights ({} rounds; widest ±{:.3})\n",
                100.0 * self.target,
                self.checkpoints.len(),
                100.0 * self.reached
            )
        } else {
            format!(
                "precision NOT reached: the widest 95% interval is ±{:.3} points (asked ±{:.2}) after {fights} fights, the --max-fights budget\n",
                100.0 * self.reached,
                100.0 * self.target
            )
        }
    }
}

/// One run of a `fray sim`: the scenario, or a variant of it, with its label (empty, `baseline`,
/// `variant`, or a swept value) and its `--set`s.
struct Run {
    label: String,
    scenario: Box<dyn Scenario>,
    sets: Vec<(String, String)>,
}

/// `--shard K/N` as (K counted from 0, N).
fn parse_shard(shard: &str) -> Result<(u64, u64)> {
    let parsed =
        shard.split_once('/').and_then(|(k, n)| Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)));
    match parsed {
        Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok((k - 1, n)),
        Some((_, 0)) => bail!("--shard {shard}: expected at least one part (N ≥ 1)"),
        Some((k, n)) => bail!("--shard {shard}: part {k} of {n}: parts are counted from 1 to {n}"),
        None => bail!("--shard {shard}: expected K/N, part K (from 1) of N parts, e.g. --shard 2/8"),
    }
}

/// The widest 95% half-width of any outcome of any ledger (sides, mutual and stalemate).
fn widest(reports: &[Ledger], outcomes: &[fray_engine::Outcome]) -> f64 {
    let mut widest: f64 = 0.0;
    for ledger in reports {
        let fights = ledger.fights();
        for outcome in outcomes {
            let k = ledger.outcomes.get(outcome).copied().unwrap_or(0);
            widest = widest.max(fray_sim::half_width(k, fights));
        }
    }
    widest
}

/// The fights the next round of `--precision` aims at: enough for the widest interval by the
/// normal approximation at the current rates (with a tenth more), at least one batch more and
/// at most four times as many, in whole batches, within `max`. A function of the counts alone.
fn next_target(ledgers: &[Ledger], outcomes: &[fray_engine::Outcome], target: f64, done: u64, max: u64) -> u64 {
    let z2 = 1.959_963_984_540_054_f64.powi(2);
    let mut need: f64 = 0.0;
    for ledger in ledgers {
        let fights = ledger.fights().max(1) as f64;
        for outcome in outcomes {
            let p = ledger.outcomes.get(outcome).copied().unwrap_or(0) as f64 / fights;
            need = need.max(z2 * p * (1.0 - p) / (target * target));
        }
    }
    let need = (need * 1.1).ceil().min(u64::MAX as f64 / 2.0) as u64;
    let want = need.div_ceil(BATCH).saturating_mul(BATCH);
    want.clamp(done + BATCH, done.saturating_mul(4).max(done + BATCH)).min(max)
}

/// Runs `fray sim`.
pub fn sim(args: &SimArgs, out: &mut impl Write) -> Result<()> {
    if !args.more.is_empty() {
        return side_by_side(args, out);
    }
    if let Some(spec) = &args.solve {
        let alone = [
            ("--compare", !args.compare.is_empty()),
            ("--sweep", args.sweep.is_some()),
            ("--shard", args.shard.is_some()),
            ("--precision", args.precision.is_some()),
            ("--plot", args.files.plot.is_some()),
            ("--report", args.files.report.is_some()),
        ];
        if let Some((flag, _)) = alone.iter().find(|(_, given)| *given) {
            bail!("--solve runs its own search; it does not go with {flag}");
        }
        if args.fights == 0 || args.max_fights == 0 {
            bail!("--solve: expected at least one fight (-n and --max-fights)");
        }
        return crate::cmd::solve::solve(args, spec, out);
    }
    let scenario = args.scenario.load()?;
    if args.fights == 0 {
        bail!("-n 0: expected at least one fight");
    }
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if shard.is_some() && (args.files.plot.is_some() || args.files.report.is_some()) {
        bail!("--shard prints a part, not a report: give --plot and --report to `fray merge`, which has the whole run");
    }
    if let Some(h) = args.precision {
        if !(h > 0.0 && h < 0.5) {
            bail!("--precision {h}: expected a half-width between 0 and 0.5 (0.005 is ±0.5 points)");
        }
        if shard.is_some() {
            bail!(
                "--precision decides the number of fights as it goes, so it cannot be split with --shard; \
                 run it once, then shard a run of the fights it reports with -n"
            );
        }
    }
    if args.max_fights == 0 {
        bail!("--max-fights 0: expected at least one fight");
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
        Some(sweep) => Some(sweep_variants(args, "--sweep", sweep)?),
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
    let sets = args.scenario.sets()?;
    let sweep_name = args.sweep.as_deref().and_then(|s| s.split_once('=')).map_or("", |(k, _)| k.trim()).to_owned();
    let (kind, runs): (Kind, Vec<Run>) = match (variant, sweep) {
        (_, Some(points)) => (
            Kind::Sweep(sweep_name.clone()),
            points.into_iter().map(|(label, scenario, sets)| Run { label, scenario, sets }).collect(),
        ),
        (Some(variant), None) => (
            Kind::Compare,
            vec![
                Run { label: "baseline".into(), scenario, sets: sets.clone() },
                Run { label: "variant".into(), scenario: variant, sets: variant_args.sets()? },
            ],
        ),
        (None, None) => (Kind::Single, vec![Run { label: String::new(), scenario, sets: sets.clone() }]),
    };
    let file = args.scenario.file.display().to_string();
    let threads = usize::from(args.threads);
    let all_batches = fray_sim::batches(args.fights);
    let range = match shard {
        Some((k, n)) => {
            if n > all_batches {
                bail!(
                    "--shard {}: {n} parts of a run of {all_batches} batches ({BATCH} fights each); \
                     a part needs at least one batch (use at most {all_batches} parts, or more fights)",
                    args.shard.as_deref().unwrap_or_default()
                );
            }
            fray_sim::shard_batches(all_batches, k, n)
        }
        None => 0..all_batches,
    };
    let planned = match args.precision {
        Some(_) => (all_batches * BATCH).min(args.max_fights),
        None => (range.end * BATCH).min(args.fights) - range.start * BATCH,
    };
    let bar = if std::io::stderr().is_terminal() && !args.json && shard.is_none() {
        let bar = indicatif::ProgressBar::new(planned.saturating_mul(runs.len() as u64));
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} fights ({per_sec}, {eta})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    let started = std::time::Instant::now();
    let mut ledgers: Vec<Ledger> = runs.iter().map(|r| Ledger::new(r.scenario.combatant_count())).collect();
    // Runs the batches `range` of a run of `fights` fights for every variant, adding to `ledgers`.
    let run_range = |ledgers: &mut [Ledger], fights: u64, range: std::ops::Range<u64>, before: u64| -> Result<()> {
        let per_run = (range.end * BATCH).min(fights).saturating_sub(range.start * BATCH);
        for (i, (run, ledger)) in runs.iter().zip(ledgers.iter_mut()).enumerate() {
            let at = before + per_run * i as u64;
            let progress = |done: u64| {
                if let Some(bar) = &bar {
                    bar.set_position(at.saturating_add(done));
                }
            };
            ledger.merge(&fray_sim::simulate_batches(
                &*run.scenario,
                fights,
                range.clone(),
                args.seed,
                threads,
                &progress,
            )?);
        }
        Ok(())
    };
    let mut precision = None;
    match args.precision {
        None => run_range(&mut ledgers, args.fights, range.clone(), 0)?,
        Some(target) => {
            // Rounds of whole batches; after each, the counts alone decide whether to stop.
            let outcomes: Vec<fray_engine::Outcome> = Report::new(&*runs[0].scenario, &Ledger::new(0), 0, 0.0)
                .outcome_names()
                .into_iter()
                .map(|(_, o)| o)
                .collect();
            let mut done = 0;
            let mut goal = planned;
            let mut checkpoints = Vec::new();
            loop {
                if let Some(bar) = &bar {
                    bar.set_length(goal.saturating_mul(runs.len() as u64));
                }
                let range = fray_sim::batches(done)..fray_sim::batches(goal);
                run_range(&mut ledgers, goal, range, done.saturating_mul(runs.len() as u64))?;
                done = goal;
                checkpoints.push(done);
                let reached = widest(&ledgers, &outcomes);
                let met = reached <= target;
                if met || done >= args.max_fights || done % BATCH != 0 {
                    precision = Some(Precision { target, reached, met, checkpoints });
                    break;
                }
                goal = next_target(&ledgers, &outcomes, target, done, args.max_fights);
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some((k, n)) = shard {
        let id = RunId {
            fray: env!("CARGO_PKG_VERSION").to_owned(),
            scenario: file.clone(),
            fingerprint: shard::fingerprint(&args.scenario.read()?, &sets, &args.compare, args.sweep.as_deref()),
            seed: args.seed,
            fights: args.fights,
            set: sets.clone(),
            kind,
            parts: n,
        };
        let parts: Vec<PartRun> = runs
            .iter()
            .zip(ledgers)
            .map(|(run, ledger)| PartRun {
                label: run.label.clone(),
                sets: run.sets.clone(),
                roster: Report::new(&*run.scenario, &Ledger::new(0), 0, 0.0).roster(),
                ledger,
            })
            .collect();
        writeln!(out, "{}", shard::part_json(&id, k + 1, range, seconds, &parts))?;
        return Ok(());
    }
    // Most fights at the cap: say so on stderr, as `fray check` does (the report is unchanged);
    // with several runs (--compare, --sweep), say which one.
    for (run, ledger) in runs.iter().zip(&ledgers) {
        if let Some(warning) = super::trial::warning(&*run.scenario, ledger, "fights") {
            let which = if runs.len() > 1 { super::fight::set_text(&run.sets) } else { String::new() };
            let _ = writeln!(std::io::stderr(), "{warning}{which}");
        }
    }
    let total: u64 = ledgers.iter().map(Ledger::fights).sum();
    let fights_per_second = total as f64 / seconds.max(1e-9);
    let reports: Vec<(String, Report)> = runs
        .iter()
        .zip(&ledgers)
        .map(|(run, ledger)| {
            (
                run.label.clone(),
                Report::new(&*run.scenario, ledger, args.seed, fights_per_second).with_run(&file, &run.sets),
            )
        })
        .collect();
    let output = Output { kind: &kind, file: &file, sets: &sets, reports: &reports, precision, json: args.json };
    output.write(out)?;
    output.write_files(&args.files)
}

/// `fray sim A.toml B.toml …`: each scenario run alike, one table.
fn side_by_side(args: &SimArgs, out: &mut impl Write) -> Result<()> {
    let alone = [
        ("--compare", !args.compare.is_empty()),
        ("--sweep", args.sweep.is_some()),
        ("--shard", args.shard.is_some()),
        ("--precision", args.precision.is_some()),
        ("--plot", args.files.plot.is_some()),
        ("--report", args.files.report.is_some()),
    ];
    if let Some((flag, _)) = alone.iter().find(|(_, given)| *given) {
        bail!("{flag} runs one scenario; with several scenario files, run each on its own for {flag}");
    }
    if args.fights == 0 {
        bail!("-n 0: expected at least one fight");
    }
    let mut rows = Vec::new();
    for file in std::iter::once(&args.scenario.file).chain(&args.more) {
        let one = ScenarioArgs { file: file.clone(), sets: args.scenario.sets.clone() };
        let scenario = one.load()?;
        let name = file.display().to_string();
        rows.push(crate::cmd::many::row(
            &name,
            &one.sets()?,
            &*scenario,
            args.fights,
            args.seed,
            usize::from(args.threads),
        )?);
    }
    match args.json {
        true => writeln!(out, "{}", crate::cmd::many::json(&rows, args.fights, args.seed))?,
        false => write!(out, "{}", crate::cmd::many::text(&rows, args.fights, args.seed))?,
    }
    Ok(())
}

/// What a run prints, from its reports: `fray sim`'s and `fray merge`'s.
#[derive(Clone)]
pub struct Output<'a> {
    /// A single run, a comparison or a sweep.
    pub kind: &'a Kind,
    /// The scenario file.
    pub file: &'a str,
    /// The run's `--set`s (a variant's own are in its report).
    pub sets: &'a [(String, String)],
    /// Each run's label and report.
    pub reports: &'a [(String, Report)],
    /// What `--precision` reached, if asked.
    pub precision: Option<Precision>,
    /// JSON rather than text.
    pub json: bool,
}

impl Output<'_> {
    /// Writes the plot and the HTML page asked for.
    pub fn write_files(&self, files: &OutputFiles) -> Result<()> {
        if let Some(path) = &files.plot {
            let svg = crate::cmd::plot::svg(self.kind, self.reports)?;
            std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))?;
        }
        if let Some(path) = &files.report {
            let mut text = Vec::new();
            Output { json: false, ..self.clone() }.write(&mut text)?;
            let html = crate::cmd::html::page(self, &String::from_utf8_lossy(&text))?;
            std::fs::write(path, html).with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }

    /// Prints the report(s).
    pub fn write(&self, out: &mut impl Write) -> Result<()> {
        let fights = self.reports.first().map_or(0, |(_, r)| r.ledger().fights());
        let reports = self.reports;
        match (self.kind, self.json) {
            (Kind::Sweep(name), true) => {
                let mut doc = super::report::sweep_json(name, self.file, self.sets, reports);
                if let Some(p) = &self.precision {
                    doc["precision"] = p.json(fights);
                }
                writeln!(out, "{doc}")?;
            }
            (Kind::Sweep(name), false) => {
                write!(out, "{}", super::report::sweep_text(name, self.sets, reports))?;
                if let Some(p) = &self.precision {
                    write!(out, "{}", p.text(fights))?;
                }
            }
            (Kind::Compare, json) => {
                let [(_, base), (_, variant)] = reports else { bail!("a comparison needs two runs") };
                if json {
                    let mut doc = base.comparison_json(variant);
                    if let Some(p) = &self.precision {
                        doc["precision"] = p.json(fights);
                    }
                    writeln!(out, "{doc}")?;
                } else {
                    write!(out, "{}", base.comparison_text(variant))?;
                    if let Some(p) = &self.precision {
                        write!(out, "{}", p.text(fights))?;
                    }
                }
            }
            (Kind::Single, json) => {
                let [(_, report)] = reports else { bail!("a run needs one report") };
                if json {
                    let mut doc = report.json();
                    if let Some(p) = &self.precision {
                        doc["precision"] = p.json(fights);
                    }
                    writeln!(out, "{doc}")?;
                } else {
                    write!(out, "{}", report.text())?;
                    if let Some(p) = &self.precision {
                        write!(out, "{}", p.text(fights))?;
                    }
                }
            }
        }
        Ok(())
    }
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
pub(crate) type SweepPoint = (String, Box<dyn Scenario>, Vec<(String, String)>);

pub(crate) fn sweep_variants(args: &SimArgs, flag: &str, sweep: &str) -> Result<Vec<SweepPoint>> {
    let Some((raw_name, raw_values)) = sweep.split_once('=') else {
        bail!("{flag} {sweep}: expected NAME=V1,V2,… (an option and the values to run it at)")
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
                let range = range.map_err(|e| anyhow::anyhow!("{flag} {name}: `{value}`: {e}"))?;
                expanded.extend(range.map(|v| (v.to_string(), span.clone())).take(MAX_SWEEP + 1));
            }
            None => expanded.push((value.to_owned(), span)),
        }
    }
    if name.is_empty() || expanded.iter().any(|(v, _)| v.is_empty()) {
        bail!("{flag} {sweep}: expected NAME=V1,V2,… with no empty name or value");
    }
    if expanded.len() > MAX_SWEEP {
        bail!("{flag} {name}: more than {MAX_SWEEP} values (each is a whole simulation)");
    }
    let base = args.scenario.sets.len();
    // The file is read once; each value loads it with its own `--set`s.
    let (file, text) = (args.scenario.file.display().to_string(), args.scenario.read()?);
    let mut points: Vec<SweepPoint> = Vec::new();
    for (value, span) in expanded {
        if points.iter().any(|p| p.0 == value) {
            bail!("{flag} {name}: `{value}` is given twice");
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
                (e.file, e.line, e.source_line) = (flag.into(), 1, sweep.to_owned());
            }
            anyhow::Error::from(e)
        })?;
        points.push((value, scenario, sets));
    }
    Ok(points)
}
