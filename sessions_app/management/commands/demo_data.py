"""Load the demo table: a GM, two players, a scenario and one session. Safe to run again."""

import datetime
import io

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone
from PIL import Image, ImageDraw, ImageFont

from sessions_app.models import (
    Character,
    GameSession,
    Membership,
    Participation,
    Phase,
    RulesProfile,
    Scenario,
    Table,
)
from sessions_app.services.characters import character_create
from sessions_app.services.faces import face_add
from sessions_app.services.play import session_scenario_set
from sessions_app.services.scenarios import (
    handout_create,
    planned_scene_create,
    prepared_check_create,
    scenario_create,
    scenario_npc_create,
)
from sessions_app.services.scene_pictures import planned_scene_background_set
from sessions_app.services.tables import session_create, table_create

DEMO_TABLE = "Demo table"
DEMO_SESSION = "The Akashic Library"
# Printed on start-up so a first-time user can log in at once; demo accounts only.
DEMO_USERS = [
    ("gm", "srs-gm-demo", Membership.Role.GM),
    ("aki", "srs-aki-demo", Membership.Role.PLAYER),
    ("ren", "srs-ren-demo", Membership.Role.PLAYER),
]

STANDARD = ["Strength", "Reflexes", "Senses", "Intellect", "Spirit", "Empathy"]
DEMO_CHARACTERS = [
    (
        "aki",
        Character.Kind.PC,
        "Aki Tsukishiro",
        "Archive diver",
        dict(zip(STANDARD, [2, 4, 5, 3, 3, 2], strict=True)),
    ),
    (
        "ren",
        Character.Kind.PC,
        "Ren Kagami",
        "Wandering swordsman",
        dict(zip(STANDARD, [5, 4, 2, 1, 3, 2], strict=True)),
    ),
    (
        "gm",
        Character.Kind.NPC,
        "The Librarian",
        "Keeper of the stacks",
        dict(zip(STANDARD, [1, 2, 6, 6, 4, 3], strict=True)),
    ),
]

DEMO_SCENARIO = "The Akashic Library"
DEMO_SCENARIO_SUMMARY = (
    "Books are vanishing from the Akashic Library, and the PCs' names are written in the "
    "index cards left behind.\n\n"
    "- **PC1** inherits a key to the stacks\n"
    "- **PC2** owes the Librarian a favour"
)
DEMO_SCENARIO_NOTES = (
    "# The truth\n"
    "The *Index Ghost* is the library's first cataloguer, trying to file the world away.\n\n"
    "## Pacing\n"
    "Keep the middle short: two scenes, then the climax."
)
# (phase, title, scene player slot or None for a master scene, place, purpose,
#  [(label, judgement value, difficulty, secret)])
DEMO_PLANNED_SCENES = [
    (
        Phase.OPENING,
        "A letter from the library",
        1,
        "Tsukishiro house",
        "Aki receives an invitation sealed with the library's crest.",
        [("Read the old seal", "Intellect", 9, False)],
    ),
    (
        Phase.OPENING,
        "Ren's night watch",
        2,
        "The city wall",
        "Ren sees a shelf of books walking through the night streets.",
        [],
    ),
    (
        Phase.MIDDLE,
        "Stacks that rearrange themselves",
        1,
        "The library's stacks",
        "The shelves move; the way back is lost.",
        [("Notice the pattern in the moving shelves", "Senses", 11, True)],
    ),
    (
        Phase.MIDDLE,
        "The Librarian's warning",
        None,
        "The reading room",
        "The Librarian explains what the Index Ghost wants.",
        [],
    ),
    (
        Phase.CLIMAX,
        "The last index card",
        1,
        "The catalogue hall",
        "Face the Index Ghost before it files the PCs away.",
        [],
    ),
    (
        Phase.ENDING,
        "Return of the books",
        None,
        "The library at dawn",
        "The books come home; each PC gets a last scene.",
        [],
    ),
]
DEMO_SCENARIO_NPC = (
    "Index Ghost",
    "The first cataloguer, who never stopped",
    dict(zip(STANDARD, [1, 3, 5, 6, 5, 1], strict=True)),
)
DEMO_HANDOUTS = [
    ("Invitation", "A sealed letter invites you to the Akashic Library at midnight.", None),
    ("PC1: Aki's secret", "Your grandmother was the library's last **Keeper**.", 1),
    ("PC2: Ren's debt", "You owe the Librarian your life; today the debt is called in.", 2),
]
DEMO_SLOTS = {"Aki Tsukishiro": 1, "Ren Kagami": 2}
# Colours of the drawn faces; each character gets a portrait and two expressions.
DEMO_COLOURS = {
    "Aki Tsukishiro": (214, 96, 77),
    "Ren Kagami": (64, 112, 170),
    "The Librarian": (120, 98, 160),
}
DEMO_MOODS = [("calm", "Portrait"), ("smile", "Smile"), ("worried", "Worried")]


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _drawn_face(colour, initial: str, mood: str) -> bytes:
    """A simple face drawn at run time: a coloured circle, the initial, eyes and a mouth."""
    size = 256
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((8, 8, size - 8, size - 8), fill=colour, outline=(255, 255, 255), width=6)
    font = ImageFont.load_default(size=72)
    draw.text((size / 2, 80), initial, fill=(255, 255, 255), font=font, anchor="mm")
    for x in (95, 161):
        draw.ellipse((x - 10, 130, x + 10, 150), fill=(255, 255, 255))
    if mood == "smile":
        draw.arc((80, 140, 176, 210), start=20, end=160, fill=(255, 255, 255), width=8)
    elif mood == "worried":
        draw.arc((80, 180, 176, 240), start=200, end=340, fill=(255, 255, 255), width=8)
    else:
        draw.line((100, 190, 156, 190), fill=(255, 255, 255), width=8)
    return _png(image)


