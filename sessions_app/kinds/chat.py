"""Kinds of what people say in the room: chat lines and whispers."""

from typing import Literal, NotRequired, TypedDict

from .registry import Kind, Topic, kind_register


class Chat(TypedDict):
    text: str
    # Out of character when absent.
    mode: NotRequired[Literal["ic", "narration"]]
    # Who speaks, in character.
    character: NotRequired[str]
    character_id: NotRequired[int]
    # The face (portrait or expression) the character said it with, and its label.
    face_id: NotRequired[int]
    face: NotRequired[str]
    # The room's chat channel: the main table talk, or off-topic (雑談) chatter that the
    # main timeline tab leaves out. Lines from before channels existed are main.
    channel: NotRequired[Literal["main", "offtopic"]]


class Whisper(TypedDict):
    text: str
    to: str  # the player the GM whispers to; empty when a player whispers to the GM
    to_gm: bool


kind_register(
    Kind(
        name="chat",
        payload=Chat,
        samples=(
            {"text": "Shall we open the door?"},
            {"text": "Stand back.", "mode": "ic", "character": "Aki", "character_id": 3},
            {
                "text": "Found it!",
                "mode": "ic",
                "character": "Aki",
                "character_id": 3,
                "face_id": 7,
                "face": "smile",
            },
            {"text": "Rain drums on the library roof.", "mode": "narration"},
            {"text": "Pizza is here!", "channel": "offtopic"},
        ),
        topic=Topic.CHAT,
    ),
    Kind(
        name="whisper",
        payload=Whisper,
        samples=(
            {"text": "The clerk is lying.", "to": "aki", "to_gm": False},
            {"text": "Can I pick the lock?", "to": "", "to_gm": True},
        ),
        topic=Topic.CHAT,
    ),
)
