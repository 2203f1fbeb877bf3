"""The browser tests: ``table_demo.ipynb`` (and ``table_pt`` / ``table_fi``, the table in
Portuguese and Finnish) is what Voilà serves to them, not a test itself."""

collect_ignore = ["table_demo.ipynb", "table_pt.ipynb", "table_fi.ipynb"]
