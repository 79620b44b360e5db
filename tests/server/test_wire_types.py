"""The named shapes of what the server sends (``fichaflow.server.wire``) are what it really sends:
every WebSocket message of a partida with a person, bots and a mirón, and every HTTP answer,
checked key by key and value by value against its type (no key missing, none unexpected)."""

from __future__ import annotations

import asyncio
import json
import types
from enum import StrEnum
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import httpx
from typing_extensions import is_typeddict

from fichaflow.http import ErrorAnswer
from fichaflow.server import protocol as p
from fichaflow.server import wire
from tests.server.kit import Client, ServerProcess, create_mesa, get_json, join

MESSAGES = {get_args(get_type_hints(t)["type"])[0]: t for t in get_args(wire.Message)}


def conforms(value: Any, kind: Any, where: str) -> None:
    """Assert that the JSON ``value`` has the type ``kind``, naming the first place it does not."""
    origin = get_origin(kind)
    if kind is Any:
        return
    if is_typeddict(kind):
        assert isinstance(value, dict), f"{where}: not an object"
        hints = get_type_hints(kind)
        missing = kind.__required_keys__ - value.keys()
        unexpected = value.keys() - hints.keys()
        assert not missing and not unexpected, f"{where}: lacks {missing}, has {unexpected}"
        for key, item in value.items():
            conforms(item, hints[key], f"{where}.{key}")
    elif origin is Literal:
        assert value in get_args(kind), f"{where}: {value!r} is not one of {get_args(kind)}"
    elif origin in (Union, types.UnionType):
        failures = []
        for option in get_args(kind):
            try:
                conforms(value, option, where)
                return
            except AssertionError as exc:
                failures.append(str(exc))
        raise AssertionError(" / ".join(failures))
    elif origin is list:
        assert isinstance(value, list), f"{where}: not a list"
        for i, item in enumerate(value):
            conforms(item, get_args(kind)[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), f"{where}: not an object"
        for key, item in value.items():
            conforms(item, get_args(kind)[1], f"{where}.{key}")
    elif kind is type(None):
        assert value is None, f"{where}: {value!r} is not null"
    elif isinstance(kind, type) and issubclass(kind, StrEnum):
        assert value in {str(m) for m in kind}, f"{where}: {value!r} is not a {kind.__name__}"
    elif kind is float:
        assert isinstance(value, int | float) and not isinstance(value, bool), where
    elif kind is int:
        assert isinstance(value, int) and not isinstance(value, bool), f"{where}: {value!r}"
    else:
        assert isinstance(value, kind), f"{where}: {value!r} is not a {kind.__name__}"


def test_the_checker_refuses_a_missing_key_an_unexpected_key_and_a_wrong_value() -> None:
    good = {"type": "pong", "ref": "r1"}
    conforms(good, wire.Pong, "pong")
    for bad in (
        {"type": "pong"},
        {**good, "extra": 1},
        {**good, "ref": 1.5},
        {**good, "ref": True},
    ):
        try:
            conforms(bad, wire.Pong, "pong")
        except AssertionError:
            continue
        raise AssertionError(f"{bad} passed")


def test_every_message_and_answer_has_its_named_shape(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(
            server,
            rules={"preset": "mano_a_mano", "target": 30},
            seats=[None, "tirapuntos"],
            name="Ana",
        )
        conforms(created, wire.CreatedMesa, "POST /api/mesas")
        code = created["code"]
        joined = await join(server, code, "Beto", 0)
        conforms(joined, wire.Joined, "join")
        queued = await join(server, code, "Carla", None)
        conforms(queued, wire.Joined, "join (queue)")
        player = Client(server, code, joined["token"], autoplay=True, seed=3)
        miron = Client(server, code)
        host = Client(server, code, created["token"])
        for client in (player, miron, host):
            await client.connect()
        await host.ping()
        await host.ask({"type": "play", "move": "6-6"})  # before the partida: an error
        await host.send({"type": "say", "phrase": "buena"})
        await host.send({"type": "say", "text": "¡Suerte!"})
        await host.send({"type": "block", "person": joined["person"]})
        await host.expect("blocked")
        await host.send({"type": "block", "person": joined["person"], "on": False})
        await player.send({"type": "say", "text": "¡Vamos!"})
        heard = await host.expect("chat", where=lambda m: m["text"] == "¡Vamos!")
        await host.send({"type": "report", "id": heard["id"]})
        await host.expect("reported")
        await host.send({"type": "start"})
        await asyncio.wait_for(host.partida_over.wait(), 120)
        await asyncio.sleep(0.2)
        for client in (player, miron, host):
            await client.close()
        seen = set()
        for who, client in (("player", player), ("miron", miron), ("host", host)):
            for i, message in enumerate(client.log):
                seen.add(message["type"])
                conforms(message, MESSAGES[message["type"]], f"{who}[{i}] {message['type']}")
        # (``status`` is sent only while a server loses its Redis: tests/cluster/test_redis_banner)
        assert seen == set(MESSAGES) - {"status"}, f"not seen: {set(MESSAGES) - seen}"
        conforms(await get_json(server, f"/api/mesas/{code}"), wire.MesaPublic, "GET mesa")
        answer = await get_json(server, f"/api/mesas/{code}/partidas/1/record")
        conforms(answer, wire.PartidaRecord, "record")
        conforms(await get_json(server, "/api/health"), wire.Health, "health")
        conforms(await get_json(server, "/api/bots"), wire.BotsOffered, "bots")
        async with server.http() as http:
            missing = await http.get("/api/mesas/nothere")
        assert missing.status_code == 404
        conforms(missing.json(), ErrorAnswer, "404")

    asyncio.run(scenario())


def test_the_openapi_document_names_every_answer_of_the_game_server(server: ServerProcess) -> None:
    document = httpx.get(f"{server.url}/openapi.json", timeout=10).json()
    answers = {
        ("get", "/api/health"): ("200", "Health"),
        ("get", "/api/bots"): ("200", "BotsOffered"),
        ("post", "/api/mesas"): ("201", "CreatedMesa"),
        ("get", "/api/mesas/{code}"): ("200", "MesaPublic"),
        ("post", "/api/mesas/{code}/join"): ("201", "Joined"),
        ("get", "/api/mesas/{code}/partidas/{number}/record"): ("200", "PartidaRecord"),
    }
    for (method, path), (status, name) in answers.items():
        content = document["paths"][path][method]["responses"][status]["content"]
        schema = content["application/json"]["schema"]
        assert schema == {"$ref": f"#/components/schemas/{name}"}, (method, path)
    refusals = {
        ("post", "/api/mesas"): {"400", "429"},
        ("get", "/api/mesas/{code}"): {"404"},
        ("post", "/api/mesas/{code}/join"): {"400", "404", "429"},
        ("get", "/api/mesas/{code}/partidas/{number}/record"): {"404"},
    }
    for (method, path), statuses in refusals.items():
        for status in statuses:
            answer = document["paths"][path][method]["responses"][status]
            schema = answer["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorAnswer"}, (method, path, status)
    mesa = document["components"]["schemas"]["MesaState"]
    assert set(mesa["required"]) == set(get_type_hints(wire.MesaState))
    assert json.dumps(document)  # the document itself is JSON


def test_the_openapi_document_shows_the_bodies_the_game_server_reads(
    server: ServerProcess,
) -> None:
    """The endpoints read their bodies themselves (for the protocol's own errors), so FastAPI
    cannot see them: the document declares them, or a client generator and the HTTP fuzzer
    (tests/fuzz) would know nothing of what to send."""
    document = httpx.get(f"{server.url}/openapi.json", timeout=10).json()
    for path, model in (("/api/mesas", p.CreateMesa), ("/api/mesas/{code}/join", p.Join)):
        body = document["paths"][path]["post"]["requestBody"]
        schema = body["content"]["application/json"]["schema"]
        assert set(schema["properties"]) == set(model.model_fields), path
        assert schema["additionalProperties"] is False, path
        assert body["required"] == bool(schema.get("required")), path
        assert "$ref" not in json.dumps(schema), path  # pydantic's $defs are written out
    join = document["paths"]["/api/mesas/{code}/join"]["post"]["requestBody"]
    assert join["content"]["application/json"]["schema"]["required"] == ["name"]
    create = document["paths"]["/api/mesas"]["post"]["requestBody"]
    options = create["content"]["application/json"]["schema"]["properties"]["options"]
    assert set(options["properties"]) == set(p.MesaOptions.model_fields)
    assert options["properties"]["bot_pause_ms"]["maximum"] == 5000
