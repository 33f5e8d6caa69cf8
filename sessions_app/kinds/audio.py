"""Kinds of the room's sound and spectacle: a scene's music, a sound effect, a cut-in."""

from typing import Literal, NotRequired, TypedDict

from .registry import Kind, Panel, kind_register


class SceneMusicChanged(TypedDict):
    scene_id: int
    number: int
    audio_id: int | None  # None when the GM stopped the music
    title: str


class SoundPlayed(TypedDict):
    audio_id: int
    title: str


class CutInShown(TypedDict):
    cut_in_id: int
    text: str  # the GM's words; for a roll's cut-in, who rolled
    has_image: bool
    sound_id: int | None
    roll_id: NotRequired[int]
    outcome: NotRequired[Literal["critical", "fumble"]]


kind_register(
    Kind(
        name="scene_music_changed",
        payload=SceneMusicChanged,
        samples=(
            {"scene_id": 1, "number": 1, "audio_id": 3, "title": "Rain on the library"},
            {"scene_id": 1, "number": 1, "audio_id": None, "title": ""},
        ),
        panels={Panel.AUDIO},
    ),
    Kind(
        name="sound_played",
        payload=SoundPlayed,
        samples=({"audio_id": 4, "title": "Door creak"},),
    ),
    Kind(
        name="cut_in",
        payload=CutInShown,
        samples=(
            {"cut_in_id": 1, "text": "The seal breaks!", "has_image": True, "sound_id": 4},
            {
                "cut_in_id": 2,
                "text": "Aki",
                "has_image": False,
                "sound_id": None,
                "roll_id": 7,
                "outcome": "critical",
            },
            {
                "cut_in_id": 3,
                "text": "Ren",
                "has_image": False,
                "sound_id": None,
                "roll_id": 8,
                "outcome": "fumble",
            },
        ),
    ),
)
