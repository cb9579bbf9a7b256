//! Load on `xcover serve`: requests per second and latency (median, 99th percentile) for
//! `check` on 9x9 puzzles from a collection, from several client threads over keep-alive
//! connections on loopback; then the same while one long count runs, to show that the count
//! takes its share of the machine and no more.
//!
//! `cargo bench --bench serve_load [-- FILE [SECONDS [CLIENTS]]]`; the default file is
//! `../shared/data/sudoku9/top1465.txt` (else the shipped `data/sudoku/post000.txt`; every 9x9
//! puzzle of the file is sent, whatever its layout), 10 s per phase, 4 clients. Not a criterion
//! bench: what is measured is a server under load, whole requests as a client sees them, so the
//! figures are printed as they are.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[path = "common/server.rs"]
mod server;

use server::Server;
use xcover::sudoku::text;

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let file = args.next().unwrap_or_else(|| {
        let shared = "../shared/data/sudoku9/top1465.txt";
        if std::path::Path::new(shared).exists() {
            shared.to_string()
        } else {
            "data/sudoku/post000.txt".to_string()
        }
    });
    let seconds: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let clients: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    // Every 9x9 puzzle of the file, in whatever layout it is written, sent as one line.
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let puzzles: Vec<String> = text::parse(&text, None)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|puzzle| puzzle.grid.size() == 9)
        .map(|puzzle| {
            let line = text::write(&puzzle.grid, text::Layout::Line);
            serde_json::json!({"puzzle": line.trim_end()}).to_string()
        })
        .collect();
    assert!(!puzzles.is_empty(), "no 9x9 puzzles in {file}");
    let server = Server::start(&["--count-time-limit", "600"]);
    println!(
        "{} puzzles from {file}; {clients} clients, {seconds} s per phase; server at {}",
        puzzles.len(),
        server.address
    );
    let puzzles = Arc::new(puzzles);
    let alone = load(&server.address, &puzzles, clients, seconds);
    report("check, alone", &alone, seconds);
    // A count of every 6x6 Sudoku (28,200,960 solutions) runs meanwhile, on every core it
    // can get.
    let counting = Arc::new(AtomicBool::new(true));
    let count = {
        let address = server.address.clone();
        let counting = Arc::clone(&counting);
        std::thread::spawn(move || {
            let body = serde_json::json!({"puzzle": "......\n".repeat(6)}).to_string();
            let mut stream = TcpStream::connect(&address).unwrap();
            let head = format!(
                "POST /api/count HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            stream.write_all(head.as_bytes()).unwrap();
            let mut reader = BufReader::new(stream);
            let mut line = String::new();
            while counting.load(Ordering::Relaxed) && reader.read_line(&mut line).unwrap_or(0) > 0 {
                line.clear();
            }
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    let shared = load(&server.address, &puzzles, clients, seconds);
    report("check, beside a long count", &shared, seconds);
    counting.store(false, Ordering::Relaxed);
    drop(server);
    let _ = count.join();
}

fn report(label: &str, latencies: &[Duration], seconds: f64) {
    let mut sorted = latencies.to_vec();
    sorted.sort_unstable();
    let at = |q: f64| sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)];
    println!(
        "{label}: {} requests, {:.0} per second, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        sorted.len(),
        sorted.len() as f64 / seconds,
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        sorted.last().unwrap().as_secs_f64() * 1e3,
    );
}

/// Sends `check` requests from `clients` threads for `seconds`, each on one keep-alive
/// connection, puzzles in turn; returns every request's latency.
fn load(address: &str, puzzles: &Arc<Vec<String>>, clients: usize, seconds: f64) -> Vec<Duration> {
    let end = Instant::now() + Duration::from_secs_f64(seconds);
    let threads: Vec<_> = (0..clients)
        .map(|k| {
            let address = address.to_string();
            let puzzles = Arc::clone(puzzles);
            std::thread::spawn(move || {
                let mut stream = TcpStream::connect(&address).unwrap();
                stream.set_nodelay(true).unwrap();
                let mut latencies = Vec::new();
                let mut next = k;
                while Instant::now() < end {
                    let body = &puzzles[next % puzzles.len()];
                    next += clients;
                    let started = Instant::now();
                    let status = exchange(&mut stream, &address, body);
                    latencies.push(started.elapsed());
                    assert_eq!(status, 200);
                }
                latencies
            })
        })
        .collect();
    threads
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect()
}

/// One request on a kept-alive connection; returns the status, the body read and dropped.
fn exchange(stream: &mut TcpStream, address: &str, body: &str) -> u16 {
    let head = format!(
        "POST /api/check HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let mut buffer = [0u8; 16384];
    loop {
        let read = stream.read(&mut buffer).unwrap();
        assert!(read > 0, "the server closed the connection");
        raw.extend_from_slice(&buffer[..read]);
        let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|n| n.trim().parse().ok())
            .unwrap();
        if raw.len() >= split + 4 + length {
            return head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap();
        }
    }
}
