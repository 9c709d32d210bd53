//! `fray sim FILE --solve NAME=LO..HI --target OUTCOME=RATE`: the value of an option or a
//! combatant's field whose OUTCOME rate is nearest RATE.
//!
//! Every candidate value replays the same seeds (batch `b` of every candidate draws from the same
//! generator), so candidates differ by the rule change and not by luck. The search runs in rounds:
//! the first runs every candidate for `-n` fights (in whole batches); each later round doubles the
//! fights of the candidates still *in contention*, those not yet told apart from the current best.
//! A candidate is told apart from the best when even the nearest its rate could be to the target
//! (its 95% Wilson interval) is farther than the farthest the best's could be. The search stops
//! when the best is told apart from every other candidate, or when the next round would pass
//! `--max-fights` (all candidates' fights together), and then says which values it cannot tell
//! apart. Every decision depends on the counts alone: the answer is the same on any thread count.

use crate::cmd::sim::{SimArgs, SweepPoint};
use anyhow::{Result, bail};
use fray_engine::Outcome;
use fray_sim::{BATCH, Ledger, wilson};
use serde_json::json;
use std::io::Write;

/// One candidate value and what its fights counted.
struct Candidate {
    value: String,
    point: SweepPoint,
    ledger: Ledger,
}

impl Candidate {
    fn fights(&self) -> u64 {
        self.ledger.fights()
    }
    fn count(&self, outcome: Outcome) -> u64 {
        self.ledger.outcomes.get(&outcome).copied().unwrap_or(0)
    }
    fn rate(&self, outcome: Outcome) -> f64 {
        self.count(outcome) as f64 / self.fights().max(1) as f64
    }
    fn interval(&self, outcome: Outcome) -> (f64, f64) {
        wilson(self.count(outcome), self.fights())
    }
    /// The nearest and the farthest its rate may be from `target`, by its 95% interval.
    fn distance(&self, outcome: Outcome, target: f64) -> (f64, f64) {
        let (lo, hi) = self.interval(outcome);
        let near = if (lo..=hi).contains(&target) { 0.0 } else { (lo - target).abs().min((hi - target).abs()) };
        (near, (lo - target).abs().max((hi - target).abs()))
    }
}

/// `--target OUTCOME=RATE`: the outcome's name and the rate (a fraction, or a percentage with `%`).
fn parse_target(target: &str) -> Result<(String, f64)> {
    let Some((name, rate)) = target.split_once('=') else {
        bail!("--target {target}: expected OUTCOME=RATE, e.g. --target heroes=0.5 (or heroes=50%)")
    };
    let rate = rate.trim();
    let value = match rate.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|p| p / 100.0),
        None => rate.parse::<f64>(),
    };
    match value {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok((name.trim().to_owned(), v)),
        _ => bail!("--target {target}: expected a rate from 0 to 1 (or 0% to 100%)"),
    }
}

/// Runs the search and prints its answer.
pub fn solve(args: &SimArgs, solve: &str, out: &mut impl Write) -> Result<()> {
    let Some(target) = &args.target else { bail!("--solve needs --target OUTCOME=RATE: the rate to aim at") };
    let (outcome_name, target) = parse_target(target)?;
    let Some((name, range)) = solve.split_once('=') else {
        bail!("--solve {solve}: expected NAME=LO..HI, an option or a combatant's field and the integers to try")
    };
    let name = name.trim();
    let (lo, hi) = range
        .split_once("..")
        .and_then(|(a, b)| Some((a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?)))
        .filter(|(a, b)| a < b)
        .ok_or_else(|| anyhow::anyhow!("--solve {solve}: expected NAME=LO..HI with integers LO < HI"))?;
    let points = crate::cmd::sim::sweep_variants(args, "--solve", solve)?;
    let base = args.scenario.load()?;
    if let Some((value, _, _)) =
        points.iter().find(|(_, s, _)| s.sides() != base.sides() || s.combatants() != base.combatants())
    {
        bail!("--solve: the value `{value}` changes the sides or the combatants' names; a search needs the same ones");
    }
    let report = crate::cmd::report::Report::new(&*base, &Ledger::new(0), args.seed, 0.0);
    let outcomes = report.outcome_names();
    let Some(outcome) = outcomes.iter().find(|(n, _)| *n == outcome_name).map(|(_, o)| *o) else {
        let names: Vec<&str> = outcomes.iter().map(|(n, _)| n.as_str()).collect();
        bail!("--target {outcome_name}: no such outcome; the outcomes are {}", names.join(", "));
    };
    let mut candidates: Vec<Candidate> = points
        .into_iter()
        .map(|point| Candidate { value: point.0.clone(), ledger: Ledger::new(point.1.combatant_count()), point })
        .collect();
    let threads = usize::from(args.threads);
    let mut goal = fray_sim::batches(args.fights).max(1) * BATCH;
    let mut spent: u64 = 0;
    let mut rounds = Vec::new();
    let mut contenders: Vec<usize> = (0..candidates.len()).collect();
    let first_round = goal.saturating_mul(candidates.len() as u64);
    if first_round > args.max_fights {
        bail!(
            "--solve: the first round alone ({} values × {goal} fights) passes --max-fights {}",
            candidates.len(),
            args.max_fights
        );
    }
    let separated = loop {
        // Bring every contender up to `goal` fights: the same batches for each (shared dice).
        let cost: u64 = contenders.iter().map(|&i| goal.saturating_sub(candidates[i].fights())).sum();
        if spent.saturating_add(cost) > args.max_fights {
            break false;
        }
        for &i in &contenders {
            let c = &mut candidates[i];
            let range = fray_sim::batches(c.fights())..fray_sim::batches(goal);
            let more = fray_sim::simulate_batches(&*c.point.1, goal, range, args.seed, threads, &|_| {})?;
            c.ledger.merge(&more);
        }
        spent += cost;
        rounds.push((goal, contenders.len()));
        let best = best(&candidates, outcome, target);
        let (_, far) = candidates[best].distance(outcome, target);
        contenders =
            (0..candidates.len()).filter(|&i| i == best || candidates[i].distance(outcome, target).0 <= far).collect();
        if contenders.len() == 1 {
            break true;
        }
        goal = goal.saturating_mul(2);
    };
    let best = best(&candidates, outcome, target);
    let answer = Answer { name, lo, hi, outcome_name: &outcome_name, outcome, target, candidates: &candidates, best };
    let tied: Vec<usize> = contenders.iter().copied().filter(|&i| i != best).collect();
    if args.json {
        writeln!(out, "{}", answer.json(args, separated, &tied, spent, &rounds))?;
    } else {
        write!(out, "{}", answer.text(args, separated, &tied, spent, &rounds))?;
    }
    Ok(())
}

