//! The size of each ruleset's event: the simulator moves one on every step, so it must stay small.

#[test]
fn event_sizes() {
    let sizes = [
        ("fluid", std::mem::size_of::<fray_rules::fluid::Event>()),
        ("hardboiled", std::mem::size_of::<fray_rules::hardboiled::Event>()),
        ("opend6", std::mem::size_of::<fray_rules::opend6::Event>()),
        ("phasesix", std::mem::size_of::<fray_rules::phasesix::Event>()),
        ("ticks", std::mem::size_of::<fray_rules::ticks::Event>()),
    ];
    println!("{sizes:?}");
    // The sizes when attack events began to carry their itemised terms (fluid, opend6: within
    // their padding; hardboiled: 64 before, its terms in 16 bits so that no scenario's sum is
    // cut; phasesix: 104 before, its hit roll's 18 terms in 12 bytes — the seven of a fixed size
    // as bits, the others a byte each —, of which its padding and its ammunition narrowed to a
    // byte hold 5). Growing one is a cost on every step.
    let limits = [("fluid", 200), ("hardboiled", 80), ("opend6", 88), ("phasesix", 112), ("ticks", 40)];
    for ((name, size), (_, limit)) in sizes.iter().zip(limits) {
        assert!(*size <= limit, "{name}: an event of {size} bytes, more than {limit}");
    }
}
