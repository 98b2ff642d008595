"""Schema fuzzing: schemathesis, driven by the relay's own OpenAPI document as a real relay
process serves it, finds no server error and no answer the document does not describe.

Each operation is fuzzed with valid and invalid requests (random tokens and match ids), then
with a real seat's match and token, and a stateful run follows the document's links from a
seek's ticket to what its seat can do. Both stores: each valid request drawn is sent to a
relay on each (drawing a request costs more than sending it); the invalid ones only to the
memory store's, since the relay refuses them before any store is asked. Bounded by example
counts."""

from __future__ import annotations

import contextlib
import hashlib
import re
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from hypothesis.stateful import run_state_machine_as_test
from jsonschema import Draft202012Validator
from pytest_aiohttp import AiohttpClient
from schemathesis import GenerationMode
from schemathesis.specs.openapi.schemas import OpenApiSchema

from relay import Config, RelayError, create_app
from relay.api.fields.request import MAX_WHOLE, NAME, query_seconds
from relay.api.openapi import document
from relay.api.players import TOKEN
from relay.core.table import CHAT_MOST, NAME_MOST
from relay.core.text_policy import chat_line, clean_text, display_name
from relay.core.verdicts import DETAIL_MAX
from tests.reliability.conftest import LAX, assert_log_clean
from tests.support.components import in_ci
from tests.support.relay_process import RelayProcess

OPERATIONS = sorted(
    f"{method.upper()} {path}"
    for path, methods in document()["paths"].items()
    for method in methods
)
SEAT_OPERATIONS = [label for label in OPERATIONS if "{match}/" in label]

ACCEPTED = ["2XX", "401", "403", "404", "409", "410", "413", "429"]
"""Answers to a request the document calls valid that are not a fault: a random token or
match id (401, 403, 404), the state of the match (409, 410), a configured limit (413, 429)."""

