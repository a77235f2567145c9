"""Test set-up shared by every test: the tests folder on the path, Hypothesis profiles.

Profiles: ``ci`` (default, quick) and ``long`` (``HYPOTHESIS_PROFILE=long``, ``make
test-long``): see docs/RELIABILITY.md for the figures.
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
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
