"""The hostile entrants are programs the leagues of these tests run, not test modules: they
are never imported here (patcher.py patches whatever imports it, by design)."""

collect_ignore = ["attacker.py", "patcher.py", "saboteur.py"]
