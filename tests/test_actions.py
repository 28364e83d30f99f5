"""Actions compare by kind: the two empty ones (chibre, thank) are not the same action."""

from __future__ import annotations

from chibre.actions import Chibre, Choose, Play, Thank


def test_chibre_and_thank_differ() -> None:
    assert Chibre() != Thank()
    assert Chibre() not in [Thank()]
    assert Thank() not in [Chibre(), Choose(0), Play(0)]
    assert Chibre() == Chibre() and Thank() == Thank()
    assert len({Chibre(), Thank(), Chibre()}) == 2


def test_other_actions_compare_by_value() -> None:
    assert Play(5) == Play(5, (), False)
    assert Play(5) != Play(5, (), True)
    assert Choose(2, True) != Choose(2)
