"""Services for reviewers and the workbench: audit labels and their statistics, investigation
history, the graph observatory."""
