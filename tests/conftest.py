"""Shared test settings: hypothesis profiles (HYPOTHESIS_PROFILE=ci|dev|thorough)."""

import os

from hypothesis import settings

# The hostile entrants in agents/hostile are programs the leagues of the tests run, not test
# modules: never imported here (patcher.py patches whatever imports it, by design).
collect_ignore = [f"agents/hostile/{name}.py" for name in ("attacker", "patcher", "saboteur")]

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
