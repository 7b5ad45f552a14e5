"""Hypothesis strategies for what a client may send: JSON of every shape, odd text, odd numbers, raw bytes."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# Every code point, NUL and lone surrogates included (json.dumps escapes them, json.loads restores them).
any_text = st.text(st.characters(exclude_categories=()), max_size=12)
# What a browser can put in a form: any character but a lone surrogate (forms are sent as UTF-8).
form_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=16)

huge_numbers = (
    st.sampled_from([2**31, 2**53 + 1, 2**62, 2**63, -(2**63) - 1, 2**64, 10**30, 10**300]) | st.integers()
)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 10**12)
    | huge_numbers
    | st.floats(allow_nan=False)
    | any_text
    | st.sampled_from(["", "\x00", "cosmic_crowns", "casual", "strong", "play", "eagle-10", "joker"])
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(any_text, children, max_size=4),
    max_leaves=12,
)


def nested(depth: int, opening: str = "[", closing: str = "]") -> str:
    return opening * depth + closing * depth


# Raw request bodies: JSON text, JSON nested past any recursion limit, broken JSON, bytes that are not UTF-8.
raw_bodies = (
    json_values.map(json.dumps)
    | st.builds(nested, st.integers(1, 60_000))
    | st.builds(lambda d: nested(d, '{"a":', "}").replace("}", "1}", 1), st.integers(1, 5_000))
    | st.builds(lambda d: '{"move":' + nested(d) + ', "seq": 0}', st.integers(900, 3_000))
    | any_text.map(lambda t: t.encode("utf-8", "surrogatepass"))
    | st.binary(max_size=64)
)


def fuzz_settings(max_examples: int) -> settings:
    """No deadline (the machine is shared); function-scoped fixtures are set up once for all the examples."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )
