"""A page whose server goes away reconnects by itself and catches up from where it was."""

import re

import pytest
from playwright.sync_api import expect

from sessions_app.models import TimelineEvent
from sessions_app.services.chat import chat_post
from tests.browser.pages import expect_same_as_fresh_load, logged_in, synced
from tests.factories import friday_session
from tests.live_server import DaphneServer, cookie_for, post_chat, shipped_rules_profiles

pytestmark = pytest.mark.browser


def test_a_page_whose_server_restarted_catches_up_each_missed_line_once(
    browser, transactional_db, csp_violations, console_errors
):
    shipped_rules_profiles()
    session, gm, (aki,) = friday_session("aki")
    server = DaphneServer()
    try:
        page = csp_violations(logged_in(browser, server.url, "aki"))
        page.goto(f"{server.url}/sessions/{session.pk}/")
        synced(page)
        assert post_chat(server.url, session, cookie_for(gm), "Before the restart") == 204
        expect(page.locator("#timeline-items")).to_contain_text("Before the restart")

        # The process dies without a goodbye; the room goes on without this page (another
        # process of the same site, as far as the page can tell).
        server.process.kill()
        server.process.wait()
        expect(page.locator("#connection-status")).not_to_have_text("Live")
        for n in range(3):
            chat_post(session=session, by=gm, text=f"While away {n}")
        server.stop()
        server = DaphneServer(port=server.port)

        # The page reconnects on its own, its socket's address naming the last line it held.
        expect(page.locator("#connection-status")).to_have_text("Live", timeout=15000)
        # Its tries while nothing listened failed, as they should: the browser logs each
        # (and the extension its error event). A try that reached the new process while it
        # was still starting was reset, which the browser logs too. Anything else still
        # fails the test.
        console_errors[:] = [
            error
            for error in console_errors
            if "ERR_CONNECTION_REFUSED" not in error
            and "ERR_CONNECTION_RESET" not in error
            and not error.endswith(": [object Event]")
        ]
        expect(page.locator("#timeline-items")).to_contain_text("While away 2")
        seqs = [
            int(seq)
            for seq in page.locator("#timeline-items li[data-seq]").evaluate_all(
                "items => items.map((item) => item.dataset.seq)"
            )
        ]
        visible = list(
            TimelineEvent.objects.filter(session=session)
            .filter(
                visibility__in=[
                    TimelineEvent.Visibility.EVERYONE,
                    TimelineEvent.Visibility.PLAYERS,
                ]
            )
            .order_by("seq")
            .values_list("seq", flat=True)
        )
        assert seqs == visible
        texts = page.locator("#timeline-items").inner_text()
        assert len(re.findall("While away 1", texts)) == 1
        expect_same_as_fresh_load(page)
        assert csp_violations.found == []
    finally:
        for context in browser.contexts:
            context.close()
        server.stop()
