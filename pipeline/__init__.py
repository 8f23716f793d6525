"""evalpipe's Luigi layer: one thin task per stage, fingerprints, artifact IO and the CLI."""
