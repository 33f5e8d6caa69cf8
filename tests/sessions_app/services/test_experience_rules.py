"""The experience and growth rules as written: points belong to the person, growth goes
through a GM, awards go to those who played."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from sessions_app.models import (
    ExperienceEntry,
    GameSession,
    GrowthRequest,
    Phase,
    RulesProfile,
    TimelineEvent,
)
from sessions_app.selectors.experience import (
    award_recipients,
    balance_of,
    ledger_for,
    record_sheet,
    table_game,
)
from sessions_app.services.experience import (
    AwardLine,
    experience_award_session,
    experience_correct,
    growth_confirm,
    growth_decline,
    growth_request,
)
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    MembershipFactory,
    TableFactory,
    UserFactory,
    own_profile,
    standard_profile,
)
from tests.sessions_app.services.test_experience import (
    CATALOGUE,
    spent_while_the_first_is_open,
)


def _own_profile(table, *, base=None, **fields):
    return own_profile(table, base=base, growth_catalogue=CATALOGUE, **fields)


def played(table, person, *, name="Aki"):
    """A session of the table in after-play in which the person's PC took part."""
    session = GameSessionFactory(
        table=table, phase=Phase.AFTER_PLAY, rules_profile=table.rules_profile or standard_profile()
    )
    session.characters.add(CharacterFactory(table=table, owner=person, name=name))
    return session


@pytest.fixture
def two_tables(gm, player):
    """The player at two tables of the same game, each with its own GM."""
    friday = TableFactory(gm=gm, name="Friday")
    MembershipFactory(table=friday, user=player)
    _own_profile(friday, name="Friday rules")
    other_gm = UserFactory(username="keeper")
    sunday = TableFactory(gm=other_gm, name="Sunday")
    MembershipFactory(table=sunday, user=player)
    _own_profile(sunday)
    return friday, sunday


def test_experience_earned_at_one_table_is_spent_at_another(two_tables, gm, player):
    friday, sunday = two_tables
    session = played(friday, player)
    experience_award_session(session=session, by=gm, awards={player.pk: [AwardLine(12, "Goal")]})
    sunday_pc = CharacterFactory(table=sunday, owner=player, judgement_values={"Strength": 3})

    asked = growth_request(character=sunday_pc, by=player, item_label="+1 Strength")
    growth_confirm(request=asked, by=sunday.gm)

    sunday_pc.refresh_from_db()
    assert sunday_pc.judgement_values["Strength"] == 4
    assert balance_of(game=table_game(table=friday), user=player) == 2
    assert balance_of(game=table_game(table=sunday), user=player) == 2
    # The ledger still says where each point came from and went.
    assert [
        (e.table.name, e.amount, e.balance_after)
        for e in ledger_for(user=player, game=table_game(table=sunday))
    ] == [("Friday", 12, 12), ("Sunday", -10, 2)]


def test_gm_award_is_spent_on_own_pc_at_another_table(two_tables, gm, player):
    friday, sunday = two_tables
    MembershipFactory(table=sunday, user=gm)
    experience_award_session(
        session=played(friday, player), by=gm, awards={gm.pk: [AwardLine(5, "Ran it")]}
    )
    gm_pc = CharacterFactory(table=sunday, owner=gm, name="Kei")

    asked = growth_request(character=gm_pc, by=gm, item_label="New skill")
    growth_confirm(request=asked, by=sunday.gm)

    assert balance_of(game=table_game(table=sunday), user=gm) == 0


def test_experience_of_another_game_is_not_spent_here(two_tables, gm, player):
    friday, _sunday = two_tables
    experience_award_session(
        session=played(friday, player), by=gm, awards={player.pk: [AwardLine(12, "Goal")]}
    )
    akashic = TableFactory(name="Akashic nights")
    MembershipFactory(table=akashic, user=player)
    _own_profile(akashic, base=RulesProfile.objects.get(table=None, name="Akashic Recorder"))
    pc = CharacterFactory(table=akashic, owner=player)

    with pytest.raises(ValidationError, match="you have 0"):
        growth_request(character=pc, by=player, item_label="New skill")


