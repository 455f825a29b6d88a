"""The Workbench: every view in one place, sharing one session.

Ask (live investigation and cited answer), Impact radar, Explorer, History,
Observatory — with the policy toggle on top so the active policy (and its
evaluation badge) is always in view. Every answer is saved to history.
"""

from __future__ import annotations

import ipywidgets as w

from widgets.ask import AskView
from widgets.explorer import Explorer
from widgets.history import HistoryView
from widgets.html import escape
from widgets.observatory import Observatory
from widgets.policy_toggle import PolicyToggle
from widgets.radar import ImpactRadar
from widgets.session import Session

TITLES = ("Ask", "Impact radar", "Explorer", "History", "Observatory")


class Workbench(w.VBox):
    """Compose the views; each is also usable alone (``Workbench(session).ask`` etc.)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.policy = PolicyToggle(session)
        self.ask = AskView(session)
        self.radar = ImpactRadar(session)
        self.explorer = Explorer(session)
        self.history = HistoryView(session)
        self.observatory = Observatory(session)
        self.ask.on_answer(self._remember)
        self.tabs = w.Tab(
            children=[self.ask, self.radar, self.explorer, self.history, self.observatory]
        )
        for index, title in enumerate(TITLES):
            self.tabs.set_title(index, title)
        header = w.HTML(
            "<h3 style='margin:4px 0'>ZEHN workbench</h3>"
            f"<small>graph <b>{escape(session.graph)}</b> · "
            "answers cite verbatim sentences or say “I don't know”</small>"
        )
        super().__init__([header, self.policy, self.tabs])

    def _remember(self, answer: object) -> None:
        self.history.record(answer)  # type: ignore[arg-type]
        self.history.refresh()
