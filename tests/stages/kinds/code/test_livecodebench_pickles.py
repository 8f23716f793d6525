"""LiveCodeBench's private cases from hostile pickles: every opcode that names or calls code refused by name before
anything is built, malformed streams and memory bombs refused with their reason, plain data of every protocol read."""
import base64
import copyreg
import json
import os
import pickle
import random
import zlib

import pytest

from stages.kinds.code.kind import Code
from stages.kinds.code.plain_pickle import MAX_OPCODES, NotPlainData, plain_pickle

STR = b"X\x01\x00\x00\x00a"  # BINUNICODE "a"


@pytest.mark.parametrize("data, opcode", [
    (b"\x80\x02" + STR + b")R.", "REDUCE"),  # a str "called": TypeError before, now refused by name
    (b"\x80\x02](}}tb.", "BUILD"),  # BUILD on a list: AttributeError escaped before
    (b"\x80\x02" + STR + b"}b.", "BUILD"),
    (b"(" + STR + b"o.", "OBJ"),
    (b"\x80\x02" + STR + b")\x81.", "NEWOBJ"),
    (b"\x80\x04" + STR + b")}\x92.", "NEWOBJ_EX"),
    (b"\x80\x02\x82\x01.", "EXT1"), (b"\x80\x02\x83\x01\x01.", "EXT2"), (b"\x80\x02\x84\x01\x00\x00\x00.", "EXT4")])
def test_every_opcode_that_names_or_calls_code_is_refused_by_name(data, opcode):
    with pytest.raises(NotPlainData, match=rf"\({opcode} at byte \d+\); only plain data is read"):
        plain_pickle(data)


def test_a_global_named_on_the_stack_is_refused_with_its_name():
    with pytest.raises(NotPlainData, match=r"names a global \(os\.getpid\)"):
        plain_pickle(b"\x80\x04\x8c\x02os\x8c\x06getpid\x93.")  # (then a call: refused as REDUCE)


def test_an_extension_code_another_unpickler_resolved_is_not_called():
    copyreg.add_extension("os", "getpid", 0x4242)
    try:
        ext2 = b"\x80\x02\x83\x42\x42"
        assert pickle.loads(ext2 + b".") is os.getpid  # the ordinary unpickler caches it in copyreg
        with pytest.raises(NotPlainData, match=r"EXT2 at byte 2"):
            plain_pickle(ext2 + b")R.")  # before: the cached function, called (the row read the process id)
    finally:
        copyreg.remove_extension("os", "getpid", 0x4242)


@pytest.mark.parametrize("data, says", [
    (b"\x80\x02}K\x01a.", "AttributeError"),  # APPEND to a dict
    (b"\x80\x04](K\x01\x90.", "AttributeError"),  # ADDITEMS to a list
    (b"\x80\x02" + STR + b"(K\x01e.", "AttributeError"),  # APPENDS to a str
    (b"", "truncated"), (pickle.dumps("hello" * 100)[:-10], "truncated"),
    (b"\x80\x04\x8d" + (2 ** 62).to_bytes(8, "little") + b"ab.", "truncated"),
    (b"\x80\x02h\x05.", "Memo value not found"), (b"\xff.", "no opcode"), (b"\x80\x06N.", "unsupported pickle")])
def test_a_malformed_stream_is_refused_with_its_reason(data, says):
    with pytest.raises(NotPlainData, match="not a readable pickle") as error:
        plain_pickle(data)
    assert says in str(error.value)


