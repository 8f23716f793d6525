"""The one error type that means "how evalpipe was asked to run is wrong" (config, selection, names)."""


class UsageError(ValueError):
    """A problem with how evalpipe was asked to run (config, selection, names): reported in one line, exit 2."""
