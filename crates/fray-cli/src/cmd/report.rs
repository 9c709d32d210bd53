//! The balance report of `fray sim`: outcomes with Wilson intervals, fight lengths by outcome,
//! per-combatant ledgers.

use fray_engine::Outcome;
use fray_rules::Scenario;
use fray_sim::{Ledger, percentile, wilson};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Who a report is about: the combatants' and sides' names and the unit of a fight's length
/// (with its length in seconds where the ruleset says).
#[derive(Clone, Debug, PartialEq)]
pub struct Roster {
    /// The combatants, in roster order.
    pub names: Vec<String>,
    /// The sides, in order.
    pub sides: Vec<String>,
    /// The unit of a fight's length, and its seconds of game time if known.
    pub unit: (String, Option<f64>),
}

/// A simulation's results, ready to print.
pub struct Report {
    names: Vec<String>,
    sides: Vec<String>,
    ledger: Ledger,
    seed: u64,
    fights_per_second: f64,
    unit: (String, Option<f64>),
    /// The scenario file and the `--set`s of the run, recorded so that it can be run again.
    file: String,
    sets: Vec<(String, String)>,
}

impl Report {
    /// Gathers what to report.
    pub fn new(scenario: &dyn Scenario, ledger: &Ledger, seed: u64, fights_per_second: f64) -> Report {
        let (unit, seconds) = scenario.time_unit();
        Report::from_parts(
            Roster { names: scenario.combatants(), sides: scenario.sides(), unit: (unit.to_owned(), seconds) },
            ledger.clone(),
            seed,
            fights_per_second,
        )
    }

    /// A report of a ledger whose scenario is known only by its roster (a merge of parts).
    pub fn from_parts(roster: Roster, ledger: Ledger, seed: u64, fights_per_second: f64) -> Report {
        Report {
            names: roster.names,
            sides: roster.sides,
            ledger,
            seed,
            fights_per_second,
            unit: roster.unit,
            file: String::new(),
            sets: Vec::new(),
        }
    }

    /// The ledger reported.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The combatants, sides and time unit reported.
    pub fn roster(&self) -> Roster {
        Roster { names: self.names.clone(), sides: self.sides.clone(), unit: self.unit.clone() }
    }

    /// Each outcome's name (the sides', then `mutual` and `stalemate`) with the outcome.
    pub fn outcome_names(&self) -> Vec<(String, Outcome)> {
        self.outcomes()
    }

    /// Each outcome's (name, count, rate, 95% Wilson interval).
    pub fn outcome_rates(&self) -> Vec<(String, u64, f64, (f64, f64))> {
        self.rates()
    }

    /// The fight-length histogram of one outcome (`None`: of every fight).
    pub fn length_histogram(&self, outcome: Option<Outcome>) -> BTreeMap<u32, u64> {
        self.lengths(outcome)
    }

    /// The time unit of a fight's length and, when the ruleset says, its length in seconds.
    pub fn unit(&self) -> (&str, Option<f64>) {
        (&self.unit.0, self.unit.1)
    }

    /// The seed of the run.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The scenario file and the `--set`s of the run.
    pub fn run_sets(&self) -> &[(String, String)] {
        &self.sets
    }

    /// The combatants' names, in roster order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Records the scenario file and the `--set`s the run used.
    pub fn with_run(mut self, file: &str, sets: &[(String, String)]) -> Report {
        self.file = file.to_owned();
        self.sets = sets.to_vec();
        self
    }

    fn outcomes(&self) -> Vec<(String, Outcome)> {
        let mut out: Vec<(String, Outcome)> = self
            .sides
            .iter()
            .enumerate()
            .map(|(i, name)| (name.clone(), Outcome::Side(fray_engine::SideId(i as u16))))
            .collect();
        out.push(("mutual".into(), Outcome::Mutual));
        out.push(("stalemate".into(), Outcome::Stalemate));
        out
    }

    fn lengths(&self, outcome: Option<Outcome>) -> BTreeMap<u32, u64> {
        let mut out = BTreeMap::new();
        for ((o, length), count) in &self.ledger.lengths {
            if outcome.is_none_or(|x| x == *o) {
                *out.entry(*length).or_default() += count;
            }
        }
        out
    }

