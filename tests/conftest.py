import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["EVALPIPE_CACHE"] = tempfile.mkdtemp(prefix="evalpipe-cache-")  # never the user's embedding cache
REPO = Path(__file__).resolve().parent.parent
REAL_DATA = REPO.parent / "shared" / "data" / "real"


@pytest.fixture(scope="session")
def real_data() -> Path:
    if not REAL_DATA.is_dir():
        pytest.skip(f"real data not found at {REAL_DATA} (shared/ must sit beside the checkout)")
    return REAL_DATA


@pytest.fixture(scope="session")
def bwrap() -> str:
    """Debian's bubblewrap; skipped when it is not installed, unless EVALPIPE_REQUIRE_SANDBOX is set (as .ci/run
    does, after installing it)."""
    import shutil

    found = shutil.which("bwrap")
    if found is None:
        if os.environ.get("EVALPIPE_REQUIRE_SANDBOX"):
            pytest.fail("no bwrap on PATH (EVALPIPE_REQUIRE_SANDBOX is set; .ci/run installs Debian's bubblewrap)")
        pytest.skip("bubblewrap is not installed (apt-get install bubblewrap): the code kind's programs run only in it")
    return found
