"""highlight.js (BSD-3-Clause, vendored under page/highlight with its LICENSE) for report.html and compare.html: its
core and the grammars of the languages the sandbox runs, each CommonJS module wrapped to register itself, headed by
the licence, and GitHub's light theme — nothing fetched at view time."""
from __future__ import annotations

from functools import cache
from importlib.resources import files

HIGHLIGHT_VERSION = "11.12.0"  # npm's highlight.js, vendored by hand: see docs/report.md
GRAMMARS = ("python", "javascript", "cpp")  # lib/languages/<name>.js, one per language of stages/sandbox/languages


@cache
def highlight_assets() -> dict[str, str]:
    """{"script": the core as window.hljs with each grammar registered under its name, "style": the theme}."""
    folder = files("stages.report") / "page" / "highlight"

    def module(name: str) -> str:
        return ("(function () {\nvar module = {exports: {}}, exports = module.exports;\n"
                + (folder / f"{name}.js").read_text(encoding="utf-8") + "\n")

    notice = (f"/* highlight.js {HIGHLIGHT_VERSION}, embedded under its licence:\n"
              f"{(folder / 'LICENSE').read_text(encoding='utf-8')}*/\n")
    script = notice + module("core") + "window.hljs = module.exports;\n})();\n" + "".join(
        module(name) + f"window.hljs.registerLanguage({name!r}, module.exports);\n}})();\n" for name in GRAMMARS)
    return {"script": script, "style": (folder / "github.min.css").read_text(encoding="utf-8")}