/// The candidate nearest the target (the lower value on a tie).
fn best(candidates: &[Candidate], outcome: Outcome, target: f64) -> usize {
    let mut best = 0;
    for (i, c) in candidates.iter().enumerate() {
        if (c.rate(outcome) - target).abs() < (candidates[best].rate(outcome) - target).abs() {
            best = i;
        }
    }
    best
}

struct Answer<'a> {
    name: &'a str,
    lo: i64,
    hi: i64,
    outcome_name: &'a str,
    outcome: Outcome,
    target: f64,
    candidates: &'a [Candidate],
    best: usize,
}

impl Answer<'_> {
    fn cell(&self, c: &Candidate) -> String {
        let (lo, hi) = c.interval(self.outcome);
        format!("{:.2}% [{:.2}, {:.2}] ({} fights)", 100.0 * c.rate(self.outcome), 100.0 * lo, 100.0 * hi, c.fights())
    }

    fn neighbours(&self) -> Vec<&Candidate> {
        [self.best.checked_sub(1), Some(self.best + 1)]
            .into_iter()
            .flatten()
            .filter_map(|i| self.candidates.get(i))
            .collect()
    }

    fn text(&self, args: &SimArgs, separated: bool, tied: &[usize], spent: u64, rounds: &[(u64, usize)]) -> String {
        let best = &self.candidates[self.best];
        let mut out = format!(
            "search of {} from {} to {} for {} = {:.2}%: the same fights (seed {}) for every value{}\n\n",
            self.name,
            self.lo,
            self.hi,
            self.outcome_name,
            100.0 * self.target,
            args.seed,
            crate::cmd::fight::set_text(&args.scenario.sets().unwrap_or_default()),
        );
        out += &format!("chosen: {} = {}: {} {}\n", self.name, best.value, self.outcome_name, self.cell(best));
        for n in self.neighbours() {
            out += &format!("  neighbour {} = {}: {} {}\n", self.name, n.value, self.outcome_name, self.cell(n));
        }
        if separated {
            out += &format!(
                "told apart from every other value at 95% (its interval's farthest from {:.2}% is nearer than any other's nearest)\n",
                100.0 * self.target
            );
        } else {
            let values: Vec<&str> = tied.iter().map(|&i| self.candidates[i].value.as_str()).collect();
            out += &format!(
                "NOT told apart from {} = {} within --max-fights {}: these values are as near {:.2}% as these fights can tell\n",
                self.name,
                values.join(", "),
                args.max_fights,
                100.0 * self.target
            );
        }
        out += &format!("\n{} fights in all, in {} rounds:", spent, rounds.len());
        for (fights, n) in rounds {
            out += &format!(" {n} values to {fights};");
        }
        out.pop();
        out += &format!("\n\n{:<12}  {} rate [95% interval] (fights)\n", self.name, self.outcome_name);
        for c in self.candidates {
            let mark = if std::ptr::eq(c, best) { "  ← chosen" } else { "" };
            out += &format!("{:<12}  {}{mark}\n", c.value, self.cell(c));
        }
        out
    }

    fn json(
        &self,
        args: &SimArgs,
        separated: bool,
        tied: &[usize],
        spent: u64,
        rounds: &[(u64, usize)],
    ) -> serde_json::Value {
        let row = |c: &Candidate| {
            let (lo, hi) = c.interval(self.outcome);
            json!({"value": c.value, "rate": c.rate(self.outcome), "ci95": [lo, hi], "fights": c.fights()})
        };
        json!({
            "scenario": args.scenario.file.display().to_string(),
            "seed": args.seed,
            "set": crate::cmd::fight::set_json(&args.scenario.sets().unwrap_or_default()),
            "solve": {"name": self.name, "from": self.lo, "to": self.hi},
            "target": {"outcome": self.outcome_name, "rate": self.target},
            "chosen": row(&self.candidates[self.best]),
            "neighbours": self.neighbours().into_iter().map(row).collect::<Vec<_>>(),
            "separated": separated,
            "not_told_apart": tied.iter().map(|&i| self.candidates[i].value.clone()).collect::<Vec<_>>(),
            "fights": spent,
            "max_fights": args.max_fights,
            "rounds": rounds.iter().map(|(f, n)| json!({"fights": f, "values": n})).collect::<Vec<_>>(),
            "candidates": self.candidates.iter().map(row).collect::<Vec<_>>(),
        })
    }
}
