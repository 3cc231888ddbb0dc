"""The compute API (Nova-compatible v2.1)."""
