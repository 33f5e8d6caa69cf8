"""Two browsers in one room through nginx, each on its own daphne process (PostgreSQL and
Redis): what the one says or rolls reaches the other, as in production."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from sessions_app.services.checks import check_request
from tests.browser.pages import room_page
from tests.factories import CharacterFactory, friday_session
from tests.live_server import DaphneServer, NginxServer, shipped_rules_profiles

pytestmark = [pytest.mark.browser, pytest.mark.multiprocess]


@pytest.fixture
def behind_nginx(transactional_db):
    """nginx on a free port in front of two daphne processes, and a cookie value that sends
    a browser to each of them."""
    if not settings.REDIS_URL:
        pytest.skip(
            "needs Redis (REDIS_URL=redis://…): processes share a room only through it; "
            "CI runs it there"
        )
    shipped_rules_profiles()
    servers = [DaphneServer(), DaphneServer()]
    nginx = None
    try:
        nginx = NginxServer([server.port for server in servers], by_cookie=True)
        backends = {}
        for candidate in (f"b{n}" for n in range(64)):
            backends.setdefault(nginx.upstream_for(candidate), candidate)
            if len(backends) == len(servers):
                break
        assert set(backends) == {f"127.0.0.1:{server.port}" for server in servers}
        yield nginx, list(backends.values())
    finally:
        if nginx is not None:
            nginx.stop()
        for server in servers:
            server.stop()


def _on_backend(page, nginx, cookie_value):
    page.context.add_cookies([{"name": "srs_backend", "value": cookie_value, "url": nginx.url}])
    return page


def test_chat_and_roll_reach_a_browser_on_the_other_process(browser, behind_nginx):
    nginx, (first_backend, second_backend) = behind_nginx
    session, gm, (aki,) = friday_session("aki")
    pc = CharacterFactory(
        table=session.table, owner=aki, name="Aki", judgement_values={"Reflexes": 4}
    )
    session.characters.add(pc)

    gm_page = room_page(browser, nginx.url, session, "keeper")
    aki_page = room_page(browser, nginx.url, session, "aki")
    # From now on each browser's requests and websocket go to one process each.
    _on_backend(gm_page, nginx, first_backend).reload()
    _on_backend(aki_page, nginx, second_backend).reload()
    for page in (gm_page, aki_page):
        expect(page.locator("#connection-status")).to_have_text("Live")
        expect(page.locator('#presence [data-user="keeper"]')).to_be_visible()
        expect(page.locator('#presence [data-user="aki"]')).to_be_visible()

    gm_page.get_by_label("Message").fill("Welcome, through nginx")
    gm_page.get_by_role("button", name="Send", exact=True).click()
    expect(aki_page.locator("#timeline-items")).to_contain_text("Welcome, through nginx")

    check_request(
        session=session, by=gm, character=pc, label="Climb the shelves", value_name="Reflexes"
    )
    widget = aki_page.locator("#check-items .roll-widget")
    expect(widget).to_contain_text("Climb the shelves")
    widget.get_by_role("button", name="Roll 2D6").click()
    expect(gm_page.locator("#timeline-items .roll-card")).to_have_count(1)
    expect(aki_page.locator("#timeline-items .roll-card")).to_have_count(1)
    assert (
        gm_page.locator("#timeline-items .roll-card .roll-line").inner_text()
        == aki_page.locator("#timeline-items .roll-card .roll-line").inner_text()
    )
