"""A chat line or a roll does its own work only: the statements of the whole POST, counted.

The POST goes through the test client with everything it sets going: the view and the
service (access, the form, the action key, the sequence number, the rows), and then what
the room's on-commit hook does with the committed event, counted apart (the live wing's
share, not the action's). Reads and writes are counted; transaction control is not. The
bounds are SQLite's; on PostgreSQL + Redis a request also reads its signed-in session from
the database and a draw of dice locks rows first, and those are added to them.
"""

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions_app.models import Roll, TimelineEvent
from sessions_app.services.checks import check_request
from sessions_app.services.faces import face_add
from tests.factories import CharacterFactory, scene_started
from tests.pictures import picture_bytes

# The pc fixture's Aki (tests/sessions_app/conftest.py) has Strength 5 and takes part
# without a PC slot.
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.pc_fields(slot=None, judgement_values={"Strength": 5}),
]

HTMX = {"HTTP_HX_REQUEST": "true"}
STATEMENTS = ("SELECT", "INSERT", "UPDATE", "DELETE")
CHAT_MOST = 7
ROLL_MOST = 10
# What the room's hook reads for one committed event today: the event, the spectators'
# variants and who is present.
HOOK_MOST_PER_EVENT = 3


def _beyond_sqlite(locks: int = 0) -> int:
    """What the same action adds on PostgreSQL + Redis: the signed-in session read from the
    database (config/settings.py keeps it there with several processes), and `locks` row
    locks taken before the rows are read (SQLite has one writer and takes none)."""
    session_read = settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    return int(session_read) + (locks if connection.features.has_select_for_update else 0)


@pytest.fixture
def aki_on_stage(session, gm, pc):
    scene_started(session, gm, scene_player=pc)
    return pc


class Counted:
    """The statements of one POST: the action's, and the on-commit hook's after it."""

    def __init__(self, action, hook, response):
        self.action = action
        self.hook = hook
        self.response = response

    def of(self, table: str, verb: str = "SELECT") -> int:
        """The action's statements that read (or `verb`) rows of `table` itself: a read
        names it after FROM or JOIN."""
        marks = {"SELECT": ("FROM", "JOIN"), "INSERT": ("INSERT INTO",), "UPDATE": ("UPDATE",)}
        return sum(
            1
            for sql in self.action
            if sql.startswith(verb)
            and any(f'{mark} "{table}"' in sql for mark in marks.get(verb, (verb,)))
            and "FOR UPDATE" not in sql
        )

    def report(self) -> str:
        lines = [f"action: {len(self.action)}"] + [f"  {sql[:160]}" for sql in self.action]
        lines += [f"on-commit hook: {len(self.hook)}"] + [f"  {sql[:160]}" for sql in self.hook]
        return "\n".join(lines)


def _statements(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(STATEMENTS)]


def _post(client, django_capture_on_commit_callbacks, url, data) -> Counted:
    with (
        CaptureQueriesContext(connection) as whole,
        django_capture_on_commit_callbacks(execute=True) as hooks,
    ):
        response = client.post(url, data, **HTMX)
        # The hooks run as the inner block ends: what follows this mark is theirs.
        before_hooks = len(whole.captured_queries)
    # A chat line or a roll box roll that went through is answered with no content.
    assert response.status_code in (200, 204), response.content.decode()
    assert hooks, "the action committed nothing for the room"
    return Counted(
        _statements(whole.captured_queries[:before_hooks]),
        _statements(whole.captured_queries[before_hooks:]),
        response,
    )


def _warm(client, session):
    # The session's first roll opens its first batch of dice: not what every roll costs.
    client.post(reverse("roll_box", args=[session.pk]), {"text": "2D6"}, **HTMX)


def _warm_roll_counted(client, django_capture_on_commit_callbacks, session, text, *, roll_as):
    """Roll `text` from the roll box as the character `roll_as`, after the session's first
    roll (see _warm): its statements, counted."""
    _warm(client, session)
    return _post(
        client,
        django_capture_on_commit_callbacks,
        reverse("roll_box", args=[session.pk]),
        {"text": text, "roll_as": roll_as.pk, "action_key": "k" * 20},
    )


def test_chat_out_of_character_stays_within_seven_statements(
    player_client, session, django_capture_on_commit_callbacks
):
    counted = _post(
        player_client,
        django_capture_on_commit_callbacks,
        reverse("chat_post", args=[session.pk]),
        {"text": "Hello", "say_as": "ooc", "action_key": "k" * 20},
    )

    assert len(counted.action) <= CHAT_MOST + _beyond_sqlite(), counted.report()
    assert len(counted.hook) <= HOOK_MOST_PER_EVENT, counted.report()


