import datetime

import factory
from django.contrib.auth import get_user_model

from sessions_app.models import Character, GameSession, Membership, RulesProfile, Table

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Table {n}")
    gm = factory.SubFactory(UserFactory)

    @factory.post_generation
    def gm_membership(obj, create, extracted, **kwargs):
        if create:
            Membership.objects.get_or_create(
                table=obj, user=obj.gm, defaults={"role": Membership.Role.GM}
            )


class TablePartFactory(factory.django.DjangoModelFactory):
    """What a table holds (its members, sessions and characters): each belongs to a table of
    its own unless given one. Abstract: it names no model."""

    table = factory.SubFactory(TableFactory)


class MembershipFactory(TablePartFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    role = Membership.Role.PLAYER


def standard_profile() -> RulesProfile:
    # Transactional tests flush the rows the data migrations shipped; bring them back.
    from tests.live_server import shipped_rules_profiles

    profile = RulesProfile.objects.filter(table=None, name="SRS standard").first()
    if profile is None or not profile.judgement_value_names:
        shipped_rules_profiles()
        profile = RulesProfile.objects.get(table=None, name="SRS standard")
    return profile


class GameSessionFactory(TablePartFactory):
    class Meta:
        model = GameSession

    title = factory.Sequence(lambda n: f"Session {n}")
    scheduled_for = datetime.date(2026, 12, 5)
    rules_profile = factory.LazyFunction(standard_profile)


class CharacterFactory(TablePartFactory):
    class Meta:
        model = Character

    name = factory.Sequence(lambda n: f"Character {n}")
    kind = Character.Kind.PC
    owner = factory.SubFactory(UserFactory)
    judgement_values = factory.LazyFunction(lambda: {"Strength": 3})


# --------------------------------------------------------------------------- scenes and scenarios

from sessions_app.models import (  # noqa: E402
    Handout,
    Participation,
    Phase,
    PlannedScene,
    PreparedCheck,
    Scenario,
    ScenarioNpc,
)


class RulesProfileFactory(factory.django.DjangoModelFactory):
    """A table's own profile, for the designer options (no scenes, entry conditions, …)."""

    class Meta:
        model = RulesProfile

    name = factory.Sequence(lambda n: f"Profile {n}")
    judgement_value_names = factory.LazyFunction(lambda: ["Strength"])
    resource_names = factory.LazyFunction(lambda: ["HP"])


class ParticipationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Participation

    session = factory.SubFactory(GameSessionFactory)
    character = factory.SubFactory(CharacterFactory)


class ScenarioFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Scenario

    owner = factory.SubFactory(UserFactory)
    title = factory.Sequence(lambda n: f"Scenario {n}")
    player_count = 2


class ScenarioPartFactory(factory.django.DjangoModelFactory):
    """What a scenario is made of (its planned scenes, NPCs and handouts): each part belongs
    to a scenario of its own unless given one. Abstract: it names no model."""

    scenario = factory.SubFactory(ScenarioFactory)


class PlannedSceneFactory(ScenarioPartFactory):
    class Meta:
        model = PlannedScene

    phase = Phase.OPENING
    position = factory.Sequence(lambda n: n + 1)
    title = factory.Sequence(lambda n: f"Planned scene {n}")
    place = "The archive"
    purpose = "Find the letter"
    scene_player_slot = 1


class PreparedCheckFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PreparedCheck

    planned_scene = factory.SubFactory(PlannedSceneFactory)
    label = factory.Sequence(lambda n: f"Prepared check {n}")
    value_name = "Strength"
    difficulty = 9


class ScenarioNpcFactory(ScenarioPartFactory):
    class Meta:
        model = ScenarioNpc

    name = factory.Sequence(lambda n: f"Scenario NPC {n}")
    judgement_values = factory.LazyFunction(lambda: {"Strength": 2})


class HandoutFactory(ScenarioPartFactory):
    class Meta:
        model = Handout

    title = factory.Sequence(lambda n: f"Handout {n}")
    body = factory.Sequence(lambda n: f"Handout text {n}")
    slot = None


def own_profile(table, *, base: RulesProfile | None = None, **fields) -> RulesProfile:
    """Give the table its own copy of a shipped profile (the standard one unless `base`), with
    `fields` changed, as the profile page does."""
    profile = base or standard_profile()
    profile.pk = None
    profile.table = table
    for name, value in fields.items():
        setattr(profile, name, value)
    profile.save()
    table.rules_profile = profile
    table.save()
    return profile


def cast_member(session, user, *, name: str, slot: int | None = None, **fields) -> Character:
    """Make a PC of `user` that takes part in `session`, playing `slot` if given."""
    character = CharacterFactory(table=session.table, owner=user, name=name, **fields)
    ParticipationFactory(session=session, character=character, slot=slot)
    return character


def aki_with_a_hidden_curse(session, user, *, hp: int, curse: int) -> Character:
    """Aki, a PC of `user` in `session`, with HP `hp`/10 that everyone sees and a Curse of
    `curse`/9 hidden from all but her player and the GM."""
    resources = {
        "HP": {"current": hp, "max": 10},
        "Curse": {"current": curse, "max": 9, "hidden": True},
    }
    return cast_member(session, user, name="Aki", resources=resources)


def main_play_start(session, gm) -> GameSession:
    """Move a session from pre-play into the opening through the service the GM uses."""
    from sessions_app.services.play import phase_advance

    phase_advance(session=session, by=gm, from_phase=Phase.PRE_PLAY)
    session.refresh_from_db()
    return session


def scene_started(
    session,
    gm,
    *,
    place: str = "The old library",
    purpose: str = "To find out what happened",
    **fields,
):
    """Start a scene of main play as the GM does (opening main play first if the session is
    still in pre-play), with `fields` (scene_player, title, master, …); return the scene."""
    from sessions_app.services.scenes import scene_start

    if session.phase == Phase.PRE_PLAY:
        main_play_start(session, gm)
    return scene_start(session=session, by=gm, place=place, purpose=purpose, **fields)


def on_stage(session, gm, *characters: Character) -> None:
    """Start a master scene of main play and bring these characters on stage, as the GM
    does: from then on the players know of an NPC among them."""
    from sessions_app.services.scenes import stage_bring_in

    scene_started(session, gm, master=True)
    for character in characters:
        stage_bring_in(session=session, by=gm, character=character)


def library_scenario(gm, **opening_fields):
    """The GM's two-player scenario "The Akashic Library", whose main play opens on the
    first player's planned scene "A letter" (with `opening_fields`): (scenario, that scene)."""
    scenario = Scenario.objects.create(owner=gm, title="The Akashic Library", player_count=2)
    opening = PlannedScene.objects.create(
        scenario=scenario,
        phase=Phase.OPENING,
        position=1,
        title="A letter",
        scene_player_slot=1,
        **opening_fields,
    )
    return scenario, opening


def secret_sneak_check(session, gm, character, difficulty):
    """The GM asks `character` for a Strength check, "Sneak", of a secret `difficulty`."""
    from sessions_app.services.checks import check_request

    return check_request(
        session=session,
        by=gm,
        character=character,
        label="Sneak",
        value_name="Strength",
        difficulty=difficulty,
        difficulty_secret=True,
    )


def contest_rolled(
    session, gm, player, *, label, action, reaction, action_dice_value, reaction_dice_value=None
):
    """Open a contest of the player's character `action` (value 5) against the GM's
    `reaction` (value 4) and roll it out, each side with its browser's dice value (None: the
    server's): the action side by the player, then the reaction side by the GM unless the
    first roll decided the contest already."""
    from sessions_app.services.checks import ContestSide, check_roll, contest_open

    contest = contest_open(
        session=session,
        by=gm,
        label=label,
        action=ContestSide(character=action, value=5),
        reaction=ContestSide(character=reaction, value=4),
    )
    action_request, reaction_request = contest.requests.order_by("side")
    check_roll(request_id=action_request.pk, by=player, dice_value=action_dice_value)
    if contest.requests.get(pk=reaction_request.pk).status == "pending":
        check_roll(request_id=reaction_request.pk, by=gm, dice_value=reaction_dice_value)
    return contest


def open_to_spectators(table):
    """Turn the table's spectator link on, as a test's premise (without the GM's service and
    the event it appends): the table."""
    table.spectators_allowed = True
    table.save()
    return table


def friday_table(*player_names: str, gm_name: str = "keeper", name: str = "Friday table"):
    """The table most tests play at: its GM and one member for each of `player_names`."""
    gm = UserFactory(username=gm_name)
    table = TableFactory(gm=gm, name=name)
    players = tuple(
        MembershipFactory(table=table, user=UserFactory(username=player)).user
        for player in player_names
    )
    return table, gm, players


def friday_session(*player_names: str, title: str = "The Akashic Library", **fields):
    """A session at friday_table(*player_names), with `fields`: the session, its GM and the
    players."""
    table, gm, players = friday_table(*player_names)
    return GameSessionFactory(table=table, title=title, **fields), gm, players
