//! The per-table residency a DBA gets in one query, read beside the status: the rows of
//! `sys.innodb_buffer_stats_by_table` (MySQL 5.7+, MariaDB 10.6+: `object_schema`,
//! `object_name`, `allocated`, `data`, `pages`, `pages_hashed`, `pages_old`, `rows_cached`) or
//! of the grouped `information_schema.INNODB_BUFFER_PAGE_LRU` query below ([`LRU_QUERY`]:
//! `table_name`, `pages`, `pages_old`, `leaf_pages`), in the mysql client's `\G`, boxed table
//! or tab-separated (`-B`) output.
//!
//! The tables the DBA marks hot give the hot set ([`hot_set`]): their leaf pages when the
//! grouped query's `leaf_pages` (the persistent statistics' `n_leaf_pages`) is there, else the
//! pages the pool holds of them (a lower bound when the pool has lost some of them).
//!
//! Pure and linear in the paste, like the reader; a cell that is not a count is an error naming
//! its line.

use serde::Serialize;

/// The grouped `INNODB_BUFFER_PAGE_LRU` query (MySQL 5.6+, MariaDB): each table's pages in the
/// pool, how many of them are old, and the table's leaf pages from the persistent statistics.
/// Printed in docs/your-server.md and the page's panel.
pub const LRU_QUERY: &str = "SELECT p.TABLE_NAME AS table_name, COUNT(*) AS pages, SUM(p.IS_OLD = 'YES') AS pages_old, (SELECT SUM(s.stat_value) FROM mysql.innodb_index_stats s WHERE s.stat_name = 'n_leaf_pages' AND CONCAT('`', s.database_name, '`.`', s.table_name, '`') = p.TABLE_NAME) AS leaf_pages FROM information_schema.INNODB_BUFFER_PAGE_LRU p WHERE p.TABLE_NAME IS NOT NULL GROUP BY p.TABLE_NAME ORDER BY pages DESC;";

/// The `sys` view's query.
pub const SYS_QUERY: &str = "SELECT * FROM sys.innodb_buffer_stats_by_table;";

/// One table's residency as read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableResidency {
    /// `schema.table` (backquotes dropped).
    pub table: String,
    /// Its pages in the pool.
    pub pages: u64,
    /// Of them, in the old sublist (when printed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages_old: Option<u64>,
    /// The table's leaf pages, resident or not (the grouped query's `leaf_pages`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf_pages: Option<u64>,
    /// `sys` or `lru`: which output it came from.
    pub from: &'static str,
    /// The line of its row (its `pages` cell's line for `\G`), within its input.
    pub line: usize,
    #[serde(skip_serializing_if = "crate::is_zero")]
    pub input: usize,
}

/// The hot set the marked tables give.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HotSet {
    pub pages: u32,
    pub tables: Vec<String>,
    /// How it was counted, for the scenario's note and the fit's table.
    pub words: String,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Sys,
    Lru,
}

const SYS_COLUMNS: [&str; 8] = [
    "object_schema",
    "object_name",
    "allocated",
    "data",
    "pages",
    "pages_hashed",
    "pages_old",
    "rows_cached",
];
const LRU_COLUMNS: [&str; 4] = ["table_name", "pages", "pages_old", "leaf_pages"];

fn kind_of(cols: &[String]) -> Option<Kind> {
    let has = |c: &str| cols.iter().any(|x| x.eq_ignore_ascii_case(c));
    if has("object_schema") && has("object_name") && has("pages") {
        Some(Kind::Sys)
    } else if has("table_name") && has("pages") && !has("pool_id") {
        Some(Kind::Lru)
    } else {
        None
    }
}

fn cells(raw: &str) -> Option<Vec<String>> {
    let t = raw.trim_end_matches(['\r', '\n']);
    if t.contains('\t') {
        return Some(t.split('\t').map(|c| c.trim().to_string()).collect());
    }
    let s = t.trim();
    if s.starts_with('|') && s.ends_with('|') && s.len() >= 2 {
        return Some(
            s[1..s.len() - 1]
                .split('|')
                .map(|c| c.trim().to_string())
                .collect(),
        );
    }
    None
}

/// `` `db`.`t` `` or `db.t` → `db.t`.
pub fn table_name(s: &str) -> String {
    s.trim().replace('`', "")
}

