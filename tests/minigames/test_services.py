"""Matches: creation rights, versioned moves, the computer's answers, replay, results."""

import dataclasses
import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.utils import translation

from minigames import services
from minigames.acticsx import decks
from minigames.acticsx.rules import engine as acticsx_engine
from minigames.actual.rules import engine
from minigames.models import Match, MatchMove
from minigames.registry import GAMES
from minigames.services import SeatSpec
from sessions_app.models import TimelineEvent
from tests.matches import dealt

SETUP_A = {
    "type": "setup",
    "deck": {"move": 10, "attack": 9, "counter": 1},
    "pieces": [{"column": 1, "life": 3}, {"column": 3, "life": 2}],
}
SETUP_B = {
    "type": "setup",
    "deck": {"move": 10, "attack": 9, "counter": 1},
    "pieces": [{"column": 2, "life": 5}],
}


def attack_a_held_counter(match, *, attacker) -> None:
    """Face to face, seat 0's piece on c3 attacks seat 1's on c4, whose player holds a
    Counter: the defender is asked (or answers at once, as its mode says)."""
    state = engine.from_dict(match.state)
    state.pieces = [(0, 0, 5, 2, 2), (5, 1, 5, 2, 3)]
    for seat, kind in ((0, "attack"), (1, "counter")):
        wanted = next(c for c, k in sorted(state.kinds[seat].items()) if k == kind)
        if wanted not in state.hands[seat]:
            state.decks[seat].remove(wanted)
            state.decks[seat].append(state.hands[seat].pop())
            state.hands[seat].append(wanted)
    state.current = 0
    match.state = engine.to_dict(state)
    match.save(update_fields=["state"])
    attack = next(c for c in state.hands[0] if state.kinds[0][c] == "attack")
    services.match_move(
        match_id=match.pk,
        by=attacker,
        action={"type": "use", "card": attack, "piece": 0, "target": [2, 3]},
        version=match.version,
    )


def _pvp(session, by, pc, pc2, **kwargs):
    return services.match_create(
        session=session, by=by, seats=[SeatSpec(pc), SeatSpec(pc2)], seed=11, **kwargs
    )


def _against_the_computer(session, player, pc, npc, *, level="random", **match_fields):
    """A match of the player's PC against the NPC, which the computer plays at `level`."""
    return services.match_create(
        session=session,
        by=player,
        seats=[SeatSpec(pc), SeatSpec(npc, computer=True, level=level)],
        **match_fields,
    )


def _play_setups(match, player, second_player):
    services.match_move(match_id=match.pk, by=player, action=SETUP_A, version=match.version)
    match.refresh_from_db()
    services.match_move(match_id=match.pk, by=second_player, action=SETUP_B, version=match.version)
    match.refresh_from_db()
    return match


def test_match_create_by_player_for_own_pc(session, player, pc, pc2):
    match = _pvp(session, player, pc, pc2)

    assert (match.seat0_user, match.status, match.version) == (player, "setup", 0)
    assert TimelineEvent.objects.get(kind="match_started").payload["names"] == ["Aki", "Ren"]


def test_match_create_by_player_for_others_refused(session, player, pc2, npc):
    with pytest.raises(PermissionDenied):
        dealt(
            services.match_create(session=session, by=player, seats=[SeatSpec(pc2), SeatSpec(npc)])
        )

    assert not Match.objects.exists()


def test_match_create_by_outsider_refused(session, outsider, pc, pc2):
    with pytest.raises(PermissionDenied):
        _pvp(session, outsider, pc, pc2)


def test_match_create_pc_not_taking_part_refused(session, player, pc, pc2):
    session.characters.remove(pc2)

    with pytest.raises(ValidationError, match="not taking part"):
        _pvp(session, player, pc, pc2)


def test_match_create_computer_pc_refused(session, gm, pc, pc2):
    with pytest.raises(ValidationError, match="Only an NPC"):
        dealt(
            services.match_create(
                session=session, by=gm, seats=[SeatSpec(pc), SeatSpec(pc2, computer=True)]
            )
        )


