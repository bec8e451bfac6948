//! Connecting to the server: where it is (a URL or a socket, its password never shown), the
//! timeouts, the queries the experiment's modules share, and a driver's errors in words.

use super::sample::parse_status;
use mysql::prelude::Queryable;
use mysql::{Conn, Opts, OptsBuilder, Value};

/// Where the server is: a URL, a Unix socket, or both (the URL's credentials over the socket).
#[derive(Clone, Debug)]
pub struct Target {
    pub url: Option<String>,
    pub socket: Option<String>,
}

/// How long a connection waits for the server to answer a read or take a write.
///
/// Every connection has both timeouts, so a server that accepts and then says nothing (or stops
/// answering in the middle of the run) ends the run with a message instead of a wait without
/// end. A socket timeout bounds each wait for bytes, and the server sends nothing until a
/// statement has finished, so each connection's timeout is chosen above the longest statement
/// it runs on a working server:
/// - [`Timeouts::CONTROL`], 20 s: the handshake, the variables and status counters, the lookups
///   (one point select), the free-page sampler, the restore. These return in milliseconds; a
///   server that cannot answer one in 20 s is stalled. The first connection of a run has it, so
///   a server that never answers ends the run in about 20 s.
/// - [`Timeouts::sample`]: the residency sample over `INNODB_BUFFER_PAGE`, which walks every
///   page of the pool: 20 s plus a second per 20,000 pool pages (a 16 GiB pool's million pages:
///   72 s; such a walk takes a few seconds).
/// - [`Timeouts::load`]: each statement of the load (a chunk of 50,000 rows, about 11 MiB):
///   60 s plus a second per MiB, 71 s, whatever the table's size.
/// - [`Timeouts::pass`]: the scan's passes over the whole scanned table: 60 s plus a second per
///   MiB of the table (a pass at 1 MiB/s, 64 pages a second, slower than any disk that can run
///   the experiment), at most [`Timeouts::MAX_PASS_S`] (10 min; the default 746 MB table's pass
///   gets 13 min less that).
///
/// These are the limits of the statements of the run's main thread, which are watched
/// ([`super::session`]): a statement waiting longer than 5 s prints a line every 5 s, Ctrl-C
/// or SIGTERM kills it, and one past its limit is killed with a message naming the limit. The
/// connections' socket timeouts are 10 s above ([`Timeouts::above`]), the last bound when the
/// server does not even answer the kill.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timeouts {
    pub read: std::time::Duration,
    pub write: std::time::Duration,
}

impl Timeouts {
    pub const CONTROL: Timeouts = Timeouts::secs(20);

    pub const fn secs(s: u64) -> Timeouts {
        Timeouts {
            read: std::time::Duration::from_secs(s),
            write: std::time::Duration::from_secs(s),
        }
    }

    /// For the residency sample of a pool of `pool_pages`.
    pub fn sample(pool_pages: u64) -> Timeouts {
        Timeouts::secs(20 + pool_pages / 20_000)
    }

    /// The longest pass over the scanned table waited for, in seconds.
    pub const MAX_PASS_S: u64 = 600;

    /// For a statement of the load: a chunk of [`LOAD_CHUNK_ROWS`] rows of about 230 bytes.
    pub fn load() -> Timeouts {
        Timeouts::secs(60 + ((LOAD_CHUNK_ROWS * 230) >> 20))
    }

    /// For the scan's passes over a table of `table_bytes`.
    pub fn pass(table_bytes: u64) -> Timeouts {
        Timeouts::secs((60 + (table_bytes >> 20)).min(Timeouts::MAX_PASS_S))
    }

    /// The socket timeouts of a connection whose statements are watched with these limits: 10 s
    /// above them, so that the watch ends a statement first.
    pub fn above(self) -> Timeouts {
        Timeouts {
            read: self.read + std::time::Duration::from_secs(10),
            write: self.write + std::time::Duration::from_secs(10),
        }
    }
}

/// Rows per statement of the load (each commits on its own).
pub const LOAD_CHUNK_ROWS: u64 = 50_000;

