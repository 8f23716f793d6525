"""The documentation site builds without a warning, lists every page, and the README stays a front page."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import yaml
from doc_examples import DOCS, REPO

README = REPO / "README.md"


def nav_pages(entries) -> list[str]:
    pages = []
    for entry in entries:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            pages.extend(nav_pages(value) if isinstance(value, list) else [value])
    return pages


def test_mkdocs_builds_strict(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "site" / "kinds" / "qa" / "index.html").is_file()
    assert (tmp_path / "site" / "images" / "report.png").is_file()


def test_every_page_is_in_the_navigation_and_every_entry_is_a_page():
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = nav_pages(config["nav"])
    on_disk = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert sorted(listed) == on_disk


def test_the_readme_is_a_front_page():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    first = "\n".join(lines[:60])
    assert "python3 -m pip install -e . && evalpipe run" in first
    assert "python3 -m pip install -e '.[test]' && python3 -m pytest" in first
    assert "docs/images/report.png" in "\n".join(lines)


def test_the_readme_links_resolve():
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    assert targets
    for target in targets:
        assert (REPO / target).exists(), target


def test_ci_runs_the_readme_test_command():
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m pip install -q -e '.[test]' && python3 -m pytest" in ci
