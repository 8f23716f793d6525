"""KaTeX (MIT, vendored under page/katex with its LICENSE) for report.html: its script, headed by its licence, and
its stylesheet with each font embedded as a woff2 data URI, so a page that draws LaTeX fetches nothing."""
from __future__ import annotations

import base64
import re
from functools import cache
from importlib.resources import files

KATEX_VERSION = "0.16.22"  # npm's katex, vendored by hand: see docs/report.md
_FONT_SOURCES = re.compile(r"src:url\(fonts/([\w-]+\.woff2)\) format\(\"woff2\"\)[^;}]*")


@cache
def katex_assets() -> dict[str, str]:
    """{"script": katex.min.js, "style": katex.min.css with its woff2 fonts inlined and the woff / ttf fallbacks
    left out (every browser that runs the page reads woff2)}."""
    folder = files("stages.report") / "page" / "katex"

    def inline(found: re.Match) -> str:
        font = base64.b64encode((folder / "fonts" / found.group(1)).read_bytes()).decode("ascii")
        return f'src:url(data:font/woff2;base64,{font}) format("woff2")'

    style = _FONT_SOURCES.sub(inline, (folder / "katex.min.css").read_text(encoding="utf-8"))
    notice = f"/* KaTeX {KATEX_VERSION}, embedded under its licence:\n{(folder / 'LICENSE').read_text(encoding='utf-8')}*/\n"
    return {"script": notice + (folder / "katex.min.js").read_text(encoding="utf-8"), "style": style}
