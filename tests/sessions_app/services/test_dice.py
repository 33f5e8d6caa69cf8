"""Verifiable dice in the services: every roll path draws from the committed keys."""

import datetime
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from sessions_app import log_export
from sessions_app.models import DiceEpoch, Roll, TimelineEvent
from sessions_app.rules import dice_proof
from sessions_app.selectors.timeline import visible_events
from sessions_app.services import dice as dice_service
from sessions_app.services.checks import (
    check_request,
    check_roll,
    command_roll,
    gm_roll,
    roll_reveal,
)
from sessions_app.services.dice import dice_commit_ahead, dice_reserve
from sessions_app.services.logs import log_import
from sessions_app.services.palette import box_send
from tests.clients import signed_in_client as _client
from tests.factories import CharacterFactory, contest_rolled
from tests.sessions_app.dice_proofs import verified
from tests.verifier import run_verifier

BROWSER_VALUE = "5a" * 16


# The pc fixture's Aki (tests/sessions_app/conftest.py) has Strength 5 and takes part
# without a PC slot.
pytestmark = pytest.mark.pc_fields(slot=None, judgement_values={"Strength": 5})


@pytest.fixture
def npc(session, gm):
    return CharacterFactory(
        table=session.table, owner=gm, kind="npc", name="Guard", judgement_values={"Senses": 4}
    )


def _request(session, gm, pc, **overrides):
    arguments = {"label": "Climb the wall", "value_name": "Strength", "difficulty": 10}
    return check_request(session=session, by=gm, character=pc, **{**arguments, **overrides})


def _committed_root(session, epoch: int) -> tuple[int, bytes]:
    event = session.events.get(kind="dice_committed", payload__epoch=epoch)
    return event.seq, bytes.fromhex(event.payload["root"])


def test_check_roll_with_a_browser_value_verifies(session, gm, player, pc):
    dice_commit_ahead(session=session)
    request = _request(session, gm, pc)

    roll = check_roll(request_id=request.pk, by=player, dice_value=BROWSER_VALUE)

    event = session.events.get(kind="check_rolled")
    assert event.payload["proof"]["value"] == BROWSER_VALUE
    assert event.payload["proof"]["value_source"] == "browser"
    assert verified(session, event) == roll.faces == event.payload["faces"]
    assert (roll.dice_epoch, roll.dice_index, roll.dice_draws) == (0, 0, [[2, 6]])


def test_check_roll_without_a_browser_value_records_a_server_value(session, gm, player, pc):
    roll = check_roll(request_id=_request(session, gm, pc).pk, by=player)

    proof = session.events.get(kind="check_rolled").payload["proof"]
    assert proof["value_source"] == "server"
    assert len(proof["value"]) == 32 and proof["value"] == roll.dice_value


def test_first_roll_of_an_older_session_commits_before_its_roll_event(session, gm, player, pc):
    check_roll(request_id=_request(session, gm, pc).pk, by=player)

    commit_seq, _ = _committed_root(session, 0)
    assert commit_seq < session.events.get(kind="check_rolled").seq


def test_malformed_browser_value_refused_and_nothing_taken(session, gm, player, pc):
    dice_commit_ahead(session=session)
    request = _request(session, gm, pc)

    with pytest.raises(ValidationError):
        check_roll(request_id=request.pk, by=player, dice_value="not hex")

    assert not Roll.objects.exists()
    assert DiceEpoch.objects.get(session=session).used == 0


def test_repeated_submit_uses_no_second_key(session, gm, player, pc):
    request = _request(session, gm, pc)
    first = check_roll(request_id=request.pk, by=player, dice_value=BROWSER_VALUE)

    again = check_roll(request_id=request.pk, by=player, dice_value="77" * 16)

    assert again.pk == first.pk
    assert DiceEpoch.objects.get(session=session).used == 1


def test_rolls_take_consecutive_keys(session, gm, player, pc, npc):
    for label in ("One", "Two"):
        check_roll(request_id=_request(session, gm, pc, label=label).pk, by=player)
    gm_roll(session=session, by=gm, character=npc, label="Spot", value=4)
    command_roll(session=session, by=player, text="3D6+1", dice_value=BROWSER_VALUE)

    indexes = list(Roll.objects.order_by("pk").values_list("dice_index", flat=True))
    assert indexes == [0, 1, 2, 3]
    for event in session.events.filter(kind__in=["check_rolled", "command_rolled"]):
        assert verified(session, event) == event.payload["faces"]