def test_match_create_computer_npc_prepares_at_once(session, player, pc, npc):
    match = services.match_create(
        session=session, by=player, seats=[SeatSpec(pc), SeatSpec(npc, computer=True)], seed=5
    )

    state = engine.from_dict(match.state)
    assert match.seat1_user is None
    assert engine.player_view(state, None)["players"][1]["ready"] is True
    assert MatchMove.objects.filter(match=match, by_computer=True).count() == 1


def test_match_create_bad_turn_limit_refused(session, player, pc, pc2):
    with pytest.raises(ValidationError):
        _pvp(session, player, pc, pc2, options={"turn_limit": "often"})


def test_match_move_setups_start_the_game(session, player, second_player, pc, pc2):
    match = _play_setups(_pvp(session, player, pc, pc2), player, second_player)

    assert (match.status, match.version) == ("playing", 2)


def test_match_move_stale_version_changes_nothing(session, player, second_player, pc, pc2):
    match = _play_setups(_pvp(session, player, pc, pc2), player, second_player)
    state = engine.from_dict(match.state)
    mover = player if state.current == 0 else second_player

    services.match_move(match_id=match.pk, by=mover, action={"type": "end_turn"}, version=2)
    with pytest.raises(services.StaleMove):
        services.match_move(match_id=match.pk, by=mover, action={"type": "end_turn"}, version=2)

    match.refresh_from_db()
    assert match.version == 3
    assert MatchMove.objects.filter(match=match).count() == 3


def test_match_move_setup_ignores_other_seats_news(session, player, second_player, pc, pc2):
    match = _pvp(session, player, pc, pc2)
    services.match_move(match_id=match.pk, by=player, action=SETUP_A, version=0)

    # Ren's page still says version 0: a setup concerns only Ren's own secret choices.
    services.match_move(match_id=match.pk, by=second_player, action=SETUP_B, version=0)

    match.refresh_from_db()
    assert match.status == "playing"


def test_match_move_by_non_seat_refused(session, gm, pc, pc2, player):
    match = _pvp(session, player, pc, pc2)

    with pytest.raises(PermissionDenied):
        services.match_move(match_id=match.pk, by=gm, action=SETUP_A, version=0)


def test_match_move_by_a_seat_who_left_the_table_refused(session, player, pc, pc2):
    match = _pvp(session, player, pc, pc2)
    session.table.memberships.filter(user=player).delete()

    with pytest.raises(PermissionDenied, match="You are not playing in this match."):
        services.match_move(match_id=match.pk, by=player, action=SETUP_A, version=0)
    assert not MatchMove.objects.exists()


def test_match_move_cannot_play_for_other_seat(session, player, second_player, pc, pc2):
    match = _play_setups(_pvp(session, player, pc, pc2), player, second_player)
    state = engine.from_dict(match.state)
    current = state.current
    other_user = second_player if current == 0 else player
    action = next(a for a in engine.legal_actions(state, current) if a["type"] == "end_turn")

    # The request names the current seat, but the server plays the sender's own seat.
    with pytest.raises(ValidationError):
        services.match_move(match_id=match.pk, by=other_user, action=action, version=match.version)

    match.refresh_from_db()
    assert match.version == 2


def test_match_move_illegal_action_explained(session, player, pc, pc2):
    match = _pvp(session, player, pc, pc2)
    bad = {**SETUP_A, "pieces": [{"column": 1, "life": 3}]}

    with pytest.raises(ValidationError, match="5"):
        services.match_move(match_id=match.pk, by=player, action=bad, version=0)

    assert MatchMove.objects.filter(match=match).count() == 0


def _acticsx_pvp(session, player, pc, pc2):
    return services.match_create(
        session=session, by=player, seats=[SeatSpec(pc), SeatSpec(pc2)], game="acticsx", seed=9
    )


