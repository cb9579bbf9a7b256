//! A small WebDriver client for the browser tests: starts Debian's `chromedriver`, opens a
//! headless Chromium session, and speaks the W3C protocol over the plain HTTP client of
//! `http.rs` (the test includes both). Only what the tests use.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use super::http::{Answer, request};
use crate::common::scratch::ScratchDir;

/// The key under which W3C WebDriver returns an element's id.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub struct Browser {
    driver: Child,
    address: String,
    session: String,
    _profile: ScratchDir,
}

impl Browser {
    /// Starts chromedriver on a free port and a headless Chromium session, its window large
    /// enough for a 25x25 grid.
    pub fn start() -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        // The profile, and Chromium's own temporary folders (TMPDIR), all go in one folder
        // removed when the browser is dropped.
        let profile = ScratchDir::new(&format!("chromium-{port}"));
        let driver = Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={port}"))
            .env("TMPDIR", &*profile)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian's chromium-driver) is installed");
        let address = format!("127.0.0.1:{port}");
        // Up to 400 looks, 50 ms apart.
        for look in 0.. {
            if std::net::TcpStream::connect(&address).is_ok() {
                break;
            }
            assert!(look < 400, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                    "--window-size=1400,1100",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        }}});
        let answer = request(
            &address,
            "POST",
            "/session",
            capabilities.to_string().as_bytes(),
        );
        let value = answer.json();
        let session = value["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {}", answer.body))
            .to_string();
        Browser {
            driver,
            address,
            session,
            _profile: profile,
        }
    }

    /// The driver's answer to `method` on the session's `path`, whatever its status.
    fn send(&self, method: &str, path: &str, body: Value) -> Answer {
        let path = format!("/session/{}{path}", self.session);
        let body = if method == "GET" {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        request(&self.address, method, &path, &body)
    }

    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let answer = self.send(method, path, body);
        assert_eq!(answer.status, 200, "{method} {path}: {}", answer.body);
        answer.json()["value"].clone()
    }

    pub fn open(&self, url: &str) {
        self.call("POST", "/url", json!({"url": url}));
    }

    fn element(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        found[ELEMENT].as_str().unwrap().to_string()
    }

    pub fn click(&self, css: &str) {
        let id = self.element(css);
        self.call("POST", &format!("/element/{id}/click"), json!({}));
    }

    /// Types `text` into the element, as keys.
    /// (A page that redraws the element between the look and the keys makes it stale: it is
    /// then looked up again, a few times at most.)
    pub fn type_into(&self, css: &str, text: &str) {
        for _ in 0..5 {
            let id = self.element(css);
            let path = format!("/element/{id}/value");
            let answer = self.send("POST", &path, json!({"text": text}));
            if answer.status == 200 {
                return;
            }
            assert!(
                answer.body.contains("stale element reference"),
                "POST {path}: {}",
                answer.body
            );
        }
        panic!("{css} went stale five times in a row");
    }

    /// Runs a script in the page (its body, with `arguments`), and returns its value.
    pub fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    /// Waits until `script` returns something truthy (at most `seconds`), and returns it.
    pub fn wait_for(&self, script: &str, seconds: u64) -> Value {
        // Polls every 50 ms: a bounded number of looks, not a clock.
        let mut look = 0;
        loop {
            look += 1;
            let value = self.run(script);
            let truthy = match &value {
                Value::Null | Value::Bool(false) => false,
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return value;
            }
            assert!(
                look < seconds * 20,
                "waited {seconds} s for: {script}; the page says: {}",
                self.run("return document.getElementById('message').textContent")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A screenshot of the window, as PNG bytes.
    pub fn screenshot(&self) -> Vec<u8> {
        let encoded = self.call("GET", "/screenshot", json!({}));
        decode_base64(encoded.as_str().unwrap())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = request(
            &self.address,
            "DELETE",
            &format!("/session/{}", self.session),
            b"",
        );
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
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &d)| acc | u32::from(d) << (18 - 6 * i));
        let bytes = [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}
