//! Simulated fights per second on one core (`cargo bench -p fray-rules --bench fights`): the
//! simulator's own batch loop, 1,000 fights per iteration, events tallied into a ledger.

use fray_sim::{Ledger, batch_dice};

fn main() {
    divan::main();
}

const EXAMPLES: &[&str] = &[
    "fluid/barbarian-vs-marauder",
    "opend6/blaster-duel",
    "hardboiled/bar-room-brawl",
    "phasesix/sword-and-shield",
    "ticks/pistol-duel",
];

#[divan::bench(args = EXAMPLES)]
fn thousand_fights(bencher: divan::Bencher, example: &str) {
    let path = format!("{}/../../examples/{example}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the example exists");
    let scenario = fray_rules::load(&path, &text, &[]).expect("the example loads");
    let mut batch = 0;
    bencher.counter(divan::counter::ItemsCount::new(1000usize)).bench_local(|| {
        let mut ledger = Ledger::new(scenario.combatant_count());
        batch += 1;
        scenario.run_batch(&mut batch_dice(7, batch), 1000, &mut ledger).expect("fights run");
        ledger
    });
}
