"""The template filters reading the event-kind registry."""

from sessions_app.templatetags.event_kinds import kind_is_record


def test_kind_is_record_for_the_dice_records():
    assert kind_is_record("dice_committed")
    assert kind_is_record("dice_reserved")
    assert kind_is_record("dice_skipped")


def test_kind_is_record_not_for_lines_of_play_or_unknown_kinds():
    assert not kind_is_record("chat")
    assert not kind_is_record("check_requested")
    assert not kind_is_record("a_kind_only_an_old_log_knows")
