"""Text from foreign files (model names, paths, reasons) made safe for a terminal: control characters — terminal
escape codes among them — are shown escaped instead of acting on the screen."""
from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: object) -> str:
    """`text` with every control character (a newline and a tab excepted) written as a \\x, \\u escape."""
    value = str(text)
    return _CONTROL.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), value)
