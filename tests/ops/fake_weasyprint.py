"""A `weasyprint` package that fails to import the way the real one does on a machine
without Pango: put its directory first on PYTHONPATH (a subprocess, a worker) or use
the `no_weasyprint` fixture (this process)."""

from __future__ import annotations

import sys
from pathlib import Path

# WeasyPrint's own words when Pango is missing (weasyprint/text/ffi.py through cffi).
PANGO_MISSING = (
    "cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open shared object file: "
    "No such file or directory.  Additionally, ctypes.util.find_library() did not manage to "
    "locate a library called 'libpango-1.0-0'"
)


def fake_weasyprint_dir(parent: Path) -> Path:
    """A directory holding a `weasyprint` package whose import raises that OSError."""
    package = parent / "no-pango" / "weasyprint"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text(f"raise OSError({PANGO_MISSING!r})\n")
    return package.parent


class NoWeasyPrint:
    """A meta path finder that makes `import weasyprint` fail as without Pango."""

    def find_spec(self, name, path=None, target=None):
        if name == "weasyprint" or name.startswith("weasyprint."):
            raise OSError(PANGO_MISSING)
        return None


def hide_weasyprint(monkeypatch) -> None:
    """Make WeasyPrint unimportable in this process until the test ends."""
    import rosters

    for name in list(sys.modules):
        if (
            name == "weasyprint"
            or name.startswith("weasyprint.")
            or name == "rosters.weasyprint_render"
        ):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.delattr(
        rosters, "weasyprint_render", raising=False
    )  # `from . import` looks here first
    monkeypatch.setattr(sys, "meta_path", [NoWeasyPrint(), *sys.meta_path])
