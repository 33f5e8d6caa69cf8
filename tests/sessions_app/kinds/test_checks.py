"""The check and contest kinds' lines as a Japanese reader sees them."""

from django.test import Client
from django.urls import reverse

from sessions_app.kinds.registry import kind_get
from sessions_app.services.timeline import timeline_append


def _review_in_japanese(session, gm) -> str:
    client = Client(headers={"accept-language": "ja"})
    client.force_login(gm)
    return client.get(reverse("session_review", args=[session.pk])).content.decode()


def test_roll_shows_the_gm_modifier_in_the_readers_language(session, gm):
    sample = kind_get("check_rolled").samples[0]
    assert {"label": "GM modifier", "amount": 1} in sample["modifiers"]
    timeline_append(session=session, kind="check_rolled", actor=gm, payload=sample)

    page = _review_in_japanese(session, gm)

    assert "GMの修正 +1" in page
    assert "GM modifier" not in page


def test_contest_result_shows_the_gm_modifier_in_the_readers_language(session, gm):
    sample = next(s for s in kind_get("contest_decided").samples if s.get("reaction_modifiers"))
    timeline_append(session=session, kind="contest_decided", actor=gm, payload=sample)

    page = _review_in_japanese(session, gm)

    assert "GMの修正 +1" in page
    assert "GM modifier" not in page
