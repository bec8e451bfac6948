//! How the command line ends when its output cannot be written (native only).
//!
//! Every `print!`/`println!` of the CLI goes to the standard streams, and the standard library
//! panics when a write fails. [`install`] makes those failures end the process the way command
//! line tools conventionally do, once for the whole binary:
//!
//! - a closed pipe (`midpoint run --json | head -c 10`): SIGPIPE is restored to its default
//!   action, so the process ends quietly, killed by the signal (shell status 141), as `cat` or
//!   `seq` do;
//! - any other write error (`midpoint run > /dev/full`): one line on stderr,
//!   `error: writing to standard output: No space left on device (os error 28)`, exit status 1,
//!   no panic message and no backtrace.
//!
//! Other panics keep the default report: they are bugs and should be seen.
//!
//! Every error message goes out through [`print_error`] (and clap's through [`clap_error`]),
//! which never echoes a secret or a megabyte: a password in a URL (`mysql://root:s3cret@host`)
//! becomes `***`, and a value longer than [`MAX_ECHO_CHARS`] characters is cut to that many, with
//! its length.

use std::io::Write;
use std::process::ExitCode;

/// The exit status of a failed write to stdout or stderr.
pub const WRITE_ERROR_STATUS: u8 = 1;

/// The standard library's panic message for a failed `print!` (`"failed printing to stdout: ..."`).
const PRINT_FAILED: &str = "failed printing to ";

/// Restores SIGPIPE's default action and installs the panic hook described in the module docs.
/// Call once, first thing in `main`.
pub fn install() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread is spawned; setting a signal's
    // disposition to SIG_DFL has no other effect on the process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(rest) = msg.strip_prefix(PRINT_FAILED) {
            // "stdout: No space left on device (os error 28)"
            let (stream, why) = rest.split_once(": ").unwrap_or((rest, "write failed"));
            if stream == "stdout" {
                // Best effort: stderr may be the stream that failed too.
                let _ = writeln!(
                    std::io::stderr(),
                    "error: writing to standard output: {why}"
                );
            }
            std::process::exit(i32::from(WRITE_ERROR_STATUS));
        }
        default_hook(info);
    }));
}

/// The longest user value an error message repeats, in characters.
pub const MAX_ECHO_CHARS: usize = 80;

/// The longest error message, in characters: past it the rest is cut, with its length (a value
/// with blanks in it is no single long word, but must not be repeated whole either).
pub const MAX_MESSAGE_CHARS: usize = 4096;

/// Prints `error: MSG` on stderr, `msg` made safe to show by [`safe_message`]: the one place the
/// command line writes its errors.
pub fn print_error(msg: &str) {
    let _ = writeln!(std::io::stderr(), "error: {}", safe_message(msg));
}

/// Prints clap's report of a bad command line, made safe to show like [`print_error`]'s; clap's
/// own styled output when there was nothing to hide or cut.
pub fn clap_error(e: &clap::Error) -> std::io::Result<()> {
    // `--help` and `--version` come this way too: they are the program's own text, whole.
    if !e.use_stderr() {
        return e.print();
    }
    let plain = e.render().to_string();
    let safe = safe_message(&plain);
    if safe == plain {
        return e.print();
    }
    if e.use_stderr() {
        write!(std::io::stderr(), "{safe}")
    } else {
        write!(std::io::stdout(), "{safe}")
    }
}

/// `msg` with every URL's password replaced by `***`, every quoted value or single word longer
/// than [`MAX_ECHO_CHARS`] characters cut to them with its length, and the whole cut at
/// [`MAX_MESSAGE_CHARS`].
pub fn safe_message(msg: &str) -> String {
    let cut = cut_long_values(&redact_passwords(msg));
    let n = cut.chars().count();
    if n <= MAX_MESSAGE_CHARS {
        return cut;
    }
    let head: String = cut.chars().take(MAX_MESSAGE_CHARS).collect();
    format!("{head}… (the message cut: {} characters in all)", group(n))
}

