"""Our players at the HSLU jass-kit's table, and the kit's agents (``Agent``) at ours.

An optional extra: jass-kit is GPL-licensed and is installed with the ``reference`` extra
(``pip install '.[reference]'`` in the checkout); nothing else in chibre imports this module.

- ``JasskitAgent(player)`` is a jass-kit ``Agent`` (``action_trump``, ``action_play_card``)
  that builds our ``Observation`` from the kit's ``GameObservation`` and asks one of our
  players (``make_player("rule")`` …).
- ``JasskitPlayer(agent)`` is one of our players that builds the kit's ``GameObservation``
  from our ``Observation`` and asks a jass-kit agent (``AgentRandomSchieber`` …);
  ``JasskitRandomPlayer(seed)`` seats the kit's random agent by name.

The mapping (jass-kit → ours):

- Seats: the kit numbers N 0, E 1, S 2, W 3 and plays N → W → S → E; its seat ``p`` is our
  seat ``-p mod 4`` (N 0, W 1, S 2, E 3), so teams stay N+S = {0, 2} and E+W = {1, 3}.
- Cards: the kit's index is ``suit * 9 + offset`` with offsets A 0 … 6 8; ours is
  ``suit * 9 + rank`` with ranks 6 0 … A 8. Suits agree (♦ ♥ ♠ ♣ = 0 1 2 3).
- Contracts: trumps 0–3 agree, Obe-abe 4 = our Obenabe, Une-ufe 5 = our Undenufe. The kit's
  ``PUSH`` (10, or ``PUSH_ALT`` 6) is our ``Chibre()``; ``forehand`` 1 means the chooser named
  the contract, 0 that it was pushed (``chibres == 1``), -1 that nothing is named yet.
- Dealer and chooser: the kit's forehand is the player after the dealer; in a first hand our
  chooser may be the holder of the 7♦ instead, so the kit is shown the seat before our chooser
  as the dealer (as ``chibre.jasskit`` writes files).
- Rules: the kit plays card points only — no weis, no stöck, no match bonus, no multipliers,
  one hand at a time. ``JASSKIT_RULES`` are those rules in our terms. A jass-kit agent at one of
  our tables never declares weis or stöck itself (the table may still do it for it under
  ``auto_weis`` / ``auto_stoeck``), never plays the pique double, and thanks when thanking
  wins, as our players do.
- The kit's own rule check allows some undertrumps our rules forbid (a known bug of the kit:
  with two trumps in the trick it compares against the lower one, not the higher). A kit
  agent that picks such a card at our table has it refused: ``JasskitPlayer`` then plays
  another legal card chosen from the seed and records the refusal in ``refused`` (or raises
  ``IllegalCard`` with ``strict=True``). Our players' cards are always valid in the kit.
"""

from __future__ import annotations

from typing import Any

try:
    import numpy as np
    from jass.agents.agent import Agent
    from jass.agents.agent_random_schieber import AgentRandomSchieber
    from jass.game.const import PUSH, PUSH_ALT
    from jass.game.game_observation import GameObservation
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "chibre.bots.jasskit_agents needs the HSLU jass-kit: install the extra "
        "'reference' (in the checkout: .venv/bin/pip install '.[reference]')"
    ) from e

from chibre.actions import Action, Chibre, Choose, Play, Thank
from chibre.bots.player import Player, decision_rng, may_thank
from chibre.cards import card_code, cards_of
from chibre.errors import IllegalAction, IllegalCard
from chibre.hand import Trick
from chibre.jasskit import RULES
from chibre.observation import Observation
from chibre.play import legal_cards, why_illegal
from chibre.rules import Rules

JASSKIT_RULES = RULES
"""The rules the jass-kit plays, in our terms: card points only, forehand after the dealer."""

_CONTRACT_ACTIONS: tuple[Action, ...] = tuple(Choose(k) for k in range(6))


# --- cards, seats, contracts -----------------------------------------------------------------


def card_from_jasskit(index: int) -> int:
    """Our card for the kit's card index (A K Q J 10 9 8 7 6 within a suit)."""
    i = int(index)
    if not 0 <= i < 36:
        raise ValueError(f"jass-kit card index {i} is not 0..35")
    return i // 9 * 9 + 8 - i % 9


card_to_jasskit = card_from_jasskit
"""The kit's card index for our card (the map is its own inverse)."""


def seat_from_jasskit(p: int) -> int:
    """Our seat for the kit's seat ``p`` (N 0, E 1, S 2, W 3); its own inverse."""
    return -int(p) % 4


seat_to_jasskit = seat_from_jasskit


