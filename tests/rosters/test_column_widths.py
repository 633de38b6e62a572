"""Generic sheet tables are laid out with fixed column widths drawn from what they hold."""

from rosters.templatetags.rosters_sheets import column_widths


def _shares(widths):
    return [float(w.rstrip("%")) for w in widths]


def test_a_column_gets_its_share_by_its_longest_text_within_bounds():
    table = {"columns": ["#", "Unit", "Status"],
             "rows": [[1, "Kampfgruppe Peiper, 1st SS Panzer Regiment and more words", "ready"], [2, "A", "lost"]]}
    shares = _shares(column_widths(table))
    # "#": at least 4 characters; Unit: capped at 40; Status: "Status" (6) beats "ready"/"lost".
    assert shares == [round(100 * n / 50, 1) for n in (4, 40, 6)]
    assert abs(sum(shares) - 100) < 0.5


def test_a_table_without_rows_or_columns_gives_what_it_has():
    assert _shares(column_widths({"columns": ["A", "B"], "rows": []})) == [50.0, 50.0]
    assert column_widths({"columns": [], "rows": []}) == []
    assert len(column_widths({"columns": ["A"], "rows": [["x", "extra cell beyond the columns"]]})) == 1
