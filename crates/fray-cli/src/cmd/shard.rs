//! Runs split into parts: the JSON of one part (`fray sim --shard K/N`) and `fray merge`, which
//! adds the parts' ledgers up to the report of the whole run.
//!
//! A part records the run it belongs to ([`RunId`]: fray's version, the scenario's file and a
//! fingerprint of its text and of the `--set`s, `--compare`s and `--sweep`, the seed, the fight
//! count, what kind of run, the number of parts) and, for each scenario of the run (one, a
//! baseline and a variant, or a sweep's values), its raw ledger: fights per outcome and length,
//! and each combatant's totals. Batches are seeded by their index, so the ledgers of the parts
//! add up to exactly the whole run's, and the merged report is the one `fray sim` prints.

use crate::cmd::report::{Report, Roster};
use crate::cmd::sim::Output;
use anyhow::{Context, Result, bail};
use fray_engine::{Outcome, SideId};
use fray_sim::{CombatantLedger, Ledger};
use serde_json::{Value, json};
use std::io::Write;

/// The version of the part format: a part of another format is refused.
const FORMAT: u64 = 1;

/// What kind of run a part belongs to.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// One scenario.
    Single,
    /// A baseline and a variant (`--compare`).
    Compare,
    /// A sweep of the named option or field (`--sweep`).
    Sweep(String),
}

/// The run a part belongs to: parts merge only when all of this is the same.
#[derive(Clone, Debug, PartialEq)]
pub struct RunId {
    /// fray's version.
    pub fray: String,
    /// The scenario file as named on the command line.
    pub scenario: String,
    /// A fingerprint of the scenario's text and the `--set`s, `--compare`s and `--sweep` ([`fingerprint`]).
    pub fingerprint: String,
    /// The seed.
    pub seed: u64,
    /// The fights of the whole run (per scenario).
    pub fights: u64,
    /// The `--set`s.
    pub set: Vec<(String, String)>,
    /// What kind of run.
    pub kind: Kind,
    /// Into how many parts the run is split.
    pub parts: u64,
}

/// One scenario's share of a part: its label, `--set`s, roster and ledger.
pub struct PartRun {
    /// Empty, `baseline`, `variant` or a swept value.
    pub label: String,
    /// The `--set`s of this scenario (a variant's include its `--compare`s).
    pub sets: Vec<(String, String)>,
    /// Its combatants, sides and unit.
    pub roster: Roster,
    /// What its fights of this part counted.
    pub ledger: Ledger,
}

/// A fingerprint of a run's scenario: FNV-1a (64 bits) of the scenario file's text, then each
/// `--set`, `--compare` and the `--sweep`, each behind a separator. It tells runs apart by their
/// input; it is no protection against a part forged on purpose.
pub fn fingerprint(text: &str, sets: &[(String, String)], compare: &[String], sweep: Option<&str>) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(text.as_bytes());
    for (k, v) in sets {
        eat(b"\x00set\x00");
        eat(k.as_bytes());
        eat(b"=");
        eat(v.as_bytes());
    }
    for c in compare {
        eat(b"\x00compare\x00");
        eat(c.as_bytes());
    }
    if let Some(sweep) = sweep {
        eat(b"\x00sweep\x00");
        eat(sweep.as_bytes());
    }
    format!("fnv1a64:{hash:016x}")
}

fn outcome_code(outcome: Outcome) -> Value {
    match outcome {
        Outcome::Side(side) => json!(side.0),
        Outcome::Mutual => json!("mutual"),
        Outcome::Stalemate => json!("stalemate"),
    }
}

fn outcome_from(code: &Value, sides: usize) -> Option<Outcome> {
    match code {
        Value::String(s) if s == "mutual" => Some(Outcome::Mutual),
        Value::String(s) if s == "stalemate" => Some(Outcome::Stalemate),
        Value::Number(n) => {
            let side = u16::try_from(n.as_u64()?).ok()?;
            (usize::from(side) < sides).then_some(Outcome::Side(SideId(side)))
        }
        _ => None,
    }
}

fn sets_json(sets: &[(String, String)]) -> Value {
    Value::Array(sets.iter().map(|(k, v)| json!([k, v])).collect())
}

