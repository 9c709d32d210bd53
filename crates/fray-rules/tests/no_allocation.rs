//! The simulator's hot path allocates nothing per fight (design.md: "no allocation on hot
//! paths"): a batch's allocations are those of setting it up, the same for 10 fights as for
//! 1,000. Counted on this thread by `allocation-counter`'s global allocator.

mod common;

#[test]
fn a_simulated_batch_allocates_nothing_per_fight() {
    // The counter is live: a box is one allocation.
    assert_eq!(allocation_counter::measure(|| drop(std::hint::black_box(Box::new(1)))).count_total, 1);
    let root = common::EXAMPLES;
    let files = common::example_files();
    let mut cases: Vec<(std::path::PathBuf, Vec<(String, String)>)> = files.into_iter().map(|f| (f, vec![])).collect();
    // Paths the examples' defaults leave rare: a Second Wind taken at every first hit.
    let set = |k: &str, v: &str| vec![(k.to_owned(), v.to_owned())];
    cases.push((format!("{root}/hardboiled/bar-room-brawl.toml").into(), set("second_wind_policy", "first_hit")));
    for (path, sets) in cases {
        let name = format!("{} {sets:?}", path.display());
        let text = std::fs::read_to_string(&path).unwrap();
        let scenario = fray_rules::load(&name, &text, &sets).unwrap_or_else(|e| panic!("{e}"));
        // A batch on the generator of the measured ones first, so that the ledger has met every
        // fight length the measured batches meet (a new length is a new histogram entry).
        let mut ledger = fray_sim::Ledger::new(scenario.combatant_count());
        scenario.run_batch(&mut fray_sim::batch_dice(5, 0), 1_000, &mut ledger).unwrap();
        let mut count = |fights: u64| {
            let mut dice = fray_sim::batch_dice(5, 0);
            allocation_counter::measure(|| scenario.run_batch(&mut dice, fights, &mut ledger).unwrap()).count_total
        };
        let (few, many) = (count(10), count(1_000));
        assert_eq!(few, many, "{name}: {few} allocations in a batch of 10 fights, {many} in one of 1,000");
    }
}