@pytest.mark.parametrize(
    ("language", "reason"),
    [("en", "There is no actor of yours on B9."), ("ja", "B9に自分のアクターはいません。")],
)
def test_acticsx_refusal_in_the_readers_language(session, player, pc, pc2, language, reason):
    match = _acticsx_pvp(session, player, pc, pc2)
    bad = {"type": "plan", "plan": {"play": [], "actors": [{"square": "B9", "do": "wait"}]}}

    with translation.override(language), pytest.raises(ValidationError) as refused:
        services.match_move(match_id=match.pk, by=player, action=bad, version=match.version)

    assert refused.value.messages == [reason]
    assert MatchMove.objects.filter(match=match).count() == 0


def test_match_resign_finishes_and_posts_result(session, player, second_player, pc, pc2):
    match = _play_setups(_pvp(session, player, pc, pc2), player, second_player)

    services.match_move(
        match_id=match.pk, by=player, action={"type": "resign"}, version=match.version
    )

    match.refresh_from_db()
    finished = TimelineEvent.objects.get(kind="match_finished").payload
    assert match.status == "finished"
    assert (finished["winner_name"], finished["loser_name"], finished["reason"]) == (
        "Ren",
        "Aki",
        "resign",
    )


def test_match_against_computer_answers_moves(session, player, pc, npc):
    match = _against_the_computer(session, player, pc, npc, seed=3, options={"first_player": 1})

    services.match_move(match_id=match.pk, by=player, action=SETUP_A, version=match.version)

    match.refresh_from_db()
    state = engine.from_dict(match.state)
    assert state.current == 0 or engine.is_terminal(state)
    assert MatchMove.objects.filter(match=match, by_computer=True).count() >= 2


def _watch_the_computer(monkeypatch, game, watch):
    """Call ``watch(state, seat)`` each time the computer is asked to think, then let it."""
    spec = GAMES[game]

    def thinking(state, seat, **kwargs):
        watch(state, seat)
        return spec.computer(state, seat, **kwargs)

    monkeypatch.setitem(GAMES, game, dataclasses.replace(spec, computer=thinking))


@pytest.mark.django_db(transaction=True)
def test_computer_thinks_after_the_persons_move_has_committed(
    monkeypatch, session, player, pc, npc
):
    match = _against_the_computer(session, player, pc, npc, seed=3, options={"first_player": 1})
    seen = []

    def watch(state, seat):
        committed = MatchMove.objects.filter(match=match, by_computer=False).count()
        seen.append((connection.in_atomic_block, committed))

    _watch_the_computer(monkeypatch, "actual", watch)

    services.match_move(match_id=match.pk, by=player, action=SETUP_A, version=match.version)

    # No transaction is open (so no row is locked) while it thinks, and the person's setup
    # is already in the database.
    assert seen and set(seen) == {(False, 1)}


@pytest.mark.django_db(transaction=True)
def test_computer_move_thought_on_a_stale_board_is_dropped(monkeypatch, session, player, pc, npc):
    match = _against_the_computer(session, player, pc, npc, seed=3, options={"first_player": 1})

    def watch(state, seat):
        # While the computer thinks, the person resigns from another request.
        current = Match.objects.get(pk=match.pk)
        if current.status != Match.Status.FINISHED:
            services.match_move(
                match_id=match.pk, by=player, action={"type": "resign"}, version=current.version
            )

    _watch_the_computer(monkeypatch, "actual", watch)

    services.match_move(match_id=match.pk, by=player, action=SETUP_A, version=match.version)

    match.refresh_from_db()
    assert (match.status, match.result["reason"]) == ("finished", "resign")
    assert MatchMove.objects.filter(match=match).last().action["type"] == "resign"
    assert not MatchMove.objects.filter(match=match, by_computer=True, number__gt=2).exists()


