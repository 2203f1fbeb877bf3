"""The table server: learners and programs at tables of 2–4, the referee's game held by the server.

:mod:`rummykit.server.tables` is the core (tables, seats, tokens, clocks, messages: no web,
no database library), :mod:`rummykit.server.store` keeps every accepted action (SQLite or
PostgreSQL, through SQLAlchemy Core), :mod:`rummykit.server.web` serves them over WebSocket
and HTTP with tornado, and :mod:`rummykit.server.client` is the Python client a script or
the Table widget joins with — :mod:`rummykit.server.browser` the same in a browser page
(the JupyterLite site), both speaking the seat's side of the protocol written once in
:mod:`rummykit.server.seat`. Nothing here imports Jupyter; tornado and SQLAlchemy are
imported only by the modules that need them (``pip install "rummykit[tables]"``), and never
on a browser page's path.
"""

DEFAULT_PORT = 8765
"""The port ``rummykit tables`` listens on unless told otherwise."""

DEFAULT_DB = "rummykit-tables.db"
"""The SQLite file ``rummykit tables`` keeps its tables in unless told otherwise."""
