//! `xcover serve`: its JSON API through a plain HTTP client, and its page in headless
//! Chromium.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/http.rs"]
mod http;
#[path = "../common/webdriver.rs"]
mod webdriver;

mod api;
mod browser;
