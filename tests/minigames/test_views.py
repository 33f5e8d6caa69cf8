"""Match pages and moves over HTTP: who may see and who may play."""

import pytest
from django.urls import reverse

from minigames import services
from minigames.models import Match, MatchMove
from minigames.services import SeatSpec
from tests.clients import signed_in_client as _client
from tests.factories import CharacterFactory, MembershipFactory, UserFactory, on_stage
from tests.matches import dealt

HTMX = {"HTTP_HX_REQUEST": "true"}


def _two_players(session, player):
    """Aki (the player's) and Ren (a second player's), both taking part in the session."""
    other = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    aki = CharacterFactory(table=session.table, owner=player, name="Aki")
    ren = CharacterFactory(table=session.table, owner=other, name="Ren")
    session.characters.add(aki, ren)
    return aki, ren


# The match most tests play, of the same two, is tests/conftest.py's match.


def _setup_post(version):
    return {
        "type": "setup",
        "version": version,
        "move": "10",
        "attack": "9",
        "counter": "1",
        "column": ["2", "", "", "", ""],
        "life": ["5", "0", "0", "0", "0"],
    }


def test_match_detail_seat_sees_setup_form(match, player):
    response = _client(player).get(reverse("match_detail", args=[match.pk]), **HTMX)

    assert b"setup-form" in response.content


def test_match_detail_member_watches(match, gm):
    response = _client(gm).get(reverse("match_detail", args=[match.pk]), **HTMX)

    assert b"watching" in response.content
    assert b"setup-form" not in response.content


def test_match_move_setup_from_form(match, player):
    response = _client(player).post(reverse("match_move", args=[match.pk]), _setup_post(0), **HTMX)

    assert response.status_code == 200
    assert MatchMove.objects.get().action["pieces"] == [{"column": 2, "life": 5}]


def test_match_move_invalid_setup_explained(match, player):
    data = {**_setup_post(0), "counter": "2", "attack": "8"}

    response = _client(player).post(reverse("match_move", args=[match.pk]), data, **HTMX)

    assert "at most one Counter" in response.content.decode()
    assert not MatchMove.objects.exists()


def test_match_move_by_spectator_refused(match, gm):
    response = _client(gm).post(reverse("match_move", args=[match.pk]), _setup_post(0), **HTMX)

    assert response.status_code == 403
    assert not MatchMove.objects.exists()


def test_match_move_stale_version_resyncs(match, player):
    client = _client(player)
    client.post(reverse("match_move", args=[match.pk]), _setup_post(0), **HTMX)

    response = client.post(
        reverse("match_move", args=[match.pk]), {"type": "resign", "version": "0"}, **HTMX
    )

    assert "The board changed" in response.content.decode()
    assert MatchMove.objects.count() == 1


@pytest.fixture
def aki_and_innkeeper_on_stage(session, gm, pc, npc):
    """The player's Aki and the GM's Innkeeper on stage in a master scene: (Aki, Innkeeper)."""
    on_stage(session, gm, pc, npc)
    return pc, npc


def test_match_create_from_room(session, player, aki_and_innkeeper_on_stage):
    aki, npc = aki_and_innkeeper_on_stage

    response = _client(player).post(
        reverse("match_create", args=[session.pk]),
        {
            "seat0": aki.pk,
            "seat1": npc.pk,
            "computer": "on",
            "level": "random",
            "first_player": "random",
        },
        **HTMX,
    )

    assert b"The match is set up" in response.content
    assert Match.objects.get().seat1_user is None


def test_match_create_from_room_for_actics_x_with_the_seats_decks(
    session, player, aki_and_innkeeper_on_stage
):
    from minigames.acticsx.rules import cards as card_data
    from minigames.acticsx.rules import engine as acticsx_engine

    aki, npc = aki_and_innkeeper_on_stage

    response = _client(player).post(
        reverse("match_create", args=[session.pk]),
        {
            "game": "acticsx",
            "seat0": aki.pk,
            "seat1": npc.pk,
            "computer": "on",
            "level": "random",
            "first_player": "random",
            "deck0": "ember_steel",
            "deck1": "tide_grove",
        },
        **HTMX,
    )

    assert b"The match is set up" in response.content
    match = Match.objects.get()
    view = acticsx_engine.player_view(acticsx_engine.from_dict(match.state), 0)
    assert (match.game, view["players"][0]["deck_list"]) == (
        "acticsx",
        card_data.deck_list("ember_steel"),
    )
    assert view["players"][1]["deck_name"] == "tide_grove"


def test_room_match_form_offers_players_only_npcs_that_have_appeared(session, gm, player):
    seen = CharacterFactory(table=session.table, owner=gm, kind="npc", name="Innkeeper")
    unseen = CharacterFactory(table=session.table, owner=gm, kind="npc", name="The Masked Heir")
    on_stage(session, gm, seen)
    room = reverse("session_room", args=[session.pk])

    players_page = _client(player).get(room).content.decode()
    gms_page = _client(gm).get(room).content.decode()

    assert "Innkeeper" in players_page
    assert "The Masked Heir" not in players_page
    assert f'value="{unseen.pk}"' not in players_page
    assert "The Masked Heir" in gms_page


