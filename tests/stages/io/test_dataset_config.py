import re

import pytest

from stages import UsageError, get_kind, read_dataset_config, resolve_params


def test_missing_file_means_defaults(tmp_path):
    config = read_dataset_config(tmp_path / "dataset.toml")
    assert config.kind is None and config.params == {}


def test_reads_kind_fields_and_params(tmp_path):
    path = tmp_path / "dataset.toml"
    path.write_text('kind = "qa"\nid_field = "qid"\n[params]\nmode = "cjk"\n')
    config = read_dataset_config(path)
    assert (config.kind, config.id_field, config.params) == ("qa", "qid", {"mode": "cjk"})


@pytest.mark.parametrize(
    "text, message",
    [
        ("kind = ", "not valid TOML"),
        ('kinds = "qa"', "unknown key(s) kinds"),
        ("kind = 3", "kind must be a string"),
        ("params = 3", "[params] must be a table"),
    ],
)
def test_bad_files_are_usage_errors(tmp_path, text, message):
    path = tmp_path / "dataset.toml"
    path.write_text(text)
    with pytest.raises(UsageError, match=re.escape(message)):
        read_dataset_config(path)


def test_params_layering_and_validation():
    defaults = get_kind("qa").defaults
    params = resolve_params(defaults, ("luigi.cfg", {"partial_f1_threshold": "0.4"}), ("toml", {"mode": "hotpot"}))
    assert params == {"mode": "hotpot", "partial_f1_threshold": 0.4, "blank_gold": "set_aside", "shard_rows": 1_000_000}
    with pytest.raises(UsageError, match="unknown parameter 'threshold'"):
        resolve_params(defaults, ("toml", {"threshold": 1}))
    with pytest.raises(UsageError, match="must be float"):
        resolve_params(defaults, ("toml", {"partial_f1_threshold": "high"}))


def test_unknown_kind():
    with pytest.raises(UsageError, match="unknown kind 'poetry'"):
        get_kind("poetry")
