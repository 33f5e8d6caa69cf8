"""Who gets what at which address: one table of URL × role → expected answer.

Each row is a plain "this role asks for this URL and gets this answer" check. The URL's
arguments are paths into a small world of fixtures ("awarded.table_id" is the `awarded`
fixture's table id); only the fixtures a row names are built for it. The answer is a status
code, or LOGIN for a redirect to the login page. Checks that need more setup or say more
than a status stay beside the feature they are about.
"""

from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.services.tables import invite_create
from tests.factories import (
    GameSessionFactory,
    HandoutFactory,
    PlannedSceneFactory,
    PreparedCheckFactory,
    ScenarioNpcFactory,
    open_to_spectators,
)

GET, POST = "GET", "POST"
LOGIN = "login"
HTMX = {"HTTP_HX_REQUEST": "true"}

# Who asks: a path into the world, as for the URL's arguments; anonymous asks signed out.
ANONYMOUS = "anonymous"
ROLES = {
    "gm": "gm",
    "player": "player_membership.user",
    "outsider": "outsider",
}


class Literal:
    """A URL argument taken as it is, not looked up in the world."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return repr(self.value)


# --------------------------------------------------------------------------------- the world
# The table, its GM, its player (a member), the outsider and the session come from
# tests/conftest.py, and so do the worlds the features' own tests share with these rows:
# table_aki, table_npc, afterplay, awarded, played, match and scenario.


@pytest.fixture
def scenario(scenario):
    """tests/conftest.py's scenario of the GM with one item of each kind under it, all made
    whatever a row asks."""
    scene = PlannedSceneFactory(scenario=scenario)
    return SimpleNamespace(
        pk=scenario.pk,
        scene=scene,
        check=PreparedCheckFactory(planned_scene=scene),
        npc=ScenarioNpcFactory(scenario=scenario),
        handout=HandoutFactory(scenario=scenario),
    )


@pytest.fixture
def watching(session):
    """The session's table, open to spectators."""
    return open_to_spectators(session.table)


@pytest.fixture
def foreign_session(db):
    return GameSessionFactory()


@pytest.fixture
def guest_invite(table, gm):
    """An invite of the table that lets guests in too, so every way in is on offer."""
    return invite_create(table=table, by=gm, allows_guests=True)


# --------------------------------------------------------------------------------- the table


def row(reason, role, method, url_name, *args, expect, data=None, headers=None, world=()):
    """`world`: fixtures to build though no argument names them."""
    return pytest.param(role, method, url_name, args, data, headers or {}, world, expect, id=reason)


# Every URL under a scenario, with an item of the kind it needs (as _scenario_urls in
# tests/sessions_app/views/test_scenarios.py): closed to the players and to anyone signed out.
SCENARIO_URLS = [
    ("scenario_detail", "scenario.pk"),
    ("scenario_edit", "scenario.pk"),
    ("scenario_delete", "scenario.pk"),
    ("planned_scene_create", "scenario.pk"),
    ("planned_scene_edit", "scenario.pk", "scenario.scene.pk"),
    ("planned_scene_delete", "scenario.pk", "scenario.scene.pk"),
    ("planned_scene_move", "scenario.pk", "scenario.scene.pk"),
    ("prepared_check_create", "scenario.pk", "scenario.scene.pk"),
    ("prepared_check_edit", "scenario.pk", "scenario.check.pk"),
    ("prepared_check_delete", "scenario.pk", "scenario.check.pk"),
    ("scenario_npc_create", "scenario.pk"),
    ("scenario_npc_edit", "scenario.pk", "scenario.npc.pk"),
    ("scenario_npc_delete", "scenario.pk", "scenario.npc.pk"),
    ("handout_create", "scenario.pk"),
    ("handout_edit", "scenario.pk", "scenario.handout.pk"),
    ("handout_delete", "scenario.pk", "scenario.handout.pk"),
]

