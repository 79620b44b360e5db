"""Creating and joining mesas over real HTTP, and the errors a person gets for bad requests."""

from __future__ import annotations

import asyncio

from tests.server.kit import ServerProcess, create_mesa, get_json, is_spanish_error


def test_create_a_mesa_and_take_seats(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(
            server, rules="venezuela", seats=[None, "tirapuntos", None, None], name="Ana", seat=0
        )
        code = created["code"]
        assert len(code) >= 12
        assert created["join_url"].endswith(f"/m/{code}")
        assert created["seat"] == 0 and len(created["token"]) >= 32
        assert created["node"] is None  # a server alone names no server (not the machine's name)
        mesa = (await get_json(server, f"/api/mesas/{code}"))["mesa"]
        kinds = [s["kind"] for s in mesa["seats"]]
        assert kinds == ["human", "bot", "empty", "empty"]
        assert mesa["seats"][0]["name"] == "Ana" and mesa["host"]["name"] == "Ana"
        assert mesa["rule_options"]["target"] == 100

        async with server.http() as http:
            joined = await http.post(f"/api/mesas/{code}/join", json={"name": "Beto", "seat": 2})
            assert joined.status_code == 201
            assert joined.json()["seat"] == 2
            assert joined.json()["token"] != created["token"]
            assert joined.json()["node"] is None
            taken = await http.post(f"/api/mesas/{code}/join", json={"name": "Caro", "seat": 2})
            assert taken.status_code == 400
            assert is_spanish_error(taken.json()["error"], "server.seat_taken")
            parado = await http.post(f"/api/mesas/{code}/join", json={"name": "Dani"})
            assert parado.json()["queued"] is True and parado.json()["seat"] is None
        mesa = (await get_json(server, f"/api/mesas/{code}"))["mesa"]
        assert [q["name"] for q in mesa["queue"]] == ["Dani"]
        assert mesa["seats"][2]["name"] == "Beto"

    asyncio.run(scenario())


def test_bad_requests_get_a_code_and_a_spanish_text(server: ServerProcess) -> None:
    async def scenario() -> None:
        mesas_before = (await get_json(server, "/api/health"))["mesas"]
        async with server.http() as http:
            cases = [
                ("/api/mesas", {"rules": "nada"}, "rules.unknown_preset"),
                ("/api/mesas", {"rules": {"preset": "venezuela", "target": 9}}, "rules.target"),
                ("/api/mesas", {"color": "rojo"}, "server.extra_field"),
                ("/api/mesas", {"seats": ["tirafichas"]}, "server.plan_size"),
                ("/api/mesas", {"seats": ["omnisciente", None, None, None]}, "bot.unknown"),
                ("/api/mesas", {"options": {"turn_seconds": 1}}, "server.bad_field"),
                ("/api/mesas", {"name": ""}, "name.blank"),
            ]
            for path, body, code in cases:
                response = await http.post(path, json=body)
                assert response.status_code == 400, (body, response.text)
                assert is_spanish_error(response.json()["error"], code), response.json()
            # A rule's error names the field as the lobby and the anotador show it (#15).
            meta = await http.post(
                "/api/mesas", json={"rules": {"preset": "venezuela", "target": 5}}
            )
            assert meta.json()["error"]["message"].startswith("La meta"), meta.text
            broken = await http.post("/api/mesas", content=b"{not json")
            assert is_spanish_error(broken.json()["error"], "server.bad_json")
            huge = await http.post("/api/mesas", content=b" " * 5000)
            assert is_spanish_error(huge.json()["error"], "server.too_big_http")
            missing = await http.get("/api/mesas/NOSUCHMESA")
            assert missing.status_code == 404
            assert is_spanish_error(missing.json()["error"], "server.no_mesa")
            nobody = await http.post("/api/mesas/NOSUCHMESA/join", json={"name": "Eva"})
            assert nobody.status_code == 404
        created = await create_mesa(server, rules="mano_a_mano")
        async with server.http() as http:
            out = await http.post(
                f"/api/mesas/{created['code']}/join", json={"name": "Eva", "seat": 5}
            )
            assert is_spanish_error(out.json()["error"], "server.seat_range")
            blank = await http.post(f"/api/mesas/{created['code']}/join", json={"name": "   "})
            assert is_spanish_error(blank.json()["error"], "name.blank")
        # nothing was created by the failed requests
        assert (await get_json(server, "/api/health"))["mesas"] == mesas_before + 1

    asyncio.run(scenario())


def test_web_client_join_link_and_catalogues(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(server)
        async with server.http() as http:
            home = await http.get("/")
            assert home.status_code == 200 and "FichaFlow" in home.text
            link = await http.get(f"/m/{created['code']}")
            assert link.status_code == 200 and link.text == home.text
            bots = (await http.get("/api/bots")).json()["bots"]
            assert {"tirafichas", "tirapuntos", "acuestafichas"} <= set(bots)
            assert "omnisciente" not in bots
            presets = (await http.get("/api/presets")).json()["presets"]
            assert presets["dominicana"]["tranque_rule"] == "abajo"

    asyncio.run(scenario())
