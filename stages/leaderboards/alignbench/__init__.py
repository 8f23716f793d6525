"""AlignBench: each answer rated on its dimensions against the reference, per category and in Chinese reasoning /
language."""
