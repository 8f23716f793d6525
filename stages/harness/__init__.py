"""Other harnesses' output files (lm-eval, Inspect, OpenCompass) read as evalpipe datasets."""
