"""The benchmark's growth curves (benchmarks/growth.py): sizes timed in turns, each request judged
against its smallest size, the curves drawn as SVG and written into the README's section."""

from __future__ import annotations

from xml.etree import ElementTree

from benchmarks import growth, judge

CURVE = {
    "cg3": {
        "unit": "half-days",
        "sizes": [1, 4, 8, 13],
        "rows": [
            {"request": "CG III page", "ms": [8.0, 8.4, 9.0, 10.0], "worst": 1.25, "target": True},
            {"request": "an append", "ms": [20.0, 25.0, 31.0, 36.0], "worst": 1.8, "target": True},
            {
                "request": "CG III page, after an append",
                "ms": [40.0, 60.0, 90.0, 120.0],
                "worst": 3.0,
                "target": False,
            },
        ],
    },
    "clubs": {
        "unit": "campaigns",
        "sizes": [10, 100, 1000],
        "rows": [{"request": "dashboard", "ms": [10.0, 9.0, 12.0], "worst": 1.2, "target": True}],
    },
    "seconds": {"cg3": 40.0, "clubs": {"10": 0.7, "100": 7.0, "1000": 70.0}},
    "date": "2026-11-29T07:30:00+00:00",
    "load_average": 2.5,
}


def test_every_size_is_timed_in_turns_and_judged_by_its_median():
    calls = []

    def probe(size, times):
        times = iter(times)

        def timed():
            calls.append(size)
            return {"read": next(times)}

        return timed

    curve = growth._curve(
        {
            10: [(3, probe(10, [0.010, 0.030, 0.011]))],
            100: [(3, probe(100, [0.012, 0.013, 0.500]))],
        },
        "campaigns",
    )
    assert calls == [10, 100, 10, 100, 10, 100]  # side by side, not one size after the other
    assert curve == {
        "unit": "campaigns",
        "sizes": [10, 100],
        "rows": [{"request": "read", "ms": [11.0, 13.0], "worst": 1.18, "target": True}],
    }


def test_a_request_beyond_one_and_a_half_times_its_smallest_size_is_a_miss():
    rows = growth.targets(CURVE)
    assert [(r["target"], r["met"]) for r in rows] == [
        ("CG III page: up to 13 half-days ≤ 1.5× 1", True),
        ("an append: up to 13 half-days ≤ 1.5× 1", False),
        ("dashboard: up to 1,000 campaigns ≤ 1.5× 10", True),
    ]  # the read right after an append is shown, not judged
    assert rows[1]["figure"] == "1.8× (20.0 ms → 25.0 ms → 31.0 ms → 36.0 ms)"
    result = {
        "load": [],
        "queries": [],
        "machine": {"database": "sqlite 3"},
        "writes": {"checks": [{"replay_equals_snapshot": True, "events": 1, "expected": 1}]},
        "render": [],
        "growth": CURVE,
    }
    assert judge.missed(judge.targets(result)) == ["an append: up to 13 half-days ≤ 1.5× 1"]


def test_the_curves_are_drawn_into_the_readme_section_of_their_database(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(
        "# Benchmarks\n<!-- growth:postgresql:start -->\nold\n<!-- growth:postgresql:end -->\n"
        "<!-- growth:sqlite:start -->\nkept\n<!-- growth:sqlite:end -->\n"
    )
    machine = {"cpu": "AMD EPYC", "cpus": 2, "database": "postgresql 15.20"}
    growth.update_readme(CURVE, machine, "a test", readme)
    text = readme.read_text()
    assert "old" not in text and "kept" in text
    assert (
        "a test, 2026-11-29 07:30 UTC: AMD EPYC, 2 CPUs, postgresql 15.20, load average 2.5" in text
    )
    assert "![A CG III campaign, by half-days played](growth-postgresql-cg3.svg)" in text
    assert "| dashboard | 10.0 ms | 9.0 ms | 12.0 ms | 1.2× | ≤ 1.5× |" in text
    assert (
        "| CG III page, after an append | 40.0 ms | 60.0 ms | 90.0 ms | 120.0 ms | 3.0× | shown |"
        in text
    )
    for name in ("growth-postgresql-cg3.svg", "growth-postgresql-clubs.svg"):
        svg = ElementTree.fromstring((tmp_path / name).read_bytes())
        assert svg.tag == "{http://www.w3.org/2000/svg}svg"
        words = "".join(svg.itertext())
        assert "target: 1.5×" in words
    cg3 = (tmp_path / "growth-postgresql-cg3.svg").read_text()
    assert "CG III page" in cg3 and "13" in cg3


def test_the_chart_is_each_time_over_the_smallest_with_the_target_line():
    chart = growth.chart(CURVE["clubs"], "A club")
    assert chart["x"] == ["10", "100", "1,000"]
    assert chart["series"] == [
        {"name": "dashboard", "values": [1.0, 0.9, 1.2]},
        {"name": "target: 1.5×", "values": [1.5, 1.5, 1.5], "kind": "level"},
    ]
