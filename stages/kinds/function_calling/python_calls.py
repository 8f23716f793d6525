"""A prompting model's Python call text (`[f(a=1), g.h(b='x')]`) read through `ast` as bfcl-eval reads it, without
ever evaluating it: arithmetic on literals is computed by hand, anything else bfcl-eval would run fails to decode."""
from __future__ import annotations

import ast
import operator
from typing import Any

Call = dict[str, dict[str, Any]]  # {function name: {parameter: value}}

_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow, ast.BitOr: operator.or_,
              ast.BitAnd: operator.and_, ast.BitXor: operator.xor}
_LARGEST_OPERAND = 10_000  # a power or repeated text past this is refused rather than computed


class DecodeError(ValueError):
    """The reply holds no call list in the expected syntax."""


def python_calls(text: str) -> list[Call]:
    """The calls of a prompting model's reply, as bfcl-eval's default prompting decoder gives them."""
    text = text.strip("`\n ")
    text = ("" if text.startswith("[") else "[") + text + ("" if text.endswith("]") else "]")
    try:
        tree = ast.parse(text.strip().strip("'"), mode="eval").body
    except (SyntaxError, ValueError) as exc:
        raise DecodeError(f"not Python call syntax: {exc}") from None
    if isinstance(tree, ast.Call):
        return [_call(tree)]
    if not isinstance(tree, (ast.List, ast.Tuple, ast.Set)):
        raise DecodeError(f"a {type(tree).__name__} where a list of calls was expected")
    if not all(isinstance(element, ast.Call) for element in tree.elts):
        raise DecodeError("an element of the list is not a call")
    return [_call(element) for element in tree.elts]


def _call(node: ast.Call) -> Call:
    parts = []
    target: ast.AST = node.func
    while isinstance(target, ast.Attribute):
        parts.append(target.attr)
        target = target.value
    if isinstance(target, ast.Name):
        parts.append(target.id)
    return {".".join(reversed(parts)): {keyword.arg: _value(keyword.value) for keyword in node.keywords}}


def _value(node: ast.AST) -> Any:
    """A call argument's value by bfcl-eval's rules: literals, containers, names as their text, calls without
    keywords as their source, nested calls with keywords as calls."""
    if isinstance(node, ast.Constant):
        return "..." if node.value is Ellipsis else node.value
    if isinstance(node, ast.UnaryOp):
        if not isinstance(node.operand, ast.Constant):
            raise DecodeError(f"cannot read {ast.unparse(node)!r}")
        return _negated(node.operand.value)
    if isinstance(node, ast.List):
        return [_value(element) for element in node.elts]
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise DecodeError("a ** unpacking inside a dict")
        try:
            return {_value(key): _value(value) for key, value in zip(node.keys, node.values)}
        except TypeError as exc:
            raise DecodeError(f"a dict key that cannot be a key: {exc}") from None
    if isinstance(node, ast.BinOp):
        return _arithmetic(node)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return _call(node) if node.keywords else ast.unparse(node)
    if isinstance(node, ast.Tuple):
        return tuple(_value(element) for element in node.elts)
    if isinstance(node, ast.Subscript):
        return ast.unparse(node.value) + "[" + ast.unparse(node.slice) + "]"
    raise DecodeError(f"unsupported syntax {type(node).__name__}")


def _negated(value: Any) -> Any:
    """bfcl-eval reads every unary operator on a literal (`-`, `+`, `not`, `~`) as its negation."""
    try:
        return -value
    except TypeError:
        raise DecodeError(f"cannot negate {value!r}") from None


def _arithmetic(node: ast.AST) -> Any:
    """Arithmetic of number and string literals, computed (bfcl-eval evaluates it; names in it fail there too)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex, str, bytes)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _arithmetic(node.operand)
        return -operand if isinstance(node.op, ast.USub) else +operand
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _arithmetic(node.left), _arithmetic(node.right)
        if _too_large(node.op, left, right):
            raise DecodeError("a result too large to compute")
        try:
            return _OPERATORS[type(node.op)](left, right)
        except (TypeError, ZeroDivisionError, OverflowError, ValueError) as exc:
            raise DecodeError(f"cannot compute {ast.unparse(node)!r}: {exc}") from None
    raise DecodeError(f"cannot compute {ast.unparse(node)!r} without running it")


def _too_large(op: ast.operator, left: Any, right: Any) -> bool:
    """A power with a large exponent, or text repeated many times."""
    if isinstance(op, ast.Pow):
        return isinstance(right, (int, float)) and abs(right) > _LARGEST_OPERAND
    texts = isinstance(left, (str, bytes)) or isinstance(right, (str, bytes))
    return isinstance(op, ast.Mult) and texts and any(isinstance(side, int) and side > _LARGEST_OPERAND
                                                       for side in (left, right))