fn ledger_json(ledger: &Ledger) -> Value {
    json!({
        "outcomes": ledger.outcomes.iter().map(|(o, c)| json!([outcome_code(*o), c])).collect::<Vec<_>>(),
        "lengths": ledger.lengths.iter().map(|((o, l), c)| json!([outcome_code(*o), l, c])).collect::<Vec<_>>(),
        "combatants": ledger.combatants.iter()
            .map(|c| json!([c.attacks, c.hits, c.crits, c.damage_dealt, c.damage_taken, c.downed]))
            .collect::<Vec<_>>(),
    })
}

/// The JSON of part `k` (from 1) of a run: the run's identity, the batches it ran, how long it
/// took, and each scenario's ledger.
pub fn part_json(id: &RunId, k: u64, batches: std::ops::Range<u64>, seconds: f64, runs: &[PartRun]) -> Value {
    let (kind, sweep) = match &id.kind {
        Kind::Single => ("single", Value::Null),
        Kind::Compare => ("compare", Value::Null),
        Kind::Sweep(name) => ("sweep", json!(name)),
    };
    json!({
        "fray_part": FORMAT,
        "fray": id.fray,
        "generator": fray_dice::GENERATOR,
        "run": {
            "scenario": id.scenario,
            "fingerprint": id.fingerprint,
            "seed": id.seed,
            "fights": id.fights,
            "set": sets_json(&id.set),
            "kind": kind,
            "sweep": sweep,
        },
        "shard": {"part": k, "of": id.parts, "batches": [batches.start, batches.end]},
        "seconds": seconds,
        "runs": runs.iter().map(|r| json!({
            "label": r.label,
            "set": sets_json(&r.sets),
            "combatants": r.roster.names,
            "sides": r.roster.sides,
            "unit": [r.roster.unit.0, r.roster.unit.1],
            "ledger": ledger_json(&r.ledger),
        })).collect::<Vec<_>>(),
    })
}

/// A part read back.
struct Part {
    file: String,
    id: RunId,
    part: u64,
    batches: (u64, u64),
    seconds: f64,
    runs: Vec<PartRun>,
}

/// Reads a JSON value's field, or says which is missing or of the wrong kind.
fn field<'v, T>(v: &'v Value, path: &str, get: impl Fn(&'v Value) -> Option<T>) -> Result<T> {
    let mut at = v;
    for key in path.split('.') {
        at = at.get(key).with_context(|| format!("no field `{path}`"))?;
    }
    get(at).with_context(|| format!("field `{path}` is not what a part holds there"))
}

fn sets_from(v: &Value) -> Option<Vec<(String, String)>> {
    v.as_array()?.iter().map(|p| Some((p.get(0)?.as_str()?.to_owned(), p.get(1)?.as_str()?.to_owned()))).collect()
}

fn strings(v: &Value) -> Option<Vec<String>> {
    v.as_array()?.iter().map(|s| s.as_str().map(str::to_owned)).collect()
}

fn ledger_from(v: &Value, combatants: usize, sides: usize) -> Result<Ledger> {
    let mut ledger = Ledger::new(combatants);
    for o in field(v, "outcomes", Value::as_array)? {
        let (Some(outcome), Some(count)) =
            (o.get(0).and_then(|c| outcome_from(c, sides)), o.get(1).and_then(Value::as_u64))
        else {
            bail!("ledger: an outcome count that is not [outcome, count]: {o}")
        };
        *ledger.outcomes.entry(outcome).or_default() += count;
    }
    for o in field(v, "lengths", Value::as_array)? {
        let parsed = (
            o.get(0).and_then(|c| outcome_from(c, sides)),
            o.get(1).and_then(Value::as_u64).and_then(|l| u32::try_from(l).ok()),
            o.get(2).and_then(Value::as_u64),
        );
        let (Some(outcome), Some(length), Some(count)) = parsed else {
            bail!("ledger: a length count that is not [outcome, length, count]: {o}")
        };
        *ledger.lengths.entry((outcome, length)).or_default() += count;
    }
    let rows = field(v, "combatants", Value::as_array)?;
    if rows.len() != combatants {
        bail!("ledger: {} combatant rows for {combatants} combatants", rows.len());
    }
    for (row, c) in rows.iter().zip(&mut ledger.combatants) {
        let n = |i: usize| row.get(i).and_then(Value::as_i64);
        let u = |i: usize| row.get(i).and_then(Value::as_u64);
        let (Some(attacks), Some(hits), Some(crits), Some(dealt), Some(taken), Some(downed)) =
            (u(0), u(1), u(2), n(3), n(4), u(5))
        else {
            bail!("ledger: a combatant row that is not six counts: {row}")
        };
        *c = CombatantLedger { attacks, hits, crits, damage_dealt: dealt, damage_taken: taken, downed };
    }
    Ok(ledger)
}

