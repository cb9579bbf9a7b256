//! A plain HTTP/1.1 client over a TCP socket, for the server's tests: one request per
//! connection, the whole answer read (chunked bodies joined), nothing from outside std.

// Each test file uses its own part of it.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// An answer: the status code, the headers (names in lower case) and the body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends one request to `address` (`127.0.0.1:port`) and reads the answer to its end.
pub fn request(address: &str, method: &str, path: &str, body: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // A server may answer (and close) before reading a body it refuses.
    let _ = stream.write_all(body);
    parse(&read_answer(&mut stream))
}

/// Sends a request whose head (request line and headers, without the blank line that ends
/// them) is given whole, then `body`, and reads the answer.
pub fn raw(address: &str, head: &str, body: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream
        .write_all(format!("{head}\r\n\r\n").as_bytes())
        .unwrap();
    let _ = stream.write_all(body);
    parse(&read_answer(&mut stream))
}

/// Reads one answer: to the end of its body by its length, or of its last chunk, or of the
/// connection when it gives neither (a server may keep the connection open after it).
fn read_answer(stream: &mut TcpStream) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut buffer = [0u8; 65536];
    loop {
        if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
            let body = raw.len() - split - 4;
            let length = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|n| n.trim().parse::<usize>().ok());
            if length.is_some_and(|length| body >= length)
                || (head.contains("transfer-encoding: chunked") && raw.ends_with(b"0\r\n\r\n"))
            {
                return raw;
            }
        }
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return raw,
            Ok(read) => raw.extend_from_slice(&buffer[..read]),
        }
    }
}

pub fn post(address: &str, path: &str, body: &serde_json::Value) -> Answer {
    request(address, "POST", path, body.to_string().as_bytes())
}

fn parse(raw: &[u8]) -> Answer {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size_text = String::from_utf8_lossy(&data[..end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        let start = end + 2;
        out.extend_from_slice(&data[start..start + size]);
        data = &data[start + size + 2..];
    }
}

/// A running `xcover serve` on a free port, stopped when dropped.
pub struct Server {
    child: Child,
    pub address: String,
}

impl Server {
    /// The server's process id.
    #[allow(dead_code)] // not every test file looks at the process
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn start(flags: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xcover"))
            .args(["serve", "--port", "0"])
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // The first line says where it listens: `xcover serve: listening on http://A/`.
        let mut stdout = child.stdout.take().unwrap();
        let mut line = Vec::new();
        let mut byte = [0u8];
        while stdout.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
            line.push(byte[0]);
        }
        let line = String::from_utf8(line).unwrap();
        let address = line
            .split("http://")
            .nth(1)
            .unwrap_or_else(|| panic!("{line}"))
            .trim_end_matches('/')
            .to_string();
        Server { child, address }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
