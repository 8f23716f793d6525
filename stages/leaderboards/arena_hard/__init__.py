"""Arena-Hard-Auto: two five-way-judged games per question against the baseline, fitted by Bradley–Terry."""
