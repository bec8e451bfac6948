//! The page's state: one owner for a widget's parameters and everything said about them. A
//! [`Page`] holds the parameters, the preset they came from, the runs per setting and the view
//! options of the address; from it come which preset and which measurement the parameters
//! match, the address, the command line, the embed snippets and the words of the captions.
//! JavaScript keeps none of this: it asks a `Page` (bound in `src/web/page.rs`) and reads its
//! [`PageView`], one value, whenever the parameters change.

use super::embed;
use super::narrate::{n, thousands};
use super::presets::{page_presets, PagePreset};
use super::query::{self, Parsed};
use midpoint_core::scenario::Params;
use midpoint_lab::run_set::{RunSetSummary, PAGE_DEFAULT_RUNS, PAGE_MAX_RUNS};
use serde::Serialize;
use std::sync::OnceLock;

/// The page's presets, built once.
pub fn presets() -> &'static [PagePreset] {
    static P: OnceLock<Vec<PagePreset>> = OnceLock::new();
    P.get_or_init(page_presets)
}

/// Whether `p` is the preset's setting, whatever its RNG seed (any seed is a run of the same
/// cell: its measurement and marks still apply).
fn same_setting(p: &Params, preset: &Params) -> bool {
    Params {
        seed: preset.seed,
        ..p.clone()
    } == *preset
}

/// The view options of the address: what the widget shows and where it starts.
#[derive(Clone, Debug, Serialize)]
pub struct ViewOpts {
    /// `lab`, `strip`, `grid`, `residency`, `sweep` or `present`.
    pub view: String,
    /// `scan`, `batch` or `watch`.
    pub at: Option<String>,
    pub embed: bool,
    pub autoplay: Option<bool>,
    pub tour: Option<u32>,
    pub ev: Option<u64>,
    pub sweep_depths: Vec<u32>,
    pub sweep_times: Vec<u32>,
    pub sweep_custom: bool,
    /// The write-path figure's settings.
    pub write: query::WriteOpts,
}

/// One widget's state.
#[derive(Clone, Debug)]
pub struct Page {
    params: Params,
    /// The preset the address named or the reader picked (it wins a tie between presets).
    named: Option<String>,
    runs: u32,
    opts: ViewOpts,
    /// Index into [`presets`] of the preset these parameters are, if any.
    matched: Option<usize>,
}

/// What the page shows of its state, read by JavaScript as one value.
#[derive(Clone, Debug, Serialize)]
pub struct PageView {
    /// Every parameter as a URL query: the runs' cache key.
    pub key: String,
    /// The preset these parameters are (its code name), if any.
    pub preset: Option<String>,
    /// The preset list's line under the menu: what the setting is, and what was measured.
    pub preset_words: String,
    /// What the published experiment measured for this setting's kept, with whose figure it
    /// is ("41 % (mean of 3 runs)"), if it measured it.
    pub measured: Option<String>,
    /// The same run on the command line.
    pub cli: String,
    /// Runs per setting, and the first run's RNG seed.
    pub runs: u32,
    pub seed: f64,
    /// "run 1" / "runs 1-5": the runs by their RNG seeds.
    pub runs_words: String,
    /// Whether the keys show the rest of the hot table and the filler table.
    pub rest_of_hot_table: bool,
    pub filler_table: bool,
    pub view: ViewOpts,
    /// The parameters the sliders, plots and figures read.
    pub lru_scan_depth: u32,
    pub old_blocks_time: u32,
    pub hot_pages: u32,
    pub warmup_s: f64,
    pub scan_s: f64,
    /// The sweep's cache key: the parameters but the two it varies, its lists and the runs.
    pub sweep_key: String,
}

/// How the widget opens.
#[derive(Clone, Debug, Serialize)]
pub struct Opening {
    /// A step of the tour (0-based), an event count, a moment, or playing.
    pub tour: Option<u32>,
    pub ev: Option<f64>,
    pub at: Option<String>,
    pub play: bool,
    /// The speed to play at (an index of the explorer's speeds), if not its own.
    pub speed: Option<u32>,
}

