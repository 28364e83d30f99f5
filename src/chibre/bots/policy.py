"""How a seat plays (le jeu d'un joueur): a small learned policy, for reading the table.

Two models give the probability of each action a seat took, given that seat's cards and what it
could see then:

- the **card model** scores every card of the hand at a moment of the play (the contract, the
  trick so far, the cards already played this hand, the seat's place in the trick) with a
  one-hidden-layer network over features of the card and the hand — is it trump, its points,
  its rank, whether it is the best card left of its suit, whether it follows, trumps in or
  discards, whether it takes the trick, whether the partner holds it, how many cards of the
  suit the hand and the others hold, … — and the probability of a card is the softmax of the
  scores over the legal cards;
- the **contract model** scores naming each contract and chibrer the same way, from the hand
  counts (``sampling.hand_counts``), trump length, bourg and nell.

The weights were learned from the decisions of the project's own players in self-play
(``python -m chibre.bots.policy_train``, see there); they ship inside the package
(``policy_weights.json``, with the command and seed that made them) and load with no network.
Inference is plain numpy, vectorised over many possible hands at once: ``card_log_probs``
gives, for each hand of a batch, the log-probability of the card that was played.

A ``Moment`` holds only what the acting seat saw; the models never see another hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from chibre.bots.sampling import hand_counts
from chibre.cards import SUIT_MASKS
from chibre.observation import Observation
from chibre.play import BOURG, CARD_POINTS, LOWER_TRUMPS, STRENGTH, TRUMP_STRENGTH

Array = npt.NDArray[Any]

PUBLIC_FEATURES = 17
HAND_FEATURES = 5
CARD_FEATURES = PUBLIC_FEATURES + HAND_FEATURES
CONTRACT_FEATURES = 9
CHIBRE = 6
"""The contract model's option for chibrer (options 0..5 are the contracts)."""