def test_renamed_copy_of_a_shipped_profile_stays_in_its_game(table):
    profile = _own_profile(table, name="Our house rules")

    assert profile.game == "SRS standard"
    assert table_game(table=table) == "SRS standard"


def test_growth_waits_for_the_gm_to_confirm(two_tables, gm, player):
    friday, _sunday = two_tables
    session = played(friday, player)
    experience_award_session(session=session, by=gm, awards={player.pk: [AwardLine(12, "Goal")]})
    pc = CharacterFactory(table=friday, owner=player, judgement_values={"Strength": 3})

    asked = growth_request(character=pc, by=player, item_label="+1 Strength", session=session)

    pc.refresh_from_db()
    assert asked.status == GrowthRequest.Status.PENDING
    assert pc.judgement_values["Strength"] == 3
    assert balance_of(game=table_game(table=friday), user=player) == 12
    assert not ExperienceEntry.objects.filter(kind=ExperienceEntry.Kind.SPEND).exists()
    assert TimelineEvent.objects.filter(session=session, kind="growth_requested").exists()

    confirmed = growth_confirm(request=asked, by=gm)

    pc.refresh_from_db()
    assert confirmed.status == GrowthRequest.Status.CONFIRMED
    assert pc.judgement_values["Strength"] == 4
    assert confirmed.entry.amount == -10
    assert confirmed.entry.session == session
    assert balance_of(game=table_game(table=friday), user=player) == 2
    event = TimelineEvent.objects.get(session=session, kind="growth_confirmed")
    assert (event.payload["before"], event.payload["after"]) == (3, 4)


def test_growth_is_confirmed_only_by_the_gm_of_the_characters_table(two_tables, gm, player):
    friday, sunday = two_tables
    experience_award_session(
        session=played(friday, player), by=gm, awards={player.pk: [AwardLine(12, "Goal")]}
    )
    sunday_pc = CharacterFactory(table=sunday, owner=player)
    asked = growth_request(character=sunday_pc, by=player, item_label="New skill")

    with pytest.raises(PermissionDenied):
        growth_confirm(request=asked, by=player)
    with pytest.raises(PermissionDenied):
        growth_confirm(request=asked, by=gm)
    asked.refresh_from_db()
    assert asked.status == GrowthRequest.Status.PENDING


def test_growth_declined_by_the_gm_spends_nothing(two_tables, gm, player):
    friday, _sunday = two_tables
    experience_award_session(
        session=played(friday, player), by=gm, awards={player.pk: [AwardLine(12, "Goal")]}
    )
    pc = CharacterFactory(table=friday, owner=player, judgement_values={"Strength": 3})
    asked = growth_request(character=pc, by=player, item_label="+1 Strength")

    growth_decline(request=asked, by=gm)

    pc.refresh_from_db()
    assert pc.judgement_values["Strength"] == 3
    assert balance_of(game=table_game(table=friday), user=player) == 12
    with pytest.raises(ValidationError):
        growth_confirm(request=asked, by=gm)


def test_growth_is_self_service_when_the_profile_says_so(table, gm, player, player_membership):
    _own_profile(table, growth_self_service=True)
    experience_correct(table=table, by=gm, person=player, amount=10, reason="Start")
    pc = CharacterFactory(table=table, owner=player, judgement_values={"Strength": 3})

    asked = growth_request(character=pc, by=player, item_label="+1 Strength")

    pc.refresh_from_db()
    assert asked.status == GrowthRequest.Status.CONFIRMED
    assert asked.decided_by == player
    assert pc.judgement_values["Strength"] == 4


def test_self_service_growth_is_off_by_default(db):
    assert RulesProfile().growth_self_service is False
    assert standard_profile().growth_self_service is False


def test_growth_waiting_for_the_gm_counts_against_the_balance(table, gm, player, player_membership):
    _own_profile(table)
    experience_correct(table=table, by=gm, person=player, amount=7, reason="Start")
    aki = CharacterFactory(table=table, owner=player, name="Aki")
    ren = CharacterFactory(table=table, owner=player, name="Ren")
    growth_request(character=aki, by=player, item_label="New skill")

    with pytest.raises(ValidationError, match="you have 2"):
        growth_request(character=ren, by=player, item_label="New skill")