FUZZ = settings(
    max_examples=40,
    deadline=None,
    database=None,
    derandomize=in_ci(),
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
"""Bounded: examples per operation and mode; no shrinking (the failure prints a curl line)."""


_DOCUMENTED_CHARS = re.compile("^[^\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]*$")
"""The characters the document's patterns allow in names, chat lines, reasons and words."""


def lawful(case: Any) -> None:
    """Makes a generated body keep the rules across fields that the document states in words
    only (JSON Schema cannot say them): a seek's rating range needs a player key, takes no
    room, and its min is at most its max; a move's claim and words come with end: true.

    A negative case is left as drawn: the relay refuses it whatever else it breaks, and a
    repair could remove the very field that made it negative (a rating range dropped for
    want of a player key left a valid seek that the negative check then called accepted)."""
    body = case.body
    meta = case.meta
    if not isinstance(body, dict) or (meta is not None and meta.generation.mode.is_negative):
        return
    found = body.get("rating_range")
    if isinstance(found, dict):
        if body.get("player") is None or body.get("room") is not None:
            del body["rating_range"]
        elif isinstance(found.get("min"), int | float) and isinstance(
            found.get("max"), int | float
        ):
            found["min"], found["max"] = sorted((found["min"], found["max"]))
    for field in ("claim", "detail"):
        if field in body and body.get("end") is not True:
            del body[field]
    # Names, chat lines, reasons and words follow Unicode's rules in words (docs/fair-play.md): one
    # script to a name, nothing invisible; the document's patterns say only the simplest. A
    # text the document allows and those rules refuse is made one they keep (a text the
    # document refuses stays, a negative case).
    checks: tuple[tuple[str, Callable[[str], object], str], ...] = (
        ("name", lambda text: display_name(text, NAME_MOST), "Ann"),
        ("text", lambda text: chat_line(text, CHAT_MOST), "good game"),
        ("reason", lambda text: text.strip() and clean_text(text, "reason", DETAIL_MAX), "why"),
        ("detail", lambda text: text.strip() and clean_text(text, "detail", DETAIL_MAX), "mate"),
    )
    for field, check, kept in checks:
        value = body.get(field)
        if not isinstance(value, str) or _DOCUMENTED_CHARS.search(value) is None:
            continue
        try:
            check(value)
        except RelayError:
            body[field] = kept


class Fuzzed:
    """A relay process and its OpenAPI document as schemathesis loaded it from the relay."""

    def __init__(self, relay: RelayProcess) -> None:
        self.relay = relay
        config = schemathesis.Config.from_dict(
            {"checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}}}
        )
        self.schema: OpenApiSchema = schemathesis.openapi.from_url(
            relay.url + "/v1/openapi.json", config=config, timeout=10
        )

    def operation(self, label: str) -> Any:
        """Returns the API operation of a label such as 'POST /v1/seek'."""
        method, path = label.split(" ", 1)
        return self.schema[path][method]

    def seat(self, game: str) -> dict[str, Any]:
        """Returns the ticket of a seat in a started match (the seat that moves first)."""
        tickets = []
        for _ in range(2):
            answer = requests.post(self.relay.url + "/v1/seek", json={"game": game}, timeout=10)
            assert answer.status_code == 201, answer.text
            tickets.append(answer.json())
        # Seat 0 polls again, as a live client does: that starts the paired match.
        events = requests.get(
            f"{self.relay.url}/v1/matches/{tickets[0]['match']}/events?after=0",
            headers={"Authorization": f"Bearer {tickets[0]['token']}"},
            timeout=10,
        ).json()["events"]
        ticket: dict[str, Any] = tickets[events[0]["first"]]
        return ticket


@contextlib.contextmanager
def _fuzzed(store: str) -> Iterator[Fuzzed]:
    """Runs a relay process on the store, its document loaded; its log is checked after."""
    args = ("--store", store, "--hold", "0.05", "--grace", "30", "--max-waiting", "100000")
    with RelayProcess(*args, *LAX) as relay:
        yield Fuzzed(relay)
    assert_log_clean(relay)


@pytest.fixture(scope="module")
def memory_fuzzed() -> Iterator[Fuzzed]:
    """Returns a relay process on the memory store, fuzzed by every test of the module."""
    with _fuzzed("memory") as fuzzed:
        yield fuzzed


@pytest.fixture(scope="module")
def redis_fuzzed(redis_url: str) -> Iterator[Fuzzed]:
    """Returns a relay process on Redis, fuzzed by the tests whose requests reach a store."""
    with _fuzzed(redis_url) as fuzzed:
        yield fuzzed


@pytest.fixture(scope="module", params=["memory", "redis"])
def fuzzed(request: pytest.FixtureRequest) -> Fuzzed:
    """Returns a relay process on each store."""
    found: Fuzzed = request.getfixturevalue(f"{request.param}_fuzzed")
    return found


@pytest.fixture(scope="module")
def both(memory_fuzzed: Fuzzed, redis_fuzzed: Fuzzed) -> dict[str, Fuzzed]:
    """Returns the relay processes on both stores, by store."""
    return {"memory": memory_fuzzed, "redis": redis_fuzzed}


def _send(case: Any, url: str, store: str) -> None:
    """Sends the case to the relay at url and checks the answer against the document, saying
    which store's relay answered when the check fails."""
    try:
        case.call_and_validate(base_url=url, timeout=10)
    except BaseException as failed:  # schemathesis raises a group of its checks' failures
        failed.add_note(f"(the relay on the {store} store answered)")
        raise


def _fuzz(relays: dict[str, Fuzzed], label: str, mode: GenerationMode) -> None:
    """Fuzzes one operation with requests of one mode, each sent to every relay of `relays`:
    every answer is one the document describes."""
    operation = next(iter(relays.values())).operation(label)

    @FUZZ
    @given(case=operation.as_strategy(generation_mode=mode))
    def fuzz(case: Any) -> None:
        if mode is GenerationMode.POSITIVE:
            lawful(case)
        for store, fuzzed in relays.items():
            _send(case, fuzzed.relay.url, store)

    try:
        fuzz()
    except Unsatisfiable:
        # Nothing to make invalid: no parameters or body (GET /healthz), or only a free string.
        assert mode is GenerationMode.NEGATIVE


@pytest.mark.parametrize("label", OPERATIONS)
def test_operation_answers_as_documented(both: dict[str, Fuzzed], label: str) -> None:
    _fuzz(both, label, GenerationMode.POSITIVE)


@pytest.mark.parametrize("label", OPERATIONS)
def test_invalid_request_answers_as_documented(memory_fuzzed: Fuzzed, label: str) -> None:
    # Requests the document calls invalid are refused by the relay's readers before any store
    # is asked: they are fuzzed on one store.
    _fuzz({"memory": memory_fuzzed}, label, GenerationMode.NEGATIVE)


@pytest.mark.parametrize("label", SEAT_OPERATIONS)
def test_seat_operation_with_a_real_seat_answers_as_documented(
    both: dict[str, Fuzzed], label: str
) -> None:
    # A seat in a match of each relay's own; each request drawn is sent to both, as each
    # seat's: the match and the token are the only parts that differ.
    tickets = {
        store: fuzzed.seat("fuzz-" + label.rsplit("/", 1)[1]) for store, fuzzed in both.items()
    }
    drawn = tickets["memory"]
    strategy = (
        both["memory"]
        .operation(label)
        .as_strategy(
            path_parameters={"match": drawn["match"]},
            headers={"Authorization": f"Bearer {drawn['token']}"},
        )
    )

    @FUZZ
    @given(case=strategy)
    def fuzz(case: Any) -> None:
        lawful(case)
        for store, fuzzed in both.items():
            ticket = tickets[store]
            case.path_parameters = {**(case.path_parameters or {}), "match": ticket["match"]}
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {ticket['token']}"}
            _send(case, fuzzed.relay.url, store)

    fuzz()
    for store, fuzzed in both.items():
        match = tickets[store]["match"]
        info = requests.get(f"{fuzzed.relay.url}/v1/matches/{match}", timeout=10)
        assert info.status_code in (200, 410), (store, info.text)
        log = requests.get(
            f"{fuzzed.relay.url}/v1/matches/{match}/events?after=0&wait=0", timeout=10
        )
        if info.status_code == 200:
            events = orjson.loads(log.content)["events"]
            seqs = [event["seq"] for event in events]
            assert seqs == list(range(1, info.json()["last"] + 1)), store


def test_stateful_run_follows_the_documented_links(fuzzed: Fuzzed) -> None:
    seen: dict[tuple[str, int], int] = {}
    base = fuzzed.schema.as_state_machine()
    url = fuzzed.relay.url

    class Machine(base):  # type: ignore[valid-type,misc]
        def __init__(self) -> None:
            super().__init__()
            self.run_id = secrets.token_hex(4)

        def before_call(self, case: Any) -> None:
            # Each run plays in games and with tokens of its own: the relay keeps its matches
            # between runs, and the same seek must meet the same answer whenever hypothesis
            # replays it (a room full from an earlier run would make the run flaky).
            super().before_call(case)
            lawful(case)
            if case.operation.label == "POST /v1/seek" and isinstance(case.body, dict):
                game, token = case.body.get("game"), case.body.get("token")
                if isinstance(game, str) and NAME.fullmatch(game):
                    case.body["game"] = (self.run_id + game)[:64]
                if isinstance(token, str) and TOKEN.fullmatch(token):
                    case.body["token"] = hashlib.sha256((self.run_id + token).encode()).hexdigest()

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"base_url": url, "timeout": 10}

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            key = (case.operation.label, response.status_code)
            seen[key] = seen.get(key, 0) + 1

    stateful = settings(FUZZ, max_examples=40, stateful_step_count=10)
    run_state_machine_as_test(Machine, settings=stateful)
    # The links were followed: seats acted with their own tokens, not only random ones.
    assert seen.get(("POST /v1/seek", 201), 0) > 10
    followed = {label for (label, status) in seen if status in (200, 409)}
    assert len(followed & set(SEAT_OPERATIONS)) >= 3, seen


# -- what the fuzzing found: the document and the relay now agree -----------------------------


async def seated_mover(
    aiohttp_client: AiohttpClient,
) -> tuple[Any, dict[str, Any], str, dict[str, str]]:
    """Pairs two seekers on a fresh in-process relay; returns its client, the ticket of the
    seat to move, that seat's moves URL and its Authorization header."""
    client = await aiohttp_client(create_app(Config(hold=0.1)))
    seats = [await (await client.post("/v1/seek", json={"game": "g"})).json() for _ in range(2)]
    # Seat 0 polls again, as a live client does: that starts the paired match.
    poll = f"/v1/matches/{seats[0]['match']}/events?after=0"
    opener = {"Authorization": f"Bearer {seats[0]['token']}"}
    events = await (await client.get(poll, headers=opener)).json()
    mover: dict[str, Any] = seats[events["events"][0]["first"]]
    headers = {"Authorization": f"Bearer {mover['token']}"}
    return client, mover, f"/v1/matches/{mover['match']}/moves", headers


async def test_whole_number_written_with_a_point_is_a_whole_number(
    aiohttp_client: AiohttpClient,
) -> None:
    # JSON has one number type, and the document's 'integer' admits 1.0; so does the relay.
    client, _, url, headers = await seated_mover(aiohttp_client)
    for after in (1.5, 1e19, -1.0, float(MAX_WHOLE + 1)):
        answer = await client.post(url, json={"after": after, "move": "m"}, headers=headers)
        assert answer.status == 400, after
    answer = await client.post(url, json={"after": 1.0, "move": "m"}, headers=headers)
    assert (answer.status, await answer.json()) == (200, {"seq": 2})


@pytest.mark.parametrize(
    "wait", ["0", "2", "0.5", "1.", "123456789.123456", "1e3", ".5", "-1", "1234567890", "inf"]
)
def test_documented_wait_is_what_the_relay_accepts(wait: str) -> None:
    pattern = document()["paths"]["/v1/matches/{match}/events"]["get"]["parameters"][2]
    documented = re.fullmatch(pattern["schema"]["pattern"].strip("^$"), wait) is not None
    try:
        query_seconds(wait, "wait")
    except RelayError:
        accepted = False
    else:
        accepted = True
    assert documented == accepted


@pytest.mark.parametrize("field", ["version", "room", "token"])
async def test_optional_seek_field_sent_as_null_is_absent(
    aiohttp_client: AiohttpClient, field: str
) -> None:
    client = await aiohttp_client(create_app(Config(hold=0.1)))
    body = {"game": "nulls", field: None}
    doc = document()
    seek = doc["paths"]["/v1/seek"]["post"]["requestBody"]["content"]["application/json"]
    Draft202012Validator({**seek["schema"], "components": doc["components"]}).validate(body)
    answer = await client.post("/v1/seek", json=body)
    assert answer.status == 201, await answer.text()


async def test_move_with_a_bad_wait_is_refused_unapplied(aiohttp_client: AiohttpClient) -> None:
    client, mover, url, headers = await seated_mover(aiohttp_client)
    answer = await client.post(url + "?wait=soon", json={"after": 1, "move": "m"}, headers=headers)
    assert answer.status == 400
    info = await (await client.get(f"/v1/matches/{mover['match']}")).json()
    assert info["last"] == 1
    answer = await client.post(url + "?wait=0", json={"after": 1, "move": "m"}, headers=headers)
    assert (answer.status, await answer.json()) == (200, {"seq": 2, "events": []})
