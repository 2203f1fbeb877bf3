"""Agent programs that break the protocol on purpose, one way each (the first argument).

hang: says hello, then never answers · crash: writes to stderr and exits at its first
question · garbage: answers with a line that is not JSON · illegal: always discards a card
it doesn't hold · second_chance: illegal first, the first legal action after the verdict ·
error: answers with an error line · mute: never says hello · wrong_version: protocol 99 ·
rommi_only: plays Rommi only, the first legal action · loud: floods stderr, then exits ·
deaf: says hello, then never reads its input · shut: closes its output at its first
question and goes on running · segv: killed by SIGSEGV at its first question · stubborn:
ignores the end of its input and SIGTERM.

Every line the referee sends that isn't a question (its welcome, its error lines) is
written to standard error as it came, so the tests can read what the program was told.
"""

import json
import os
import signal
import sys
import time


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(mode: str) -> None:
    if mode == "mute":
        time.sleep(60)
        return
    if mode == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    variants = ["rommi"] if mode == "rommi_only" else ["hungarian", "rommi"]
    send({"type": "hello", "protocol": 99 if mode == "wrong_version" else 1,
          "name": mode, "variants": variants})  # fmt: skip
    if mode == "deaf":
        time.sleep(60)
        return
    last = bad = None
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            return
        if message["type"] in ("welcome", "error"):
            print(line.strip(), file=sys.stderr, flush=True)
            continue
        if message["type"] == "verdict":
            print("verdict: " + message["message"], file=sys.stderr, flush=True)
            if mode == "second_chance":
                send({"type": "action", "id": message["id"], "action": last})
            else:  # the same illegal action again, in its text form
                send({"type": "action", "id": message["id"], "text": f"discard {bad}"})
            continue
        ident = message["id"]
        obs = message["observation"]
        last = obs["legal_actions"][0]
        if mode == "hang":
            time.sleep(60)
        elif mode == "crash":
            print("Traceback: something went badly wrong", file=sys.stderr, flush=True)
            sys.exit(3)
        elif mode == "loud":  # megabytes of noise on stderr, then its last words, then it ends
            for _ in range(2000):
                sys.stderr.write("noise " * 1000 + "\n")
            print("my last words", file=sys.stderr, flush=True)
            sys.exit(4)
        elif mode == "shut":
            os.close(1)
            time.sleep(60)
        elif mode == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif mode == "stubborn":
            while True:
                time.sleep(1)
        elif mode == "garbage":
            print("I think I'll discard the queen", flush=True)
        elif mode == "error":
            send({"type": "error", "message": "I am out of ideas"})
        elif mode in ("illegal", "second_chance") and obs["phase"] == "play":
            held = set(obs["hand"])
            bad = next(c for c in ("2♠", "3♠", "4♠", "5♠", "6♠") if c not in held)
            send({"type": "action", "id": ident, "action": {"type": "discard", "card": bad}})
        else:
            send({"type": "action", "id": ident, "action": last})


if __name__ == "__main__":
    main(sys.argv[1])
