//! A bounded loopback load test of `fray serve`: 20 fights, each watched by 5 open pages (one
//! GM page and four players' pages, each on its own server-sent event stream, fetching its
//! board whenever it hears of a new version), while one script per fight sends commands as fast
//! as they are acknowledged. Prints the latency from sending a command to its acknowledgement,
//! and to every page of the fight holding the new board, at the 50th and 99th percentiles; and,
//! for the decisions whose exact odds reached every page before the next command (they follow
//! the board), the latency from the command to every page holding them.
//!
//! Run it with `cargo run --release -p fray-server --example load` (options:
//! `-- FIGHTS PAGES COMMANDS_PER_FIGHT SECONDS`, defaults `20 5 100 60`, and `--keep-alive`:
//! each page and script keeps its connection open, as a browser does, instead of opening one
//! per request). It listens on
//! 127.0.0.1 only, with a database in the temporary folder (or in the file `FRAY_LOAD_DB` names,
//! which is then kept: a database of many fights for timing `fray serve`'s start), and stops
//! after the commands or the seconds, whichever come first.

use fray_server::{State, Store, app};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const GM: &str = "load-test-gm-token";

/// One request on a fresh connection; gives the status and body.
fn request(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: Bearer {GM}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a response");
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
    (status, body.to_owned())
}

/// A connection kept open for many requests (HTTP/1.1 keep-alive, as a browser's page keeps
/// one), or, without `--keep-alive`, a fresh connection per request.
struct Client {
    addr: String,
    keep_alive: bool,
    open: Option<BufReader<TcpStream>>,
}

impl Client {
    fn new(addr: &str, keep_alive: bool) -> Client {
        Client { addr: addr.to_owned(), keep_alive, open: None }
    }

    fn request(&mut self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        if !self.keep_alive {
            return request(&self.addr, method, path, body);
        }
        let addr = &self.addr;
        let reader = self.open.get_or_insert_with(|| {
            let stream = TcpStream::connect(addr).expect("connect");
            stream.set_nodelay(true).unwrap();
            BufReader::new(stream)
        });
        let body = body.unwrap_or("");
        let message = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {GM}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        reader.get_mut().write_all(message.as_bytes()).unwrap();
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let status = line.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
        let (mut length, mut chunked) = (0, false);
        loop {
            line.clear();
            reader.read_line(&mut line).unwrap();
            let header = line.trim().to_ascii_lowercase();
            if header.is_empty() {
                break;
            }
            if let Some(n) = header.strip_prefix("content-length:") {
                length = n.trim().parse().unwrap();
            }
            chunked |= header == "transfer-encoding: chunked";
        }
        let mut bytes = Vec::new();
        if chunked {
            loop {
                line.clear();
                reader.read_line(&mut line).unwrap();
                let n = usize::from_str_radix(line.trim(), 16).unwrap();
                let mut chunk = vec![0; n + 2];
                reader.read_exact(&mut chunk).unwrap();
                if n == 0 {
                    break;
                }
                bytes.extend_from_slice(&chunk[..n]);
            }
        } else {
            bytes.resize(length, 0);
            reader.read_exact(&mut bytes).unwrap();
        }
        (status, String::from_utf8(bytes).unwrap())
    }
}

/// When each version of a fight was sent, acknowledged, and seen by how many pages.
#[derive(Default)]
struct Timings {
    sent: HashMap<u64, Instant>,
    acked: HashMap<u64, Instant>,
    seen: HashMap<u64, (usize, Instant)>,
    /// The board with the decision's odds, after the `odds` event.
    odds: HashMap<u64, (usize, Instant)>,
}

/// What a script reads of the state a command answers with: the version, the pending decision
/// or roll, whether a command can be redone. The rest (the log above all) is skipped unread, as
/// a script on another machine would spend its own time on it, not the server's.
#[derive(serde::Deserialize)]
struct Head {
    version: u64,
    #[serde(default)]
    pending: Value,
    can_redo: u64,
}

