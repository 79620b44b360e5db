"""What the browser client needs from the server beyond play: every value a rule option takes
(to offer them all, sorteo included), and who is watching the mesa (the mirones)."""

from __future__ import annotations

import asyncio

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
        state = await host.expect("mesa", where=lambda m: m["mesa"]["mirones"] == [None])
        assert state["mesa"]["queue"] == []
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
        await host.expect("mesa", where=lambda m: m["mesa"]["mirones"] == [])
        await host.close()

    asyncio.run(scenario())