/// Replaces the password of every `scheme://user:password@host` in `s` by `***`. The user part
/// runs from `://` to the last `@` before the next blank or quote, so a password holding `@`,
/// `/` or `:` is hidden whole (at worst more than the password is).
pub fn redact_passwords(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("://") {
        let (head, tail) = rest.split_at(i + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`' | '<' | '>'))
            .unwrap_or(tail.len());
        let word = &tail[..end];
        match word.rfind('@') {
            // `user[:password]@host` is the usage's notation, not a password.
            Some(at) if word[..at].contains(':') && !word[..at].ends_with("[:password]") => {
                let colon = word.find(':').unwrap_or(at);
                out.push_str(&word[..colon]);
                out.push_str(":***");
                out.push_str(&word[at..]);
            }
            _ => out.push_str(word),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// Cuts every quoted value (`'...'`, `"..."`: a quote opening after a blank, `=`, `(` or `[` at
/// the start of a word, closing before a blank, punctuation or the end) and every word longer
/// than [`MAX_ECHO_CHARS`] characters to that many, followed by `…` and its length.
pub fn cut_long_values(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len().min(64 * 1024));
    let opens = |i: usize| i == 0 || matches!(chars[i - 1], ' ' | '\t' | '\n' | '=' | '(' | '[');
    let closes = |i: usize| {
        i + 1 == chars.len()
            || chars[i + 1].is_whitespace()
            || matches!(chars[i + 1], ':' | ',' | ';' | '.' | ')' | ']' | '?' | '!')
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if (c == '\'' || c == '"') && opens(i) {
            if let Some(len) = (i + 1..chars.len()).position(|j| chars[j] == c && closes(j)) {
                let value = &chars[i + 1..i + 1 + len];
                out.push(c);
                push_cut(&mut out, value);
                out.push(c);
                i += len + 2;
                continue;
            }
        }
        if c.is_whitespace() {
            out.push(c);
            i += 1;
            continue;
        }
        let len = chars[i..]
            .iter()
            .position(|c| c.is_whitespace())
            .unwrap_or(chars.len() - i);
        // The word's trailing punctuation (`reading FILE: ...`) is the message's, not the value's.
        let word = &chars[i..i + len];
        let core = word.len()
            - word
                .iter()
                .rev()
                .take_while(|c| matches!(c, ':' | ',' | ';' | '.' | ')'))
                .count();
        push_cut(&mut out, &word[..core]);
        out.extend(&word[core..]);
        i += len;
    }
    out
}

/// `value`, or its first [`MAX_ECHO_CHARS`] characters, `…` and its length. A value already cut
/// to them where it was quoted (ending in `...` or `…`) is left as it is.
fn push_cut(out: &mut String, value: &[char]) {
    let cut_before = value.len() <= MAX_ECHO_CHARS + 3
        && (value.ends_with(&['.', '.', '.']) || value.ends_with(&['…']));
    if value.len() <= MAX_ECHO_CHARS || cut_before {
        out.extend(value);
    } else {
        out.extend(&value[..MAX_ECHO_CHARS]);
        out.push_str(&format!("… ({} characters)", group(value.len())));
    }
}

/// 100000 as "100,000".
fn group(n: usize) -> String {
    midpoint_core::scenario::schema::group(n as u64)
}

/// The one-line report of a failed write to stdout, and its exit status.
pub fn write_failed(e: &std::io::Error) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "error: writing to standard output: {e}");
    ExitCode::from(WRITE_ERROR_STATUS)
}

/// Flushes stdout before the process exits (its buffer would otherwise be flushed silently at
/// exit, losing a write error) and turns a failure into the one-line report.
pub fn finish(code: ExitCode) -> ExitCode {
    match std::io::stdout().flush() {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Err(e) => write_failed(&e),
    }
}

/// A rule's message with each parameter's name (`hot_pages`, as the core words its rules) as the
/// flag that sets it (`--hot-pages`): the user typed flags, not the core's names.
pub fn flagged(msg: &str) -> String {
    let names: Vec<&str> = midpoint_core::scenario::Params::SPECS
        .iter()
        .chain(midpoint_core::scenario::write::WriteParams::SPECS.iter())
        .map(|s| s.name)
        .collect();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut out = String::with_capacity(msg.len() + 16);
    let mut rest = msg;
    while !rest.is_empty() {
        let at_word_start = out.chars().last().is_none_or(|c| !word(c));
        let hit = at_word_start
            .then(|| {
                names
                    .iter()
                    .filter(|n| {
                        rest.starts_with(**n) && !rest[n.len()..].starts_with(|c: char| word(c))
                    })
                    .max_by_key(|n| n.len())
            })
            .flatten();
        match hit {
            Some(n) => {
                out.push_str("--");
                out.push_str(&n.replace('_', "-"));
                rest = &rest[n.len()..];
            }
            None => {
                let c = rest.chars().next().expect("not empty");
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// `--estimate`: the memory estimate, nothing replayed.
pub fn print_estimate(
    a: &clap::ArgMatches,
    e: &midpoint_core::cost::Estimate,
) -> Result<(), String> {
    if a.get_flag("json") {
        println!("{}", serde_json::json!({ "estimated_mib": e.mib }));
    } else {
        println!("estimated {:.0} MiB at the peak", e.mib);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_in_a_url_is_never_shown() {
        for (url, shown) in [
            (
                "mysql://root:s3cret@127.0.0.1:3306",
                "mysql://root:***@127.0.0.1:3306",
            ),
            (
                "http://root:s3cret@db.example.com/x",
                "http://root:***@db.example.com/x",
            ),
            // A password holding '@', '/' or ':' is hidden whole.
            ("mysql://u:s3c@ret@host", "mysql://u:***@host"),
            ("mysql://u:s3/c:ret@host:1", "mysql://u:***@host:1"),
            // No password, nothing hidden.
            ("mysql://root@127.0.0.1", "mysql://root@127.0.0.1"),
            ("https://example.com/a:b", "https://example.com/a:b"),
        ] {
            let msg = format!("--url {url}: expected mysql://user[:password]@host[:port]");
            let safe = safe_message(&msg);
            assert_eq!(
                safe,
                format!("--url {shown}: expected mysql://user[:password]@host[:port]")
            );
            assert!(!safe.contains("s3") && !safe.contains("ret@"), "{safe}");
        }
        // Quoted, twice in one message.
        let safe = redact_passwords("'mysql://a:pw1@h' and \"mysql://b:pw2@h\"");
        assert_eq!(safe, "'mysql://a:***@h' and \"mysql://b:***@h\"");
    }

    #[test]
    fn a_long_value_is_cut_to_80_characters_with_its_length() {
        let long = "7".repeat(100_000);
        let safe = safe_message(&format!(
            "pool_mb = '{long}' is not a whole number written in digits"
        ));
        assert_eq!(
            safe,
            format!(
                "pool_mb = '{}… (100,000 characters)' is not a whole number written in digits",
                "7".repeat(80)
            )
        );
        // Unquoted, and a quoted value with blanks in it.
        let safe = safe_message(&format!("reading {long}: No such file"));
        assert!(
            safe.len() < 200 && safe.ends_with("… (100,000 characters): No such file"),
            "{safe}"
        );
        let spaced = "ab ".repeat(50_000);
        let safe = safe_message(&format!("--preset '{spaced}': no such preset"));
        assert!(
            safe.len() < 200 && safe.contains("(150,000 characters)"),
            "{safe}"
        );
        // Short values, apostrophes in words and multi-byte characters pass unchanged.
        for m in [
            "the scenario's pool_mb = 'x' is out of range",
            "--x-values: 'é' is not a number",
            "it's 'abc'",
        ] {
            assert_eq!(safe_message(m), m);
        }
        // Many short words still end at the message limit.
        let words = "word ".repeat(10_000);
        let safe = safe_message(&words);
        assert!(
            safe.chars().count() < MAX_MESSAGE_CHARS + 100,
            "{}",
            safe.len()
        );
        assert!(
            safe.ends_with("(the message cut: 50,000 characters in all)"),
            "{safe}"
        );
    }
}
