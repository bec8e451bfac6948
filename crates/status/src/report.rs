//! The JSON report of a reading, shared by `midpoint from-status --json` and the page's
//! "Your server" panel, and the page's one call: text in, report (or error) out.

use super::risk::{self, RunRow};
use super::scenario::{scenario, Inputs, Scenario};
use super::Reading;
use serde_json::{json, Map, Value as Json};

/// The JSON object: `read`, `lines`, `sources`, `assumed`, `assumed_values`, `warnings`,
/// `notes`, `snapshots`, `interval`, `scenario`, `suggested`, and with a run `result` (and
/// `runs`, `advice` with `--risk`).
pub fn to_json(r: &Reading, s: &Scenario, rows: &[RunRow], with_risk: bool) -> Json {
    to_json_fit(r, s, rows, with_risk, None)
}

/// [`to_json`] with the fit's member `fit` (see [`crate::fit::Fit`]).
pub fn to_json_fit(
    r: &Reading,
    s: &Scenario,
    rows: &[RunRow],
    with_risk: bool,
    fit: Option<&crate::fit::Fit>,
) -> Json {
    let mut o = Map::new();
    o.insert("read".into(), json!(r.read_map()));
    o.insert("lines".into(), json!(r.lines_map()));
    o.insert("sources".into(), json!(r.sources));
    o.insert(
        "assumed".into(),
        json!(s.assumed.iter().map(|a| a.name.clone()).collect::<Vec<_>>()),
    );
    o.insert("assumed_values".into(), json!(s.assumed));
    o.insert("warnings".into(), json!(r.warnings));
    let mut notes = r.notes.clone();
    notes.extend(s.notes.iter().cloned());
    o.insert("notes".into(), json!(notes));
    o.insert("snapshots".into(), json!(r.snapshots));
    if let Some(i) = &r.interval {
        o.insert("interval".into(), json!(i));
    }
    if let Some(e) = &r.exact {
        o.insert("exact".into(), json!(e));
    }
    if !r.tables.is_empty() {
        o.insert("tables".into(), json!(r.tables));
    }
    if !r.instance_pool_pages.is_empty() {
        o.insert("instance_pool_pages".into(), json!(r.instance_pool_pages));
    }
    o.insert("scenario".into(), json!(s.params));
    o.insert(
        "suggested".into(),
        json!({ "hot_pages": s.suggested_hot_pages }),
    );
    if let Some(f) = fit {
        o.insert("fit".into(), json!(f));
    }
    if let Some(base) = rows.first() {
        let (y, n) = risk::pasted_rates(r);
        let mut res = serde_json::to_value(base).unwrap_or(Json::Null);
        if let Json::Object(m) = &mut res {
            m.insert("kept_percent".into(), json!(base.kept.map(|k| k * 100.0)));
            // `leak`: the leak rate, scan pages turned young a second (= leak_pages_per_s).
            m.insert("leak".into(), json!(base.leak_pages_per_s));
            m.insert("your_youngs_per_s".into(), json!(y));
            m.insert("your_non_youngs_per_s".into(), json!(n));
        }
        o.insert("result".into(), res);
        if with_risk {
            o.insert("runs".into(), json!(rows));
            o.insert("advice".into(), json!(risk::advice_fitted(rows, fit)));
        }
    }
    Json::Object(o)
}

/// The tables the page's checkboxes marked hot: `db.t` names, one a line or comma-separated.
pub fn hot_table_names(list: &str) -> Vec<String> {
    list.split([',', '\n'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect()
}

/// The page's reading and scenario of a paste (`hot_pages` 0: not given; `hot_tables` the
/// tables marked hot, see [`hot_table_names`]), with the inputs resolved, or the message.
pub fn page_scenario_tables(
    text: &str,
    hot_pages: u32,
    hot_tables: &str,
) -> Result<(Reading, Scenario, Inputs), String> {
    let r = super::read(text).map_err(|e| e.to_string())?;
    let mut inputs = Inputs {
        hot_pages: (hot_pages > 0).then_some(hot_pages.min(4_194_304)),
        hot_tables: hot_table_names(hot_tables),
        ..Inputs::default()
    };
    inputs.resolve(&r)?;
    let s = scenario(&r, &inputs).map_err(|e| format!("the values read make no scenario: {e}"))?;
    Ok((r, s, inputs))
}

/// The page's reading and scenario of a paste (`hot_pages` 0: not given), or the message.
pub fn page_scenario(text: &str, hot_pages: u32) -> Result<(Reading, Scenario), String> {
    page_scenario_tables(text, hot_pages, "").map(|(r, s, _)| (r, s))
}

/// The page's panel: the report of a paste, with `query` (the lab's URL query for the scenario),
/// or `{"error": "..."}`. `hot_pages` 0: not given.
pub fn page_report(text: &str, hot_pages: u32) -> Json {
    page_report_tables(text, hot_pages, "")
}

/// [`page_report`] with the tables marked hot ([`hot_table_names`]).
pub fn page_report_tables(text: &str, hot_pages: u32, hot_tables: &str) -> Json {
    let (r, s, _) = match page_scenario_tables(text, hot_pages, hot_tables) {
        Ok(x) => x,
        Err(e) => return json!({ "error": e }),
    };
    let mut j = to_json(&r, &s, &[], false);
    if let Json::Object(m) = &mut j {
        m.insert(
            "query".into(),
            json!(midpoint_lab::url::to_query(&s.params)),
        );
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_gets_a_report_or_an_error() {
        let j = page_report("Buffer pool size   8191\nFree buffers 100\nDatabase pages 8000\nOld database pages 2900\n", 0);
        assert_eq!(j["read"]["pool_pages"], 8191);
        assert!(
            j["query"].as_str().unwrap().contains("pool_mb=128"),
            "{}",
            j["query"]
        );
        assert!(j["assumed"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "hot_pages"));
        // The young sublist (5,100 pages), at most half the pool.
        assert_eq!(j["scenario"]["hot_pages"], 4095);
        let e = page_report("nothing here", 0);
        assert!(e["error"]
            .as_str()
            .unwrap()
            .contains("no buffer pool section found"));
        let h = page_report("Buffer pool size   8191\n", 700);
        assert_eq!(h["scenario"]["hot_pages"], 700);
    }
}
