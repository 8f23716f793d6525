"""Which characters a text holds, as 64 bits: a text holds another only if its bits hold all of the other's, so a
substring search between many pairs of texts runs only where the bits allow it (a filter that never drops a match)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .arrow_strings import list_starts

if TYPE_CHECKING:
    import numpy as np

_SPREAD = 2654435761  # Knuth's multiplicative hash: code points that differ in their high bits land apart too


def character_bits(texts: list[str]) -> np.ndarray:
    """Per text, one uint64 with a bit set for each character it holds (the character's code point hashed to one of
    64 bits; 0 for an empty text)."""
    import numpy as np

    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    points = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), np.uint32)
    spread = (points * np.uint32(_SPREAD)) >> np.uint32(26)  # wraps at 32 bits: the product's top six bits
    bits = np.left_shift(np.ones(64, np.uint64), np.arange(64, dtype=np.uint64))[spread]
    found = np.zeros(len(texts), np.uint64)
    held = lengths > 0
    if held.any():
        found[held] = np.bitwise_or.reduceat(bits, list_starts(lengths)[held])
    return found


def may_hold(text_bits: np.ndarray, part_bits: np.ndarray) -> np.ndarray:
    """Where a text (its character_bits) may hold a part (its own): every bit of the part set in the text."""
    return (part_bits & ~text_bits) == 0
