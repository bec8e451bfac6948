//! `midpoint from-status` with a per-table residency (`--hot-table`), two `SHOW GLOBAL STATUS`
//! snapshots (exact figures) and, without a measured hot set, the forecast's range.

mod common;

const F: &str = common::FIXTURES;

fn run(args: &[String]) -> (i32, String, String) {
    common::midpoint(std::iter::once("from-status").chain(args.iter().map(String::as_str)))
}

fn capture(parts: &[&str]) -> Vec<String> {
    parts
        .iter()
        .map(|p| format!("{F}mariadb-10.11-tables-{p}.txt"))
        .collect()
}

fn json(args: &[String]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_table_marked_hot_pins_the_hot_set_and_yours_is_exact() {
    let mut args = capture(&[
        "status-1", "global-1", "status-2", "global-2", "vars", "lru-B",
    ]);
    args.extend(["--hot-table", "live.hot", "--run", "--json"].map(String::from));
    let j = json(&args);
    assert_eq!(j["scenario"]["hot_pages"], 965);
    let f = &j["fit"];
    assert_eq!(f["hot_pages"], 965);
    assert!(
        !f["fitted"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x == "hot_pages"),
        "{f}"
    );
    assert!(
        f["hot_set_from"].as_str().unwrap().contains("live.hot"),
        "{f}"
    );
    assert!(
        f.get("hot_pages_range").is_none(),
        "a pinned hot set has no range"
    );
    // Yours: the global status's exact deltas, not the status's printed 461 / 1000.
    let exact = j["exact"]["hit_rate"].as_f64().unwrap();
    assert_eq!(f["hit_rate"]["server"].as_f64().unwrap(), exact);
    assert_eq!(
        f["reads_per_s"]["server"],
        j["exact"]["rates"]["reads_per_s"]
    );
    assert!((f["hit_rate"]["model"].as_f64().unwrap() - exact).abs() <= 0.005);
    assert!(j["result"].get("kept_range").is_none());
    assert!(j["result"]["outcomes"]["samples"].as_u64().unwrap() > 0);
    // The old keys are all still there.
    for k in [
        "read",
        "lines",
        "sources",
        "assumed",
        "assumed_values",
        "interval",
        "scenario",
    ] {
        assert!(j.get(k).is_some(), "{k}");
    }
}

#[test]
fn the_text_says_the_hot_set_is_pinned_from_the_tables() {
    let mut args = capture(&["status-2", "sys-table"]);
    args.extend(["--hot-table", "live.hot", "--hot-table", "`live`.`big`"].map(String::from));
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("the hot set is ") && out.contains("live.hot: ") && out.contains("live.big: "),
        "{out}"
    );
    assert!(out.contains("lower bound"), "{out}");
    assert!(
        !out.contains("hot_pages = "),
        "the hot set is not assumed: {out}"
    );
}

#[test]
fn an_unknown_table_or_no_residency_exits_2_naming_them() {
    let mut args = capture(&["status-2", "lru-B"]);
    args.extend(["--hot-table", "live.nope"].map(String::from));
    let (code, _, err) = run(&args);
    assert_eq!(code, 2);
    assert!(
        err.contains("live.nope") && err.contains("live.big, live.hot"),
        "{err}"
    );
    let mut args = capture(&["status-2"]);
    args.extend(["--hot-table", "live.hot"].map(String::from));
    let (code, _, err) = run(&args);
    assert_eq!(code, 2);
    assert!(err.contains("sys.innodb_buffer_stats_by_table"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn mysql_80s_sys_view_pins_a_16_gib_pools_hot_set() {
    let args: Vec<String> = [
        format!("{F}mysql-8.0-16g-8-instances.txt"),
        format!("{F}mysql-8.0-sys-by-table-G.txt"),
        "--hot-table".into(),
        "shop.orders".into(),
        "--json".into(),
    ]
    .into();
    let j = json(&args);
    assert_eq!(j["scenario"]["hot_pages"], 374_784);
    assert_eq!(j["tables"].as_array().unwrap().len(), 4);
    assert!(
        !j["assumed"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "hot_pages"),
        "{}",
        j["assumed"]
    );
}

#[test]
fn without_a_measured_hot_set_the_forecast_is_a_range() {
    let mut args = capture(&["status-1", "global-1", "status-2", "global-2", "vars"]);
    args.extend(["--run", "--json"].map(String::from));
    let j = json(&args);
    let [lo, hi] = [0, 1].map(|i| j["fit"]["hot_pages_range"][i].as_u64().unwrap());
    assert!(lo < hi, "{lo} {hi}");
    let k = &j["result"]["kept_range"];
    assert_eq!(k["hot_pages"][0], lo);
    assert_eq!(k["hot_pages"][1], hi);
    let (a, b) = (
        k["kept"][0].as_f64().unwrap(),
        k["kept"][1].as_f64().unwrap(),
    );
    assert!(a <= b, "{k}");
    assert!(k["kept_at"].as_array().unwrap().len() >= 2, "{k}");
    let words = k["words"].as_str().unwrap();
    assert!(
        words.contains("sys.innodb_buffer_stats_by_table") && words.contains("--hot-table"),
        "{words}"
    );
}
