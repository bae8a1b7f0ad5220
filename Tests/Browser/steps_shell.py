"""Browser steps: shell. Each takes the `Panel` and runs while signed in, after panel_test's core steps."""

from harness import *  # noqa: F403

STEPS = []
