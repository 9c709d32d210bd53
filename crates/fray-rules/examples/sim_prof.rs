//! Profiling helper: `cargo run --release -p fray-rules --example sim_prof -- FILE N` runs N
//! fights of a scenario on one thread and prints the rate.
use fray_sim::{Ledger, batch_dice};

fn main() {
    let path = std::env::args().nth(1).expect("a scenario file");
    let n: u64 = std::env::args().nth(2).map_or(100_000, |s| s.parse().expect("a count"));
    let text = std::fs::read_to_string(&path).expect("readable");
    let scenario = fray_rules::load(&path, &text, &[]).expect("valid");
    let mut ledger = Ledger::new(scenario.combatant_count());
    let started = std::time::Instant::now();
    scenario.run_batch(&mut batch_dice(1, 0), n, &mut ledger).expect("fights run");
    let secs = started.elapsed().as_secs_f64();
    eprintln!("{n} fights in {secs:.3} s: {:.0} fights/s", n as f64 / secs);
}
