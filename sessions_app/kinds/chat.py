"""Kinds of what people say in the room: chat lines and whispers."""

from typing import Literal, NotRequired, TypedDict

from .registry import Kind, Panel, Topic, kind_register


class _Said(TypedDict):
    text: str
    # Out of character when absent.
    mode: NotRequired[Literal["ic", "narration"]]
    # Who speaks, in character.
    character: NotRequired[str]
    character_id: NotRequired[int]
    # The face (portrait or expression) the character said it with, and its label.
    face_id: NotRequired[int]
    face: NotRequired[str]


class ChatLine(_Said):
    # The room's chat channel: the main table talk, or off-topic (雑談) chatter that the
    # main timeline tab leaves out. Lines from before channels existed are main.
    channel: NotRequired[Literal["main", "offtopic"]]


class ChatInTab(_Said):
    # A GM-made tab's key ("tab" and its id), stable through a rename.
    channel: str
    # The tab's name when the line was posted: the review and the exports show it after the
    # tab is renamed or archived, and in a log imported elsewhere.
    tab: str


Chat = ChatLine | ChatInTab


class ChatTabChange(TypedDict):
    change: Literal["added", "renamed", "archived"]
    key: str  # the channel the tab's lines carry
    name: str
    # The name before a rename.
    old_name: NotRequired[str]


class Whisper(TypedDict):
    text: str
    to: str  # the player the GM whispers to; empty when a player whispers to the GM
    to_gm: bool


def said_on_stage(payload: dict) -> bool:
    """A line in character on the main channel: its speaker now stands in front."""
    return payload.get("mode") == "ic" and payload.get("channel", "main") == "main"


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
            {"text": "The ledger is forged.", "channel": "tab4", "tab": "情報"},
        ),
        # A line said in character brings its speaker to the front, with its expression.
        panels={Panel.STANDING},
        panels_when=said_on_stage,
        topic=Topic.CHAT,
    ),
    Kind(
        name="chat_tab",
        payload=ChatTabChange,
        samples=(
            {"change": "added", "key": "tab4", "name": "情報"},
            {"change": "renamed", "key": "tab4", "name": "Clues", "old_name": "情報"},
            {"change": "archived", "key": "tab4", "name": "Clues"},
        ),
        panels={Panel.CHAT_TABS},
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
