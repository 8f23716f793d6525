"""A stdin / stdout program's stdout compared with its expected output as it arrives: only a bounded prefix and a
digest are kept, so a case's megabyte of output is never held whole."""
from __future__ import annotations

import codecs
import hashlib

ASCII_SPACE = " \t\r\x0b\x0c"  # what a judge reading bytes calls whitespace; U+3000, U+0085, \x1c–\x1f are characters


def expected_lines(text: str) -> list[str]:
    """Lines (ending at \\n only) with their trailing ASCII whitespace and the trailing blank lines removed."""
    found = [line.rstrip(ASCII_SPACE) for line in text.split("\n")]
    while found and not found[-1]:
        found.pop()
    return found


class StreamedOutput:
    """stdout fed in chunks (decoded as UTF-8 with replacement) against the expected output, line by line, with the
    same rule as comparing whole texts by `expected_lines`; keeps the first `kept` bytes and a SHA-256 digest."""

    def __init__(self, expected: str, kept: int):
        self.lines = expected_lines(expected)
        self.kept, self.prefix, self.size = kept, bytearray(), 0
        self.hash = hashlib.sha256()
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.row, self.column, self.spaces, self.wide, self.wrong = 0, 0, "", False, False

    def feed(self, data: bytes) -> None:
        self.size += len(data)
        self.hash.update(data)
        self.prefix += data[:max(0, self.kept - len(self.prefix))]
        if not self.wrong:
            self._text(self.decoder.decode(data))

    def matched(self) -> bool:
        """Whether the whole output equals the expected one (call once, when the output has ended)."""
        if not self.wrong:
            self._text(self.decoder.decode(b"", final=True))
            self._line_end()
        return not self.wrong and self.row >= len(self.lines)

    def digest(self) -> str:
        return self.hash.hexdigest()

    def _text(self, text: str) -> None:
        pieces = text.split("\n")
        for number, piece in enumerate(pieces):
            if number:
                self._line_end()
            if piece and not self.wrong:
                self._piece(piece)

    def _piece(self, piece: str) -> None:
        """Part of a line: its text up to trailing whitespace must continue the expected line; the whitespace waits
        (it counts only when more text follows it on the line)."""
        stripped = piece.rstrip(ASCII_SPACE)
        if stripped:
            want = self.lines[self.row] if self.row < len(self.lines) else ""
            text = self.spaces + stripped
            if self.wide or want[self.column:self.column + len(text)] != text:
                self.wrong = True
                return
            self.column += len(text)
            self.spaces = ""
        trailing = piece[len(stripped):]
        room = (len(self.lines[self.row]) if self.row < len(self.lines) else 0) - self.column
        if len(self.spaces) + len(trailing) > room:
            self.spaces, self.wide = "", True  # more whitespace than the line has left: only the line's end fits
        else:
            self.spaces += trailing

    def _line_end(self) -> None:
        want = len(self.lines[self.row]) if self.row < len(self.lines) else 0
        if self.column != want:
            self.wrong = True
        self.row, self.column, self.spaces, self.wide = self.row + 1, 0, "", False
