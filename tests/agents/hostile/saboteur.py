"""Trusted in-process agents ("process": false) that stand for a worker frozen or killed by
someone who got at it: they play inside the referee's worker, so what they do to their own
process happens to the worker. FreezeOnce stops its worker the first time it is asked (a
marker file beside it remembers), KillAlways kills its worker at every question."""

import os
import signal
from pathlib import Path

from rummykit.ai import EasyAgent

MARKER = Path(__file__).with_name("froze-once")


class FreezeOnce(EasyAgent):
    name = "freezer"

    def decide(self, obs):
        if not MARKER.exists():
            MARKER.write_text("frozen")
            os.kill(os.getpid(), signal.SIGSTOP)
        return super().decide(obs)


class KillAlways(EasyAgent):
    name = "killer"

    def decide(self, obs):
        os.kill(os.getpid(), signal.SIGKILL)


class Slow(EasyAgent):
    name = "slow"

    def decide(self, obs):
        import time

        time.sleep(0.2)
        return super().decide(obs)
