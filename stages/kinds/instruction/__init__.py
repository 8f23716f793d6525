"""Open-ended instructions with no reference needed, graded by the dataset's judge."""
