"""AlpacaEval 2: every model against the baseline by its annotator's preferences, with the length-controlled win rate."""
