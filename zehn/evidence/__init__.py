"""Whether a path may be walked and how far its sentences carry it: policies, the hop grader,
staleness of citations."""
