//! A real browser at the GM's table: headless Chromium, driven through ChromeDriver's WebDriver
//! protocol, plays a shipped example to its end on the GM's page of the real `fray serve`,
//! sets a track by hand, undoes twice, reloads and finds the same state, and the players' page, live beside it, never
//! shows the combatant the GM hid; the hero's player answers three of their decisions from
//! their page. Both pages fit a phone's width. A browser that cannot start fails the test.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/install-browser.sh`); `FRAY_CHROMIUM`
//! and `FRAY_CHROMEDRIVER` name other binaries. With `FRAY_SCREENSHOTS_TO=<folder>` the
//! screenshots of both pages are written there as `gm.png` and `players.png`.

use super::http::{GM, Server, next_random, request, temp_dir};
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// ChromeDriver and one browser session; both ended when dropped.
struct Browser {
    driver: Child,
    addr: String,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Browser {
    fn start(profile: &std::path::Path) -> Browser {
        let driver_path = std::env::var("FRAY_CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".to_owned());
        let chromium = std::env::var("FRAY_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
        let port = free_port();
        let driver = Command::new(&driver_path)
            .args([format!("--port={port}"), "--allowed-ips=127.0.0.1".to_owned()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{driver_path} does not start ({e}): run .ci/install-browser.sh"));
        let addr = format!("127.0.0.1:{port}");
        let mut browser = Browser { driver, addr, session: String::new() };
        let started = Instant::now();
        while request(&browser.addr, "GET", "/status", None, None).map(|r| r.status).ok() != Some(200) {
            assert!(started.elapsed() < Duration::from_secs(20), "{driver_path} did not answer within 20 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ];
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium, "args": args },
        } } });
        let reply = browser.raw("POST", "/session", Some(capabilities));
        let session = reply["sessionId"].as_str().unwrap_or_else(|| panic!("{chromium} did not start: {reply}"));
        browser.session = session.to_owned();
        browser
    }

    /// A WebDriver call; its `value`, or a panic with the driver's error.
    fn raw(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_raw(method, path, body).unwrap_or_else(|value| panic!("WebDriver {method} {path}: {value}"))
    }

    /// A WebDriver call; its `value`, or the driver's error.
    fn try_raw(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, Value> {
        let body = body.map(|b| b.to_string());
        let reply = request(&self.addr, method, path, None, body.as_deref()).unwrap();
        let value = reply.json()["value"].clone();
        if reply.status == 200 { Ok(value) } else { Err(value) }
    }

    /// Acts on the element `css` finds; again if the page replaced or moved it meanwhile (a live
    /// update).
    fn on_element(&self, css: &str, action: &str, body: Value) {
        for _ in 0..20 {
            let element = self.find(css);
            let path = format!("/session/{}/element/{element}/{action}", self.session);
            match self.try_raw("POST", &path, Some(body.clone())) {
                Ok(_) => return,
                Err(error)
                    if ["stale element reference", "element click intercepted", "element not interactable"]
                        .contains(&error["error"].as_str().unwrap_or("")) =>
                {
                    eprintln!("{action} on {css}: {}, again", error["error"]);
                    std::thread::sleep(Duration::from_millis(30))
                }
                Err(error) => panic!("WebDriver {action} on {css}: {error}"),
            }
        }
        panic!("{css} kept being replaced");
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.raw(method, &format!("/session/{}{path}", self.session), body)
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn find(&self, css: &str) -> String {
        let found = self.call("POST", "/element", Some(json!({ "using": "css selector", "value": css })));
        found[ELEMENT].as_str().unwrap().to_owned()
    }

    fn click(&self, css: &str) {
        self.on_element(css, "click", json!({}));
    }

    fn type_into(&self, css: &str, text: &str) {
        self.on_element(css, "value", json!({ "text": text }));
    }

    fn script(&self, script: &str) -> Value {
        self.call("POST", "/execute/sync", Some(json!({ "script": script, "args": [] })))
    }

    fn source(&self) -> String {
        self.call("GET", "/source", None).as_str().unwrap().to_owned()
    }

    fn size(&self, width: u32, height: u32) {
        self.call("POST", "/window/rect", Some(json!({ "width": width, "height": height })));
    }

    fn screenshot(&self, name: &str) {
        let png = decode_base64(self.call("GET", "/screenshot", None).as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let mut folders = vec![std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))];
        folders.extend(std::env::var_os("FRAY_SCREENSHOTS_TO").map(std::path::PathBuf::from));
        for folder in folders {
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(folder.join(name), &png).unwrap();
        }
    }

    /// What the GM's page shows now: version, whether it ended, what it waits for.
    fn page_state(&self) -> Value {
        self.script(
            "const v = document.querySelector('[data-version]');
             const dice = document.querySelector('form.dice');
             const who = document.querySelector('#pending .question strong');
             return { version: v ? Number(v.dataset.version) : null,
                      ended: !!document.getElementById('ending'),
                      decision: !!document.querySelector('button.take-ai'),
                      who: who ? who.textContent : null,
                      choices: document.querySelectorAll('button.choice').length,
                      dice: dice ? Number(dice.dataset.dice) : null,
                      sides: dice ? Number(dice.dataset.sides) : null,
                      busy: !!document.querySelector('button[data-command]:disabled:not(#undo):not(#redo)'),
                      odds_coming: !!document.querySelector('.odds-coming') };",
        )
    }

    /// Waits until the page shows a version other than `old`, with its decision's odds (they
    /// follow the new version); gives it.
    fn wait_version(&self, old: Option<u64>) -> u64 {
        let started = Instant::now();
        loop {
            let state = self.page_state();
            if let Some(version) = state["version"].as_u64()
                && Some(version) != old
                && state["odds_coming"] != true
            {
                return version;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "the page stayed at version {old:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn text(&self) -> String {
        self.script("return document.getElementById('board').innerText;").as_str().unwrap().to_owned()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(&self.addr, "DELETE", &format!("/session/{}", self.session), None, None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let bits = chunk.iter().enumerate().fold(0u32, |acc, (i, d)| acc | (u32::from(*d) << (18 - 6 * i)));
        out.extend_from_slice(&bits.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// The hidden combatant and the side whose page must never show it.
const HIDDEN: &str = "Sap";
const WATCHING: &str = "hero";

#[test]
fn a_gm_plays_a_shipped_example_in_a_real_browser() {
    let dir = temp_dir("browser");
    let server = Server::start(&dir.join("fray.db"));
    let base = format!("http://{}", server.addr);
    let browser = Browser::start(&dir.join("profile"));
    browser.size(1100, 1300);

    // The GM opens the printed address, picks a shipped example and physical dice.
    browser.go(&format!("{base}/?token={GM}"));
    browser.click("option[value='hardboiled/thug-gang.toml']");
    browser.click("input[name=dice][value=entered]");
    browser.click("#start");
    let mut version = browser.wait_version(None);
    assert_eq!(version, 0);
    let url = browser.call("GET", "/url", None).as_str().unwrap().to_owned();
    assert!(url.starts_with(&format!("{base}/fights/")), "{url}");

    // The AI plays three of the gang; the GM hides Sap from the hero's side.
    for who in ["Knife", "Club", "Fists"] {
        browser.click(&format!("article[data-name='{who}'] input.ai-plays"));
        version = browser.wait_version(Some(version));
    }
    browser.click(&format!("article[data-name='{HIDDEN}'] input.hide"));
    version = browser.wait_version(Some(version));

    // The players' page, in a second window, live.
    let href =
        browser.script(&format!("return document.querySelector(\"a.player-link[data-side='{WATCHING}']\").href;"));
    let gm_window = browser.call("GET", "/window", None);
    let players_window = browser.call("POST", "/window/new", Some(json!({ "type": "window" })))["handle"].clone();
    let to = |window: &Value| {
        browser.call("POST", "/window", Some(json!({ "handle": window })));
    };
    to(&players_window);
    browser.size(420, 900);
    browser.go(href.as_str().unwrap());
    let check_players = |version: u64| {
        to(&players_window);
        let started = Instant::now();
        // The page hears of each command by itself.
        while browser.page_state()["version"].as_u64() != Some(version) {
            assert!(started.elapsed() < Duration::from_secs(10), "the players' page did not reach version {version}");
            std::thread::sleep(Duration::from_millis(20));
        }
        let source = browser.source();
        assert!(source.contains("The Shadow"), "{source}");
        assert!(!source.contains(HIDDEN), "the players' page shows {HIDDEN}: {source}");
        to(&gm_window);
    };
    check_players(version);
    // The GM lets the players answer their own decisions.
    browser.click("#players-answer");
    let started = Instant::now();
    while browser.script("return document.getElementById('players-answer').checked;") != true {
        assert!(started.elapsed() < Duration::from_secs(10), "the setting did not stick");
        std::thread::sleep(Duration::from_millis(20));
    }

    // The whole fight: the AI's choice at each decision, the faces of a roll typed in one field.
    let mut x = 11;
    let mut steps = 0;
    let mut shot = false;
    let mut answered_by_players = 0;
    let mut adjusted = false;
    let mut joined = false;
    loop {
        let state = browser.page_state();
        if state["ended"] == true {
            break;
        }
        if state["decision"] == true && steps >= 30 && !shot {
            browser.screenshot("gm.png");
            shot = true;
        }
        if state["decision"] == true && steps >= 5 && !adjusted {
            // The GM sets Fists's HP by hand from its card: an event of the log.
            browser.click("article[data-name='Fists'] form.adjust option[value='hp']");
            browser.type_into("article[data-name='Fists'] form.adjust input[name=value]", "1\u{E007}");
            version = browser.wait_version(Some(version));
            let text = browser.text();
            assert!(text.contains("The GM sets Fists's HP to 1."), "{text}");
            adjusted = true;
            continue;
        }
        if state["decision"] == true && steps >= 8 && !joined {
            // The GM adds a combatant: the form starts with a copy of the last one, renamed.
            browser.click("details#join summary");
            let block = browser.script("return document.querySelector('form.join textarea').value;");
            assert!(block.as_str().is_some_and(|b| b.starts_with("name = \"Fists 2\"")), "{block}");
            // hardboiled rolls HP at the start: the page says what the newcomer lacks.
            browser.click("form.join button[type=submit]");
            let started = Instant::now();
            while !browser.text().contains("needs `hp_max` to join mid-fight") {
                assert!(started.elapsed() < Duration::from_secs(10), "no reason shown: {}", browser.text());
                std::thread::sleep(Duration::from_millis(20));
            }
            browser.type_into("form.join textarea", "hp_max = 9\n");
            browser.click("form.join button[type=submit]");
            version = browser.wait_version(Some(version));
            let text = browser.text();
            assert!(text.contains("Fists 2 joins the fight."), "{text}");
            let card = browser.script("return document.querySelector(\"article[data-name='Fists 2']\") !== null;");
            assert_eq!(card, true, "the newcomer's card on the board");
            joined = true;
            continue;
        }
        if state["decision"] == true && state["who"] == "The Shadow" && answered_by_players < 3 {
            // The hero's player answers on their own page; the GM's page follows.
            to(&players_window);
            let started = Instant::now();
            // The same decision (the same version), its choices shown: those naming Sap, hidden
            // from the hero's side, are left out of them.
            let shown = |page: &Value| {
                page["version"] == state["version"]
                    && page["choices"].as_u64().is_some_and(|n| n >= 1 && Some(n) <= state["choices"].as_u64())
            };
            while !shown(&browser.page_state()) {
                assert!(started.elapsed() < Duration::from_secs(10), "the players' page shows no choices");
                std::thread::sleep(Duration::from_millis(20));
            }
            browser.click("button.choice.ai");
            to(&gm_window);
            answered_by_players += 1;
        } else if state["decision"] == true {
            browser.click("button.take-ai");
        } else if let Some(n) = state["dice"].as_u64() {
            let sides = state["sides"].as_u64().unwrap();
            let faces: Vec<String> = (0..n).map(|_| (next_random(&mut x) % sides + 1).to_string()).collect();
            browser.type_into("input[name=faces]", &format!("{}\u{E007}", faces.join(" ")));
        } else {
            panic!("the page shows neither a decision, dice nor an ending: {}", browser.text());
        }
        version = browser.wait_version(Some(version));
        steps += 1;
        assert!(steps < 1500, "no end after 1500 commands");
        if steps % 25 == 0 {
            check_players(version);
        }
    }
    assert!(steps > 10, "a real fight: {steps} commands");
    assert_eq!(answered_by_players, 3, "the hero's player answered from their page");
    assert!(adjusted, "the GM adjusted a track");
    assert!(joined, "a combatant joined");
    check_players(version);
    let ended = browser.text();
    assert!(ended.contains("The fight is over"), "{ended}");

    // Undo twice, then reload: the same page.
    for _ in 0..2 {
        browser.click("#undo");
        version = browser.wait_version(Some(version));
    }
    let before = browser.text();
    assert!(!before.contains("The fight is over"), "{before}");
    let state = browser.page_state();
    assert!(state["decision"] == true || state["dice"].is_u64(), "{state}");
    browser.call("POST", "/refresh", Some(json!({})));
    assert_eq!(browser.wait_version(None), version);
    assert_eq!(browser.text(), before);
    let api = server.gm("GET", &format!("/api{}", url.strip_prefix(&base).unwrap()), None).json();
    assert_eq!(api["version"], version);
    assert_eq!(api["can_redo"], 2);
    check_players(version);
    to(&players_window);
    browser.screenshot("players.png");
    // Both pages fit a phone's width: nothing to scroll sideways.
    let fits = "return document.documentElement.scrollWidth <= window.innerWidth;";
    assert_eq!(browser.script(fits), true, "the players' page is wider than a phone");
    to(&gm_window);
    browser.size(400, 900);
    assert_eq!(browser.script(fits), true, "the GM's page is wider than a phone");
    drop(browser);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
