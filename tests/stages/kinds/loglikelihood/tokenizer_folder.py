"""A small Hugging Face tokenizer folder made in a test: a byte-level BPE trained on a few sentences with the
`tokenizers` library (no download), saved as tokenizer.json with a tokenizer_config.json naming <s> (id 0) and </s>."""
import json
from pathlib import Path

SENTENCES = ("The cat sat on the mat. A man is sitting on a roof and he starts pulling up roofing on the roof.",
             "Question: Which technology was developed most recently?\nAnswer: cellular telephone",
             "The lady walks to a barbell and lifts the weight over her head. Élan, café, naïve: 東京 is a city.")


def make_tokenizer_folder(folder: Path, vocab_size: int = 420) -> Path:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=["<s>", "</s>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(SENTENCES, trainer)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save(str(folder / "tokenizer.json"))
    (folder / "tokenizer_config.json").write_text(json.dumps(
        {"tokenizer_class": "PreTrainedTokenizerFast", "bos_token": "<s>", "eos_token": "</s>"}))
    return folder