def action_from_trump(trump: int) -> Chibre | Choose:
    """Our contract action for the kit's trump action (0–5, or ``PUSH``)."""
    t = int(trump)
    if t in (PUSH, PUSH_ALT):
        return Chibre()
    if 0 <= t <= 5:
        return Choose(t)
    raise IllegalAction(f"jass-kit trump action {t} is not 0..5 (a contract) or {PUSH} (push)")


def trump_from_action(action: Action) -> int:
    """The kit's trump action for our contract action: ``Chibre()`` is ``PUSH``."""
    if isinstance(action, Chibre):
        return int(PUSH)
    if isinstance(action, Choose):
        if action.double:
            raise IllegalAction("the jass-kit has no pique double")
        return int(action.contract)
    raise IllegalAction(f"{action!r} is not a contract action")


# --- observations ----------------------------------------------------------------------------


def observation_from_jasskit(obs: Any, rules: Rules = JASSKIT_RULES) -> Observation:
    """Our ``Observation`` of the seat the kit's ``GameObservation`` was made for.

    Scores are the trick points of the hand so far (the kit knows one hand only); the legal
    actions are filled in when that seat is to act.
    """
    seat = seat_from_jasskit(obs.player_view if obs.player_view >= 0 else obs.player)
    dealer = seat_from_jasskit(obs.dealer)
    chooser = (dealer + 1) % 4
    to_act = seat_from_jasskit(obs.player) if obs.player >= 0 else -1
    hand = 0
    for i in np.flatnonzero(obs.hand):
        hand |= 1 << card_from_jasskit(int(i))
    chibres = 1 if obs.forehand == 0 else 0
    contract = int(obs.trump)
    contract_seat = -1
    if contract >= 0:
        contract_seat = chooser if obs.forehand == 1 else (chooser + 2) % 4
    tricks: list[Trick] = []
    for n in range(int(obs.nr_tricks)):
        cards = tuple(card_from_jasskit(c) for c in obs.tricks[n])
        leader = seat_from_jasskit(obs.trick_first_player[n])
        tricks.append(
            Trick(leader, cards, seat_from_jasskit(obs.trick_winner[n]), int(obs.trick_points[n]))
        )
    trick: tuple[int, ...] = ()
    leader = chooser
    played = int(obs.nr_played_cards)
    if contract >= 0 and played < 36:
        n = int(obs.nr_tricks)
        trick = tuple(card_from_jasskit(c) for c in obs.tricks[n][: int(obs.nr_cards_in_trick)])
        if obs.trick_first_player[n] >= 0:
            leader = seat_from_jasskit(obs.trick_first_player[n])
    phase = "contract" if contract < 0 else ("play" if played < 36 else "deal")
    team_points = [0, 0]
    for t in tricks:
        team_points[t.winner & 1] += t.points
    legal: tuple[Action, ...] = ()
    if to_act == seat and phase == "contract":
        legal = (*_CONTRACT_ACTIONS, Chibre()) if chibres == 0 else _CONTRACT_ACTIONS
    elif to_act == seat and phase == "play":
        legal = tuple(Play(c) for c in cards_of(legal_cards(hand, trick, contract)))
    return Observation(
        seat=seat, rules=rules, hand_number=0, dealer=dealer, chooser=chooser, phase=phase,
        to_act=to_act, hand=hand, chibres=chibres, contract=contract,
        contract_seat=contract_seat, factor=1, tricks=tuple(tricks), trick=trick,
        trick_leader=leader, announced=(0, 0, 0, 0), own_weis=(), shown_weis=(), weis_team=-1,
        stoeck_seat=-1, hand_points=(team_points[0], team_points[1]), totals=(0, 0), winner=-1,
        striche=(0, 0), legal_actions=legal,
    )  # fmt: skip


def observation_to_jasskit(obs: Observation) -> Any:
    """The kit's ``GameObservation`` for our observation (the current hand only).

    Its ``points`` are the trick points of this hand, before any multiplier.
    """
    g = GameObservation()
    g.dealer = seat_to_jasskit((obs.chooser - 1) % 4)
    g.player = seat_to_jasskit(obs.to_act) if obs.to_act >= 0 else -1
    g.player_view = seat_to_jasskit(obs.seat)
    for c in cards_of(obs.hand):
        g.hand[card_to_jasskit(c)] = 1
    if obs.contract >= 0:
        g.trump = obs.contract
        g.forehand = 0 if obs.chibres else 1
        g.declared_trump = seat_to_jasskit(obs.contract_seat)
    else:
        g.forehand = 0 if obs.chibres else -1
        return g
    for n, t in enumerate(obs.tricks):
        g.tricks[n, :] = [card_to_jasskit(c) for c in t.cards]
        g.trick_first_player[n] = seat_to_jasskit(t.leader)
        g.trick_winner[n] = seat_to_jasskit(t.winner)
        g.trick_points[n] = t.points
        g.points[t.winner & 1] += t.points
    n = len(obs.tricks)
    g.nr_tricks = n
    g.nr_cards_in_trick = len(obs.trick)
    g.nr_played_cards = 4 * n + len(obs.trick)
    if n < 9:
        g.tricks[n, : len(obs.trick)] = [card_to_jasskit(c) for c in obs.trick]
        g.trick_first_player[n] = seat_to_jasskit(obs.trick_leader)
        g.current_trick = g.tricks[n]
    else:
        g.current_trick = None
    return g


