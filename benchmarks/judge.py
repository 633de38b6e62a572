"""Every target of `make bench` beside its figure (benchmarks/README.md, "Targets"): met (True),
missed (False), or not compared (None: nothing to compare with, such as a sheet's time beside
Chromium on a machine without Chromium). The run exits 1 on a miss, never on "not compared"."""

from __future__ import annotations

from benchmarks import growth, render, writes

MET_WORDS = {True: "yes", False: "**NO**", None: "not compared"}

VERDICT = {True: "ok  ", False: "MISS", None: "--  "}  # as the run prints them


def missed(rows: list[dict]) -> list[str]:
    """The targets missed; one not compared (Chromium not installed) is not a miss."""
    return [row["target"] for row in rows if row["met"] is False]


RATIOS = {  # load target -> the least target/bare ratio
    "API campaign detail": 0.5,
    "API campaign state": 0.5,
    "API campaign list": 0.3,
    "CG III page campaign": 0.15,
    "CG III page history": 0.2,
}
WRITE_P99_MS = 100  # PostgreSQL, 16 clients


def targets(result: dict) -> list[dict]:
    rows = []
    for row in result["load"]:
        least = RATIOS.get(row["target"])
        if least is not None:
            ratio = row.get("ratio")
            rows.append(
                {
                    "target": f"{row['target']} ≥ {least} of the bare view",
                    "figure": ratio,
                    "met": ratio is not None and ratio >= least,
                }
            )
    grown = [r["target"] for r in result["queries"] if r.get("constant") is False]
    rows.append(
        {
            "target": "queries per request constant in the data size",
            "figure": "all constant" if not grown else "grow: " + ", ".join(grown),
            "met": not grown,
        }
    )
    w = result["writes"]
    if w.get("paced"):
        p99 = w["paced"]["different"]["p99_ms"]
        on_pg = result["machine"]["database"].startswith("postgresql")
        rows.append(
            {
                "target": f"write p99 < {WRITE_P99_MS} ms, {writes.SINGLE} clients"
                + ("" if on_pg else " (PostgreSQL only; SQLite shown)"),
                "figure": f"{p99} ms",
                "met": (p99 is not None and p99 < WRITE_P99_MS) or not on_pg,
            }
        )
    replayed = [
        c
        for c in w.get("checks", [])
        if not (c["replay_equals_snapshot"] and c["events"] == c["expected"])
    ]
    rows.append(
        {
            "target": "every journal replays to its snapshot, nothing lost or doubled",
            "figure": f"{len(w.get('checks', [])) - len(replayed)} of {len(w.get('checks', []))} campaigns",
            "met": bool(w.get("checks")) and not replayed,
        }
    )
    limit = w.get("limit")
    if limit:
        rows.append(
            {
                "target": f"write-rate limit on: write {limit['limit'] + 1} in a minute is 429",
                "figure": limit["figure"],
                "met": limit["met"],
            }
        )
    rows += [sheet_target(row) for row in result["render"]]
    if result.get("growth"):
        rows += growth.targets(result["growth"])
    return rows


def sheet_target(row: dict) -> dict:
    """A sheet size beside Chromium: not compared (met None) when Chromium is not installed; a
    Chromium that is there but printed nothing is a miss."""
    target = f"{row['rows']}-row sheet ≤ 1.0× Chromium"
    ratio = row.get("chromium_ratio")
    if row.get("chromium_missing"):
        return {"target": target, "figure": f"not compared: {render.NO_CHROMIUM}", "met": None}
    if ratio is None:
        reason = row.get("chromium_skipped", "no Chromium time")
        return {"target": target, "figure": f"not measured: {reason}", "met": False}
    return {"target": target, "figure": ratio, "met": ratio <= 1.0}
