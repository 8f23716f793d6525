"""Text building blocks: answer normalizers, verdicts, numbers, string similarity, keywords and embeddings."""
