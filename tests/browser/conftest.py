"""The browser tests: ``table_demo.ipynb`` (and ``table_pt`` / ``table_fi``, the table in
Portuguese and Finnish; ``a11y_widgets`` and ``a11y_path``, the accessibility test's pages)
is what Voilà serves to them, not a test itself."""

collect_ignore = [
    "table_demo.ipynb",
    "table_pt.ipynb",
    "table_fi.ipynb",
    "a11y_widgets.ipynb",
    "a11y_path.ipynb",
]
