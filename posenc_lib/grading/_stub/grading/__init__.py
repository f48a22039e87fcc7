"""``posenc_lib.grading`` inside a learner's box: only ``_runner`` (copied in)."""
