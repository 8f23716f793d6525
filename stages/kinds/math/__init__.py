"""Math answers: final answers taken from replies, compared by symbolic equivalence."""
