"""Korean particles chosen by the word before them (issue 55): a template writes a particle in
both forms after a placeholder ("{card}을(를)", "{after}(으)로"); the sentence says the one the
word takes, by its last syllable (a final consonant: 을, 이, 은, 과, 으로; ㄹ: 로; else 를, 가, 는,
와, 로), never "을(를)"."""
from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from api.words import LOCALES, particle, particles

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("word", "pair", "said"), [
    ("고수 봇", "을(를)", "을"), ("마녀", "을(를)", "를"), ("민지", "이(가)", "가"), ("용", "은(는)", "은"),
    ("고수 (봇)", "을(를)", "을"), ("“성”", "과(와)", "과"), ("1427", "(으)로", "로"), ("1420", "(으)로", "으로"),
    ("산", "(으)로", "으로"), ("길", "(으)로", "로"), ("나무", "(으)로", "로"), ("gold", "은(는)", "는"), ("Ann", "이(가)", "이"),
])
def test_the_particle_follows_the_last_syllable(word, pair, said):
    assert particle(word, pair) == said


def test_a_sentence_never_shows_both_forms():
    assert particles("고수 봇을(를) 기다리는 중입니다. 민지이(가) 1427(으)로") == "고수 봇을 기다리는 중입니다. 민지가 1427로"


def test_the_korean_catalogues_write_no_particle_after_a_placeholder_in_one_form():
    """A particle right after a placeholder is written in both forms (the word decides)."""
    one_form = re.compile(r"\{\w+\}(?:으로|로|을|를|이|가|은|는|과|와)(?=[\s.,!?)]|$)")
    found = []
    for path in sorted((LOCALES / "ko" / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as f:
            for m in read_po(f, locale="ko"):
                said = m.string if isinstance(m.string, tuple) else (m.string,)
                found += [korean for korean in said if korean and one_form.search(korean)]
    assert found == []
