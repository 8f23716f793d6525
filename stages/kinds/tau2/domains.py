"""The domains evalpipe runs (retail, telecom, mock): each its database files, tables, toolkits and policy, looked up by
name, and a domain folder's databases read once per process."""
from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from .mock import MockTools, MockUserTools, mock_tables, mock_user_tables
from .retail import RetailTools, retail_tables
from .telecom.domain import sync_phone, telecom_policy
from .telecom.phone_tools import TelecomUserTools
from .telecom.tables import telecom_tables, telecom_user_tables
from .telecom.tools import TelecomTools
from .toolkit import Toolkit

Tables = dict[str, dict[str, Any]]


def policy_md(folder: Path) -> str:
    """The folder's policy.md ("" when there is none)."""
    policy = folder / "policy.md"
    return policy.read_text(encoding="utf-8") if policy.is_file() else ""


@dataclass(frozen=True)
class Domain:
    """A tau2 domain: how its database files (db.json and user_db.json, or their TOML) become tables, the toolkits
    over them, the tables that tell its database apart, its policy, and how the user's tools keep in step with the
    agent's after a call (`sync`, when the domain does)."""

    name: str
    tables: Callable[[dict[str, Any]], Tables]
    tools: type[Toolkit]
    marks: frozenset[str]
    user_tables: Callable[[dict[str, Any]], Tables] | None = None
    user_tools: type[Toolkit] | None = None
    files: tuple[str, str] = ("db.json", "user_db.json")
    policy: Callable[[Path], str] = policy_md
    sync: Callable[[Any, Any], None] | None = None


DOMAINS: dict[str, Domain] = {domain.name: domain for domain in (
    Domain("retail", retail_tables, RetailTools, frozenset({"products", "orders", "users"})),
    Domain("telecom", telecom_tables, TelecomTools, frozenset({"plans", "customers", "lines", "bills", "devices"}),
           telecom_user_tables, TelecomUserTools, ("db.toml", "user_db.toml"), telecom_policy, sync_phone),
    Domain("mock", mock_tables, MockTools, frozenset({"tasks", "users"}), mock_user_tables, MockUserTools))}
DATABASE_FILES = ("db.json", "db.toml")
READ_FILES = ("db.json", "user_db.json", "db.toml", "user_db.toml", "policy.md", "main_policy.md",
              "tech_support_manual.md")  # a change to any of them reads the folder again


@dataclass(frozen=True)
class DomainData:
    """One domain folder read: its domain, policy and pristine tables (never written: databases copy on write)."""

    domain: Domain
    folder: Path
    policy: str
    tables: Tables
    user_tables: Tables | None


def read_database(path: Path) -> dict[str, Any]:
    """A database file as tau2 reads it: JSON, or TOML by its suffix."""
    if path.suffix == ".toml":
        return tomllib.loads(path.read_text(encoding="utf-8"))
    return orjson.loads(path.read_bytes())


def domain_of(folder: Path, name: str = "") -> Domain:
    """The domain `name`, else the one whose tables the folder's db.json (or db.toml) holds (ValueError when none)."""
    if name:
        if name not in DOMAINS:
            raise ValueError(f"tau2 domain {name!r} is not one evalpipe runs ({', '.join(DOMAINS)})")
        return DOMAINS[name]
    db = next((folder / file for file in DATABASE_FILES if (folder / file).is_file()), None)
    if db is None:
        raise ValueError(f"{folder}: no db.json or db.toml (evalpipe runs {', '.join(DOMAINS)}; airline's db.json "
                         "is not in the shared data)")
    keys = set(read_database(db))
    for candidate in DOMAINS:
        if DOMAINS[candidate].marks == keys and DOMAINS[candidate].files[0] == db.name:
            return DOMAINS[candidate]
    raise ValueError(f"{db}: tables {sorted(keys)} are no domain evalpipe runs ({', '.join(DOMAINS)})")


def read_domain(folder: Path, name: str = "") -> DomainData:
    """The domain folder's data, read once per process while its files are unchanged."""
    folder = folder.resolve()
    return _read(folder, name, tuple(_stamp(folder / file) for file in READ_FILES))


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


@lru_cache(maxsize=8)
def _read(folder: Path, name: str, stamps: tuple) -> DomainData:
    domain = domain_of(folder, name)
    db_file, user_db_file = domain.files
    tables = domain.tables(read_database(folder / db_file))
    user_tables = None
    if domain.user_tables is not None:
        user_db = folder / user_db_file
        user_tables = domain.user_tables(read_database(user_db) if user_db.is_file() else {})
    return DomainData(domain, folder, domain.policy(folder), tables, user_tables)
