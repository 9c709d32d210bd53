//! How long a live fight's command takes: every shipped example played with every combatant
//! controlled by a person who takes the AI's suggestion, each command timed (a command replays
//! the journal from the start), with the next decision's exact odds worked out at once, and
//! with them deferred (`Session::defer_odds`, as `fray serve` does: the command alone, then the
//! odds' work on its own). Run in release:
//!
//! ```text
//! cargo run --release -p fray-live --example replay_cost
//! ```

use fray_live::{Command, DiceMode, Pending, Session};
use std::time::Instant;

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    println!(
        "{:<36} {:>8} {:>18} {:>18} {:>18}",
        "example (seed 1, everyone a person)",
        "commands",
        "with odds p50/max",
        "deferred p50/max",
        "odds' work p50/max"
    );
    for ruleset in ["fluid", "opend6", "hardboiled", "phasesix", "ticks"] {
        let mut files: Vec<_> =
            std::fs::read_dir(format!("{root}/{ruleset}")).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.display().to_string();
            let people = fray_rules::load(&name, &text, &[]).unwrap().combatants();
            let mut session = Session::open(&name, &text, vec![], 1, DiceMode::Fray, people.clone()).unwrap();
            let mut deferred = Session::open(&name, &text, vec![], 1, DiceMode::Fray, people).unwrap();
            deferred.defer_odds(true);
            let (mut times, mut commands, mut odds) = (Vec::new(), Vec::new(), Vec::new());
            let ms = |started: Instant| started.elapsed().as_secs_f64() * 1e3;
            while let Some(Pending::Decision { ai, .. }) = session.snapshot().pending.clone() {
                let started = Instant::now();
                session.command(Command::Answer(ai)).unwrap();
                times.push(ms(started));
                let started = Instant::now();
                deferred.command(Command::Answer(ai)).unwrap();
                commands.push(ms(started));
                if let Some(work) = deferred.odds_work() {
                    let started = Instant::now();
                    let worked = work.run();
                    odds.push(ms(started));
                    deferred.put_odds(worked);
                }
            }
            let short = format!("{ruleset}/{}", path.file_name().unwrap().to_string_lossy());
            let at = |times: &mut Vec<f64>| {
                times.sort_by(f64::total_cmp);
                let q = |q: f64| times.get(((times.len().max(1) - 1) as f64 * q).round() as usize).copied();
                format!("{:>8.2} / {:>7.2}", q(0.5).unwrap_or(0.0), q(1.0).unwrap_or(0.0))
            };
            println!(
                "{short:<36} {:>8} {:>18} {:>18} {:>18}",
                times.len(),
                at(&mut times),
                at(&mut commands),
                at(&mut odds)
            );
        }
    }
}
