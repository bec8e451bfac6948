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
    let mut out = Vec::new();
    for (n, v) in names.iter().zip(values) {
        let n = n.trim().to_ascii_lowercase();
        if n.is_empty() || is_html_attribute(&n) {
            continue;
        }
        out.push(format!("{}={}", query::encode(&n), query::encode(v)));
    }
    out.join("&")
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

/// Escapes text for an HTML attribute value in double quotes.
pub fn attr(v: &str) -> String {
    v.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// View options (`ev`, `sweep_depths`, `sweep_times`) from a query string, in a fixed order,
/// dropping anything else.
fn view_pairs(view: &str) -> Vec<(String, String)> {
    let keys = ["ev", "sweep_depths", "sweep_times"];
    let mut out = Vec::new();
    for k in keys {
        if let Some(v) = view
            .trim_start_matches('?')
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .filter(|(kk, _)| *kk == k)
            .map(|(_, v)| v.to_string())
            .last()
        {
            if !v.is_empty()
                && v.bytes()
                    .all(|b| b.is_ascii_digit() || b == b',' || b == b'%')
            {
                out.push((k.to_string(), v.replace("%2C", ",")));
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
    let q = pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", query::encode(v)))
        .collect::<Vec<_>>()
        .join("&");
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
