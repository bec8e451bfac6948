//! What the sampler reads from the server, parsed, and the figures computed from a series. The
//! same functions compute the simulated figures from the model's samples, so both sides of the
//! comparison are measured the same way.

use serde::Serialize;

/// One sample of the pool's content, as `information_schema.INNODB_BUFFER_PAGE` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PoolSample {
    /// Seconds since the warm-up started (wall clock).
    pub t_s: f64,
    /// The hot table's resident index pages (leaf pages and the few internal ones), young and old.
    pub hot_young: u64,
    pub hot_old: u64,
    /// The scanned table's resident index pages.
    pub scan_young: u64,
    pub scan_old: u64,
}

impl PoolSample {
    pub fn hot_resident(&self) -> u64 {
        self.hot_young + self.hot_old
    }
}

/// Splits `` `schema`.`table` `` (MySQL 8 and MariaDB) or `schema/table` (older servers).
pub fn split_table_name(name: &str) -> Option<(String, String)> {
    let (s, t) = name.split_once("`.`").or_else(|| name.split_once('/'))?;
    Some((
        s.trim_matches('`').to_string(),
        t.trim_matches('`').to_string(),
    ))
}

/// Counts from the rows of `SELECT TABLE_NAME, IS_OLD, COUNT(*) ... GROUP BY TABLE_NAME,
/// IS_OLD` (every value as text, NULL as None): the rows of other tables are ignored, an
/// unparsable count is an error.
pub fn parse_pool_rows(
    rows: &[Vec<Option<String>>],
    schema: &str,
    hot: &str,
    scan: &str,
    t_s: f64,
) -> Result<PoolSample, String> {
    let mut s = PoolSample {
        t_s,
        ..PoolSample::default()
    };
    for r in rows {
        let [name, is_old, count] = r.as_slice() else {
            return Err(format!(
                "a buffer-page row has {} columns, not 3 (TABLE_NAME, IS_OLD, COUNT)",
                r.len()
            ));
        };
        let Some((sch, table)) = name.as_deref().and_then(split_table_name) else {
            continue;
        };
        if sch != schema {
            continue;
        }
        let n: u64 = count
            .as_deref()
            .unwrap_or("")
            .trim()
            .parse()
            .map_err(|_| format!("a buffer-page count is not a number: {count:?}"))?;
        let old = match is_old.as_deref().map(str::trim) {
            Some("YES") | Some("1") => true,
            Some("NO") | Some("0") => false,
            other => return Err(format!("IS_OLD is neither YES nor NO: {other:?}")),
        };
        let slot = match (table == hot, table == scan, old) {
            (true, _, false) => &mut s.hot_young,
            (true, _, true) => &mut s.hot_old,
            (_, true, false) => &mut s.scan_young,
            (_, true, true) => &mut s.scan_old,
            _ => continue,
        };
        *slot += n;
    }
    Ok(s)
}

/// The value of `SHOW GLOBAL STATUS LIKE 'name'` (rows of name, value).
pub fn parse_status(rows: &[Vec<Option<String>>], name: &str) -> Result<u64, String> {
    let row = rows
        .iter()
        .find(|r| r.first().and_then(|n| n.as_deref()) == Some(name))
        .ok_or_else(|| format!("the server reports no status variable {name}"))?;
    let v = row.get(1).and_then(|v| v.as_deref()).unwrap_or("");
    v.trim()
        .parse()
        .map_err(|_| format!("{name} = {v:?} is not a number"))
}

/// The free-list size between two samples grows by at least this many pages for the jump to
/// count as a refill (reads only ever take frames: growth is the page cleaner's, or a user
/// thread's LRU scan).
pub const REFILL_MIN_PAGES: u64 = 32;

/// Refills seen in a free-list series `(t_s, free)` with `from < t <= to`: each rise of at least
/// [`REFILL_MIN_PAGES`] from one sample to the next. Rises in consecutive samples are one refill.
pub fn count_refills(free: &[(f64, u64)], from: f64, to: f64) -> u64 {
    let mut n = 0;
    let mut rising = false;
    for w in free.windows(2) {
        let (t, f) = w[1];
        if t <= from || t > to {
            rising = false;
            continue;
        }
        let up = f >= w[0].1 + REFILL_MIN_PAGES;
        if up && !rising {
            n += 1;
        }
        rising = up;
    }
    n
}

/// Share of the hot set's pages resident, clamped to 1 (the hot table's few internal pages are
/// counted with its leaves).
pub fn kept_of(hot_resident: u64, hot_pages: u64) -> f64 {
    if hot_pages == 0 {
        return f64::NAN;
    }
    (hot_resident as f64 / hot_pages as f64).min(1.0)
}

/// The mean of `kept` over the samples with `from < t <= to`; NaN when none.
pub fn mean_between(series: &[(f64, f64)], from: f64, to: f64) -> f64 {
    let v: Vec<f64> = series
        .iter()
        .filter(|(t, _)| *t > from + 1e-9 && *t <= to + 1e-9)
        .map(|(_, k)| *k)
        .collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.iter().sum::<f64>() / v.len() as f64
}

