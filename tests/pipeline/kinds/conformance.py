"""Each registered kind's conformance fixture (tests/<its package>/conformance/): where it is, what it expects,
whether it is there and can run here — shared by the conformance test and the tests that run every kind's fixture."""
import json
import shutil
from pathlib import Path

from stages.kinds import get_kind
from stages.kinds.base import KINDS
from tests.pipeline.workspace import REPO


def conformance_folder(kind_name: str) -> Path:
    """Where a kind's fixture is: its package's mirror under tests/, then conformance/."""
    package = type(get_kind(kind_name)).__module__.rsplit(".", 1)[0]
    return REPO / "tests" / Path(*package.split(".")) / "conformance"


def fixture_missing(kind_name: str) -> str | None:
    """Why a kind has no conformance fixture, saying where it goes; None where it has one."""
    folder = conformance_folder(kind_name)
    if (folder / "expected.json").is_file():
        return None
    return (f"kind {kind_name!r} brings no conformance fixture: add {folder.relative_to(REPO)}/ — a dataset folder "
            "(questions file or ground_truth/, predictions/<model>.jsonl, dataset.toml) with expected.json "
            "{\"models\": {model: {metric: value}}, \"why\": …} (docs/extending.md)")


def expected_of(kind_name: str) -> dict:
    """A kind's fixture's expected.json."""
    return json.loads((conformance_folder(kind_name) / "expected.json").read_text(encoding="utf-8"))


def lacking_programs(kind_name: str) -> list[str]:
    """The programs a kind's fixture needs that this machine lacks (the code kind's bwrap)."""
    return [program for program in expected_of(kind_name).get("requires_programs", []) if shutil.which(program) is None]


def runnable_kinds() -> list[str]:
    """The registered kinds whose fixture is there and can run here."""
    return [name for name in KINDS.names() if fixture_missing(name) is None and not lacking_programs(name)]
