//! A tiny blocking HTTP/1.1 client and a `fray serve` process, for the end-to-end tests.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A response: its status and body.
#[derive(Debug)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The body, as text.
    pub body: String,
}

impl Reply {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// One request on a fresh connection (`Connection: close`).
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> std::io::Result<Reply> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let body = body.unwrap_or("");
    let mut head =
        format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    if !body.is_empty() {
        head.push_str("Content-Type: application/json\r\n");
    }
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body.as_bytes())?;
    // Read what the headers announce: some servers keep the connection open all the same.
    let mut raw = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    loop {
        let n = stream.read(&mut buffer)?;
        raw.extend_from_slice(&buffer[..n]);
        if n == 0 || complete(&raw) {
            break;
        }
    }
    parse(&raw)
}

/// Whether `raw` holds a whole response: its headers and the body they announce.
fn complete(raw: &[u8]) -> bool {
    let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else { return false };
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let body = &raw[split + 4..];
    if head.contains("transfer-encoding: chunked") {
        return body.ends_with(b"0\r\n\r\n");
    }
    match head.lines().find_map(|l| l.strip_prefix("content-length:")) {
        Some(length) => length.trim().parse::<usize>().is_ok_and(|n| body.len() >= n),
        None => false,
    }
}

fn parse(raw: &[u8]) -> std::io::Result<Reply> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(|| bad("no end of headers"))?;
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| bad("no status"))?;
    if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let line_end = rest.windows(2).position(|w| w == b"\r\n").ok_or_else(|| bad("bad chunk"))?;
            let size = usize::from_str_radix(String::from_utf8_lossy(&rest[..line_end]).trim(), 16)
                .map_err(|_| bad("bad chunk size"))?;
            if size == 0 {
                break;
            }
            out.extend_from_slice(&rest[line_end + 2..line_end + 2 + size]);
            rest = &rest[line_end + 2 + size + 2..];
        }
        body = out;
    }
    Ok(Reply { status, body: String::from_utf8_lossy(&body).into_owned() })
}

/// A running `fray serve` on 127.0.0.1 with a free port; killed (SIGKILL) when dropped.
pub struct Server {
    child: Child,
    /// Its address, `127.0.0.1:PORT`.
    pub addr: String,
}

/// The GM token the tests give the server.
pub const GM: &str = "test-gm-token";

impl Server {
    /// Starts `fray serve` on `db` and waits for it to print its address.
    pub fn start(db: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
            .args(["serve", "--bind", "127.0.0.1:0", "--gm-token", GM, "--db"])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("fray serve starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let addr = loop {
            let line = lines.next().expect("fray serve prints its address").unwrap();
            if let Some(rest) = line.strip_prefix("GM page: http://") {
                let (addr, token) = rest.split_once("/?token=").unwrap();
                assert_eq!(token, GM);
                break addr.to_owned();
            }
        };
        // Keep reading its output so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Server { child, addr }
    }

    /// Kills it with SIGKILL, as a crash would.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// A GM request.
    pub fn gm(&self, method: &str, path: &str, body: Option<&serde_json::Value>) -> Reply {
        let body = body.map(|b| b.to_string());
        request(&self.addr, method, path, Some(GM), body.as_deref()).unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh folder in the temporary folder.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-serve-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small deterministic generator for the tests' choices (`x` is its state).
pub fn next_random(x: &mut u64) -> u64 {
    *x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *x >> 33
}

/// The command a script sends next: the AI's choice, faces from the generator, or an undo
/// once the fight has ended (so a long test can go on).
pub fn next_command(state: &serde_json::Value, x: &mut u64) -> serde_json::Value {
    let pending = &state["pending"];
    match pending["kind"].as_str() {
        Some("decision") => serde_json::json!({ "answer": pending["ai"] }),
        Some("roll") => {
            let (n, sides) = (pending["dice"].as_u64().unwrap(), pending["sides"].as_u64().unwrap());
            let faces: Vec<u64> = (0..n).map(|_| next_random(x) % sides + 1).collect();
            serde_json::json!({ "dice": faces })
        }
        _ => serde_json::json!({ "undo": 1 }),
    }
}
