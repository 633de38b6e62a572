"""A correction of any earlier A!P! step names units, RGs, fortifications, escape stacks and Refit
Phase steps by the words its side gives them (pages/correction_form.py): the correction page shows
no id, and left as drawn it proposes the event's own data, so nothing about the events changes."""

from __future__ import annotations

import html
import re

import pytest
from django.http import QueryDict
from django.test import Client

from campaigns.schema.forms import SchemaForm
from campaigns.systems.achtung_panzer import SYSTEM, words
from campaigns.systems.achtung_panzer.pages.correction_form import NAMED
from campaigns.systems.achtung_panzer.tests.forms_as_drawn import as_drawn
from tests.browser.pagechecks import SNAKE

AN_ID = re.compile(r"\b[upf]\d+\b")


@pytest.fixture
def table(club, people):
    """CG I played through its Initial Scenario, a half-day and its Refit Phase (every step answered
    as a club answers it: losses, escape, hardening, AFV repair, fortifications, retained units)."""
    from campaigns.systems.achtung_panzer.tests.table_play import play_cg

    return play_cg(club, people, "cg1", "server", half_days=1)


def correct_url(table, event) -> str:
    return f"/campaigns/{table.campaign.pk}/history/{event.uid}/correct/"


def one_of_each(table):
    """The first event of each correctable kind (and of each action of a kind), in order."""
    seen, out = set(), []
    for event in table.campaign.events.filter(kind__in=list(NAMED)).order_by("seq"):
        key = (event.kind, event.data.get("action"))
        if key not in seen:
            seen.add(key)
            out.append(event)
    return out


def the_form(page: str) -> str:
    return page.split("<main", 1)[1].split('<form method="post">', 1)[1].split("</form>", 1)[0]


