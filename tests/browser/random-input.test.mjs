// Random input, from a fixed seed: each view (the close-up, the pool, the residency plot, the
// sweep, the presentation and two of the article's figures) takes a few hundred random keys,
// clicks and slider moves in bursts. After each burst the figure is brought to rest (its own
// signals: data-mode, data-seeking, debug().idle) and checked: no page error, no "NaN" or
// "undefined" in its text, its counters, rings, narration and buttons agree with the state the
// explorer reports now (Widget.debug(), read from Rust), and it still answers Step and Play (a
// plot without a transport: its slider). A failure names the seed and the actions that led to
// it; MIDPOINT_RANDOM_SEED=n replays another seed.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const SEED = Number(process.env.MIDPOINT_RANDOM_SEED ?? 20251206);
const BURSTS = 4;
const PER_BURST = 40;

/** A small seeded PRNG (mulberry32): the same seed, the same actions. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The keys a reader (or a clicker) sends: the transport's, the presentation's, and a few that
// move focus or belong to nobody.
const KEYS = [" ", "ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "Shift+ArrowRight", "n", "w", "b", "e", "+", "-", "Home", "End", "PageDown", "PageUp", "Tab", "Shift+Tab", "Escape", "x"];

const VIEWS = [
  { name: "strip", url: "/www/index.html?embed=1&preset=small-demo&view=strip&autoplay=0", root: "[data-testid=midpoint-widget]" },
  { name: "grid", url: "/www/index.html?embed=1&preset=small-demo&view=grid&autoplay=0", root: "[data-testid=midpoint-widget]" },
  { name: "residency", url: "/www/index.html?embed=1&preset=small-demo&view=residency", root: "[data-testid=midpoint-widget]" },
  { name: "sweep", url: "/www/index.html?embed=1&view=sweep", root: "[data-testid=midpoint-widget]" },
  { name: "present", url: "/www/lab.html?view=present", root: "[data-testid=midpoint-widget]", viewport: { width: 1366, height: 768 } },
  { name: "article: the first figure", url: "/www/index.html", root: ".explain figure.mp-lead [data-midpoint]" },
  { name: "article: the small pool", url: "/www/index.html", root: '.explain [data-midpoint][data-query*="small-demo"]' },
];

/** What can be clicked or moved in the figure now: its enabled, visible buttons (not those that
 *  leave the figure: Embed, full screen, downloads), its sliders and selects, its canvases. */
function targets(page, sel) {
  return page.evaluate((s) => {
    const r = document.querySelector(s);
    // Keys (End, Space on the page) may have scrolled an article's figure away: back on screen.
    const rb = r.getBoundingClientRect();
    if (rb.top < 0 || rb.bottom > innerHeight) r.scrollIntoView({ block: rb.height > innerHeight ? "start" : "center", behavior: "instant" });
    const box = (e) => {
      const b = e.getBoundingClientRect();
      return b.width > 0 && b.height > 0 && b.bottom > 0 && b.top < innerHeight ? { x: b.x, y: b.y, w: b.width, h: b.height } : null;
    };
    const out = [];
    for (const b of r.querySelectorAll("button")) {
      const act = b.dataset.act ?? "";
      if (b.disabled || b.closest("dialog") || /embed|fullscreen|csv|png|dismiss/.test(act) || b.dataset.testid === "embed-button") continue;
      const bb = box(b);
      if (bb) out.push({ kind: "click", what: `button ${act || b.textContent.trim().slice(0, 20)}`, ...bb });
    }
    for (const i of r.querySelectorAll('input[type="range"]:not(:disabled)')) {
      const bb = box(i);
      if (bb) out.push({ kind: "slider", what: `slider ${i.dataset.param ?? i.dataset.testid ?? i.id}`, ...bb });
    }
    for (const c of r.querySelectorAll("select:not(:disabled)")) {
      const bb = box(c);
      if (bb) out.push({ kind: "select", what: `select ${c.dataset.ctl ?? c.id}`, ...bb, n: c.options.length });
    }
    for (const c of r.querySelectorAll("canvas")) {
      const bb = box(c);
      if (bb) out.push({ kind: "canvas", what: `canvas ${c.dataset.testid ?? c.className}`, ...bb });
    }
    return out;
  }, sel);
}

