"""Units and RGs named as the players name them: an RG by its table
id and type, with an ordinal when a side has several of one; a unit by type and kind with its
ordinal among those of its RG; eliminated units keep their place; ids never reach a sentence."""

from __future__ import annotations

from campaigns.systems.achtung_panzer import words


def _private():
    purchases = [
        {"id": "p3", "rg": "I2", "group_type": "1st Line Coy", "nationality": "french"},
        {"id": "p8", "rg": "A1", "group_type": "Armored Plt", "nationality": "french"},
        {"id": "p68", "rg": "I2", "group_type": "1st Line Coy", "nationality": "french"},
        {"id": "p89", "rg": None, "note": "Initial OB", "nationality": "french", "given": True},
    ]
    retained = [
        {"id": "u4", "kind": "squad", "type": "458", "rg": "p3"},
        {"id": "u6", "kind": "squad", "type": "458", "rg": "p3", "status": "wounded"},
        {"id": "u7", "kind": "leader", "type": "8-0", "rg": "p3"},
        {"id": "u9", "kind": "gun", "type": "37* Inf Gun", "rg": "p68"},
        {"id": "u12", "kind": "sw", "type": "LMG", "rg": None, "captured": True},
    ]
    eliminated = [{"id": "u5", "kind": "squad", "type": "458", "rg": "p3"}]
    return {"purchases": purchases, "retained": retained, "eliminated": eliminated}


def test_rgs_and_units_by_the_names_players_use():
    names = words.Names(_private())
    assert names.rg("p3") == "1st RG I2 (1st Line Coy)"
    assert names.rg("p68") == "2nd RG I2 (1st Line Coy)"
    assert names.rg("p8") == "RG A1 (Armored Plt)"
    assert names.rg("p89") == "RG Initial OB"
    units = {u["id"]: u for u in _private()["retained"]}
    assert names.unit(units["u4"]) == "1st 458 squad of 1st RG I2 (1st Line Coy)"
    # u5 was eliminated: the next 458 squad stays the 3rd.
    assert names.label(units["u6"]) == "3rd 458 squad of 1st RG I2 (1st Line Coy) (wounded)"
    assert names.unit(units["u7"]) == "8-0 leader of 1st RG I2 (1st Line Coy)"
    assert names.unit(units["u9"]) == "37* Inf Gun of 2nd RG I2 (1st Line Coy)"  # never "Gun Gun"
    assert names.label(units["u12"]) == "LMG SW (captured)"
    assert names.unit(units["u6"], with_rg=False) == "3rd 458 squad"


def test_ids_in_sentences_become_names():
    names = words.Names(_private())
    assert (
        words.name_ids("u7 is listed twice.", names)
        == "The 8-0 leader of 1st RG I2 (1st Line Coy) is listed twice."
    )
    assert (
        words.name_ids("Name the weapon of u9 (MA, CMG, BMG…).", names)
        == "Name the weapon of the 37* Inf Gun of 2nd RG I2 (1st Line Coy) (MA, CMG, BMG…)."
    )
    assert (
        words.name_ids("p68 was not bought in this 1.619 step.", names)
        == "2nd RG I2 (1st Line Coy) was not bought in this 1.619 step."
    )
    assert (
        words.name_ids("No unit u99 here.", names) == "No unit u99 here."
    )  # unknown: left as given
    assert (
        words.subject_words("Escape (u4+u6)", names)
        == "Escape: 1st 458 squad of 1st RG I2 (1st Line Coy), 3rd 458 squad of 1st RG I2 (1st Line Coy)"
    )
    assert (
        words.subject_words("AFV platoon withdrawal (p8)", names)
        == "AFV platoon withdrawal: RG A1 (Armored Plt)"
    )
