//! `fray sim --shard K/N` and `fray merge`: a run split into parts, each run as a process of its
//! own, merges into exactly the whole run's report.

mod common;
use common::{TempScenario, fray, ok};

use serde_json::Value as Json;

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/fluid/barbarian-vs-marauder.toml");
const PISTOLS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ticks/pistol-duel.toml");

/// A temporary directory of part files, removed when dropped.
struct Dir(std::path::PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("fray-shard-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }
    fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Removes every `fights_per_second` (the timing fields) from a report.
fn untimed(mut doc: Json) -> Json {
    fn strip(v: &mut Json) {
        match v {
            Json::Object(map) => {
                map.remove("fights_per_second");
                map.values_mut().for_each(strip);
            }
            Json::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut doc);
    doc
}

/// Runs the `n` parts of `fray sim ARGS` as separate processes, writing each to a file, and
/// returns the files.
fn parts(dir: &Dir, args: &[&str], n: u64) -> Vec<String> {
    let mut children = Vec::new();
    for k in 1..=n {
        let file = dir.file(&format!("part-{k}-of-{n}.json"));
        let shard = format!("{k}/{n}");
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_fray"))
            .args(args)
            .args(["--shard", &shard, "--json", "--threads", "1"])
            .stdout(std::fs::File::create(&file).unwrap())
            .spawn()
            .unwrap();
        children.push((file, child));
    }
    children
        .into_iter()
        .map(|(file, mut child)| {
            assert!(child.wait().unwrap().success(), "{file}");
            file
        })
        .collect()
}

fn merge(files: &[String], json: bool) -> std::process::Output {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    if json {
        args.push("--json");
    }
    fray(&args)
}

/// The text report without its last line (fights per second).
fn untimed_text(text: &str) -> String {
    text.lines().filter(|l| !l.ends_with("fights per second")).collect::<Vec<_>>().join("\n")
}

#[test]
fn parts_merge_to_the_whole_run_for_1_2_3_and_7_parts() {
    // 7,500 fights: eight batches, the last one short, so 7 parts are of unequal sizes.
    let args = ["sim", EXAMPLE, "-n", "7500", "--seed", "11"];
    let whole_json = ok(&fray(&[&args[..], &["--json"]].concat()));
    let whole_text = ok(&fray(&args));
    let whole: Json = serde_json::from_str(&whole_json).unwrap();
    assert_eq!(whole["fights"], 7500);
    let dir = Dir::new("single");
    for n in [1, 2, 3, 7] {
        let files = parts(&dir, &args, n);
        let merged = ok(&merge(&files, true));
        let merged: Json = serde_json::from_str(&merged).unwrap();
        // Every count, histogram, ledger and interval the same, byte for byte.
        assert_eq!(untimed(merged.clone()).to_string(), untimed(whole.clone()).to_string(), "{n} parts");
        assert!(merged["fights_per_second"].as_f64().unwrap() > 0.0);
        // The parts are given in any order; the text report is the same too.
        let mut shuffled = files.clone();
        shuffled.reverse();
        assert_eq!(untimed_text(&ok(&merge(&shuffled, false))), untimed_text(&whole_text), "{n} parts");
        // Each part holds its own share only.
        if n > 1 {
            let part: Json = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
            let counted: u64 =
                part["runs"][0]["ledger"]["outcomes"].as_array().unwrap().iter().map(|o| o[1].as_u64().unwrap()).sum();
            assert!((1000..7500).contains(&counted), "{counted}");
        }
    }
}

#[test]
fn sweeps_and_comparisons_merge_too() {
    let dir = Dir::new("variants");
    let sweep = ["sim", EXAMPLE, "-n", "3000", "--sweep", "marauder.pc=12,18", "--set", "crit_ladder=none"];
    let whole: Json = serde_json::from_str(&ok(&fray(&[&sweep[..], &["--json"]].concat()))).unwrap();
    let merged: Json = serde_json::from_str(&ok(&merge(&parts(&dir, &sweep, 3), true))).unwrap();
    assert_eq!(untimed(merged.clone()).to_string(), untimed(whole).to_string());
    assert_eq!(merged["points"][1]["value"], "18");
    let compare = ["sim", EXAMPLE, "-n", "2000", "--seed", "3", "--compare", "marauder.pc=12"];
    let whole: Json = serde_json::from_str(&ok(&fray(&[&compare[..], &["--json"]].concat()))).unwrap();
    let merged: Json = serde_json::from_str(&ok(&merge(&parts(&dir, &compare, 2), true))).unwrap();
    assert_eq!(untimed(merged).to_string(), untimed(whole).to_string());
}

/// The error of a merge that must fail.
fn refused(files: &[String]) -> String {
    let out = merge(files, true);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: "), "{err}");
    err
}

#[test]
fn parts_of_different_runs_are_refused_with_the_reason() {
    let dir = Dir::new("refused");
    let base = ["sim", PISTOLS, "-n", "3000"];
    let good = parts(&dir, &base, 3);
    let other = |name: &str, extra: &[&str]| -> String {
        let file = dir.file(name);
        let out = ok(&fray(&[&base[..], extra, &["--shard", "2/3", "--json"]].concat()));
        std::fs::write(&file, out).unwrap();
        file
    };
    let with = |i: usize, file: String| {
        let mut files = good.clone();
        files[i] = file;
        files
    };
    // Another seed, other options, another fight count.
    assert!(refused(&with(1, other("seed.json", &["--seed", "9"]))).contains("seed 9, the first part with seed 1"));
    let err = refused(&with(1, other("set.json", &["--set", "delta_die=3d6"])));
    assert!(err.contains("other --set options"), "{err}");
    let count = dir.file("count.json");
    std::fs::write(&count, ok(&fray(&["sim", PISTOLS, "-n", "4000", "--shard", "2/3", "--json"]))).unwrap();
    assert!(refused(&with(1, count)).contains("a run of 4000 fights, the first part of 3000"));
    // Another scenario: the same file name with other text.
    let text = std::fs::read_to_string(PISTOLS).unwrap();
    let changed = TempScenario::new(&format!("{text}\n# an edit\n"));
    let edited = dir.file("edited.json");
    std::fs::write(&edited, ok(&fray(&["sim", changed.path(), "-n", "3000", "--shard", "2/3", "--json"]))).unwrap();
    assert!(refused(&with(1, edited)).contains("a part of another run"));
    // Another fray version.
    let old = dir.file("old.json");
    let mut doc: Json = serde_json::from_str(&std::fs::read_to_string(&good[2]).unwrap()).unwrap();
    doc["fray"] = "0.0.9".into();
    std::fs::write(&old, doc.to_string()).unwrap();
    assert!(refused(&with(2, old)).contains("run by fray 0.0.9, the first part by fray 0.1.0"));
    // Another split, a part twice, a part missing.
    let four = dir.file("four.json");
    std::fs::write(&four, ok(&fray(&[&base[..], &["--shard", "2/2", "--json"]].concat()))).unwrap();
    assert!(refused(&with(1, four)).contains("a part of 2 parts, the first part of 3"));
    assert!(refused(&with(1, good[0].clone())).contains("are both part 1 of 3"));
    assert!(refused(&good[..2]).contains("part 3 of 3 is missing"));
    // Not a part at all.
    let junk = dir.file("junk.json");
    std::fs::write(&junk, ok(&fray(&[&base[..], &["--json"]].concat()))).unwrap();
    assert!(refused(&[junk]).contains("not a part of `fray sim --shard K/N`"));
    // The untouched parts still merge.
    assert!(merge(&good, true).status.success());
}

#[test]
fn bad_shards_are_refused() {
    let bad = |args: &[&str], want: &str| {
        let out = fray(&[&["sim", PISTOLS, "--json"][..], args].concat());
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{args:?}: {err}");
    };
    bad(&["--shard", "0/3"], "parts are counted from 1 to 3");
    bad(&["--shard", "4/3"], "parts are counted from 1 to 3");
    bad(&["--shard", "1/0"], "at least one part");
    bad(&["--shard", "two"], "expected K/N");
    bad(&["-n", "2000", "--shard", "1/3"], "3 parts of a run of 2 batches");
    bad(&["--shard", "1/2", "--precision", "0.01"], "cannot be split with --shard");
    bad(&["--shard", "1/2", "--plot", "x.svg"], "give --plot and --report to `fray merge`");
}