/// The residency plot's caption, in three parts (the kept figure is set in bold; the run's cost
/// is left out of a compact embed).
#[derive(Clone, Debug, Serialize)]
pub struct RunCaption {
    pub kept: String,
    /// The measurement beside it (or why there is none) and what kept is, over which runs.
    pub text: String,
    /// The runs' other figures: the slide, promotions, refills, lookups (the lab shows them).
    pub detail: String,
    pub cost: String,
}

/// What the first run and the ensemble cost, for the caption.
#[derive(Clone, Copy, Debug, Default, serde::Deserialize)]
pub struct RunCost {
    /// The first run: its page accesses, ms in its worker, whether it continued a snapshot.
    pub page_accesses: f64,
    pub ms: f64,
    pub reused: bool,
    /// The whole ensemble, once every run is in (0 until then), and the workers it used.
    pub ensemble_ms: f64,
    pub workers: u32,
}

/// "run 4" or "runs 1-5": the runs by their RNG seeds, as the CLI numbers them (past
/// 2^53 − 1 they wrap to 0: "runs 9007199254740990-9007199254740991 and 0-2").
pub fn runs_words(seed: u64, runs: u32) -> String {
    if runs <= 1 {
        return format!("run {seed}");
    }
    let last = midpoint_lab::ensemble::seed_of(seed, runs - 1);
    if last >= seed {
        return format!("runs {seed}-{last}");
    }
    let top = midpoint_core::scenario::schema::MAX_SAFE_INTEGER;
    let head = if seed == top {
        format!("runs {seed}")
    } else {
        format!("runs {seed}-{top}")
    };
    let tail = if last == 0 {
        "0".to_string()
    } else {
        format!("0-{last}")
    };
    format!("{head} and {tail}")
}

impl Page {
    /// The state an address's query string gives, and the messages about what it could not
    /// use as given.
    pub fn from_query(query: &str) -> (Page, Vec<String>) {
        let p = query::parse(query);
        let messages = p.messages.clone();
        (Page::from_parsed(p), messages)
    }

    fn from_parsed(p: Parsed) -> Page {
        let mut page = Page {
            params: p.params,
            named: p.preset,
            runs: p.runs,
            opts: ViewOpts {
                view: p.view,
                at: p.at,
                embed: p.embed,
                autoplay: p.autoplay,
                tour: p.tour,
                ev: p.ev,
                sweep_depths: p.sweep_depths,
                sweep_times: p.sweep_times,
                sweep_custom: p.sweep_custom,
                write: p.write,
            },
            matched: None,
        };
        page.rematch();
        page
    }

    fn rematch(&mut self) {
        let all = presets();
        let p = &self.params;
        let named = self
            .named
            .as_deref()
            .and_then(|n| all.iter().position(|x| x.name == n))
            .filter(|&i| same_setting(p, &all[i].params));
        self.matched = named
            .or_else(|| {
                all.iter()
                    .position(|x| x.main && same_setting(p, &x.params))
            })
            .or_else(|| all.iter().position(|x| same_setting(p, &x.params)));
    }

    /// The parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The view options.
    pub fn opts(&self) -> &ViewOpts {
        &self.opts
    }

    /// Runs per setting.
    pub fn runs(&self) -> u32 {
        self.runs
    }

