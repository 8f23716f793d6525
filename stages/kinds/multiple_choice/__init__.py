"""Multiple choice: options found in questions, a letter or free text extracted from replies, accuracy."""
