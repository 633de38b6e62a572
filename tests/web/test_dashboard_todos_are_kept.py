"""The dashboard's "what waits for me" is kept per (campaign, the person's audience position, the
person), and whom each campaign waits for per club position: read again, the dashboard reads no
campaign's state; a step that moves the person's cut shows at once; what another person is
offered is never served to them."""

from campaigns.services.journal import submit
from tests.web.wars import skirmish_war


def _waiting(client) -> str:
    page = client.get("/").content.decode()
    return page.split('id="waiting-h"', 1)[1].split("</section>", 1)[0]


def test_what_waits_is_read_again_without_the_states_and_moves_with_a_step(
    club, people, client_for, monkeypatch
):
    north = skirmish_war(club, people, "North")
    skirmish_war(club, people, "South")
    bob = client_for("bob")
    first = _waiting(bob)
    assert first.count("Roll for supply") == 2

    states_read = []
    for module in ("todos", "waiting"):  # what waits for bob, and whom each campaign waits for
        monkeypatch.setattr(
            f"campaigns.selectors.{module}.current_states",
            lambda campaigns: states_read.append(list(campaigns)) or {},
        )
    assert _waiting(bob) == first and states_read == []
    monkeypatch.undo()

    submit(north, people["bob"], "skirmish.supply", {}, side="blue")
    after = _waiting(bob)
    assert "North" in after and "Buy reinforcements" in after
    assert after.count("Roll for supply") == 1  # South's still waits

    # Alice (red) is offered red's step, never what was kept for bob.
    alice = _waiting(client_for("alice"))
    assert alice.count("Roll for supply") == 2 and "Buy reinforcements" not in alice
    assert "South" in after