def test_chat_in_character_with_a_face_stays_within_seven_statements(
    player_client, session, player, aki_on_stage, django_capture_on_commit_callbacks
):
    smile = face_add(character=aki_on_stage, by=player, data=picture_bytes("PNG"), label="smile")

    counted = _post(
        player_client,
        django_capture_on_commit_callbacks,
        reverse("chat_post", args=[session.pk]),
        {
            "text": "Found it!",
            "say_as": f"ic:{aki_on_stage.pk}",
            "face": smile.pk,
            "action_key": "k" * 20,
        },
    )

    assert TimelineEvent.objects.get(kind="chat").payload["face"] == "smile"
    assert len(counted.action) <= CHAT_MOST + _beyond_sqlite(), counted.report()
    assert len(counted.hook) <= HOOK_MOST_PER_EVENT, counted.report()


def test_chat_reads_the_membership_once_and_the_named_character_alone(
    player_client, session, gm, aki_on_stage, django_capture_on_commit_callbacks
):
    # Other characters at the table: the line names one, and only that one is read.
    CharacterFactory(table=session.table, owner=gm, kind="npc", name="Librarian")

    counted = _post(
        player_client,
        django_capture_on_commit_callbacks,
        reverse("chat_post", args=[session.pk]),
        {"text": "Found it!", "say_as": f"ic:{aki_on_stage.pk}"},
    )

    assert counted.of("sessions_app_membership") == 1, counted.report()
    assert counted.of("sessions_app_character") == 1, counted.report()
    assert not any("DISTINCT" in sql for sql in counted.action), counted.report()


def test_sent_chat_line_is_answered_with_no_content(player_client, session, aki_on_stage):
    response = player_client.post(
        reverse("chat_post", args=[session.pk]),
        {"text": "Found it!", "say_as": f"ic:{aki_on_stage.pk}", "channel": "offtopic"},
        **HTMX,
    )

    # The page keeps its form (the voice and channel chosen) and clears the text itself.
    assert (response.status_code, response.content, response["X-Action-Ok"]) == (204, b"", "1")
    line = TimelineEvent.objects.get(kind="chat")
    assert (line.payload["character"], line.payload["channel"]) == ("Aki", "offtopic")


def test_refused_chat_answers_with_every_voice_again(player_client, session, aki_on_stage):
    response = player_client.post(
        reverse("chat_post", args=[session.pk]),
        {"text": " ", "say_as": f"ic:{aki_on_stage.pk}"},
        **HTMX,
    )

    html = response.content.decode()
    assert 'role="alert"' in html
    assert "hx-preserve" not in html
    assert "Whisper to the GM" in html
    assert f'<option value="ic:{aki_on_stage.pk}" selected>' in html


def test_roll_box_as_a_character_stays_within_ten_statements(
    player_client, session, aki_on_stage, django_capture_on_commit_callbacks
):
    counted = _warm_roll_counted(
        player_client,
        django_capture_on_commit_callbacks,
        session,
        "2D6+{Strength}",
        roll_as=aki_on_stage,
    )

    assert Roll.objects.latest("pk").character == aki_on_stage
    assert len(counted.action) <= ROLL_MOST + _beyond_sqlite(locks=1), counted.report()
    assert len(counted.hook) <= HOOK_MOST_PER_EVENT, counted.report()


def test_roll_box_reads_the_user_and_the_session_once(
    player_client, session, aki_on_stage, django_capture_on_commit_callbacks
):
    counted = _warm_roll_counted(
        player_client, django_capture_on_commit_callbacks, session, "2D6", roll_as=aki_on_stage
    )

    assert counted.of("auth_user") == 1, counted.report()
    assert counted.of("sessions_app_gamesession") == 1, counted.report()
    assert counted.of("sessions_app_membership") == 1, counted.report()
    assert counted.of("sessions_app_actionkey", "UPDATE") == 0, counted.report()


def test_roll_box_roll_is_answered_with_no_content(player_client, session, aki_on_stage):
    response = player_client.post(
        reverse("roll_box", args=[session.pk]), {"text": "2D6", "roll_as": aki_on_stage.pk}, **HTMX
    )

    assert (response.status_code, response.content, response["X-Action-Ok"]) == (204, b"", "1")
    assert Roll.objects.get().character == aki_on_stage


def test_check_roll_stays_within_ten_statements(
    player_client, session, gm, pc, django_capture_on_commit_callbacks
):
    _warm(player_client, session)
    check = check_request(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength", difficulty=9
    )

    counted = _post(
        player_client,
        django_capture_on_commit_callbacks,
        reverse("check_roll", args=[session.pk, check.pk]),
        {"action_key": "k" * 20},
    )

    assert Roll.objects.filter(request=check).exists()
    assert len(counted.action) <= ROLL_MOST + _beyond_sqlite(locks=2), counted.report()
    assert len(counted.hook) <= HOOK_MOST_PER_EVENT, counted.report()
