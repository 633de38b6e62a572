"""The picture of the layers in docs/architecture.md is the one scripts/layers.py draws from
today's imports: a change of who imports whom changes the picture, and the doc must follow."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_layers_picture_in_the_doc_matches_the_imports():
    drawn = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "layers.py")],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    doc = (ROOT / "docs" / "architecture.md").read_text()
    shown = re.search(r"<!-- layers:begin[^>]*-->\n(.*?)<!-- layers:end -->", doc, re.S)
    assert shown, "docs/architecture.md has no layers picture between its markers"
    assert shown.group(1) == drawn, "run scripts/layers.py and paste its output into the doc"
    assert "games --> interface" in drawn and "flowchart TD" in drawn
