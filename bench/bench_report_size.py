"""report.html at scale: D datasets × M models × N items (default 50 × 4 × 10,000; open QA and math alternating),
each dataset's explorer chosen and built by the run's own code (choose_items, item_views, explorer_items) from
synthetic B4 columns and texts, then the page written by the code B6's summary uses (render_html_page,
write_report_page) — once within the item budget (now) and once with every item embedded (as before) —, and each
opened in headless Chromium from file:// with no network.

Prints per variant: report.html's size, the size of what is beside it, build time (render and write), the build's
peak memory, Chromium's load event and the time until a deep-linked item past the budget is on screen (taken in the
page, by performance.now()), its JS heap, and the wall time of the whole browser run.

Usage: python bench/bench_report_size.py [--datasets 50] [--models 4] [--items 10000] [--budgets 6,4]
       [--skip-before] [--keep DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stages.kinds import get_kind  # noqa: E402
from stages.report.explorer import choose_items, explorer_items, item_views  # noqa: E402
from stages.report.html import render_html_page  # noqa: E402
from stages.report.item_files import ITEM_BUDGET, ITEMS_FOLDER, write_report_page  # noqa: E402

WORDS = ("the of model answer river mountain integral prime sequence country capital population derivative "
         "function triangle probability history language chemistry physics biology number theorem").split()
PROBE = """<script>
window.addEventListener("load", function () {
  const t = performance.getEntriesByType("navigation")[0];
  document.body.dataset.benchLoad = String(Math.round(t.loadEventStart));
  document.body.dataset.benchDom = String(Math.round(t.domContentLoadedEventStart));
  document.body.dataset.benchHeap = String(performance.memory ? performance.memory.usedJSHeapSize : -1);
});
function look() {
  const row = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (!row) { if (location.hash) setTimeout(look, 5); return; }
  document.body.dataset.benchItem = String(Math.round(performance.now()));
}
look();
</script></body>"""


def text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def synthetic_report(index: int, models: list[str], items: int, rng: random.Random) -> dict:
    """One dataset's B6 report with its explorer built by the run's code from synthetic B4 columns: open QA (id,
    label, f1, best_gold) or math (id, status, reason, extracted, gold, how), replies with their reasoning."""
    kind_name = "qa" if index % 2 == 0 else "math"
    kind = get_kind(kind_name)
    ids = [f"{kind_name}{index}-{i}" for i in range(items)]
    matched, rates = {}, {}
    for m, model in enumerate(models):
        right = [rng.random() < 0.55 + 0.1 * m for _ in range(items)]
        rates[model] = sum(right) / items
        if kind_name == "qa":
            matched[model] = {"id": ids, "label": ["correct" if r else "wrong" for r in right],
                              "f1": [1.0 if r else rng.random() / 2 for r in right], "best_gold": [0] * items}
        else:
            matched[model] = {"id": ids, "status": ["correct" if r else "wrong" for r in right],
                              "reason": ["equal" if r else "different value" for r in right],
                              "extracted": [f"\\frac{{{i % 97}}}{{{m + 2}}}" for i in range(items)],
                              "gold": [f"\\frac{{{i % 97}}}{{2}}" for i in range(items)], "how": ["boxed"] * items}
    chosen, not_right = choose_items(kind, matched)
    views = {model: item_views(kind, matched[model], chosen) for model in models}
    picked = [ids[i] for i in chosen]
    questions = [f"Question {i}: " + text(rng, rng.randint(20, 120)) for i in chosen]
    golds = [[text(rng, rng.randint(1, 6))] for _ in chosen]
    predictions = {model: [f"<think>{text(rng, rng.randint(30, 200))}</think>{text(rng, rng.randint(2, 40))}"
                           for _ in chosen] for model in models}
    score_column = "f1" if kind_name == "qa" else "status"
    scores = {model: [(matched[model][score_column][i] if kind_name == "qa"
                       else float(matched[model]["status"][i] == "correct")) for i in chosen] for model in models}
    explorer = explorer_items(picked, questions, golds, predictions, views, scores, items, not_right, [])
    metrics = ({model: {"rows": items, "exact_match": rate, "f1": rate} for model, rate in rates.items()}
               if kind_name == "qa" else
               {model: {"rows": items, "accuracy": rate, "answer_rate": 0.97, "not_compared": 0, "taken": {"boxed": items}}
                for model, rate in rates.items()})
    primary = "exact_match" if kind_name == "qa" else "accuracy"
    return {"dataset": f"{kind_name}_{index:02d}", "kind": kind_name, "models": metrics, "set_aside": {},
            "comparison": {"primary_metric": primary}, "explorer": explorer}


def _rss(field: str) -> int:
    """This process's VmRSS or VmHWM (its peak), bytes."""
    status = Path("/proc/self/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", status, re.M).group(1)) * 1024


