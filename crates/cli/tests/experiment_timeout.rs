//! `midpoint experiment` against a server that accepts the connection and never says a word
//! ends: every connection has read and write timeouts, so the run ends with a
//! message naming the silence instead of waiting for ever.

use std::io::Read;
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn a_server_that_accepts_and_never_answers_ends_the_run_with_a_clear_message() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    // Accept every connection and hold it open, sending nothing (no handshake).
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in listener.incoming().flatten() {
            held.push(s);
        }
    });
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .args([
            "experiment",
            "--url",
            &format!("mysql://root@127.0.0.1:{port}"),
            "--yes",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A watchdog well past the bound, so a hang fails the test instead of hanging it.
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("the run against a silent server was still waiting after 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let took = start.elapsed();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!status.success(), "{err}");
    assert!(
        took < Duration::from_secs(30),
        "the run ended after {took:?}, not within 30 s: {err}"
    );
    assert!(
        err.contains(&format!("cannot connect to mysql://root@127.0.0.1:{port}"))
            && err.contains("did not answer within 20 s"),
        "{err}"
    );
}