def test_match_create_refuses_a_player_an_npc_not_yet_on_stage(session, gm, player):
    aki = CharacterFactory(table=session.table, owner=player, name="Aki")
    session.characters.add(aki)
    unseen = CharacterFactory(table=session.table, owner=gm, kind="npc", name="The Masked Heir")

    response = _client(player).post(
        reverse("match_create", args=[session.pk]),
        {"seat0": aki.pk, "seat1": unseen.pk, "computer": "on", "level": "random"},
        **HTMX,
    )

    assert b"The match is set up" not in response.content
    assert b"The Masked Heir" not in response.content
    assert not Match.objects.exists()


def test_room_form_offers_every_games_options(session, player):
    response = _client(player).get(reverse("session_room", args=[session.pk]))

    content = response.content.decode()
    for field in ("match_game", "match_diagonal_attack", "match_turn_limit", "match_deck0"):
        assert f'id="{field}"' in content


def test_practice_creates_match_against_computer(player):
    response = _client(player).post(reverse("practice"), {"level": "random"})

    match = Match.objects.get()
    assert response.status_code == 302
    assert match.session is None and match.seat0_user == player


def test_room_page_survives_a_match_without_a_board(session, player):
    aki = CharacterFactory(table=session.table, owner=player, name="Aki")
    ren = CharacterFactory(table=session.table, owner=session.table.gm, kind="npc", name="Ren")
    session.characters.add(aki)
    dealt(
        services.match_create(
            session=session,
            by=player,
            seats=[SeatSpec(aki), SeatSpec(ren, computer=True)],
            game="acticsx",
        )
    )

    response = _client(player).get(reverse("session_room", args=[session.pk]))

    assert response.status_code == 200


def test_deck_builder_saves_a_legal_deck(player):
    from minigames.acticsx.rules import cards as card_data
    from minigames.models import Deck

    data = {"name": "Tide again"}
    for card_id in card_data.deck_list("tide_grove"):
        data[f"count_{card_id}"] = str(int(data.get(f"count_{card_id}", "0")) + 1)

    response = _client(player).post(reverse("decks"), data)

    assert response.status_code == 302
    assert len(Deck.objects.get(owner=player).cards) == 20


def test_deck_builder_check_counts_and_explains(player):
    response = _client(player).post(reverse("deck_check"), {"count_tide_sprite": "2"}, **HTMX)

    content = response.content.decode()
    assert "2 / 20 cards" in content
    assert "exactly 20 cards" in content


def test_deck_builder_refuses_short_deck(player):
    response = _client(player).post(reverse("decks"), {"name": "Short", "count_tide_sprite": "2"})

    assert response.status_code == 400
    assert "exactly 20 cards" in response.content.decode()


def test_a_refused_actics_x_plan_comes_back_with_the_player_s_choices(session, player):
    from minigames.acticsx import presenter

    aki, ren = _two_players(session, player)
    match = services.match_create(
        session=session, by=player, seats=[SeatSpec(aki), SeatSpec(ren)], game="acticsx", seed=9
    )
    board = presenter.board_context(match, player)
    card = next(card for card in board["hand"] if card["squares"])
    square = card["squares"][-1]
    plan = {
        "type": "plan",
        "version": match.version,
        f"card_{card['index']}": card["id"],
        f"play_{card['index']}": square,
        "do_B9": "move:N:1",  # no actor of theirs there: the engine refuses the plan
        "order_B9": "3",
    }

    response = _client(player).post(reverse("match_move", args=[match.pk]), plan, **HTMX)

    html = response.content.decode()
    assert "There is no actor of yours on B9." in html
    assert f'<option value="{square}" selected>' in html
    assert MatchMove.objects.filter(match=match).count() == 0
    # Seen afresh, the board starts from a clean form.
    fresh = _client(player).get(reverse("match_detail", args=[match.pk]), **HTMX)
    assert (
        " selected>" not in fresh.content.decode().split('class="plan-form')[1].split("</form>")[0]
    )


def test_actics_x_steps_saved_with_both_languages_still_show(session, player):
    aki, ren = _two_players(session, player)
    match = services.match_create(
        session=session, by=player, seats=[SeatSpec(aki), SeatSpec(ren)], game="acticsx", seed=9
    )
    # A match saved before narration became messages holds each step's text in both languages.
    text = {"en": "Turn 1: the action phase begins.", "ja": "ターン1：行動フェーズ開始。"}
    match.state = {
        **match.state,
        "last_resolution": {"turn": 1, "steps": [{"kind": "phase", "text": text}]},
    }
    match.save()
    client = _client(player)
    client.cookies["django_language"] = "ja"

    response = client.get(reverse("match_detail", args=[match.pk]), **HTMX)

    assert "ターン1：行動フェーズ開始。" in response.content.decode()


