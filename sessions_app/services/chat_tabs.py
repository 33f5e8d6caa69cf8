"""The GM's chat tabs: opened, renamed, moved and archived from the room. Each change but a
move is a timeline event that updates everyone's tab bar and chat form; a move is no part
of play, so it only updates the tab bars."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..kinds.registry import Panel
from ..models import ChatTab, GameSession
from ..models.chat import CHAT_TAB_NAME_MAX_LENGTH
from .access import require_gm
from .signals import room_panels_changed, send_on_commit
from .timeline import timeline_append


def _require_gm(session: GameSession, by) -> None:
    require_gm(user=by, table_id=session.table_id, message=_("Only the GM manages chat tabs."))


def _clean_name(session: GameSession, name: str, *, except_id: int | None = None) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError({"name": _("Name the tab.")})
    if len(name) > CHAT_TAB_NAME_MAX_LENGTH:
        raise ValidationError(
            {
                "name": _("A tab's name can be at most %(limit)d characters.")
                % {"limit": CHAT_TAB_NAME_MAX_LENGTH}
            }
        )
    taken = (
        ChatTab.objects.filter(session=session, archived=False, name__iexact=name)
        .exclude(pk=except_id)
        .exists()
    )
    # The built-in tabs' names are not refused: a name means something else in each
    # language. The Information tab is 「システム」 in Japanese, so that the 情報 tab Ccfolia
    # groups make for themselves is not shown twice.
    if taken:
        raise ValidationError({"name": _("There is a tab of that name already.")})
    return name


def _tab(session: GameSession, tab_id: int) -> ChatTab:
    tab = ChatTab.objects.select_for_update().filter(session=session, pk=tab_id).first()
    if tab is None or tab.archived:
        raise ValidationError(_("That tab is gone: it was archived."))
    return tab


def chat_tab_add(*, session: GameSession, by, name: str) -> ChatTab:
    """Open a new tab at the end of the tab bar."""
    _require_gm(session, by)
    with transaction.atomic():
        # Locked so that two tabs opened at once cannot take one name or one place.
        GameSession.objects.select_for_update().filter(pk=session.pk).first()
        name = _clean_name(session, name)
        last = ChatTab.objects.filter(session=session).aggregate(last=Max("position"))["last"]
        tab = ChatTab.objects.create(
            session=session, name=name, position=0 if last is None else last + 1
        )
        timeline_append(
            session=session,
            kind="chat_tab",
            actor=by,
            payload={"change": "added", "key": tab.key, "name": tab.name},
        )
    return tab


def chat_tab_rename(*, session: GameSession, by, tab_id: int, name: str) -> ChatTab:
    """Rename an open tab; its lines stay on it (they carry its key, not its name)."""
    _require_gm(session, by)
    with transaction.atomic():
        GameSession.objects.select_for_update().filter(pk=session.pk).first()
        tab = _tab(session, tab_id)
        name = _clean_name(session, name, except_id=tab.pk)
        if name == tab.name:
            return tab
        old_name, tab.name = tab.name, name
        tab.save(update_fields=["name"])
        timeline_append(
            session=session,
            kind="chat_tab",
            actor=by,
            payload={"change": "renamed", "key": tab.key, "name": name, "old_name": old_name},
        )
    return tab


def chat_tab_move(*, session: GameSession, by, tab_id: int, later: bool) -> ChatTab:
    """Move an open tab one place along the tab bar: towards its end when `later`."""
    _require_gm(session, by)
    with transaction.atomic():
        # Locked so that two moves at once cannot leave two tabs in one place.
        GameSession.objects.select_for_update().filter(pk=session.pk).first()
        tab = _tab(session, tab_id)
        bar = list(ChatTab.objects.filter(session=session, archived=False))
        here = next(index for index, each in enumerate(bar) if each.pk == tab.pk)
        there = here + 1 if later else here - 1
        if not 0 <= there < len(bar):
            raise ValidationError(
                _("The tab “%(name)s” is already at that end.") % {"name": tab.name}
            )
        bar[here], bar[there] = bar[there], bar[here]
        for position, each in enumerate(bar):
            if each.position != position:
                each.position = position
                each.save(update_fields=["position"])
        send_on_commit(
            room_panels_changed, session_id=session.pk, panels=frozenset({Panel.CHAT_TABS})
        )
    return tab


def chat_tab_archive(*, session: GameSession, by, tab_id: int) -> ChatTab:
    """Take a tab off the tab bar and the chat form; its lines keep their tab's name in the
    review and the exports."""
    _require_gm(session, by)
    with transaction.atomic():
        tab = _tab(session, tab_id)
        tab.archived = True
        tab.save(update_fields=["archived"])
        timeline_append(
            session=session,
            kind="chat_tab",
            actor=by,
            payload={"change": "archived", "key": tab.key, "name": tab.name},
        )
    return tab
