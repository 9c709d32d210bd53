//! The real `fray serve`, killed with SIGKILL at random points while commands stream in, and
//! restarted: every acknowledged command is still there, in order.

use super::http::{GM, Server, next_command, next_random, request, temp_dir};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Sends commands to the fights, one after another, as fast as they are acknowledged, recording
/// each acknowledged one, until a request fails (the server was killed).
fn send_until_killed(addr: String, fights: Vec<String>, acked: Arc<Mutex<Vec<Vec<Value>>>>, mut x: u64) {
    loop {
        let i = (next_random(&mut x) as usize) % fights.len();
        let id = &fights[i];
        let Ok(state) = request(&addr, "GET", &format!("/api/fights/{id}"), Some(GM), None) else { return };
        if state.status != 200 {
            return;
        }
        let state = state.json();
        let command = next_command(&state, &mut x);
        let body = json!({ "version": state["version"], "command": command }).to_string();
        let Ok(reply) = request(&addr, "POST", &format!("/api/fights/{id}/commands"), Some(GM), Some(&body)) else {
            return;
        };
        match reply.status {
            200 => acked.lock().unwrap()[i].push(command),
            _ => panic!("{command}: {} {}", reply.status, reply.body),
        }
    }
}

#[test]
fn a_killed_server_keeps_every_acknowledged_command() {
    let dir = temp_dir("crash");
    let db = dir.join("fray.db");
    let examples = ["hardboiled/bar-room-brawl.toml", "opend6/blaster-duel.toml", "ticks/knife-fight.toml"];
    let server = Server::start(&db);
    let mut fights = Vec::new();
    for path in examples {
        let text = std::fs::read_to_string(format!("{}/../../examples/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let reply = server.gm(
            "POST",
            "/api/fights",
            Some(&json!({ "scenario": text, "file": path, "seed": 2, "dice": "entered" })),
        );
        assert_eq!(reply.status, 201, "{}", reply.body);
        fights.push(reply.json()["id"].as_str().unwrap().to_owned());
    }
    // What the store must hold: the commands acknowledged so far, per fight (every journal
    // starts empty).
    let mut want: Vec<Vec<Value>> = vec![Vec::new(); fights.len()];
    let mut server = Some(server);
    let mut x = 2026;
    let rounds = 8;
    for round in 0..=rounds {
        let running = server.take().unwrap_or_else(|| Server::start(&db));
        // Every acknowledged command is back, in order; a command in flight at the kill may be
        // there too (stored, its answer lost), and then it counts.
        for (i, id) in fights.iter().enumerate() {
            let journal = running.gm("GET", &format!("/api/fights/{id}/journal"), None);
            assert_eq!(journal.status, 200, "{}", journal.body);
            let stored: Vec<Value> = journal.json()["commands"].as_array().unwrap().clone();
            assert!(
                stored.len() == want[i].len() || stored.len() == want[i].len() + 1,
                "round {round}, fight {i}: {} stored, {} acknowledged",
                stored.len(),
                want[i].len()
            );
            assert_eq!(stored[..want[i].len()], want[i][..], "round {round}, fight {i}");
            want[i] = stored;
        }
        if round == rounds {
            break;
        }
        let acked = Arc::new(Mutex::new(vec![Vec::new(); fights.len()]));
        let sender = {
            let (addr, fights, acked) = (running.addr.clone(), fights.clone(), acked.clone());
            let seed = next_random(&mut x);
            std::thread::spawn(move || send_until_killed(addr, fights, acked, seed))
        };
        std::thread::sleep(Duration::from_millis(50 + next_random(&mut x) % 400));
        running.kill();
        sender.join().expect("the sender saw only acknowledgements or a dead server");
        let acked = acked.lock().unwrap();
        for (i, commands) in acked.iter().enumerate() {
            want[i].extend(commands.iter().cloned());
        }
    }
    let total: usize = want.iter().map(Vec::len).sum();
    assert!(total > 20, "only {total} commands acknowledged in all");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_address_or_database_is_a_clear_error() {
    let dir = temp_dir("bad-flags");
    let fray = env!("CARGO_BIN_EXE_fray");
    let out = std::process::Command::new(fray)
        .args(["serve", "--bind", "nowhere", "--db"])
        .arg(dir.join("f.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--bind nowhere"), "{stderr}");
    let out =
        std::process::Command::new(fray).args(["serve", "--db"]).arg(dir.join("no/such/folder/f.db")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no/such/folder/f.db"), "{stderr}");
    let out = std::process::Command::new(fray)
        .args(["serve", "--gm-token", "", "--db"])
        .arg(dir.join("f.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("empty token"));
    let _ = std::fs::remove_dir_all(&dir);
}