def test_counter_mode_shows_on_its_own_seat_s_board_only(match, player, gm):
    ren = UserFactory._meta.model.objects.get(username="ren")
    response = _client(ren).post(
        reverse("match_move", args=[match.pk]),
        {"type": "counter_mode", "value": "never", "version": "0"},
        **HTMX,
    )

    mine = _client(ren).get(reverse("match_detail", args=[match.pk]), **HTMX).content.decode()
    theirs = [
        _client(user).get(reverse("match_detail", args=[match.pk]), **HTMX).content.decode()
        for user in (player, gm)
    ]

    assert response.status_code == 200
    assert 'value="never" class="button small primary" aria-pressed="true"' in mine
    aki_page, gm_page = theirs
    assert 'value="ask" class="button small primary" aria-pressed="true"' in aki_page
    assert 'value="never" class="button small primary"' not in aki_page
    assert "counter-choice" not in gm_page


def _started(match, player):
    """Both seats prepared (Aki starts); return Ren."""
    ren = UserFactory._meta.model.objects.get(username="ren")
    services.match_move(match_id=match.pk, by=player, action=SETUP_AKI, version=0)
    services.match_move(match_id=match.pk, by=ren, action=SETUP_REN, version=1)
    return ren


SETUP_AKI = {
    "type": "setup",
    "deck": {"move": 10, "attack": 9, "counter": 1},
    "pieces": [{"column": 2, "life": 5}],
}
SETUP_REN = {**SETUP_AKI, "pieces": [{"column": 2, "life": 5}]}


def test_counter_mode_change_keeps_the_match_version_whatever_the_board_says(match, player):
    ren = _started(match, player)
    match.refresh_from_db()

    response = _client(ren).post(
        reverse("match_move", args=[match.pk]),
        {"type": "counter_mode", "value": "always", "version": "0"},
        **HTMX,
    )

    changed = Match.objects.get(pk=match.pk)
    assert "The board changed" not in response.content.decode()
    assert changed.version == match.version
    assert changed.state["counter_mode"] == ["ask", "always"]
    assert MatchMove.objects.filter(match=match).last().action == {
        "type": "counter_mode",
        "value": "always",
        "player": 1,
    }


def _actics_x_second_turn(session, player):
    """An Actics X match where each side deployed one actor in turn 1; turn 2 is planned."""
    from minigames.acticsx import presenter

    aki, ren = _two_players(session, player)
    match = services.match_create(
        session=session, by=player, seats=[SeatSpec(aki), SeatSpec(ren)], game="acticsx", seed=9
    )
    for user in (player, ren.owner):
        match.refresh_from_db()
        hand = presenter.board_context(match, user)["hand"]
        card = next(card for card in hand if card["kind"] == "actor" and card["squares"])
        plan = {"play": [{"card": card["id"], "square": card["squares"][0]}], "actors": []}
        services.match_move(
            match_id=match.pk, by=user, action={"type": "plan", "plan": plan}, version=match.version
        )
    match.refresh_from_db()
    return match, presenter.board_context(match, player)["own_actors"][0]


def test_a_refused_actics_x_plan_with_an_order_in_other_digits_is_explained(session, player):
    match, actor = _actics_x_second_turn(session, player)
    move = next(choice for choice in actor["choices"] if choice["kind"] == "move")
    plan = {
        "type": "plan",
        "version": match.version,
        f"do_{actor['square']}": move["value"],
        f"order_{actor['square']}": "²",  # a digit to str.isdigit, but not to int
        "do_B9": "move:F:1",  # no actor of theirs there: the engine refuses the plan
    }
    moves = MatchMove.objects.filter(match=match).count()

    response = _client(player).post(reverse("match_move", args=[match.pk]), plan, **HTMX)

    assert response.status_code == 200
    assert "There is no actor of yours on B9." in response.content.decode()
    assert MatchMove.objects.filter(match=match).count() == moves


def test_an_actics_x_move_distance_in_other_digits_is_refused_clearly(session, player):
    match, actor = _actics_x_second_turn(session, player)
    direction = next(c for c in actor["choices"] if c["kind"] == "move")["value"].split(":")[1]
    plan = {
        "type": "plan",
        "version": match.version,
        f"do_{actor['square']}": f"move:{direction}:²",
        f"order_{actor['square']}": "1",
    }

    response = _client(player).post(reverse("match_move", args=[match.pk]), plan, **HTMX)

    assert "A move&#x27;s distance must be a whole number of at least 1." in (
        response.content.decode()
    )


@pytest.mark.parametrize(
    ("game", "says"),
    [
        ("actual", "the match ends in a draw after 12 turns"),
        ("acticsx", "after 12 turns, more life wins"),
    ],
)
def test_match_page_says_when_a_turn_limit_is_set(session, gm, player, game, says):
    aki, ren = _two_players(session, player)
    npc = CharacterFactory(table=session.table, owner=gm, kind="npc", name="Innkeeper")
    limited, free = (
        dealt(
            services.match_create(
                session=session, by=gm, seats=[SeatSpec(a), SeatSpec(b)], game=game, options=options
            )
        )
        for a, b, options in ((aki, ren, {"turn_limit": 12}), (aki, npc, {}))
    )

    pages = [
        _client(gm).get(reverse("match_detail", args=[m.pk]), **HTMX).content.decode()
        for m in (limited, free)
    ]

    assert says in pages[0]
    assert "Turn limit:" not in pages[1]