def build(reports: list[dict], folder: Path, budget: int | None) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, peak memory above the reports already in memory) to render the page and write it
    with its item files, in a forked child so that its peak is its own."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        before = _rss("VmRSS")
        started, cpu = time.perf_counter(), time.process_time()
        page = render_html_page(reports, {"title": f"bench {len(reports)} datasets"}, item_budget=budget)
        write_report_page(folder / "report.html", page)
        os.write(write, json.dumps([time.perf_counter() - started, time.process_time() - cpu,
                                    _rss("VmHWM") - before]).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        seconds, cpu, peak = json.loads(answer.read())
    os.waitpid(child, 0)
    return seconds, cpu, peak


def open_in_chromium(page: Path, profile: Path, fragment: str = "") -> tuple[dict[str, str], float]:
    """(the probe's body attributes, wall seconds of the browser run) of `page` opened from file:// offline."""
    probe = page.with_name("bench-probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE), encoding="utf-8")
    browser = next(shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome") if shutil.which(name))
    started = time.perf_counter()
    result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             "--no-first-run", f"--user-data-dir={profile}", "--host-resolver-rules=MAP * ~NOTFOUND",
                             "--enable-precise-memory-info", "--dump-dom",
                             probe.resolve().as_uri() + (f"#{quote(fragment)}" if fragment else "")],
                            capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - started
    probe.unlink()
    body = re.search(r"<body([^>]*)>", result.stdout)
    return dict(re.findall(r'data-([\w-]+)="([^"]*)"', body.group(1) if body else "")), wall


def last_item_link(reports: list[dict]) -> str:
    """A deep link to the last dataset's last explorer item (past the budget when anything is)."""
    report = reports[-1]
    return f"{report['dataset']}/{sorted(report['models'])[0]}/{report['explorer']['items'][-1]['id']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=int, default=50)
    parser.add_argument("--models", type=int, default=4)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--budgets", default=str(ITEM_BUDGET / 2**20),
                        help="item budgets to compare, MiB, comma-separated (default: the page's own)")
    parser.add_argument("--skip-before", action="store_true", help="leave out the page with every item embedded")
    parser.add_argument("--keep", type=Path, help="write the pages here (kept) instead of a temporary folder")
    args = parser.parse_args()
    rng = random.Random(81)
    models = [f"model_{chr(97 + m)}" for m in range(args.models)]
    started = time.perf_counter()
    reports = [synthetic_report(i, models, args.items, rng) for i in range(args.datasets)]
    print(f"{args.datasets} datasets × {args.models} models × {args.items:,} items: explorers built in "
          f"{time.perf_counter() - started:.1f} s ({sum(len(r['explorer']['items']) for r in reports):,} items chosen)")
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-report-"))
    link = last_item_link(reports)
    rows = []
    variants = [(f"budget {float(b):g} MiB (now)", int(float(b) * 2**20)) for b in args.budgets.split(",")]
    for name, budget in variants + ([] if args.skip_before else [("all embedded (before)", None)]):
        folder = root / (f"budget-{budget}" if budget else "embedded")
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        seconds, cpu, peak = build(reports, folder, budget)
        beside = sum(p.stat().st_size for p in (folder / ITEMS_FOLDER).glob("*.js")) if budget else 0
        files = len(list((folder / ITEMS_FOLDER).glob("*.js"))) if budget else 0
        opened, wall = open_in_chromium(folder / "report.html", root / "profile")
        linked, link_wall = open_in_chromium(folder / "report.html", root / "profile", link)
        rows.append((name, (folder / "report.html").stat().st_size, beside, files, seconds, cpu, peak, opened, wall,
                     linked, link_wall))
    print(f"\n{'variant':<24}{'report.html':>13}{'beside':>16}{'build wall/CPU':>16}{'build peak':>12}"
          f"{'DOMContentLoaded':>18}{'load':>9}{'JS heap':>10}{'deep link':>11}{'browser wall':>14}")
    for name, size, beside, files, seconds, cpu, peak, opened, wall, linked, link_wall in rows:
        print(f"{name:<24}{size / 2**20:>9.1f} MiB{beside / 2**20:>7.1f} MiB/{files:>4}{seconds:>8.2f}/{cpu:.2f} s"
              f"{peak / 2**20:>8.0f} MiB{opened.get('bench-dom', '?'):>15} ms{opened.get('bench-load', '?'):>6} ms"
              f"{int(opened.get('bench-heap', -1)) / 2**20:>6.0f} MiB{linked.get('bench-item', '?'):>8} ms"
              f"{wall:>7.2f}/{link_wall:.2f} s")
    print(f"\n(beside: item files' size / count; build peak: the build's peak RSS above the reports it was handed; deep link: #{link}, ms after navigation start until its row exists; "
          f"browser wall: plain open / deep link, Chromium's start included; process max RSS of children "
          f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB)")
    if not args.keep:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