/** Brings the figure to rest: back on screen (off screen a figure draws nothing), a run playing
 *  or watching paused (a seek goes on to its moment, paused), then the widget waited for until
 *  it is paused, not seeking and idle (or only its workers busy: a sweep's points, the runs),
 *  and still so after two more animation frames. With its workers busy the frame loop keeps
 *  running: the last input's moment (a slider's reset to 0 s) is published by the frame after
 *  it, which on a loaded machine can come after the first look. */
async function settle(page, sel) {
  await page.evaluate((s) => {
    const r = document.querySelector(s);
    const rb = r.getBoundingClientRect();
    if (rb.top < 0 || rb.bottom > innerHeight) r.scrollIntoView({ block: rb.height > innerHeight ? "start" : "center", behavior: "instant" });
    document.querySelector("dialog[open]")?.close();
    // Its Play button (or, without one, Space sent to the figure) pauses it.
    window.__pause = (r) => {
      const play = r.querySelector('[data-act="play"]');
      if (play) play.click();
      else r.dispatchEvent(new KeyboardEvent("keydown", { key: " ", bubbles: true, cancelable: true }));
    };
    if (r.dataset.mode !== "paused") window.__pause(r);
    window.__atRest = (s) => {
      const r = document.querySelector(s);
      // A key's smooth scroll (End, Space on the page) may still be carrying the page away.
      const rb = r.getBoundingClientRect();
      if (rb.bottom < 0 || rb.top > innerHeight) r.scrollIntoView({ block: rb.height > innerHeight ? "start" : "center", behavior: "instant" });
      // A run paused because it went off screen plays on when back in view (the widget's
      // setVisible), which the scroll above may cause after the first pause: paused again.
      if (r.dataset.mode === "playing" || r.dataset.mode === "watching") window.__pause(r);
      const d = r.debug();
      return r.dataset.mode === "paused" && !r.dataset.seeking && (d.idle || d.workersBusy);
    };
  }, sel);
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      await page.waitForFunction((s) => window.__atRest(s), sel, { timeout: Math.max(1, deadline - Date.now()), polling: 100 });
      const still = await page.evaluate((s) => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(() => res(window.__atRest(s))))), sel);
      if (still) break;
      if (Date.now() > deadline) throw new Error("at rest, then not, until the deadline");
    }
  } catch (e) {
    // Where it stuck: the widget's published state.
    const where = await page.evaluate((s) => {
      const r = document.querySelector(s);
      const d = r.debug();
      return { data: { ...r.dataset }, mode: d.mode, busy: d.busy, idle: d.idle, workersBusy: d.workersBusy, idleMisses: d.idleMisses, t: d.t_s, narration: d.narration.slice(0, 160) };
    }, sel);
    e.message = `${e.message}\nthe figure did not come to rest: ${JSON.stringify(where)}`;
    throw e;
  }
}

