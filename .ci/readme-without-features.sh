#!/usr/bin/env bash
# Builds and runs the README's first Rust example as a user's program that depends on xcover-dlx
# with `default-features = false`: the library alone must do what the README shows.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src"
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "readme-user"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
xcover-dlx = { path = "$root", default-features = false }

[workspace]
TOML
{
    echo "fn main() {"
    awk '/^```rust$/ {inside = 1; next} inside && /^```$/ {exit} inside {print}' "$root/README.md"
    echo "    println!(\"README example: ok\");"
    echo "}"
} > "$scratch/src/main.rs"
cp "$root/Cargo.lock" "$scratch/Cargo.lock"
CARGO_TARGET_DIR="$scratch/target" cargo run --quiet --manifest-path "$scratch/Cargo.toml"
(cd "$scratch" && cargo tree -e normal --prefix none | sort -u)
