"""Writes lm_eval_chat_template/: a multiple_choice task run with --apply_chat_template on a reasoning model, as
lm-eval 0.4.13 writes it (evaluator.py's sample record, evaluation_tracker.py's gen_args / sanitize_list, the
results' configs and chat_template). Written here rather than by lm-eval itself: the run needs Qwen3-8B. Under a chat
template 0.4.13 puts no target delimiter before each choice; acc / acc_norm are its process_results' (np.argmax of
the sums, and of the sums over each choice text's length in characters)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent / "lm_eval_chat_template" / "qwen3"
TIME = "2026-11-28T21-04-17.552301"
TASK = "negotiationtom_belief"
TEMPLATE = "{% for message in messages %}<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>\n{% endfor %}"
DOCS = [  # question, choices, gold index, each choice's loglikelihood
    ("Alice thinks Bob wants which item most?", ["the firewood", "water", "food", "none"], 0, [-6.1, -2.4, -3.1, -2.9]),
    ("What does Bob believe Alice needs?", ["water", "the firewood", "food", "all of them"], 2, [-2.0, -4.4, -2.2, -7.9]),
    ("Which item will Alice give up first?", ["food", "water", "the firewood", "nothing"], 3, [-1.1, -1.3, -5.0, -1.2]),
    ("What does Alice believe Bob values least?", ["firewood", "water", "food", "it is unclear"], 1, [-0.9, -0.8, -1.4, -3.9]),
    ("Which item does Bob think Alice wants?", ["water", "food", "the firewood", "none"], 2, [-1.5, -1.9, -3.3, -4.0]),
]


def hash_string(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def prompt(question: str, choices: list[str]) -> str:
    options = "\n".join(f"{letter}. {choice}" for letter, choice in zip("ABCD", choices))
    return (f"<|im_start|>user\n{question}\n{options}\nAnswer with the option's text.<|im_end|>\n"
            "<|im_start|>assistant\n<think>\n\n</think>\n\n")


def main() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    lines, accs, norms = [], [], []
    for doc_id, (question, choices, gold, lls) in enumerate(DOCS):
        doc = {"question": question, "choices": choices, "label": gold}
        context = prompt(question, choices)
        lengths = np.array([float(len(choice)) for choice in choices])
        acc = 1.0 if int(np.argmax(lls)) == gold else 0.0
        acc_norm = 1.0 if int(np.argmax(np.array(lls) / lengths)) == gold else 0.0
        accs.append(acc)
        norms.append(acc_norm)
        sample = {"doc_id": doc_id, "doc": doc, "target": str(gold),
                  "arguments": {f"gen_args_{i}": {"arg_0": context, "arg_1": choice} for i, choice in enumerate(choices)},
                  "resps": [[[str(ll), "False"]] for ll in lls], "filtered_resps": [[str(ll), "False"] for ll in lls],
                  "filter": "none", "metrics": ["acc", "acc_norm"],
                  "doc_hash": hash_string(json.dumps(doc, indent=2, ensure_ascii=False)),
                  "prompt_hash": hash_string(context), "target_hash": hash_string(str(gold)),
                  "acc": acc, "acc_norm": acc_norm}
        lines.append(json.dumps(sample, ensure_ascii=False) + "\n")
    (HERE / f"samples_{TASK}_{TIME}.jsonl").write_text("".join(lines), encoding="utf-8")
    config = {"task": TASK, "dataset_path": "json", "test_split": "test", "output_type": "multiple_choice",
              "doc_to_text": "{{question}}", "doc_to_target": "{{label}}", "doc_to_choice": "{{choices}}",
              "description": "", "target_delimiter": " ", "fewshot_delimiter": "\n\n", "num_fewshot": 0,
              "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True},
                              {"metric": "acc_norm", "aggregation": "mean", "higher_is_better": True}],
              "repeats": 1, "should_decontaminate": False}
    n = len(DOCS)
    results = {"results": {TASK: {"alias": TASK, "acc,none": float(np.mean(accs)),
                                  "acc_stderr,none": float(np.std(accs, ddof=1) / np.sqrt(n)),
                                  "acc_norm,none": float(np.mean(norms)),
                                  "acc_norm_stderr,none": float(np.std(norms, ddof=1) / np.sqrt(n))}},
               "group_subtasks": {TASK: []}, "configs": {TASK: config}, "versions": {TASK: None},
               "n-shot": {TASK: 0}, "higher_is_better": {TASK: {"acc": True, "acc_norm": True}},
               "n-samples": {TASK: {"original": n, "effective": n}},
               "config": {"model": "hf", "model_args": "pretrained=Qwen/Qwen3-8B", "batch_size": 1},
               "lm_eval_version": "0.4.13", "model_source": "hf", "model_name": "Qwen/Qwen3-8B",
               "model_name_sanitized": "Qwen__Qwen3-8B", "system_instruction": None, "system_instruction_sha": None,
               "fewshot_as_multiturn": False, "chat_template": TEMPLATE, "chat_template_sha": hash_string(TEMPLATE)}
    (HERE / f"results_{TIME}.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n",
                                               encoding="utf-8")


if __name__ == "__main__":
    main()