/// The window "kept in the last minute" averages over: the last 60 s of the scan phase (all of
/// it when shorter), seconds since the warm-up started.
pub fn tail_window(warmup_s: f64, scan_s: f64) -> (f64, f64) {
    let end = warmup_s + scan_s;
    ((end - 60.0).max(warmup_s), end)
}

/// Net growth of the scanned table's young pages per second of scanning (what seed 000 measured
/// from `IS_OLD`): from the last sample at or before the scan's start to the last sample.
pub fn leak_rate(series: &[(f64, u64)], scan_start: f64) -> f64 {
    let Some(first) = series
        .iter()
        .rev()
        .find(|(t, _)| *t <= scan_start + 1e-9)
        .or(series.first())
    else {
        return f64::NAN;
    };
    let Some(last) = series.last() else {
        return f64::NAN;
    };
    if last.0 <= first.0 {
        return f64::NAN;
    }
    (last.1 as f64 - first.1 as f64) / (last.0 - first.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: Option<&str>, old: &str, n: &str) -> Vec<Option<String>> {
        vec![
            name.map(String::from),
            Some(old.to_string()),
            Some(n.to_string()),
        ]
    }

    #[test]
    fn buffer_page_rows_are_counted_per_table_and_flag() {
        let rows = vec![
            row(Some("`midpoint_experiment`.`hot`"), "NO", "900"),
            row(Some("`midpoint_experiment`.`hot`"), "YES", "14"),
            row(Some("`midpoint_experiment`.`scanned`"), "NO", "120"),
            row(Some("`midpoint_experiment`.`scanned`"), "YES", "1500"),
            row(Some("`other`.`hot`"), "NO", "7"),
            row(Some("`mysql`.`innodb_index_stats`"), "NO", "3"),
            row(None, "NO", "40"),
            row(Some("midpoint_experiment/hot"), "NO", "6"),
        ];
        let s = parse_pool_rows(&rows, "midpoint_experiment", "hot", "scanned", 12.5).unwrap();
        assert_eq!(
            s,
            PoolSample {
                t_s: 12.5,
                hot_young: 906,
                hot_old: 14,
                scan_young: 120,
                scan_old: 1500
            }
        );
        assert_eq!(s.hot_resident(), 920);
        assert!(parse_pool_rows(
            &[row(Some("`midpoint_experiment`.`hot`"), "MAYBE", "1")],
            "midpoint_experiment",
            "hot",
            "scanned",
            0.0
        )
        .is_err());
        assert!(parse_pool_rows(
            &[row(Some("`midpoint_experiment`.`hot`"), "NO", "x")],
            "midpoint_experiment",
            "hot",
            "scanned",
            0.0
        )
        .is_err());
        assert!(parse_pool_rows(&[vec![None]], "m", "h", "s", 0.0).is_err());
    }

    #[test]
    fn status_values_parse() {
        let rows = vec![vec![
            Some("Innodb_buffer_pool_pages_free".to_string()),
            Some("1017".to_string()),
        ]];
        assert_eq!(
            parse_status(&rows, "Innodb_buffer_pool_pages_free").unwrap(),
            1017
        );
        assert!(parse_status(&rows, "Innodb_buffer_pool_pages_total").is_err());
        let bad = vec![vec![
            Some("Innodb_buffer_pool_pages_free".to_string()),
            Some("lots".to_string()),
        ]];
        assert!(parse_status(&bad, "Innodb_buffer_pool_pages_free").is_err());
    }

    #[test]
    fn refills_are_rises_of_the_free_list() {
        // Drained to 0, refilled to 900 (one rise over two samples), drained, a small wobble,
        // a second refill; the first rise is before the window.
        let free = [
            (0.0, 1000),
            (0.1, 0),
            (0.2, 500),
            (1.0, 0),
            (1.1, 400),
            (1.2, 900),
            (1.3, 0),
            (1.4, 20),
            (1.5, 0),
            (1.6, 700),
        ];
        assert_eq!(count_refills(&free, 0.5, 2.0), 2);
        assert_eq!(count_refills(&free, 0.0, 2.0), 3);
        assert_eq!(count_refills(&free, 1.3, 1.5), 0);
        assert_eq!(count_refills(&[], 0.0, 1.0), 0);
    }

    #[test]
    fn kept_tail_and_leak() {
        assert_eq!(kept_of(500, 1000), 0.5);
        assert_eq!(kept_of(1003, 1000), 1.0);
        assert!(kept_of(1, 0).is_nan());
        assert_eq!(tail_window(30.0, 60.0), (30.0, 90.0));
        assert_eq!(tail_window(60.0, 300.0), (300.0, 360.0));
        let series = [(0.0, 1.0), (30.0, 1.0), (60.0, 0.8), (90.0, 0.4)];
        assert!((mean_between(&series, 30.0, 90.0) - 0.6).abs() < 1e-12);
        assert!(mean_between(&series, 100.0, 200.0).is_nan());
        let young = [(0.0, 10), (30.0, 10), (60.0, 310), (90.0, 610)];
        assert!((leak_rate(&young, 30.0) - 10.0).abs() < 1e-12);
        assert!(leak_rate(&[], 30.0).is_nan());
    }
}
