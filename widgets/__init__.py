"""ipywidgets views over the ``zehn`` package (ask, impact radar, explorer, graph, policy, audit).

This package imports ``zehn``; ``zehn`` never imports it. The views arrive with
the analyst-workbench issue; until then the notebooks use ``zehn`` directly.
"""

__all__: list[str] = []
