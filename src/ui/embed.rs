//! Embedding: the `<midpoint-explainer>` element's attributes read as a URL query, and the
//! snippets (an `<iframe>` and the custom element) the page offers for its current state, with
//! every parameter written out.

use super::query;
use midpoint_core::scenario::Params;
use serde::Serialize;

/// Attributes of the element that are HTML's own, not parameters: ignored.
fn is_html_attribute(name: &str) -> bool {
    matches!(
        name,
        "id" | "class"
            | "style"
            | "title"
            | "lang"
            | "dir"
            | "hidden"
            | "tabindex"
            | "slot"
            | "part"
            | "role"
            | "is"
            | "inert"
            | "translate"
            | "draggable"
            | "spellcheck"
            | "contenteditable"
            | "autofocus"
            | "nonce"
            | "exportparts"
            | "popover"
    ) || name.starts_with("aria-")
        || name.starts_with("data-")
        || name.starts_with("on")
}

/// The element's attributes (`names[i]` = `values[i]`) as a URL query string: every attribute
/// but HTML's own, names as written (the query reader accepts dashes and `innodb_` prefixes,
/// and reports unknown names and bad values with the page's usual messages).
pub fn attributes_query(names: &[String], values: &[String]) -> String {
    query::pairs_query(
        names
            .iter()
            .zip(values)
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v))
            .filter(|(n, _)| !n.is_empty() && !is_html_attribute(n)),
    )
}

/// The two ways to embed the current state.
#[derive(Clone, Debug, Serialize)]
pub struct Snippets {
    /// An `<iframe>` of the page in embed mode.
    pub iframe: String,
    /// A `<script type="module">` and a `<midpoint-explainer>` element.
    pub element: String,
    /// The full page with this state (for the embed's "open the full explainer" link).
    pub page: String,
}

/// Escapes text for an HTML attribute value in double quotes (`&`, `"`, `<`, `>`).
pub fn attr(v: &str) -> String {
    html_escape::encode_double_quoted_attribute(v).into_owned()
}

/// View options (`view`, `at`, `write_preset`, `ev`, `sweep_depths`, `sweep_times`,
/// `write_depth`, `write_pages`) from a query string, in a
/// fixed order, dropping anything else (and any value that is not a known word, or digits and
/// commas).
fn view_pairs(view: &str) -> Vec<(String, String)> {
    let given: Vec<(String, String)> =
        form_urlencoded::parse(view.trim_start_matches('?').as_bytes())
            .into_owned()
            .collect();
    let mut out = Vec::new();
    for (k, words) in [("view", &query::VIEWS[..]), ("at", &query::MOMENTS[..])] {
        if let Some((_, v)) = given.iter().rev().find(|(kk, _)| kk == k) {
            if words.contains(&v.as_str()) && !(k == "view" && v == "lab") {
                out.push((k.to_string(), v.clone()));
            }
        }
    }
    if let Some((_, v)) = given.iter().rev().find(|(kk, _)| kk == "write_preset") {
        if super::write::PAGE_PRESETS.contains(&v.as_str()) {
            out.push(("write_preset".to_string(), v.clone()));
        }
    }
    for k in [
        "ev",
        "sweep_depths",
        "sweep_times",
        "write_depth",
        "write_pages",
    ] {
        if let Some((_, v)) = given.iter().rev().find(|(kk, _)| kk == k) {
            if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit() || b == b',') {
                out.push((k.to_string(), v.clone()));
            }
        }
    }
    out
}

