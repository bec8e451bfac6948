//! Where the CPU went during a live run (Linux, best effort): the machine's busy CPUs from
//! `/proc/stat`, the server's (`/proc/PID/stat` of `mariadbd`/`mysqld`, when it runs on this
//! machine and its pid file is readable) and this process's, the clients', between two
//! readings. A figure that cannot be read is `None`; nothing here fails the run.

use serde::Serialize;
use std::time::Instant;

/// One reading of the counters, in clock ticks.
#[derive(Clone, Debug)]
pub struct Reading {
    at: Instant,
    /// `(busy, total)` over all CPUs, from the first line of `/proc/stat`.
    machine: Option<(u64, u64)>,
    server: Option<u64>,
    client: Option<u64>,
}

/// CPUs used over an interval (CPU-seconds per second: 1.5 = one and a half CPUs busy).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct CpuUse {
    pub seconds: f64,
    /// Every process on the machine (the load of other work included).
    pub machine_cpus: Option<f64>,
    /// The server process (all its threads).
    pub server_cpus: Option<f64>,
    /// This process: the lookup and scan clients and the samplers.
    pub client_cpus: Option<f64>,
}

/// `(busy, total)` ticks from `/proc/stat`'s `cpu` line: user nice system idle iowait irq
/// softirq steal (guest time is already counted in user); idle and iowait are not busy.
pub fn parse_proc_stat(text: &str) -> Option<(u64, u64)> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .take(8)
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    if v.len() < 5 {
        return None;
    }
    let total: u64 = v.iter().sum();
    Some((total - v[3] - v[4], total))
}

/// utime + stime ticks from `/proc/PID/stat` (fields 14 and 15; the command name, field 2,
/// is in parentheses and may hold spaces, so fields are counted after its closing one).
pub fn parse_pid_stat(text: &str) -> Option<u64> {
    let rest = &text[text.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // After ")": field 3 (state) is f[0], so field n is f[n - 3].
    let utime: u64 = f.get(11)?.parse().ok()?;
    let stime: u64 = f.get(12)?.parse().ok()?;
    Some(utime + stime)
}

fn ticks_per_s() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as f64
    } else {
        100.0
    }
}

fn pid_ticks(pid: u32) -> Option<u64> {
    parse_pid_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// Reads the counters now; `server_pid` is the server's process on this machine, if known.
pub fn read(server_pid: Option<u32>) -> Reading {
    Reading {
        at: Instant::now(),
        machine: std::fs::read_to_string("/proc/stat")
            .ok()
            .and_then(|t| parse_proc_stat(&t)),
        server: server_pid.and_then(pid_ticks),
        client: pid_ticks(std::process::id()),
    }
}

/// The CPUs used between two readings.
pub fn between(a: &Reading, b: &Reading) -> CpuUse {
    let secs = b.at.duration_since(a.at).as_secs_f64();
    let hz = ticks_per_s();
    let per = |x: u64, y: u64| (secs > 0.0 && y >= x).then(|| (y - x) as f64 / hz / secs);
    let machine = match (a.machine, b.machine) {
        // Busy share of all ticks, times the CPUs (ticks per second over all CPUs / hz).
        (Some((b0, t0)), Some((b1, t1))) if t1 >= t0 && b1 >= b0 && secs > 0.0 => {
            Some((b1 - b0) as f64 / hz / secs)
        }
        _ => None,
    };
    CpuUse {
        seconds: secs,
        machine_cpus: machine,
        server_cpus: a.server.zip(b.server).and_then(|(x, y)| per(x, y)),
        client_cpus: a.client.zip(b.client).and_then(|(x, y)| per(x, y)),
    }
}

/// The 1-, 5- and 15-minute load averages (`/proc/loadavg`).
pub fn loadavg() -> Option<[f64; 3]> {
    let t = std::fs::read_to_string("/proc/loadavg").ok()?;
    let v: Vec<f64> = t
        .split_whitespace()
        .take(3)
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    v.try_into().ok()
}

/// The CPUs this machine gives a process (affinity and cgroup quota included).
pub fn available_cpus() -> Option<u32> {
    std::thread::available_parallelism()
        .ok()
        .map(|n| n.get().min(256) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_stat_busy_excludes_idle_and_iowait() {
        let t = "cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 50 2 25 400 20 1 1 0 0 0\nintr 1\n";
        // total 1000; idle 800 + iowait 40 are not busy.
        assert_eq!(parse_proc_stat(t), Some((160, 1000)));
        assert_eq!(parse_proc_stat("cpu0 1 2 3\n"), None);
        assert_eq!(parse_proc_stat("cpu  1 x 3 4 5\n"), None);
    }

    #[test]
    fn pid_stat_reads_utime_and_stime_after_a_name_with_spaces() {
        let t = "4242 (my d) S 1 4242 4242 0 -1 4194560 500 0 0 0 1234 567 0 0 20 0 30 0 99";
        assert_eq!(parse_pid_stat(t), Some(1234 + 567));
        assert_eq!(parse_pid_stat("4242 (x) S 1 2"), None);
    }

    #[test]
    fn this_process_has_a_reading_on_linux() {
        let a = read(None);
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
        }
        std::hint::black_box(x);
        let b = read(None);
        let u = between(&a, &b);
        assert!(u.seconds > 0.0);
        if cfg!(target_os = "linux") {
            let c = u.client_cpus.expect("this process's /proc/self/stat");
            assert!(c >= 0.0, "{c}");
            assert!(u.machine_cpus.is_some());
            assert!(loadavg().is_some());
        }
        assert!(u.server_cpus.is_none());
    }
}
