//! The balance report of `fray sim`: outcomes with Wilson intervals, fight lengths by outcome,
//! per-combatant ledgers.

use fray_engine::Outcome;
use fray_rules::Scenario;
use fray_sim::{Ledger, percentile, wilson};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// A simulation's results, ready to print.
pub struct Report {
    names: Vec<String>,
    sides: Vec<String>,
    ledger: Ledger,
    seed: u64,
    fights_per_second: f64,
    unit: (&'static str, Option<f64>),
    /// The scenario file and the `--set`s of the run, recorded so that it can be run again.
    file: String,
    sets: Vec<(String, String)>,
}

impl Report {
    /// Gathers what to report.
    pub fn new(scenario: &dyn Scenario, ledger: &Ledger, seed: u64, fights_per_second: f64) -> Report {
        Report {
            names: scenario.combatants(),
            sides: scenario.sides(),
            ledger: ledger.clone(),
            seed,
            fights_per_second,
            unit: scenario.time_unit(),
            file: String::new(),
            sets: Vec::new(),
        }
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

    fn mean(lengths: &BTreeMap<u32, u64>) -> f64 {
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
            "unit": self.unit.0,
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
}
