import threading

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction

from sessions_app.models import (
    ExperienceEntry,
    GameSession,
    Phase,
    SessionSignoff,
    TimelineEvent,
)
from sessions_app.selectors.experience import (
    award_recipients,
    balance_of,
    character_growth,
    ledger_for,
    session_sheet,
    sheet_sessions,
    table_game,
)
from sessions_app.services.chat import chat_post
from sessions_app.services.experience import (
    AwardLine,
    experience_award_session,
    experience_correct,
    growth_confirm,
    growth_request,
    session_close,
    session_sheet_sign,
)
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    MembershipFactory,
    TableFactory,
    UserFactory,
    own_profile,
)

CATALOGUE = [
    {"label": "+1 Strength", "cost": 10, "value_name": "Strength", "delta": 1, "limit": 2},
    {"label": "New skill", "cost": 5, "value_name": "", "delta": 0, "limit": None},
]


@pytest.fixture
def profile(table, player_membership):
    return own_profile(table, growth_catalogue=CATALOGUE)


@pytest.fixture
def pc(table, player, player_membership):
    return CharacterFactory(table=table, owner=player, name="Aki", judgement_values={"Strength": 3})


def award(session, by, lines):
    return experience_award_session(
        session=session,
        by=by,
        awards={
            user.pk: [AwardLine(amount, reason) for amount, reason in items]
            for user, items in lines.items()
        },
    )


def balance(table, person):
    """The person's balance in the game the table plays."""
    return balance_of(game=table_game(table=table), user=person)


def spend(**kwargs):
    """Ask for growth and have the GM of the character's table confirm it."""
    asked = growth_request(**kwargs)
    confirmed = growth_confirm(request=asked, by=asked.character.table.gm)
    return confirmed.entry


def give(table, gm, person, amount):
    """Put points on a ledger without a session (a correction by the GM)."""
    return experience_correct(
        table=table, by=gm, person=person, amount=amount, reason="Starting points"
    )


def test_experience_award_session_writes_lines_for_players_and_gm(afterplay, gm, player):
    award(afterplay, gm, {player: [(1, "Attended"), (2, "Goal")], gm: [(1, "Ran the game")]})

    assert balance(afterplay.table, player) == 3
    assert balance(afterplay.table, gm) == 1
    assert [
        e.balance_after for e in ledger_for(user=player, game=table_game(table=afterplay.table))
    ] == [
        1,
        3,
    ]


def test_experience_award_session_appends_public_event_with_totals(afterplay, gm, player):
    award(afterplay, gm, {player: [(2, "Attended")], gm: [(1, "Ran the game")]})

    event = TimelineEvent.objects.get(session=afterplay, kind="experience_awarded")
    assert event.visibility == TimelineEvent.Visibility.EVERYONE
    assert [(t["name"], t["total"]) for t in event.payload["totals"]] == [
        ("player", 2),
        ("gm", 1),
    ]


def test_experience_award_session_second_confirm_refused(afterplay, gm, player):
    award(afterplay, gm, {player: [(1, "Attended")]})

    with pytest.raises(ValidationError):
        award(afterplay, gm, {player: [(1, "Attended")]})
    assert ExperienceEntry.objects.count() == 1


def test_experience_award_session_outside_afterplay_refused(session, gm, player):
    with pytest.raises(ValidationError):
        award(session, gm, {player: [(1, "Attended")]})


def test_experience_award_session_by_player_refused(afterplay, player):
    with pytest.raises(PermissionDenied):
        award(afterplay, player, {player: [(5, "Self-award")]})


def test_experience_award_session_to_outsider_refused(afterplay, gm, outsider):
    with pytest.raises(ValidationError):
        award(afterplay, gm, {outsider: [(1, "Attended")]})


def test_experience_award_session_line_without_reason_refused(afterplay, gm, player):
    with pytest.raises(ValidationError):
        award(afterplay, gm, {player: [(1, "  ")]})
    assert not ExperienceEntry.objects.exists()


def test_growth_spend_catalogue_item_raises_judgement_value(table, gm, player, profile, pc):
    give(table, gm, player, 12)

    entry = spend(character=pc, by=player, item_label="+1 Strength")

    pc.refresh_from_db()
    assert pc.judgement_values["Strength"] == 4
    assert entry.amount == -10
    assert entry.balance_after == 2
    assert entry.growth == {
        "item": "+1 Strength",
        "value_name": "Strength",
        "delta": 1,
        "before": 3,
        "after": 4,
    }


def test_growth_spend_shows_in_character_history(table, gm, player, profile, pc):
    give(table, gm, player, 10)
    spend(character=pc, by=player, item_label="+1 Strength")

    assert [entry.reason for entry in character_growth(character=pc)] == ["+1 Strength"]