/// The snippets for these parameters: the preset they came from (if any) and only the
/// parameters that differ from it (or from the defaults without a preset), view options
/// (`view=…&at=…&ev=…&sweep_depths=…`), the page's URL (`…/www/index.html`) and the element's
/// script (`…/www/embed.js`). The iframe is `height` CSS px tall at any width up to 800 px: the
/// embedded figure lays itself out to the height its iframe gives it (`www/figure/sizes.js`
/// holds each figure's), so it fits without a script in the host page.
pub fn snippets(
    p: &Params,
    preset: Option<&str>,
    view: &str,
    page_url: &str,
    script_url: &str,
    height: u32,
) -> Snippets {
    let mut pairs: Vec<(String, String)> = Vec::new();
    let base = match preset
        .filter(|n| !n.is_empty())
        .and_then(|n| midpoint_core::scenario::preset(n).ok())
    {
        Some(pr) => {
            pairs.push(("preset".into(), pr.name.clone()));
            pr.params
        }
        None => Params::default(),
    };
    let base_pairs = base.to_pairs();
    pairs.extend(
        p.to_pairs()
            .into_iter()
            .filter(|kv| !base_pairs.contains(kv)),
    );
    let views = view_pairs(view);
    pairs.extend(views);
    let q = query::pairs_query(pairs.iter().map(|(k, v)| (k, v)));
    let page = format!("{page_url}?{q}");
    let sep = if q.is_empty() { "" } else { "&" };
    let iframe = format!(
        "<iframe src=\"{}\" title=\"midpoint: an interactive simulator of the InnoDB buffer pool's LRU list\" width=\"100%\" height=\"{height}\" style=\"display:block; border:0; width:100%; max-width:800px; height:{height}px\" loading=\"lazy\"></iframe>",
        attr(&format!("{page_url}?embed=1{sep}{q}"))
    );
    let attrs = pairs
        .iter()
        .map(|(k, v)| format!("  {}=\"{}\"", k.replace('_', "-"), attr(v)))
        .collect::<Vec<_>>()
        .join("\n");
    let element = format!(
        "<script type=\"module\" src=\"{}\"></script>\n<midpoint-explainer\n{attrs}>\n</midpoint-explainer>",
        attr(script_url)
    );
    Snippets {
        iframe,
        element,
        page,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_attributes_read_as_a_query() {
        let names = [
            "class",
            "lru-scan-depth",
            "preset",
            "data-x",
            "aria-label",
            "Pool_MB",
            "onclick",
        ]
        .map(String::from);
        let values = ["x", "128", "small-demo", "1", "y", "64", "alert(1)"].map(String::from);
        let q = attributes_query(&names, &values);
        assert_eq!(q, "lru-scan-depth=128&preset=small-demo&pool_mb=64");
        let parsed = query::parse(&q);
        assert_eq!(parsed.params.lru_scan_depth, 128);
        assert_eq!(parsed.params.pool_mb, 64);
        assert_eq!(parsed.preset.as_deref(), Some("small-demo"));
        assert!(parsed.messages.is_empty(), "{:?}", parsed.messages);
        // Values with `&`, `=` or spaces stay one value.
        let q = attributes_query(&["cleaner".into()], &["a&b=c d".into()]);
        assert_eq!(q, "cleaner=a%26b%3Dc+d");
    }

    #[test]
    fn snippets_write_the_preset_and_only_what_differs() {
        let mut p = midpoint_core::scenario::preset("small-demo")
            .unwrap()
            .params;
        p.lru_scan_depth = 256;
        let s = snippets(
            &p,
            Some("small-demo"),
            "ev=42&junk=<x>&sweep_depths=100%2C200&view=strip&at=watch",
            "https://e.org/www/index.html",
            "https://e.org/www/embed.js",
            520,
        );
        assert!(
            s.iframe.contains(
                "?embed=1&amp;preset=small-demo&amp;lru_scan_depth=256&amp;view=strip&amp;at=watch&amp;ev=42&amp;sweep_depths=100%2C200\""
            ),
            "{}",
            s.iframe
        );
        assert!(s.iframe.contains("height=\"520\""), "{}", s.iframe);
        assert!(s.iframe.contains("height:520px\""), "{}", s.iframe);
        assert!(!s.iframe.contains("junk") && !s.page.contains("junk"));
        assert_eq!(
            s.element,
            "<script type=\"module\" src=\"https://e.org/www/embed.js\"></script>\n<midpoint-explainer\n  preset=\"small-demo\"\n  lru-scan-depth=\"256\"\n  view=\"strip\"\n  at=\"watch\"\n  ev=\"42\"\n  sweep-depths=\"100,200\">\n</midpoint-explainer>"
        );
        // The snippet runs what it was made from.
        let back = query::parse(s.page.split_once('?').unwrap().1);
        assert_eq!(back.params, p);
        assert_eq!(back.view, "strip");
        // Without a preset: the differences from the defaults.
        let d = Params {
            old_blocks_time: 0,
            ..Params::default()
        };
        let s = snippets(&d, None, "", "https://e.org/www/index.html", "s.js", 400);
        assert_eq!(s.page, "https://e.org/www/index.html?old_blocks_time=0");
        assert!(s.iframe.contains("height=\"400\""));
    }

    #[test]
    fn snippets_escape_attributes() {
        let p = Params::default();
        // A hostile page URL cannot leave its attribute.
        let s = snippets(
            &p,
            None,
            "",
            "https://e.org/\"><script>x</script>",
            "s.js?a=1&b=\"2\"",
            520,
        );
        assert!(!s.iframe.contains("\"><script>"), "{}", s.iframe);
        assert!(
            s.iframe.contains("&quot;&gt;&lt;script&gt;"),
            "{}",
            s.iframe
        );
        assert!(
            s.element.contains("src=\"s.js?a=1&amp;b=&quot;2&quot;\""),
            "{}",
            s.element
        );
        assert_eq!(
            attr("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
    }
}