def test_command_roll_draws_every_die_verifiably(session, player):
    roll = command_roll(session=session, by=player, text="4D10", dice_value=BROWSER_VALUE)

    event = session.events.get(kind="command_rolled")
    assert roll.dice_draws == [[4, 10]]
    assert verified(session, event) == roll.faces


def test_command_in_error_takes_no_key(session, player):
    dice_commit_ahead(session=session)

    with pytest.raises(ValidationError):
        command_roll(session=session, by=player, text="2D6>=", dice_value=BROWSER_VALUE)

    assert DiceEpoch.objects.get(session=session).used == 0


def test_contest_sides_each_verify(session, gm, player, pc, npc):
    contest_rolled(
        session,
        gm,
        player,
        label="Grab the key",
        action=pc,
        reaction=npc,
        action_dice_value=BROWSER_VALUE,
        reaction_dice_value="66" * 16,
    )

    for event in session.events.filter(kind="check_rolled"):
        assert verified(session, event) == event.payload["faces"]


def test_next_batch_is_committed_long_before_it_is_needed(session, player, monkeypatch):
    monkeypatch.setattr(dice_proof, "EPOCH_SIZE", 4)
    dice_commit_ahead(session=session)

    for _ in range(5):
        command_roll(session=session, by=player, text="1D6", dice_value=BROWSER_VALUE)

    first_of_next = session.events.filter(kind="command_rolled").order_by("seq")[4]
    commit_seq, _ = _committed_root(session, 1)
    rolled_before_it = session.events.filter(kind="command_rolled", seq__lt=commit_seq).count()
    assert rolled_before_it == 2  # committed as the third roll takes half-way key 2 of 4
    assert first_of_next.payload["proof"]["epoch"] == 1
    assert verified(session, first_of_next) == first_of_next.payload["faces"]


def test_secret_roll_key_reaches_only_the_gm_until_revealed(session, gm, player, pc, second_player):
    request = _request(session, gm, pc, secret=True)
    roll = check_roll(request_id=request.pk, by=player, dice_value=BROWSER_VALUE)
    key = session.events.get(kind="check_rolled").payload["proof"]["key"]

    for user in (player, second_player):
        seen = json.dumps(
            [e.payload for e in visible_events(session_id=session.pk, user=user, is_gm=False)]
        )
        assert key not in seen
    twin = session.events.get(kind="secret_roll")
    assert twin.payload["proof"] == {"epoch": 0, "index": roll.dice_index}

    roll_reveal(roll=roll, by=gm)

    revealed = session.events.get(kind="roll_revealed")
    assert revealed.visibility == TimelineEvent.Visibility.EVERYONE
    assert revealed.payload["proof"]["key"] == key
    assert verified(session, revealed) == roll.faces


def test_secret_command_roll_key_reaches_its_roller_not_the_others(session, player, second_player):
    roll = command_roll(session=session, by=player, text="S2D6", dice_value=BROWSER_VALUE)
    key = session.events.get(kind="command_rolled").payload["proof"]["key"]

    def seen_by(user):
        events = visible_events(session_id=session.pk, user=user, is_gm=False)
        return json.dumps([e.payload for e in events])

    assert key in seen_by(player)
    assert key not in seen_by(second_player)
    assert roll.dice_index == 0


# --------------------------------------------------------------------------- export and import


@pytest.fixture
def exported(session, gm, player, pc):
    dice_commit_ahead(session=session)
    check_roll(request_id=_request(session, gm, pc).pk, by=player, dice_value=BROWSER_VALUE)
    secret = check_roll(request_id=_request(session, gm, pc, secret=True).pk, by=player)
    command_roll(session=session, by=player, text="2D6+3>=9", dice_value=BROWSER_VALUE)
    roll_reveal(roll=secret, by=gm)
    viewer = log_export.log_viewer(session=session, user=gm)
    return json.loads(log_export.export_json_text(viewer=viewer))


def _rolled(document, kind="command_rolled") -> dict:
    return next(event for event in document["events"] if event["kind"] == kind)


def test_standalone_verifier_checks_a_real_export(tmp_path, exported):
    result = run_verifier(tmp_path, exported)

    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("verified") == 4  # two rolls, the GM's secret one, its reveal


def test_export_with_its_proofs_imports(exported, gm):
    imported = log_import(data=json.dumps(exported), by=gm)

    assert imported.events.filter(kind="dice_committed").count() == 1
    assert imported.events.filter(payload__proof__has_key="key").count() == 4


