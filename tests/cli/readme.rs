//! The README's shell lines, run as written: each line of a `sh` block that calls `xcover`
//! (or `cargo run --release --`, which is the same command) runs in a scratch folder that
//! holds the shipped `data/`, with the binary first on the PATH, in the order of its block.
//! Each must succeed, and a line whose comment is a number must print it. `cargo test` and
//! `cargo install` are left out (this is `cargo test`), and so is `xcover serve` (a `text`
//! block: the server's tests start it).

use std::path::Path;
use std::process::Command;

use crate::common::scratch::ScratchDir;

const README: &str = include_str!("../../README.md");

/// The shell lines of each `sh` block, with the comment after each.
fn shell_blocks(markdown: &str) -> Vec<Vec<(String, Option<String>)>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<(String, Option<String>)>> = None;
    for line in markdown.lines() {
        if line.trim_start() == "```sh" {
            current = Some(Vec::new());
        } else if line.trim_start() == "```" {
            blocks.extend(current.take());
        } else if let Some(block) = current.as_mut() {
            let (command, comment) = match line.find("  #") {
                Some(at) => (&line[..at], Some(line[at + 3..].trim().to_string())),
                None => (line, None),
            };
            if !command.trim().is_empty() {
                block.push((command.trim().to_string(), comment));
            }
        }
    }
    blocks
}

/// The line as the test runs it, or `None` for a line left out.
fn runnable(command: &str) -> Option<String> {
    if let Some(rest) = command.strip_prefix("cargo run --release -- ") {
        return Some(format!("xcover {rest}"));
    }
    (command.contains("xcover ") && !command.starts_with("cargo")).then(|| command.to_string())
}

#[test]
fn every_shell_line_of_the_readme_runs_as_written() {
    let binary = Path::new(env!("CARGO_BIN_EXE_xcover"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let blocks = shell_blocks(README);
    let mut ran = 0;
    for (k, block) in blocks.iter().enumerate() {
        let dir = ScratchDir::new(&format!("readme-{k}"));
        std::os::unix::fs::symlink(&data, dir.join("data")).unwrap();
        for (command, comment) in block {
            let Some(line) = runnable(command) else {
                continue;
            };
            let run = Command::new("sh")
                .args(["-c", &line])
                .current_dir(&*dir)
                .env("PATH", &path)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&run.stdout);
            assert!(
                run.status.success(),
                "`{line}` failed: {}\n{stdout}",
                String::from_utf8_lossy(&run.stderr)
            );
            let number = comment
                .as_deref()
                .and_then(|c| c.split(|ch: char| !ch.is_ascii_digit()).next())
                .filter(|digits| !digits.is_empty());
            if let Some(number) = number {
                assert_eq!(
                    stdout.lines().last(),
                    Some(number),
                    "`{line}` should print {number}"
                );
            }
            ran += 1;
        }
    }
    assert!(ran >= 25, "only {ran} README lines ran");
}

#[test]
fn the_readme_stays_a_short_guide() {
    let lines = README.lines().count();
    assert!(
        lines < 300,
        "the README has {lines} lines: move reference to docs/"
    );
}