impl Target {
    /// The options with these read and write timeouts (and the 10 s TCP connect timeout).
    pub fn opts_with(&self, to: Timeouts) -> Result<Opts, String> {
        let base = match &self.url {
            Some(u) => {
                if !u.starts_with("mysql://") {
                    return Err(format!(
                        "--url {}: expected mysql://user[:password]@host[:port]",
                        redact_url(u)
                    ));
                }
                Opts::from_url(u).map_err(|e| {
                    let why = match e {
                        mysql::UrlError::ParseError(p) => p.to_string(),
                        other => other.to_string(),
                    };
                    self.scrub(&format!(
                        "--url {}: {why} (a password holding '/', '?' or '#' is written percent-encoded: %2F, %3F, %23)",
                        redact_url(u)
                    ))
                })?
            }
            None => Opts::from(OptsBuilder::new().user(Some("root"))),
        };
        let b = OptsBuilder::from_opts(base)
            .db_name(None::<String>)
            .tcp_connect_timeout(Some(std::time::Duration::from_secs(10)))
            .read_timeout(Some(to.read))
            .write_timeout(Some(to.write));
        let b = match &self.socket {
            Some(s) => b.socket(Some(s.clone())).prefer_socket(true),
            None => b,
        };
        Ok(Opts::from(b))
    }

    /// Whether the server runs on this machine: a Unix socket, or a URL whose host is
    /// `localhost`, `127.x.x.x` or `::1`.
    pub fn is_loopback(&self) -> bool {
        if self.socket.is_some() {
            return true;
        }
        let Some(u) = &self.url else { return false };
        let rest = u.trim_start_matches("mysql://");
        let host_port = rest.rsplit_once('@').map_or(rest, |x| x.1);
        let host_port = host_port.split('/').next().unwrap_or("");
        let host = if let Some(h) = host_port.strip_prefix('[') {
            h.split(']').next().unwrap_or("")
        } else {
            host_port.split(':').next().unwrap_or("")
        };
        host.eq_ignore_ascii_case("localhost") || host.starts_with("127.") || host == "::1"
    }

    /// The server's address without the password, for messages and the JSON.
    pub fn label(&self) -> String {
        match (&self.url, &self.socket) {
            (_, Some(s)) => format!("socket {s}"),
            (Some(u), None) => {
                let p = UrlParts::of(u);
                match p.user {
                    Some(user) => format!("mysql://{user}@{}", p.host),
                    None => format!("mysql://{}", p.host),
                }
            }
            (None, None) => "nowhere".into(),
        }
    }

    /// `msg` with the URL's password taken out wherever it appears, as typed and
    /// percent-decoded (a driver's message, a parser's): the last guard before any output.
    pub fn scrub(&self, msg: &str) -> String {
        let Some(pw) = self.url.as_deref().and_then(|u| UrlParts::of(u).password) else {
            return msg.to_string();
        };
        let mut out = msg.to_string();
        for p in [pw.to_string(), percent_decoded(pw)] {
            if p.len() >= 3 {
                out = out.replace(&p, "***");
            }
        }
        out
    }
}

/// A `--url` cut into its parts, whatever its form (`mysql://`, another scheme or none): the
/// credentials run to the last `@`, the user to their first `:`, the password after it.
#[derive(Debug, PartialEq)]
pub struct UrlParts<'a> {
    pub scheme: Option<&'a str>,
    pub user: Option<&'a str>,
    pub password: Option<&'a str>,
    pub host: &'a str,
}

