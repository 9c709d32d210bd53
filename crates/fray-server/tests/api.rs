//! Every route of `fray serve`, the router called in process: tokens, bad bodies, unknown fights,
//! version conflicts, a whole fight with entered dice, undo and redo, a restart from the
//! database, the players' view, escaping, the pages and their live events.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use fray_server::{State, Store, app};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use tower::ServiceExt;

const GM: &str = "gm-secret-token";
const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");

fn example(path: &str) -> String {
    std::fs::read_to_string(format!("{EXAMPLES}/{path}")).unwrap()
}

/// A fresh database file in the temporary folder, removed by the test's end.
struct TempDb(std::path::PathBuf);

impl TempDb {
    fn new(name: &str) -> TempDb {
        let path = std::env::temp_dir().join(format!("fray-server-{}-{name}.db", std::process::id()));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
        TempDb(path)
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

fn memory_app() -> (Arc<State>, Router) {
    let state = Arc::new(State::new(Store::in_memory().unwrap(), GM.to_owned()).unwrap());
    (state.clone(), app(state))
}

/// One request: its status, headers and body.
async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<String>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let request = match body {
        Some(body) => request.header(header::CONTENT_TYPE, "application/json").body(Body::from(body)).unwrap(),
        None => request.body(Body::empty()).unwrap(),
    };
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8(bytes.to_vec()).unwrap())
}

/// A GM request whose answer is JSON.
async fn gm(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let (status, _, text) = call(app, method, uri, Some(GM), body.map(|b| b.to_string())).await;
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {uri}: not JSON ({e}): {text}"));
    (status, value)
}