def test_a_stream_of_more_opcodes_than_the_bound_is_refused_before_it_is_built():
    dicts = b"\x80\x04(" + b"}" * MAX_OPCODES + b"l."  # 1 MB that built 1,000,000 dicts (64 MB); a 1 GiB field, 72 GB
    with pytest.raises(NotPlainData, match="more than 1,000,000 opcodes"):
        plain_pickle(dicts)
    nested = b"\x80\x02" + b"]" * (MAX_OPCODES // 2 + 1) + b"a" * (MAX_OPCODES // 2) + b"."
    with pytest.raises(NotPlainData, match="opcodes"):
        plain_pickle(nested)


@pytest.mark.parametrize("data", [
    b"\x80\x02Nr(\x94\x8c(.",  # LONG_BINPUT 680,037,416: 9 bytes that took 10 GB and 80 s (the memo grown, zeroed)
    b"\x80\x02Nr\xff\xff\xff\xff.", b"Np999999999\n.", b"Np 999999999\n.", b"Np+99999999999\n.", b"Np1_000_000\n."])
def test_a_memo_index_past_the_bound_is_refused_before_the_memo_grows(data):
    with pytest.raises(NotPlainData, match="memo entry"):
        plain_pickle(data)
    assert plain_pickle(b"Np999999\n.") is None and plain_pickle(b"\x80\x02Nr\x3f\x42\x0f\x00.") is None


@pytest.mark.parametrize("protocol", range(6))
def test_plain_data_of_every_protocol_is_read(protocol):
    value = {"cases": '[{"input": "1 2\\n", "output": "3\\n"}]', "ñ→😀": [1, -2, 2 ** 70, 2.5, None, True, False],
             "t": (1, ("x",)), "nested": [[[]]] * 3, "lengths": ["x" * 200, "y" * 70_000, -(2 ** 2000), 1e300]}
    assert plain_pickle(pickle.dumps(value, protocol=protocol)) == value


def test_random_and_mutated_bytes_are_read_or_refused_never_raising_anything_else():
    rng = random.Random(80)
    seed = pickle.dumps({"a": [1, "b", (2.5, None)]}, protocol=2)
    for _ in range(3000):
        data = bytearray(seed)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        for candidate in (bytes(data), bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))):
            try:
                plain_pickle(candidate)
            except NotPlainData:
                pass


def test_b1_sets_a_row_with_a_hostile_pickle_aside_with_its_line(tmp_path):
    def row(number: int, private: bytes) -> dict:
        return {"question_id": f"q{number}", "question_content": "Print A+B.", "platform": "atcoder",
                "difficulty": "easy", "contest_date": "2024-09-01T00:00:00", "starter_code": "", "metadata": "{}",
                "public_test_cases": json.dumps([{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}]),
                "private_test_cases": base64.b64encode(zlib.compress(private)).decode()}
    good = pickle.dumps(json.dumps([{"input": "2 2\n", "output": "4\n", "testtype": "stdin"}]))
    rows = [row(1, good), row(2, b"\x80\x02](}}tb."), row(3, b"\x80\x02}K\x01a."), row(4, b"\x80\x04(" +
            b"]" * (MAX_OPCODES + 1) + b"l."), row(5, good)]
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    loaded = Code().load_gold(tmp_path / "questions.jsonl", {"question_field": "question_content"},
                              params={"task": "livecodebench", "start_date": "", "end_date": ""})
    assert [(reject.line, reject.reason.split(": ", 1)[-1][:40]) for reject in loaded.rejects] == [
        (2, "the pickle calls or names code (BUILD at"), (3, "not a readable pickle (AttributeError: '"),
        (4, "the pickle holds more than 1,000,000 opc")]
    assert loaded.counts() == {"input_rows": 5, "accepted": 2, "rejected": 3}


def test_a_global_name_is_shown_printable_and_short_in_the_reason():
    with pytest.raises(NotPlainData) as escape:
        plain_pickle(b"c\x1b[2Jos\nsystem\n.")  # a terminal escape in the module's name
    assert "'\\x1b[2Jos'.system" in str(escape.value)
    with pytest.raises(NotPlainData) as long_name:
        plain_pickle(b"\x80\x04\x8c\x02os\x8d" + (10 ** 6).to_bytes(8, "little") + b"a" * 10 ** 6 + b"\x93.")
    assert len(str(long_name.value)) < 200