fn next_command(state: &Head, x: &mut u64) -> Value {
    let pending = &state.pending;
    match pending["kind"].as_str() {
        Some("decision") => json!({ "answer": pending["ai"] }),
        Some("roll") => {
            let (n, sides) = (pending["dice"].as_u64().unwrap(), pending["sides"].as_u64().unwrap());
            let faces: Vec<u64> = (0..n)
                .map(|_| {
                    *x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (*x >> 33) % sides + 1
                })
                .collect();
            json!({ "dice": faces })
        }
        // Ended: undo and redo keep the commands coming.
        _ if state.can_redo > 0 => json!({ "redo": 1 }),
        _ => json!({ "undo": 1 }),
    }
}

/// One open page: listens to the events, fetches its board on each new version.
fn page(addr: String, events: String, board: String, timings: Arc<Mutex<Timings>>, keep_alive: bool) {
    let mut client = Client::new(&addr, keep_alive);
    let mut stream = TcpStream::connect(&addr).expect("connect");
    let head = format!(
        "GET {events} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {GM}\r\nAccept: text/event-stream\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    let reader = BufReader::new(stream);
    // The event's name: none for a new version, `odds` when the decision's odds are in.
    let mut odds = false;
    let mut at = None;
    for line in reader.lines() {
        let Ok(line) = line else { return };
        // Chunked transfer: the event's lines arrive as they are.
        if line.trim() == "event: odds" {
            odds = true;
            continue;
        }
        let Some(data) = line.strip_prefix("data: ") else { continue };
        let Ok(version) = data.trim().parse::<u64>() else { continue };
        let heard_odds = std::mem::take(&mut odds);
        // As the page's script does: the odds of a version the page no longer shows are moot.
        if heard_odds && at != Some(version) {
            continue;
        }
        let (status, text) = client.request("GET", &board, None);
        assert_eq!(status, 200, "{text}");
        at = Some(version);
        let now = Instant::now();
        let mut timings = timings.lock().unwrap();
        let seen =
            if heard_odds { timings.odds.entry(version) } else { timings.seen.entry(version) }.or_insert((0, now));
        *seen = (seen.0 + 1, now);
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let keep_alive = std::env::args().any(|a| a == "--keep-alive");
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter(|a| a != "--keep-alive")
        .map(|a| a.parse().expect("numbers: FIGHTS PAGES COMMANDS SECONDS, and --keep-alive"))
        .collect();
    let arg = |i: usize, default: u64| args.get(i).copied().unwrap_or(default);
    let (n_fights, n_pages, n_commands, seconds) = (arg(0, 20) as usize, arg(1, 5) as usize, arg(2, 100), arg(3, 60));
    let keep = std::env::var_os("FRAY_LOAD_DB").map(std::path::PathBuf::from);
    let db = keep.clone().unwrap_or_else(|| std::env::temp_dir().join(format!("fray-load-{}.db", std::process::id())));
    let state = Arc::new(State::new(Store::open(&db).unwrap(), GM.to_owned()).unwrap());
    let server = state.clone();
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            addr_tx.send(listener.local_addr().unwrap().to_string()).unwrap();
            axum::serve(listener, app(state)).await.unwrap();
        });
    });
    let addr = addr_rx.recv().unwrap();
    let examples = [
        "hardboiled/bar-room-brawl.toml",
        "opend6/blaster-duel.toml",
        "ticks/knife-fight.toml",
        "phasesix/sword-and-shield.toml",
    ];
    let mut fights = Vec::new();
    for i in 0..n_fights {
        let path = examples[i % examples.len()];
        let scenario = fray_server::EXAMPLES.iter().find(|(p, _)| *p == path).unwrap().1;
        let body = json!({ "scenario": scenario, "file": path, "seed": i, "dice": "entered" }).to_string();
        let (status, text) = request(&addr, "POST", "/api/fights", Some(&body));
        assert_eq!(status, 201, "{text}");
        let created: Value = serde_json::from_str(&text).unwrap();
        let id = created["id"].as_str().unwrap().to_owned();
        let tokens: Vec<String> =
            created["players"].as_object().unwrap().values().map(|t| t.as_str().unwrap().to_owned()).collect();
        let timings = Arc::new(Mutex::new(Timings::default()));
        for p in 0..n_pages {
            let (events, board) = if p == 0 {
                (format!("/fights/{id}/events"), format!("/fights/{id}/board"))
            } else {
                let token = &tokens[p % tokens.len()];
                (format!("/play/{token}/events"), format!("/play/{token}/board"))
            };
            let (addr, timings) = (addr.clone(), timings.clone());
            std::thread::spawn(move || page(addr, events, board, timings, keep_alive));
        }
        fights.push((id, timings));
    }
    std::thread::sleep(Duration::from_millis(500)); // every page connected
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let drivers: Vec<_> = fights
        .iter()
        .enumerate()
        .map(|(i, (id, timings))| {
            let (addr, id, timings) = (addr.clone(), id.clone(), timings.clone());
            std::thread::spawn(move || {
                let mut client = Client::new(&addr, keep_alive);
                let (_, text) = client.request("GET", &format!("/api/fights/{id}"), None);
                let mut state: Head = serde_json::from_str(&text).unwrap();
                let mut x = i as u64 + 1;
                for _ in 0..n_commands {
                    if Instant::now() > deadline {
                        break;
                    }
                    let version = state.version;
                    let body = json!({ "version": version, "command": next_command(&state, &mut x) }).to_string();
                    timings.lock().unwrap().sent.insert(version + 1, Instant::now());
                    let (status, text) = client.request("POST", &format!("/api/fights/{id}/commands"), Some(&body));
                    assert_eq!(status, 200, "{text}");
                    timings.lock().unwrap().acked.insert(version + 1, Instant::now());
                    state = serde_json::from_str(&text).unwrap();
                }
            })
        })
        .collect();
    for driver in drivers {
        driver.join().unwrap();
    }
    let elapsed = started.elapsed();
    std::thread::sleep(Duration::from_millis(1000)); // the last boards arrive
    let (mut acked, mut seen, mut missing, mut odds) = (Vec::new(), Vec::new(), 0, Vec::new());
    for (_, timings) in &fights {
        let timings = timings.lock().unwrap();
        for (version, sent) in &timings.sent {
            acked.push(timings.acked[version] - *sent);
            match timings.seen.get(version) {
                Some((n, at)) if *n == n_pages => seen.push(*at - *sent),
                // A page that lagged skips versions: it shows a newer board at once.
                _ => missing += 1,
            }
            if let Some((n, at)) = timings.odds.get(version)
                && *n == n_pages
            {
                odds.push(*at - *sent);
            }
        }
    }
    acked.sort();
    seen.sort();
    odds.sort();
    println!(
        "{n_fights} fights x {n_pages} pages, {}, {} commands in {:.1} s ({:.0} commands/s)",
        if keep_alive { "connections kept alive" } else { "a connection per request" },
        acked.len(),
        elapsed.as_secs_f64(),
        acked.len() as f64 / elapsed.as_secs_f64()
    );
    println!(
        "command acknowledged:      p50 {:>7.2?}  p99 {:>7.2?}  max {:>7.2?}",
        percentile(&acked, 0.5),
        percentile(&acked, 0.99),
        percentile(&acked, 1.0)
    );
    if n_pages > 0 {
        println!(
            "seen on every page (board): p50 {:>7.2?}  p99 {:>7.2?}  max {:>7.2?}  ({} versions skipped by a lagging page)",
            percentile(&seen, 0.5),
            percentile(&seen, 0.99),
            percentile(&seen, 1.0),
            missing
        );
        println!(
            "odds on every page:         p50 {:>7.2?}  p99 {:>7.2?}  max {:>7.2?}  ({} decisions' odds shown before the next command)",
            percentile(&odds, 0.5),
            percentile(&odds, 0.99),
            percentile(&odds, 1.0),
            odds.len()
        );
        let counts = server.odds_counts();
        println!(
            "odds worked out by the worker: {}, dropped unworked (answered first): {}",
            counts.worked, counts.dropped
        );
    }
    if keep.is_none() {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
    }
    std::process::exit(0);
}