def test_match_replay_reproduces_state(session, player, second_player, pc, npc):
    match = _against_the_computer(session, player, pc, npc, seed=21)
    services.match_move(match_id=match.pk, by=player, action=SETUP_A, version=match.version)
    match.refresh_from_db()
    for _ in range(6):
        state = engine.from_dict(match.state)
        if engine.is_terminal(state):
            break
        services.match_move(
            match_id=match.pk, by=player, action={"type": "end_turn"}, version=match.version
        )
        match.refresh_from_db()

    replayed = services.match_replay(match)

    assert json.dumps(engine.to_dict(replayed), sort_keys=True) == json.dumps(
        match.state, sort_keys=True
    )


def test_match_moves_are_append_only(session, player, pc, pc2):
    match = _pvp(session, player, pc, pc2)
    services.match_move(match_id=match.pk, by=player, action=SETUP_A, version=0)
    move = MatchMove.objects.get()

    with pytest.raises(ValueError):
        move.save()
    with pytest.raises(ValueError):
        MatchMove.objects.all().delete()


def test_practice_match_needs_no_session(player):
    match = services.match_create_practice(by=player, level="random")

    assert match.session is None and match.seat1_user is None


def test_match_outcome_recorded_once_by_gm(session, gm, player, second_player, pc, pc2):
    match = _play_setups(_pvp(session, player, pc, pc2), player, second_player)
    services.match_move(
        match_id=match.pk, by=player, action={"type": "resign"}, version=match.version
    )
    match.refresh_from_db()

    services.match_outcome_record(match=match, by=gm, label="Who gets the room key")

    outcome = TimelineEvent.objects.get(kind="match_outcome").payload
    assert (outcome["label"], outcome["winner_name"]) == ("Who gets the room key", "Ren")
    with pytest.raises(ValidationError):
        services.match_outcome_record(match=match, by=gm, label="Again")


def test_match_outcome_by_player_refused(session, player, second_player, pc, pc2):
    match = _play_setups(_pvp(session, player, pc, pc2), player, second_player)
    services.match_move(
        match_id=match.pk, by=player, action={"type": "resign"}, version=match.version
    )
    match.refresh_from_db()

    with pytest.raises(PermissionDenied, match="Only the GM can do that."):
        services.match_outcome_record(match=match, by=player, label="Mine")


def test_match_outcome_unfinished_refused(session, gm, player, pc, pc2):
    match = _pvp(session, player, pc, pc2)

    with pytest.raises(ValidationError, match="not over"):
        services.match_outcome_record(match=match, by=gm, label="Too early")


def test_acticsx_practice_computer_plans_at_once(player):
    match = services.match_create_practice(by=player, level="random", game="acticsx")

    view = acticsx_engine.player_view(acticsx_engine.from_dict(match.state), 0)
    assert view["players"][1]["confirmed"] is True
    assert view["players"][1].get("plan") is None


def test_acticsx_plan_hidden_until_both_confirmed(session, player, second_player, pc, pc2):
    match = services.match_create(
        session=session, by=player, seats=[SeatSpec(pc), SeatSpec(pc2)], game="acticsx", seed=9
    )
    state = acticsx_engine.from_dict(match.state)
    plan = acticsx_engine.random_plan(
        acticsx_engine.player_view(state, 0), __import__("random").Random(1)
    )

    services.match_move(
        match_id=match.pk, by=player, action={"type": "plan", "plan": plan}, version=0
    )

    match.refresh_from_db()
    other_view = json.dumps(acticsx_engine.player_view(acticsx_engine.from_dict(match.state), 1))
    assert json.dumps(plan) not in other_view
    assert acticsx_engine.player_view(acticsx_engine.from_dict(match.state), 1)["players"][0][
        "confirmed"
    ]