def test_growth_spend_on_another_players_pc_refused(table, gm, player, profile):
    other = UserFactory(username="ren")
    MembershipFactory(table=table, user=other)
    ren_pc = CharacterFactory(table=table, owner=other, name="Ren")
    give(table, gm, player, 10)

    with pytest.raises(PermissionDenied):
        spend(character=ren_pc, by=player, item_label="New skill")
    assert balance(table, player) == 10


def test_growth_spend_more_than_balance_refused(table, gm, player, profile, pc):
    give(table, gm, player, 9)

    with pytest.raises(ValidationError):
        spend(character=pc, by=player, item_label="+1 Strength")
    pc.refresh_from_db()
    assert pc.judgement_values["Strength"] == 3
    assert balance(table, player) == 9


def test_growth_spend_growth_off_refused_with_reason(table, gm, player, profile, pc):
    profile.growth_enabled = False
    profile.save()
    give(table, gm, player, 10)

    with pytest.raises(ValidationError, match="not recommended"):
        spend(character=pc, by=player, item_label="New skill")


def test_growth_spend_limit_respected(table, gm, player, profile, pc):
    give(table, gm, player, 30)
    spend(character=pc, by=player, item_label="+1 Strength")
    spend(character=pc, by=player, item_label="+1 Strength")

    with pytest.raises(ValidationError):
        spend(character=pc, by=player, item_label="+1 Strength")
    assert balance(table, player) == 10


def test_growth_spend_free_form(table, gm, player, profile, pc):
    give(table, gm, player, 5)

    entry = spend(character=pc, by=player, description="A new contact", cost=3)

    assert (entry.reason, entry.amount, entry.balance_after) == ("A new contact", -3, 2)


def test_growth_spend_free_form_not_allowed_refused(table, gm, player, profile, pc):
    profile.free_growth_allowed = False
    profile.save()
    give(table, gm, player, 5)

    with pytest.raises(ValidationError):
        spend(character=pc, by=player, description="A new contact", cost=3)


def test_growth_spend_on_session_sheet_before_afterplay_refused(
    session, table, gm, player, profile, pc
):
    give(table, gm, player, 5)

    with pytest.raises(ValidationError):
        spend(character=pc, by=player, item_label="New skill", session=session)


def test_experience_correct_negative_fixes_an_award(afterplay, gm, player):
    [entry] = award(afterplay, gm, {player: [(3, "Goal")]})

    correction = experience_correct(
        table=afterplay.table, by=gm, person=player, amount=-2, reason="Goal was 1", corrects=entry
    )

    assert correction.kind == ExperienceEntry.Kind.CORRECTION
    assert correction.session == afterplay
    assert correction.balance_after == 1
    assert TimelineEvent.objects.filter(session=afterplay, kind="experience_corrected").exists()


def test_experience_correct_below_zero_refused(table, gm, player, player_membership):
    give(table, gm, player, 2)

    with pytest.raises(ValidationError):
        experience_correct(table=table, by=gm, person=player, amount=-3, reason="Oops")
    assert balance(table, player) == 2


def test_experience_correct_by_player_refused(table, player):
    with pytest.raises(PermissionDenied):
        experience_correct(table=table, by=player, person=player, amount=5, reason="Me")


def test_experience_correct_without_reason_refused(table, gm, player, player_membership):
    with pytest.raises(ValidationError):
        experience_correct(table=table, by=gm, person=player, amount=5, reason="")


def test_experience_entry_cannot_be_edited_or_deleted(table, gm, player, player_membership):
    entry = give(table, gm, player, 5)

    entry.amount = 50
    with pytest.raises(ValueError):
        entry.save()
    with pytest.raises(ValueError):
        entry.delete()
    with pytest.raises(ValueError):
        ExperienceEntry.objects.filter(pk=entry.pk).update(amount=50)


def test_experience_entry_negative_balance_refused_by_database(table, gm, player):
    with pytest.raises(IntegrityError), transaction.atomic():
        ExperienceEntry.objects.create(
            table=table,
            person=player,
            kind=ExperienceEntry.Kind.CORRECTION,
            amount=-1,
            reason="Below zero",
            balance_after=-1,
            game="SRS standard",
            created_by=gm,
        )


def test_session_close_before_awards_refused(afterplay, gm):
    with pytest.raises(ValidationError):
        session_close(session=afterplay, by=gm)


def test_session_close_stores_cleanup_and_closes(afterplay, gm, player):
    award(afterplay, gm, {player: [(1, "Attended")]})

    session_close(session=afterplay, by=gm, done={"venue": True})

    afterplay.refresh_from_db()
    assert afterplay.phase == Phase.CLOSED
    assert afterplay.cleanup["venue"] is True
    assert afterplay.cleanup["sheets"] is False
    assert TimelineEvent.objects.filter(session=afterplay, kind="session_closed").exists()


def test_session_close_by_player_refused(afterplay, gm, player):
    award(afterplay, gm, {player: [(1, "Attended")]})

    with pytest.raises(PermissionDenied):
        session_close(session=afterplay, by=player)


