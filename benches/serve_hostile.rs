//! `xcover serve` under hostile load, on loopback: while 40 well-behaved clients use the API
//! as the page does and 10 hostile ones send, in a loop, the requests that once made the
//! server spin, eat gigabytes or hold its turns (a side near 2^64, a 45-sum cage over a row,
//! listings of long solutions, 64x64 counts left after a second, counts that hold the count
//! turns, wide problems counted in parallel, silent and slowloris connections, cross-site
//! posts, nonsense fields), a probe times `GET /` and a `/api/check` every 50 ms on fresh
//! connections. Printed: the probe's latencies (median, p99, max), the server's memory (RSS)
//! and threads at the start, their peak, and fifteen seconds after the load ends.
//!
//! `cargo bench --bench serve_hostile [-- SECONDS]` (60 by default). Bounded: every loop
//! ends at the deadline, every socket has a timeout, and nothing leaves loopback. Not a
//! criterion bench: it measures a server as its clients see it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const POST001: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SEVERAL: &str =
    "1..26.53...8.379.43..9......321...8.....8...................8.........2.9..7....3";

#[path = "common/server.rs"]
mod server;

use server::Server;

fn main() {
    let seconds: u64 = std::env::args()
        .skip(1)
        .find(|a| a != "--bench")
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let server = Server::start(&[]);
    let address = server.address.clone();
    let pid = server.child.id();
    thread::sleep(Duration::from_millis(300));
    let start = Figures::of(pid);
    println!(
        "server {address}: {} MB, {} threads at the start; {seconds} s of load",
        start.rss_mb, start.threads
    );
    let end = Instant::now() + Duration::from_secs(seconds);
    let peak = Arc::new(Mutex::new(start));
    let mut handles: Vec<thread::JoinHandle<()>> = Vec::new();
    // The sampler.
    {
        let peak = Arc::clone(&peak);
        handles.push(thread::spawn(move || {
            while Instant::now() < end {
                let now = Figures::of(pid);
                let mut peak = peak.lock().unwrap();
                peak.rss_mb = peak.rss_mb.max(now.rss_mb);
                peak.threads = peak.threads.max(now.threads);
                drop(peak);
                thread::sleep(Duration::from_millis(100));
            }
        }));
    }
    // 40 users.
    for k in 0..40u64 {
        let address = address.clone();
        handles.push(thread::spawn(move || {
            let mut pause = 150 + k * 7;
            while Instant::now() < end {
                let puzzle = if k % 5 == 0 { SEVERAL } else { POST001 };
                let path = ["/api/check", "/api/solve", "/api/hint", "/api/rate"][k as usize % 4];
                let _ = post(&address, path, &format!("{{\"puzzle\":\"{puzzle}\"}}"));
                pause = 150 + (pause * 31 + 17) % 350;
                thread::sleep(Duration::from_millis(pause));
            }
        }));
    }
    // 10 attackers, each going through the hostile requests from its own starting point.
    for k in 0..10usize {
        let address = address.clone();
        handles.push(thread::spawn(move || {
            let mut turn = k;
            while Instant::now() < end {
                hostile(&address, turn % HOSTILE);
                turn += 1;
            }
        }));
    }
    // The probe.
    let probe = {
        let address = address.clone();
        thread::spawn(move || {
            let mut page = Vec::new();
            let mut check = Vec::new();
            while Instant::now() < end {
                let started = Instant::now();
                let (status, _) = exchange(&address, "GET", "/", "", "");
                if status == 200 {
                    page.push(started.elapsed());
                }
                let started = Instant::now();
                let (status, _) = post(
                    &address,
                    "/api/check",
                    &format!("{{\"puzzle\":\"{POST001}\"}}"),
                );
                if status == 200 {
                    check.push(started.elapsed());
                }
                thread::sleep(Duration::from_millis(50));
            }
            (page, check)
        })
    };
    let (page, check) = probe.join().unwrap();
    for handle in handles {
        let _ = handle.join();
    }
    let peak = *peak.lock().unwrap();
    // The runtime's idle blocking threads end ten seconds after their last request.
    thread::sleep(Duration::from_secs(15));
    let after = Figures::of(pid);
    report("GET /", page, seconds);
    report("/api/check", check, seconds);
    println!(
        "server memory: {} MB at the start, {} MB at the peak, {} MB 15 s after the load",
        start.rss_mb, peak.rss_mb, after.rss_mb
    );
    println!(
        "server threads: {} at the start, {} at the peak, {} 15 s after the load",
        start.threads, peak.threads, after.threads
    );
}

/// How many kinds of hostile request [`hostile`] sends.
const HOSTILE: usize = 10;

