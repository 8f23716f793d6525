"""Storage options from luigi.cfg [storage] (`s3_endpoint_url`, `s3_key`, `s3_secret`, any `<protocol>_<option>`);
unset, s3fs reads the standard AWS variables. They are handed to the storage layer only, never written out."""
from __future__ import annotations

import luigi.configuration

from stages.io.storage import configure_storage


def apply_storage_config() -> None:
    config = luigi.configuration.get_config()
    if not config.has_section("storage"):
        return
    options: dict[str, dict[str, str]] = {}
    for key in config.options("storage"):
        if key in config.defaults():
            continue
        protocol, _, option = key.partition("_")
        if option:
            options.setdefault(protocol, {})[option] = config.get("storage", key)
    for protocol, values in options.items():
        configure_storage(protocol, values)
