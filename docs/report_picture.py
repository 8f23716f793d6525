"""Make docs/images/report.png: run the demo over a copy of inputs/ and photograph its report.html in headless
Chromium (`python3 docs/report_picture.py`; needs `chromium` on PATH, e.g. Debian's package)."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PICTURE = REPO / "docs" / "images" / "report.png"
WIDTH, HEIGHT = 1280, 1000


def main() -> int:
    browser = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(name)), None)
    if browser is None:
        print("report_picture: no chromium on PATH (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        shutil.copytree(REPO / "inputs", work / "inputs")
        shutil.copy(REPO / "luigi.cfg", work / "luigi.cfg")
        evalpipe = Path(sys.executable).parent / "evalpipe"
        subprocess.run([str(evalpipe), "run"], cwd=work, check=True, capture_output=True)
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--no-first-run", f"--user-data-dir={work / 'profile'}", "--hide-scrollbars",
                        "--host-resolver-rules=MAP * ~NOTFOUND", f"--window-size={WIDTH},{HEIGHT}",
                        f"--screenshot={PICTURE}", (work / "outputs" / "report.html").as_uri()],
                       check=True, capture_output=True, timeout=120)
    if not PICTURE.is_file():
        print("report_picture: chromium wrote no picture", file=sys.stderr)
        return 1
    print(f"report_picture: wrote {PICTURE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
