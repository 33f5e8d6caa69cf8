"""A checked sheet stays checked only while unchanged: changes after the GM's check are
recorded and withdraw the check, except resources (HP and the like) moving in play."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from sessions_app.models import Participation, SheetChange, TimelineEvent
from sessions_app.presenters.stage import stage_context
from sessions_app.selectors.timeline import visible_events
from sessions_app.services.characters import character_update
from sessions_app.services.play import sheet_review
from tests.factories import MembershipFactory, UserFactory, main_play_start

# The pc fixture's Aki (tests/sessions_app/conftest.py) is a clerk with Reflexes and HP, taking
# part without a PC slot.
pytestmark = pytest.mark.pc_fields(
    slot=None,
    concept="Clerk",
    judgement_values={"Reflexes": 4},
    resources={"HP": {"current": 10, "max": 10}},
)


@pytest.fixture
def checked(session, gm, pc):
    sheet_review(session=session, by=gm, character=pc, ok=True)
    return main_play_start(session, gm)


def _edit(pc, by, **changed):
    fields = {
        "name": pc.name,
        "concept": pc.concept,
        "judgement_values": dict(pc.judgement_values),
        "resources": {name: dict(values) for name, values in pc.resources.items()},
        "notes": pc.notes,
        **changed,
    }
    return character_update(character=pc, by=by, **fields)


def _status(session, pc) -> str:
    return Participation.objects.get(session=session, character=pc).sheet_status


def test_editing_a_checked_sheet_withdraws_the_check(checked, player, pc):
    _edit(pc, player, judgement_values={"Reflexes": 6})

    change = SheetChange.objects.get()
    assert _status(checked, pc) == Participation.SheetStatus.UNCHECKED
    assert (change.changed_by, change.withdrew_check, change.changes) == (
        player,
        True,
        [{"what": "judgement_value", "name": "Reflexes", "before": "4", "after": "6"}],
    )


def test_editing_a_checked_sheet_is_shown_to_the_gm_and_its_player_only(checked, gm, player, pc):
    other = MembershipFactory(table=checked.table, user=UserFactory(username="ren")).user
    _edit(pc, player, concept="Librarian")

    def kinds(user, is_gm=False):
        events = visible_events(session_id=checked.pk, user=user, is_gm=is_gm)
        return {event.kind for event in events}

    assert {"sheet_changed", "sheet_check_withdrawn"} <= kinds(gm, True)
    assert {"sheet_changed", "sheet_check_withdrawn"} <= kinds(player)
    assert "sheet_changed" not in kinds(other) and "sheet_check_withdrawn" in kinds(other)


def test_gm_sees_what_changed_since_the_check(checked, gm, player, pc):
    _edit(pc, player, concept="Librarian")

    [(row, changes)] = stage_context(checked, gm, True)["sheets_to_recheck"]

    assert row.character == pc
    assert [change.changes[0]["after"] for change in changes] == ["Librarian"]
    assert "sheets_to_recheck" not in stage_context(checked, player, False)


def test_gm_checks_a_changed_sheet_again(checked, gm, player, pc):
    _edit(pc, player, concept="Librarian")

    sheet_review(session=checked, by=gm, character=pc, ok=True)

    assert _status(checked, pc) == Participation.SheetStatus.CHECKED
    assert stage_context(checked, gm, True)["sheets_to_recheck"] == []


def test_resource_change_keeps_the_check(checked, player, pc):
    _edit(pc, player, resources={"HP": {"current": 7, "max": 10}})

    change = SheetChange.objects.get()
    event = TimelineEvent.objects.get(session=checked, kind="sheet_changed")
    assert _status(checked, pc) == Participation.SheetStatus.CHECKED
    assert (change.withdrew_check, change.resources_only) == (False, True)
    assert event.payload["changes"] == [
        {"what": "resource", "name": "HP", "before": "10", "after": "7"}
    ]
    assert not TimelineEvent.objects.filter(kind="sheet_check_withdrawn").exists()


def test_raising_a_resource_maximum_withdraws_the_check(checked, player, pc):
    _edit(pc, player, resources={"HP": {"current": 10, "max": 14}})

    assert _status(checked, pc) == Participation.SheetStatus.UNCHECKED


def test_changing_a_sheet_entry_withdraws_the_check(checked, player, pc):
    _edit(pc, player, sheet_entries=[{"label": "Weapon", "value": "Knife"}])

    assert _status(checked, pc) == Participation.SheetStatus.UNCHECKED
    assert SheetChange.objects.get().changes == [
        {"what": "entry", "name": "Weapon", "before": "", "after": "Knife"}
    ]


def test_saving_an_unchanged_sheet_records_nothing(checked, player, pc):
    _edit(pc, player)

    assert _status(checked, pc) == Participation.SheetStatus.CHECKED
    assert not SheetChange.objects.exists()


def test_editing_an_unchecked_sheet_records_the_change_without_a_withdrawal(session, player, pc):
    _edit(pc, player, concept="Librarian")

    assert SheetChange.objects.get().withdrew_check is False
    assert not TimelineEvent.objects.filter(kind="sheet_check_withdrawn").exists()


def test_editing_someone_elses_sheet_refused_and_nothing_recorded(checked, gm, pc):
    with pytest.raises(PermissionDenied):
        _edit(pc, gm, concept="Villain")

    assert _status(checked, pc) == Participation.SheetStatus.CHECKED
    assert not SheetChange.objects.exists()


def test_sheet_page_warns_that_an_edit_withdraws_the_check(checked, player, pc):
    client = Client()
    client.force_login(player)

    page = client.get(reverse("character_edit", args=[pc.pk]))

    assert b"sheet-checked-note" in page.content and b"The Akashic Library" in page.content


def test_sheet_page_warns_of_nothing_once_the_check_is_withdrawn(checked, player, pc):
    _edit(pc, player, concept="Librarian")
    client = Client()
    client.force_login(player)

    page = client.get(reverse("character_edit", args=[pc.pk]))

    assert b"sheet-checked-note" not in page.content
