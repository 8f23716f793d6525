"""Headless Chromium for tests: load a local page, return its DOM after scripts ran and its console messages; or
probe a page with a script of the test's and read back what it wrote on the body."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find_browser() -> str:
    """The browser binary; skipped when there is none, unless EVALPIPE_REQUIRE_BROWSER is set (as .ci/run does)."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("EVALPIPE_REQUIRE_BROWSER"):
        pytest.fail("no chromium on PATH (EVALPIPE_REQUIRE_BROWSER is set; .ci/run installs Debian's chromium)")
    pytest.skip("no chromium on PATH; `apt-get install chromium` to run the browser checks")


def load_page(page: Path, profile: Path, fragment: str = "", wait_ms: int = 0) -> tuple[str, list[str]]:
    """(DOM after load, console lines) of a file opened in headless Chromium with no network access (at #fragment,
    percent-encoded here, when given; with `wait_ms`, the DOM once that much virtual time has passed, so scripts and
    timers the page started have run)."""
    result = subprocess.run(
        [find_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--dump-dom",
         *([f"--virtual-time-budget={wait_ms}"] if wait_ms else []),
         page.resolve().as_uri() + (f"#{quote(fragment)}" if fragment else "")],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    return result.stdout, console


def screenshot(page: Path, picture: Path, profile: Path, size: tuple[int, int] = (1280, 2400)) -> Path:
    """A PNG of a local page as headless Chromium draws it at `size` (width, height) px, with no network access."""
    result = subprocess.run(
        [find_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         f"--user-data-dir={profile}", "--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND",
         f"--window-size={size[0]},{size[1]}", f"--screenshot={picture.resolve()}", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0 and picture.is_file(), result.stderr[-2000:]
    return picture


def probe_page(page: Path, probe: str, workdir: Path) -> tuple[dict[str, str], list[str]]:
    """`page` with `probe` (a `<script>…</script></body>`) in place of its `</body>`, opened as load_page opens it: the
    body's `data-*` attributes the probe set (as written in the DOM, entities kept), and the console lines."""
    probed = workdir / "probe.html"
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", probe), encoding="utf-8")
    dom, console = load_page(probed, workdir / "profile")
    return dict(re.findall(r'data-([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", dom).group(1))), console