/// The largest part file read (a part is a few kilobytes per scenario).
const MAX_PART_BYTES: u64 = 64 << 20;

fn read_part(path: &std::path::Path) -> Result<Part> {
    use std::io::Read;
    let file = path.display().to_string();
    let f = std::fs::File::open(path).with_context(|| format!("cannot read {file}"))?;
    let mut text = String::new();
    f.take(MAX_PART_BYTES + 1).read_to_string(&mut text).with_context(|| format!("cannot read {file}"))?;
    if text.len() as u64 > MAX_PART_BYTES {
        bail!("{file}: larger than {} MiB; not a part of `fray sim --shard`", MAX_PART_BYTES >> 20);
    }
    let v: Value = serde_json::from_str(&text)
        .with_context(|| format!("{file}: not a part of `fray sim --shard K/N --json` (not JSON)"))?;
    let parse = || -> Result<Part> {
        match v.get("fray_part").and_then(Value::as_u64) {
            Some(FORMAT) => {}
            Some(other) => bail!("part format {other}; this fray reads format {FORMAT}"),
            None => bail!("not a part of `fray sim --shard K/N` (no `fray_part` field)"),
        }
        let kind = match field(&v, "run.kind", Value::as_str)? {
            "single" => Kind::Single,
            "compare" => Kind::Compare,
            "sweep" => Kind::Sweep(field(&v, "run.sweep", Value::as_str)?.to_owned()),
            other => bail!("unknown kind of run `{other}`"),
        };
        let id = RunId {
            fray: field(&v, "fray", Value::as_str)?.to_owned(),
            scenario: field(&v, "run.scenario", Value::as_str)?.to_owned(),
            fingerprint: field(&v, "run.fingerprint", Value::as_str)?.to_owned(),
            seed: field(&v, "run.seed", Value::as_u64)?,
            fights: field(&v, "run.fights", Value::as_u64)?,
            set: field(&v, "run.set", sets_from)?,
            kind,
            parts: field(&v, "shard.of", Value::as_u64)?,
        };
        let batches = field(&v, "shard.batches", |b| Some((b.get(0)?.as_u64()?, b.get(1)?.as_u64()?)))?;
        let mut runs = Vec::new();
        for r in field(&v, "runs", Value::as_array)? {
            let unit = field(r, "unit", |u| Some((u.get(0)?.as_str()?.to_owned(), u.get(1)?.as_f64())))?;
            let roster = Roster { names: field(r, "combatants", strings)?, sides: field(r, "sides", strings)?, unit };
            let ledger = ledger_from(field(r, "ledger", Some)?, roster.names.len(), roster.sides.len())?;
            runs.push(PartRun {
                label: field(r, "label", Value::as_str)?.to_owned(),
                sets: field(r, "set", sets_from)?,
                roster,
                ledger,
            });
        }
        Ok(Part {
            file: file.clone(),
            id,
            part: field(&v, "shard.part", Value::as_u64)?,
            batches,
            seconds: field(&v, "seconds", Value::as_f64)?,
            runs,
        })
    };
    parse().with_context(|| file.clone())
}

/// Flags of `fray merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The parts, each the output of `fray sim … --shard K/N --json`: every K from 1 to N once.
    #[arg(required = true, value_name = "PART.json")]
    pub parts: Vec<std::path::PathBuf>,
    /// Print one JSON object (as `fray sim --json`).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub files: crate::cmd::sim::OutputFiles,
}

