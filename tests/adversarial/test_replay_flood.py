"""Issue 24, finding 1: a replay was rebuilt on the event loop for every request,
uncached and unlimited, so clients looping on a long game's replay froze the room.

Now each finished game's replay is built once (concurrent askers share the build, off
the event loop), kept gzipped, served with an ETag (304 to ``If-None-Match``) and
``Cache-Control``, and rate limited per client address.
"""

from __future__ import annotations

from ..server.conftest import SettingsFactory
from .conftest import Call, at_once, statuses
from .inprocess import room_of, served
from .stored import store_game

RULES = {"ruleset": "classic", "players": 4, "mode": "single"}


def test_a_replay_is_built_once_and_cached_with_an_etag(fast_settings: SettingsFactory) -> None:
    with served(fast_settings) as client:
        the_room = room_of(client)
        assert client.portal is not None
        table_id, moves = client.portal.call(store_game, the_room, RULES, 3)
        url = f"/api/tables/{table_id}/replay"
        asked = at_once(client, [Call("GET", url, address=f"198.51.100.{i}") for i in range(8)])
        assert statuses(asked) == [200] * 8
        assert the_room.replays.builds == 1  # eight askers, one build
        first = asked[0]
        assert len(first.json()["steps"]) == moves + 1
        assert first.headers["content-encoding"] == "gzip"
        assert "max-age" in first.headers["cache-control"]
        etag = first.headers["etag"]
        again = client.get(url, headers={"if-none-match": etag})
        assert again.status_code == 304 and again.headers["etag"] == etag
        plain = client.get(url, headers={"accept-encoding": "identity"})
        assert plain.json() == first.json() and "content-encoding" not in plain.headers
        assert the_room.replays.builds == 1


def test_one_address_looping_on_a_replay_is_rate_limited(fast_settings: SettingsFactory) -> None:
    with served(fast_settings) as client:
        assert client.portal is not None
        table_id, _ = client.portal.call(store_game, room_of(client), RULES, 4)
        url = f"/api/tables/{table_id}/replay"
        flood = at_once(client, [Call("GET", url, address="203.0.113.9")] * 30)
        codes = statuses(flood)
        assert codes.count(429) >= 15 and 200 in codes
        refused = next(r for r in flood if r.status_code == 429)
        assert refused.json()["error"] == "rate_limited" and "retry-after" in refused.headers
        other = at_once(client, [Call("GET", url, address="203.0.113.10")])
        assert statuses(other) == [200]  # another address is not held up