/** What disagrees, in the figure at rest, with the state the explorer reports now. */
function problems(page, sel) {
  return page.evaluate((s) => {
    const r = document.querySelector(s);
    const d = r.debug();
    const fmt = new Intl.NumberFormat("en-US");
    const out = [];
    const want = (what, got, exp) => {
      if (got !== exp) out.push(`${what}: shows ${JSON.stringify(got)}, the state says ${JSON.stringify(exp)}`);
    };
    const text = r.innerText + " " + (r.closest("figure")?.querySelector(":scope > figcaption")?.innerText ?? "");
    const bad = text.match(/.{0,40}\b(NaN|undefined|Infinity)\b.{0,40}/);
    if (bad) out.push(`visible text: ${bad[0]}`);
    want("data-event", r.dataset.event, String(d.events));
    want("data-t", r.dataset.t, d.t_s.toFixed(4));
    want("data-free-len", r.dataset.freeLen, String(d.free));
    // The counters under the close-up (and the lab's).
    const k = (n) => r.querySelector(`[data-testid=counters] [data-k="${n}"]`)?.textContent;
    if (k("free") !== undefined) {
      want("counter free list", k("free"), fmt.format(d.free));
      want("counter LRU / old", k("lru"), `${fmt.format(d.lru)} / ${fmt.format(d.old)}`);
      want("counter turned old", k("demoted"), d.refills ? fmt.format(d.demoted) : "no batch yet");
      want("counter turned young since", k("young-since"), fmt.format(d.refills ? d.drain_young : d.slid_young));
    }
    // The rings: each one a state the pool holds now, no more of them than the batch's counts.
    for (const [key, n] of Object.entries(d.rings ?? {})) {
      if (n > 0 && key !== "pink hot old" && !/^black \S+ young$/.test(key)) out.push(`${n} ring(s) "${key}"`);
    }
    const pink = d.rings?.["pink hot old"] ?? 0;
    if (pink > d.demoted_hot) out.push(`${pink} pink rings, the batch demoted ${d.demoted_hot} hot pages`);
    const since = d.refills ? d.drain_young : d.slid_young;
    if (d.ringedYoung > since) out.push(`${d.ringedYoung} black rings, ${since} pages turned young since the batch`);
    // The narration: the explorer's for this moment, stamped with its time.
    const nar = r.querySelector("[data-testid=narration]");
    if (nar) {
      const shown = nar.textContent;
      const forms = [d.narration, d.narration_short].flatMap((x) => [x, x.replaceAll(" (→)", "")]);
      if (!forms.includes(shown)) out.push(`narration: shows ${JSON.stringify(shown.slice(0, 120))}, the state says ${JSON.stringify(d.narration.slice(0, 120))}`);
      const m = shown.match(/^(\d+(?:\.\d+)?) s:/);
      if (m && Math.abs(Number(m[1]) - d.t_s) > 1e-4 && !/^0 s:/.test(shown)) out.push(`narration stamped ${m[1]} s at t = ${d.t_s}`);
    }
    // The transport's buttons follow the state.
    const b = (act) => r.querySelector(`.mp-toolbar [data-act="${act}"]`);
    if (b("step")) {
      want("Step disabled", b("step").disabled, d.ended);
      want("Back disabled", b("back").disabled, !d.can_back);
      const reset = b("reset");
      if (d.ended) {
        if (!reset || reset.hidden || reset.disabled) out.push("the run is over and no Reset is offered");
      }
    }
    return out;
  }, sel);
}

/** The figure answers afterwards: Step moves it one event, Play plays and pauses (a run that is
 *  over is reset first); a plot without a transport answers its slider. */
async function answers(page, sel) {
  const root = page.locator(sel);
  const step = root.locator('.mp-toolbar [data-act="step"]');
  if ((await step.count()) === 0) {
    const slider = root.locator('input[type="range"]').first();
    const before = await slider.inputValue();
    await slider.focus();
    await page.keyboard.press(Number(before) > 0 ? "ArrowLeft" : "ArrowRight");
    await page.waitForFunction(([s, v]) => document.querySelector(s).querySelector('input[type="range"]').value !== v, [sel, before]);
    return;
  }
  const reset = async () => {
    const button = root.locator('.mp-toolbar [data-act="reset"]');
    if (await button.isVisible()) {
      await button.click();
      await page.waitForFunction((s) => document.querySelector(s).dataset.event === "0", sel);
      return;
    }
    // The presentation has no Reset: back to beat 1 (a moment of the warm-up's end) by its keys.
    while ((await root.getAttribute("data-tour")) !== "1") {
      const at = await root.getAttribute("data-tour");
      await page.keyboard.press("PageUp");
      await page.waitForFunction(([s, t]) => document.querySelector(s).dataset.tour !== t, [sel, at]);
    }
    await page.waitForFunction((s) => {
      const r = document.querySelector(s);
      return !r.dataset.seeking && r.dataset.mode === "paused" && !r.querySelector('.mp-toolbar [data-act="step"]').disabled;
    }, sel, { timeout: 60_000 });
  };
  if (await step.isDisabled()) await reset();
  const ev = await root.getAttribute("data-event");
  await step.click();
  await page.waitForFunction(([s, e]) => document.querySelector(s).dataset.event !== e && document.querySelector(s).dataset.mode === "paused", [sel, ev], { timeout: 60_000 });
  // That step may have been the run's last event.
  if (await root.locator('.mp-toolbar [data-act="play"]').isDisabled()) await reset();
  await root.locator('.mp-toolbar [data-act="play"]').click();
  await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "playing", sel);
  await root.locator('.mp-toolbar [data-act="play"]').click();
  await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "paused", sel);
}

