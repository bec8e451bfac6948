//! The published experiments ("seeds": real-server measurements) and the reports that run
//! simulations beside them.
//!
//! One module per experiment holds its figures as data: what the seed measured, the seed's value,
//! whether the figure is an input, a calibration or a prediction, the band it must fall in and the
//! reason for that band ([`figure::Figure`]). Every module keeps its calls into the simulation in
//! one small "runs" section at its top. One checker ([`figure::check`]) decides whether a figure
//! holds, for `midpoint reproduce` and for the tests alike, and one writer ([`table::Table`])
//! prints every Markdown table.
//!
//! Preset codes (`seed000-hot4485-b2b`, ...) are unchanged: URLs and scripts use them.

pub mod depth_sweep;
pub mod figure;
pub mod mariadb;
pub mod seed000;
pub mod seed000_hypotheses;
pub mod seed001;
pub mod seed002;
pub mod seed003;
pub mod seed003_rw;
pub mod summary;
pub mod table;
pub mod write_report;

/// One experiment `midpoint reproduce --experiment CODE` can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Experiment {
    /// The code `--experiment` takes.
    pub code: &'static str,
    /// Other spellings `--experiment` accepts.
    pub aliases: &'static [&'static str],
    /// What was measured, for people.
    pub title: &'static str,
    /// A few words naming it, after its code in the README's summary (`000: ...`).
    pub name: &'static str,
    /// What the experiment measured, for the README's summary.
    pub measured: &'static str,
}

/// Every experiment `reproduce` knows, in the order `--help` lists them.
pub const ALL: &[Experiment] = &[
    Experiment {
        code: "000",
        aliases: &["0"],
        title: seed000::TITLE,
        name: "scan leak on MySQL 8.4.11",
        measured: "hot sets of 224, 897 and 4,485 pages against a looping 746 MB scan, 256 MB pool",
    },
    Experiment {
        code: "001",
        aliases: &["1"],
        title: seed001::TITLE,
        name: "doublewrite buffer size (bug #115328)",
        measured: "writes and throughput with 16 vs 128 doublewrite pages",
    },
    Experiment {
        code: "002",
        aliases: &["2"],
        title: seed002::TITLE,
        name: "a dump against point selects",
        measured: "`old_blocks_time` 0 vs 1000 over 1-19 threads, and `old_blocks_pct` 60",
    },
    Experiment {
        code: "003",
        aliases: &["3"],
        title: seed003::TITLE,
        name: "a full scan against read-only sysbench",
        measured: "the throughput lost to a concurrent scan, default vs tuned settings",
    },
    Experiment {
        code: "003-rw",
        aliases: &["3-rw"],
        title: seed003_rw::TITLE,
        name: "a full scan against read-write sysbench",
        measured:
            "the throughput lost to a concurrent scan, InnoDB Plugin defaults vs tuned settings",
    },
    Experiment {
        code: "mariadb",
        aliases: &[],
        title: mariadb::TITLE,
        name: "MariaDB 10.11 beside MySQL 8.4",
        measured: "nothing yet: a profile that follows the source, uncalibrated",
    },
];

/// The experiment a `--experiment` value names, or an error listing the codes.
pub fn find(code: &str) -> Result<&'static Experiment, String> {
    ALL.iter()
        .find(|e| e.code == code || e.aliases.contains(&code))
        .ok_or_else(|| {
            format!(
                "--experiment = '{code}' is not one of: {}",
                ALL.iter().map(|e| e.code).collect::<Vec<_>>().join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_aliases() {
        assert_eq!(find("0").unwrap().code, "000");
        assert_eq!(find("3-rw").unwrap().code, "003-rw");
        assert_eq!(find("mariadb").unwrap().title, mariadb::TITLE);
        let e = find("004").unwrap_err();
        assert!(e.contains("000, 001, 002, 003, 003-rw, mariadb"), "{e}");
    }

    #[test]
    fn seed000_rows_name_real_presets_and_have_reasons() {
        for r in seed000::rows(true) {
            assert!(
                midpoint_core::scenario::preset(&r.preset).is_ok(),
                "{}",
                r.preset
            );
            if let Some((lo, hi)) = r.band() {
                assert!(lo < hi, "{}", r.what);
                assert!(!r.reason.is_empty(), "{}: a band needs its reason", r.what);
            }
            if r.role != figure::Role::Prediction {
                assert!(!r.basis.is_empty(), "{}: say which input sets it", r.what);
            }
        }
    }
}