def _drawn_stacks() -> bytes:
    """A library background: dusk-coloured wall and rows of book spines."""
    width, height = 960, 400
    image = Image.new("RGB", (width, height), (58, 44, 66))
    draw = ImageDraw.Draw(image)
    for row in range(4):
        top = 30 + row * 92
        draw.rectangle((0, top + 70, width, top + 80), fill=(92, 62, 40))
        x = 10
        while x < width - 20:
            spine = 14 + (x * 7 + row * 13) % 18
            tall = 40 + (x * 11 + row * 5) % 30
            shade = (110 + (x * 3) % 120, 70 + (x * 5) % 90, 60 + (x * 7) % 100)
            draw.rectangle((x, top + 70 - tall, x + spine, top + 70), fill=shade)
            x += spine + 3
    return _png(image)


def _demo_pictures(table, users) -> None:
    """Give the demo characters faces and the library scenes a background, once."""
    for name, colour in DEMO_COLOURS.items():
        character = Character.objects.filter(table=table, name=name).first()
        if character is None or character.faces.exists():
            continue
        for mood, label in DEMO_MOODS:
            face_add(
                character=character,
                by=character.owner,
                data=_drawn_face(colour, name[0], mood),
                label=label,
            )
    stacks = None
    scenario = Scenario.objects.filter(owner=users["gm"], title=DEMO_SCENARIO).first()
    for planned in scenario.scenes.filter(place__icontains="library") if scenario else []:
        if not planned.background:
            stacks = stacks or _drawn_stacks()
            planned_scene_background_set(planned_scene=planned, by=users["gm"], data=stacks)


def _demo_scenario(gm) -> Scenario:
    """Return the GM's demo scenario, writing it the first time."""
    scenario = Scenario.objects.filter(owner=gm, title=DEMO_SCENARIO).first()
    if scenario is not None:
        return scenario
    scenario = scenario_create(
        by=gm,
        title=DEMO_SCENARIO,
        summary=DEMO_SCENARIO_SUMMARY,
        player_count=2,
        gm_notes=DEMO_SCENARIO_NOTES,
    )
    for phase, title, slot, place, purpose, checks in DEMO_PLANNED_SCENES:
        scene = planned_scene_create(
            scenario=scenario,
            by=gm,
            phase=phase,
            title=title,
            scene_player_slot=slot,
            place=place,
            purpose=purpose,
        )
        for label, value_name, difficulty, secret in checks:
            prepared_check_create(
                planned_scene=scene,
                by=gm,
                label=label,
                value_name=value_name,
                difficulty=difficulty,
                secret=secret,
            )
    name, concept, values = DEMO_SCENARIO_NPC
    scenario_npc_create(
        scenario=scenario, by=gm, name=name, concept=concept, judgement_values=values
    )
    for title, body, slot in DEMO_HANDOUTS:
        handout_create(scenario=scenario, by=gm, title=title, body=body, slot=slot)
    return scenario


class Command(BaseCommand):
    help = "Create the demo table, its GM and players, and one session (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load the demo accounts even with DEBUG off (their passwords are public).",
        )

    def handle(self, *args, **options):
        if not settings.DEBUG and not options["force"]:
            # The demo passwords are printed here and in the README: on a public server they
            # would be anyone's way in, as a GM.
            raise CommandError(
                "demo_data creates accounts whose passwords are published, and DEBUG is off: "
                "this looks like a production server. Create real accounts instead "
                "(manage.py createsuperuser), or add --force on a throwaway server."
            )
        User = get_user_model()
        with transaction.atomic():
            users = {}
            for username, password, _role in DEMO_USERS:
                user, _created = User.objects.get_or_create(username=username)
                user.set_password(password)
                user.save()
                users[username] = user
            table = Table.objects.filter(name=DEMO_TABLE, gm=users["gm"]).first()
            if table is None:
                table = table_create(gm=users["gm"], name=DEMO_TABLE)
            for username, _password, role in DEMO_USERS:
                Membership.objects.get_or_create(
                    table=table, user=users[username], defaults={"role": role}
                )
            session = GameSession.objects.filter(table=table, title=DEMO_SESSION).first()
            if session is None:
                session = session_create(
                    table=table,
                    by=users["gm"],
                    title=DEMO_SESSION,
                    scheduled_for=timezone.localdate() + datetime.timedelta(days=1),
                    rules_profile=RulesProfile.objects.get(table=None, name="SRS standard"),
                )
            for owner, kind, name, concept, values in DEMO_CHARACTERS:
                character = Character.objects.filter(table=table, name=name).first()
                if character is None:
                    character = character_create(
                        table=table,
                        by=users[owner],
                        kind=kind,
                        name=name,
                        concept=concept,
                        judgement_values=values,
                        resources={"HP": {"current": 20, "max": 20}, "MP": {"current": 8, "max": 8}}
                        if kind == Character.Kind.PC
                        else {},
                    )
                if kind == Character.Kind.PC:
                    session.characters.add(character)
            scenario = _demo_scenario(users["gm"])
            if session.scenario_id != scenario.pk:
                session_scenario_set(session=session, by=users["gm"], scenario=scenario)
            for name, slot in DEMO_SLOTS.items():
                Participation.objects.filter(session=session, character__name=name).update(
                    slot=slot
                )
            _demo_pictures(table, users)
        self.stdout.write("Demo logins (username / password):")
        for username, password, role in DEMO_USERS:
            self.stdout.write(f"  {username:<4} / {password}   ({role})")
