from fractions import Fraction

import pytest

from campaigns.dice.tables import Table, parse_range
from campaigns.errors import DomainError

CPP = Table.from_dict(
    {
        "id": "t",
        "name": "T",
        "dice": "2d6",
        "columns": {"cpp": "CPP"},
        "rows": [
            {"range": "≤2", "cpp": 15},
            {"range": "3-4", "cpp": 14},
            {"range": "5-12", "cpp": 12},
            {"range": ">12", "cpp": 8},
        ],
    }
)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("≤2", (None, 2)),
        ("3-4", (3, 4)),
        (">12", (13, None)),
        ("≥13", (13, None)),
        ("≤-1", (None, -1)),
        ("6", (6, 6)),
        ("<3", (None, 2)),
        ("-3", (-3, -3)),
        ("2–3", (2, 3)),
    ],
)
def test_printed_ranges_parse(text, expected):
    assert parse_range(text) == expected


def test_final_rolls_are_read_on_open_ended_rows_not_clamped():
    assert CPP.lookup(-4).label == "≤2"
    assert CPP.lookup(13).label == ">12"
    assert CPP.lookup(20).cells["cpp"] == 8


def test_a_gap_in_a_table_is_an_error_not_a_guess():
    table = Table.from_dict(
        {"id": "g", "name": "G", "dice": "1d6", "rows": [{"range": "≤2"}, {"range": "≥4"}]}
    )
    with pytest.raises(DomainError):
        table.lookup(3)


def test_house_rule_overrides_a_cell_and_keeps_the_book_value():
    from campaigns.dice.tables import BoundTable

    bound = BoundTable(CPP, {"t:3-4:cpp": 13})
    cell = bound.cell("3-4", "cpp")
    assert (cell.value, cell.book, cell.house_ruled) == (13, 14, True)
    assert bound.cell("≤2", "cpp").house_ruled is False


def test_distribution_is_exact_by_enumeration():
    from campaigns.dice.tables import BoundTable

    dist = dict(BoundTable(CPP, {}).distribution(modifier=1))
    # 2d6+1: final ≤2 never (min 3); 3-4 = original 2-3 = 3/36; >12 = original 12 = 1/36
    assert "≤2" not in dist
    assert dist["3-4"] == Fraction(3, 36)
    assert dist[">12"] == Fraction(1, 36)
    assert dist["5-12"] == Fraction(32, 36)
    assert sum(dist.values()) == 1


def test_cell_keys_allow_colons_in_row_keys():
    from campaigns.dice.tables import split_cell_key

    assert split_cell_key("1.6202:german:first_line:lmg") == ("1.6202", "german:first_line", "lmg")
    assert split_cell_key("1.616:3-4:cpp") == ("1.616", "3-4", "cpp")
    with pytest.raises(KeyError):
        split_cell_key("1.616:cpp")