EXPORTS = ["session_export_html", "session_export_markdown", "session_export_json"]

# An invite link's ways in, each with who would post its form: the page is only read, and
# each way in is only posted to.
INVITE_WAYS_IN = [
    ("invite_join_signed_in", "outsider"),
    ("invite_join_as_guest", ANONYMOUS),
    ("invite_join_by_signup", ANONYMOUS),
    ("invite_join_by_login", ANONYMOUS),
]

ACCESS = [
    # Tables and sessions
    row("table-detail-outsider-404", "outsider", GET, "table_detail", "table.pk", expect=404),
    row("table-detail-anonymous-login", ANONYMOUS, GET, "table_detail", "table.pk", expect=LOGIN),
    row("session-room-outsider-404", "outsider", GET, "session_room", "session.pk", expect=404),
    row(
        "chat-tab-add-outsider-404",
        "outsider",
        POST,
        "chat_tab_add",
        "session.pk",
        data={"name": "x"},
        expect=404,
    ),
    row(
        "stage-action-outsider-404",
        "outsider",
        POST,
        "stage_action",
        "session.pk",
        data={"action": "phase_advance", "from_phase": "preplay"},
        headers=HTMX,
        expect=404,
    ),
    row(
        "earlier-events-outsider-404",
        "outsider",
        GET,
        "earlier_events",
        "session.pk",
        data={"before": 5},
        headers=HTMX,
        expect=404,
    ),
    # Characters and the table's rules
    row("character-list-outsider-404", "outsider", GET, "character_list", "table.pk", expect=404),
    row(
        "character-new-npc-player-403",
        "player",
        GET,
        "character_new",
        "table.pk",
        data={"kind": "npc"},
        expect=403,
    ),
    row("character-new-outsider-404", "outsider", GET, "character_new", "table.pk", expect=404),
    row(
        "character-edit-outsider-404", "outsider", GET, "character_edit", "table_aki.pk", expect=404
    ),
    row(
        "character-edit-npc-player-404", "player", GET, "character_edit", "table_npc.pk", expect=404
    ),
    row("profile-edit-player-403", "player", GET, "profile_edit", "table.pk", expect=403),
    row("profile-edit-outsider-404", "outsider", GET, "profile_edit", "table.pk", expect=404),
    # Dice statistics
    row("session-dice-outsider-404", "outsider", GET, "session_dice", "session.pk", expect=404),
    row("session-dice-anonymous-login", ANONYMOUS, GET, "session_dice", "session.pk", expect=LOGIN),
    row("table-dice-outsider-404", "outsider", GET, "table_dice", "session.table.pk", expect=404),
    # After play and experience
    row("afterplay-before-afterplay-404", "gm", GET, "afterplay", "session.pk", expect=404),
    row("afterplay-outsider-404", "outsider", GET, "afterplay", "afterplay.pk", expect=404),
    row("session-sheet-outsider-404", "outsider", GET, "session_sheet", "awarded.pk", expect=404),
    row(
        "experience-ledger-outsider-404",
        "outsider",
        GET,
        "experience_ledger",
        "table.pk",
        expect=404,
    ),
    row(
        "record-sheet-of-another-player-404",
        "player",
        GET,
        "record_sheet",
        "awarded.table_id",
        "gm.pk",
        expect=404,
    ),
    row(
        "record-sheet-of-an-outsider-even-for-gm-404",
        "gm",
        GET,
        "record_sheet",
        "awarded.table_id",
        "outsider.pk",
        expect=404,
    ),
    row(
        "experience-correct-player-403",
        "player",
        POST,
        "experience_correct",
        "awarded.table_id",
        "player.pk",
        data={"amount": "50", "reason": "Me"},
        expect=403,
    ),
    # Review, exports and imports
    row("review-outsider-404", "outsider", GET, "session_review", "played.pk", expect=404),
    row("review-anonymous-login", ANONYMOUS, GET, "session_review", "played.pk", expect=LOGIN),
    *[
        row(
            f"{name.replace('_', '-')}-outsider-404", "outsider", GET, name, "played.pk", expect=404
        )
        for name in EXPORTS
    ],
    row("log-import-outsider-200", "outsider", GET, "log_import", expect=200),
    row("log-import-anonymous-login", ANONYMOUS, GET, "log_import", expect=LOGIN),
    # Spectators
    row(
        "watch-index-bad-token-404",
        ANONYMOUS,
        GET,
        "watch_index",
        Literal("not-the-token"),
        world=("watching",),
        expect=404,
    ),
    row(
        "watch-index-disabled-404",
        ANONYMOUS,
        GET,
        "watch_index",
        "session.table.spectator_token",
        expect=404,
    ),
    row(
        "watch-index-post-405",
        ANONYMOUS,
        POST,
        "watch_index",
        "watching.spectator_token",
        expect=405,
    ),
    row(
        "watch-session-of-another-table-404",
        ANONYMOUS,
        GET,
        "watch_session",
        "watching.spectator_token",
        "foreign_session.pk",
        expect=404,
    ),
    row(
        "watch-session-post-405",
        ANONYMOUS,
        POST,
        "watch_session",
        "watching.spectator_token",
        "session.pk",
        expect=405,
    ),
    # Accounts
    row("guest-keep-ordinary-account-404", "player", GET, "guest_keep", expect=404),
    # Invite links
    row("invite-post-405", "outsider", POST, "invite", "guest_invite.token", expect=405),
    *[
        row(
            f"{name.replace('_', '-')}-get-405",
            role,
            GET,
            name,
            "guest_invite.token",
            expect=405,
        )
        for name, role in INVITE_WAYS_IN
    ],
    # Mini-games
    row("match-detail-outsider-404", "outsider", GET, "match_detail", "match.pk", expect=404),
    row("shuffle-in-outsider-404", "outsider", POST, "match_shuffle_in", "match.pk", expect=404),
    row(
        "shuffle-in-anonymous-login", ANONYMOUS, POST, "match_shuffle_in", "match.pk", expect=LOGIN
    ),
    row("shuffle-in-get-405", "player", GET, "match_shuffle_in", "match.pk", expect=405),
    row("practice-reserve-anonymous-login", ANONYMOUS, POST, "practice_dice_reserve", expect=LOGIN),
    row("practice-reserve-get-405", "player", GET, "practice_dice_reserve", expect=405),
    # Scenarios: the owner's alone
    row("scenario-list-anonymous-login", ANONYMOUS, GET, "scenario_list", expect=LOGIN),
    *[
        row(
            f"{name.replace('_', '-')}-{method.lower()}-{role}-{answer}",
            role,
            method,
            name,
            *args,
            expect=answer,
        )
        for role, answer in (("player", 404), (ANONYMOUS, LOGIN))
        for method in (POST, GET)
        for name, *args in SCENARIO_URLS
    ],
]


def _look_up(request, path):
    if isinstance(path, Literal):
        return path.value
    name, *attributes = path.split(".")
    value = request.getfixturevalue(name)
    for attribute in attributes:
        value = getattr(value, attribute)
    return value


@pytest.mark.parametrize(
    ("role", "method", "url_name", "args", "data", "headers", "world", "expected"), ACCESS
)
def test_access(request, db, role, method, url_name, args, data, headers, world, expected):
    for name in world:
        request.getfixturevalue(name)
    url = reverse(url_name, args=[_look_up(request, arg) for arg in args])
    client = Client()
    if role != ANONYMOUS:
        client.force_login(_look_up(request, ROLES[role]))

    response = getattr(client, method.lower())(url, data or {}, **headers)

    if expected == LOGIN:
        login = reverse("login")
        assert (response.status_code, response.get("Location", "")[: len(login)]) == (302, login)
    else:
        assert response.status_code == expected
