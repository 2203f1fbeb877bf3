"""``python -m rummykit`` runs the command line (see :mod:`rummykit.cli`)."""

from rummykit.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
