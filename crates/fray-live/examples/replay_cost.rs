//! How long a live fight's command takes: every shipped example played with every combatant
//! controlled by a person who takes the AI's suggestion, each command timed (a command replays
//! the journal from the start). Run in release:
//!
//! ```text
//! cargo run --release -p fray-live --example replay_cost
//! ```

use fray_live::{Command, DiceMode, Pending, Session};
use std::time::Instant;

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    println!(
        "{:<36} {:>8} {:>10} {:>10} {:>10}",
        "example (seed 1, everyone a person)", "commands", "p50 ms", "p99 ms", "max ms"
    );
    for ruleset in ["fluid", "opend6", "hardboiled", "phasesix", "ticks"] {
        let mut files: Vec<_> =
            std::fs::read_dir(format!("{root}/{ruleset}")).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.display().to_string();
            let people = fray_rules::load(&name, &text, &[]).unwrap().combatants();
            let mut session = Session::open(&name, &text, vec![], 1, DiceMode::Fray, people).unwrap();
            let mut times = Vec::new();
            while let Some(Pending::Decision { ai, .. }) = session.snapshot().pending.clone() {
                let started = Instant::now();
                session.command(Command::Answer(ai)).unwrap();
                times.push(started.elapsed().as_secs_f64() * 1e3);
            }
            times.sort_by(f64::total_cmp);
            let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
            let short = format!("{ruleset}/{}", path.file_name().unwrap().to_string_lossy());
            println!("{short:<36} {:>8} {:>10.2} {:>10.2} {:>10.2}", times.len(), at(0.5), at(0.99), at(1.0));
        }
    }
}
