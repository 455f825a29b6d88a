"""The Workbench: every view in one place, sharing one session.

Ask (live investigation and cited answer), Impact radar, Explorer, History,
Observatory, Corpus (your own documents built into a graph) and Curate entities —
with the policy toggle on top so the active policy (and its evaluation badge) is
always in view, and a header naming the active graph, which follows a build.
Every answer is saved to history.
"""

from __future__ import annotations

import ipywidgets as w

from widgets.ask import AskView
from widgets.corpus import CorpusView
from widgets.curation import add_curation_tab
from widgets.explorer import Explorer
from widgets.history import HistoryView
from widgets.html import escape
from widgets.observatory import Observatory
from widgets.policy_toggle import PolicyToggle
from widgets.radar import ImpactRadar
from widgets.session import Session

TITLES = ("Ask", "Impact radar", "Explorer", "History", "Observatory", "Corpus")


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
        self.corpus = CorpusView(session)
        self.ask.on_answer(self._remember)
        self.tabs = w.Tab(
            children=[
                self.ask, self.radar, self.explorer, self.history, self.observatory, self.corpus
            ]
        )  # fmt: skip
        for index, title in enumerate(TITLES):
            self.tabs.set_title(index, title)
        self.curation = add_curation_tab(self.tabs, session)  # "Curate entities", after Corpus
        self.header = w.HTML()
        self._show_graph()
        session.observe(lambda _: self._show_graph(), names="graph")  # a build switches it
        super().__init__([self.header, self.policy, self.tabs])

    def _show_graph(self) -> None:
        self.header.value = (
            "<h3 style='margin:4px 0'>ZEHN workbench</h3>"
            f'<small>graph <b class="zehn-active-graph">{escape(self.session.graph)}</b> · '
            "answers cite verbatim sentences or say “I don't know” · "
            "your own documents: the <i>Corpus</i> tab</small>"
        )

    def _remember(self, answer: object) -> None:
        self.history.record(answer)  # type: ignore[arg-type]
        self.history.refresh()