@pytest.mark.parametrize(
    "tamper",
    [
        pytest.param(lambda doc: _rolled(doc)["payload"]["faces"].__setitem__(0, 7), id="face"),
        pytest.param(
            lambda doc: _rolled(doc)["payload"]["proof"]["faces"].__setitem__(0, 7), id="proof"
        ),
        pytest.param(
            lambda doc: _rolled(doc, "dice_committed")["payload"].__setitem__("root", "00" * 32),
            id="commitment",
        ),
        pytest.param(
            lambda doc: _rolled(doc)["payload"]["proof"].__setitem__(
                "key", _rolled(doc, "check_rolled")["payload"]["proof"]["key"]
            ),
            id="another-rolls-key",
        ),
        pytest.param(
            lambda doc: _rolled(doc)["payload"]["proof"].__setitem__("index", 0),
            id="another-index",
        ),
    ],
)
def test_tampered_export_refused_by_import_and_verifier(tmp_path, exported, gm, tamper):
    tamper(exported)

    with pytest.raises(ValidationError, match="do not verify"):
        log_import(data=json.dumps(exported), by=gm)
    assert run_verifier(tmp_path, exported).returncode == 1


# --------------------------------------------------------------------------- the forms' values


def test_roll_box_passes_the_browsers_value_on(session, player):
    url = reverse("roll_box", args=[session.pk])

    _client(player).post(url, {"text": "2D6", "dice_value": BROWSER_VALUE}, HTTP_HX_REQUEST="true")

    roll = Roll.objects.get()
    assert (roll.dice_value, roll.dice_value_source) == (BROWSER_VALUE, "browser")


def test_check_widget_without_script_rolls_with_a_server_value(session, gm, player, pc):
    request = _request(session, gm, pc)

    response = _client(player).post(reverse("check_roll", args=[session.pk, request.pk]))

    assert response.status_code == 200
    assert Roll.objects.get().dice_value_source == "server"


def test_check_widget_refuses_a_malformed_value(session, gm, player, pc):
    request = _request(session, gm, pc)

    response = _client(player).post(
        reverse("check_roll", args=[session.pk, request.pk]), {"dice_value": "zz"}
    )

    assert response.status_code == 400
    assert "malformed" in response.content.decode()
    assert not Roll.objects.exists()


# --------------------------------------------------------------------------- verification page


def _verify_url(session, event) -> str:
    return reverse("dice_verify", args=[session.pk, event.seq])


def test_verification_page_holds_the_published_proof(session, gm, player, pc):
    dice_commit_ahead(session=session)
    roll = check_roll(request_id=_request(session, gm, pc).pk, by=player, dice_value=BROWSER_VALUE)
    event = session.events.get(kind="check_rolled")

    response = _client(player).get(_verify_url(session, event))

    assert response.status_code == 200
    data = response.context["dice_data"]
    assert data["key"] == event.payload["proof"]["key"]
    assert data["shown"] == [str(face) for face in roll.faces]
    assert response.context["committed_first"]
    assert 'id="dice-proof-data"' in response.content.decode()
    # One roller's value: no list of several browsers' values.
    assert "joined in this order" not in response.content.decode()


def test_verification_page_of_a_secret_roll_is_refused_to_players_until_revealed(
    session, gm, player, pc, second_player
):
    roll = check_roll(request_id=_request(session, gm, pc, secret=True).pk, by=player)
    hidden = session.events.get(kind="check_rolled")
    twin = session.events.get(kind="secret_roll")

    for user in (player, second_player):
        assert _client(user).get(_verify_url(session, hidden)).status_code == 404
        assert _client(user).get(_verify_url(session, twin)).status_code == 404
    assert _client(gm).get(_verify_url(session, hidden)).status_code == 200

    roll_reveal(roll=roll, by=gm)

    revealed = session.events.get(kind="roll_revealed")
    assert _client(second_player).get(_verify_url(session, revealed)).status_code == 200


def test_verification_page_refused_to_outsiders(session, gm, player, pc, outsider):
    check_roll(request_id=_request(session, gm, pc).pk, by=player)
    event = session.events.get(kind="check_rolled")

    assert _client(outsider).get(_verify_url(session, event)).status_code == 404


def test_roll_card_links_to_its_verification(session, gm, player, pc):
    check_roll(request_id=_request(session, gm, pc).pk, by=player)
    event = session.events.get(kind="check_rolled")

    page = _client(player).get(reverse("session_room", args=[session.pk])).content.decode()

    assert _verify_url(session, event) in page