    /// The mean of a length histogram (0 when empty).
    pub fn mean(lengths: &BTreeMap<u32, u64>) -> f64 {
        let total: u64 = lengths.values().sum();
        if total == 0 {
            return 0.0;
        }
        lengths.iter().map(|(l, c)| f64::from(*l) * *c as f64).sum::<f64>() / total as f64
    }

    /// The report as one JSON object.
    pub fn json(&self) -> Value {
        let fights = self.ledger.fights();
        let mut outcomes = Map::new();
        let mut by_outcome = Map::new();
        for (name, outcome) in self.outcomes() {
            let count = self.ledger.outcomes.get(&outcome).copied().unwrap_or(0);
            let (lo, hi) = wilson(count, fights);
            outcomes
                .insert(name.clone(), json!({"count": count, "rate": count as f64 / fights as f64, "ci95": [lo, hi]}));
            let lengths = self.lengths(Some(outcome));
            if !lengths.is_empty() {
                by_outcome.insert(
                    name,
                    json!({"mean": Self::mean(&lengths), "p50": percentile(&lengths, 0.5), "p90": percentile(&lengths, 0.9),
                           "max": lengths.keys().max()}),
                );
            }
        }
        let all = self.lengths(None);
        let histogram: Map<String, Value> = all.iter().map(|(l, c)| (l.to_string(), json!(c))).collect();
        let mut combatants = Map::new();
        for (name, c) in self.names.iter().zip(&self.ledger.combatants) {
            combatants.insert(
                name.clone(),
                json!({"attacks": c.attacks, "hits": c.hits, "crits": c.crits, "damage_dealt": c.damage_dealt,
                       "damage_taken": c.damage_taken, "downed": c.downed, "downed_rate": c.downed as f64 / fights as f64}),
            );
        }
        let mut doc = json!({
            "fights": fights,
            "seed": self.seed,
            "scenario": self.file,
            "set": crate::cmd::fight::set_json(&self.sets),
            "outcomes": outcomes,
            "rounds": {"mean": Self::mean(&all), "p50": percentile(&all, 0.5), "p90": percentile(&all, 0.9),
                       "histogram": histogram, "by_outcome": by_outcome},
            "unit": &self.unit.0,
            "combatants": combatants,
            "fights_per_second": self.fights_per_second,
        });
        if let Some(s) = self.unit.1 {
            doc["seconds"] = json!({"mean": Self::mean(&all) * s, "p50": f64::from(percentile(&all, 0.5)) * s,
                                    "p90": f64::from(percentile(&all, 0.9)) * s});
        }
        doc
    }

    /// The report as text.
    pub fn text(&self) -> String {
        let fights = self.ledger.fights();
        let mut out = format!(
            "{fights} fights, seed {}{}\n\noutcome        count      rate   95% interval  {:>10}: mean  p50  p90  max\n",
            self.seed,
            crate::cmd::fight::set_text(&self.sets),
            self.unit.0
        );
        for (name, outcome) in self.outcomes() {
            let count = self.ledger.outcomes.get(&outcome).copied().unwrap_or(0);
            let (lo, hi) = wilson(count, fights);
            let lengths = self.lengths(Some(outcome));
            let length_text = if lengths.is_empty() {
                String::new()
            } else {
                format!(
                    "{:>12.2} {:>4} {:>4} {:>4}",
                    Self::mean(&lengths),
                    percentile(&lengths, 0.5),
                    percentile(&lengths, 0.9),
                    lengths.keys().max().copied().unwrap_or(0)
                )
            };
            out += &format!(
                "{name:<12} {count:>7} {:>8.2}%   [{:>6.2}%, {:>6.2}%] {length_text}\n",
                100.0 * count as f64 / fights as f64,
                100.0 * lo,
                100.0 * hi
            );
        }
        let all = self.lengths(None);
        out += &match self.unit.1 {
            Some(s) => format!(
                "\nfight length ({}; mean {:.2} = {:.1} s, p90 {:.1} s)\n",
                self.unit.0,
                Self::mean(&all),
                Self::mean(&all) * s,
                f64::from(percentile(&all, 0.9)) * s
            ),
            None => format!("\nfight length ({})\n", self.unit.0),
        };
        let peak = all.values().copied().max().unwrap_or(1);
        for (length, count) in &all {
            let bar = "█".repeat(((*count as f64 / peak as f64) * 40.0).round() as usize);
            out += &format!("{length:>5} {count:>8}  {bar}\n");
        }
        out += "\ncombatant        attacks     hits   crits  dmg dealt  dmg taken   downed\n";
        for (name, c) in self.names.iter().zip(&self.ledger.combatants) {
            out += &format!(
                "{name:<14} {:>9} {:>8} {:>7} {:>10} {:>10} {:>7.1}%\n",
                c.attacks,
                c.hits,
                c.crits,
                c.damage_dealt,
                c.damage_taken,
                100.0 * c.downed as f64 / fights as f64
            );
        }
        out += &format!("\n{:.0} fights per second\n", self.fights_per_second);
        out
    }

