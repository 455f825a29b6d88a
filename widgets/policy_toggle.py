"""Policy toggle: lists ``policies/*.yaml``; the active one is always shown, with its badge.

*Evaluate on this graph* measures the active policy on the active graph's reviewed edges
(``zehn.review.policy_eval``, as ``zehn policy evaluate``) and shows the table; *Write
evaluation* records it in the policy file, applies its proposals and makes the rewritten policy
the active one, so answers then walk what the labels support and quote the evaluation."""

from __future__ import annotations

from pathlib import Path

import ipywidgets as w

from widgets.html import badge, error_box, escape
from widgets.session import Session
from zehn import Policy, PolicyError, ZehnError, list_policies
from zehn.evidence.policy import POLICY_DIR, load_policy
from zehn.review.policy_eval import PolicyEvaluation, evaluate_policy, write_evaluation


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
        self.evaluate_button = w.Button(description="Evaluate on this graph")
        self.write_button = w.Button(description="Write evaluation", disabled=True)
        self.evaluation = w.HTML()
        self._measured: PolicyEvaluation | None = None
        self.evaluate_button.on_click(lambda _: self.evaluate())
        self.write_button.on_click(lambda _: self.write())
        self.dropdown.observe(self._chosen, names="value")
        session.on_policy_change(self._show)
        self._show(session.policy)
        buttons = w.HBox([self.evaluate_button, self.write_button])
        super().__init__([self.dropdown, self.status, buttons, self.evaluation])

    def evaluate(self) -> PolicyEvaluation | None:
        """Measure the active policy on the active graph's reviewed edges; show the table."""
        try:
            measured = evaluate_policy(self.session.client, self.session.graph, self.session.policy)
        except ZehnError as e:
            self.evaluation.value = error_box(e)
            self._measured, self.write_button.disabled = None, True
            return None
        self._measured = measured
        self.write_button.disabled = False
        self.evaluation.value = evaluation_html(measured)
        return measured

    def write(self) -> Policy | None:
        """Record the shown evaluation in the policy file and make the result active."""
        if self._measured is None:
            return None
        try:
            path = write_evaluation(self._measured, self.session.policy)
            written = load_policy(path)
        except ZehnError as e:
            self.evaluation.value = error_box(e)
            return None
        self._policies[written.name] = written
        self.session.policy = written
        self.write_button.disabled, self._measured = True, None
        self.evaluation.value += f"<small>written to <code>{escape(path)}</code></small>"
        return written

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


def evaluation_html(evaluation: PolicyEvaluation) -> str:
    """The evaluation as a table: one row per predicate, the proposal last."""
    rows = "".join(
        f"<tr><td>{escape(p.predicate)}</td><td>{p.edges}</td>"
        f"<td>{'-' if p.supported_share is None else f'{p.supported_share:.0%}'}</td>"
        f"<td>{p.correct}/{p.audited}</td>"
        f"<td>{'-' if p.low is None or p.high is None else f'{p.low:.2f}–{p.high:.2f}'}</td>"
        f"<td>{'walk' if p.walked else 'off'}</td>"
        f'<td class="zehn-proposal">{escape(p.proposal)}</td></tr>'
        for p in evaluation.predicates
    )
    return (
        f"<small>policy {escape(evaluation.policy)} on graph {escape(evaluation.graph)} "
        f"({escape(evaluation.date)}): walk when the audited precision's 95 % lower bound "
        f"reaches {evaluation.min_precision:.2f} with at least {evaluation.min_sample} audited "
        "edges</small><table class='zehn-policy-evaluation'><tr><th>predicate</th><th>edges</th>"
        "<th>supported</th><th>audited correct</th><th>95 % CI</th><th>now</th>"
        f"<th>proposal</th></tr>{rows}</table>"
    )
