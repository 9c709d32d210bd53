//! Running the `fray` binary from the end-to-end tests.
#![allow(dead_code, reason = "each test binary uses the helpers it needs")]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `fray` with these arguments.
pub fn fray(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fray")).args(args).output().expect("fray runs")
}

/// Runs `fray` with these arguments and `input` on its standard input.
pub fn fray_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fray runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// The standard output of a run that must have succeeded.
pub fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// `fray sim FILE -n N --seed S --threads T --json`, parsed, without the timing (which varies).
pub fn sim_json(file: &str, n: &str, seed: &str, threads: &str) -> serde_json::Value {
    let out = ok(&fray(&["sim", file, "-n", n, "--seed", seed, "--threads", threads, "--json"]));
    let mut doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    doc.as_object_mut().unwrap().remove("fights_per_second");
    doc
}

/// A scenario written to a temporary file of its own, removed when dropped.
pub struct TempScenario(std::path::PathBuf);

impl TempScenario {
    /// `text` in a new temporary file.
    pub fn new(text: &str) -> TempScenario {
        TempScenario::named(text, "scenario")
    }

    /// `text` in a new temporary file whose name ends with `-NAME.toml`.
    pub fn named(text: &str, name: &str) -> TempScenario {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let file = format!("fray-test-{}-{}-{name}.toml", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let path = std::env::temp_dir().join(file);
        std::fs::write(&path, text).unwrap();
        TempScenario(path)
    }

    /// Its path.
    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempScenario {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
