"""What the browser client needs from the server beyond play: every value a rule option takes
(to offer them all, sorteo included), each option's range and modes as the core validates them,
and who is watching the mesa (the mirones)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from fichaflow.core.errors import RulesError
from fichaflow.core.rules import OPTIONS, Rules
from tests.server.kit import Client, ServerProcess, create_mesa, get_json, join


def test_presets_list_every_value_of_every_option(server: ServerProcess) -> None:
    async def scenario() -> None:
        answer = await get_json(server, "/api/presets")
        choices = answer["choices"]
        # The values RULES.md names for each option.
        assert set(choices["mode"]) == {"parejas", "mano_a_mano", "tres"}
        assert set(choices["first_lead"]) == {"doble_seis", "sorteo", "doble_mayor"}
        assert set(choices["next_lead"]) == {"rotacion", "ganador"}
        assert set(choices["tranque_rule"]) == {"pareja", "abajo"}
        assert set(choices["tranque_tie"]) == {"nadie", "salida"}
        assert set(choices["domino_count"]) == set(choices["tranque_count"]) == {"rivals", "all"}
        # Every value a preset uses is offered.
        for options in answer["presets"].values():
            for option, values in choices.items():
                assert options[option] in values

    asyncio.run(scenario())


def _a_table(mode: str, **overrides: Any) -> Rules:
    """Rules of ``mode`` with ``overrides``, on the mode's own preset (parejas: venezuela); a
    stock mode leads with doble_mayor unless told otherwise."""
    if mode == "parejas":
        return Rules.make("venezuela", **overrides)
    return Rules.make("venezuela", **{"mode": mode, "first_lead": "doble_mayor", **overrides})


def test_the_served_options_are_what_the_core_takes(server: ServerProcess) -> None:
    """Every value the answer offers is taken by the core, in every mode it names, and the values
    just outside its ranges (or a choice outside its modes) are refused."""
    answer = asyncio.run(get_json(server, "/api/presets"))
    served = {option["name"]: option for option in answer["options"]}
    assert sorted(served) == sorted(OPTIONS)
    assert answer["default_preset"] == Rules.make().preset
    for mode, seats in answer["seats"].items():
        assert _a_table(mode).seats == seats
    for name, option in served.items():
        assert set(option["modes"]) <= set(answer["seats"]), name
        for mode in answer["seats"]:
            if name == "mode":
                continue
            if option["kind"] == "integer":
                low, high = option["min"], option["max"]
                assert getattr(_a_table(mode, **{name: low}), name) == low
                assert getattr(_a_table(mode, **{name: high}), name) == high
                for outside in (low - 1, high + 1):
                    with pytest.raises(RulesError):
                        _a_table(mode, **{name: outside})
                continue
            for choice in option["choices"]:
                if mode in option["choice_modes"].get(choice, [mode]):
                    assert getattr(_a_table(mode, **{name: choice}), name) == choice
                else:
                    with pytest.raises(RulesError):
                        _a_table(mode, **{name: choice})
            with pytest.raises(RulesError):
                _a_table(mode, **{name: "cualquiera"})
        # An option is idle exactly where the answer says: outside its modes, or when a value
        # it names makes it moot.
        for preset, values in answer["presets"].items():
            rules = Rules.make(preset)
            moot = any(values[other] in which for other, which in option["idle_when"].items())
            outside = values["mode"] not in option["modes"]
            assert (name in rules.idle_options()) == (outside or moot), (preset, name)


def test_the_mesa_shows_its_mirones(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(server, rules="mano_a_mano", name="Ana", seat=0)
        code = created["code"]
        host = Client(server, code, created["token"])
        welcome = await host.connect()
        assert welcome["mesa"]["mirones"] == []
        # Somebody who opened the link without joining: a mirón with no name.
        stranger = Client(server, code)
        await stranger.connect()
        # Who watches comes as a small message of its own, not the whole mesa.
        told = await host.expect("mirones", where=lambda m: m["mirones"] == [None])
        assert told["mirones_count"] == 1 and set(told) == {
            "type",
            "seq",
            "mirones",
            "mirones_count",
        }
        # A parado is in the queue, not among the mirones; a person with no chair watches.
        parado = await join(server, code, "Beto", None)
        beto = Client(server, code, parado["token"])
        await beto.connect()
        await host.expect(
            "mesa", where=lambda m: [q["name"] for q in m["mesa"]["queue"]] == ["Beto"]
        )
        assert (await get_json(server, f"/api/mesas/{code}"))["mesa"]["mirones"] == [None]
        await beto.send({"type": "unqueue"})
        await host.expect(
            "mesa", where=lambda m: sorted(m["mesa"]["mirones"], key=str) == ["Beto", None]
        )
        # Those who leave are no longer counted.
        await stranger.close()
        await beto.close()
        told = await host.expect("mirones", where=lambda m: m["mirones"] == [])
        assert told["mirones_count"] == 0
        await host.close()

    asyncio.run(scenario())
