"""The browser tests: ``table_demo.ipynb`` is what Voilà serves to them, not a test itself."""

collect_ignore = ["table_demo.ipynb"]