/// One hostile request (or connection) of kind `kind`.
fn hostile(address: &str, kind: usize) {
    match kind {
        0 => {
            let _ = post(address, "/api/generate", r#"{"size":18446744073709551615}"#);
        }
        1 => {
            let cage: Vec<String> = (1..=9).map(|c| format!("r1c{c}")).collect();
            let puzzle = format!(
                "puzzle: big\nsize: 9\nbox: 3x3\nrules: rows columns boxes cages\ngrid:\n{}cages: 1\n45 {}\nend\n",
                ".........\n".repeat(9),
                cage.join(" ")
            );
            let body = serde_json::json!({ "puzzle": puzzle }).to_string();
            let _ = post(address, "/api/solve", &body);
        }
        2 => {
            let names: Vec<String> = (0..20_000).map(|i| format!("X{i}")).collect();
            let problem = format!(
                "A {}\n{}\n{}",
                names.join(" "),
                names.join(" "),
                "A\n".repeat(1000)
            );
            let body = serde_json::json!({ "problem": problem, "limit": 1000 }).to_string();
            let _ = post(address, "/api/cover/solutions", &body);
        }
        3 => {
            // A 64x64 count, left after a second.
            let body = serde_json::json!({ "puzzle": format!("{}\n", ".".repeat(64)).repeat(64) })
                .to_string();
            leave_after(address, "/api/count", &body, Duration::from_secs(1));
        }
        4 => {
            // A count that would hold a count turn for a minute, left after two seconds.
            leave_after(
                address,
                "/api/count",
                r#"{"puzzle":"...................................."}"#,
                Duration::from_secs(2),
            );
        }
        5 => {
            let problem = format!("A B\n{}B\n", "A\n".repeat(100_000));
            let body = serde_json::json!({ "problem": problem }).to_string();
            let _ = post(address, "/api/count", &body);
        }
        6 => {
            // Silent connections, held three seconds.
            let silent: Vec<TcpStream> = (0..20)
                .filter_map(|_| TcpStream::connect(address).ok())
                .collect();
            thread::sleep(Duration::from_secs(3));
            drop(silent);
        }
        7 => {
            // A header sent a byte every 200 ms for three seconds.
            if let Ok(mut stream) = TcpStream::connect(address) {
                let _ = stream.write_all(b"POST /api/check HTTP/1.1\r\nHost: ");
                for _ in 0..15 {
                    if stream.write_all(b"x").is_err() {
                        break;
                    }
                    thread::sleep(Duration::from_millis(200));
                }
            }
        }
        8 => {
            // Another site's form and text posts.
            let body = format!("{{\"puzzle\":\"{POST001}\"}}");
            let _ = exchange(address, "POST", "/api/solve", "text/plain", &body);
            let _ = exchange(
                address,
                "POST",
                "/api/count",
                "application/x-www-form-urlencoded",
                &body,
            );
        }
        _ => {
            for body in [
                r#"{"size":-1}"#,
                r#"{"size":"16"}"#,
                r#"{"seed":"abc"}"#,
                r#"{"minimal":"no"}"#,
            ] {
                let _ = post(address, "/api/generate", body);
            }
            let _ = post(
                address,
                "/api/count",
                &format!("{{\"puzzle\":\"{POST001}\",\"limit\":-1}}"),
            );
        }
    }
}

/// Sends a request and closes the connection after `wait`, whatever it was answering.
fn leave_after(address: &str, path: &str, body: &str, wait: Duration) {
    let Ok(mut stream) = TcpStream::connect(address) else {
        return;
    };
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
    let _ = stream.set_read_timeout(Some(Duration::from_millis(100)));
    let until = Instant::now() + wait;
    let mut buffer = [0u8; 4096];
    while Instant::now() < until {
        if let Ok(0) = stream.read(&mut buffer) {
            break;
        }
    }
}

fn post(address: &str, path: &str, body: &str) -> (u16, usize) {
    exchange(address, "POST", path, "application/json", body)
}

/// One request on a new connection; the status and the size of the answer (0 and 0 when the
/// connection failed or timed out).
fn exchange(address: &str, method: &str, path: &str, kind: &str, body: &str) -> (u16, usize) {
    let Ok(mut stream) = TcpStream::connect(address) else {
        return (0, 0);
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let kind = if kind.is_empty() {
        String::new()
    } else {
        format!("Content-Type: {kind}\r\n")
    };
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\n{kind}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    if stream.write_all(head.as_bytes()).is_err() {
        return (0, 0);
    }
    let _ = stream.write_all(body.as_bytes());
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let status = String::from_utf8_lossy(&answer[..answer.len().min(16)])
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, answer.len())
}

fn report(what: &str, mut latencies: Vec<Duration>, seconds: u64) {
    latencies.sort_unstable();
    let at = |q: f64| {
        latencies
            .get(((latencies.len().max(1) - 1) as f64 * q).round() as usize)
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1e3)
    };
    println!(
        "probe {what}: {} answers in {seconds} s; median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        latencies.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

/// The server's memory and threads, from /proc.
#[derive(Debug, Clone, Copy)]
struct Figures {
    rss_mb: u64,
    threads: u64,
}

impl Figures {
    fn of(pid: u32) -> Figures {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let field = |name: &str| -> u64 {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0)
        };
        Figures {
            rss_mb: field("VmRSS:") / 1024,
            threads: field("Threads:"),
        }
    }
}