def test_growth_confirmed_without_the_points_left_refused(table, gm, player, player_membership):
    _own_profile(table)
    entry = experience_correct(table=table, by=gm, person=player, amount=5, reason="Start")
    asked = growth_request(
        character=CharacterFactory(table=table, owner=player), by=player, item_label="New skill"
    )
    experience_correct(
        table=table, by=gm, person=player, amount=-1, reason="Counted twice", corrects=entry
    )

    with pytest.raises(ValidationError):
        growth_confirm(request=asked, by=gm)
    assert balance_of(game=table_game(table=table), user=player) == 4


def test_award_form_lists_only_the_session_s_players_and_gm(table, gm, player, player_membership):
    bystander = UserFactory(username="ren")
    MembershipFactory(table=table, user=bystander)
    session = played(table, player)

    assert [user.username for user in award_recipients(session=session)] == ["player", "gm"]


def test_award_to_a_member_without_a_pc_in_the_session_refused(
    table, gm, player, player_membership
):
    bystander = UserFactory(username="ren")
    MembershipFactory(table=table, user=bystander)
    session = played(table, player)

    with pytest.raises(ValidationError):
        experience_award_session(
            session=session, by=gm, awards={bystander.pk: [AwardLine(1, "Attended")]}
        )
    assert not ExperienceEntry.objects.exists()
    GameSession.objects.get(pk=session.pk, experience_confirmed_at=None)


def test_gm_correction_counts_in_the_game_of_the_corrected_line(two_tables, gm, player):
    friday, sunday = two_tables
    [entry] = experience_award_session(
        session=played(friday, player), by=gm, awards={player.pk: [AwardLine(3, "Goal")]}
    )

    correction = experience_correct(
        table=friday, by=gm, person=player, amount=-1, reason="Goal was 2", corrects=entry
    )

    assert (correction.game, correction.balance_after) == (entry.game, 2)
    assert balance_of(game=table_game(table=sunday), user=player) == 2


def test_gm_correction_of_a_line_written_at_another_table_refused(two_tables, gm, player):
    friday, sunday = two_tables
    [entry] = experience_award_session(
        session=played(friday, player), by=gm, awards={player.pk: [AwardLine(3, "Goal")]}
    )

    with pytest.raises(ValidationError):
        experience_correct(
            table=sunday, by=sunday.gm, person=player, amount=-3, reason="No", corrects=entry
        )


def test_record_sheet_hides_other_tables_details_from_their_outsiders(two_tables, gm, player):
    friday, sunday = two_tables
    experience_award_session(
        session=played(friday, player), by=gm, awards={player.pk: [AwardLine(3, "Secret goal")]}
    )

    as_sunday_gm = record_sheet(user=player, game=table_game(table=sunday), viewer=sunday.gm)
    as_player = record_sheet(user=player, game=table_game(table=sunday), viewer=player)

    assert [e.elsewhere for e in as_sunday_gm["entries"]] == [True]
    assert as_sunday_gm["signoffs"] == {}
    assert as_sunday_gm["balance"] == 3
    assert [e.elsewhere for e in as_player["entries"]] == [False]


@pytest.mark.django_db(transaction=True)
def test_two_spendings_at_two_tables_at_once_cannot_share_points():
    player = UserFactory(username="player")
    friday, sunday = TableFactory(name="Friday"), TableFactory(name="Sunday")
    for table in (friday, sunday):
        MembershipFactory(table=table, user=player)
        _own_profile(table, growth_self_service=True)
    aki = CharacterFactory(table=friday, owner=player, name="Aki")
    ren = CharacterFactory(table=sunday, owner=player, name="Ren")
    experience_correct(table=friday, by=friday.gm, person=player, amount=7, reason="Start")
    # The first spends 5 of the 7 points at Friday but does not commit yet: the spending at
    # Sunday must wait for the person's account rather than read the old balance. Both are
    # asked with self-service growth: the request itself spends.
    results = spent_while_the_first_is_open(player, aki, ren, spending=growth_request)

    assert sorted(results) == ["refused", "spent"]
    assert balance_of(game=table_game(table=sunday), user=player) == 2
    assert ExperienceEntry.objects.filter(kind=ExperienceEntry.Kind.SPEND).count() == 1