def test_acticsx_auto_plans_for_the_seat(session, player, second_player, pc, pc2):
    match = services.match_create(
        session=session, by=player, seats=[SeatSpec(pc), SeatSpec(pc2)], game="acticsx", seed=9
    )

    services.match_move(
        match_id=match.pk, by=player, action={"type": "auto", "value": True}, version=0
    )

    match.refresh_from_db()
    view = acticsx_engine.player_view(acticsx_engine.from_dict(match.state), 1)
    assert match.seats[0]["auto"] is True
    assert view["players"][0]["confirmed"] is True


def test_auto_refused_for_actual(session, player, pc, pc2):
    match = _pvp(session, player, pc, pc2)

    with pytest.raises(ValidationError):
        services.match_move(
            match_id=match.pk, by=player, action={"type": "auto", "value": True}, version=0
        )


def _legal_deck():
    from minigames.acticsx.rules import cards as card_data

    return card_data.deck_list("tide_grove")


def test_deck_save_legal_deck(player):
    deck = decks.deck_save(owner=player, name="My tide", card_ids=_legal_deck())

    assert len(deck.cards) == 20


def test_deck_save_refuses_with_reasons(player):
    cards = _legal_deck()[:19] + ["no_such_card"]

    with pytest.raises(ValidationError) as refused:
        decks.deck_save(owner=player, name="Broken", card_ids=cards)

    assert "no_such_card" in " ".join(refused.value.messages)


def test_deck_save_refuses_third_copy(player):
    cards = _legal_deck()
    cards = cards[:17] + [cards[0]] * 3

    with pytest.raises(ValidationError, match="At most 2 copies"):
        decks.deck_save(owner=player, name="Greedy", card_ids=cards)


def test_match_uses_the_players_saved_deck(session, player, pc, npc):
    deck = decks.deck_save(owner=player, name="Mine", card_ids=_legal_deck())

    match = dealt(
        services.match_create(
            session=session,
            by=player,
            seats=[
                SeatSpec(pc, deck=f"deck:{deck.pk}"),
                SeatSpec(npc, computer=True, level="random"),
            ],
            game="acticsx",
        )
    )

    assert sorted(
        acticsx_engine.player_view(acticsx_engine.from_dict(match.state), 0)["players"][0][
            "deck_list"
        ]
    ) == sorted(deck.cards)


def test_match_refuses_someone_elses_deck(session, gm, player, pc, npc):
    deck = decks.deck_save(owner=gm, name="GM's", card_ids=_legal_deck())

    with pytest.raises(ValidationError, match="not one this seat"):
        dealt(
            services.match_create(
                session=session,
                by=player,
                seats=[SeatSpec(pc, deck=f"deck:{deck.pk}"), SeatSpec(npc, computer=True)],
                game="acticsx",
            )
        )


def test_actics_x_match_started_with_no_options_has_no_turn_limit(session, player, pc, pc2):
    match = _acticsx_pvp(session, player, pc, pc2)

    assert match.state["options"]["turn_limit"] is None


def test_actics_x_turn_limit_stays_a_match_option(session, player, pc, pc2):
    match = services.match_create(
        session=session,
        by=player,
        seats=[SeatSpec(pc), SeatSpec(pc2)],
        game="acticsx",
        seed=9,
        options={"turn_limit": "300"},
    )

    assert match.state["options"]["turn_limit"] == 300


def test_computer_defender_answers_the_counter_question_at_once(session, player, pc, npc):
    match = _against_the_computer(
        session, player, pc, npc, level="search", seed=3, options={"first_player": 0}
    )
    services.match_move(match_id=match.pk, by=player, action=SETUP_B, version=match.version)
    match.refresh_from_db()

    # The computer is asked (its mode is the default, "ask") and shows it at once.
    attack_a_held_counter(match, attacker=player)

    match.refresh_from_db()
    after = engine.from_dict(match.state)
    assert after.pending is None
    assert [pc[2] for pc in after.pieces] == [4, 5]
    answer = MatchMove.objects.filter(match=match).last()
    assert (answer.by_computer, answer.action) == (
        True,
        {"type": "counter", "player": 1, "use": True},
    )
