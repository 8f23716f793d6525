"""Running untrusted programs: each inside bubblewrap with resource limits and a wall-clock timeout."""
