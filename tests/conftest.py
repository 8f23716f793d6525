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