def _kind_samples_with_a_proof():
    from sessions_app.kinds.registry import kinds_all

    return [
        pytest.param(kind.name, sample, id=f"{kind.name}-{number}")
        for kind in kinds_all()
        for number, sample in enumerate(kind.samples)
        if "key" in (sample.get("proof") or {})
    ]


@pytest.mark.parametrize(("kind", "payload"), _kind_samples_with_a_proof())
def test_verification_page_opens_for_every_kind_with_a_proof(session, gm, kind, payload):
    epoch = payload["proof"]["epoch"]
    TimelineEvent.objects.create(
        session=session,
        seq=1,
        kind="dice_committed",
        payload={
            "session": session.pk,
            "epoch": epoch,
            "size": 1024,
            "root": "9f" * 32,
            "procedure": "srs-dice/v1",
        },
    )
    event = TimelineEvent.objects.create(session=session, seq=2, kind=kind, payload=payload)

    response = _client(gm).get(_verify_url(session, event))

    assert response.status_code == 200
    assert response.context["dice_data"]["key"] == payload["proof"]["key"]
    if kind == "match_finished":
        assert "Aki – Clerk" in response.content.decode()


# --------------------------------------------------------------------------- every export imports


def test_roll_box_refuses_a_result_no_log_may_hold(session, player):
    dice_commit_ahead(session=session)

    with pytest.raises(ValidationError, match="beyond the largest number a roll keeps"):
        command_roll(session=session, by=player, text="2D6+999999999999999999999999999999")
    assert not Roll.objects.exists()
    assert DiceEpoch.objects.get(session=session).used == 0


def test_roll_box_refuses_a_product_no_log_may_hold(session, player):
    with pytest.raises(ValidationError, match="beyond the largest number a roll keeps"):
        command_roll(session=session, by=player, text="C(99999*99999*99999)")


def test_roll_box_calculation_takes_no_roll_key(session, gm, player):
    dice_commit_ahead(session=session)
    command_roll(session=session, by=player, text="C(10*3+2)")
    command_roll(session=session, by=player, text="1D6", dice_value=BROWSER_VALUE)

    assert Roll.objects.get(command="1D6").dice_index == 0
    viewer = log_export.log_viewer(session=session, user=gm)
    log_import(data=log_export.export_json_text(viewer=viewer), by=gm)


def test_markdown_and_html_exports_print_each_batchs_full_commitment(session, gm, player):
    dice_commit_ahead(session=session)
    root = DiceEpoch.objects.get(session=session).root
    for user in (gm, player):
        viewer = log_export.log_viewer(session=session, user=user)

        assert root in log_export.export_markdown(viewer=viewer)
        assert root in log_export.export_html(viewer=viewer)


def test_room_page_holds_every_batchs_commitment_for_the_browser_to_keep(session, gm, player):
    dice_commit_ahead(session=session)
    root = DiceEpoch.objects.get(session=session).root

    page = _client(player).get(reverse("session_room", args=[session.pk])).content.decode()

    assert f'data-dice-batch="{session.pk}:0" data-dice-root="{root}"' in page


# --------------------------------------------------------------------------- resource dice


def test_resource_dice_are_drawn_from_the_committed_keys_and_verify(session, gm, player, pc):
    pc.resources = {"MP": {"current": 2, "max": 20}}
    pc.save(update_fields=["resources"])
    dice_commit_ahead(session=session)

    event = box_send(
        session=session, by=player, text=":MP+2D6", character=pc, dice_value=BROWSER_VALUE
    )

    assert event.payload["proof"]["value"] == BROWSER_VALUE
    assert verified(session, event) == event.payload["faces"]
    viewer = log_export.log_viewer(session=session, user=gm)
    log_import(data=log_export.export_json_text(viewer=viewer), by=gm)


def test_hidden_resource_dice_publish_their_key_index_to_the_other_players(
    session, gm, player, pc, second_player
):
    pc.resources = {"Curse": {"current": 2, "max": 20, "hidden": True}}
    pc.save(update_fields=["resources"])
    dice_commit_ahead(session=session)
    box_send(session=session, by=player, text=":Curse+1D6", character=pc)
    command_roll(session=session, by=second_player, text="1D6", dice_value=BROWSER_VALUE)

    seen = list(visible_events(session_id=session.pk, user=second_player, is_gm=False))
    twin = next(event for event in seen if event.kind == "hidden_roll")
    assert twin.payload["proof"] == {"epoch": 0, "index": 0}
    assert not any(event.kind == "resource_changed" for event in seen)
    for user in (gm, player, second_player):
        viewer = log_export.log_viewer(session=session, user=user)
        log_import(data=log_export.export_json_text(viewer=viewer), by=gm)