_SUIT = np.array([c // 9 for c in range(36)])
_BITS = np.array([1 << c for c in range(36)], dtype=np.uint64)
_SHIFTS = np.array([0, 9, 18, 27], dtype=np.uint64)


@dataclass(frozen=True)
class Moment:
    """A card decision as the table saw it: ``seat`` to play on ``trick`` (the cards before
    its own, from the leader) in ``contract``, ``played`` the cards already played this hand
    (those of ``trick`` included), ``tricks_played`` the tricks complete."""

    seat: int
    contract: int
    trick: tuple[int, ...]
    played: int
    tricks_played: int


def moments(observation: Observation) -> list[tuple[Moment, int]]:
    """Every card played this hand so far, with the moment it was played at."""
    o = observation
    out: list[tuple[Moment, int]] = []
    played = 0
    tricks = [(t.leader, t.cards) for t in o.tricks]
    if o.trick:
        tricks.append((o.trick_leader, o.trick))
    for n, (leader, cards) in enumerate(tricks):
        for i, c in enumerate(cards):
            trick = tuple(cards[:i])
            out.append((Moment((leader + i) & 3, o.contract, trick, played, n), c))
            played |= 1 << c
    return out


def _rank(contract: int, c: int) -> int:
    """The card's trick order within its suit (0 the lowest, 8 the highest)."""
    s = c // 9
    if contract < 4 and s == contract:
        return TRUMP_STRENGTH[c % 9]
    return 8 - c % 9 if contract == 5 else c % 9


@cache
def _above(contract: int) -> tuple[int, ...]:
    """For each card, the cards of its suit that beat it."""
    return tuple(
        sum(
            1 << x
            for x in range(9 * (c // 9), 9 * (c // 9) + 9)
            if _rank(contract, x) > _rank(contract, c)
        )
        for c in range(36)
    )


@cache
def _tables(contract: int) -> tuple[Array, Array]:
    """The contract's masks of higher and lower cards of the same suit, as uint64 arrays."""
    above = _above(contract)
    below = tuple(SUIT_MASKS[c // 9] & ~above[c] & ~(1 << c) for c in range(36))
    return np.array(above, dtype=np.uint64), np.array(below, dtype=np.uint64)


def _winner(m: Moment) -> tuple[int, int]:
    """The seat and card holding the trick so far (-1, -1 before the lead)."""
    if not m.trick:
        return -1, -1
    led = m.trick[0] // 9
    strength = STRENGTH[m.contract][led]
    best = max(range(len(m.trick)), key=lambda i: strength[m.trick[i]])
    leader = (m.seat - len(m.trick)) & 3
    return (leader + best) & 3, m.trick[best]


MOMENTS_KEPT = 1024
"""How many moments' public features are kept: the reading asks for the same moments at each
decision of a hand, the rollouts for thousands seen once; kept without bound, a player that
plays for days would keep them all."""


@lru_cache(maxsize=MOMENTS_KEPT)
def public_features(m: Moment) -> Array:
    """The features of each of the 36 cards that do not depend on the hand (36 × 17)."""
    k = len(m.trick)
    contract = m.contract
    points = CARD_POINTS[contract]
    above = _above(contract)
    unplayed = ~m.played
    win_seat, win_card = _winner(m)
    led = m.trick[0] // 9 if m.trick else -1
    on_table = sum(points[c] for c in m.trick)
    partner_holds = win_seat >= 0 and (win_seat ^ m.seat) & 1 == 0
    f = np.zeros((36, PUBLIC_FEATURES), dtype=np.float32)
    for c in range(36):
        s = c // 9
        trump = contract < 4 and s == contract
        f[c, 0] = trump
        f[c, 1] = points[c] / 11
        f[c, 2] = _rank(contract, c) / 8
        f[c, 3] = not above[c] & unplayed
        f[c, 4 + k] = 1
        if k:
            f[c, 8] = s == led
            f[c, 9] = trump and led != contract
            f[c, 10] = s != led and not trump
            f[c, 11] = STRENGTH[contract][led][c] > STRENGTH[contract][led][win_card]
            f[c, 12] = partner_holds
        f[c, 13] = on_table / 30
        f[c, 14] = contract == 4
        f[c, 15] = contract == 5
        f[c, 16] = m.tricks_played / 8
    return f


def legal_masks(m: Moment, hands: Array) -> Array:
    """``chibre.play.legal_cards`` for a batch of hands (uint64), as uint64 masks."""
    if not m.trick:
        return hands
    led = m.trick[0] // 9
    follow = hands & np.uint64(SUIT_MASKS[led])
    contract = m.contract
    if contract >= 4:
        return np.where(follow != 0, follow, hands)
    trumps = hands & np.uint64(SUIT_MASKS[contract])
    if led == contract:
        ok = (trumps != 0) & (trumps != np.uint64(BOURG[contract]))
        return np.where(ok, trumps, hands)
    allowed = np.where(follow != 0, follow | trumps, hands)
    played_trumps = [c for c in m.trick if c // 9 == contract]
    if played_trumps:
        high = max(played_trumps, key=lambda c: TRUMP_STRENGTH[c % 9])
        lower = np.uint64(LOWER_TRUMPS[contract][high])
        allowed = np.where(trumps != hands, allowed & ~lower, allowed)
    return allowed


def card_features(m: Moment, hands: Array) -> tuple[Array, Array]:
    """Features (D × 36 × 22) and legal cards (D × 36, bool) of a batch of D hands (uint64)
    held at moment ``m``."""
    hands = np.asarray(hands, dtype=np.uint64)
    d = hands.shape[0]
    above, below = _tables(m.contract)
    held = (hands[:, None] & _BITS[None, :]) != 0
    legal = (legal_masks(m, hands)[:, None] & _BITS[None, :]) != 0
    per_suit = np.bitwise_count((hands[:, None] >> _SHIFTS[None, :]) & np.uint64(0x1FF))
    own = per_suit[:, _SUIT].astype(np.float32)
    unplayed = np.uint64(~m.played & ((1 << 36) - 1))
    out_suit = np.array(
        [int(SUIT_MASKS[s] & int(unplayed)).bit_count() for s in range(4)], dtype=np.float32
    )[_SUIT]
    h = np.zeros((d, 36, HAND_FEATURES), dtype=np.float32)
    h[:, :, 0] = own / 9
    if m.contract < 4:
        h[:, :, 1] = per_suit[:, m.contract, None] / 9
    h[:, :, 2] = (hands[:, None] & below[None, :]) == 0
    h[:, :, 3] = (hands[:, None] & above[None, :]) == 0
    h[:, :, 4] = (out_suit[None, :] - own) / 9
    pub = np.broadcast_to(public_features(m)[None], (d, 36, PUBLIC_FEATURES))
    return np.concatenate([pub, h], axis=2), legal & held


def contract_features(hand: int, may_chibre: bool, grid: tuple[int, ...]) -> Array:
    """One row per option (the six contracts, then chibrer when allowed) for ``hand``."""
    counts = hand_counts(hand)
    best = max(counts)
    rows = np.zeros((7 if may_chibre else 6, CONTRACT_FEATURES), dtype=np.float32)
    for k in range(6):
        r = rows[k]
        r[1] = counts[k] / 100
        r[2] = (counts[k] - best) / 20
        r[3] = k < 4
        r[4] = k == 4
        r[5] = k == 5
        if k < 4:
            trumps = hand & SUIT_MASKS[k]
            r[6] = trumps.bit_count() / 9
            r[7] = (bool(trumps & BOURG[k]) + bool(trumps >> (9 * k + 3) & 1)) / 2
        r[8] = grid[k] / 4
    if may_chibre:
        rows[6, 0] = 1
        rows[6, 1] = best / 100
    return rows


@dataclass(frozen=True)
class Network:
    """One hidden layer (ReLU) to one score: ``w1`` (F × H), ``b1`` (H), ``w2`` (H), ``b2``."""

    w1: Array
    b1: Array
    w2: Array
    b2: float

    def scores(self, x: Array) -> Array:
        """The score of each row of ``x`` (… × F → …)."""
        h = np.maximum(x @ self.w1 + self.b1, 0)
        result: Array = h @ self.w2 + self.b2
        return result

    def to_dict(self) -> dict[str, Any]:
        return {
            "w1": np.round(self.w1, 6).tolist(),
            "b1": np.round(self.b1, 6).tolist(),
            "w2": np.round(self.w2, 6).tolist(),
            "b2": round(float(self.b2), 6),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Network:
        return cls(
            np.array(d["w1"], dtype=np.float32),
            np.array(d["b1"], dtype=np.float32),
            np.array(d["w2"], dtype=np.float32),
            float(d["b2"]),
        )


@dataclass(frozen=True)
class Policy:
    """The card model and the contract model, with where they came from (``meta``)."""

    card: Network
    contract: Network
    meta: dict[str, Any]

    def card_log_probs(self, m: Moment, hands: Array, card: int) -> Array:
        """log P(``card`` | hand, ``m``) for each hand of the batch (−inf where it is not
        legal for that hand)."""
        x, legal = card_features(m, hands)
        s = np.full(legal.shape, -np.inf)
        s[legal] = self.card.scores(x[legal])  # only the legal cards are scored
        top = s.max(axis=1, keepdims=True)
        log_z = np.log(np.exp(s - top).sum(axis=1)) + top[:, 0]
        out: Array = s[:, card] - log_z
        return out

    def card_probs(self, m: Moment, hand: int) -> dict[int, float]:
        """The probability of each legal card of ``hand`` at ``m``."""
        x, legal = card_features(m, np.array([hand], dtype=np.uint64))
        s = np.where(legal[0], self.card.scores(x[0]), -np.inf)
        p = np.exp(s - s.max())
        p /= p.sum()
        return {c: float(p[c]) for c in range(36) if legal[0, c]}

    def contract_log_prob(
        self, hand: int, may_chibre: bool, grid: tuple[int, ...], choice: int
    ) -> float:
        """log P(``choice`` | hand): a contract 0..5 or ``CHIBRE``."""
        s = self.contract.scores(contract_features(hand, may_chibre, grid))
        top = float(s.max())
        return float(s[choice] - top - np.log(np.exp(s - top).sum()))

    def contract_log_probs(
        self, hands: list[int], may_chibre: bool, grid: tuple[int, ...], choice: int
    ) -> Array:
        """``contract_log_prob`` for each hand of a list, scored in one batch."""
        x = np.stack([contract_features(h, may_chibre, grid) for h in hands])
        s = self.contract.scores(x)
        top = s.max(axis=1, keepdims=True)
        out: Array = s[:, choice] - top[:, 0] - np.log(np.exp(s - top).sum(axis=1))
        return out

    def contract_probs(self, hand: int, may_chibre: bool, grid: tuple[int, ...]) -> list[float]:
        """The probability of each option (six contracts, then chibrer when allowed)."""
        s = self.contract.scores(contract_features(hand, may_chibre, grid))
        p = np.exp(s - s.max())
        return [float(x) for x in p / p.sum()]

    def to_dict(self) -> dict[str, Any]:
        return {"meta": self.meta, "card": self.card.to_dict(), "contract": self.contract.to_dict()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Policy:
        return cls(Network.from_dict(d["card"]), Network.from_dict(d["contract"]), d["meta"])


WEIGHTS = "policy_weights.json"


@cache
def shipped_policy() -> Policy:
    """The policy whose weights ship with the package."""
    text = resources.files("chibre.bots").joinpath(WEIGHTS).read_text(encoding="utf-8")
    return Policy.from_dict(json.loads(text))


class ActionModel(Protocol):
    """What reading the table needs of a model: the log-probability of a card played at a
    moment, and of a contract choice, for a batch of hands."""

    def card_log_probs(self, m: Moment, hands: Array, card: int) -> Array: ...

    def contract_log_probs(
        self, hands: list[int], may_chibre: bool, grid: tuple[int, ...], choice: int
    ) -> Array: ...


class Uninformed:
    """A model that tells nothing: every action is as likely whatever the cards (each deal's
    likelihood is 1), so weighing deals by it changes nothing."""

    def card_log_probs(self, m: Moment, hands: Array, card: int) -> Array:
        return np.zeros(len(hands))

    def contract_log_probs(
        self, hands: list[int], may_chibre: bool, grid: tuple[int, ...], choice: int
    ) -> Array:
        return np.zeros(len(hands))
