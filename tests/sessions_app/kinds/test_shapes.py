"""Payload shapes: what passes and what is refused, with the place named."""

from typing import Literal, NotRequired, TypedDict

import pytest

from sessions_app.kinds.shapes import PayloadError, shape_check


class Side(TypedDict):
    character: str
    value: int


class Sample(TypedDict):
    label: str
    secret: bool
    difficulty: int | None
    faces: list[int]
    side: Side
    mode: NotRequired[Literal["ic", "narration"]]


class Other(TypedDict):
    total: int


GOOD = {
    "label": "Search",
    "secret": False,
    "difficulty": None,
    "faces": [3, 4],
    "side": {"character": "Aki", "value": 5},
}


def test_shape_check_accepts_matching_payload():
    shape_check(Sample, GOOD)
    shape_check(Sample, {**GOOD, "difficulty": 9, "mode": "ic"})


@pytest.mark.parametrize(
    ("payload", "named"),
    [
        ({key: value for key, value in GOOD.items() if key != "label"}, "lacks label"),
        ({**GOOD, "extra": 1}, "does not declare: extra"),
        ({**GOOD, "label": 3}, "payload.label"),
        ({**GOOD, "difficulty": "9"}, "payload.difficulty"),
        ({**GOOD, "difficulty": True}, "payload.difficulty"),
        ({**GOOD, "secret": 0}, "payload.secret"),
        ({**GOOD, "faces": [3, "4"]}, "payload.faces[1]"),
        ({**GOOD, "faces": (3, 4)}, "payload.faces"),
        ({**GOOD, "side": {"character": "Aki"}}, "payload.side lacks value"),
        ({**GOOD, "mode": "whisper"}, "payload.mode"),
    ],
)
def test_shape_check_refuses_wrong_payload_naming_the_place(payload, named):
    with pytest.raises(PayloadError, match=named.replace("[", r"\[").replace("]", r"\]")):
        shape_check(Sample, payload)


def test_shape_check_refuses_a_list_for_an_object():
    with pytest.raises(PayloadError):
        shape_check(Sample, [GOOD])


def test_shape_check_union_accepts_either_member():
    shape_check(Sample | Other, GOOD)
    shape_check(Sample | Other, {"total": 7})


def test_shape_check_union_refuses_a_mix_of_members():
    with pytest.raises(PayloadError):
        shape_check(Sample | Other, {**GOOD, "total": 7})


def test_shape_check_refuses_a_shape_it_cannot_check():
    with pytest.raises(TypeError, match="cannot use"):
        shape_check(float, 1.5)