impl<'a> UrlParts<'a> {
    pub fn of(u: &'a str) -> UrlParts<'a> {
        let (scheme, rest) = match u.find("://") {
            Some(i) => (Some(&u[..i]), &u[i + 3..]),
            None => (None, u),
        };
        match rest.rsplit_once('@') {
            Some((cred, host)) => {
                let (user, password) = match cred.split_once(':') {
                    Some((user, pw)) => (user, Some(pw)),
                    None => (cred, None),
                };
                UrlParts {
                    scheme,
                    user: Some(user),
                    password,
                    host,
                }
            }
            // No credentials: `host[:port][/...]` (or `[v6]:port`), unless the colons say
            // otherwise, when what follows the first may be a password typed without its host.
            None if plain_host(rest) => UrlParts {
                scheme,
                user: None,
                password: None,
                host: rest,
            },
            None => {
                let (head, tail) = rest.split_once(':').unwrap_or((rest, ""));
                UrlParts {
                    scheme,
                    user: Some(head),
                    password: Some(tail),
                    host: "",
                }
            }
        }
    }
}

/// `host`, `host:port`, `[v6]` or `[v6]:port`, then at most a path or query without a colon.
fn plain_host(s: &str) -> bool {
    let (hp, path) = match s.find(['/', '?']) {
        Some(i) => s.split_at(i),
        None => (s, ""),
    };
    let after_host = match hp.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((_, rest)) => rest,
            None => return false,
        },
        None => hp.find(':').map_or("", |i| &hp[i..]),
    };
    let port_ok = match after_host.strip_prefix(':') {
        Some(port) => !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()),
        None => after_host.is_empty(),
    };
    port_ok && !path.contains(':')
}

/// The URL as typed with its password replaced by `***`, for messages.
pub fn redact_url(u: &str) -> String {
    let p = UrlParts::of(u);
    let scheme = p.scheme.map(|s| format!("{s}://")).unwrap_or_default();
    match (p.user, p.password) {
        (Some(user), Some(_)) if p.host.is_empty() => format!("{scheme}{user}:***"),
        (Some(user), Some(_)) => format!("{scheme}{user}:***@{}", p.host),
        (Some(user), None) => format!("{scheme}{user}@{}", p.host),
        (None, _) => format!("{scheme}{}", p.host),
    }
}