    /// Each outcome's (name, count, rate, Wilson interval).
    fn rates(&self) -> Vec<(String, u64, f64, (f64, f64))> {
        let fights = self.ledger.fights();
        self.outcomes()
            .into_iter()
            .map(|(name, outcome)| {
                let count = self.ledger.outcomes.get(&outcome).copied().unwrap_or(0);
                (name, count, count as f64 / fights as f64, wilson(count, fights))
            })
            .collect()
    }

    /// Per outcome, the variant's rate minus this one's with its 95% interval (Newcombe's hybrid
    /// score interval for a difference of two proportions, from the two Wilson intervals). It is
    /// the interval for independent runs; the variant replays the same seeds, which makes the
    /// two runs alike and the true interval narrower, so this one errs wide.
    pub fn differences(&self, variant: &Report) -> Vec<(String, f64, (f64, f64))> {
        self.rates()
            .into_iter()
            .zip(variant.rates())
            .map(|((name, _, p0, (l0, u0)), (_, _, p1, (l1, u1)))| {
                let d = p1 - p0;
                let lo = d - ((p1 - l1).powi(2) + (u0 - p0).powi(2)).sqrt();
                let hi = d + ((u1 - p1).powi(2) + (p0 - l0).powi(2)).sqrt();
                (name, d, (lo, hi))
            })
            .collect()
    }

    /// A comparison with `variant` (the same fights with some options changed) as one JSON
    /// object: both reports whole and each outcome's difference in rate.
    pub fn comparison_json(&self, variant: &Report) -> Value {
        let differences: Map<String, Value> = self
            .differences(variant)
            .into_iter()
            .map(|(name, d, (lo, hi))| (name, json!({"rate": d, "ci95": [lo, hi]})))
            .collect();
        let compare = variant.sets.iter().skip(self.sets.len()).map(|(k, v)| (k.clone(), json!(v))).collect();
        json!({
            "fights": self.ledger.fights(),
            "seed": self.seed,
            "scenario": self.file,
            "set": crate::cmd::fight::set_json(&self.sets),
            "compare": Value::Object(compare),
            "baseline": self.json(),
            "variant": variant.json(),
            "difference": differences,
        })
    }

