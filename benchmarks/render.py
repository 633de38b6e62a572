"""(c) PDF render time and peak memory of a roster sheet of N rows, beside Chromium's time on
the same HTML.

Each size renders in a fresh subprocess (`python -m benchmarks.render ROWS`) so the
peak resident memory (getrusage ru_maxrss) is that render's own; the resident size
before the render (Django, WeasyPrint and fonts loaded, one small sheet rendered)
is reported beside it. (tracemalloc is not used: it slows the render down a lot
and misses Pango's and cairo's memory.)

The sheet is Drill's side roster of the campaign "Roster <N>" (benchmark club
"bench-print"), whose red side has N units, rendered the way a print job renders
it when this build has the print pipeline: rosters.services.print_context (the
audience's context) -> rosters.pdf.sheet_html -> rosters.services.render_hook
(WeasyPrint, static-only URL fetcher). Without the pipeline, a WeasyPrint table
of the same rows following the same sheet conventions (A4, page header, page
numbers, repeated table header, rows never split, fonts from the system, no URL
fetched) stands in: the result names the renderer used.

Chromium (Debian's /usr/bin/chromium, `--headless --print-to-pdf`, a fresh process as a
print service would start it) prints the very HTML WeasyPrint was given (the stylesheet
inlined, so that both read the same file), in the same run: the ratio is measured, not
remembered. Without Chromium (neither /usr/bin/chromium nor a `chromium` or `chromium-browser` on
the PATH) nothing is compared: the sheet targets say so and are not counted as missed. The pipeline's figure is warm (fonts loaded, one small sheet printed first), Chromium's
cold. Long sheets of plain tables are printed by Typst in a child process started for each sheet
(rosters/typst_render.py): that start is inside the figure; the result names the engine per size.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = (13, 100, 500, 2000)
CHROMIUM = "/usr/bin/chromium"
NO_CHROMIUM = "Chromium is not installed"

SHEET = """<!doctype html><html><head><meta charset="utf-8"><style>
@page { size: A4; margin: 22mm 12mm 16mm;
  @top-left { content: "{{ club }} · {{ campaign }} · {{ side }}"; font-size: 8pt; }
  @top-right { content: "{{ sheet }} · {{ date }}"; font-size: 8pt; }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font-size: 8pt; } }