def test_gm_resource_form_passes_the_browsers_value_on(session, gm, player, pc):
    pc.resources = {"MP": {"current": 2, "max": 20}}
    pc.save(update_fields=["resources"])
    page = _client(gm).get(reverse("session_room", args=[session.pk])).content.decode()
    form = page[page.index('class="stack compact-form gm-resource-form"') :]
    assert "data-dice-value" in form[: form.index("</form>")]

    _client(gm).post(
        reverse("resource_adjust", args=[session.pk]),
        {"character": pc.pk, "command": ":MP+1D6", "dice_value": BROWSER_VALUE},
    )

    event = session.events.get(kind="resource_changed")
    assert event.payload["proof"]["value"] == BROWSER_VALUE
    assert event.payload["proof"]["value_source"] == "browser"


def test_verification_page_of_resource_dice_holds_their_proof(session, player, pc):
    pc.resources = {"MP": {"current": 2, "max": 20}}
    pc.save(update_fields=["resources"])
    dice_commit_ahead(session=session)
    event = box_send(
        session=session, by=player, text=":MP+2D6", character=pc, dice_value=BROWSER_VALUE
    )

    response = _client(player).get(_verify_url(session, event))

    assert response.status_code == 200
    assert event.payload["proof"]["key"] in response.content.decode()


# --------------------------------------------------------------------------- reserved keys


def test_roll_uses_the_key_reserved_before_the_browser_drew_its_value(session, gm, player, npc):
    dice_commit_ahead(session=session)
    reservation = dice_reserve(session=session, by=player)
    # Another roll arrives in between: it cannot take the reserved key.
    gm_roll(session=session, by=gm, character=npc, label="Listen", value=4, secret=True)

    roll = command_roll(
        session=session,
        by=player,
        text="2D6",
        dice_value=BROWSER_VALUE,
        dice_reservation=reservation.pk,
    )

    assert (roll.dice_epoch, roll.dice_index) == (0, reservation.index) == (0, 0)
    published = session.events.get(kind="dice_reserved").payload["proof"]
    assert published == {"epoch": 0, "index": 0}
    viewer = log_export.log_viewer(session=session, user=player)
    log_import(data=log_export.export_json_text(viewer=viewer), by=gm)


def test_reserved_key_serves_only_its_user_and_only_once(session, gm, player, second_player):
    dice_commit_ahead(session=session)
    reservation = dice_reserve(session=session, by=player)

    with pytest.raises(ValidationError, match="set aside for this roll has expired"):
        command_roll(session=session, by=second_player, text="1D6", dice_reservation=reservation.pk)
    command_roll(session=session, by=player, text="1D6", dice_reservation=reservation.pk)
    with pytest.raises(ValidationError, match="set aside for this roll has expired"):
        command_roll(session=session, by=player, text="1D6", dice_reservation=reservation.pk)


def test_unused_reservation_expires_and_is_published_as_skipped_with_its_key(
    tmp_path, session, gm, player, monkeypatch
):
    dice_commit_ahead(session=session)
    monkeypatch.setattr(dice_service, "RESERVATION_LIFETIME", datetime.timedelta(0))
    abandoned = dice_reserve(session=session, by=player)

    roll = command_roll(session=session, by=player, text="1D6", dice_value=BROWSER_VALUE)

    skipped = session.events.get(kind="dice_skipped")
    assert skipped.payload["proof"]["index"] == abandoned.index == 0
    assert skipped.seq < session.events.get(kind="command_rolled").seq
    assert roll.dice_index == 1
    with pytest.raises(ValidationError, match="expired"):
        command_roll(session=session, by=player, text="1D6", dice_reservation=abandoned.pk)
    viewer = log_export.log_viewer(session=session, user=player)
    document = log_export.export_json_text(viewer=viewer)
    log_import(data=document, by=gm)
    result = run_verifier(tmp_path, json.loads(document))
    assert result.returncode == 0, result.stdout


def test_reserve_endpoint_answers_members_with_the_reserved_key(session, player, outsider):
    dice_commit_ahead(session=session)
    url = reverse("dice_key_reserve", args=[session.pk])

    answer = _client(player).post(url).json()

    assert (answer["epoch"], answer["index"]) == (0, 0)
    assert _client(outsider).post(url).status_code == 404
    assert _client(player).get(url).status_code == 405