/// `%41` as `A`; a `%` not followed by two hex digits is kept.
fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() && b[i + 1..i + 3].iter().all(u8::is_ascii_hexdigit) {
            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            out.push(hex(b[i + 1]) * 16 + hex(b[i + 2]));
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Opens one connection with the [`Timeouts::CONTROL`] timeouts.
pub fn connect(t: &Target) -> Result<Conn, String> {
    connect_with(t, Timeouts::CONTROL)
}

/// Opens one connection with these timeouts. A server that does not answer within them gives
/// an error saying so.
pub fn connect_with(t: &Target, to: Timeouts) -> Result<Conn, String> {
    Conn::new(t.opts_with(to)?)
        .map_err(|e| format!("cannot connect to {}: {}", t.label(), explain(&e, to)))
}

/// A driver error in words; a timeout says how long the server was silent.
pub fn explain(e: &mysql::Error, to: Timeouts) -> String {
    match timeout_io(e) {
        Some(io) => format!(
            "the server did not answer within {} s (the connection's read/write timeout): it accepts connections but is stalled or is not a MySQL/MariaDB server ({io})",
            to.read.as_secs()
        ),
        None => words(e),
    }
}

/// A driver error as readable text: the codec's error (which prints as a Rust structure,
/// `CodecError { ... }`) by its cause, the others as the driver words them.
pub fn words(e: &mysql::Error) -> String {
    let text = match e {
        mysql::Error::CodecError(c) => match std::error::Error::source(c) {
            Some(cause) => format!("the server's reply could not be read: {cause}"),
            None => format!("the server's reply could not be read: {c}"),
        },
        // The others by their own words, not the driver's `IoError { … }` around them (which
        // `readable` would take for a broken reply: a refused connection or an access denied
        // is not one).
        mysql::Error::IoError(io) => io.to_string(),
        mysql::Error::MySqlError(m) => m.to_string(),
        mysql::Error::DriverError(d) => d.to_string(),
        mysql::Error::UrlError(u) => u.to_string(),
        other => other.to_string(),
    };
    readable(text)
}

/// A driver's message with a structure dump (`CodecError { IO error: ... }`) unwrapped.
fn readable(text: String) -> String {
    match text.find(" {") {
        Some(i) if text.ends_with('}') => format!(
            "the connection to the server broke or sent what is not a MySQL reply: {}",
            text[i + 2..text.len() - 1].trim()
        ),
        _ => text,
    }
}

/// The socket's timeout, when it is what ended this error (the driver wraps it in its own
/// errors: a codec error around the I/O error, an I/O error of its own).
fn timeout_io(e: &mysql::Error) -> Option<&std::io::Error> {
    let is_timeout = |io: &std::io::Error| {
        matches!(
            io.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        )
    };
    if let mysql::Error::IoError(io) = e {
        if is_timeout(io) {
            return Some(io);
        }
    }
    if let mysql::Error::CodecError(c) = e {
        // The codec's own error holds the socket's as its source.
        let io = std::error::Error::source(c).and_then(|x| x.downcast_ref::<std::io::Error>());
        if let Some(io) = io.filter(|io| is_timeout(io)) {
            return Some(io);
        }
    }
    None
}

/// A driver error in words, a timeout named as one (the connection's own timeout is not known
/// here: see [`Timeouts`]).
pub fn timed_out(e: &mysql::Error) -> String {
    match timeout_io(e) {
        Some(io) => format!(
            "the server did not answer within the connection's timeout: it is stalled ({io})"
        ),
        None => words(e),
    }
}

/// A value as text (NULL as None), whatever protocol gave it.
pub fn text(v: Value) -> Option<String> {
    match v {
        Value::NULL => None,
        Value::Bytes(b) => Some(String::from_utf8_lossy(&b).into_owned()),
        Value::Int(i) => Some(i.to_string()),
        Value::UInt(u) => Some(u.to_string()),
        Value::Float(f) => Some(f.to_string()),
        Value::Double(f) => Some(f.to_string()),
        other => Some(format!("{other:?}")),
    }
}

/// Every row of a query, each value as text.
pub fn rows(c: &mut Conn, sql: &str) -> Result<Vec<Vec<Option<String>>>, String> {
    let rs: Vec<mysql::Row> = c
        .query(sql)
        .map_err(|e| format!("{sql}: {}", timed_out(&e)))?;
    Ok(rs
        .into_iter()
        .map(|r| r.unwrap().into_iter().map(text).collect())
        .collect())
}

/// The first column of the first row, as text.
pub fn scalar(c: &mut Conn, sql: &str) -> Result<Option<String>, String> {
    Ok(rows(c, sql)?
        .into_iter()
        .next()
        .and_then(|r| r.into_iter().next())
        .flatten())
}

pub fn scalar_u64(c: &mut Conn, sql: &str) -> Result<u64, String> {
    let v = scalar(c, sql)?.unwrap_or_default();
    v.trim()
        .parse()
        .map_err(|_| format!("{sql} gave {v:?}, not a number"))
}

pub fn status(c: &mut Conn, name: &str) -> Result<u64, String> {
    parse_status(
        &rows(c, &format!("SHOW GLOBAL STATUS LIKE '{name}'"))?,
        name,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(u: &str) -> Target {
        Target {
            url: Some(u.into()),
            socket: None,
        }
    }

    #[test]
    fn loopback_is_a_socket_or_a_local_host() {
        assert!(url("mysql://root@127.0.0.1:3306").is_loopback());
        assert!(url("mysql://u:p@localhost").is_loopback());
        assert!(url("mysql://u:p@[::1]:3307").is_loopback());
        assert!(!url("mysql://u:p@db.example.com:3306").is_loopback());
        assert!(!url("mysql://u:p@10.0.0.7").is_loopback());
        // A password holding '@' or "127." does not make a remote host local.
        assert!(!url("mysql://u:x@127.0@db.example.com").is_loopback());
        let sock = Target {
            url: Some("mysql://u@db.example.com".into()),
            socket: Some("/run/mysqld.sock".into()),
        };
        assert!(sock.is_loopback());
    }

    #[test]
    fn driver_errors_read_as_their_own_words() {
        let refused = mysql::Error::IoError(std::io::Error::new(
            std::io::ErrorKind::ConnectionRefused,
            "Connection refused (os error 111)",
        ));
        assert_eq!(words(&refused), "Connection refused (os error 111)");
        let denied = mysql::Error::MySqlError(mysql::MySqlError {
            state: "28000".into(),
            message: "Access denied for user 'u'@'localhost'".into(),
            code: 1045,
        });
        let w = words(&denied);
        assert!(
            w.contains("Access denied") && !w.contains('{') && !w.contains("broke"),
            "{w}"
        );
    }

    #[test]
    fn a_codec_error_reads_as_words_not_a_structure() {
        let w = readable("CodecError { IO error: `early eof' }".into());
        assert!(!w.contains('{') && w.contains("early eof"), "{w}");
        let plain = "Access denied for user 'u'@'localhost'".to_string();
        assert_eq!(readable(plain.clone()), plain);
    }

    #[test]
    fn the_label_and_the_redaction_keep_the_host_and_drop_the_password() {
        let t = url("mysql://carol:x@TopSecret@127.0.0.1:3306");
        assert_eq!(t.label(), "mysql://carol@127.0.0.1:3306");
        assert_eq!(
            redact_url("alice:S3cr3tPw@127.0.0.1:3306"),
            "alice:***@127.0.0.1:3306"
        );
        assert_eq!(redact_url("alice:S3cr3tPw"), "alice:***");
        assert_eq!(redact_url("127.0.0.1:3306"), "127.0.0.1:3306");
        assert_eq!(redact_url("[::1]:3306"), "[::1]:3306");
        assert_eq!(
            url("mysql://root@[::1]:3306").label(),
            "mysql://root@[::1]:3306"
        );
        assert_eq!(percent_decoded("a%40b%2Fc%zz%4"), "a@b/c%zz%4");
    }

    use proptest::prelude::*;

    /// A password whose every piece starts with `Zq` (no user, host or message holds it), the
    /// pieces joined by the characters a URL gives a meaning to, raw or percent-encoded.
    fn password() -> impl Strategy<Value = String> {
        let piece = "Zq[a-zA-Z0-9]{1,5}";
        let sep = prop_oneof![
            Just("@"),
            Just(":"),
            Just("/"),
            Just("%"),
            Just("%40"),
            Just("%2F"),
            Just("%3A"),
            Just("%25"),
            Just("@@"),
        ];
        (
            piece,
            proptest::collection::vec((sep, piece), 0..4),
            proptest::option::of(prop_oneof![Just("@"), Just(":"), Just("%"), Just("/")]),
        )
            .prop_map(|(first, rest, tail)| {
                let mut p = first;
                for (s, x) in rest {
                    p.push_str(s);
                    p.push_str(&x);
                }
                p.push_str(tail.unwrap_or(""));
                p
            })
    }

    fn form() -> impl Strategy<Value = (String, String, String, String)> {
        (
            prop_oneof![
                Just("mysql://"),
                Just(""),
                Just("http://"),
                Just("mysql:/"),
                Just("MYSQL://")
            ],
            "[a-z]{1,6}",
            password(),
            prop_oneof![
                Just("127.0.0.1:3306"),
                Just("localhost"),
                Just("[::1]:3307"),
                Just("db.example.com:3306/test"),
                Just("127.0.0.1:1?prefer_socket=false"),
                Just(""),
            ],
        )
            .prop_map(|(scheme, user, pw, host)| {
                let at = if host.is_empty() { "" } else { "@" };
                (
                    format!("{scheme}{user}:{pw}{at}{host}"),
                    pw,
                    user,
                    host.to_string(),
                )
            })
            // Without a host, `user:a@b` is user, password `a` and host `b`: no reader can
            // tell, so that form is not generated.
            .prop_filter(
                "a host-less URL whose password holds '@'",
                |(_, pw, _, host)| !(host.is_empty() && pw.contains('@')),
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// Every message the URL can reach (the label in the JSON and the text, the refusal of
        /// a form, the parser's error, a driver's error quoting it) holds no piece of the
        /// password, as typed or percent-decoded.
        #[test]
        fn no_form_of_url_shows_its_password((u, pw, _user, _host) in form()) {
            let t = url(&u);
            let mut shown = vec![t.label(), redact_url(&u)];
            if let Err(e) = t.opts_with(Timeouts::CONTROL) {
                shown.push(crate::output::safe_message(&e));
            }
            // Only a mysql:// URL reaches the driver, which reads it as the cut above does.
            if u.starts_with("mysql://") {
                shown.push(t.scrub(&format!("driver: access denied, password {pw} / {}", percent_decoded(&pw))));
            }
            shown.push(crate::output::safe_message(&format!("cannot connect to {}: refused", t.label())));
            for s in shown {
                prop_assert!(!s.contains("Zq"), "{u}: {s}");
            }
        }
    }
}