fn count(v: &str, col: &str, no: usize) -> Result<Option<u64>, (usize, String)> {
    let v = v.trim();
    if v.is_empty() || v.eq_ignore_ascii_case("NULL") {
        return Ok(None);
    }
    // SUM() prints a DECIMAL: "1004" or "1004.0000" in some clients.
    let int = v.strip_suffix(".0000").unwrap_or(v);
    if !int.bytes().all(|b| b.is_ascii_digit()) {
        return Err((no, format!("{col} = {v}: not a whole number of pages")));
    }
    int.parse::<u64>()
        .map(Some)
        .map_err(|_| (no, format!("{col} = {v}: past the largest 64-bit count")))
}

#[derive(Default)]
struct Row {
    schema: Option<String>,
    name: Option<String>,
    table: Option<String>,
    pages: Option<u64>,
    pages_old: Option<u64>,
    leaf_pages: Option<u64>,
    line: usize,
}

fn cell(row: &mut Row, col: &str, v: &str, no: usize) -> Result<(), (usize, String)> {
    match col.to_ascii_lowercase().as_str() {
        "object_schema" => row.schema = Some(v.trim().to_string()),
        "object_name" => row.name = Some(v.trim().to_string()),
        "table_name" => row.table = Some(table_name(v)),
        "pages" => {
            row.pages = count(v, "pages", no)?;
            row.line = no;
        }
        "pages_old" => row.pages_old = count(v, "pages_old", no)?,
        "leaf_pages" => row.leaf_pages = count(v, "leaf_pages", no)?,
        _ => {}
    }
    Ok(())
}

fn finish_row(row: Row, kind: Kind, input: usize, out: &mut Vec<TableResidency>) {
    let table = match kind {
        Kind::Sys => match (row.schema, row.name) {
            (Some(s), Some(n)) => Some(format!("{}.{}", table_name(&s), table_name(&n))),
            _ => None,
        },
        Kind::Lru => row.table,
    };
    if let (Some(table), Some(pages)) = (table, row.pages) {
        if out.len() < MAX_TABLES {
            out.push(TableResidency {
                table,
                pages,
                pages_old: row.pages_old,
                leaf_pages: row.leaf_pages,
                from: match kind {
                    Kind::Sys => "sys",
                    Kind::Lru => "lru",
                },
                line: row.line,
                input,
            });
        }
    }
}

/// The most tables kept (a schema of thousands of tables: the first ones, by the query's order).
pub const MAX_TABLES: usize = 10_000;

/// The per-table rows in one input (empty when it holds none), or the line that cannot be read
/// and why.
pub fn read(text: &str, input: usize) -> Result<Vec<TableResidency>, (usize, String)> {
    let mut out = Vec::new();
    // Tables (boxed or tab-separated): a header row names the columns.
    let mut header: Option<(Vec<String>, Kind)> = None;
    // `\G`: the current row's cells, and its kind once a column tells it.
    let mut g: Option<(Row, Vec<String>)> = None;
    let flush_g = |g: &mut Option<(Row, Vec<String>)>, out: &mut Vec<TableResidency>| {
        if let Some((row, cols)) = g.take() {
            if let Some(k) = kind_of(&cols) {
                finish_row(row, k, input, out);
            }
        }
    };
    for (i, raw) in text.split('\n').enumerate() {
        let no = i + 1;
        let t = raw.trim();
        if t.starts_with("***") && t.ends_with("***") && t.contains("row") {
            flush_g(&mut g, &mut out);
            g = Some((Row::default(), Vec::new()));
            continue;
        }
        if let Some(cs) = cells(raw) {
            if let Some(k) = kind_of(&cs) {
                flush_g(&mut g, &mut out);
                header = Some((cs, k));
                continue;
            }
            if let Some((h, k)) = &header {
                if cs.len() == h.len() {
                    let mut row = Row {
                        line: no,
                        ..Row::default()
                    };
                    for (c, v) in h.iter().zip(cs.iter()) {
                        cell(&mut row, c, v, no)?;
                    }
                    finish_row(row, *k, input, &mut out);
                    continue;
                }
            }
            header = None;
            continue;
        }
        if t.starts_with('+') {
            continue;
        }
        header = None;
        if let Some((row, cols)) = g.as_mut() {
            if let Some((k, v)) = t.split_once(':') {
                let k = k.trim();
                if SYS_COLUMNS.contains(&k) || LRU_COLUMNS.contains(&k) {
                    cell(row, k, v, no)?;
                    cols.push(k.to_string());
                    continue;
                }
            }
            if !t.is_empty() {
                flush_g(&mut g, &mut out);
            }
        }
    }
    flush_g(&mut g, &mut out);
    Ok(out)
}

