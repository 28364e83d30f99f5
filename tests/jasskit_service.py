"""jass-kit's own player service (its Flask ``PlayerServiceApp``), run as a subprocess by the
protocol tests: ``python tests/jasskit_service.py PORT``.

- ``random``: the kit's ``AgentRandomSchieber``;
- ``slow``: the same, after sleeping ``SLOW`` seconds a decision (past a short time limit);
- ``first``: names ♦ and plays the first card it holds, legal or not;
- ``broken``: fails on every request (the kit answers 500).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from jass.agents.agent import Agent
from jass.agents.agent_random_schieber import AgentRandomSchieber
from jass.service.player_service_app import PlayerServiceApp

SLOW = 1.0


class Slow(AgentRandomSchieber):  # type: ignore[misc]
    def action_trump(self, obs):  # type: ignore[no-untyped-def]
        time.sleep(SLOW)
        return super().action_trump(obs)

    def action_play_card(self, obs):  # type: ignore[no-untyped-def]
        time.sleep(SLOW)
        return super().action_play_card(obs)


class First(Agent):  # type: ignore[misc]
    def action_trump(self, obs):  # type: ignore[no-untyped-def]
        return 0

    def action_play_card(self, obs):  # type: ignore[no-untyped-def]
        return int(np.flatnonzero(obs.hand)[0])


class Broken(Agent):  # type: ignore[misc]
    def action_trump(self, obs):  # type: ignore[no-untyped-def]
        raise RuntimeError("broken")

    def action_play_card(self, obs):  # type: ignore[no-untyped-def]
        raise RuntimeError("broken")


if __name__ == "__main__":
    app = PlayerServiceApp("jasskit_service")
    app.add_player("random", AgentRandomSchieber())
    app.add_player("slow", Slow())
    app.add_player("first", First())
    app.add_player("broken", Broken())
    app.run(host="127.0.0.1", port=int(sys.argv[1]), threaded=True)
