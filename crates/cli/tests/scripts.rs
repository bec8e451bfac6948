//! The scripts' tool checks, from an environment that hides or fakes a tool: each must stop
//! early with the command that fixes it, or work around it.
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository's top, where the scripts are run from.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// A fresh directory for fake tools and a fake HOME.
fn temp_dir(name: &str) -> PathBuf {
    let d = common::scratch("scripts").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fake_tool(dir: &Path, name: &str, script: &str) {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{script}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs a script with only `path` (plus the system directories) on PATH and HOME in `home`.
fn script(args: &[&str], path: &Path, home: &Path) -> Command {
    let mut c = Command::new("bash");
    c.args(args)
        .current_dir(ROOT)
        .env_clear()
        .env("PATH", format!("{}:/usr/bin:/bin", path.display()))
        .env("HOME", home)
        .env("CARGO_HOME", home.join(".cargo"));
    c
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn without_rustup_the_build_prints_the_one_command_and_stops() {
    let d = temp_dir("norust");
    let o = script(&["scripts/build-wasm.sh"], &d, &d).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y"),
        "{t}"
    );
    assert!(!t.contains("installing"), "it went on: {t}");
}

#[test]
fn an_old_rustc_is_told_to_update() {
    let d = temp_dir("oldrust");
    fake_tool(&d, "cargo", "echo 'cargo 1.63.0'");
    fake_tool(&d, "rustup", "echo 'rustup 1.27.0'");
    fake_tool(&d, "rustc", "echo 'rustc 1.63.0 (4b91a6ea7 2022-08-08)'");
    let o = script(&["scripts/build-wasm.sh"], &d, &d).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("rustc 1.63.0 is older than 1.85"), "{t}");
    assert!(t.contains("rustup update"), "{t}");
}

#[test]
fn an_old_node_is_detected_and_replaced_before_any_long_step() {
    let d = temp_dir("oldnode");
    fake_tool(
        &d,
        "node",
        "case \"$1\" in -p) echo 18;; *) echo v18.20.4;; esac",
    );
    fake_tool(&d, "npm", "echo 9.2.0");
    // A Node.js already installed where need_node puts the one from PyPI (no network here).
    let node_home = d.join("node-home");
    let bin = node_home.join("node_modules_bin");
    std::fs::create_dir_all(&bin).unwrap();
    fake_tool(
        &bin,
        "node",
        "case \"$1\" in -p) echo 22;; *) echo v22.20.0;; esac",
    );
    fake_tool(&bin, "npm", "echo 10.9.3");
    let o = script(
        &[
            "-c",
            "source scripts/common.sh && need_node && node --version",
        ],
        &d,
        &d,
    )
    .env("MIDPOINT_NODE_HOME", &node_home)
    .output()
    .unwrap();
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("v18.20.4") && t.contains("older than 20"), "{t}");
    assert!(t.trim_end().ends_with("v22.20.0"), "{t}");
}

#[test]
fn serve_needs_no_rust_and_moves_off_a_busy_port() {
    let d = temp_dir("serve");
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port();
    let mut child = script(&["scripts/serve.sh"], &d, &d)
        .env("PORT", port.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = Vec::new();
    let mut served = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(rest) = line.strip_prefix("Serving http://127.0.0.1:") {
            served = rest.split('/').next().and_then(|p| p.parse::<u16>().ok());
            break;
        }
        lines.push(line);
    }
    let _ = child.kill();
    let _ = child.wait();
    let served = served.unwrap_or_else(|| panic!("no URL printed: {lines:?}"));
    assert_ne!(served, port, "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&format!("port {port} is in use"))),
        "{lines:?}"
    );
}

#[test]
fn the_identity_check_takes_its_binary_from_cargo_target_dir() {
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("skipped: no node on PATH");
        return;
    }
    let node = |dir: &Path| {
        Command::new("node")
            .arg("tests/wasm-identity.mjs")
            .current_dir(ROOT)
            .env("CARGO_TARGET_DIR", dir)
            .env_remove("MIDPOINT_BIN")
            .output()
            .unwrap()
    };
    // No binary there: one line naming where it looked, no stack trace.
    let empty = temp_dir("identity-empty");
    let o = node(&empty);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let want = format!(
        "no native binary at {}",
        empty.join("debug/midpoint").display()
    );
    assert!(text(&o).contains(&want), "{}", text(&o));
    // The binary there: the check runs against it and passes.
    let d = temp_dir("identity");
    std::fs::create_dir_all(d.join("debug")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_midpoint"), d.join("debug/midpoint")).unwrap();
    let o = node(&d);
    assert!(o.status.success(), "{}", text(&o));
}

/// The status line of a GET of `path` from the server at `port`.
fn get_status(port: u16, path: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    text.lines().next().unwrap_or("").to_string()
}

#[test]
fn the_page_server_serves_a_100_kb_address() {
    // Port 0: the server binds a free port and prints it, so no other process can take it
    // between a choice and the bind.
    let mut child = Command::new("python3")
        .args(["scripts/serve.py", "0"])
        .current_dir(ROOT)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let port: u16 = first
        .trim()
        .strip_prefix("serving on 127.0.0.1:")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port printed: {first:?}"));
    let long = format!("/www/index.html?pool_mb=128&x={}", "7".repeat(100_000));
    let ok = get_status(port, &long);
    let huge = format!("/www/index.html?x={}", "7".repeat(2 << 20));
    let refused = get_status(port, &huge);
    let _ = child.kill();
    let _ = child.wait();
    assert!(ok.contains(" 200"), "{ok}");
    assert!(refused.contains(" 414"), "{refused}");
}
