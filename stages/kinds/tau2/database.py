"""A domain's database as tables of JSON records over a pristine base read once: a record is copied on its first
write, so a fresh database is a shallow copy per table and two databases compare by the records either touched —
by their JSON, as tau2 compares its databases' hashes (2 and 2.0 differ)."""
from __future__ import annotations

import copy
import json
from typing import Any


class Database:
    """Tables (name → {key: record}) shared with a base until written: `writable` copies one record on first use."""

    def __init__(self, base: dict[str, dict[str, Any]]) -> None:
        self._base = base
        self.tables: dict[str, dict[str, Any]] = {name: dict(table) for name, table in base.items()}
        self._owned: dict[str, set[str]] = {name: set() for name in base}

    def writable(self, table: str, key: str) -> Any:
        """The record at `key`, this database's own copy (KeyError when there is none)."""
        records = self.tables[table]
        if key not in self._owned[table]:
            records[key] = copy.deepcopy(records[key])
            self._owned[table].add(key)
        return records[key]

    def insert(self, table: str, key: str, record: Any) -> None:
        """Add or replace a record, owned by this database."""
        self.tables[table][key] = record
        self._owned[table].add(key)

    def merge(self, update: dict[str, Any]) -> None:
        """Merge `update` (table → key → fields) into the records, nested objects merged, other values replaced — as
        tau2's initialization_data updates a database."""
        for table, records in update.items():
            if not isinstance(records, dict) or table not in self.tables:
                raise ValueError(f"initialization data names no table {table!r}")
            for key, fields in records.items():
                if key in self.tables[table] and isinstance(fields, dict):
                    _merge(self.writable(table, key), fields)
                else:
                    self.insert(table, key, copy.deepcopy(fields))

    def differences(self, other: Database, limit: int = 5) -> list[str]:
        """Where two databases over the same base differ (table/key) as tau2's get_db_hash tells them apart, at most
        `limit`; [] when they are equal."""
        found: list[str] = []
        for name, mine in self.tables.items():
            theirs = other.tables.get(name, {})
            keys = (self._owned[name] | other._owned.get(name, set())) | (mine.keys() ^ theirs.keys())
            for key in sorted(keys):
                if (key in mine) != (key in theirs) or key in mine and as_hashed(mine[key]) != as_hashed(theirs[key]):
                    found.append(f"{name}/{key}")
                    if len(found) >= limit:
                        return found
        return found


def as_hashed(value: Any) -> str:
    """A record as tau2's get_db_hash dumps it before hashing: JSON, keys sorted, other values as str."""
    return json.dumps(value, sort_keys=True, default=str)


def _merge(record: dict[str, Any], fields: dict[str, Any]) -> None:
    for name, value in fields.items():
        if isinstance(value, dict) and isinstance(record.get(name), dict):
            _merge(record[name], value)
        else:
            record[name] = copy.deepcopy(value)
