"""The one rule for names that become paths, and text from foreign files made safe to print."""
import pytest

from stages.core.errors import UsageError
from stages.core.names import check_name, name_problem, safe_name
from stages.core.printable import printable


@pytest.mark.parametrize("name", ["model_a", "Qwen2.5-7B-Instruct", "模型甲", "a.b-c_d", "_x", "7b"])
def test_names_that_follow_the_rule(name):
    assert name_problem(name) is None and check_name(name, "model") == name


@pytest.mark.parametrize("name", ["", "..", ".hidden", "-rf", "a/b", "..\\x", "a b", "x\x1b[31m", "a\nb",
                                  "a" * 101, "org／model"])
def test_names_that_do_not(name):
    assert name_problem(name) is not None
    with pytest.raises(UsageError, match="model"):
        check_name(name, "model", "dataset.toml")


@pytest.mark.parametrize(("foreign", "made"), [("mockllm/model", "mockllm_model"), ("../../x", "x"),
                                                ("-rf", "rf"), ("...", "unnamed"), ("hf://org/m v2", "hf_org_m_v2")])
def test_safe_name_makes_a_name_from_a_foreign_one(foreign, made):
    assert safe_name(foreign) == made and name_problem(made) is None


def test_printable_escapes_control_characters_but_keeps_text():
    assert printable("model \x1b[31mred\x1b[0m") == "model \\x1b[31mred\\x1b[0m"
    assert printable("模型\tA\nB") == "模型\tA\nB"
    assert printable("evil\u202egnp.exe") == "evil\\u202egnp.exe"
