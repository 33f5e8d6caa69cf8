"""The Japanese catalogue is complete and its compiled file matches it."""

from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent.parent / "sessions_app" / "locale"
PO_PATH = LOCALE_DIR / "ja" / "LC_MESSAGES" / "django.po"


def test_japanese_catalogue_has_no_untranslated_or_fuzzy_entries():
    catalogue = polib.pofile(str(PO_PATH))

    assert [entry.msgid for entry in catalogue.untranslated_entries()] == []
    assert [entry.msgid for entry in catalogue.fuzzy_entries()] == []


def test_japanese_compiled_catalogue_matches_source():
    source = {
        (entry.msgctxt, entry.msgid): entry.msgstr or entry.msgstr_plural.get(0, "")
        for entry in polib.pofile(str(PO_PATH)).translated_entries()
    }
    compiled = {
        (entry.msgctxt, entry.msgid): entry.msgstr or entry.msgstr_plural.get(0, "")
        for entry in polib.mofile(str(PO_PATH.with_suffix(".mo")))
        if entry.msgid
    }

    assert compiled == source
