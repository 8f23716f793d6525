"""Label taxonomies for annotations (seed 001 §2.2): relationship.csv, sentiment.csv, the action-taxonomy markdown,
and the count of predicted labels that fall outside them."""
from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...core.errors import UsageError
from ...io.dataset_files import TAXONOMY_MAX_BYTES, dataset_file
from .document import ACTION_FIELDS, events_of, is_empty, label_set, normalize_label

POLARITIES = {"positive": "positive", "negative": "negative", "neutral": "neutral", "正面": "positive",
              "积极": "positive", "负面": "negative", "消极": "negative", "中性": "neutral"}
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.+)$")
_LABEL_END = re.compile(r"\s*(?:[:：]|\s[—–-]\s|（|\().*$")


def _csv_rows(path: Path) -> list[dict[str, str]]:
    try:
        with path.open("r", encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.DictReader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise UsageError(f"{path}: cannot read taxonomy ({exc})") from None
    if not rows:
        raise UsageError(f"{path}: taxonomy has no rows")
    return rows


def _column(path: Path, row: dict[str, str], hints: tuple[str, ...], position: int | None) -> str | None:
    for name in row:
        if name and any(hint in normalize_label(name) for hint in hints):
            return name
    if position is not None and len(row) > position:
        return list(row)[position]
    if position is not None:
        raise UsageError(f"{path}: expected a column like {hints[0]!r}")
    return None


def load_relationship_taxonomy(path: Path) -> dict[str, Any]:
    """relationship.csv: level-1 and level-2 columns (named level1 / level2 or 一级 / 二级, else the first two)."""
    rows = _csv_rows(path)
    level1 = _column(path, rows[0], ("level1", "level_1", "level 1", "一级"), 0)
    level2 = _column(path, rows[0], ("level2", "level_2", "level 2", "二级"), 1)
    tree: dict[str, list[str]] = {}
    for row in rows:
        if not is_empty(row.get(level1)):
            children = tree.setdefault(normalize_label(row[level1]), [])
            if not is_empty(row.get(level2)) and normalize_label(row[level2]) not in children:
                children.append(normalize_label(row[level2]))
    return {"relationship_level1": sorted(tree), "relationship_level2": tree}


def load_sentiment_taxonomy(path: Path) -> dict[str, Any]:
    """sentiment.csv: a label column (sentiment / label / 情感) and optionally a polarity column (polarity / 极性)."""
    rows = _csv_rows(path)
    label = _column(path, rows[0], ("sentiment", "label", "情感", "标签"), 0)
    polarity = _column(path, rows[0], ("polarity", "极性"), None)
    labels, polarities = [], {}
    for row in rows:
        if is_empty(row.get(label)):
            continue
        name = normalize_label(row[label])
        labels.append(name)
        if polarity and not is_empty(row.get(polarity)):
            polarities[name] = POLARITIES.get(normalize_label(row[polarity]), normalize_label(row[polarity]))
    return {"sentiment": sorted(set(labels)), "sentiment_polarity": polarities}


def _bullet_label(text: str) -> str:
    return normalize_label(_LABEL_END.sub("", text.replace("`", "").replace("**", "")))


def load_action_taxonomy(path: Path) -> dict[str, Any]:
    """The action-taxonomy markdown: under a 'Categories' heading, each sub-heading is a category and its bullets
    are types; a heading named context / status / function lists that field's labels as bullets."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read taxonomy ({exc})") from None
    types: dict[str, list[str]] = {}
    fields: dict[str, list[str]] = {name: [] for name in ("context", "status", "function")}
    section, section_level, category = None, 0, None
    for line in lines:
        heading = _HEADING.match(line)
        if heading:
            level, title = len(heading.group(1)), _bullet_label(heading.group(2))
            if title in fields or "categor" in title:
                section, section_level, category = title, level, None
            elif section and "categor" in section and level > section_level:
                category = title
                types.setdefault(category, [])
            elif level <= section_level:
                section, category = None, None
            continue
        bullet = _BULLET.match(line)
        if bullet and section in fields:
            fields[section].append(_bullet_label(bullet.group(1)))
        elif bullet and category is not None:
            types[category].append(_bullet_label(bullet.group(1)))
    if not types:
        raise UsageError(f"{path}: no categories found (expected '## Categories' with '### <category>' headings)")
    taxonomy = {"category": sorted(types), "type": types}
    taxonomy.update({name: sorted(set(labels)) for name, labels in fields.items() if labels})
    return taxonomy


TAXONOMY_LOADERS = {"relationship": load_relationship_taxonomy, "sentiment": load_sentiment_taxonomy,
                    "action": load_action_taxonomy}


def load_taxonomies(folder: Path, paths: dict[str, str]) -> dict[str, Any]:
    """Every taxonomy named in dataset.toml's [taxonomies] table (paths relative to the dataset folder), merged."""
    taxonomy: dict[str, Any] = {}
    for name, relative in sorted(paths.items()):
        if name not in TAXONOMY_LOADERS:
            raise UsageError(f"unknown taxonomy {name!r} (known: {', '.join(TAXONOMY_LOADERS)})")
        path = dataset_file(folder, relative, f"[taxonomies] {name}", str(folder / "dataset.toml"),
                            TAXONOMY_MAX_BYTES)
        taxonomy.update(TAXONOMY_LOADERS[name](path))
    return taxonomy


def _predicted_labels(document: dict[str, Any]) -> Iterator[tuple[str, str, str | None]]:
    """(field, normalized label, parent label) for every label a document predicts."""
    for event in events_of(document):
        for relation in event.get("relationships") or []:
            level1 = relation.get("relationship_level1")
            if not is_empty(level1):
                yield "relationship_level1", normalize_label(level1), None
            if not is_empty(relation.get("relationship_level2")):
                parent = None if is_empty(level1) else normalize_label(level1)
                yield "relationship_level2", normalize_label(relation["relationship_level2"]), parent
            for label in label_set(relation.get("sentiment")):
                yield "sentiment", label, None
        action = event.get("action_layer") or {}
        for name in ACTION_FIELDS:
            if not is_empty(action.get(name)):
                parent = None if is_empty(action.get("category")) else normalize_label(action["category"])
                yield name, normalize_label(action[name]), parent if name == "type" else None


def _allowed(taxonomy: dict[str, Any], field: str, label: str, parent: str | None) -> bool:
    vocabulary = taxonomy[field]
    if isinstance(vocabulary, dict):
        if parent in vocabulary:
            return label in vocabulary[parent]
        return any(label in children for children in vocabulary.values())
    return label in vocabulary


def invalid_labels(document: dict[str, Any], taxonomy: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per field with a taxonomy: predicted labels, how many fall outside it, and which ones (a level-2 or type
    label must belong to its level-1 / category when that one is in the taxonomy)."""
    counts: dict[str, dict[str, Any]] = {}
    for field, label, parent in _predicted_labels(document):
        if field not in taxonomy:
            continue
        entry = counts.setdefault(field, {"predicted": 0, "invalid": 0, "labels": []})
        entry["predicted"] += 1
        if not _allowed(taxonomy, field, label, parent):
            entry["invalid"] += 1
            if label not in entry["labels"]:
                entry["labels"].append(label)
    return counts