def shown(form: str) -> str:
    """What a person reads of a form: its words, each option's and each check box's label."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", form)))


def proposed(table) -> dict:
    made = table.campaign.events.filter(kind="proposal.made").order_by("-seq").first()
    return made.data["data"]


@pytest.mark.django_db
def test_every_correction_names_what_it_picks_and_left_as_drawn_proposes_the_same_data(
    table, people
):
    """Each correctable A!P! kind the table played, as the side's player: the page shows no id (u12,
    p4, f81), no snake_case, no box holding an id; sent unchanged it proposes the event's data as the journal keeps it
    (the kind's fields clean both alike). The other side turns each proposal down."""
    events = one_of_each(table)
    kinds = {e.kind for e in events}
    assert {"ap.aftermath", "ap.1.6063", "ap.retained", "ap.losses", "ap.fortify"} <= kinds, kinds
    clients = {}
    for name in ("alice", "bob"):
        clients[name] = Client()
        clients[name].force_login(people[name])
    for event in events:
        mine, other = ("bob", "alice") if event.side == "german" else ("alice", "bob")
        client = clients[mine]
        form = the_form(client.get(correct_url(table, event)).content.decode())
        words = shown(form)
        assert not AN_ID.findall(words), (event.kind, AN_ID.findall(words))
        assert not SNAKE.findall(words), (event.kind, SNAKE.findall(words))
        assert not re.search(r"\b(german|french|british)\b", words), (event.kind, words)
        assert not re.search(r'<input type="text" name="[^"]+" value="[\[{]', form), event.kind
        for tag in re.findall(r'<input type="text"[^>]*>', form):
            assert not AN_ID.search(tag), (event.kind, tag)
        posted = dict(as_drawn(form), **{"proposal-reason": "checked as drawn"})
        answer = client.post(correct_url(table, event), posted)
        assert answer.status_code == 302, (event.kind, answer.content.decode()[-3000:])
        kind = SYSTEM.event_kind(event.kind)
        assert kind.clean(proposed(table)) == kind.clean(event.data), event.kind
        table.act(
            other,
            "proposal.rejected",
            {"proposal": str(table.campaign.events.filter(kind="proposal.made").last().uid)},
        )


def option_words(form: str) -> set[str]:
    """The words of every option of every select and every check box of a form."""
    found = {html.unescape(t).strip() for t in re.findall(r"<option [^>]*>([^<]*)</option>", form)}
    found |= {
        html.unescape(t).strip()
        for t in re.findall(r'<input type="checkbox"[^>]*>\s*([^<]+)<', form)
    }
    return found - {"", "—", "— choose —"}


@pytest.mark.django_db
def test_a_side_corrects_its_end_of_scenario_among_its_own_units_only(table, people):
    """bob (German) corrects his end-of-scenario record: every unit he may pick is one of the German
    records, named as the Germans name them; no Allied unit or RG is offered or named. The Allied
    record's correction is no page of his at all."""
    german = words.Names(table.side("german"))
    allied = words.Names(table.side("allied"))
    german_words = {german.label(u) for u in german.units.values()}
    german_words |= {german.rg(p) for p in german.purchases}
    allied_only = {allied.label(u) for u in allied.units.values()} - german_words
    client = Client()
    client.force_login(people["bob"])
    mine = table.campaign.events.get(kind="ap.aftermath", side="german")
    form = the_form(client.get(correct_url(table, mine)).content.decode())
    offered = option_words(form)
    units = {w for w in offered if w in german_words}
    assert len(units) >= 10, offered
    assert not offered & allied_only
    assert not [w for w in allied_only if w in shown(form)]
    theirs = table.campaign.events.get(kind="ap.aftermath", side="allied")
    assert client.get(correct_url(table, theirs)).status_code == 404


@pytest.mark.django_db
def test_a_public_step_is_corrected_by_either_side_by_its_name(table, people):
    """The map steps done by both sides (ap.joint, public): bob may correct them; the steps are
    offered by their names and rule numbers, and nothing of either side's records is drawn."""
    client = Client()
    client.force_login(people["bob"])
    joint = table.campaign.events.filter(kind="ap.joint").first()
    form = the_form(client.get(correct_url(table, joint)).content.decode())
    offered = option_words(form)
    assert "Drawing the perimeter (1.6066)" in offered, offered
    assert not re.search(r'name="control"', form)  # no box for the API's object
    allied = words.Names(table.side("allied"))
    assert not [u for u in allied.units.values() if allied.label(u) in shown(form)]


@pytest.mark.django_db
def test_a_proposed_end_of_scenario_correction_names_the_units_it_changes(table, people):
    """alice's end-of-scenario record marked her first squad eliminated; it was the second: she
    picks it by name in the first row and proposes it. The referee's page says what changes with
    the squads' names, never their ids; the proposal holds the ids the record holds."""
    event = table.campaign.events.get(kind="ap.aftermath", side="allied")
    first = event.data["units"][0]["unit"]
    names = words.Names(table.side("allied"))
    other = next(
        u
        for u in names.units.values()
        if u["kind"] == "squad" and u["id"] not in {row["unit"] for row in event.data["units"]}
    )
    client = Client()
    client.force_login(people["alice"])
    form = the_form(client.get(correct_url(table, event)).content.decode())
    posted = as_drawn(form)
    row = next(name for name, value in posted.items() if value == [first])
    posted[row] = [other["id"]]
    posted["proposal-reason"] = ["the squad beside it"]
    assert client.post(correct_url(table, event), posted).status_code == 302
    assert proposed(table)["units"][0]["unit"] == other["id"]
    rita = Client()
    rita.force_login(people["rita"])
    page = rita.get(f"/campaigns/{table.campaign.pk}/").content.decode()
    proposals = shown(page.split('id="proposals"', 1)[1].split("</section>", 1)[0])
    assert "the squad beside it" in proposals
    assert names.label(other) in proposals and names.label(names.units[first]) in proposals
    assert not AN_ID.findall(proposals), AN_ID.findall(proposals)


@pytest.mark.django_db
def test_a_retained_unit_change_is_corrected_without_touching_what_it_left_alone(table, people):
    """A change of a retained unit writes only what it names (its note here): its correction asks
    each tick as yes, no or "—" (left as it was), keeps the change's own "Why" apart from the
    proposal's reason, and picks the unit by name. Picking yes for "Isolated" proposes just that."""
    event = table.campaign.events.filter(kind="ap.retained", data__action="update").first()
    client = Client()
    client.force_login(people["alice"])
    page = client.get(correct_url(table, event)).content.decode()
    form = the_form(page)
    assert not re.search(r'type="checkbox" name="isolated"', form)
    names = words.Names(table.side("allied"))
    assert names.label(names.units[event.data["id"]]) in option_words(form)
    posted = dict(as_drawn(form), isolated=["true"])
    posted["proposal-reason"] = ["it was cut off"]
    assert client.post(correct_url(table, event), posted).status_code == 302
    made = table.campaign.events.filter(kind="proposal.made").order_by("-seq").first()
    assert made.data["reason"] == "it was cut off"
    kind = SYSTEM.event_kind("ap.retained")
    assert kind.clean(made.data["data"]) == kind.clean(dict(event.data, isolated=True))


@pytest.mark.django_db
def test_a_retained_unit_changes_note_emptied_in_its_correction_is_cleared(table, people):
    """The note box drawn holding the change's note and emptied by the person proposes the change
    with an empty note (it clears the unit's note); every other box left as drawn is unchanged."""
    event = table.campaign.events.filter(kind="ap.retained", data__action="update").first()
    assert event.data.get("note")
    client = Client()
    client.force_login(people["alice"])
    form = the_form(client.get(correct_url(table, event)).content.decode())
    posted = dict(as_drawn(form), note=[""])
    posted["proposal-reason"] = ["the note was wrong"]
    assert client.post(correct_url(table, event), posted).status_code == 302
    made = table.campaign.events.filter(kind="proposal.made").order_by("-seq").first()
    kind = SYSTEM.event_kind("ap.retained")
    assert kind.clean(made.data["data"]) == kind.clean(dict(event.data, note=""))


def _drawn(fields, path: str):
    """The field at `path` ("list.sub" or "name") of a correction's fields."""
    head, _, tail = path.partition(".")
    found = next(f for f in fields if f.name == head)
    return next(s for s in found.item.fields if s.name == tail) if tail else found


def test_the_steps_no_table_here_played_pick_by_name_too():
    """Platoon withdrawal (1.6142), captured weapons (1.6135), AFV recovery (1.6131) and the losses
    entered in the RePh (ap.cvp): what they name is picked among the German records by name (AFVs
    only where the step is about AFVs), and a value the records no longer hold is still offered,
    said in words, so the correction left as it is proposes the same data."""
    from campaigns.systems.achtung_panzer.tests.step_harness import make_state, unit

    tank = unit("u3", "afv", type="PzIIIF", rg="p1", platoon="p1")
    squad = unit("u4", rg="p2")
    bought = [
        {"id": "p1", "rg": "A3", "nationality": "german", "group_type": "Medium Tank"},
        {"id": "p2", "rg": "I1", "nationality": "german", "group_type": "1st line Coy"},
    ]
    state = make_state(german={"retained": [tank, squad], "purchases": bought})
    names = words.Names(state["game"]["sides"]["german"])
    withdrawal = SYSTEM.correction_fields(state, "german", "ap.1.6142", {"platoons": ["p1"]})
    platoons = _drawn(withdrawal, "platoons").item
    assert platoons.type == "choice" and platoons.labels == (("p1", names.rg("p1")),)
    captured = SYSTEM.correction_fields(state, "german", "ap.1.6135", {"vehicular": []})
    assert dict(_drawn(captured, "vehicular.unit").labels) == {
        "u3": names.label(tank),
        "u4": names.label(squad),
    }
    recovery = SYSTEM.correction_fields(
        state, "german", "ap.1.6131", {"rolls": [{"afv": "u3"}], "remanned": [{"afv": "u9"}]}
    )
    assert dict(_drawn(recovery, "rolls.afv").labels) == {"u3": names.label(tank)}
    assert dict(_drawn(recovery, "remanned.afv").labels) == {
        "u3": names.label(tank),
        "u9": "a unit no longer on the records",
    }
    record = SYSTEM.correction_fields(state, "german", "ap.aftermath", {"cvp": 2})
    assert "oba_fired" not in {f.name for f in record}  # no OBA at all: no box for one
    losses = SYSTEM.correction_fields(state, "german", "ap.cvp", {"units": ["u4"]})
    assert _drawn(losses, "units").item.choices == ("u3", "u4")
    assert SYSTEM.correction_fields(state, "allied", "ap.cvp", {"units": []}) is not None
    del state["game"]["sides"]["allied"]  # a German's cut of the state: no Allied records
    assert SYSTEM.correction_fields(state, "allied", "ap.cvp", {"units": []}) is None


def test_control_corrected_at_the_perimeter_is_ticked_hexes_not_json():
    """ap.joint's control (1.6066, an object the API sends): when the event changed control, each
    side's objective hexes are ticks among 1.2's hexes and half-boards numbers; when it did not, the
    correction does not ask for it at all (never a box for JSON)."""
    from campaigns.systems.achtung_panzer.tests.step_harness import make_state

    state = make_state()
    plain = SYSTEM.correction_fields(state, "allied", "ap.joint", {"through": "1.6066"})
    assert [f.name for f in plain] == ["step", "through", "note"]
    control = {"allied_objectives_end": ["23R4"], "german_half_boards": 2}
    drawn = SYSTEM.correction_fields(
        state, "allied", "ap.joint", {"through": "1.6066", "control": control}
    )
    by_name = {f.name: f for f in drawn}
    assert "control" not in by_name and all(f.type != "json" for f in drawn)
    hexes = by_name["control.allied_objectives_end"]
    assert hexes.default == ["23R4"] and "23R4" in hexes.item.choices
    assert by_name["control.german_half_boards"].default == 2
    assert "control.german_objectives_end" not in by_name  # not changed: not asked
    posted = QueryDict(mutable=True)
    posted.update({"through": "1.6066", "control.german_half_boards": "2"})
    posted.setlist("control.allied_objectives_end", ["23R4"])
    form = SchemaForm(drawn, posted)
    assert form.is_valid(), form.errors
    joint = SYSTEM.event_kind("ap.joint")
    assert joint.clean(form.event_data()) == joint.clean({"through": "1.6066", "control": control})
