"""Python: run by the sandbox's own interpreter, as `__main__` for a stdin / stdout program or as the host of the
functions the tests call."""
from . import Language, register_language

EXAMPLE = "a, b = map(int, input().split())\nprint(a + b)\n"

PYTHON = register_language(Language("python", fences=("", "python", "py", "python3"), source_file="solution.py",
                                    example=EXAMPLE, python_host=True))
