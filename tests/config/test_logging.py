"""The server's log: each line printed once."""

import logging

from django.test import override_settings


def _printing_handlers(logger: logging.Logger, record: logging.LogRecord) -> list:
    """The handlers a record reaches and passes, pytest's own capture left out."""
    handlers, current = [], logger
    while current is not None:
        handlers += [
            handler
            for handler in current.handlers
            if not type(handler).__module__.startswith("_pytest")
            and record.levelno >= handler.level
            and handler.filter(record)
        ]
        current = current.parent if current.propagate else None
    return handlers


@override_settings(DEBUG=True)
def test_a_request_line_of_runserver_is_printed_once():
    logger = logging.getLogger("django.channels.server")
    record = logger.makeRecord(logger.name, logging.INFO, __file__, 1, "HTTP GET / 200", (), None)

    assert len(_printing_handlers(logger, record)) == 1


@override_settings(DEBUG=True)
def test_a_not_found_warning_is_printed_once():
    logger = logging.getLogger("django.request")
    record = logger.makeRecord(logger.name, logging.WARNING, __file__, 1, "Not Found: /x", (), None)

    assert len(_printing_handlers(logger, record)) == 1
