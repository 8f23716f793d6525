"""tau2's `calculate` tool: an expression of numbers, + - * / and parentheses, worked out without eval and with
Python's own errors (a power too large to work out is refused)."""
from __future__ import annotations

import ast
import operator
from typing import Any

ALLOWED = frozenset("0123456789+-*/(). ")
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
MAX_EXPONENT = 10_000


def calculate(expression: str) -> str:
    """The expression's value rounded to 2 places, as text (ValueError on other characters, as tau2 says)."""
    if not all(char in ALLOWED for char in expression):
        raise ValueError("Invalid characters in expression")
    tree = compile(expression, "<string>", "eval", ast.PyCF_ONLY_AST)
    return str(round(float(_value(tree.body)), 2))


def _value(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple):
        return tuple(_value(element) for element in node.elts)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_value(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow) and isinstance(right, int | float) and abs(right) > MAX_EXPONENT:
            raise ValueError("Exponent too large")
        return _BINARY[type(node.op)](left, right)
    raise ValueError("Invalid expression")
