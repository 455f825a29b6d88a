"""Gold labels and the metrics computed against them."""
