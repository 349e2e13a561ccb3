"""A game's refusal says every detail in every language (issue 49, item 12): "You must pass exactly
4 cards." is not "넘길 카드의 수가 맞지 않습니다." but "카드를 정확히 4장 넘겨야 합니다.". Every
refusal under domain/ is an English template whose details are its arguments (never an f-string),
and every catalogue translates every template with the same placeholders and numbers."""
from __future__ import annotations

import random
import re

import pytest

from api.words import Wording, entries, error_sentence, languages
from domain.contract import MoveRejected
from domain.words import error_english
from tests.contract.error_templates import sites

SITES = sites()
TEMPLATES = sorted({s.template for s in SITES if s.template is not None})
OTHER_LANGUAGES = [lang for lang in languages() if lang != "en"]


def _filled(site_template: str) -> dict:
    """A distinct number for each placeholder (so each can be found in the sentence)."""
    names = sorted({n for n in re.findall(r"\{(\w+)\}", site_template)})
    return {name: 71 + i for i, name in enumerate(names)}


def test_every_refusal_is_a_template_with_its_details_as_arguments():
    assert len(SITES) > 100 and {s.code for s in SITES} >= {"wrong_card_count", "not_your_turn", "cannot_afford"}
    not_templates = [s.where for s in SITES if s.template is None]
    assert not not_templates, f"refusals whose sentence is not a literal template (an f-string?): {not_templates}"
    for s in SITES:
        if s.names:  # the arguments written out at the call fill exactly the template's placeholders
            assert s.names == s.placeholders, f"{s.where}: {sorted(s.names)} against {s.template!r}"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_refusal_template_is_translated_with_the_same_placeholders(lang):
    have = {text for context, text in entries(lang) if context == "error"}
    missing = [t for t in TEMPLATES if t not in have]
    assert not missing, f"{lang}: {len(missing)} refusals said only by their code, e.g. {missing[:3]}"
    for template in TEMPLATES:  # and said with every placeholder filled (none left, none unknown)
        args = {} if re.search(r"\{[^\w]", template) else _filled(template)
        said = error_sentence(lang, "invalid_move", Wording(template, args, "splendor"))
        assert said is not None and (not args or not re.search(r"\{\w+\}", said)), (template, said)


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
@pytest.mark.parametrize("template", TEMPLATES)
def test_every_english_detail_number_is_in_the_translation(lang, template):
    args = {} if re.search(r"\{[^\w]", template) else _filled(template)
    english = error_english(template, args)
    said = error_sentence(lang, "invalid_move", Wording(template, args, "splendor"))
    numbers = re.findall(r"\d+", english)
    assert said is not None and sorted(set(numbers)) == sorted(set(numbers) & set(re.findall(r"\d+", said))), \
        f"{english!r} -> {said!r}"


def _rejected(game, state, seat, move):
    with pytest.raises(MoveRejected) as caught:
        game.decide(state, seat, move, random.Random(0))
    return caught.value


def test_a_witches_refusal_says_how_many_cards_in_korean():
    from domain.play import fold
    from domain.witches import GAME
    state = fold(GAME, GAME.setup(GAME.default_options(), 4, random.Random(1)))
    seat = GAME.actors(state)[0]
    e = _rejected(GAME, state, seat, {"type": "pass_cards", "cards": list(state.hands[seat][:1])})
    assert e.code == "wrong_card_count" and e.message == f"You must pass exactly {e.values['n']} cards."
    said = error_sentence("ko", e.code, Wording.of(e, GAME.name))
    assert said == f"카드를 정확히 {e.values['n']}장 넘겨야 합니다.", said


def test_a_refusal_names_seats_pieces_and_words_in_korean():
    from domain.play import fold
    from domain.setup_game import GAME as SETUP
    from domain.splendor import GAME as SPLENDOR
    state = fold(SPLENDOR, SPLENDOR.setup(SPLENDOR.default_options(), 2, random.Random(0)))
    e = _rejected(SPLENDOR, state, 1, {"type": "pass"})
    assert e.message == "It is the first seat's turn."
    assert error_sentence("ko", e.code, Wording.of(e, SPLENDOR.name)) == "지금은 1번 자리 차례입니다."
    e = _rejected(SPLENDOR, state, 0, {"type": "take_two", "color": "gold"})
    assert error_sentence("ko", e.code, Wording.of(e, SPLENDOR.name)) == \
        "'gold'는 보석 색이 아닙니다(황금은 가져갈 수 없습니다)."
    state = fold(SETUP, SETUP.setup(SETUP.default_options(), 2, random.Random(0)))
    absent = next(t for t in ("su-spade-1", "su-spade-2", "su-heart-1") if t not in _rack_ids(state, 0))
    e = _rejected(SETUP, state, 0, {"type": "swap", "tiles": [absent]})
    assert e.code == "tile_not_in_rack" and e.message == f"The {e.values['tile']['value']} ({absent}) is not on your rack."
    said = error_sentence("ko", e.code, Wording.of(e, SETUP.name))
    assert absent in said and said.endswith("타일은 내 랙에 없습니다.") and e.values["tile"]["value"] not in said


def _rack_ids(state, seat):
    from domain.setup_game.plays import TILE_IDS
    return {TILE_IDS[t] for t in state.racks[seat]}
