"""The diagrams part of the reading layer: Mermaid, PlantUML and DOT edges cited to their
line (``reader``), parsed by ``syntax``, read by what the diagram is about (``context``) and by
its legend (``legend``).
"""
