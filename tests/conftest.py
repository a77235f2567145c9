"""Test set-up shared by every test: the tests folder on the path, Hypothesis profiles.

Profiles: ``ci`` (default, quick), ``long`` (``HYPOTHESIS_PROFILE=long``, ``make
test-long``): see docs/RELIABILITY.md for the figures; ``mutants`` (``make mutants``):
derandomized, so that every mutant meets the same examples and a score does not move from
one run to the next.
"""

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile("ci", max_examples=60, stateful_step_count=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, stateful_step_count=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("mutants", max_examples=30, stateful_step_count=30, deadline=None,
                          derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
