//! `fray sim A.toml B.toml …`: several scenarios (of any rulesets) run with the same seed and
//! fight count, side by side in one table: how lethal, how long, how swingy each fight is.
//!
//! The measures, all ruleset-neutral:
//! - each side's win rate with its 95% Wilson interval, and the draws (mutual and stalemate);
//! - the fight's mean and 90th-percentile length in the ruleset's unit, and in seconds of game
//!   time where the ruleset says how long its unit is;
//! - one attack's chance to take a fresh combatant out: the ruleset's own exact odds of the first
//!   combatant's default attack on the first enemy at the start of the fight (`fray odds`);
//! - the share of a takedown one attack deals: the damage of an average attack over the damage
//!   it took to take a combatant out (damage taken per downed combatant); with every point of
//!   damage dealt by an attack this is takedowns per attack, whatever the ruleset's damage unit;
//! - swinginess: the weaker side's win rate (50% is a coin toss, 0% a foregone conclusion).

use crate::cmd::report::Report;
use anyhow::{Context, Result};
use fray_engine::{Outcome, SideId};
use fray_rules::Scenario;
use fray_sim::{percentile, wilson};
use num_traits::ToPrimitive;
use serde_json::{Value, json};

/// One scenario's row.
pub struct Row {
    file: String,
    ruleset: &'static str,
    report: Report,
    /// Each side's (name, wins, rate, interval).
    sides: Vec<(String, u64, f64, (f64, f64))>,
    draws: f64,
    mean: f64,
    p90: u32,
    unit: String,
    seconds: Option<f64>,
    /// The attack whose odds are given, and P(it takes the defender out), or why there are none.
    one_attack: Result<(String, String, f64), String>,
    takedown_share: Option<f64>,
    weaker: f64,
}

/// Runs one scenario and measures it.
pub fn row(
    file: &str,
    sets: &[(String, String)],
    scenario: &dyn Scenario,
    fights: u64,
    seed: u64,
    threads: usize,
) -> Result<Row> {
    let started = std::time::Instant::now();
    let ledger = fray_sim::simulate(scenario, fights, seed, threads, &|_| {}).with_context(|| file.to_owned())?;
    let fps = ledger.fights() as f64 / started.elapsed().as_secs_f64().max(1e-9);
    let report = Report::new(scenario, &ledger, seed, fps).with_run(file, sets);
    let n = ledger.fights();
    let sides: Vec<(String, u64, f64, (f64, f64))> = scenario
        .sides()
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let k = ledger.outcomes.get(&Outcome::Side(SideId(i as u16))).copied().unwrap_or(0);
            (name, k, k as f64 / n as f64, wilson(k, n))
        })
        .collect();
    let draws =
        [Outcome::Mutual, Outcome::Stalemate].iter().map(|o| ledger.outcomes.get(o).copied().unwrap_or(0)).sum::<u64>()
            as f64
            / n as f64;
    let all = report.length_histogram(None);
    let (unit, seconds) = report.unit();
    let unit = unit.to_owned();
    // The first combatant's attack on the first combatant of another side.
    let names = scenario.combatants();
    let enemy = (0..names.len()).find(|&i| scenario.side_of(i) != scenario.side_of(0));
    let one_attack = match enemy {
        None => Err("no enemy".to_owned()),
        Some(e) => scenario
            .attack_odds(&names[0], &names[e])
            .map(|odds| (names[0].clone(), names[e].clone(), odds.down.to_f64().unwrap_or(f64::NAN))),
    };
    let attacks: u64 = ledger.combatants.iter().map(|c| c.attacks).sum();
    let dealt: i64 = ledger.combatants.iter().map(|c| c.damage_dealt).sum();
    let taken: i64 = ledger.combatants.iter().map(|c| c.damage_taken).sum();
    let downed: u64 = ledger.combatants.iter().map(|c| c.downed).sum();
    let takedown_share = (attacks > 0 && downed > 0 && taken > 0)
        .then(|| (dealt as f64 / attacks as f64) / (taken as f64 / downed as f64));
    let weaker = sides.iter().map(|s| s.2).fold(f64::INFINITY, f64::min);
    Ok(Row {
        file: file.to_owned(),
        ruleset: scenario.ruleset(),
        sides,
        draws,
        mean: Report::mean(&all),
        p90: percentile(&all, 0.9),
        unit,
        seconds,
        one_attack,
        takedown_share,
        weaker: if weaker.is_finite() { weaker } else { 0.0 },
        report,
    })
}

