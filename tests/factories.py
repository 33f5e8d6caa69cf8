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


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    table = factory.SubFactory(TableFactory)
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


class GameSessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = GameSession

    table = factory.SubFactory(TableFactory)
    title = factory.Sequence(lambda n: f"Session {n}")
    scheduled_for = datetime.date(2026, 12, 5)
    rules_profile = factory.LazyFunction(standard_profile)


class CharacterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Character

    table = factory.SubFactory(TableFactory)
    owner = factory.SubFactory(UserFactory)
    kind = Character.Kind.PC
    name = factory.Sequence(lambda n: f"Character {n}")
    judgement_values = factory.LazyFunction(lambda: {"Strength": 3})


class ScenarioFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "sessions_app.Scenario"

    owner = factory.SubFactory(UserFactory)
    title = factory.Sequence(lambda n: f"Scenario {n}")
    player_count = 3


class PlannedSceneFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "sessions_app.PlannedScene"

    scenario = factory.SubFactory(ScenarioFactory)
    phase = "opening"
    position = factory.Sequence(lambda n: n + 1)
    title = factory.Sequence(lambda n: f"Planned scene {n}")
    scene_player_slot = 1


class PreparedCheckFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "sessions_app.PreparedCheck"

    planned_scene = factory.SubFactory(PlannedSceneFactory)
    label = factory.Sequence(lambda n: f"Check {n}")
    value_name = "Senses"
    difficulty = 9


class ScenarioNpcFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "sessions_app.ScenarioNpc"

    scenario = factory.SubFactory(ScenarioFactory)
    name = factory.Sequence(lambda n: f"NPC {n}")
    judgement_values = factory.LazyFunction(lambda: {"Spirit": 4})


class HandoutFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "sessions_app.Handout"

    scenario = factory.SubFactory(ScenarioFactory)
    title = factory.Sequence(lambda n: f"Handout {n}")
    body = "Read me."
    slot = None
