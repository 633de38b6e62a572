"""GET /api/v1/systems/: what every registered game declares, for clients that build forms."""


def _skirmish(client):
    listed = client.get("/api/v1/systems/").json()["results"]
    return next(s for s in listed if s["slug"] == "skirmish")


def test_systems_list_sides_variants_and_calendars(people, client_for):
    system = _skirmish(client_for("carol"))
    assert system["name"] == "Skirmish (test system)"
    assert system["sides"] == [{"slug": "red", "name": "Red"}, {"slug": "blue", "name": "Blue"}]
    assert system["variants"][0] == {
        "slug": "short",
        "name": "Short campaign",
        "description": "",
        "calendar": ["Round 1", "Round 2", "Round 3"],
    }


def test_event_kinds_come_with_their_fields_and_rules(people, client_for):
    kinds = {k["name"]: k for k in _skirmish(client_for("carol"))["event_kinds"]}
    buy = kinds["skirmish.buy"]
    assert (buy["audience"], buy["actor"], buy["rule"], buy["core"]) == (
        "side",
        "side",
        "T.3",
        False,
    )
    [count] = buy["fields"]
    assert (count["name"], count["type"], count["min"], count["required"]) == (
        "count",
        "int",
        1,
        True,
    )
    assert kinds["result.submitted"]["core"] is True
    assert kinds["dice.rolled"]["actor"] == "system"
    dice = next(f for f in kinds["dice.rolled"]["fields"] if f["name"] == "dice")
    assert dice["type"] == "list" and dice["item"]["type"] == "int"


def test_option_and_result_fields_are_declared(people, client_for):
    system = _skirmish(client_for("carol"))
    options = {f["name"]: f for f in system["option_fields"]}
    assert (
        options["dice_mode"]["choices"] == ["server", "entered"]
        and options["dice_mode"]["default"] == "server"
    )
    assert options["starting_supply"]["max"] == 10
    assert [f["name"] for f in system["result_fields"]] == ["red", "blue"]
    assert system["constants"]["buy.max_per_round"]["value"] == 2


def test_one_system_by_slug(people, client_for):
    client = client_for("alice")
    assert client.get("/api/v1/systems/skirmish/").json() == _skirmish(client)
    assert client.get("/api/v1/systems/no-such-game/").status_code == 404
