// The classroom's printable handout (lab.html?view=handout): the lesson's key figures as still
// images (docs/handout-*.png, the presentation's close-up at three moments) and the questions
// of the teacher's guide (docs/classroom.md), without their answers; two A4 pages when
// printed, the figures on the first and the questions on the second (page.css, @media print). No simulator runs on it; main.js loads this script only for
// that address.


// The close-up's labels in the images, CSS px at capture (tests/browser/classroom-screenshots.mjs
// draws them at this size; the handout's print test checks they print at 8 pt or more).
export const HANDOUT_LABEL_PX = 22;

// The images are captured in projector mode: hot pages dotted and darker orange than the scan's
// blue is light or dark, so that a black-and-white copy still tells them apart.
const FIGURES = [
  ["handout-1-midpoint.png", "1. Midpoint insertion", "The head row (youngest pages) on top, a window of the list around LRU_old, the tail row (evicted next) and the free list. A page read from disk goes in right after LRU_old, into the old sublist (pale, struck), not at the head. Orange with a dot: the hot set; blue: the scanned table. Black rings: pages the boundary turned young."],
  ["handout-2-batch.png", "2. Just after the LRU batch", "The page cleaner's batch has freed 1,024 frames from the tail (the free list row is full), and the list is shorter, so LRU_old jumped toward the head: pink rings, hot pages turned old. No read has taken a frame yet."],
  ["handout-3-drain.png", "3. After the drain", "1,024 frames of scan reads drained the free list. Each went in after LRU_old, and the boundary slid back toward the tail over them, turning scan pages young (black rings) with no time test."],
  ["handout-4-depth128.png", "4. The same moment with innodb_lru_scan_depth = 128", "200 s into the scan, each refill freeing 128 frames instead of 1,024: about 41 pages slide per refill instead of about 600, and 95 % of the hot set is cached (26 % at this moment with 1,024)."],
];

const QUESTIONS = [
  "The pool holds 16,384 pages and the free list is empty. The page cleaner refills 1,024 frames and 1,024 scan reads drain them. About how many scan pages turn young, and why not 1,024?",
  "With innodb_lru_scan_depth = 128, how many scan pages can one refill turn young?",
  "Why does InnoDB count none of these pages in Pages made young?",
  "A 2 s pause between scan passes raised the share of the hot set kept from 41 % to 89 %. Why does a pause help when it does not change the refills?",
  "Setting innodb_old_blocks_time to 0 kept 7 %. Why is that worse than the default (1,000 ms)?",
];

/** Replaces the page's content with the handout. */
export function showHandout(doc) {
  doc.documentElement.classList.add("mp-handout-page");
  doc.title = "midpoint: the classroom handout (InnoDB buffer pool LRU)";
  const main = doc.querySelector("main");
  for (const n of doc.querySelectorAll("body > header, body > footer")) n.remove();
  const esc = (s) => s.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);
  // The images are files of the checkout's docs/, beside www/ (and beside dist/, for the single
  // file built there).
  const img = (base) => `../docs/${base}`;
  main.innerHTML = `
    <article class="handout" data-testid="handout">
      <header class="handout-head">
        <h1>How a table scan empties InnoDB's buffer pool</h1>
        <p class="handout-name">Name: <span class="handout-line"></span></p>
      </header>
      <p class="handout-intro">InnoDB keeps the pages it has read in an LRU list. A newly read page goes in at the
        <b>midpoint</b>, right after the pointer <code>LRU_old</code>, into the <b>old</b> sublist (the last
        37 % of the list, <code>innodb_old_blocks_pct</code>). A touch makes an old page <b>young</b> (moves it
        to the head) only if it comes at least <code>innodb_old_blocks_time</code> (1,000 ms) after the page's
        first access. When the free list is empty, the page cleaner's <b>LRU batch</b> evicts pages from the
        tail until the free list holds <code>innodb_lru_scan_depth</code> (1,024) frames; reads then <b>drain</b> it.</p>
      <div class="handout-figs">
      ${FIGURES.map(([f, h, cap]) => `<figure class="handout-fig"><img src="${img(f)}" alt="${esc(h)}: ${esc(cap)}"><figcaption><b>${esc(h)}.</b> ${esc(cap)}</figcaption></figure>`).join("\n      ")}
      </div>
      <section class="handout-qs">
        <h2>Questions</h2>
        <ol>
          ${QUESTIONS.map((q) => `<li><p>${esc(q)}</p><div class="handout-answer"></div></li>`).join("\n          ")}
        </ol>
      </section>
      <p class="handout-foot">midpoint, a simulator of the MySQL 8.4 InnoDB buffer pool's LRU list. The
        measurements quoted are the scan-leak experiment on MySQL 8.4.11.</p>
    </article>`;
}
