//! The short trial of `fray check`: a few seeded fights run by the simulator (the fights of
//! `fray sim FILE -n N --seed 1`), so that a scenario that cannot produce a winner (fighters out
//! of reach who hold their ground, no weapon that can hurt) is found before a long run.

use fray_engine::Outcome;
use fray_rules::Scenario;
use fray_sim::{Ledger, SimError};
use std::fmt::Write as _;

/// Fights in the trial, unless a fight can run so long that fewer fit in [`WORK`].
pub const FIGHTS: u64 = 200;
/// The trial's seed.
pub const SEED: u64 = 1;
/// The trial's budget of work, in duel rounds: a round (turn, tick) of a fight of `n` combatants
/// costs about `n (n + 10) / 24` of them (the simulator's time per round grows faster than the
/// number of combatants: each one looks at the others). 200 fights of a duel to a cap of 600
/// take 120,000; fights of 64 combatants at a cap of 100 (15 ms each) about 10 of them.
pub const WORK: u64 = 200_000;
/// The share of stalemates from which `fray check` warns.
pub const WARN_AT: f64 = 0.5;

/// What the trial found.
pub enum Trial {
    /// The fights run, tallied.
    Ran(Ledger),
    /// No fight was run: one fight alone could take more than [`WORK`].
    Skipped,
}

/// The cost of `rounds` rounds of a fight of `combatants`, in 24ths of a duel round.
fn cost(rounds: u64, combatants: u64) -> u64 {
    rounds.saturating_mul(combatants).saturating_mul(combatants + 10)
}

/// The work a ledger's fights took, in 24ths of a duel round.
fn work(ledger: &Ledger, combatants: u64) -> u64 {
    ledger.lengths.iter().map(|((_, length), count)| cost(u64::from(*length), combatants) * count).sum()
}

/// Runs the trial: a probe of as many fights as a quarter of [`WORK`] allows even if every one
/// reaches the cap, then (when the probe's fights were shorter than that) as many as [`WORK`]
/// allows at the probe's mean length, at most [`FIGHTS`]. The fights are always the first ones of
/// the seed, the same as `fray sim`'s.
pub fn run(scenario: &dyn Scenario) -> Result<Trial, SimError> {
    let combatants = scenario.combatants().len() as u64;
    let budget = WORK * 24;
    let worst = cost(u64::from(scenario.cap()), combatants).max(1);
    if worst > budget {
        return Ok(Trial::Skipped);
    }
    let simulate = |fights: u64| fray_sim::simulate(scenario, fights, SEED, 1, &|_| ());
    let probe = (budget / 4 / worst).clamp(1, FIGHTS);
    let ledger = simulate(probe)?;
    if probe == FIGHTS {
        return Ok(Trial::Ran(ledger));
    }
    let spent = work(&ledger, combatants).max(1);
    let fights = (budget.saturating_mul(probe) / spent).clamp(probe, FIGHTS);
    if fights == probe {
        return Ok(Trial::Ran(ledger));
    }
    Ok(Trial::Ran(simulate(fights)?))
}

/// A rate as a percentage with at most one decimal: `91.5%`, `0%`, `100%`.
fn percent(count: u64, of: u64) -> String {
    let text = format!("{:.1}", count as f64 * 100.0 / of.max(1) as f64);
    format!("{}%", text.strip_suffix(".0").unwrap_or(&text))
}

/// The trial's lines for `fray check`: the outcome rates, and a warning when at least
/// [`WARN_AT`] of the fights ended in a stalemate.
pub fn text(scenario: &dyn Scenario, trial: &Trial) -> String {
    let (units, _) = scenario.time_unit();
    let unit = units.strip_suffix('s').unwrap_or(units);
    let cap = scenario.cap();
    let ledger = match trial {
        Trial::Ran(ledger) => ledger,
        Trial::Skipped => {
            return format!(
                "trial: skipped, since a fight of {} combatants to the {unit} cap of {cap} {units} is too long for a \
                 quick trial; `fray sim` runs the fights\n",
                scenario.combatants().len()
            );
        }
    };
    let fights = ledger.fights();
    let count = |outcome: Outcome| ledger.outcomes.get(&outcome).copied().unwrap_or(0);
    let mut rates: Vec<String> = scenario
        .sides()
        .iter()
        .enumerate()
        .map(|(i, side)| format!("{side} {}", percent(count(Outcome::Side(fray_engine::SideId(i as u16))), fights)))
        .collect();
    rates.push(format!("mutual {}", percent(count(Outcome::Mutual), fights)));
    let stalemates = count(Outcome::Stalemate);
    rates.push(format!("stalemate {}", percent(stalemates, fights)));
    let fewer = if fights < FIGHTS {
        format!("; fewer than {FIGHTS}, since a fight can run to the {unit} cap of {cap} {units}")
    } else {
        String::new()
    };
    let mut out = format!("trial of {fights} fights (seed {SEED}{fewer}): {}\n", rates.join(", "));
    if let Some(warning) = warning(scenario, ledger, "trial fights") {
        let _ = writeln!(out, "{warning}");
    }
    out
}

/// The warning when at least [`WARN_AT`] of a ledger's fights (called `what`: "trial fights",
/// "fights") ended in a stalemate: how many, the cap they reached, and what to look at.
pub fn warning(scenario: &dyn Scenario, ledger: &Ledger, what: &str) -> Option<String> {
    let (units, _) = scenario.time_unit();
    let unit = units.strip_suffix('s').unwrap_or(units);
    let cap = scenario.cap();
    let fights = ledger.fights();
    let stalemates = ledger.outcomes.get(&Outcome::Stalemate).copied().unwrap_or(0);
    if fights == 0 || (stalemates as f64) < WARN_AT * fights as f64 {
        return None;
    }
    let at_cap = ledger.lengths.get(&(Outcome::Stalemate, cap)).copied().unwrap_or(0);
    let how = if at_cap == stalemates {
        format!("reached the {unit} cap ({cap} {units}) with no winner")
    } else {
        format!("ended in a stalemate with no winner ({} at the {unit} cap of {cap} {units})", percent(at_cap, fights))
    };
    Some(format!("warning: {} of the {what} {how}; check positions, weapons and policies", percent(stalemates, fights)))
}
