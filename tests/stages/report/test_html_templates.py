"""The report page's templates are compiled once per user (Jinja2's bytecode cache), and a cache that cannot be used
never stops a report."""
import shutil
import tempfile

import pytest

from stages.report import html

TEMPLATES = ("report.html.j2", "sections.html.j2", "judge.html.j2", "cells.html.j2")


@pytest.fixture
def fresh_templates(monkeypatch):
    """`html.page_templates` rebuilt for the test (and again after it), the temporary folder set by the test."""
    html.page_templates.cache_clear()
    yield lambda folder: monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.undo()
    html.page_templates.cache_clear()


def test_a_second_run_loads_the_compiled_templates_without_compiling(fresh_templates, tmp_path):
    fresh_templates(tmp_path)
    first = html.page_templates()
    for name in TEMPLATES:
        first.get_template(name)
    assert len(list(tmp_path.glob("_jinja2-cache-*/__jinja2_*.cache"))) == len(TEMPLATES)
    html.page_templates.cache_clear()
    second = html.page_templates()

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")

    second.compile = no_compiling
    for name in TEMPLATES:
        assert second.get_template(name).render is not None


def test_no_cache_folder_still_renders(fresh_templates, tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    fresh_templates(not_a_folder)
    assert html._bytecode_cache() is None
    assert "<html" in html.render_html_report([], {"title": "t"})


def test_a_cache_folder_removed_under_the_run_only_costs_the_compile(fresh_templates, tmp_path):
    fresh_templates(tmp_path)
    environment = html.page_templates()
    for folder in tmp_path.glob("_jinja2-cache-*"):
        shutil.rmtree(folder)
    for name in TEMPLATES:
        environment.get_template(name)
    assert not list(tmp_path.glob("_jinja2-cache-*/*"))