/** One random action on the figure; returns what it was, for the log. */
async function act(page, sel, rnd) {
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const r = rnd();
  if (r < 0.4) {
    const key = pick(KEYS);
    await page.keyboard.press(key);
    return `key ${key}`;
  }
  const ts = await targets(page, sel);
  if (!ts.length) return "nothing to click";
  const t = pick(ts);
  const x = t.x + t.w * (0.1 + 0.8 * rnd());
  const y = t.y + t.h * (0.2 + 0.6 * rnd());
  if (t.kind === "slider") {
    // A click somewhere on the track, or a key on it.
    if (rnd() < 0.5) {
      await page.mouse.click(x, t.y + t.h / 2);
      return `${t.what} click at ${((x - t.x) / t.w).toFixed(2)}`;
    }
    await page.mouse.click(x, t.y + t.h / 2);
    const key = pick(["ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);
    await page.keyboard.press(key);
    return `${t.what} click at ${((x - t.x) / t.w).toFixed(2)}, key ${key}`;
  }
  if (t.kind === "select") {
    const i = Math.floor(rnd() * t.n);
    await page.evaluate(([s, what, i]) => {
      const el = [...document.querySelector(s).querySelectorAll("select")].find((c) => `select ${c.dataset.ctl ?? c.id}` === what);
      el.selectedIndex = i;
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }, [sel, t.what, i]);
    return `${t.what} option ${i}`;
  }
  await page.mouse.click(x, y);
  return `${t.what} click at (${((x - t.x) / t.w).toFixed(2)}, ${((y - t.y) / t.h).toFixed(2)})`;
}

describe("random input, from a fixed seed", () => {
  for (const [i, v] of VIEWS.entries()) {
    test(`${v.name}: ${BURSTS} bursts of ${PER_BURST} random inputs leave it consistent and answering`, async () => {
      const seed = SEED + i;
      const rnd = prng(seed);
      const { page, errors } = await openPage(shared.browser, v.url, { viewport: v.viewport ?? { width: 1280, height: 800 } });
      const log = [];
      try {
        await pageReady(page);
        await page.locator(v.root).scrollIntoViewIfNeeded();
        // Mounted: its root publishes its mode.
        await page.waitForFunction((s) => document.querySelector(s).dataset.mode !== undefined, v.root, { timeout: 20_000 });
        await settle(page, v.root);
        for (let burst = 0; burst < BURSTS; burst++) {
          for (let j = 0; j < PER_BURST; j++) log.push(await act(page, v.root, rnd));
          log.push("— rest, then check");
          await settle(page, v.root);
          assert.deepEqual(errors, [], "page errors");
          assert.deepEqual(await problems(page, v.root), [], `after burst ${burst + 1}`);
        }
        await answers(page, v.root);
        await settle(page, v.root);
        assert.deepEqual(await problems(page, v.root), [], "after Step and Play");
        assert.deepEqual(errors, [], "page errors");
      } catch (e) {
        e.message = `${e.message}\nseed ${seed} (MIDPOINT_RANDOM_SEED=${SEED}), view ${v.name}, ${log.length} actions:\n${log.map((a, n) => `  ${n + 1}. ${a}`).join("\n")}`;
        throw e;
      } finally {
        await page.close();
      }
    });
  }
});