fn name(file: &str) -> String {
    std::path::Path::new(file).file_stem().map_or_else(|| file.to_owned(), |s| s.to_string_lossy().into_owned())
}

/// Cells in columns: the first two left-aligned, the others right-aligned, two spaces apart.
fn columns(table: &[Vec<String>]) -> String {
    let n = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> =
        (0..n).map(|c| table.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for row in table {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = " ".repeat(widths[c] - cell.chars().count());
            let cell = if c < 3 { format!("{cell}{pad}") } else { format!("{pad}{cell}") };
            line += &cell;
            line += "  ";
        }
        out += line.trim_end();
        out += "\n";
    }
    out
}

/// The rows as text: one table, then the notes on what each column measures.
pub fn text(rows: &[Row], fights: u64, seed: u64) -> String {
    let mut out = format!("{fights} fights per scenario, seed {seed}\n\n");
    let mut table = vec![
        [
            "scenario",
            "ruleset",
            "wins (95% interval)",
            "draws",
            "length",
            "",
            "seconds",
            "",
            "1 attack",
            "takedown",
            "weaker",
        ]
        .map(str::to_owned)
        .to_vec(),
        ["", "", "", "", "mean", "p90", "mean", "p90", "downs", "/attack", "side"].map(str::to_owned).to_vec(),
    ];
    for r in rows {
        let wins: Vec<String> = r
            .sides
            .iter()
            .map(|(side, _, p, (lo, hi))| format!("{side} {:.1}% [{:.1}, {:.1}]", 100.0 * p, 100.0 * lo, 100.0 * hi))
            .collect();
        let (mean_s, p90_s) = match r.seconds {
            Some(s) => (format!("{:.1} s", r.mean * s), format!("{:.1} s", f64::from(r.p90) * s)),
            None => ("—".to_owned(), "—".to_owned()),
        };
        let one = match &r.one_attack {
            Ok((_, _, p)) => format!("{:.1}%", 100.0 * p),
            Err(_) => "—".to_owned(),
        };
        let share = r.takedown_share.map_or("—".to_owned(), |s| format!("{:.1}%", 100.0 * s));
        table.push(vec![
            name(&r.file),
            r.ruleset.to_owned(),
            wins.join(", "),
            format!("{:.1}%", 100.0 * r.draws),
            format!("{:.2} {}", r.mean, r.unit),
            r.p90.to_string(),
            mean_s,
            p90_s,
            one,
            share,
            format!("{:.1}%", 100.0 * r.weaker),
        ]);
    }
    out += &columns(&table);
    out += "\nwins: each side's win rate with its 95% interval; draws: mutual takedowns and stalemates at the cap.\n";
    out += "length: mean and 90th percentile in the ruleset's unit; seconds: the same in game time, where the ruleset says.\n";
    out +=
        "1 attack downs: the exact chance that the first combatant's attack takes a fresh enemy out (`fray odds`).\n";
    out += "takedown/attack: an average attack's damage as a share of the damage it took to take someone out.\n";
    out += "weaker side: the lower win rate; 50% is a coin toss, near 0% a foregone conclusion.\n";
    for r in rows {
        if let Err(why) = &r.one_attack {
            out += &format!("{}: no one-attack odds: {why}\n", name(&r.file));
        }
    }
    out
}

/// The rows as one JSON object.
pub fn json(rows: &[Row], fights: u64, seed: u64) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .map(|r| {
            let wins: serde_json::Map<String, Value> = r
                .sides
                .iter()
                .map(|(side, k, p, (lo, hi))| (side.clone(), json!({"count": k, "rate": p, "ci95": [lo, hi]})))
                .collect();
            let one = match &r.one_attack {
                Ok((by, to, p)) => json!({"attacker": by, "defender": to, "down": p}),
                Err(why) => json!({"error": why}),
            };
            json!({
                "scenario": r.file,
                "ruleset": r.ruleset,
                "wins": wins,
                "draws": r.draws,
                "length": {"unit": r.unit, "mean": r.mean, "p90": r.p90},
                "seconds": r.seconds.map(|s| json!({"mean": r.mean * s, "p90": f64::from(r.p90) * s})),
                "one_attack": one,
                "takedown_share_per_attack": r.takedown_share,
                "weaker_side_win_rate": r.weaker,
                "report": r.report.json(),
            })
        })
        .collect();
    json!({"fights": fights, "seed": seed, "scenarios": rows})
}
