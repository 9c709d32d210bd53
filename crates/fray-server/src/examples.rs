//! The shipped example scenarios, compiled into the binary so a GM can start one without files.

/// Every shipped example: its path under `examples/` and its text.
pub const EXAMPLES: &[(&str, &str)] = &[
    ("fluid/barbarian-vs-marauder.toml", include_str!("../../../examples/fluid/barbarian-vs-marauder.toml")),
    ("fluid/firefight.toml", include_str!("../../../examples/fluid/firefight.toml")),
    ("fluid/tiered-duel.toml", include_str!("../../../examples/fluid/tiered-duel.toml")),
    ("fluid/two-assassins.toml", include_str!("../../../examples/fluid/two-assassins.toml")),
    ("hardboiled/bar-room-brawl.toml", include_str!("../../../examples/hardboiled/bar-room-brawl.toml")),
    ("hardboiled/gunfight.toml", include_str!("../../../examples/hardboiled/gunfight.toml")),
    ("hardboiled/thug-gang.toml", include_str!("../../../examples/hardboiled/thug-gang.toml")),
    ("opend6/blaster-duel.toml", include_str!("../../../examples/opend6/blaster-duel.toml")),
    ("opend6/brawl.toml", include_str!("../../../examples/opend6/brawl.toml")),
    ("opend6/mixed-group.toml", include_str!("../../../examples/opend6/mixed-group.toml")),
    ("phasesix/firefight.toml", include_str!("../../../examples/phasesix/firefight.toml")),
    ("phasesix/grenade.toml", include_str!("../../../examples/phasesix/grenade.toml")),
    ("phasesix/sword-and-shield.toml", include_str!("../../../examples/phasesix/sword-and-shield.toml")),
    ("ticks/knife-fight.toml", include_str!("../../../examples/ticks/knife-fight.toml")),
    ("ticks/pistol-duel.toml", include_str!("../../../examples/ticks/pistol-duel.toml")),
    ("ticks/rifle-vs-pistol.toml", include_str!("../../../examples/ticks/rifle-vs-pistol.toml")),
];
