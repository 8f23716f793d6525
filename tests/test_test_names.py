"""Tests mirror the code in folders without __init__.py, so pytest imports each test module by its file name: two
modules of one name in different folders would stop the whole run at collection."""
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_test_module_name_is_unique():
    names = Counter(path.name for path in TESTS.rglob("*.py") if path.name != "conftest.py")
    assert [name for name, count in names.items() if count > 1] == []
