"""Storage options from luigi.cfg [storage] (`s3_endpoint_url`, `s3_key`, `s3_secret`, any `<protocol>_<option>`);
unset, s3fs reads the standard AWS variables. They are handed to the storage layer only, never written out.
`retry_for` (seconds, default 120) is how long transient storage errors are asked again."""
from __future__ import annotations

import luigi.configuration

from stages.core.errors import UsageError
from stages.io.storage import configure_storage
from stages.io.storage_retries import configure_retries

RETRY_FOR = 120.0


def apply_storage_config() -> None:
    """Hand luigi.cfg's [storage] options and retry_for to the storage layer (a bad retry_for: UsageError)."""
    config = luigi.configuration.get_config()
    text = config.get("storage", "retry_for", f"{RETRY_FOR:g}")
    try:
        retry_for = float(text)
    except ValueError:
        retry_for = -1.0
    if not retry_for >= 0:
        raise UsageError(f"luigi.cfg [storage] retry_for = {text!r}: seconds, a number ≥ 0 (default {RETRY_FOR:g})")
    configure_retries(retry_for)
    if not config.has_section("storage"):
        return
    options: dict[str, dict[str, str]] = {}
    for key in config.options("storage"):
        if key in config.defaults() or key == "retry_for":
            continue
        protocol, _, option = key.partition("_")
        if option:
            options.setdefault(protocol, {})[option] = config.get("storage", key)
    for protocol, values in options.items():
        configure_storage(protocol, values)
