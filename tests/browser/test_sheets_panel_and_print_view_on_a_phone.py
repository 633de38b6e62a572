"""At 390 px: the campaign page settled in one query (campaigns.access.signed_in) with its sheets panel
drawn once per audience, the history page from its kept fragment, and a generic table sheet's print
view with fixed column widths (long names wrap inside their column; the table never pushes the page
sideways)."""

from playwright.sync_api import expect

from tests.browser.pagechecks import check
from tests.testsystem import SYSTEM as SKIRMISH

LONG = "Kampfgruppe Peiper, 1st SS Panzer Regiment, with everything it dragged along"


def test_a_player_reads_the_panel_the_history_and_a_long_table_sheet_on_a_phone(
    phones, skirmish, people, monkeypatch
):
    rows = [[f"{LONG} {i}", i, "ready"] for i in range(40)]
    monkeypatch.setattr(
        SKIRMISH,
        "sheet_context",
        lambda sheet, view: {
            "tables": [{"title": "Supply", "columns": ["Unit", "Points", "Status"], "rows": rows}]
        },
    )
    alice = phones("alice")
    for _ in range(2):  # the second time from what was kept
        alice.goto(f"/campaigns/{skirmish.pk}/")
        panel = alice.locator("#sheets")
        expect(panel.get_by_role("button", name="Prepare PDF").first).to_be_visible()
        expect(panel).to_contain_text("Supply record")
        check(alice)
        alice.goto(f"/campaigns/{skirmish.pk}/history/")
        expect(alice.locator("main")).to_contain_text("started")
        check(alice)
    alice.goto(f"/campaigns/{skirmish.pk}/sheets/supply/print/?side=red")
    expect(alice.locator("table.fixed")).to_be_visible()
    expect(alice.locator("table.fixed")).to_contain_text(f"{LONG} 39")
    widths = alice.locator("table.fixed col").evaluate_all("cols => cols.map(c => c.style.width)")
    assert len(widths) == 3 and float(widths[0].rstrip("%")) > float(widths[2].rstrip("%"))
    check(alice)
    assert alice.errors == []