def test_closed_session_refuses_timeline_changes(afterplay, gm, player):
    award(afterplay, gm, {player: [(1, "Attended")]})
    session_close(session=afterplay, by=gm)

    with pytest.raises(ValidationError, match="read-only"):
        chat_post(session=afterplay, by=player, text="Still here?")


def test_closed_session_still_takes_growth_spending(afterplay, table, gm, player, profile, pc):
    award(afterplay, gm, {player: [(5, "Goal")]})
    session_close(session=afterplay, by=gm)

    entry = spend(character=pc, by=player, item_label="New skill", session=afterplay)

    assert entry.session == afterplay


def test_session_sheet_sign_stamps_once(afterplay, gm, player):
    award(afterplay, gm, {player: [(1, "Attended")]})

    signoff = session_sheet_sign(session=afterplay, by=gm)

    assert signoff.signer_name == "gm"
    with pytest.raises(ValidationError):
        session_sheet_sign(session=afterplay, by=gm)
    assert SessionSignoff.objects.count() == 1


def test_session_sheet_sign_by_player_refused(afterplay, gm, player):
    award(afterplay, gm, {player: [(1, "Attended")]})

    with pytest.raises(PermissionDenied):
        session_sheet_sign(session=afterplay, by=player)


def test_session_sheet_lists_players_then_gm(afterplay, gm, player):
    award(afterplay, gm, {player: [(1, "Attended"), (1, "Goal")], gm: [(1, "Ran it")]})

    rows = session_sheet(session=afterplay)["rows"]

    assert [(row["person"].username, row["awarded"], row["balance"]) for row in rows] == [
        ("player", 2, 2),
        ("gm", 1, 1),
    ]


def _spend_in_thread(character_id, user_id, results, *, spent=None, commit=None, spending=None):
    """Spend (with `spending`, by default asking and confirming) in a thread of its own; the
    first holds its transaction open until told."""
    from django.contrib.auth import get_user_model

    from sessions_app.models import Character

    try:
        character = Character.objects.select_related("table").get(pk=character_id)
        user = get_user_model().objects.get(pk=user_id)
        with transaction.atomic():
            # An item that leaves the sheet alone: only the ledger lock stands in the way.
            (spending or spend)(character=character, by=user, item_label="New skill")
            if spent is not None:
                spent.set()
                commit.wait(timeout=10)
        results.append("spent")
    except ValidationError:
        results.append("refused")
    finally:
        connection.close()


def spent_while_the_first_is_open(player, first_pc, second_pc, **spending):
    """The player spends for `first_pc` and holds that transaction open while spending for
    `second_pc` from another thread (each with `spending`, see _spend_in_thread), until the
    second has had half a second to go through; then both end. Their outcomes, "spent" or
    "refused", in the order they ended."""
    results: list[str] = []
    spent, commit = threading.Event(), threading.Event()
    first = threading.Thread(
        target=_spend_in_thread,
        args=(first_pc.pk, player.pk, results),
        kwargs={"spent": spent, "commit": commit, **spending},
    )
    second = threading.Thread(
        target=_spend_in_thread, args=(second_pc.pk, player.pk, results), kwargs=spending
    )
    first.start()
    assert spent.wait(timeout=10)
    second.start()
    second.join(timeout=0.5)
    commit.set()
    first.join(timeout=30)
    second.join(timeout=30)
    return results


@pytest.mark.django_db(transaction=True)
def test_growth_spend_two_at_once_cannot_share_points():
    gm = UserFactory(username="gm")
    player = UserFactory(username="player")
    table = TableFactory(gm=gm)
    MembershipFactory(table=table, user=player)
    own_profile(table, growth_catalogue=CATALOGUE)
    # Two PCs of one player: the points are the person's, whichever PC they go to.
    aki = CharacterFactory(table=table, owner=player, name="Aki")
    ren = CharacterFactory(table=table, owner=player, name="Ren")
    give(table, gm, player, 7)
    # The first spending uses 5 of the 7 points but does not commit yet: the second must
    # wait for it rather than read the old balance.
    results = spent_while_the_first_is_open(player, aki, ren)

    assert sorted(results) == ["refused", "spent"]
    assert balance(table, player) == 2
    assert ExperienceEntry.objects.filter(kind=ExperienceEntry.Kind.SPEND).count() == 1


def test_award_recipients_players_in_order_then_gm(afterplay, table, gm, player):
    other = UserFactory(username="ren")
    MembershipFactory(table=table, user=other)
    afterplay.characters.add(CharacterFactory(table=table, owner=other, name="Ren"))
    GameSession.objects.filter(pk=afterplay.pk).update(player_order=[other.pk, player.pk])
    afterplay.refresh_from_db()

    assert [u.username for u in award_recipients(session=afterplay)] == [
        "ren",
        "player",
        "gm",
    ]


def test_sheet_sessions_lists_afterplay_and_closed(table, afterplay):
    GameSessionFactory(table=table, title="Next week")

    assert list(sheet_sessions(table=table)) == [afterplay]