/// The hot set of the tables named (`db.t`, backquotes allowed), or why not.
pub fn hot_set(tables: &[TableResidency], names: &[String]) -> Result<HotSet, String> {
    if tables.is_empty() {
        return Err(format!(
            "--hot-table {}: no per-table residency was pasted; paste the output of {SYS_QUERY} or of the grouped INNODB_BUFFER_PAGE_LRU query (docs/your-server.md) with the status",
            names.join(", ")
        ));
    }
    let mut pages: u64 = 0;
    let mut parts = Vec::new();
    let mut lower = false;
    let mut seen = Vec::new();
    for n in names {
        let want = table_name(n);
        if seen.contains(&want) {
            continue;
        }
        let Some(t) = tables.iter().find(|t| t.table.eq_ignore_ascii_case(&want)) else {
            let known: Vec<&str> = tables.iter().take(12).map(|t| t.table.as_str()).collect();
            return Err(format!(
                "--hot-table {want}: no such table in the per-table residency pasted (its tables: {}{})",
                known.join(", "),
                if tables.len() > 12 { ", ..." } else { "" }
            ));
        };
        seen.push(want);
        match t.leaf_pages {
            Some(l) if l > 0 => {
                pages += l;
                parts.push(format!(
                    "{}: {l} leaf pages, {} in the pool (line {})",
                    t.table, t.pages, t.line
                ));
            }
            _ => {
                pages += t.pages;
                lower = true;
                parts.push(format!(
                    "{}: {} pages in the pool (line {})",
                    t.table, t.pages, t.line
                ));
            }
        }
    }
    if pages == 0 {
        return Err(format!(
            "--hot-table {}: the pool holds no page of it and its size is not printed; the grouped INNODB_BUFFER_PAGE_LRU query (docs/your-server.md) prints its leaf pages",
            seen.join(", ")
        ));
    }
    let pages = pages.min(4_194_304) as u32;
    let mut words = format!("the tables you marked hot ({})", parts.join("; "));
    if lower {
        words.push_str(": the pages the pool holds, a lower bound when it has lost some (the grouped INNODB_BUFFER_PAGE_LRU query's leaf_pages gives the whole table)");
    }
    Ok(HotSet {
        pages,
        tables: seen,
        words,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_client_format_of_the_sys_view_reads_the_same() {
        let b = "object_schema\tobject_name\tallocated\tdata\tpages\tpages_hashed\tpages_old\trows_cached\nlive\thot\t1.89 MiB\t1.74 MiB\t121\t0\t0\t8202\n";
        let g = "*************************** 1. row ***************************\nobject_schema: live\n  object_name: hot\n    allocated: 1.89 MiB\n         data: 1.74 MiB\n        pages: 121\n pages_hashed: 0\n    pages_old: 0\n  rows_cached: 8202\n";
        let t = "+---------------+-------------+-----------+----------+-------+--------------+-----------+-------------+\n| object_schema | object_name | allocated | data     | pages | pages_hashed | pages_old | rows_cached |\n+---------------+-------------+-----------+----------+-------+--------------+-----------+-------------+\n| live          | hot         | 1.89 MiB  | 1.74 MiB |   121 |            0 |         0 |        8202 |\n+---------------+-------------+-----------+----------+-------+--------------+-----------+-------------+\n";
        for text in [b, g, t] {
            let r = read(text, 0).unwrap();
            assert_eq!(r.len(), 1, "{text}");
            assert_eq!(
                (r[0].table.as_str(), r[0].pages, r[0].pages_old, r[0].from),
                ("live.hot", 121, Some(0), "sys")
            );
        }
    }

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/tests/fixtures/status/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn every_client_format_of_a_real_capture_reads_the_hot_table() {
        let hot = |name: &str| {
            let r = crate::read_inputs(&[
                &fixture("mariadb-10.11-tables-status-2.txt"),
                &fixture(name),
            ])
            .unwrap();
            assert!(r.warnings.is_empty(), "{name}: {:?}", r.warnings);
            r.tables
                .into_iter()
                .find(|t| t.table == "live.hot")
                .unwrap_or_else(|| panic!("{name}: no live.hot"))
        };
        // The sys view: the same rows in \G, boxed and -B (one query's output each).
        for f in ["sys-G", "sys-table", "sys-B"] {
            let t = hot(&format!("mariadb-10.11-tables-{f}.txt"));
            assert_eq!(t.from, "sys", "{f}");
            assert!(t.pages > 0 && t.pages <= 4056, "{f}: {t:?}");
            assert!(t.pages_old.is_some(), "{f}");
        }
        // The grouped query: the table's 965 leaf pages, whatever the pool holds of them.
        for f in ["lru-B", "lru-table"] {
            let t = hot(&format!("mariadb-10.11-tables-{f}.txt"));
            assert_eq!((t.from, t.leaf_pages), ("lru", Some(965)), "{f}");
            assert_eq!(t.pages_old, None, "{f}: MariaDB prints NULL");
        }
        let lru = read(&fixture("mariadb-10.11-tables-lru-B.txt"), 0).unwrap();
        let h = hot_set(&lru, &["live.hot".into()]).unwrap();
        assert_eq!(h.pages, 965);
    }

    #[test]
    fn mysql_80s_documented_layout_reads_with_the_innodb_system_row() {
        let r = read(&fixture("mysql-8.0-sys-by-table-G.txt"), 0).unwrap();
        let names: Vec<&str> = r.iter().map(|t| t.table.as_str()).collect();
        assert_eq!(
            names,
            [
                "shop.order_lines",
                "shop.orders",
                "shop.customers",
                "InnoDB System.SYS_TABLES"
            ]
        );
        assert_eq!(
            (r[1].pages, r[1].pages_old, r[1].line),
            (374_784, Some(1536), 16)
        );
        let h = hot_set(&r, &["shop.orders".into(), "shop.customers".into()]).unwrap();
        assert_eq!(h.pages, 374_784 + 25_792);
        assert!(h.words.contains("lower bound"), "{}", h.words);
        // Beside the status it describes: the status is read as before, the tables as well.
        let both = crate::read_inputs(&[
            &fixture("mysql-8.0-16g-8-instances.txt"),
            &fixture("mysql-8.0-sys-by-table-G.txt"),
        ])
        .unwrap();
        assert_eq!(both.count("pool_pages"), Some(1_048_448));
        assert_eq!(both.tables.len(), 4);
        assert_eq!(both.tables[0].input, 1);
        // Alone it is not enough: the pool's size is in the status.
        let e = crate::read(&fixture("mysql-8.0-sys-by-table-G.txt")).unwrap_err();
        assert!(e.message.contains("per-table residency alone"), "{e}");
    }

    #[test]
    fn a_cell_that_is_not_a_count_is_refused_with_its_line() {
        let b = "table_name\tpages\tpages_old\tleaf_pages\n`live`.`hot`\t12x\t0\t965\n";
        let (line, e) = read(b, 0).unwrap_err();
        assert_eq!(line, 2);
        assert!(e.starts_with("pages = 12x"), "{e}");
    }

    #[test]
    fn the_hot_set_is_the_leaf_pages_when_printed_else_the_resident_pages() {
        let b = "table_name\tpages\tpages_old\tleaf_pages\n`live`.`hot`\t900\t10\t965\n`live`.`big`\t3000\t1500\t15000\n`live`.`x`\t7\t0\tNULL\n";
        let r = read(b, 0).unwrap();
        let h = hot_set(&r, &["live.hot".into()]).unwrap();
        assert_eq!(h.pages, 965);
        let h = hot_set(&r, &["`live`.`x`".into(), "live.hot".into()]).unwrap();
        assert_eq!(h.pages, 972);
        assert!(h.words.contains("lower bound"), "{}", h.words);
        let e = hot_set(&r, &["live.nope".into()]).unwrap_err();
        assert!(e.contains("live.hot, live.big, live.x"), "{e}");
        assert!(hot_set(&[], &["live.hot".into()])
            .unwrap_err()
            .contains("sys.innodb_buffer_stats_by_table"));
    }
}
