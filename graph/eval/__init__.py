"""Evaluation over several annotated corpora: gold converters, scorers, the table of
`paperkg eval --corpus NAME` / `paperkg eval --all` (see tests/gold/README.md)."""
