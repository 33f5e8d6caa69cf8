"""A practice game's seed is committed like a session's dice: its key is fixed and shown
before the player's browser draws its value, and published, with a check, once it is over."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from minigames import services
from minigames.models import Match, PracticeDice
from sessions_app.rules import dice_proof
from tests.clients import signed_in_client
from tests.factories import UserFactory
from tests.verifier import run_verifier

VALUE = "7e" * 16


def _resigned(match, player):
    version = Match.objects.get(pk=match.pk).version
    services.match_move(match_id=match.pk, by=player, action={"type": "resign"}, version=version)
    return Match.objects.get(pk=match.pk)


def _started(player, value=VALUE) -> Match:
    dice = services.practice_dice_reserve(by=player)
    return services.match_create_practice(
        by=player, level="random", dice_value=value, dice_reservation=dice.pk
    )


def test_practice_key_is_committed_before_the_value_and_proven_after(player):
    dice = services.practice_dice_reserve(by=player)
    root = dice.root
    match = services.match_create_practice(
        by=player, level="random", dice_value=VALUE, dice_reservation=str(dice.pk)
    )
    assert services.practice_proof(match) is None

    proof = services.practice_proof(_resigned(match, player))

    assert proof["root"] == root and proof["value"] == VALUE
    assert proof["value_source"] == "browser"
    faces = dice_proof.verify(
        dice_proof.RollProof(
            session=proof["session"],
            epoch=proof["epoch"],
            index=proof["index"],
            size=proof["size"],
            key=bytes.fromhex(proof["key"]),
            path=tuple(bytes.fromhex(step) for step in proof["path"]),
            value=proof["value"],
            draws=tuple(tuple(draw) for draw in proof["draws"]),
            faces=tuple(proof["faces"]),
        ),
        bytes.fromhex(root),
    )
    assert faces == [match.seed + 1]


def test_a_practice_key_serves_one_game_of_its_own_player(player):
    dice = services.practice_dice_reserve(by=player)
    someone_else = UserFactory(username="someone")

    with pytest.raises(ValidationError, match="gone"):
        services.match_create_practice(by=someone_else, dice_value=VALUE, dice_reservation=dice.pk)
    services.match_create_practice(by=player, level="random", dice_reservation=dice.pk)
    with pytest.raises(ValidationError, match="gone"):
        services.match_create_practice(by=player, dice_value=VALUE, dice_reservation=dice.pk)

    assert Match.objects.count() == 1


def test_a_practice_game_started_without_a_browser_value_says_so(player):
    match = services.match_create_practice(by=player, level="random")

    dice = PracticeDice.objects.get(match=match)
    assert dice.value_source == "server" and len(dice.value) == 32


def test_practice_reserve_answers_the_commitment_for_the_browser_to_keep(player):
    answer = signed_in_client(player).post(reverse("practice_dice_reserve")).json()

    dice = PracticeDice.objects.get()
    assert answer == {"reservation": dice.pk, "batch": f"practice:{dice.pk}", "root": dice.root}
    assert dice.match is None


def test_practice_check_page_and_proof_download_after_the_game_only(tmp_path, player):
    client = signed_in_client(player)
    match = _started(player)
    verify_url = reverse("practice_verify", args=[match.pk])
    proof_url = reverse("practice_proof", args=[match.pk])
    assert client.get(verify_url).status_code == 404
    assert client.get(proof_url).status_code == 404

    _resigned(match, player)

    page = client.get(verify_url).content.decode()
    assert "Check these dice" in page and PracticeDice.objects.get().root in page
    assert "joined in this order" not in page
    assert signed_in_client(UserFactory(username="other")).get(verify_url).status_code == 404
    downloaded = json.loads(client.get(proof_url).content)
    result = run_verifier(tmp_path, downloaded)
    assert result.returncode == 0, result.stdout
    assert "All rolls verify." in result.stdout

    downloaded["events"][1]["payload"]["proof"]["faces"][0] += 1
    assert run_verifier(tmp_path, downloaded).returncode == 1


def test_practice_pages_say_how_their_games_are_checked(player):
    client = signed_in_client(player)
    match = _started(player)

    assert "the server commits to its key" in client.get(reverse("practice")).content.decode()
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert PracticeDice.objects.get().root in page
    assert "its key is published when the game is over" in page
    _resigned(match, player)
    finished = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert reverse("practice_verify", args=[match.pk]) in finished
