"""Reading inputs: file readers, field resolution, B1/B2 loading, the id join, dataset.toml and live generation."""