# --- our players as jass-kit agents ----------------------------------------------------------


class JasskitAgent(Agent):  # type: ignore[misc]
    """One of our players as a jass-kit ``Agent``: it sees the kit's observation, converted."""

    def __init__(self, player: Player, rules: Rules = JASSKIT_RULES) -> None:
        self.player = player
        self.rules = rules

    def action_trump(self, obs: Any) -> int:
        """The kit's trump action: 0–5, or ``PUSH`` for our chibre."""
        ours = observation_from_jasskit(obs, self.rules)
        if ours.phase != "contract":
            raise IllegalAction("the contract is already named")
        return trump_from_action(self.player.act(ours))

    def action_play_card(self, obs: Any) -> int:
        """The kit's index of the card our player plays."""
        ours = observation_from_jasskit(obs, self.rules)
        action = self.player.act(ours)
        if not isinstance(action, Play):
            raise IllegalAction(f"{self.player.name} answered {action!r}, not a card")
        return card_to_jasskit(action.card)


# --- jass-kit agents as our players ----------------------------------------------------------


class JasskitPlayer:
    """A jass-kit ``Agent`` as one of our players (for the rules the kit plays).

    ``refused`` lists ``(card, reason)`` for every card the agent chose that our rules forbid
    (the kit's undertrump check is looser than the rules); with ``strict`` such a card raises
    ``IllegalCard`` instead of being replaced.
    """

    def __init__(self, agent: Any, name: str = "jasskit", seed: int = 0, strict: bool = False):
        self.agent = agent
        self.name = name
        self.seed = seed
        self.strict = strict
        self.refused: list[tuple[int, str]] = []

    def ask(self, observation: Observation) -> None:
        """Prepare the agent for one decision (nothing by default)."""

    def act(self, observation: Observation) -> Action:
        o = observation
        if may_thank(o):
            return Thank()
        self.ask(o)
        g = observation_to_jasskit(o)
        if o.phase == "contract":
            action: Action = action_from_trump(self.agent.action_trump(g))
            if action not in o.legal_actions:
                if isinstance(action, Chibre):
                    raise IllegalAction(f"{self.name} pushed, but the choice was already pushed")
                raise IllegalAction(f"{self.name} answered {action!r}: not a contract now")
            return action
        card = card_from_jasskit(self.agent.action_play_card(g))
        plays = [a for a in o.legal_actions if isinstance(a, Play)]
        plain = [a for a in plays if a.card == card and not a.weis and not a.stoeck]
        if plain:
            return plain[0]
        why = why_illegal(o.hand, o.trick, o.contract, card) or f"{card_code(card)} is not legal"
        if self.strict:
            raise IllegalCard(f"{self.name} plays {card_code(card)}: {why}")
        self.refused.append((card, why))
        bare = [a for a in plays if not a.weis and not a.stoeck] or plays
        return decision_rng(self.seed, o).choice(bare)


class JasskitRandomPlayer(JasskitPlayer):
    """The kit's ``AgentRandomSchieber`` at our table, its generator drawn from the seed and
    the public moment for each decision (so a seed replays the same game)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(AgentRandomSchieber(), name="jasskit-random", seed=seed)

    def ask(self, observation: Observation) -> None:
        rng = decision_rng(self.seed, observation)
        self.agent._rng = np.random.default_rng(rng.getrandbits(64))


PLAYER_ENTRY: tuple[str, str, dict[str, Any]] = (__name__, "JasskitRandomPlayer", {})
"""How ``chibre.bots.PLAYERS`` names the kit's random agent (``"jasskit-random"``)."""

__all__ = [
    "JASSKIT_RULES",
    "PLAYER_ENTRY",
    "JasskitAgent",
    "JasskitPlayer",
    "JasskitRandomPlayer",
    "action_from_trump",
    "card_from_jasskit",
    "card_to_jasskit",
    "observation_from_jasskit",
    "observation_to_jasskit",
    "seat_from_jasskit",
    "seat_to_jasskit",
    "trump_from_action",
]
