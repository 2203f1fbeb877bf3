"""Hatchling build hook: compile the translations (rummykit/locale/*/LC_MESSAGES/*.po) into
the .mo files rummykit reads at run time, for wheels and editable installs alike.

The .mo files are not in git; the .po files are, and travel in the sdist. The compiler is
rummykit/pofiles.py (standard library only), loaded from the source tree by path since
rummykit itself is not installed while it builds.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogueBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Compile every .po into its .mo and ship the .mo files in the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        spec = importlib.util.spec_from_file_location("_pofiles", root / "rummykit" / "pofiles.py")
        assert spec is not None and spec.loader is not None
        pofiles = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = pofiles  # its dataclasses look themselves up there
        spec.loader.exec_module(pofiles)
        compiled = pofiles.compile_all(root / "rummykit" / "locale")
        if version == "editable":  # the installed package is the source tree: .mo made in place
            return
        for mo in compiled:
            relative = mo.relative_to(root).as_posix()
            build_data["force_include"][str(mo)] = relative
