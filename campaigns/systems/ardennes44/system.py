"""Ardennes '44 as a Muster game system: a victory ledger (campaigns/systems/victory_ledger) over
AM, PM and Night turns, with exits toward Antwerp and Night-turn replacements of its own."""

from __future__ import annotations

from pathlib import Path

from campaigns.game_interface import DomainError, Field
from campaigns.systems.victory_ledger import ledger
from campaigns.systems.victory_ledger.ledger import public
from campaigns.systems.victory_ledger.model import day_calendar
from campaigns.systems.victory_ledger.setup import location
from campaigns.systems.victory_ledger.system import LedgerSystem

from . import replacements, upgrades, victory

HERE = Path(__file__).parent
SIDES = (("german", "German"), ("allied", "Allied"))
GROUPS = (
    ("", "Victory hex"),
    ("meuse", "Meuse victory hex (30.2)"),
    ("liege", "Liège hex (30.2)"),
    ("bastogne", "Bastogne town hex (S4.4, S5.2)"),
    ("german_start", "German at-start divisional area (30.3)"),
    ("exit_fg", "F or G entry hex, exit toward Antwerp (30.2)"),
    ("exit_east", "East Map west-edge exit (S2.4)"),
)
GROUP_WORDS = dict(GROUPS)
REPLACEMENTS = {"german": "replacements_german", "allied": "replacements_allied"}


