//! Tells the test suite whether the public puzzle collections (`../shared/data`, beside a
//! development checkout; absent on a user's machine) are there, as the `shared_data` cfg, so
//! that tests needing them are reported as ignored, not as passed, when they are missing; and
//! the same for Chromium and its ChromeDriver (the `browser` cfg). The library and the binary
//! do not use them.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_data)");
    println!("cargo::rustc-check-cfg=cfg(browser)");
    // Set by cargo fuzz; the corpus replay compiles the fuzz harnesses without it.
    println!("cargo::rustc-check-cfg=cfg(fuzzing)");
    println!("cargo::rerun-if-changed=build.rs");
    // Watched only when present: cargo reruns a build script on every build while a watched
    // path is missing, which would rebuild the crate each time for everyone without the data.
    // (Data that appears later takes a `touch build.rs`; CI checks that it was seen.)
    if Path::new("../shared/data").is_dir() {
        println!("cargo::rerun-if-changed=../shared/data");
        println!("cargo::rustc-cfg=shared_data");
    }
    // The browser tests drive Debian's Chromium through its ChromeDriver.
    let browser = ["/usr/bin/chromium", "/usr/bin/chromedriver"];
    if browser.iter().all(|path| Path::new(path).exists()) {
        println!("cargo::rerun-if-changed=/usr/bin/chromedriver");
        println!("cargo::rustc-cfg=browser");
    }
}
