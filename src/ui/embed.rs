//! Embedding: the `<midpoint-explainer>` element's attributes read as a URL query, and the
//! snippets (an `<iframe>` and the custom element) the page offers for its current state, with
//! every parameter written out.

use super::query;
use crate::scenario::Params;
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

/// View options (`ev`, `sweep_depths`, `sweep_times`) from a query string, in a fixed order,
/// dropping anything else (and any value that is not digits and commas).
fn view_pairs(view: &str) -> Vec<(String, String)> {
    let given: Vec<(String, String)> =
        form_urlencoded::parse(view.trim_start_matches('?').as_bytes())
            .into_owned()
            .collect();
    let mut out = Vec::new();
    for k in ["ev", "sweep_depths", "sweep_times"] {
        if let Some((_, v)) = given.iter().rev().find(|(kk, _)| kk == k) {
            if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit() || b == b',') {
                out.push((k.to_string(), v.clone()));
            }
        }
    }
    out
}

/// The snippets for these parameters (every one written out), the preset they came from if
/// any, view options (`ev=…&sweep_depths=…`), the page's URL (`…/www/index.html`) and the
/// element's script (`…/www/embed.js`).
pub fn snippets(
    p: &Params,
    preset: Option<&str>,
    view: &str,
    page_url: &str,
    script_url: &str,
) -> Snippets {
    let mut pairs: Vec<(String, String)> = Vec::new();
    if let Some(name) = preset.filter(|n| !n.is_empty()) {
        pairs.push(("preset".into(), name.to_string()));
    }
    pairs.extend(p.to_pairs());
    pairs.extend(view_pairs(view));
    let q = query::pairs_query(pairs.iter().map(|(k, v)| (k, v)));
    let page = format!("{page_url}?{q}");
    let iframe = format!(
        "<iframe src=\"{}\" title=\"midpoint: an interactive simulator of the InnoDB buffer pool's LRU list\" width=\"100%\" height=\"620\" style=\"border:0; max-width:760px\" loading=\"lazy\"></iframe>",
        attr(&format!("{page_url}?embed=1&{q}"))
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
    fn snippets_write_every_parameter_and_escape_attributes() {
        let p = Params::default();
        let s = snippets(
            &p,
            Some("small-demo"),
            "ev=42&junk=<x>&sweep_depths=100%2C200",
            "https://e.org/www/index.html",
            "https://e.org/www/embed.js",
        );
        for (k, _) in p.to_pairs() {
            assert!(
                s.element
                    .contains(&format!("\n  {}=\"", k.replace('_', "-"))),
                "{k}"
            );
            assert!(s.iframe.contains(&format!("&amp;{k}=")), "{k}");
            assert!(s.page.contains(&format!("&{k}=")), "{k}");
        }
        assert!(s.iframe.contains("?embed=1&amp;preset=small-demo&amp;"));
        assert!(
            s.iframe.contains("&amp;ev=42&amp;sweep_depths=100%2C200\""),
            "{}",
            s.iframe
        );
        assert!(!s.iframe.contains("junk") && !s.page.contains("junk"));
        assert!(s.element.starts_with(
            "<script type=\"module\" src=\"https://e.org/www/embed.js\"></script>\n<midpoint-explainer\n  preset=\"small-demo\""
        ));
        // A hostile page URL cannot leave its attribute.
        let s = snippets(
            &p,
            None,
            "",
            "https://e.org/\"><script>x</script>",
            "s.js?a=1&b=\"2\"",
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
