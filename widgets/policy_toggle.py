"""Policy toggle: lists ``policies/*.yaml``; the active one is always shown, with its badge."""

from __future__ import annotations

from pathlib import Path

import ipywidgets as w

from widgets.html import badge, error_box, escape
from widgets.session import Session
from zehn import Policy, PolicyError, list_policies
from zehn.evidence.policy import POLICY_DIR


class PolicyToggle(w.VBox):
    """A dropdown of policies and a line saying which one is active and what it blocks."""

    def __init__(self, session: Session, directory: str | None = None) -> None:
        self.session = session
        try:
            policies = list_policies(POLICY_DIR if directory is None else Path(directory))
        except PolicyError as e:
            super().__init__([w.HTML(error_box(e))])
            return
        self._policies = {p.name: p for p in policies}
        self.dropdown = w.Dropdown(
            options=sorted(self._policies), value=session.policy.name, description="Policy"
        )
        self.status = w.HTML()
        self.dropdown.observe(self._chosen, names="value")
        session.on_policy_change(self._show)
        self._show(session.policy)
        super().__init__([self.dropdown, self.status])

    def _chosen(self, change: dict[str, object]) -> None:
        self.session.policy = self._policies[str(change["new"])]

    def _show(self, policy: Policy) -> None:
        blocked = "; ".join(
            f"{escape(p)} not walked: {escape(policy.evaluated(p) or why)}"
            for p, why in policy.blocked().items()
        )
        self.status.value = (
            f"{badge(policy)}<br><small>{blocked or 'every predicate is walked'}</small>"
        )
        if self.dropdown.value != policy.name:
            self.dropdown.value = policy.name
