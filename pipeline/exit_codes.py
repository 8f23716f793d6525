"""evalpipe's exit codes: 0 all done, 1 a stage failed or a dataset could not be scored or published (a model with
too many items not scored), 2 a usage error, 3 a nightly regression."""

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_REGRESSION = 0, 1, 2, 3
