"""People's labels, and how far the judge and the automatic metrics agree with them: rating scales, the annotation
sheet (written for raters, read back, their edits carried over), raters' labels files, agreement statistics (κ, α,
correlations) and preferences between two answers."""