body { font-family: "DejaVu Sans", sans-serif; font-size: 9pt; color: #000; }
table { width: 100%; border-collapse: collapse; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th, td { border: 0.5pt solid #000; padding: 2pt 4pt; text-align: left; }
th { background: #ddd; }
</style></head><body><h1>{{ sheet }}</h1>
<table><thead><tr><th>#</th><th>Side</th><th>Unit</th><th>Kind</th><th>Status</th><th>Experience</th></tr></thead>
<tbody>{% for e in entries %}<tr><td>{{ forloop.counter }}</td><td>{{ e.side }}</td><td>{{ e.name }}</td>
<td>{{ e.kind }}</td><td>{{ e.status }}</td><td>{{ e.data.experience }}</td></tr>{% endfor %}</tbody></table>
</body></html>"""


def _no_fetch(url, *args, **kwargs):
    raise ValueError(f"sheets fetch no URLs ({url})")


def _campaign(rows: int):
    from campaigns.models import Campaign

    from .generate import PRINT_CLUB

    campaign = (
        Campaign.objects.filter(club__slug=PRINT_CLUB, name=f"Roster {rows}")
        .select_related("club")
        .first()
    )
    if campaign is None:
        raise SystemExit(
            f"no campaign 'Roster {rows}' in {PRINT_CLUB}: run the generator first (make bench)"
        )
    return campaign


def _pipeline():
    """The print pipeline's render steps, or None in a build without them."""
    try:
        from rosters import pdf, services
    except ImportError:
        return None
    if not all(
        hasattr(m, f)
        for m, f in ((services, "print_context"), (services, "render_hook"), (pdf, "sheet_html"))
    ):
        return None
    return services, pdf


def _render(campaign, pipeline) -> tuple[bytes, int]:
    if pipeline is None:
        entries = list(campaign.roster_entries.filter(side="red").order_by("order"))
        return _fallback_pdf(entries)
    from io import BytesIO

    from pypdf import PdfReader

    services, pdf = pipeline
    data = services.render_hook(_html(campaign, pipeline))
    return data, len(PdfReader(BytesIO(data)).pages)


def _engine(data: bytes) -> str:
    """The engine that made the PDF: Typst names itself the creator, WeasyPrint the producer; a
    sheet WeasyPrint laid out in parts was joined by pypdf."""
    from io import BytesIO

    from pypdf import PdfReader

    metadata = PdfReader(BytesIO(data)).metadata or {}
    name = str(metadata.get("/Creator") or metadata.get("/Producer") or "")
    return "WeasyPrint in parts" if name == "pypdf" else name.split(" ")[0]


def _html(campaign, pipeline) -> str:
    """The sheet's HTML with its stylesheet inlined (one file both renderers read)."""
    from django.contrib.auth import get_user_model

    from .generate import USER

    services, pdf = pipeline
    template, context = services.print_context(
        get_user_model().objects.get(username=USER), campaign, "roster", "A4", "red"
    )
    html = pdf.sheet_html(template, context)
    css = (ROOT / "static" / "print" / "sheet.css").read_text()
    return html.replace(
        '<link rel="stylesheet" href="/static/print/sheet.css">', f"<style>{css}</style>"
    )


def _fallback_pdf(entries) -> tuple[bytes, int]:
    from django.template import Context, Template
    from django.utils import timezone
    from weasyprint import HTML

    html = Template(SHEET).render(
        Context(
            {
                "club": "Benchmark club",
                "campaign": "Operation 01",
                "side": "Referee",
                "sheet": "Roster",
                "date": timezone.now().date().isoformat(),
                "entries": entries,
            }
        )
    )
    document = HTML(string=html, url_fetcher=_no_fetch).render()
    return document.write_pdf(), len(document.pages)


def measure_one(rows: int) -> dict:
    from benchmarks.django_env import setup

    setup()
    from .generate import PRINT_SIZES

    pipeline = _pipeline()
    campaign = _campaign(rows)
    if pipeline is not None:  # the HTML both renderers print
        (ROOT / "var" / "bench" / f"sheet-{rows}.html").write_text(_html(campaign, pipeline))
    _render(
        _campaign(min(PRINT_SIZES)), pipeline
    )  # fonts, templates: first-use setup is not the render
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    began = time.perf_counter()
    pdf, pages = _render(campaign, pipeline)
    seconds = time.perf_counter() - began
    # The peak of this process or of a child it ran (Typst's, or a WeasyPrint part's).
    peak = max(
        resource.getrusage(who).ru_maxrss
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return {
        "rows": rows,
        "renderer": "print pipeline (rosters.services.render_hook)"
        if pipeline
        else "benchmarks stand-in (WeasyPrint table, sheet conventions)",
        "engine": _engine(pdf) if pipeline else "WeasyPrint",
        "seconds": round(seconds, 3),
        "pages": pages,
        "pdf_bytes": len(pdf),
        "peak_rss_mb": round(peak / 1024, 1),
        "rss_before_mb": round(baseline / 1024, 1),
    }


def measure(sizes=SIZES) -> list[dict]:
    results = []
    for rows in sizes:
        out = subprocess.run(
            [sys.executable, "-m", "benchmarks.render", str(rows)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=900,
        )
        if out.returncode != 0:
            raise RuntimeError(f"rendering {rows} rows failed:\n{out.stderr[-2000:]}")
        row = json.loads(out.stdout.strip().splitlines()[-1])
        html = ROOT / "var" / "bench" / f"sheet-{rows}.html"
        if html.exists():
            row.update(chromium(html))
            if row.get("chromium_seconds"):
                row["chromium_ratio"] = round(row["seconds"] / row["chromium_seconds"], 2)
        results.append(row)
    return results


def find_chromium() -> str | None:
    """Debian's Chromium, or one on the PATH; None when there is none."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(html: Path) -> dict:
    """Chromium's time to print `html` to PDF (a fresh headless process, as a print service runs it)."""
    program = find_chromium()
    if program is None:
        return {"chromium_skipped": NO_CHROMIUM, "chromium_missing": True}
    profile = tempfile.mkdtemp(prefix="bench-chromium-")
    target = html.with_suffix(".chromium.pdf")
    try:
        began = time.perf_counter()
        out = subprocess.run(
            [
                program,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-pdf-header-footer",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={profile}",
                f"--print-to-pdf={target}",
                html.as_uri(),
            ],
            capture_output=True,
            timeout=600,
        )
        seconds = time.perf_counter() - began
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if out.returncode != 0 or not target.exists():
        return {"chromium_skipped": f"chromium exited {out.returncode}"}
    from io import BytesIO

    from pypdf import PdfReader

    return {
        "chromium_seconds": round(seconds, 3),
        "chromium_pages": len(PdfReader(BytesIO(target.read_bytes())).pages),
    }


if __name__ == "__main__":
    print(json.dumps(measure_one(int(sys.argv[1]))))