/// Starts a fight of a shipped example; gives its id and player tokens.
async fn start(app: &Router, path: &str, dice: &str, people: Option<Vec<&str>>) -> (String, Value) {
    let mut body = json!({ "scenario": example(path), "file": path, "seed": 5, "dice": dice });
    if let Some(people) = people {
        body["people"] = json!(people);
    }
    let (status, created) = gm(app, "POST", "/api/fights", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    (created["id"].as_str().unwrap().to_owned(), created["players"].clone())
}

/// The next command a script would send: the AI's choice, or faces from a fixed sequence.
fn next_command(state: &Value, turn: &mut u64) -> Option<Value> {
    let pending = &state["pending"];
    match pending["kind"].as_str()? {
        "decision" => Some(json!({ "answer": pending["ai"] })),
        "roll" => {
            let (n, sides) = (pending["dice"].as_u64().unwrap(), pending["sides"].as_u64().unwrap());
            let faces: Vec<u64> = (0..n)
                .map(|_| {
                    *turn = turn.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (*turn >> 33) % sides + 1
                })
                .collect();
            Some(json!({ "dice": faces }))
        }
        other => panic!("pending of kind {other}"),
    }
}

async fn send(app: &Router, id: &str, version: u64, command: Value) -> (StatusCode, Value) {
    gm(app, "POST", &format!("/api/fights/{id}/commands"), Some(json!({ "version": version, "command": command })))
        .await
}

/// Plays the fight to its end through the API; gives the final state and the commands sent.
async fn play_to_the_end(app: &Router, id: &str) -> (Value, usize) {
    let (_, mut state) = gm(app, "GET", &format!("/api/fights/{id}"), None).await;
    let mut turn = 17;
    for sent in 0..3000 {
        let Some(command) = next_command(&state, &mut turn) else { return (state, sent) };
        let version = state["version"].as_u64().unwrap();
        let (status, next) = send(app, id, version, command.clone()).await;
        assert_eq!(status, StatusCode::OK, "{command}: {next}");
        assert_eq!(next["version"].as_u64().unwrap(), version + 1);
        state = next;
    }
    panic!("no end after 3000 commands");
}

#[tokio::test]
async fn every_gm_route_needs_the_gm_token() {
    let (_, app) = memory_app();
    let (id, players) = start(&app, "hardboiled/bar-room-brawl.toml", "entered", None).await;
    let player = players["Joe"].as_str().unwrap().to_owned();
    let body = json!({"version": 0, "command": {"undo": 1}}).to_string();
    let routes = [
        ("GET", "/api/fights".to_owned()),
        ("POST", "/api/fights".to_owned()),
        ("GET", format!("/api/fights/{id}")),
        ("POST", format!("/api/fights/{id}/commands")),
        ("GET", format!("/api/fights/{id}/journal")),
        ("GET", format!("/api/fights/{id}/log")),
        ("GET", format!("/fights/{id}/board")),
        ("GET", format!("/fights/{id}/events")),
    ];
    for (method, uri) in &routes {
        for token in [None, Some("wrong"), Some(player.as_str()), Some("")] {
            let (status, headers, text) = call(&app, method, uri, token, Some(body.clone())).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {uri} with {token:?}: {text}");
            assert_eq!(headers[header::WWW_AUTHENTICATE], "Bearer");
            let error: Value = serde_json::from_str(&text).unwrap();
            assert!(error["error"].as_str().unwrap().contains("GM token"), "{text}");
        }
    }
    // The pages answer 401 with a page that says where the token is.
    for uri in ["/".to_owned(), format!("/fights/{id}"), "/?token=wrong".to_owned()] {
        let (status, _, text) = call(&app, "GET", &uri, None, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{uri}");
        assert!(text.contains("printed"), "{text}");
    }
    // Nothing happened to the fight.
    let (_, state) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
    assert_eq!(state["version"], 0);
}

#[tokio::test]
async fn bad_bodies_are_answered_with_400_and_huge_ones_with_413() {
    let (_, app) = memory_app();
    let (id, _) = start(&app, "hardboiled/bar-room-brawl.toml", "entered", None).await;
    let commands = format!("/api/fights/{id}/commands");
    for (uri, body) in [
        ("/api/fights", "{not json"),
        ("/api/fights", r#"{"scenario": 3}"#),
        ("/api/fights", r#"{"scenario": "", "colour": "red"}"#),
        (commands.as_str(), "{not json"),
        (commands.as_str(), r#"{"version": 0}"#),
        (commands.as_str(), r#"{"version": 0, "command": {"fly": 1}}"#),
        (commands.as_str(), r#"{"version": -1, "command": {"undo": 1}}"#),
    ] {
        let (status, _, text) = call(&app, "POST", uri, Some(GM), Some(body.to_owned())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri} {body}: {text}");
        let error: Value = serde_json::from_str(&text).unwrap();
        assert!(error["error"].as_str().unwrap().starts_with("the body is not the JSON expected"), "{text}");
    }
    // A command the fight refuses: 400 with the reason, and the fight as it was.
    let (status, error) = send(&app, &id, 0, json!({"dice": [1]})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(!error["error"].as_str().unwrap().is_empty());
    let (status, error) = send(&app, &id, 0, json!({"answer": 999})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    let (status, error) = send(&app, &id, 0, json!({"undo": 1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    let huge = json!({ "scenario": "#".repeat(fray_server::MAX_BODY + 1) }).to_string();
    for uri in ["/api/fights", commands.as_str()] {
        let (status, _, text) = call(&app, "POST", uri, Some(GM), Some(huge.clone())).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{uri}: {text}");
        assert!(serde_json::from_str::<Value>(&text).unwrap()["error"].is_string());
    }
    let (_, state) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
    assert_eq!(state["version"], 0);
}

#[tokio::test]
async fn a_bad_scenario_is_answered_with_its_line_column_and_caret() {
    let (_, app) = memory_app();
    let body = json!({ "scenario": "ruleset = \"hardboiled\"\n[[combatant]\nname = 3\n", "file": "mine.toml" });
    let (status, error) = gm(&app, "POST", "/api/fights", Some(body)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let text = error["error"].as_str().unwrap();
    assert!(text.starts_with("mine.toml:2:13: "), "{text}");
    assert!(text.contains("2 | [[combatant]\n  |             ^"), "{text}");
    // An unknown option too.
    let body = json!({ "scenario": example("hardboiled/bar-room-brawl.toml"), "set": {"no_such_option": "1"} });
    let (status, error) = gm(&app, "POST", "/api/fights", Some(body)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(error["error"].as_str().unwrap().contains("no_such_option"), "{error}");
    let (_, list) = gm(&app, "GET", "/api/fights", None).await;
    assert_eq!(list, json!([]));
}

#[tokio::test]
async fn unknown_fights_and_tokens_are_404() {
    let (_, app) = memory_app();
    for (method, uri) in [
        ("GET", "/api/fights/nope"),
        ("POST", "/api/fights/nope/commands"),
        ("GET", "/api/fights/nope/journal"),
        ("GET", "/api/fights/nope/log"),
        ("GET", "/fights/nope/board"),
        ("GET", "/fights/nope"),
        ("GET", "/api/view/nope"),
        ("GET", "/play/nope"),
        ("GET", "/play/nope/board"),
        ("GET", "/play/nope/events"),
    ] {
        let body = json!({"version": 0, "command": {"undo": 1}}).to_string();
        let (status, _, text) = call(&app, method, uri, Some(GM), Some(body)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {uri}: {text}");
        assert!(serde_json::from_str::<Value>(&text).unwrap()["error"].as_str().unwrap().starts_with("no such"));
    }
}

/// The fight's state once its pending decision's odds are worked out (bounded wait).
async fn worked_out(app: &Router, id: &str) -> Value {
    for _ in 0..500 {
        let (_, state) = gm(app, "GET", &format!("/api/fights/{id}"), None).await;
        if state["odds_worked_out"] == true {
            return state;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the odds never came");
}

#[tokio::test]
async fn two_commands_on_one_version_one_wins_the_other_gets_409_and_the_state() {
    let (_, app) = memory_app();
    let (id, _) = start(&app, "hardboiled/bar-room-brawl.toml", "entered", None).await;
    let (_, state) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
    let command = next_command(&state, &mut 1).unwrap();
    let (status, _) = send(&app, &id, 0, command.clone()).await;
    assert_eq!(status, StatusCode::OK);
    // The state once the next decision's odds are in (they follow the answer).
    let first = worked_out(&app, &id).await;
    let (status, second) = send(&app, &id, 0, command).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(second["error"], "the fight moved on: version 0 was sent, the fight is at version 1");
    assert_eq!(second["state"], first);
    let (status, ahead) = send(&app, &id, 7, json!({"undo": 1})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{ahead}");
    let (_, state) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
    assert_eq!(state, first);
}

#[tokio::test]
async fn a_whole_fight_with_entered_dice_then_undo_redo_and_the_journal() {
    let (_, app) = memory_app();
    let (id, _) = start(&app, "hardboiled/bar-room-brawl.toml", "entered", None).await;
    let (end, sent) = play_to_the_end(&app, &id).await;
    assert!(sent > 5, "a real fight: {sent} commands");
    assert!(end["pending"].is_null());
    assert!(end["outcome"]["text"].as_str().unwrap().len() > 3, "{end}");
    assert_eq!(end["version"], sent);
    assert!(end["log"].as_array().unwrap().len() > sent / 2);
    let (_, list) = gm(&app, "GET", "/api/fights", None).await;
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["ended"], true);
    assert_eq!(list[0]["title"], "hardboiled/bar-room-brawl.toml");
    assert!(list[0]["updated"].as_i64().unwrap() > 1_700_000_000);

    // Undo twice: the fight waits again, and the log is shorter.
    let (status, once) = send(&app, &id, sent as u64, json!({"undo": 1})).await;
    assert_eq!(status, StatusCode::OK, "{once}");
    let (status, twice) = send(&app, &id, sent as u64 + 1, json!({"undo": 1})).await;
    assert_eq!(status, StatusCode::OK, "{twice}");
    assert!(twice["outcome"].is_null() && !twice["pending"].is_null(), "{twice}");
    assert_eq!(twice["can_redo"], 2);
    assert!(twice["log"].as_array().unwrap().len() < end["log"].as_array().unwrap().len());
    let (_, redone) = send(&app, &id, sent as u64 + 2, json!({"redo": 1})).await;
    let (_, redone) = send(&app, &id, redone["version"].as_u64().unwrap(), json!({"redo": 1})).await;
    assert_eq!(redone["log"], end["log"]);
    assert_eq!(redone["outcome"], end["outcome"]);

    // The journal restores the same fight, as `fray fight --resume` would.
    let (status, headers, journal) = call(&app, "GET", &format!("/api/fights/{id}/journal"), Some(GM), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    let session = fray_live::Session::from_json(&journal).unwrap();
    assert_eq!(session.version(), sent + 4);
    let events: Vec<&Value> = session.snapshot().log.iter().map(|l| &l.json).collect();
    assert_eq!(json!(events), end["log"]);
    let (status, _, log) = call(&app, "GET", &format!("/api/fights/{id}/log"), Some(GM), None).await;
    assert_eq!(status, StatusCode::OK);
    let log: Value = serde_json::from_str(&log).unwrap();
    assert_eq!(log, serde_json::to_value(&session.snapshot().log).unwrap());
}

#[tokio::test]
async fn a_restarted_store_restores_every_fight_as_it_was() {
    let db = TempDb::new("restart");
    let open = || Arc::new(State::new(Store::open(&db.0).unwrap(), GM.to_owned()).unwrap());
    let app1 = app(open());
    let (ended, _) = start(&app1, "hardboiled/bar-room-brawl.toml", "entered", None).await;
    play_to_the_end(&app1, &ended).await;
    let (open_fight, players) = start(&app1, "opend6/blaster-duel.toml", "fray", None).await;
    let (_, state) = gm(&app1, "GET", &format!("/api/fights/{open_fight}"), None).await;
    let mut turn = 3;
    let mut version = 0;
    for _ in 0..4 {
        let command = next_command(&state, &mut turn).unwrap();
        let (status, _) = send(&app1, &open_fight, version, command).await;
        assert_eq!(status, StatusCode::OK);
        version += 1;
    }
    send(&app1, &open_fight, version, json!({"undo": 1})).await;
    let side = players.as_object().unwrap().keys().next().unwrap().clone();
    let token = players[&side].as_str().unwrap().to_owned();
    let before_fights: Vec<Value> = {
        let mut all = Vec::new();
        for id in [&ended, &open_fight] {
            all.push(gm(&app1, "GET", &format!("/api/fights/{id}"), None).await.1);
        }
        all
    };
    let (_, _, before_view) = call(&app1, "GET", &format!("/api/view/{token}"), None, None).await;
    let (_, before_list) = gm(&app1, "GET", "/api/fights", None).await;
    drop(app1);

    let app2 = app(open());
    for (id, before) in [&ended, &open_fight].into_iter().zip(&before_fights) {
        let (status, after) = gm(&app2, "GET", &format!("/api/fights/{id}"), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(&after, before, "{id}");
    }
    let (_, _, after_view) = call(&app2, "GET", &format!("/api/view/{token}"), None, None).await;
    assert_eq!(after_view, before_view);
    let (_, after_list) = gm(&app2, "GET", "/api/fights", None).await;
    assert_eq!(after_list, before_list);
    // And it goes on from there, version included.
    let version = before_fights[1]["version"].as_u64().unwrap();
    let (status, _) = send(&app2, &open_fight, version, json!({"redo": 1})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = send(&app2, &open_fight, version, json!({"redo": 1})).await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_player_token_sees_its_sides_view_and_nothing_of_the_gm() {
    let (state, app) = memory_app();
    let (id, players) = start(&app, "hardboiled/bar-room-brawl.toml", "fray", Some(vec!["Joe Bruno"])).await;
    let joe = players["Joe"].as_str().unwrap().to_owned();
    let docks = players["docks"].as_str().unwrap().to_owned();
    assert_ne!(joe, docks);
    assert!(joe.len() >= 32 && joe.chars().all(|c| c.is_ascii_hexdigit()), "{joe}");
    // The GM hides Docker from Joe.
    let (status, _) = send(&app, &id, 0, json!({"hide": {"who": "Docker", "hidden": true}})).await;
    assert_eq!(status, StatusCode::OK);
    let fight = state.fight(&id).unwrap();
    let (status, _, text) = call(&app, "GET", &format!("/api/view/{joe}"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    let mut view: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(view["version"], 1);
    view.as_object_mut().unwrap().remove("version");
    view.as_object_mut().unwrap().remove("title");
    assert_eq!(view.as_object_mut().unwrap().remove("players_answer"), Some(json!(false)));
    let want = {
        let (_, state) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
        assert!(state["status"].to_string().contains("Docker"));
        let journal = fray_live::Session::from_json(
            &call(&app, "GET", &format!("/api/fights/{id}/journal"), Some(GM), None).await.2,
        )
        .unwrap();
        serde_json::to_value(journal.snapshot().view("Joe")).unwrap()
    };
    assert_eq!(view, want);
    assert!(!text.contains("Docker"), "{text}");
    let (_, _, page) = call(&app, "GET", &format!("/play/{joe}"), None, None).await;
    assert!(page.contains("Joe Bruno") && !page.contains("Docker"), "{page}");
    let (_, _, board) = call(&app, "GET", &format!("/play/{joe}/board"), None, None).await;
    assert!(board.contains("Joe Bruno") && !board.contains("Docker"), "{board}");
    // The docks side sees Docker.
    let (_, _, docks_view) = call(&app, "GET", &format!("/api/view/{docks}"), None, None).await;
    assert!(docks_view.contains("Docker"));
    // A player token is no GM token, on any route.
    for uri in [format!("/api/fights/{id}"), format!("/api/fights/{id}/journal"), "/api/fights".to_owned()] {
        let (status, _, _) = call(&app, "GET", &uri, Some(&joe), None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    drop(fight);
}

#[tokio::test]
async fn names_and_texts_are_escaped_on_every_page() {
    let (_, app) = memory_app();
    let evil = "<script>alert(1)</script>";
    let text = example("hardboiled/bar-room-brawl.toml").replace("Joe Bruno", evil);
    let body = json!({ "scenario": text, "file": "<b>bold</b>.toml", "dice": "fray", "people": [evil] });
    let (status, created) = gm(&app, "POST", "/api/fights", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = created["players"]["Joe"].as_str().unwrap();
    for (uri, auth) in
        [(format!("/fights/{id}"), Some(GM)), (format!("/play/{token}"), None), ("/".to_owned(), Some(GM))]
    {
        let (status, _, page) = call(&app, "GET", &uri, auth, None).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert!(!page.contains(evil) && !page.contains("<b>bold"), "{uri}: {page}");
        assert!(page.contains("&lt;b&gt;bold&lt;/b&gt;.toml"), "{uri}: {page}");
    }
    let (_, _, page) = call(&app, "GET", &format!("/fights/{id}"), Some(GM), None).await;
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{page}");
}

/// A cookie-carrying browser request to a page.
async fn page(
    app: &Router,
    method: &str,
    uri: &str,
    cookie: &str,
    form: Option<&str>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let request = Request::builder().method(method).uri(uri).header(header::COOKIE, cookie);
    let request = match form {
        Some(form) => request
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(form.to_owned()))
            .unwrap(),
        None => request.body(Body::empty()).unwrap(),
    };
    let response = app.clone().oneshot(request).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8(bytes.to_vec()).unwrap())
}

#[tokio::test]
async fn the_gm_pages_log_in_start_fights_and_show_scenario_errors() {
    let (_, app) = memory_app();
    let (status, headers, _) = call(&app, "GET", &format!("/?token={GM}"), None, None).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers[header::LOCATION], "/");
    let cookie = headers[header::SET_COOKIE].to_str().unwrap();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    let cookie = cookie.split(';').next().unwrap().to_owned();
    let (status, _, home) = page(&app, "GET", "/", &cookie, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(home.contains("No fight yet.") && home.contains("phasesix/grenade.toml"), "{home}");
    assert!(!page(&app, "GET", "/", "fray_gm=wrong", None).await.0.is_success());

    // A pasted scenario with an error: the form again, the error escaped with its caret.
    let form =
        "example=&seed=3&dice=entered&set=&scenario=ruleset+%3D+%22hardboiled%22%0A%5B%5Bcombatant%5D%0A%3Cscript%3E";
    let (status, _, again) = page(&app, "POST", "/fights", &cookie, Some(form)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(again.contains("scenario.toml:2:13: "), "{again}");
    assert!(again.contains("  |             ^"), "{again}");
    assert!(again.contains("&lt;script&gt;") && !again.contains("\n<script>"), "{again}");
    let (status, _, again) = page(&app, "POST", "/fights", &cookie, Some("example=&seed=x&scenario=a")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(again.contains("the seed `x` is not a whole number"), "{again}");

    // A shipped example: on to its page.
    let form = "example=ticks%2Fknife-fight.toml&seed=9&dice=entered&set=&scenario=";
    let (status, headers, _) = page(&app, "POST", "/fights", &cookie, Some(form)).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let location = headers[header::LOCATION].to_str().unwrap().to_owned();
    let (status, _, fight) = page(&app, "GET", &location, &cookie, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(fight.contains("knife-fight.toml") && fight.contains("data-version=\"0\""), "{fight}");
    assert!(fight.contains("id=\"undo\"") && fight.contains("class=\"player-link\""), "{fight}");
    let (status, _, board) = page(&app, "GET", &format!("{location}/board"), &cookie, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(board.contains("Take the AI") || board.contains("name=\"faces\""), "{board}");
    let (status, _, home) = page(&app, "GET", "/", &cookie, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(home.contains(&format!("href=\"{location}\"")), "{home}");
    // Without the cookie the form does nothing.
    let (status, _, _) = page(&app, "POST", "/fights", "", Some(form)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (_, list) = gm(&app, "GET", "/api/fights", None).await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    // The assets.
    for (uri, kind) in [("/assets/app.js", "text/javascript"), ("/assets/style.css", "text/css")] {
        let (status, headers, text) = call(&app, "GET", uri, None, None).await;
        assert_eq!(status, StatusCode::OK);
        assert!(headers[header::CONTENT_TYPE].to_str().unwrap().starts_with(kind));
        assert!(text.len() > 500);
    }
}

/// The next server-sent event's data, within a second.
async fn next_event(body: &mut Body) -> String {
    loop {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(1), body.frame())
            .await
            .expect("an event")
            .unwrap()
            .unwrap();
        if let Ok(data) = frame.into_data() {
            let text = String::from_utf8(data.to_vec()).unwrap();
            if let Some(data) = text.strip_prefix("data: ") {
                return data.trim().to_owned();
            }
        }
    }
}

#[tokio::test]
async fn pages_hear_each_new_version_once_it_is_stored() {
    let (state, app) = memory_app();
    let (id, players) = start(&app, "hardboiled/bar-room-brawl.toml", "entered", None).await;
    let player = players["docks"].as_str().unwrap();
    let mut streams = Vec::new();
    for (uri, auth) in [(format!("/fights/{id}/events"), Some(GM)), (format!("/play/{player}/events"), None)] {
        let mut request = Request::builder().uri(&uri);
        if let Some(token) = auth {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let response = app.clone().oneshot(request.body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "text/event-stream");
        let mut body = response.into_body();
        assert_eq!(next_event(&mut body).await, "0");
        streams.push(body);
    }
    let (_, mut fight) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
    let mut turn = 1;
    for version in 0..3u64 {
        let command = next_command(&fight, &mut turn).unwrap();
        let (status, _) = send(&app, &id, version, command).await;
        assert_eq!(status, StatusCode::OK);
        // Stored before it was told.
        assert_eq!(state.store().count(&id).unwrap(), Some(version as usize + 1));
        for body in &mut streams {
            // The same version again when its odds come in.
            let mut heard = next_event(body).await;
            while heard == version.to_string() {
                heard = next_event(body).await;
            }
            assert_eq!(heard, (version + 1).to_string());
        }
        fight = gm(&app, "GET", &format!("/api/fights/{id}"), None).await.1;
        assert!(!fight["pending"].is_null(), "a fight of more than three commands");
    }
}

#[test]
fn every_shipped_example_is_compiled_in() {
    let mut on_disk = Vec::new();
    for ruleset in std::fs::read_dir(EXAMPLES).unwrap() {
        let ruleset = ruleset.unwrap().path();
        if !ruleset.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&ruleset).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "toml") {
                let name = format!(
                    "{}/{}",
                    ruleset.file_name().unwrap().to_str().unwrap(),
                    file.file_name().unwrap().to_str().unwrap()
                );
                on_disk.push(name);
            }
        }
    }
    on_disk.sort();
    let compiled: Vec<String> = fray_server::EXAMPLES.iter().map(|(p, _)| p.to_string()).collect();
    assert_eq!(compiled, on_disk);
    for (path, text) in fray_server::EXAMPLES {
        assert!(fray_rules::load(path, text, &[]).is_ok(), "{path}");
    }
}

#[test]
fn the_store_commits_concurrent_appends_each_in_order_and_refuses_a_second_seq() {
    let db = TempDb::new("appends");
    let store = Arc::new(Store::open(&db.0).unwrap());
    let session = fray_live::Session::open(
        "brawl.toml",
        &example("hardboiled/bar-room-brawl.toml"),
        vec![],
        1,
        fray_live::DiceMode::Entered,
        vec![],
    )
    .unwrap();
    let fights: Vec<String> = (0..8).map(|i| format!("fight-{i}")).collect();
    for id in &fights {
        store.insert_fight(id, "brawl.toml", session.journal(), &Default::default()).unwrap();
    }
    let threads: Vec<_> = fights
        .iter()
        .map(|id| {
            let (store, id) = (store.clone(), id.clone());
            std::thread::spawn(move || {
                for seq in 0..40 {
                    store.append(&id, seq, &fray_live::Command::Dice(vec![seq as u32 + 1])).unwrap();
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    // A second command at a taken place fails, alone: the next append still commits.
    let error = store.append("fight-0", 3, &fray_live::Command::Undo(1)).unwrap_err();
    assert!(error.to_string().contains("UNIQUE"), "{error}");
    assert!(store.append("no-such-fight", 0, &fray_live::Command::Undo(1)).is_err());
    store.append("fight-1", 40, &fray_live::Command::Undo(1)).unwrap();
    drop(store);
    let store = Store::open(&db.0).unwrap();
    let loaded = store.load().unwrap();
    assert_eq!(loaded.len(), 8);
    for fight in &loaded {
        let want: usize = if fight.id == "fight-1" { 41 } else { 40 };
        assert_eq!(fight.journal.commands.len(), want, "{}", fight.id);
        for (seq, command) in fight.journal.commands.iter().take(40).enumerate() {
            assert_eq!(*command, fray_live::Command::Dice(vec![seq as u32 + 1]));
        }
    }
    assert_eq!(store.count("fight-1").unwrap(), Some(41));
    assert_eq!(store.count("nope").unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_shipped_example_plays_to_its_end_with_entered_dice() {
    let (_, app) = memory_app();
    for (path, _) in fray_server::EXAMPLES {
        let (id, _) = start(&app, path, "entered", None).await;
        let (end, sent) = play_to_the_end(&app, &id).await;
        assert!(end["outcome"]["text"].is_string(), "{path}: {end}");
        assert!(sent > 0, "{path}");
    }
}

/// A player's command from their page.
async fn player_send(app: &Router, token: &str, version: u64, command: Value) -> (StatusCode, Value) {
    let body = json!({ "version": version, "command": command }).to_string();
    let (status, _, text) = call(app, "POST", &format!("/play/{token}/commands"), None, Some(body)).await;
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
}

#[tokio::test]
async fn players_answer_their_own_sides_decisions_only_when_the_gm_lets_them() {
    let db = TempDb::new("players-answer");
    let open = || app(Arc::new(State::new(Store::open(&db.0).unwrap(), GM.to_owned()).unwrap()));
    let app1 = open();
    let (id, players) = start(&app1, "hardboiled/bar-room-brawl.toml", "fray", None).await;
    let (joe, docks) = (players["Joe"].as_str().unwrap(), players["docks"].as_str().unwrap());
    let (_, fight) = gm(&app1, "GET", &format!("/api/fights/{id}"), None).await;
    assert_eq!(fight["pending"]["side"], "Joe", "{fight}");
    assert_eq!(fight["players_answer"], false);
    // Off by default.
    let (status, error) = player_send(&app1, joe, 0, json!({"answer": 1})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{error}");
    let (_, _, page) = call(&app1, "GET", &format!("/play/{joe}/board"), None, None).await;
    assert!(!page.contains("data-command"), "{page}");
    // The GM turns it on (a GM route: not with a player token).
    let settings = format!("/api/fights/{id}/settings");
    let (status, _, _) =
        call(&app1, "POST", &settings, Some(joe), Some(json!({"players_answer": true}).to_string())).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, on) = gm(&app1, "POST", &settings, Some(json!({"players_answer": true}))).await;
    assert_eq!(status, StatusCode::OK, "{on}");
    assert_eq!(on["players_answer"], true);
    let (_, _, page) = call(&app1, "GET", &format!("/play/{joe}/board"), None, None).await;
    assert!(page.contains("data-command=\"{&quot;answer&quot;:0}\""), "{page}");
    // Only answers, only their own side's, on the current version.
    let (status, error) = player_send(&app1, joe, 0, json!({"undo": 1})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{error}");
    let (status, error) = player_send(&app1, docks, 0, json!({"answer": 1})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{error}");
    assert_eq!(error["error"], "no decision of docks's waits");
    let (status, view) = player_send(&app1, joe, 0, json!({"answer": 1})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["side"], "Joe");
    assert_eq!(view["version"], 1);
    // Joe's answer goes back the side's view, never the GM's state.
    assert!(view.get("players").is_none() && !view.to_string().contains(docks), "{view}");
    let (status, conflict) = player_send(&app1, joe, 0, json!({"answer": 1})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(conflict["state"]["side"], "Joe");
    assert!(conflict["state"].get("players").is_none());
    // Stored: a restart keeps the answer and the setting.
    drop(app1);
    let app2 = open();
    let (_, fight) = gm(&app2, "GET", &format!("/api/fights/{id}"), None).await;
    assert_eq!(fight["version"], 1);
    assert_eq!(fight["players_answer"], true);
    let (status, off) = gm(&app2, "POST", &settings, Some(json!({"players_answer": false}))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(off["players_answer"], false);
    let (status, body, _) = call(&app2, "POST", &settings, Some(GM), Some("{\"players_answer\": 1}".into())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:?}");
}

#[tokio::test]
async fn a_stored_fight_that_no_longer_replays_is_listed_as_broken_not_served() {
    let db = TempDb::new("broken");
    let store = Store::open(&db.0).unwrap();
    let session = fray_live::Session::open(
        "brawl.toml",
        &example("hardboiled/bar-room-brawl.toml"),
        vec![],
        1,
        fray_live::DiceMode::Entered,
        vec!["Joe Bruno".into()],
    )
    .unwrap();
    store.insert_fight("good", "brawl.toml", session.journal(), &Default::default()).unwrap();
    store.insert_fight("bad", "brawl.toml", session.journal(), &Default::default()).unwrap();
    // As if a newer fray offered fewer choices than a stored answer picked.
    store.append("bad", 0, &fray_live::Command::Answer(999)).unwrap();
    drop(store);
    let state = Arc::new(State::new(Store::open(&db.0).unwrap(), GM.to_owned()).unwrap());
    assert_eq!(state.broken().len(), 1);
    assert_eq!(state.broken()[0].0, "bad");
    assert!(state.broken()[0].1.contains("command 1"), "{:?}", state.broken());
    let app = app(state);
    let (status, _) = gm(&app, "GET", "/api/fights/good", None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = gm(&app, "GET", "/api/fights/bad", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, _, home) = call(&app, "GET", "/", Some(GM), None).await;
    assert!(home.contains("Fight bad no longer replays: journal: command 1"), "{home}");
}

#[tokio::test]
async fn the_gm_adjusts_a_track_and_takes_a_combatant_out_through_the_api() {
    let (_, app) = memory_app();
    let (id, _) = start(&app, "hardboiled/bar-room-brawl.toml", "fray", Some(vec!["Joe Bruno"])).await;
    let (_, state) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
    assert_eq!(state["pending"]["kind"], "decision", "{state}");
    let names: Vec<String> =
        state["status"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_owned()).collect();
    let foe = names.iter().find(|n| n.as_str() != "Joe Bruno").unwrap().clone();
    let set = json!({"adjust": {"set": {"who": foe, "field": "hp", "value": 1}}});
    let (status, after) = send(&app, &id, 0, set).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let hp =
        after["status"].as_array().unwrap().iter().find(|c| c["name"] == foe.as_str()).unwrap()["fields"][0].clone();
    assert_eq!(hp["value"]["now"], 1, "{hp}");
    assert!(after["log"].as_array().unwrap().iter().any(|e| e["event"] == "adjusted" && e["change"]["value"] == 1));
    // A track the ruleset does not have: 400 with the tracks it has, and nothing changes.
    let bad = json!({"adjust": {"set": {"who": foe, "field": "wounds", "value": 1}}});
    let (status, error) = send(&app, &id, 1, bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error["error"].as_str().unwrap().contains("no track `wounds`"), "{error}");
    // Every foe taken out: the fight ends with Joe's side the winner.
    for (version, name) in (1..).zip(names.iter().filter(|n| n.as_str() != "Joe Bruno")) {
        let (status, after) = send(&app, &id, version, json!({"adjust": {"out": {"who": name}}})).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        if !after["outcome"].is_null() {
            assert!(after["pending"].is_null());
            assert!(after["outcome"]["winner"].is_string(), "{after}");
            return;
        }
    }
    panic!("the fight did not end with every foe out");
}

#[tokio::test]
async fn the_gm_adds_a_combatant_mid_fight_through_the_api_and_the_page() {
    let (_, app) = memory_app();
    let (id, _) = start(&app, "hardboiled/bar-room-brawl.toml", "fray", Some(vec!["Joe Bruno"])).await;
    // The GM's page offers the form, filled with a copy of the last combatant to start from.
    let (_, _, page) = call(&app, "GET", &format!("/fights/{id}/board"), Some(GM), None).await;
    assert!(page.contains("Add a combatant") && page.contains("name = &quot;Docker 2&quot;"), "{page}");
    // A stat block with a mistake: 400 naming the block's line, and nothing changes.
    let bad = "name = \"Stevedore\"\nside = \"docks\"\naction = 10\nwitz = 6\nego = 8\nhp_max = 9\nposition = 2\n";
    let (status, error) = send(&app, &id, 0, json!({"join": {"stats": bad}})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let error = error["error"].as_str().unwrap();
    assert!(error.contains("stat block #1:4:") && error.contains("witz"), "{error}");
    let good = bad.replace("witz", "wits");
    let (status, after) = send(&app, &id, 0, json!({"join": {"stats": good}})).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let newcomer = after["status"].as_array().unwrap().iter().find(|c| c["name"] == "Stevedore").unwrap().clone();
    assert_eq!((newcomer["side"].as_str(), newcomer["standing"].as_bool()), (Some("docks"), Some(true)));
    assert!(after["log"].as_array().unwrap().iter().any(|e| e["event"] == "adjusted" && e["change"]["kind"] == "join"));
    // The journal keeps the stat block, and the docks' players see the newcomer.
    let (_, journal) = gm(&app, "GET", &format!("/api/fights/{id}/journal"), None).await;
    assert_eq!(journal["commands"][0]["join"]["stats"], good.as_str());
}

/// The next named or unnamed event of a page's stream: its name (`None` for a new version) and
/// its data.
async fn next_told(body: &mut Body) -> (Option<String>, String) {
    loop {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(10), body.frame())
            .await
            .expect("an event")
            .unwrap()
            .unwrap();
        if let Ok(data) = frame.into_data() {
            let text = String::from_utf8(data.to_vec()).unwrap();
            let name = text.lines().find_map(|l| l.strip_prefix("event: ")).map(str::to_owned);
            if let Some(data) = text.lines().find_map(|l| l.strip_prefix("data: ")) {
                return (name, data.trim().to_owned());
            }
        }
    }
}

/// A GM's event stream of a fight, past its first event (the version it is at).
async fn gm_events(app: &Router, id: &str) -> Body {
    let request = Request::builder()
        .uri(format!("/fights/{id}/events"))
        .header(header::AUTHORIZATION, format!("Bearer {GM}"))
        .body(Body::empty())
        .unwrap();
    let mut body = app.clone().oneshot(request).await.unwrap().into_body();
    next_told(&mut body).await;
    body
}

/// The decision a fight waits for, as a replay of its journal with the odds worked out at once
/// gives it.
async fn replayed_decision(app: &Router, id: &str) -> Value {
    let (status, _, text) = call(app, "GET", &format!("/api/fights/{id}/journal"), Some(GM), None).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let session = fray_live::Session::from_json(&text).unwrap();
    serde_json::to_value(&session.snapshot().pending).unwrap()
}

#[tokio::test]
async fn a_command_is_answered_before_the_next_decisions_odds_which_follow_on_the_event_stream() {
    let (state, app) = memory_app();
    let (id, _) = start(&app, "opend6/blaster-duel.toml", "fray", Some(vec!["Smuggler", "Hunter"])).await;
    let (_, mut fight) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
    assert_eq!(fight["odds_worked_out"], true, "a new fight's first decision has its odds");
    let mut events = gm_events(&app, &id).await;
    for version in 0..30u64 {
        // The worker held: the answer and the board come without the next decision's odds.
        state.hold_odds(true);
        let (status, answered) = send(&app, &id, version, json!({"answer": fight["pending"]["ai"]})).await;
        assert_eq!(status, StatusCode::OK, "{answered}");
        assert_eq!(next_told(&mut events).await, (None, (version + 1).to_string()));
        if answered["pending"].is_null() {
            break;
        }
        assert_eq!(answered["odds_worked_out"], false, "{answered}");
        assert!(answered["pending"]["odds"].as_array().unwrap().iter().all(Value::is_null), "{answered}");
        let (_, _, board) = call(&app, "GET", &format!("/fights/{id}/board"), Some(GM), None).await;
        assert!(board.contains("working out the odds…"), "{board}");
        // Let go, the odds follow: an `odds` event for this version, and the board has them.
        state.hold_odds(false);
        assert_eq!(next_told(&mut events).await, (Some("odds".to_owned()), (version + 1).to_string()));
        let (_, _, board) = call(&app, "GET", &format!("/fights/{id}/board"), Some(GM), None).await;
        assert!(!board.contains("working out the odds…"), "{board}");
        fight = gm(&app, "GET", &format!("/api/fights/{id}"), None).await.1;
        assert_eq!(fight["odds_worked_out"], true, "{fight}");
        // The same labels and exact odds as a replay that works them out at once.
        assert_eq!(fight["pending"], replayed_decision(&app, &id).await);
        if fight["pending"]["odds"].as_array().unwrap().iter().any(|o| !o.is_null()) {
            return;
        }
    }
    panic!("no decision offered an attack with its odds");
}

#[tokio::test]
async fn the_api_gives_a_decisions_odds_even_while_the_worker_is_held() {
    let (state, app) = memory_app();
    let (id, players) = start(&app, "opend6/blaster-duel.toml", "fray", Some(vec!["Smuggler", "Hunter"])).await;
    state.hold_odds(true);
    let (_, mut fight) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
    for version in 0..30u64 {
        let (status, answered) = send(&app, &id, version, json!({"answer": fight["pending"]["ai"]})).await;
        assert_eq!(status, StatusCode::OK, "{answered}");
        if answered["pending"].is_null() {
            break;
        }
        // The side whose decision it is sees its odds in its view; the GM's state has them.
        let side = answered["pending"]["side"].as_str().unwrap();
        let (status, view) = gm(&app, "GET", &format!("/api/view/{}", players[side].as_str().unwrap()), None).await;
        assert_eq!(status, StatusCode::OK);
        fight = gm(&app, "GET", &format!("/api/fights/{id}"), None).await.1;
        assert_eq!(fight["odds_worked_out"], true, "{fight}");
        assert_eq!(fight["pending"], replayed_decision(&app, &id).await);
        assert_eq!(view["pending"]["odds"], fight["pending"]["odds"], "{view}");
        if fight["pending"]["odds"].as_array().unwrap().iter().any(|o| !o.is_null()) {
            state.hold_odds(false);
            return;
        }
    }
    panic!("no decision offered an attack with its odds");
}

#[tokio::test]
async fn the_odds_of_a_decision_answered_before_they_came_are_dropped() {
    let (state, app) = memory_app();
    let (id, _) = start(&app, "opend6/blaster-duel.toml", "fray", Some(vec!["Smuggler", "Hunter"])).await;
    let mut events = gm_events(&app, &id).await;
    state.hold_odds(true);
    // Two answers while the worker is held: the odds of the first decision are moot.
    let (_, mut fight) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
    for version in 0..2u64 {
        let (status, answered) = send(&app, &id, version, json!({"answer": fight["pending"]["ai"]})).await;
        assert_eq!(status, StatusCode::OK, "{answered}");
        assert_eq!(answered["odds_worked_out"], false, "{answered}");
        assert_eq!(next_told(&mut events).await, (None, (version + 1).to_string()));
        fight = answered;
    }
    let before = state.odds_counts();
    state.hold_odds(false);
    // Only the odds of the decision the fight waits for come; those of version 1 never do.
    assert_eq!(next_told(&mut events).await, (Some("odds".to_owned()), "2".to_owned()));
    let after = state.odds_counts();
    assert_eq!((after.worked - before.worked, after.dropped - before.dropped), (1, 1), "{after:?}");
    let (status, third) = send(&app, &id, 2, json!({"answer": fight["pending"]["ai"]})).await;
    assert_eq!(status, StatusCode::OK, "{third}");
    assert_eq!(next_told(&mut events).await, (None, "3".to_owned()));
    let (_, now) = gm(&app, "GET", &format!("/api/fights/{id}"), None).await;
    assert_eq!(now["version"], 3);
    assert_eq!(now["pending"], replayed_decision(&app, &id).await);
}
