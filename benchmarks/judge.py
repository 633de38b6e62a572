"""Every target of `make bench` beside its figure (benchmarks/README.md, "Targets"): met (True),
missed (False), or not compared (None: nothing to compare with, such as a sheet's time beside
Chromium on a machine without Chromium). The run exits 1 on a miss, never on "not compared"."""

from __future__ import annotations

from benchmarks import growth, real_sheets, render, writes

MET_WORDS = {True: "yes", False: "**NO**", None: "not compared"}

VERDICT = {True: "ok  ", False: "MISS", None: "--  "}  # as the run prints them


def missed(rows: list[dict]) -> list[str]:
    """The targets missed; one not compared (Chromium not installed) is not a miss."""
    return [row["target"] for row in rows if row["met"] is False]


RATIOS = {  # load target -> the least target/bare ratio
    "API campaign detail": 0.5,
    "API campaign state": 0.5,
    "API campaign list": 0.3,
    "page campaign": 0.3,  # the Drill campaign in play, its side's forms on the page
    "CG III page campaign": 0.3,
    "CG III page history": 0.2,
    # pages in play of the club "bench-play" (benchmarks.targets.in_play_targets), each its reader's
    "CG III mid-Refit page, Allied": 0.3,  # its Refit forms on the page
    "CG III mid-Refit page, German": 0.3,
    "CG III mid-Refit page, referee": 0.3,
    "Rifles squad page": 0.3,
    "ledger page with chart": 0.3,
}
WRITE_P99_MS = 30  # paced, every client (PostgreSQL)
SATURATED_PER_S = 300  # appends a second, every client sending its next at once (PostgreSQL)


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
    rows += write_targets(result["writes"], result["machine"]["database"].startswith("postgresql"))
    w = result["writes"]
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
    rows += real_sheets.targets(result.get("real_sheets", []))
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


def write_targets(w: dict, on_pg: bool) -> list[dict]:
    """Paced p99 and saturated appends a second, with every client (both groups): judged on
    PostgreSQL, shown on SQLite."""
    rows = []
    clients = writes.SINGLE + writes.SHARED
    shown = "" if on_pg else " (PostgreSQL only; SQLite shown)"
    if w.get("paced"):
        p99 = w["paced"]["all"]["p99_ms"]
        rows.append(
            {
                "target": f"paced write p99 < {WRITE_P99_MS} ms, {clients} clients{shown}",
                "figure": f"{p99} ms",
                "met": (p99 is not None and p99 < WRITE_P99_MS) or not on_pg,
            }
        )
    if w.get("saturated"):
        rate = w["saturated"]["all"]["appends_per_s"]
        bare = (w.get("bare_saturated") or {}).get("all", {}).get("appends_per_s")
        ceiling = f" (a bare one-row write: {bare}/s on this machine)" if bare else ""
        rows.append(
            {
                "target": f"saturated ≥ {SATURATED_PER_S} appends/s, {clients} clients{shown}",
                "figure": f"{rate} appends/s{ceiling}",
                "met": rate >= SATURATED_PER_S or not on_pg,
            }
        )
    return rows