    /// The preset these parameters are, if any.
    pub fn matched(&self) -> Option<&'static PagePreset> {
        self.matched.map(|i| &presets()[i])
    }

    /// Sets one parameter (by URL key) within the page's limits; the messages say what was
    /// used instead of a bad value.
    pub fn set(&mut self, key: &str, value: &str) -> Vec<String> {
        let mut p = self.params.clone();
        let mut messages = Vec::new();
        if let Some(m) = query::apply(&mut p, key, value) {
            messages.push(m);
        }
        let (p, notes) = query::page_limits(&p);
        messages.extend(notes);
        messages.extend(midpoint_lab::url::page_share(&p).1);
        messages.extend(p.warnings());
        self.params = p;
        self.rematch();
        messages
    }

    /// Takes a preset's parameters (false if there is no such preset).
    pub fn pick_preset(&mut self, name: &str) -> bool {
        let Some(p) = presets().iter().find(|p| p.name == name) else {
            return false;
        };
        self.params = p.params.clone();
        self.named = Some(p.name.clone());
        self.rematch();
        true
    }

    /// Takes the parameters of a query string (another figure's setting, a heat-map cell),
    /// keeping this widget's view options; returns the messages about bad values.
    pub fn apply_query(&mut self, query: &str) -> Vec<String> {
        let p = query::parse(query);
        self.params = p.params;
        self.named = p.preset;
        self.rematch();
        p.messages
    }

    /// Runs per setting, clamped to the page's range; returns the number used.
    pub fn set_runs(&mut self, runs: f64) -> u32 {
        if runs.is_finite() {
            self.runs = (runs.round() as i64).clamp(1, PAGE_MAX_RUNS as i64) as u32;
        }
        self.runs
    }

    /// The first run's RNG seed, within the page's range (a bad value keeps the seed).
    pub fn set_seed(&mut self, seed: f64) -> Vec<String> {
        if !(seed.is_finite() && seed >= 0.0) {
            return Vec::new();
        }
        let s = (seed.round() as u64).min(1_000_000_000);
        self.set("seed", &s.to_string())
    }

    /// Leaves the tour (its step no longer in the address), or goes to a step (1-based).
    pub fn set_tour(&mut self, step: Option<u32>) {
        self.opts.tour = step;
    }

    /// How the widget opens: the tour's step, the event count, the moment, or playing (a figure
    /// at 1×, the lab at its own speed); nothing plays with reduced motion.
    pub fn opening(&self, reduced_motion: bool) -> Opening {
        let o = &self.opts;
        let mut out = Opening {
            tour: None,
            ev: None,
            at: None,
            play: false,
            speed: None,
        };
        if o.view == "present" && o.tour.is_none() {
            out.tour = Some(0);
        } else if let Some(t) = o.tour {
            out.tour = Some(t.saturating_sub(1));
        } else if let Some(ev) = o.ev {
            out.ev = Some(ev as f64);
        } else if let Some(at) = &o.at {
            // Watching is motion: with reduced motion the figure opens paused at the batch.
            out.at = Some(if at == "watch" && reduced_motion {
                "batch".into()
            } else {
                at.clone()
            });
        } else if !reduced_motion && o.autoplay.unwrap_or(o.view == "lab") {
            out.play = true;
            if o.view != "lab" {
                out.speed = Some(3);
            }
        }
        out
    }

    /// The value JavaScript reads.
    pub fn view(&self) -> PageView {
        let p = &self.params;
        let m = self.matched();
        PageView {
            key: query::to_query(p),
            preset: m.map(|m| m.name.clone()),
            preset_words: self.preset_words(),
            measured: m.and_then(|m| m.seed_compare.clone()),
            cli: self.cli(),
            runs: self.runs,
            seed: p.seed as f64,
            runs_words: runs_words(p.seed, self.runs),
            rest_of_hot_table: p.hot_pages < p.hot_table_pages,
            filler_table: p.start == midpoint_core::scenario::Start::Cold,
            view: self.opts.clone(),
            lru_scan_depth: p.lru_scan_depth,
            old_blocks_time: p.old_blocks_time,
            hot_pages: p.hot_pages,
            warmup_s: p.warmup_s as f64,
            scan_s: p.scan_s as f64,
            sweep_key: self.sweep_key(),
        }
    }

    /// The line under the preset menu.
    pub fn preset_words(&self) -> String {
        match self.matched() {
            Some(p) => match &p.seed {
                Some(s) => format!(
                    "{}. Measured on the server (MySQL 8.4.11): {s} of the hot set kept.",
                    p.page_description
                ),
                None => format!("{}.", p.page_description),
            },
            None => "Custom settings: nobody measured this setting, so only the model's figures are shown. Pick a preset to compare the model with a measured cell.".into(),
        }
    }

    /// The same run on the command line: the preset (if any), the parameters that differ from
    /// it (or from the defaults), and the runs.
    pub fn cli(&self) -> String {
        let mut cmd = "midpoint run".to_string();
        let base = match self.matched() {
            Some(m) => {
                cmd.push_str(&format!(" --preset {}", m.name));
                m.params.clone()
            }
            None => query::parse("").params,
        };
        let base = base.to_pairs();
        for (k, v) in self.params.to_pairs() {
            if !base.iter().any(|(bk, bv)| *bk == k && *bv == v) {
                cmd.push_str(&format!(" --{} {v}", k.replace('_', "-")));
            }
        }
        if self.runs > 1 {
            cmd.push_str(&format!(" --runs {}", self.runs));
        }
        cmd
    }

    /// The view options of the current moment: the view, the moment it opens at (`at`, until
    /// the reader has moved: then `ev`, the event count while paused), the runs and a custom
    /// sweep. `ev` is `None` while playing or in the tour.
    fn view_pairs(&self, ev: Option<u64>, keep_at: bool) -> Vec<(String, String)> {
        let o = &self.opts;
        let mut q = Vec::new();
        if o.view != "lab" {
            q.push(("view".to_string(), o.view.clone()));
        }
        if let Some(at) = &o.at {
            if keep_at || ev.is_none() {
                q.push(("at".into(), at.clone()));
            }
        }
        if let (Some(ev), None, false) = (ev, o.tour, keep_at) {
            q.push(("ev".into(), ev.to_string()));
        }
        if self.runs != PAGE_DEFAULT_RUNS {
            q.push(("runs".into(), self.runs.to_string()));
        }
        if o.sweep_custom {
            q.push(("sweep_depths".into(), join(&o.sweep_depths)));
            q.push(("sweep_times".into(), join(&o.sweep_times)));
        }
        let w = &o.write;
        if let Some(p) = &w.preset {
            q.push(("write_preset".into(), p.clone()));
        }
        if let Some(d) = w.depth {
            q.push(("write_depth".into(), d.to_string()));
        }
        if let Some(n) = w.pages {
            q.push(("write_pages".into(), n.to_string()));
        }
        q
    }

    /// The write-path figure's settings, as its controls stand (the figure keeps them in the
    /// address and its snippets).
    pub fn set_write(&mut self, preset: &str, depth: u32, pages: u32) {
        self.opts.write = query::WriteOpts {
            preset: super::write::PAGE_PRESETS
                .contains(&preset)
                .then(|| preset.to_string()),
            depth: Some(depth.clamp(100, 16_384)),
            pages: Some(pages.clamp(1, 512)),
        };
    }

    /// The page's address (its query, without `?`): the preset, every parameter (so that a
    /// link keeps its run if the defaults change), embed mode, the tour's step and the view
    /// options. `ev` is the event count while paused (`None`: playing, or at the start);
    /// `keep_at`: the figure is still on its way to its opening moment.
    pub fn address(&self, ev: Option<u64>, keep_at: bool) -> String {
        let mut q: Vec<(String, String)> = Vec::new();
        if let Some(m) = self.matched() {
            q.push(("preset".into(), m.name.clone()));
        }
        q.extend(self.params.to_pairs());
        if self.opts.embed {
            q.push(("embed".into(), "1".into()));
        }
        if let Some(t) = self.opts.tour {
            q.push(("tour".into(), t.to_string()));
        }
        q.extend(self.view_pairs(ev, keep_at));
        query::pairs_query(q)
    }

    /// The embed snippets of figure `view` at this moment (`ev` as for [`Page::address`]),
    /// `height` px tall; the page at `page_url`, the element's module at `script_url`.
    pub fn snippets(
        &self,
        view: &str,
        ev: Option<u64>,
        keep_at: bool,
        height: u32,
        page_url: &str,
        script_url: &str,
    ) -> embed::Snippets {
        let mut pairs = self.view_pairs(ev, keep_at);
        pairs.retain(|(k, _)| k != "view");
        pairs.insert(0, ("view".into(), view.into()));
        // The write-path figure's settings are its own: other figures' snippets leave them.
        if view != "write" {
            pairs.retain(|(k, _)| !k.starts_with("write_"));
        }
        embed::snippets(
            &self.params,
            self.matched().map(|m| m.name.as_str()),
            &query::pairs_query(pairs),
            page_url,
            script_url,
            height,
        )
    }

    /// The sweep's cache key.
    pub fn sweep_key(&self) -> String {
        let p = Params {
            lru_scan_depth: 0,
            old_blocks_time: 0,
            ..self.params.clone()
        };
        format!(
            "{}|{}|{}|{}",
            query::to_query(&p),
            join(&self.opts.sweep_depths),
            join(&self.opts.sweep_times),
            self.runs
        )
    }

    /// What each point of the sweep is, for the line under it.
    pub fn sweep_note(&self, workers: u32) -> String {
        let p = &self.params;
        let total = self.opts.sweep_depths.len() * self.opts.sweep_times.len();
        let secs = thousands((p.warmup_s + p.scan_s) as f64);
        let head = if self.runs > 1 {
            format!(
                "Each point is the model's median over {} full runs of these settings ({}, {secs} simulated seconds each) with one innodb_lru_scan_depth and innodb_old_blocks_time; the bar is their range; {} runs",
                self.runs,
                runs_words(p.seed, self.runs),
                n(total as u64 * self.runs as u64)
            )
        } else {
            format!(
                "Each point is one full run of the model with these settings ({secs} simulated seconds) with one innodb_lru_scan_depth and innodb_old_blocks_time; {total} runs"
            )
        };
        format!(
            "{head} in {workers} background worker{}. The ring marks the current setting; black diamonds are the server's measurements, where it measured one.",
            if workers > 1 { "s" } else { "" }
        )
    }

    /// The residency plot's caption from the runs that have arrived (`s`), the first run's
    /// kept window, and what the runs cost.
    pub fn run_caption(&self, s: &RunSetSummary, window: [f64; 2], cost: &RunCost) -> RunCaption {
        let p = &self.params;
        let m = self.matched();
        // The plot draws a diamond for every figure the server measured in this setting
        // (seed000::residency_marks); where it published no kept figure (the 10-minute runs) the
        // caption names the diamonds it does draw rather than saying nobody measured anything.
        let marks = midpoint_lab::experiments::seed000::residency_marks(p);
        let measured = match m.and_then(|m| m.seed_compare.as_deref()) {
            Some(fig) => format!("; the server measured {fig} in this setting"),
            None if !marks.is_empty() => format!(
                "; the server published no kept figure for this setting: the diamond{} {} what it did measure, {}",
                if marks.len() > 1 { "s" } else { "" },
                if marks.len() > 1 { "are" } else { "is" },
                marks
                    .iter()
                    .map(|k| k.label.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            None => "; nobody measured this setting on a server".to_string(),
        };
        let left = s.runs.saturating_sub(s.done);
        let more = if left > 0 {
            format!(
                " {left} more run{} computing…",
                if left > 1 { "s" } else { "" }
            )
        } else {
            String::new()
        };
        let over = if s.done > 1 {
            " (the runs' medians)"
        } else {
            ""
        };
        let text = format!(
            "{measured}.{more} Kept is the hot set's mean residency over the run's last {} s ({}–{} s), {}. ",
            (window[1] - window[0]).round(),
            window[0].round(),
            window[1].round(),
            runs_words(p.seed, s.runs),
        );
        let detail = format!(
            "Scan pages turned young{over}: {:.1}/s by the slide, {:.1}/s by promotion; {} refills during the scan (mean {} pages); lookups {}/s before the scan, {}/s during it. ",
            s.slid_young_per_s,
            s.promoted_per_s,
            n(s.refills_during_scan.round().max(0.0) as u64),
            n(s.mean_refill_pages.round().max(0.0) as u64),
            n(s.lookups_per_s_warmup.round().max(0.0) as u64),
            n(s.lookups_per_s.round().max(0.0) as u64),
        );
        let took = if left == 0 && s.runs > 1 && cost.ensemble_ms > 0.0 {
            format!(
                "; the {} runs in {:.1} s in {} worker{}",
                s.runs,
                cost.ensemble_ms / 1000.0,
                cost.workers.max(1),
                if cost.workers > 1 { "s" } else { "" }
            )
        } else {
            String::new()
        };
        let cost = format!(
            "({} page accesses a run; the first computed in {:.1} s in a worker{}{took}.)",
            n(cost.page_accesses.max(0.0) as u64),
            cost.ms / 1000.0,
            if cost.reused {
                ", continuing the last run from the scan's start"
            } else {
                ""
            }
        );
        // Until every run is in, the figure is the arrived runs', said so: the setting's number
        // is the median of all of them (the same everywhere the site quotes it, ui::cells).
        let kept = if s.done < s.runs {
            format!(
                "The model kept, so far: {} in {} of {} runs",
                midpoint_lab::ensemble::kept_words(&s.kept, 1),
                s.done,
                s.runs
            )
        } else {
            format!("The model kept: {}", s.kept_words)
        };
        RunCaption {
            kept,
            text,
            detail,
            cost,
        }
    }
}

fn join(v: &[u32]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_is_matched_whatever_its_seed_and_the_named_one_wins() {
        let (mut page, msgs) = Page::from_query("preset=seed000-hot4485-b2b");
        assert!(msgs.is_empty(), "{msgs:?}");
        assert_eq!(
            page.matched().map(|m| m.name.as_str()),
            Some("seed000-hot4485-b2b")
        );
        page.set_seed(4.0);
        assert_eq!(page.params().seed, 4);
        assert_eq!(
            page.matched().map(|m| m.name.as_str()),
            Some("seed000-hot4485-b2b")
        );
        assert_eq!(
            page.cli(),
            "midpoint run --preset seed000-hot4485-b2b --seed 4 --runs 5"
        );
        page.set_runs(3.0);
        assert!(page.view().measured.unwrap().contains("41 %"));
        assert_eq!(page.view().runs_words, "runs 4-6");
        // Past 2^53 - 1 the seeds wrap to 0, as the CLI's and the workers' do.
        let top = midpoint_core::scenario::schema::MAX_SAFE_INTEGER;
        assert_eq!(runs_words(top, 1), format!("run {top}"));
        assert_eq!(runs_words(top, 2), format!("runs {top} and 0"));
        assert_eq!(runs_words(top, 5), format!("runs {top} and 0-3"));
        assert_eq!(
            runs_words(top - 1, 4),
            format!("runs {}-{top} and 0-1", top - 1)
        );
        assert_eq!(runs_words(top - 4, 5), format!("runs {}-{top}", top - 4));
        // A slider moved off every preset: custom, the differences from the defaults.
        page.set_seed(1.0);
        page.set_runs(5.0);
        assert!(page.set("lru_scan_depth", "768").is_empty());
        assert_eq!(page.matched().map(|m| &m.name), None);
        assert_eq!(page.cli(), "midpoint run --lru-scan-depth 768 --runs 5");
        assert!(page.view().preset_words.starts_with("Custom settings"));
        // Back on it: the preset again.
        page.set("lru_scan_depth", "1024");
        assert_eq!(
            page.matched().map(|m| m.name.as_str()),
            Some("seed000-hot4485-b2b")
        );
    }

    #[test]
    fn the_address_writes_the_preset_every_parameter_and_the_moment() {
        let (page, _) = Page::from_query("preset=small-demo&view=strip&at=batch&runs=2");
        let a = page.address(None, true);
        assert!(a.starts_with("preset=small-demo&"), "{a}");
        assert!(a.contains("&lru_scan_depth=128&"), "{a}");
        assert!(a.ends_with("&view=strip&at=batch&runs=2"), "{a}");
        // Paused after the reader moved: the event count, not the moment.
        let a = page.address(Some(42), false);
        assert!(a.ends_with("&view=strip&ev=42&runs=2"), "{a}");
        let back = query::parse(&a);
        assert_eq!(back.params, *page.params());
        assert_eq!(back.ev, Some(42));
        // The embed snippet of another figure of the same state.
        let s = page.snippets(
            "grid",
            Some(42),
            false,
            480,
            "https://e.org/www/index.html",
            "e.js",
        );
        assert!(s.iframe.contains("view=grid&amp;ev=42"), "{}", s.iframe);
        assert!(s.iframe.contains("height:480px"), "{}", s.iframe);
    }

    #[test]
    fn the_write_figure_keeps_its_settings_in_the_address_and_snippets() {
        let (mut page, m) = Page::from_query(
            "view=write&write_preset=seed003-rw-tuned&write_depth=256&write_pages=16",
        );
        assert!(m.is_empty(), "{m:?}");
        assert_eq!(page.view().view.view, "write");
        assert_eq!(
            page.view().view.write.preset.as_deref(),
            Some("seed003-rw-tuned")
        );
        page.set_write("seed001-16thd-dblwr16", 512, 99_999);
        let s = page.snippets(
            "write",
            None,
            false,
            640,
            "https://e.org/www/index.html",
            "e.js",
        );
        assert!(
            s.iframe.contains("view=write&amp;write_preset=seed001-16thd-dblwr16&amp;write_depth=512&amp;write_pages=512"),
            "{}",
            s.iframe
        );
        assert!(
            s.element.contains("write-preset=\"seed001-16thd-dblwr16\""),
            "{}",
            s.element
        );
        let back = query::parse(s.page.split_once('?').unwrap().1);
        assert!(back.messages.is_empty(), "{:?}", back.messages);
        assert_eq!(back.write.depth, Some(512));
        // Another figure's snippet leaves them.
        let s = page.snippets(
            "strip",
            None,
            false,
            560,
            "https://e.org/www/index.html",
            "e.js",
        );
        assert!(!s.iframe.contains("write_"), "{}", s.iframe);
        // Bad values say so and fall back.
        let (_, m) =
            Page::from_query("view=policies&write_preset=nope&write_depth=x&write_pages=0");
        assert_eq!(m.len(), 3, "{m:?}");
    }

    #[test]
    fn opening_moments_and_reduced_motion() {
        let open = |q: &str, reduced: bool| Page::from_query(q).0.opening(reduced);
        assert!(open("", false).play);
        assert!(!open("", true).play, "reduced motion: nothing plays");
        assert!(
            !open("autoplay=1&view=grid", true).play,
            "not even when asked"
        );
        let o = open("autoplay=1&view=grid", false);
        assert!(o.play && o.speed == Some(3));
        assert_eq!(open("at=watch", true).at.as_deref(), Some("batch"));
        assert_eq!(open("at=watch", false).at.as_deref(), Some("watch"));
        assert_eq!(open("view=present", false).tour, Some(0));
        assert_eq!(open("tour=3", false).tour, Some(2));
        assert_eq!(open("ev=9", false).ev, Some(9.0));
    }

    #[test]
    fn the_run_caption_says_whose_each_figure_is() {
        let (page, _) = Page::from_query("preset=seed000-hot4485-b2b");
        let nan = midpoint_core::metrics::Summary {
            n: 0,
            skipped: 0,
            mean: f64::NAN,
            min: f64::NAN,
            max: f64::NAN,
            median: f64::NAN,
        };
        let s = RunSetSummary {
            runs: 5,
            done: 5,
            kept: nan,
            kept_words: "40 % (29-51 % over 5 runs)".into(),
            slid_young_per_s: 0.0,
            promoted_per_s: 0.0,
            refills_during_scan: 0.0,
            mean_refill_pages: 0.0,
            lookups_per_s: 0.0,
            lookups_per_s_warmup: 0.0,
            scan_pages_per_s: 0.0,
        };
        let c = page.run_caption(
            &s,
            [100.0, 210.0],
            &RunCost {
                ensemble_ms: 2000.0,
                workers: 2,
                ..Default::default()
            },
        );
        assert_eq!(c.kept, "The model kept: 40 % (29-51 % over 5 runs)");
        assert!(
            c.text
                .starts_with("; the server measured 41 % (mean of 3 runs) in this setting."),
            "{}",
            c.text
        );
        assert!(
            c.text
                .contains("over the run's last 110 s (100–210 s), runs 1-5"),
            "{}",
            c.text
        );
        // While runs are still to come, the figure says it is the arrived runs' alone.
        let partial = RunSetSummary {
            done: 1,
            kept: midpoint_core::metrics::Summary::of([0.51]),
            kept_words: "51 %".into(),
            ..s.clone()
        };
        let so_far = page.run_caption(&partial, [100.0, 210.0], &RunCost::default());
        assert_eq!(so_far.kept, "The model kept, so far: 51 % in 1 of 5 runs");
        assert!(
            c.cost.contains("the 5 runs in 2.0 s in 2 workers"),
            "{}",
            c.cost
        );
        let (custom, _) = Page::from_query("old_blocks_time=7");
        let c = custom.run_caption(&s, [1.0, 2.0], &RunCost::default());
        assert!(c.text.contains("nobody measured"), "{}", c.text);
        // The 10-minute cold run: no kept figure was published, but the plot draws the server's
        // range of hot pages cached over the last 5 minutes, and the caption says what it is.
        let (ten, _) = Page::from_query("preset=seed000-cold-10min");
        let c = ten.run_caption(&s, [1.0, 2.0], &RunCost::default());
        assert!(!c.text.contains("nobody measured"), "{}", c.text);
        assert!(
            c.text.contains(
                "the diamond is what it did measure, 100-1,300 hot pages cached after 300 s."
            ),
            "{}",
            c.text
        );
    }
}