/// Why two parts are not of the same run, or `None` when they are.
fn mismatch(a: &RunId, b: &RunId) -> Option<String> {
    if a.fray != b.fray {
        return Some(format!("it was run by fray {}, the first part by fray {}", b.fray, a.fray));
    }
    if a.fingerprint != b.fingerprint || a.set != b.set || a.kind != b.kind {
        let what = if a.set != b.set {
            "with other --set options"
        } else if a.kind != b.kind {
            "as another kind of run (single, --compare or --sweep)"
        } else if a.scenario != b.scenario {
            "of another scenario file"
        } else {
            "of another scenario (the file's text, --compare or --sweep differ)"
        };
        return Some(format!(
            "it is a part of another run: {what} ({} {}, the first part {} {})",
            b.scenario, b.fingerprint, a.scenario, a.fingerprint
        ));
    }
    if a.seed != b.seed {
        return Some(format!("it was run with seed {}, the first part with seed {}", b.seed, a.seed));
    }
    if a.fights != b.fights {
        return Some(format!("it is a part of a run of {} fights, the first part of {}", b.fights, a.fights));
    }
    if a.parts != b.parts {
        return Some(format!("it is a part of {} parts, the first part of {}", b.parts, a.parts));
    }
    None
}

/// Runs `fray merge`: reads the parts, checks that they are every part of one run, adds their
/// ledgers and prints the whole run's report.
pub fn merge(args: &MergeArgs, out: &mut impl Write) -> Result<()> {
    let mut parts = Vec::new();
    for path in &args.parts {
        parts.push(read_part(path)?);
    }
    let first = &parts[0];
    for p in &parts[1..] {
        if let Some(why) = mismatch(&first.id, &p.id) {
            bail!("{} cannot be merged with {}: {why}", p.file, first.file);
        }
    }
    let n = first.id.parts;
    let mut seen: Vec<Option<&Part>> = vec![None; usize::try_from(n).unwrap_or(usize::MAX).min(1 << 20)];
    for p in &parts {
        let Some(slot) = p.part.checked_sub(1).and_then(|i| seen.get_mut(usize::try_from(i).ok()?)) else {
            bail!("{}: part {} of {n} is out of range", p.file, p.part);
        };
        if let Some(other) = slot {
            bail!("{} and {} are both part {} of {n}", other.file, p.file, p.part);
        }
        *slot = Some(p);
    }
    let missing: Vec<String> =
        seen.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(i, _)| (i + 1).to_string()).collect();
    match missing.len() {
        0 => {}
        1 => bail!("part {} of {n} is missing: a merge needs every part of the run", missing[0]),
        _ => bail!("parts {} of {n} are missing: a merge needs every part of the run", missing.join(", ")),
    }
    // The parts' batches must follow each other from 0 to the run's last batch.
    let mut next = 0;
    for p in seen.iter().flatten() {
        if p.batches.0 != next {
            bail!(
                "{}: part {} ran batches {}..{}, expected them from batch {next}",
                p.file,
                p.part,
                p.batches.0,
                p.batches.1
            );
        }
        next = p.batches.1;
    }
    if next != fray_sim::batches(first.id.fights) {
        bail!("the parts ran {next} batches of a run of {}", fray_sim::batches(first.id.fights));
    }
    // Add the ledgers of each scenario of the run.
    let mut merged: Vec<PartRun> = Vec::new();
    for p in seen.iter().flatten() {
        if !merged.is_empty() && merged.len() != p.runs.len() {
            bail!("{}: {} scenarios in this part, {} in the others", p.file, p.runs.len(), merged.len());
        }
        for (i, r) in p.runs.iter().enumerate() {
            match merged.get_mut(i) {
                None => merged.push(PartRun {
                    label: r.label.clone(),
                    sets: r.sets.clone(),
                    roster: r.roster.clone(),
                    ledger: r.ledger.clone(),
                }),
                Some(m) => {
                    if m.label != r.label || m.sets != r.sets || m.roster != r.roster {
                        bail!("{}: its scenario {} differs from the other parts'", p.file, i + 1);
                    }
                    m.ledger.merge(&r.ledger);
                }
            }
        }
    }
    let seconds: f64 = parts.iter().map(|p| p.seconds).sum();
    let total: u64 = merged.iter().map(|m| m.ledger.fights()).sum();
    // Throughput of one machine: every part's fights over the sum of the parts' times.
    let fights_per_second = total as f64 / seconds.max(1e-9);
    let id = &first.id;
    let reports: Vec<(String, Report)> = merged
        .into_iter()
        .map(|m| {
            (
                m.label,
                Report::from_parts(m.roster, m.ledger, id.seed, fights_per_second).with_run(&id.scenario, &m.sets),
            )
        })
        .collect();
    let output = Output {
        kind: &id.kind,
        file: &id.scenario,
        sets: &id.set,
        reports: &reports,
        precision: None,
        json: args.json,
    };
    output.write(out)?;
    output.write_files(&args.files)
}
