"""The domains evalpipe runs (retail, mock): each its database files, tables and toolkits, looked up by name, and a
domain folder's databases read once per process."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from .mock import MockTools, MockUserTools, mock_tables, mock_user_tables
from .retail import RetailTools, retail_tables
from .toolkit import Toolkit

Tables = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Domain:
    """A tau2 domain: how its db.json (and user_db.json) become tables, the toolkits over them, and the tables that
    tell its db.json apart."""

    name: str
    tables: Callable[[dict[str, Any]], Tables]
    tools: type[Toolkit]
    marks: frozenset[str]
    user_tables: Callable[[dict[str, Any]], Tables] | None = None
    user_tools: type[Toolkit] | None = None


DOMAINS: dict[str, Domain] = {domain.name: domain for domain in (
    Domain("retail", retail_tables, RetailTools, frozenset({"products", "orders", "users"})),
    Domain("mock", mock_tables, MockTools, frozenset({"tasks", "users"}), mock_user_tables, MockUserTools))}


@dataclass(frozen=True)
class DomainData:
    """One domain folder read: its domain, policy and pristine tables (never written: databases copy on write)."""

    domain: Domain
    folder: Path
    policy: str
    tables: Tables
    user_tables: Tables | None


def domain_of(folder: Path, name: str = "") -> Domain:
    """The domain `name`, else the one whose tables the folder's db.json holds (ValueError when none)."""
    if name:
        if name not in DOMAINS:
            raise ValueError(f"tau2 domain {name!r} is not one evalpipe runs ({', '.join(DOMAINS)})")
        return DOMAINS[name]
    db = folder / "db.json"
    if not db.is_file():
        raise ValueError(f"{folder}: no db.json (evalpipe runs {', '.join(DOMAINS)}; airline's db.json "
                         "is not in the shared data)")
    keys = set(orjson.loads(db.read_bytes()))
    for candidate in DOMAINS:
        if DOMAINS[candidate].marks == keys:
            return DOMAINS[candidate]
    raise ValueError(f"{db}: tables {sorted(keys)} are no domain evalpipe runs ({', '.join(DOMAINS)})")


def read_domain(folder: Path, name: str = "") -> DomainData:
    """The domain folder's data, read once per process while its files are unchanged."""
    folder = folder.resolve()
    stamps = tuple(_stamp(folder / file) for file in ("db.json", "user_db.json", "policy.md"))
    return _read(folder, name, stamps)


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


@lru_cache(maxsize=8)
def _read(folder: Path, name: str, stamps: tuple) -> DomainData:
    domain = domain_of(folder, name)
    tables = domain.tables(orjson.loads((folder / "db.json").read_bytes()))
    user_tables = None
    if domain.user_tables is not None:
        user_db = folder / "user_db.json"
        user_tables = domain.user_tables(orjson.loads(user_db.read_bytes()) if user_db.is_file() else {})
    policy = folder / "policy.md"
    return DomainData(domain, folder, policy.read_text(encoding="utf-8") if policy.is_file() else "", tables,
                      user_tables)
