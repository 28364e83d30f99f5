"""Dealing: nine distinct cards a seat, reproducible from a seed, uniform, secure in real play."""

from __future__ import annotations

from random import Random

import pytest

from chibre.cards import ALL_CARDS
from chibre.deal import deal_cards, secure_deal


@pytest.mark.parametrize("dealer", range(4))
def test_a_deal_gives_nine_distinct_cards_to_each_seat(dealer):
    deal = deal_cards(Random(dealer), dealer)
    assert deal.dealer == dealer
    assert [h.bit_count() for h in deal.hands] == [9, 9, 9, 9]
    assert deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3] == ALL_CARDS


def test_the_same_seed_gives_the_same_deal_and_another_seed_another():
    assert deal_cards(Random(42), 1) == deal_cards(Random(42), 1)
    assert deal_cards(Random(42), 1) != deal_cards(Random(43), 1)


def test_secure_deals_are_whole_and_differ():
    deals = {secure_deal().hands for _ in range(20)}
    assert len(deals) == 20
    for hands in deals:
        assert sum(hands) == ALL_CARDS and all(h.bit_count() == 9 for h in hands)
    assert secure_deal(2).dealer == 2


def test_every_card_goes_to_every_seat_equally_often():
    # 3600 deals: each (card, seat) cell expects 900. Chi-square with 36 × 3 = 108 degrees of
    # freedom: the 99.99 % quantile is about 171; a biased shuffle lands far above.
    rng = Random(2024)
    counts = [[0] * 4 for _ in range(36)]
    n = 3600
    for i in range(n):
        deal = deal_cards(rng, i % 4)
        for seat, hand in enumerate(deal.hands):
            for c in range(36):
                counts[c][seat] += hand >> c & 1
    expected = n / 4
    chi2 = sum((k - expected) ** 2 / expected for row in counts for k in row)
    assert chi2 < 171, chi2


class InOrder:
    """A generator whose keys rise: the deck comes out unshuffled, card 0 first."""

    def __init__(self) -> None:
        self.n = 0

    def random(self) -> float:
        self.n += 1
        return self.n / 100


def test_three_rounds_of_three_starting_right_of_the_dealer():
    deal = deal_cards(InOrder(), 2)  # type: ignore[arg-type]
    packets = {seat: [] for seat in range(4)}
    for packet in range(12):  # seat 3 (right of the dealer) first, three cards at a time
        packets[(2 + 1 + packet) % 4] += [3 * packet, 3 * packet + 1, 3 * packet + 2]
    for seat in range(4):
        assert deal.hands[seat] == sum(1 << c for c in packets[seat]), seat
    assert deal.hands[3] == sum(1 << c for c in (0, 1, 2, 12, 13, 14, 24, 25, 26))