class Ardennes44(LedgerSystem):
    slug = "ardennes44"
    name = "Ardennes '44"
    event_prefix = "a44"
    book_path = HERE / "book.yaml"
    description = (
        "The Battle of the Bulge, 3rd edition: the Campaign Game and scenarios S1–S5 over AM, PM and "
        "Night turns; the Victory Check Phase after every Allied day turn."
    )
    setup_rule = "30, S1.3"
    turn_rule = "30.1"
    journal_version = 3
    confirmed_from = 3
    journal_upgrades = upgrades.STEPS
    sheet_template = "ardennes44/sheets/ledger.html"
    uses_contested = False
    unit_changes = ("eliminated", "reduced", "restored", "rebuilt", "exited")
    location_sub_fields = (
        Field(
            "group",
            "choice",
            label="Kind",
            choices=tuple(g for g, _ in GROUPS),
            labels=GROUPS,
            required=False,
            default="",
        ),
        Field("victory", "bool", label="Victory hex", required=False, default=False),
        Field(
            "map",
            "choice",
            label="Map",
            choices=("west", "east"),
            labels=(("west", "West Map"), ("east", "East Map")),
            required=False,
            default="west",
        ),
        Field(
            "start",
            "choice",
            label="Held at the start",
            choices=("german", "allied"),
            labels=SIDES,
            required=False,
            default="allied",
        ),
    )
    unit_sub_fields = (
        Field(
            "attack",
            "int",
            label="Attack factor",
            min=0,
            max=99,
            required=False,
            default=0,
            help="Counts when the unit exits toward Antwerp (30.2) or off the East Map (S2.4).",
        ),
        # What 25.2.1 and 25.2.5 need to know of a unit (A44-11).
        Field(
            "type",
            "choice",
            label="Type (2.4)",
            choices=tuple(t for t, _ in replacements.TYPES),
            labels=replacements.TYPES,
            required=False,
            default="",
            help="Replacements go by type (25.2.1): Infantry Type units (infantry, panzergrenadiers, "
            "parachute, glider, engineers …), Tank, Recon and Flak units.",
        ),
        Field(
            "tq",
            "int",
            label="TQ (Tank units)",
            min=0,
            max=9,
            required=False,
            default=0,
            help="German Tank Units of TQ 5 or more never receive replacements (25.2.5).",
        ),
        Field(
            "black_box",
            "bool",
            label="Attack strength in a black box",
            required=False,
            default=False,
            help="German Tank Units with one never receive replacements (25.2.5, 27.4).",
        ),
        Field(
            "never",
            "bool",
            label="Named in 25.2.5 (von der Heydte, 150th Panzer Brigade)",
            required=False,
            default=False,
            help="Never receives replacements.",
        ),
        Field(
            "british",
            "bool",
            label="British",
            required=False,
            default=False,
            help="British units never receive replacements (25.2.5).",
        ),
        Field(
            "airborne",
            "bool",
            label="Allied airborne",
            required=False,
            default=False,
            help="Allied airborne units never receive replacements (25.2.5).",
        ),
    )
    turn_extra_fields = (
        Field(
            "replacements_german",
            "int",
            label="German replacements",
            min=0,
            max=9,
            required=False,
            default=None,
            help="Night turns: as printed on the Turn Record Track (25.2).",
        ),
        Field(
            "replacements_allied",
            "int",
            label="Allied replacements",
            min=0,
            max=9,
            required=False,
            default=None,
            help="Night turns: as printed on the Turn Record Track (25.2).",
        ),
    )
    option_fields = (
        Field(
            "allied_30_3_short",
            "bool",
            label="30.3 Allied victory also in S2 and S3",
            required=False,
            default=False,
            help="Off: S2.4 and S3.4 are those scenarios' whole victory conditions (A44-7).",
        ),
    )
    supplied_label = "Supplied"
    supplied_help = (
        "German: a road-bound supply path to a German supply source (30.1.2). Allied: the Allied "
        "units there are in supply (30.3); a Bastogne hex traces a road-bound path to an Allied source."
    )

    def unit_change_sub_fields(self):
        return (
            Field(
                "via",
                label="Exit hex",
                required=False,
                default="",
                max_length=40,
                help="For an exit: the entry hex the unit left through.",
            ),
        )

    # --- the fold -----------------------------------------------------------------------------
    def calendar(self, state, setup):
        turns = []
        for span in self.book.scenario(public(state)["scenario"])["calendar"]:
            turns += day_calendar(
                span["first"],
                span["last"],
                lead_night=span.get("lead_night", False),
                part=span["part"],
                first_number=span.get("first_number", 1),
            )
        return turns

    def check_setup(self, state, setup, ctx):
        info = self.book.scenario(public(state)["scenario"])
        groups = {loc.get("group") for loc in setup["locations"]}
        needed = {"vp": ("exit_east",), "campaign": ("meuse", "liege", "exit_fg", "german_start")}[
            info["victory"]
        ]
        if info.get("bastogne_draw") or info.get("extended"):
            needed += ("bastogne",)
        for name in needed:
            if name not in groups:
                raise DomainError(
                    "locations",
                    f"The set-up needs at least one {GROUP_WORDS[name]}: this scenario's "
                    f"victory conditions name it.",
                )

    def check_unit_change(self, state, unit, change, row, turn, path, ctx):
        pub = public(state)
        if change in replacements.USES and turn["kind"] != "night":
            raise DomainError(
                f"{path}.change", f"{unit['name']}: replacements arrive only in Night turns (25.2)."
            )
        if change in replacements.USES and ctx.journal_version >= replacements.TYPED:
            replacements.check_unit(unit, change, path)
        if change != "exited":
            if row.get("via"):
                raise DomainError(f"{path}.via", "An exit hex is given only for a unit that exits.")
            return None
        if unit["side"] != "german":
            raise DomainError(
                f"{path}.change",
                f"{unit['name']}: only German units exit to win; Allied units leave "
                f"for an off-map box (11.9).",
            )
        wanted = (
            "exit_east" if self.book.scenario(pub["scenario"])["victory"] == "vp" else "exit_fg"
        )
        via = row.get("via") or ""
        loc = location(pub["setup"], via) if via else None
        if loc is None or loc.get("group") != wanted:
            raise DomainError(
                f"{path}.via", f"Say which {GROUP_WORDS[wanted]} {unit['name']} exited through."
            )
        return via

    def apply_turn_extras(self, state, turn, data, events, ctx):
        given = {side: data.get(key) for side, key in REPLACEMENTS.items()}
        if turn["kind"] != "night":
            if any(v is not None for v in given.values()):
                raise DomainError(
                    "replacements_german", "Replacements arrive only in Night turns (25.2)."
                )
            return []
        pub = public(state)
        for side, key in REPLACEMENTS.items():
            used = [e for e in events if e["side"] == side and e["change"] in replacements.USES]
            if len(used) > (given[side] or 0):
                raise DomainError(
                    key,
                    f"The {self.book.side_name(side)} used {len(used)} replacement(s) but "
                    f"received {given[side] or 0} (25.2.1).",
                )
            if ctx.journal_version >= replacements.TYPED:
                units = [ledger.known_unit(pub["setup"], e["unit"]) for e in used]
                replacements.check_counts(self, side, given[side] or 0, units, key)
        words = ", ".join(
            f"{self.book.side_name(s)} {n if n is not None else 'not entered'}"
            for s, n in given.items()
        )
        return [
            ["Replacements", f"{words} (25.2); unused ones are forfeited, never saved (25.2.1)"]
        ]

    def evaluate(self, state, turn, ctx):
        return victory.evaluate(self, state, turn)

    def coming(self, state):
        turn = ledger.next_turn(public(state))
        if turn is None:
            return []
        if turn["kind"] == "night":
            return [
                [
                    "Night turn",
                    "Replacements as printed on the Turn Record Track, used or forfeited (25.2); "
                    "no Victory Check Phase (25.1)",
                ]
            ]
        return [["Victory Check Phase", f"at the end of the Allied {turn['label']} turn (30.1)"]]

    # --- reading ------------------------------------------------------------------------------
    def changes_for(self, pub, turn):
        if turn["kind"] == "night":
            return self.unit_changes
        return tuple(c for c in self.unit_changes if c not in ("restored", "rebuilt"))

    def unit_change_form_fields(self, pub, turn, sub):
        exits = [
            loc for loc in pub["setup"]["locations"] if loc.get("group") in ("exit_fg", "exit_east")
        ]
        labels = (("", "(not an exit)"), *((loc["id"], loc["name"]) for loc in exits))
        return [sub["via"].but(type="choice", choices=tuple(i for i, _ in labels), labels=labels)]

    def turn_extra_form_fields(self, pub, turn, fields):
        if turn["kind"] != "night":
            return []
        return [fields[key].but(group="Replacements") for key in REPLACEMENTS.values()]

    def location_words(self, loc):
        bits = [GROUP_WORDS.get(loc.get("group") or "", "")] if loc.get("group") else []
        if loc.get("victory") and loc.get("group") != "meuse":
            bits.append("victory hex")
        bits.append({"west": "West Map", "east": "East Map"}.get(loc.get("map"), ""))
        return ", ".join(b for b in bits if b)

    def unit_words(self, unit):
        kind = unit.get("type") or ""
        never = replacements.never_reason(unit) if kind else None
        return [
            replacements.TYPE_WORDS[kind] if kind else "",
            f"TQ {unit['tq']}" if unit.get("tq") else "",
            f"attack {unit['attack']}" if unit.get("attack") else "",
            "British" if unit.get("british") else "",
            "airborne" if unit.get("airborne") else "",
            "no replacements (25.2.5)" if never else "",
        ]

    def standings(self, state):
        game = state.get("game")
        if game is None or game["public"]["phase"] == "setup":
            return []
        pub = game["public"]
        info = self.book.scenario(pub["scenario"])
        if info["victory"] == "vp":
            vp, _ = victory.vp_tally(self, state)
            return [
                {
                    "side": "german",
                    "label": f"VP now (needs {self.value(state, info['vp_needed'])})",
                    "value": vp,
                }
            ]
        counts = victory.campaign_counts(self, state)
        held = lambda name: sum(victory.held(pub, loc) for loc in counts[name])  # noqa: E731
        allied = sum(victory.held(pub, loc, "allied") for loc in counts["german_start"])
        return [
            {
                "side": "german",
                "label": "Attack factors exited toward Antwerp (24 win)",
                "value": counts["af"],
            },
            {
                "side": "german",
                "label": "Meuse victory hexes controlled (4 win)",
                "value": held("meuse"),
            },
            {"side": "german", "label": "Liège hexes controlled (4 win)", "value": held("liege")},
            {
                "side": "german",
                "label": "West Map victory hexes controlled (6 win)",
                "value": len(counts["west"]),
            },
            {
                "side": "allied",
                "label": "German at-start areas occupied (3 at two checks win)",
                "value": allied,
            },
        ]

    def score_text(self, entry):
        if entry["scores"].get("german") is not None:
            return f"German {entry['scores']['german']} VP"
        return ""

    def chart_spec(self, state):
        pub = public(state)
        info = self.book.scenario(pub["scenario"])
        turns = [
            (t["label"], t["label"].replace(" ", "")) for t in pub["turns"] if t["kind"] == "day"
        ]
        if info["victory"] == "vp":
            need = self.value(state, info["vp_needed"])
            return {
                "title": "German VP by turn",
                "turns": turns,
                "series": [("vp", "German VP")],
                "lines": [(need, f"{need} VP at the end: German victory ({info['rule']}.4)")],
                "marks": [],
                "signed": None,
            }
        return {
            "title": "What 30.2 and 30.3 count at each Victory Check Phase",
            "panels": self._objective_panels(state, turns),
        }

    def _objective_panels(self, state, turns) -> list[dict]:
        """The objective scenarios: one small chart per thing a victory condition counts."""
        v = lambda key: self.value(state, key)  # noqa: E731
        meuse, liege, west = v("victory.meuse"), v("victory.liege"), v("victory.west")
        hex_lines = (
            [(meuse, f"{meuse}: Meuse or Liège, German victory")]
            if meuse == liege
            else [
                (meuse, f"{meuse} Meuse hexes: German victory"),
                (liege, f"{liege} Liège hexes: German victory"),
            ]
        )
        hex_lines.append((west, f"{west} West Map hexes: German victory"))
        times = v("victory.allied_checks")
        return [
            {
                "title": "Victory hexes the German controls (30.2)",
                "turns": turns,
                "signed": None,
                "marks": [],
                "series": [
                    ("meuse", "Meuse victory hexes"),
                    ("liege", "Liège hexes"),
                    ("west", "West Map victory hexes"),
                ],
                "lines": hex_lines,
            },
            {
                "title": "Attack factors exited toward Antwerp (30.2)",
                "turns": turns,
                "signed": None,
                "marks": [],
                "series": [("af", "Exited through F or G, an exit hex tracing supply")],
                "lines": [(v("victory.exit_af"), f"{v('victory.exit_af')}: German victory")],
            },
            {
                "title": "German at-start areas the Allies occupy (30.3)",
                "turns": turns,
                "signed": None,
                "marks": [],
                "series": [("allied", "Occupied by supplied Allied units")],
                "lines": [
                    (
                        v("victory.allied_areas"),
                        f"{v('victory.allied_areas')} at {times} checks in a row: Allied victory",
                    )
                ],
            },
        ]

    def demo(self, table):
        from .demo import build_demo

        return build_demo(table)


SYSTEM = Ardennes44()
