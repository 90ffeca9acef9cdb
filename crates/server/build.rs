//! Builds the web client (`web/`, TypeScript + chessground) with npm and esbuild into
//! `$OUT_DIR/web`, which `assets.rs` embeds. Needs Node.js and npm.

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(cmd: &mut Command, what: &str) {
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("{what}: cannot run {cmd:?} ({e}); is Node.js installed?"));
    assert!(status.success(), "{what} failed: {cmd:?}");
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let web = manifest
        .join("../../web")
        .canonicalize()
        .expect("web/ exists");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("web");
    for input in [
        "src",
        "index.html",
        "favicon.svg",
        "package.json",
        "package-lock.json",
        "build.mjs",
        "tsconfig.json",
    ] {
        println!("cargo:rerun-if-changed={}", web.join(input).display());
    }
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    if !web.join("node_modules/.package-lock.json").exists() {
        run(
            Command::new(npm)
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&web),
            "installing the web client's packages",
        );
    }
    run(
        Command::new("node")
            .arg("build.mjs")
            .arg(&out)
            .current_dir(&web),
        "building the web client",
    );
    assert!(
        Path::new(&out).join("index.html").exists(),
        "the web build wrote no index.html"
    );
}
