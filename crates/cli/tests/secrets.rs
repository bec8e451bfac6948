//! No password given in `--url` is shown, whatever the URL's form: the binary run on generated
//! URLs and passwords, its stdout and stderr searched for every piece of the password.

use proptest::prelude::*;
use std::process::{Command, Output};

fn midpoint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .args(args)
        .output()
        .expect("run midpoint")
}

fn all(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_url_without_its_scheme_is_refused_without_its_password() {
    let o = midpoint(&[
        "experiment",
        "--url",
        "alice:S3cr3tPw@127.0.0.1:3306",
        "--dry-run",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let text = all(&o);
    assert!(!text.contains("S3cr3tPw"), "{text}");
    assert!(
        text.starts_with("error: --url alice:***@127.0.0.1:3306: expected mysql://"),
        "{text}"
    );
}

#[test]
fn a_password_holding_an_at_sign_is_hidden_whole() {
    // Port 1 on loopback refuses the connection at once: the message names the server.
    for json in [false, true] {
        let mut args = vec![
            "experiment",
            "--url",
            "mysql://carol:x@TopSecret@127.0.0.1:1",
            "--dry-run",
        ];
        if json {
            args.push("--json");
        }
        let o = midpoint(&args);
        assert!(!o.status.success());
        let text = all(&o);
        assert!(!text.contains("TopSecret"), "{text}");
        assert!(
            text.contains("cannot connect to mysql://carol@127.0.0.1:1"),
            "{text}"
        );
    }
}

fn password() -> impl Strategy<Value = String> {
    let sep = prop_oneof![
        Just("@"),
        Just(":"),
        Just("/"),
        Just("%"),
        Just("%40"),
        Just("%2F"),
    ];
    (
        "Zq[a-z0-9]{0,4}",
        proptest::collection::vec((sep, "Zq[a-z0-9]{0,4}"), 0..3),
    )
        .prop_map(|(first, rest)| {
            let mut p = first;
            for (s, x) in rest {
                p.push_str(s);
                p.push_str(&x);
            }
            p
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn no_url_form_shows_its_password(
        scheme in prop_oneof![Just("mysql://"), Just(""), Just("http://")],
        user in "[a-z]{1,5}",
        pw in password(),
        host in prop_oneof![Just("127.0.0.1:1"), Just("[::1]:1"), Just("localhost:1")],
        json in any::<bool>(),
    ) {
        let u = format!("{scheme}{user}:{pw}@{host}");
        let mut args = vec!["experiment", "--url", u.as_str(), "--dry-run"];
        if json {
            args.push("--json");
        }
        let o = midpoint(&args);
        let text = all(&o);
        prop_assert!(!text.contains("Zq"), "{u}: {text}");
    }
}
