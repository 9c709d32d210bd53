//! What several test files share.

/// The examples directory.
pub const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");

/// Every shipped example scenario, sorted.
pub fn example_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(EXAMPLES)
        .unwrap()
        .flat_map(|ruleset| std::fs::read_dir(ruleset.unwrap().path()).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 15, "every example: {files:?}");
    files
}
