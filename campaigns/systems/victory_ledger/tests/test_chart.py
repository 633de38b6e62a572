"""The ledger's chart keeps every label inside the picture: value labels left of the axis as wide
as the widest of them, a signed chart's sides named inside the plot (never "15 German" clipped
to "erman"), turn labels thinned out where they would touch, long line labels set smaller."""

from campaigns.systems.victory_ledger import chart


class _System:
    def __init__(self, spec):
        self.spec = spec

    def chart_spec(self, state):
        return self.spec


def _state(values: dict, key="level"):
    return {
        "game": {"public": {"ledger": [{"turn": t, "chart": {key: v}} for t, v in values.items()]}}
    }


def _inside(built, text_width=chart.text_width):
    """The texts of the chart that stick out of it, as (left, right, top, bottom) by the template's
    anchors, each text as wide as `text_width` says."""
    size = chart.FONT
    boxes = []
    for tick in built["y_ticks"]:
        width = text_width(tick["label"])
        boxes.append(
            (built["label_x"] - width, built["label_x"], tick["y"] + 3 - size, tick["y"] + 3)
        )
    for tick in built["x_ticks"]:
        width = text_width(tick["label"])
        y = built["bottom"] + 12
        boxes.append((tick["x"] - width / 2, tick["x"] + width / 2, y - size, y))
    for line in built["lines"]:
        width = text_width(line["label"], line["size"])
        boxes.append(
            (built["right"] - width, built["right"], line["y"] - 3 - line["size"], line["y"] - 3)
        )
    if built["sides"]:
        for key in ("up", "down"):
            width = text_width(built["sides"][key], built["sides"][f"{key}_size"])
            y = built["sides"][f"{key}_y"]
            boxes.append((built["sides"]["x"], built["sides"]["x"] + width, y - size, y))
    return [
        b
        for b in boxes
        if not (0 <= b[0] and b[1] <= built["width"] and 0 <= b[2] and b[3] <= built["height"])
    ]


def test_a_signed_chart_names_its_sides_inside_the_plot_and_its_labels_fit():
    turns = [(f"Turn {n}", f"T{n}") for n in range(1, 11)]
    spec = {
        "title": "VP level by turn",
        "turns": turns,
        "series": [("level", "VP level")],
        "lines": [],
        "marks": [("Turn 4", 15, "German sudden death"), ("Turn 4", -12, "Allied sudden death")],
        "signed": {"up": "German", "down": "Allied"},
    }
    built = chart.build(_System(spec), _state({"Turn 1": 3, "Turn 2": -7, "Turn 3": 15}))
    assert [t["label"] for t in built["y_ticks"]] == ["15", "10", "5", "0", "5", "10", "15"]
    assert built["sides"]["up"] == "▲ German" and built["sides"]["down"] == "▼ Allied"
    assert built["left"] > chart.text_width("15")
    assert _inside(built) == []
    assert "Turn 2: VP level 7 Allied" in built["summary"]


def test_many_turns_thin_out_their_labels_and_a_long_line_label_is_set_smaller():
    turns = [(f"{d} {h}", f"{d}{h}") for d in range(16, 31) for h in ("AM", "PM")]
    label = "A line label far too long to stand on the chart at the size of the other labels here"
    spec = {
        "title": "Long",
        "turns": turns,
        "series": [("vp", "VP")],
        "lines": [(1200, label)],
        "marks": [],
        "signed": None,
    }
    built = chart.build(_System(spec), _state({"16 AM": 1250, "16 PM": 3}, key="vp"))
    shown = [t for t in built["x_ticks"] if t["label"]]
    assert 3 < len(shown) < len(turns)
    gaps = [b["x"] - a["x"] for a, b in zip(shown, shown[1:])]
    assert min(gaps) >= chart.text_width("16AM") + 3  # never touching
    assert built["lines"][0]["size"] < chart.FONT
    assert built["left"] >= chart.text_width("1500") + chart.GAP  # "1500" is the widest value label
    assert _inside(built) == []


def test_panels_are_built_one_by_one_and_a_chart_without_turns_is_left_out():
    turns = [("16 AM", "16AM"), ("16 PM", "16PM")]
    panel = {
        "title": "Hexes",
        "turns": turns,
        "series": [("vp", "Hexes")],
        "lines": [(4, "4: win")],
        "marks": [],
        "signed": None,
    }
    built = chart.build(
        _System({"title": "All", "panels": [panel, dict(panel, turns=[])]}),
        _state({"16 AM": 2}, key="vp"),
    )
    assert [p["title"] for p in built["panels"]] == ["Hexes"]
    assert built["panels"][0]["height"] == chart.PANEL_HEIGHT
    assert built["summary"] == "Hexes: 16 AM: Hexes 2."


def test_the_pdf_s_font_is_never_wider_than_the_chart_reckons():
    """The printed sheet draws the same SVG in DejaVu Sans: measured with its real advance widths,
    every label of the games' charts stays inside too."""
    from rosters.word_widths import dejavu

    widths = dejavu()
    real = lambda text, size=chart.FONT: widths.word(text.replace(" ", "\u00a0"), size=size)  # noqa: E731
    labels = [
        "15",
        "▲ German",
        "▼ Allied",
        "▲ American",
        "4: Meuse or Liège, German victory",
        "16AM",
        "26PM",
        "T10",
        "24: German victory",
        "3 at 2 checks in a row: Allied victory",
        "10 VP: operational victory (18.2)",
        "14 VP at the end: German victory (S3.4)",
        "6 West Map hexes: German victory",
        "100",
        "1500",
    ]
    for label in labels:
        assert real(label) <= chart.text_width(label), label
    turns = [(f"{d} {h}", f"{d}{h}") for d in range(16, 31) for h in ("AM", "PM")]
    spec = {
        "title": "S",
        "turns": turns,
        "series": [("vp", "VP")],
        "marks": [],
        "signed": {"up": "German", "down": "Allied"},
        "lines": [(15, "4: Meuse or Liège, German victory")],
    }
    built = chart.build(_System(spec), _state({"16 AM": -12}, key="vp"))
    assert _inside(built, real) == []