    /// A comparison with `variant` as text: each outcome's rate in both runs and the difference,
    /// fight lengths, and each combatant's hit and downed rates.
    pub fn comparison_text(&self, variant: &Report) -> String {
        let fights = self.ledger.fights();
        let changed: Vec<String> = variant.sets.iter().skip(self.sets.len()).map(|(k, v)| format!("{k}={v}")).collect();
        let baseline = if self.sets.is_empty() {
            "the file's options".to_owned()
        } else {
            crate::cmd::fight::set_text(&self.sets).trim_start_matches(" — ").to_owned()
        };
        let mut out = format!(
            "{fights} fights each, seed {}\nbaseline: {baseline}\nvariant:  the same, and {}\n\n",
            self.seed,
            changed.join(", ")
        );
        out += "outcome         baseline                   variant                    variant − baseline\n";
        let cell =
            |p: f64, (lo, hi): (f64, f64)| format!("{:>6.2}% [{:>6.2}, {:>6.2}]", 100.0 * p, 100.0 * lo, 100.0 * hi);
        let base = self.rates();
        let var = variant.rates();
        for ((name, _, p0, ci0), ((_, _, p1, ci1), (_, d, (lo, hi)))) in
            base.into_iter().zip(var.into_iter().zip(self.differences(variant)))
        {
            let verdict = if lo > 0.0 || hi < 0.0 { "" } else { "  (no clear difference)" };
            out += &format!(
                "{name:<12} {}   {}   {:>+6.2} pts [{:>+6.2}, {:>+6.2}]{verdict}\n",
                cell(p0, ci0),
                cell(p1, ci1),
                100.0 * d,
                100.0 * lo,
                100.0 * hi
            );
        }
        let (a, b) = (self.lengths(None), variant.lengths(None));
        out += &format!(
            "\nfight length ({}): mean {:.2} → {:.2}, p50 {} → {}, p90 {} → {}\n",
            self.unit.0,
            Self::mean(&a),
            Self::mean(&b),
            percentile(&a, 0.5),
            percentile(&b, 0.5),
            percentile(&a, 0.9),
            percentile(&b, 0.9)
        );
        out += "\ncombatant        hits per attack      downed\n";
        let rate = |k: u64, n: u64| if n == 0 { 0.0 } else { 100.0 * k as f64 / n as f64 };
        for ((name, c0), c1) in self.names.iter().zip(&self.ledger.combatants).zip(&variant.ledger.combatants) {
            out += &format!(
                "{name:<14} {:>6.1}% → {:>5.1}%   {:>5.1}% → {:>5.1}%\n",
                rate(c0.hits, c0.attacks),
                rate(c1.hits, c1.attacks),
                rate(c0.downed, fights),
                rate(c1.downed, variant.ledger.fights())
            );
        }
        out += "\nIntervals are 95%; a difference whose interval holds 0 is not shown by these fights (run more).\n";
        out += "The variant replays the same seeds, so the two runs share dice until their fights part ways;\n";
        out += "the difference's interval is the one for independent runs, which errs wide.\n";
        out
    }
}

/// A sweep (`fray sim --sweep NAME=V1,V2,…`) as one JSON object: the run, then per value its
/// whole report.
pub fn sweep_json(name: &str, file: &str, sets: &[(String, String)], reports: &[(String, Report)]) -> Value {
    let first = reports.first().map(|(_, r)| r);
    let points: Vec<Value> =
        reports.iter().map(|(value, report)| json!({"value": value, "report": report.json()})).collect();
    json!({
        "fights": first.map_or(0, |r| r.ledger.fights()),
        "seed": first.map_or(0, |r| r.seed),
        "scenario": file,
        "set": crate::cmd::fight::set_json(sets),
        "sweep": {"option": name, "values": reports.iter().map(|(v, _)| v.clone()).collect::<Vec<_>>()},
        "points": points,
    })
}

/// A sweep as text: a row per value, each outcome's rate with its 95% interval, and the fight
/// length.
pub fn sweep_text(name: &str, sets: &[(String, String)], reports: &[(String, Report)]) -> String {
    let Some((_, first)) = reports.first() else { return String::new() };
    let width = reports.iter().map(|(v, _)| v.chars().count()).chain([name.chars().count()]).max().unwrap_or(0);
    let mut out = format!(
        "{} fights per value, seed {}{}\nsweep of {name}: the same fights at each value\n\n{name:<width$}",
        first.ledger.fights(),
        first.seed,
        crate::cmd::fight::set_text(sets),
    );
    for (outcome, _) in first.outcomes() {
        out += &format!("  {outcome:<24}");
    }
    out += &format!("  {}: mean  p90\n", first.unit.0);
    for (value, report) in reports {
        out += &format!("{value:<width$}");
        for (_, _, p, (lo, hi)) in report.rates() {
            out += &format!("  {:>6.2}% [{:>6.2}, {:>6.2}]", 100.0 * p, 100.0 * lo, 100.0 * hi);
        }
        let all = report.lengths(None);
        out += &format!("  {:>12.2} {:>4}\n", Report::mean(&all), percentile(&all, 0.9));
    }
    out += "\nIntervals are 95% (Wilson). Every value replays the same seeds, so the rows share dice until\n";
    out += "their fights part ways; rows whose intervals overlap are not told apart by these fights.\n";
    out
}
